/**
 * Comparing batch policies — built-in or a user's — on real traces and
 * Lublin–Feitelson workloads swept over offered load, with replications for
 * confidence intervals, as one sweep (all cores, resumable, cached).
 *
 * Replications: a real trace has one history, so its replications are
 * `segments` windows of `jobs` consecutive jobs spread evenly over the trace
 * (each rebased to start at 0); a Lublin workload's replications are seeds.
 * Each window is then scaled to every offered load (inter-arrival times
 * stretched or compressed, `scaleToLoad`), so that the curves compare
 * policies on the same jobs at every load.
 */
import * as path from 'path';
import { defineSweep, Grid, SweepDefinition } from './grid';
import { runSweep, RunOptions } from './run';
import { simulateBatch, BatchEstimates, BatchQueueOrder } from '../schedulers/batch';
import { summarizeRun } from '../metrics/jobs';
import { rebase, scaleToLoad } from '../workloads/filters';
import { generateLublin } from '../workloads/lublin';
import { loadTraceSync } from '../workloads/traces';
import { WorkloadJob } from '../workloads/job';
import { InputError } from '../util/errors';
import { isPolicyRef, loadPolicyRef, PolicyRef } from '../util/modules';
import { fromPortable, isPortableRef, PortableRef } from '../util/portable';

/** A workload of the comparison: windows of a real trace, or seeded Lublin workloads. */
export type ComparisonWorkload =
  | { trace: string; jobs: number; segments: number }
  | { lublin: { jobs: number; machineSize: number }; seeds: number };

/** A policy of the comparison: a built-in name, a reference, or a label with a policy and a queue order. */
export type ComparisonPolicy =
  | string
  | PolicyRef
  | { label: string; policy: string | PolicyRef; order?: string | PortableRef };

export interface BatchComparisonOptions {
  /** Names the sweep and its results file. */
  name: string;
  workloads: ComparisonWorkload[];
  /** Offered loads to scale every window to. */
  loads: number[];
  policies: ComparisonPolicy[];
  /** Default 'requested'. */
  estimates?: BatchEstimates;
  /** Bounded-slowdown threshold in seconds (default 10). */
  threshold?: number;
  /** Bump when your policy's code changes and old results must not be reused. */
  version?: number | string;
}

/** One cell's row: the run summary of one policy on one window at one load. */
export type ComparisonRow = {
  workload: string;
  replication: number;
  load: number;
  policy: string;
  jobs: number;
  meanBsld: number;
  maxBsld: number;
  meanWait: number;
  meanResponse: number;
  utilization: number;
};

const workloadLabel = (w: ComparisonWorkload) => ('trace' in w ? w.trace : `Lublin-${w.lublin.machineSize}`);

function checkWorkload(w: ComparisonWorkload, i: number): void {
  const bad = (field: string, what: string) => new InputError(`compareBatchPolicies: workloads[${i}].${field} ${what}`, { source: 'compareBatchPolicies', field: `workloads[${i}].${field}` });
  const posInt = (x: unknown) => Number.isInteger(x) && (x as number) > 0;
  if ('trace' in w) {
    if (typeof w.trace !== 'string') throw bad('trace', 'must be a trace name');
    if (!posInt(w.jobs)) throw bad('jobs', 'must be a positive integer');
    if (!posInt(w.segments)) throw bad('segments', 'must be a positive integer');
  } else if ('lublin' in w) {
    if (!posInt(w.lublin?.jobs)) throw bad('lublin.jobs', 'must be a positive integer');
    if (!posInt(w.lublin?.machineSize)) throw bad('lublin.machineSize', 'must be a positive integer');
    if (!posInt(w.seeds)) throw bad('seeds', 'must be a positive integer');
  } else throw bad('', 'must have `trace` or `lublin`');
}

/** The comparison as a sweep definition (one grid per workload). */
export function batchComparisonSweep(o: BatchComparisonOptions): SweepDefinition {
  o.workloads.forEach(checkWorkload);
  if (o.loads.length === 0 || o.loads.some((l) => !(l > 0))) throw new InputError('compareBatchPolicies: loads must be positive numbers', { source: 'compareBatchPolicies', field: 'loads' });
  const grids: Grid[] = o.workloads.map((w) => ({
    workload: [w as never],
    replication_of: Array.from({ length: 'trace' in w ? w.segments : w.seeds }, (_, r) => r),
    load: o.loads,
    policy: o.policies as never[],
  }));
  return defineSweep({
    name: o.name,
    version: o.version ?? 1,
    cell: { module: __filename, export: 'batchComparisonCell' },
    grid: grids,
    fixed: { estimates: o.estimates ?? 'requested', threshold: o.threshold ?? 10 },
  });
}

