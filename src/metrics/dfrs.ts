/**
 * Metrics of the DFRS study (Stillwell, Vivien & Casanova, "Dynamic Fractional
 * Resource Scheduling vs. Batch Scheduling", sections 2.2, 6.1, 6.3, 6.4).
 * Plain records in, numbers or plain records out.
 */
import { boundedStretch, STRETCH_THRESHOLD } from '../bounds/maxstretch';
import { InputError } from '../util/errors';
import { InvariantError, invariantChecksEnabled } from '../util/invariants';

export { boundedStretch, STRETCH_THRESHOLD };

/** The fields of a finished job the metrics need. */
export interface FinishedDfrsJob {
  submit: number;
  completion: number;
  /** Processing time at yield 1 (dedicated), seconds. */
  runtime: number;
  tasks: number;
  /** CPU need per task, fraction of a node. */
  cpuNeed: number;
}

function checkFinished(jobs: readonly FinishedDfrsJob[], where: string): void {
  const checks = invariantChecksEnabled();
  jobs.forEach((j, i) => {
    if (!Number.isFinite(j.completion) || !Number.isFinite(j.submit) || j.completion < j.submit - 1e-9) {
      throw new InputError(`${where}: job at index ${i} needs finite submit <= completion, got submit=${j.submit}, completion=${j.completion}`, {
        source: where,
        field: `jobs[${i}].completion`,
      });
    }
    if (!(Number.isFinite(j.runtime) && j.runtime >= 0)) {
      throw new InputError(`${where}: job at index ${i} needs a finite runtime >= 0, got ${j.runtime}`, { source: where, field: `jobs[${i}].runtime` });
    }
    // Stretch >= 1: a job never runs faster than at yield 1.
    if (checks && j.completion - j.submit < j.runtime - (1e-9 * Math.abs(j.completion) + 1e-6)) {
      throw new InvariantError('dfrs/stretch', `${where}: completed ${j.completion - j.submit} s after submission, less than its run time ${j.runtime} s`, {
        job: i,
        time: j.completion,
      });
    }
  });
}

/**
 * Maximum bounded stretch (section 2.2): over all jobs,
 * max(1, (completion − submission) / max(threshold, processing time)), threshold 10 s.
 */
export function maxBoundedStretch(jobs: readonly FinishedDfrsJob[], threshold = STRETCH_THRESHOLD): number {
  checkFinished(jobs, 'maxBoundedStretch');
  let max = 1;
  for (const j of jobs) max = Math.max(max, boundedStretch(j.completion - j.submit, j.runtime, threshold));
  return max;
}

/** Degradation from bound (section 6.1): achieved maximum stretch / lower bound on the optimum. */
export function degradationFromBound(maxStretch: number, bound: number): number {
  if (!(bound >= 1) || !Number.isFinite(bound)) {
    throw new InputError(`degradationFromBound: bound must be a finite number >= 1, got ${bound}`, { source: 'degradationFromBound', field: 'bound' });
  }
  // A lower bound on the optimal maximum stretch is below what any schedule achieves.
  if (invariantChecksEnabled() && maxStretch < bound * (1 - 1e-6)) {
    throw new InvariantError('dfrs/bound', `maximum stretch ${maxStretch} is below the lower bound ${bound}`);
  }
  return maxStretch / bound;
}

/** How much capacity a schedule left idle while jobs could have used it, absolute and relative to the work. */
export interface Underutilization {
  /** ∫ min(|P|, D(t)) − u(t) dt, node-seconds. */
  underutilization: number;
  /** Total work Σ runtime × tasks × cpuNeed, node-seconds (= ∫ u(t) dt). */
  work: number;
  /** underutilization / work. */
  normalized: number;
}

/**
 * Underutilization (section 6.4.1): ∫ min(|P|, D(t)) − u(t) dt, where D(t) is
 * the CPU demand (sum of CPU needs of all tasks) of the jobs submitted and not
 * yet completed, and u(t) the CPU usefully used. Time spent under rescheduling
 * penalties is not useful work, so ∫ u(t) dt over a whole run is exactly the
 * total work Σ p_j · c_j · |T_j| whatever the schedule; what varies between
 * schedules is how long jobs stay in the system. Normalized by the total work
 * ("the total resources required to execute the workload").
 *
 * @param capacity |P|, the number of nodes (CPU capacity in node units).
 */
