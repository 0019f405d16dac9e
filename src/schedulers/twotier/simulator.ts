/**
 * Simulation of scheduling policies on two-tier (foreground / background VM)
 * processors, after the MEASY paper (Algorithms 1–3, Sections 2–3): the
 * entry point, its options and results. The loop is the event core
 * (engine/events.ts); the machine (machine.ts: its state, the mechanics of
 * each decision, the jobs' rates; listed in state.ts) carries out the
 * decisions of a policy object (policies.ts: EASY, KEASY, REASY, MEASY or a
 * user's, which runs behind guarded.ts).
 *
 * Time advance is exact (rates change only at events; a job's completion
 * event is moved whenever its rate changes), far cheaper than the paper's
 * time slices; `timeSlice > 0` switches to literal time slices (machine.ts).
 *
 * Choices where the paper is silent or ambiguous (each repeated in the notebook):
 * - All events at one instant are applied first, then one scheduling pass runs
 *   (the worked example handles "J3 and J5 depart at time 5" together).
 * - Steps 1–3 run on every arrival and every departure (fg or bg).
 * - Backfilling tests the job's full (original) estimate, also for a bg job
 *   that would keep its progress: the worked example says J8 "cannot be
 *   backfilled as its original execution time is 4". A migrating job's
 *   estimate also includes the migration cost.
 * - The estimated termination of a fg job is its fg start (+ migration cost)
 *   + its full estimate.
 * - Ties in Dispatch (equal utilisation) go to the highest processor index;
 *   with it the simulator reproduces the processor labels of Figure 1.
 * - REASY, bg head: extra fg VMs = idle fg VMs not hosting the head (as the
 *   text says); jobs backfilled under the "extra" rule never use the head's
 *   processors.
 * - A bg job's rate uses the true CPU usage; the scheduler's view of usage can
 *   be switched off (`cpuInfo: 'none'`): Dispatch then pairs by index only and
 *   the 96% rule cannot be applied.
 * - Loss and e are drawn once per job, in arrival order, from `seed`, so every
 *   policy sees the same draws for the same job (common random numbers).
 */
import { Simulation } from '../../engine/events';
import { Rng, Seed } from '../../util/random';
import { WorkloadJob } from '../../workloads/job';
import { InputError } from '../../util/errors';
import { InvariantError, invariantChecksEnabled } from '../../util/invariants';
import { BACKGROUND_PLACEMENT_THRESHOLD, drawBackgroundEfficiency, drawForegroundLoss, TwoTierModelOptions } from './progress';
import { isBuiltinTwoTierPolicy, REASY_RESERVATIONS, ReasyReservation, resolveTwoTierPolicy, TwoTierPolicySpec } from './policies';
import { SimJob } from './state';
import { twoTierMachine } from './machine';
import { guardedTwoTierPolicy } from './guarded';

export type { TwoTierPolicy } from './policies';

/** A job with per-process CPU usage (fraction of a dedicated processor, in (0, 1]). */
export interface TwoTierJob extends WorkloadJob {
  /** One value per process; absent means 100% for every process. */
  cpuUsage?: ArrayLike<number>;
}

/** Options of the two-tier simulator: machine size, policy, migration cost, estimates, CPU information, seed and log. */
export interface TwoTierOptions extends TwoTierModelOptions {
  /** Number of physical processors (the paper: 320). */
  machineSize: number;
  /**
   * 'easy' (fg VMs only: no consolidation, no overhead), 'keasy', 'reasy',
   * 'measy', a policy object, or `{ module, export }` naming one (policies.ts).
   * A policy other than the four built-ins always runs with invariant checks on.
   */
  policy: TwoTierPolicySpec;
  /** Seconds a migration pauses the job (MEASY; paper default 20). */
  migrationCost?: number;
  /** Which runtime the scheduler sees: max(requestedTime, runtime) (default 'requested') or the real runtime. */
  estimates?: 'requested' | 'exact';
  /** Whether the scheduler knows the processes' CPU usage (default 'exact'). */
  cpuInfo?: 'exact' | 'none';
  /** No bg placement where the fg process uses more than this (default 0.96). */
  placementThreshold?: number;
  /** Seed of the per-job loss and e draws (default 1). */
  seed?: Seed;
  /** > 0: integrate progress in time slices of this length instead of exact rate changes. */
  timeSlice?: number;
  /** Record every decision (for tests and small examples). */
  log?: boolean;
  /** Backfill/reserve with estimate − progress for jobs keeping their progress (default false: the paper's full estimate). */
  remainingEstimates?: boolean;
  /** REASY's reservation for a bg head: 'text' (default) or 'algorithm' (policies.ts, ReasyReservation). */
  reasyReservation?: ReasyReservation;
}