/** Prepared windows of this worker, by key (a trace is read once per worker). */
const windows = new Map<string, { machineSize: number; jobs: WorkloadJob[] }>();

/** Replication `r` of a workload: a rebased window of a trace, or a seeded Lublin workload. */
export function comparisonWindow(w: ComparisonWorkload, r: number): { machineSize: number; jobs: WorkloadJob[] } {
  const key = JSON.stringify([w, r]);
  const hit = windows.get(key);
  if (hit) return hit;
  let value: { machineSize: number; jobs: WorkloadJob[] };
  if ('trace' in w) {
    const t = loadTraceSync(w.trace);
    const n = Math.min(w.jobs, t.jobs.length);
    const from = w.segments > 1 ? Math.floor((r * (t.jobs.length - n)) / (w.segments - 1)) : Math.floor((t.jobs.length - n) / 2);
    value = { machineSize: t.info.machineSize, jobs: rebase(t.jobs.slice(from, from + n)) };
  } else {
    value = { machineSize: w.lublin.machineSize, jobs: generateLublin({ jobs: w.lublin.jobs, machineSize: w.lublin.machineSize, seed: `compare-${r}` }) };
  }
  if (windows.size >= 8) windows.delete(windows.keys().next().value as string);
  windows.set(key, value);
  return value;
}

/** The display name of a comparison policy. */
export function comparisonPolicyLabel(p: ComparisonPolicy): string {
  if (typeof p === 'string') return p;
  if (isPolicyRef(p)) return String((loadPolicyRef(p).value as { name?: unknown })?.name ?? 'user policy');
  return p.label;
}

/** Sweep cell: one policy on one window at one load. */
export function batchComparisonCell(p: { workload: ComparisonWorkload; replication_of: number; load: number; policy: ComparisonPolicy; estimates: BatchEstimates; threshold: number }): ComparisonRow {
  const w = comparisonWindow(p.workload, p.replication_of);
  const jobs = scaleToLoad(w.jobs, w.machineSize, p.load);
  const spec = typeof p.policy === 'object' && p.policy !== null && 'label' in p.policy ? p.policy : { policy: p.policy as string | PolicyRef, order: undefined };
  const order = spec.order === undefined ? undefined : isPortableRef(spec.order) ? (fromPortable(spec.order) as BatchQueueOrder) : (spec.order as BatchQueueOrder);
  const run = simulateBatch(jobs, { machineSize: w.machineSize, policy: spec.policy as never, estimates: p.estimates, ...(order !== undefined ? { order } : {}) });
  const s = summarizeRun(run, { machineSize: w.machineSize, threshold: p.threshold });
  return {
    workload: workloadLabel(p.workload),
    replication: p.replication_of,
    load: p.load,
    policy: comparisonPolicyLabel(p.policy),
    jobs: s.jobs,
    meanBsld: s.meanBoundedSlowdown,
    maxBsld: s.maxBoundedSlowdown,
    meanWait: s.meanWait,
    meanResponse: s.meanResponse,
    utilization: s.utilization,
  };
}

/**
 * Run (or resume) a comparison on all cores and return its rows. Results go
 * to `out/sweeps/<name>.jsonl` unless `run.out` says otherwise; a rerun with the
 * same definition reads them back instead of simulating again.
 */
export async function compareBatchPolicies(o: BatchComparisonOptions, run: RunOptions = {}): Promise<ComparisonRow[]> {
  const sweep = batchComparisonSweep(o);
  const summary = await runSweep(sweep, { out: run.out ?? path.join('out', 'sweeps', `${o.name}.jsonl`), progress: 'auto', ...run });
  if (summary.missing > 0 || summary.failed > 0) {
    const failed = summary.records.find((r) => r.status === 'failed');
    throw new InputError(`compareBatchPolicies: ${summary.failed} cells failed, ${summary.missing} missing` + (failed ? `; first failure: ${failed.error?.message ?? '?'}` : ''), { source: o.name });
  }
  return summary.records.map((r) => r.result as ComparisonRow);
}