export function underutilization(jobs: readonly FinishedDfrsJob[], capacity: number): Underutilization {
  if (!(capacity > 0)) throw new InputError(`underutilization: capacity must be > 0, got ${capacity}`, { source: 'underutilization', field: 'capacity' });
  checkFinished(jobs, 'underutilization');
  const events: { t: number; d: number }[] = [];
  let work = 0;
  for (const j of jobs) {
    const demand = j.tasks * j.cpuNeed;
    events.push({ t: j.submit, d: demand }, { t: j.completion, d: -demand });
    work += j.runtime * demand;
  }
  events.sort((a, b) => a.t - b.t || a.d - b.d);
  let integral = 0;
  let demand = 0;
  let prev = events.length > 0 ? events[0].t : 0;
  for (const e of events) {
    integral += Math.min(capacity, Math.max(0, demand)) * (e.t - prev);
    demand += e.d;
    prev = e.t;
  }
  const under = integral - work;
  // u(t) <= min(|P|, D(t)) at every instant, so the integral of the difference is >= 0.
  if (invariantChecksEnabled() && under < -1e-7 * Math.max(1, work)) {
    throw new InvariantError('dfrs/underutilization', `underutilization ${under} < 0: the jobs received more CPU than their demand or the platform allows`);
  }
  return { underutilization: under, work, normalized: work > 0 ? under / work : 0 };
}

/** Per-job counters of preemptions and migrations, as the DFRS simulator reports them. */
export interface RescheduledJob extends FinishedDfrsJob {
  /** Memory per task, fraction of a node. */
  mem: number;
  preemptions: number;
  migrations: number;
  tasksPreempted: number;
  tasksMigrated: number;
}

/** Options of `reschedulingCosts`: the memory of a node, which sizes a moved task image. */
export interface ReschedulingOptions {
  /**
   * Memory of one node in GB (default 8: the paper's footnote sizes a task at
   * 8 GB, i.e. one node's memory). A task's image is mem × nodeMemoryGB.
   */
  nodeMemoryGB?: number;
}

/** Preemptions and migrations of a DFRS run, per hour and per job, and the bandwidth they need. */
export interface ReschedulingCosts {
  /** Job preemptions per hour of the run (first submission to last completion). */
  preemptionsPerHour: number;
  migrationsPerHour: number;
  /** Average number of preemptions (migrations) per job. */
  preemptionsPerJob: number;
  migrationsPerJob: number;
  /** Average bandwidth, GB/s, over the run. */
  preemptionGBps: number;
  migrationGBps: number;
  /** Length of the run, seconds. */
  spanSeconds: number;
}

/**
 * Preemption and migration costs (section 6.3, Table 3). A job is preempted
 * (migrated) once per event in which one or more of its tasks is paused
 * (moved). Bandwidth: every task image is written to storage and read back,
 * so a preempted task moves 2 × mem × nodeMemoryGB (save now, restore at its
 * resume) and a migrated task the same (the paper assumes migrations go
 * through pause/resume); divided by the run's span.
 */
export function reschedulingCosts(jobs: readonly RescheduledJob[], options: ReschedulingOptions = {}): ReschedulingCosts {
  const gb = options.nodeMemoryGB ?? 8;
  if (!(gb > 0)) throw new InputError(`reschedulingCosts: nodeMemoryGB must be > 0, got ${gb}`, { source: 'reschedulingCosts', field: 'nodeMemoryGB' });
  checkFinished(jobs, 'reschedulingCosts');
  if (jobs.length === 0) {
    return { preemptionsPerHour: 0, migrationsPerHour: 0, preemptionsPerJob: 0, migrationsPerJob: 0, preemptionGBps: 0, migrationGBps: 0, spanSeconds: 0 };
  }
  let first = Infinity;
  let last = -Infinity;
  let pm = 0;
  let mg = 0;
  let pmGB = 0;
  let mgGB = 0;
  for (const j of jobs) {
    first = Math.min(first, j.submit);
    last = Math.max(last, j.completion);
    pm += j.preemptions;
    mg += j.migrations;
    pmGB += 2 * j.tasksPreempted * j.mem * gb;
    mgGB += 2 * j.tasksMigrated * j.mem * gb;
  }
  const span = last - first;
  const hours = span / 3600;
  return {
    preemptionsPerHour: hours > 0 ? pm / hours : 0,
    migrationsPerHour: hours > 0 ? mg / hours : 0,
    preemptionsPerJob: pm / jobs.length,
    migrationsPerJob: mg / jobs.length,
    preemptionGBps: span > 0 ? pmGB / span : 0,
    migrationGBps: span > 0 ? mgGB / span : 0,
    spanSeconds: span,
  };
}
