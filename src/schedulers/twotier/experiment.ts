/**
 * One experiment cell of the MEASY paper's evaluation (Section 3): build a
 * workload, run one scheduler, return a plain record. Notebooks and sweep
 * engines call these; nothing here prints or plots.
 */
import { simulateBatch } from '../batch';
import { twoTierMetrics } from '../../metrics/twotier';
import { generateFeitelson96 } from '../../workloads/feitelson96';
import { offeredLoad, scaleToLoad } from '../../workloads/filters';
import { generateJann97 } from '../../workloads/jann97';
import { WorkloadJob } from '../../workloads/job';
import { loadTraceSync } from '../../workloads/traces';
import { withTsafrirEstimates } from '../../workloads/tsafrir05';
import { hashString } from '../../util/random';
import { simulateTwoTier, TwoTierJob, TwoTierPolicy } from './simulator';
import { assignCpuUsage } from './workload';

/** Workloads of the two-tier experiments: Feitelson 96, Jann 97 or the CTC-SP2 trace. */
export type MeasyWorkloadName = 'feitelson' | 'jann' | 'ctc';

/** A two-tier workload: its model or trace, jobs, load, CPU usage, machine size and seed. */
export interface MeasyWorkloadSpec {
  /** 'feitelson' (FWload), 'jann' (JWload) or 'ctc' (the real CTC-SP2 log). */
  workload: MeasyWorkloadName;
  /** Number of jobs (for 'ctc': the first `jobs` jobs of the log). */
  jobs: number;
  /** Target offered load; arrivals are rescaled to it (absent: the model's own load). */
  load?: number;
  /** 'paper': 100% for serial jobs, U(40%, 100%) per process otherwise; 'full': all 100%. */
  cpuUsage?: 'paper' | 'full';
  /** Processors (the paper: 320). */
  machineSize?: number;
  seed?: number;
}

/** A cached copy of the CTC log (it is parsed once per process). */
let ctcCache: WorkloadJob[] | undefined;

/**
 * Build a workload: generate (or read) jobs, add Tsafrir 2005 estimates
 * (generated workloads; the CTC log keeps its own requested times), assign
 * CPU usage, and scale inter-arrival times to the target load. The same spec
 * always gives the same jobs; the load scaling is the last step so every load
 * sees the same jobs, sizes, runtimes and estimates.
 */
export function measyWorkload(spec: MeasyWorkloadSpec): TwoTierJob[] {
  const P = spec.machineSize ?? 320;
  const seed = spec.seed ?? 1;
  const label = `${spec.workload}/${seed}`;
  let jobs: WorkloadJob[];
  if (spec.workload === 'feitelson') {
    jobs = withTsafrirEstimates(generateFeitelson96({ jobs: spec.jobs, seed: hashString(`${label}/jobs`) }), { seed: hashString(`${label}/est`) });
  } else if (spec.workload === 'jann') {
    jobs = withTsafrirEstimates(generateJann97({ jobs: spec.jobs, seed: hashString(`${label}/jobs`) }), { seed: hashString(`${label}/est`) });
  } else if (spec.workload === 'ctc') {
    ctcCache ??= loadTraceSync('CTC-SP2').jobs;
    // jobs wider than the simulated machine are left out (a handful of the 338-processor log)
    jobs = ctcCache.filter((j) => j.procs <= P).slice(0, spec.jobs);
    const t0 = jobs.length > 0 ? jobs[0].submit : 0;
    jobs = jobs.map((j) => ({ ...j, submit: j.submit - t0 }));
  } else {
    throw new RangeError(`measyWorkload: unknown workload '${(spec as { workload: string }).workload}' (feitelson | jann | ctc)`);
  }
  let out = assignCpuUsage(jobs, { seed: hashString(`${label}/cpu`), mode: spec.cpuUsage ?? 'paper' });
  if (spec.load !== undefined) out = scaleToLoad(out, P, spec.load) as typeof out;
  return out;
}

/** One two-tier sweep cell: a workload spec with the policy, load and migration cost to run. */
export interface MeasyCell extends MeasyWorkloadSpec {
  /** 'easy' runs the batch module's EASY (dedicated processors, no consolidation). */
  policy: TwoTierPolicy;
  /** MEASY migration cost, seconds (default 20). */
  migrationCost?: number;
  /** Whether the scheduler knows the CPU usage (default 'exact'). */
  cpuInfo?: 'exact' | 'none';
  /** Batch-means batches (default 10). */
  batches?: number;
}