/** One recorded scheduler decision. */
export interface TwoTierLogEntry {
  time: number;
  action: 'fg' | 'bg' | 'swap' | 'kill' | 'migrate' | 'finish' | 'reserve';
  job: number;
  /** Processors (0-based) the job holds after the action. */
  processors: number[];
  /** How a fg start was decided. */
  via?: 'fcfs' | 'backfill';
  shadow?: number;
  extra?: number;
  tier?: 'fg' | 'bg';
}

/** Per-job outcome. */
export interface TwoTierJobResult {
  id: number;
  submit: number;
  runtime: number;
  procs: number;
  estimate: number;
  /** First time any process ran (fg or bg). */
  start: number;
  /** Last time the job entered the fg tier (NaN if it finished in the bg). */
  fgStart: number;
  finish: number;
  response: number;
  kills: number;
  migrations: number;
  swaps: number;
  /** Tier the job finished in. */
  finishedIn: 'fg' | 'bg';
  /** Processor-seconds of progress thrown away by kills. */
  killedWork: number;
}

/** Result of a two-tier run: policy, machine, per-job results, counts of migrations, kills and swaps, makespan and log. */
export interface TwoTierRun {
  /** The policy's name. */
  policy: string;
  machineSize: number;
  jobs: TwoTierJobResult[];
  migrations: number;
  kills: number;
  swaps: number;
  /** Jobs that ever ran in a bg VM. */
  backgroundPlacements: number;
  events: number;
  makespan: number;
  log?: TwoTierLogEntry[];
}

const SRC = 'simulateTwoTier';

/** Validate jobs and options; throws an InputError naming the option or job field that is wrong. */
function checkInput(jobs: readonly TwoTierJob[], options: TwoTierOptions): void {
  const opt = (field: string, message: string) => new InputError(`${SRC}: ${field} ${message}`, { source: SRC, field });
  const { machineSize } = options;
  if (!Number.isInteger(machineSize) || machineSize < 1) throw opt('machineSize', `must be a positive integer, got ${machineSize}`);
  const cost = options.migrationCost ?? 20;
  if (!(cost >= 0) || !Number.isFinite(cost)) throw opt('migrationCost', `must be a finite number >= 0, got ${cost}`);
  if (options.timeSlice !== undefined && !(options.timeSlice >= 0 && Number.isFinite(options.timeSlice))) throw opt('timeSlice', `must be a finite number >= 0, got ${options.timeSlice}`);
  if (options.estimates !== undefined && options.estimates !== 'requested' && options.estimates !== 'exact') {
    throw opt('estimates', `must be 'requested' or 'exact', got '${String(options.estimates)}'`);
  }
  if (options.cpuInfo !== undefined && options.cpuInfo !== 'exact' && options.cpuInfo !== 'none') throw opt('cpuInfo', `must be 'exact' or 'none', got '${String(options.cpuInfo)}'`);
  if (options.reasyReservation !== undefined && !(REASY_RESERVATIONS as readonly string[]).includes(options.reasyReservation)) {
    throw opt('reasyReservation', `must be ${REASY_RESERVATIONS.map((r) => `'${r}'`).join(' or ')}, got '${String(options.reasyReservation)}'`);
  }
  if (options.backgroundModel !== undefined && options.backgroundModel !== 'demand' && options.backgroundModel !== 'product') {
    throw opt('backgroundModel', `must be 'demand' or 'product', got '${String(options.backgroundModel)}'`);
  }
  if (options.placementThreshold !== undefined && !(options.placementThreshold > 0 && options.placementThreshold <= 1)) {
    throw opt('placementThreshold', `must be in (0, 1], got ${options.placementThreshold}`);
  }
  const range = (field: string, r: readonly [number, number] | undefined, lo: number, hi: number) => {
    if (r !== undefined && !(Array.isArray(r) && r.length === 2 && r[0] >= lo && r[0] <= r[1] && r[1] <= hi)) {
      throw opt(field, `must be [low, high] with ${lo} <= low <= high <= ${hi}, got ${JSON.stringify(r)}`);
    }
  };
  range('lossRange', options.lossRange, 0, 1);
  range('singleEfficiencyRange', options.singleEfficiencyRange, 0, 1);
  if (!Array.isArray(jobs)) throw new InputError(`${SRC}: jobs must be an array`, { source: SRC, field: 'jobs' });
  jobs.forEach((j, k) => {
    const where = `job ${j.id} (index ${k})`;
    const bad = (field: string, message: string) => new InputError(`${SRC}: ${where}: ${message}`, { source: SRC, field: `jobs[${k}].${field}` });
    if (!Number.isInteger(j.procs) || j.procs < 1) throw bad('procs', `procs must be a positive integer, got ${j.procs}`);
    if (j.procs > machineSize) throw bad('procs', `procs ${j.procs} exceeds machineSize ${machineSize}`);
    if (!Number.isFinite(j.submit)) throw bad('submit', `submit must be finite, got ${j.submit}`);
    if (!(j.runtime >= 0) || !Number.isFinite(j.runtime)) throw bad('runtime', `runtime must be finite and >= 0, got ${j.runtime}`);
    if (j.cpuUsage !== undefined) {
      if (j.cpuUsage.length !== j.procs) throw bad('cpuUsage', `cpuUsage has ${j.cpuUsage.length} values for ${j.procs} processes`);
      for (let k2 = 0; k2 < j.cpuUsage.length; k2++) {
        const u = j.cpuUsage[k2];
        if (!(u > 0 && u <= 1)) throw bad(`cpuUsage[${k2}]`, `cpuUsage[${k2}] = ${u} is not in (0, 1]`);
      }
    }
  });
}