/** Plain result record of one cell (a type alias, so it is a plain `Record<string, unknown>` row). */
export type MeasyCellRecord = {
  workload: MeasyWorkloadName;
  policy: TwoTierPolicy;
  load: number;
  offeredLoad: number;
  jobs: number;
  cpuUsage: 'paper' | 'full';
  cpuInfo: 'exact' | 'none';
  migrationCost: number;
  seed: number;
  meanResponse: number;
  responseCi95: number;
  meanBoundedSlowdown: number;
  slowdownCi95: number;
  migrations: number;
  migrationsPerJob: number;
  kills: number;
  swaps: number;
  /** Share of jobs that ever ran in a bg VM. */
  backgroundShare: number;
  /** Share of jobs that finished in a bg VM. */
  finishedInBackground: number;
  seconds: number;
};

/** Run one cell; pass `workload` to reuse jobs built by `measyWorkload(cell)`. */
export function runMeasyCell(cell: MeasyCell, workload?: readonly TwoTierJob[]): MeasyCellRecord {
  const P = cell.machineSize ?? 320;
  const jobs = workload ?? measyWorkload(cell);
  const t0 = Date.now();
  const base = {
    workload: cell.workload,
    policy: cell.policy,
    load: cell.load ?? NaN,
    offeredLoad: offeredLoad(jobs, P),
    jobs: jobs.length,
    cpuUsage: cell.cpuUsage ?? 'paper',
    cpuInfo: cell.cpuInfo ?? 'exact',
    migrationCost: cell.migrationCost ?? 20,
    seed: cell.seed ?? 1,
  } as const;
  if (cell.policy === 'easy') {
    const res = simulateBatch(jobs, { machineSize: P, policy: 'easy', estimates: 'requested' });
    const m = twoTierMetrics(res.map((r) => ({ id: r.id, submit: r.submit, start: r.start, end: r.end, runtime: r.runtime })), { batches: cell.batches });
    return { ...base, ...m, migrations: 0, migrationsPerJob: 0, kills: 0, swaps: 0, backgroundShare: 0, finishedInBackground: 0, seconds: (Date.now() - t0) / 1000 };
  }
  const run = simulateTwoTier(jobs, {
    machineSize: P,
    policy: cell.policy,
    migrationCost: base.migrationCost,
    cpuInfo: base.cpuInfo,
    estimates: 'requested',
    seed: hashString(`model/${base.seed}`),
  });
  const m = twoTierMetrics(run.jobs.map((r) => ({ id: r.id, submit: r.submit, start: r.start, end: r.finish, runtime: r.runtime })), { batches: cell.batches });
  const inBg = run.jobs.filter((j) => j.finishedIn === 'bg').length;
  return {
    ...base,
    ...m,
    migrations: run.migrations,
    migrationsPerJob: run.migrations / run.jobs.length,
    kills: run.kills,
    swaps: run.swaps,
    backgroundShare: run.backgroundPlacements / run.jobs.length,
    finishedInBackground: inBg / run.jobs.length,
    seconds: (Date.now() - t0) / 1000,
  };
}

/** Relative improvement of `policy` over EASY at each load (response time and bounded slowdown). */
export function measyImprovements(records: readonly MeasyCellRecord[], policy: TwoTierPolicy = 'measy'): {
  workload: MeasyWorkloadName; load: number; responseImprovement: number; slowdownImprovement: number;
}[] {
  const out: { workload: MeasyWorkloadName; load: number; responseImprovement: number; slowdownImprovement: number }[] = [];
  for (const r of records) {
    if (r.policy !== policy) continue;
    const base = records.find((b) => b.policy === 'easy' && b.workload === r.workload && b.load === r.load && b.seed === r.seed && b.jobs === r.jobs);
    if (!base) continue;
    out.push({
      workload: r.workload,
      load: r.load,
      responseImprovement: (base.meanResponse - r.meanResponse) / base.meanResponse,
      slowdownImprovement: (base.meanBoundedSlowdown - r.meanBoundedSlowdown) / base.meanBoundedSlowdown,
    });
  }
  return out;
}