/**
 * Simulate `jobs` on `machineSize` two-tier processors under a policy
 * (EASY / KEASY / REASY / MEASY or a user's). Returns per-job results and counters.
 */
export function simulateTwoTier(jobs: readonly TwoTierJob[], options: TwoTierOptions): TwoTierRun {
  checkInput(jobs, options);
  const policy = resolveTwoTierPolicy(options.policy, SRC);
  const P = options.machineSize;
  const knowUsage = (options.cpuInfo ?? 'exact') === 'exact';
  const log: TwoTierLogEntry[] | undefined = options.log ? [] : undefined;
  const rng = new Rng(options.seed ?? 1);

  // Arrival order: by submit, then by input position (stable).
  const sorted = jobs.map((job, k) => ({ job, k })).sort((a, b) => a.job.submit - b.job.submit || a.k - b.k);
  const all: SimJob[] = sorted.map(({ job }, index) => {
    const size = job.procs;
    const use = new Float64Array(size);
    for (let k = 0; k < size; k++) use[k] = job.cpuUsage ? job.cpuUsage[k] : 1;
    const order = Int32Array.from({ length: size }, (_, k) => k);
    if (knowUsage) order.sort((a, b) => use[b] - use[a] || a - b);
    // as the batch schedulers do: a missing estimate is the runtime, an underestimate is raised to it
    const estimate = options.estimates === 'exact' || !(job.requestedTime !== undefined && job.requestedTime > 0) ? job.runtime : Math.max(job.requestedTime, job.runtime);
    return {
      index, job, size, work: job.runtime, estimate, use, order,
      loss: drawForegroundLoss(rng, options.lossRange),
      eff: drawBackgroundEfficiency(rng, size, options),
      tier: 'pending', processors: new Int32Array(size), progress: 0, rate: 0, last: 0, pausedUntil: -Infinity, resumeAt: NaN,
      estimatedEnd: Infinity, ev: undefined, dirty: false, start: NaN, fgStart: NaN, finish: NaN,
      kills: 0, migrations: 0, swaps: 0, killedWork: 0, everBg: false,
    };
  });

  const sim = new Simulation();
  const builtin = isBuiltinTwoTierPolicy(policy);
  // A user policy sees read-only views and runs under a guard (guarded.ts); built-ins get the engine's objects.
  const decide = builtin ? policy : guardedTwoTierPolicy(policy, all, () => sim.now);
  const counters = twoTierMachine(sim, all, decide, {
    machineSize: P,
    migrationCost: options.migrationCost ?? 20,
    placementThreshold: options.placementThreshold ?? BACKGROUND_PLACEMENT_THRESHOLD,
    knowUsage,
    timeSlice: options.timeSlice ?? 0,
    remainingEstimates: options.remainingEstimates ?? false,
    reasyReservation: options.reasyReservation ?? 'text',
    backgroundModel: options.backgroundModel,
    backgroundRate: options.backgroundRate,
    // Invariant checks (util/invariants.ts): read once per run; always on for a policy that is not built in.
    checks: invariantChecksEnabled() || !builtin,
    log,
  });
  sim.run();
  if (counters.done !== all.length) {
    const left = all.find((j) => j.tier !== 'done')!;
    throw new InvariantError('twotier/completed', `${policy.name}: simulation ended with ${all.length - counters.done} unfinished jobs (a job may be starved of cycles)`, {
      job: left.job.id,
      time: sim.now,
    });
  }

  const results: TwoTierJobResult[] = all.map((j) => ({
    id: j.job.id,
    submit: j.job.submit,
    runtime: j.work,
    procs: j.size,
    estimate: j.estimate,
    start: j.start,
    fgStart: j.fgStart,
    finish: j.finish,
    response: j.finish - j.job.submit,
    kills: j.kills,
    migrations: j.migrations,
    swaps: j.swaps,
    finishedIn: Number.isNaN(j.fgStart) ? 'bg' : 'fg',
    killedWork: j.killedWork,
  }));
  let makespan = 0;
  let everBg = 0;
  for (const j of all) {
    if (j.finish > makespan) makespan = j.finish;
    if (j.everBg) everBg++;
  }
  return {
    policy: policy.name,
    machineSize: P,
    jobs: results,
    migrations: counters.migrations,
    kills: counters.kills,
    swaps: counters.swaps,
    backgroundPlacements: everBg,
    events: sim.processed,
    makespan,
    log,
  };
}
