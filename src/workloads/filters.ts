/**
 * Workload filters and load arithmetic. All functions return new arrays of
 * new job objects; inputs are never modified.
 */
import { WorkloadJob } from './job';
import { InputError } from '../util/errors';

/** Seconds in a week. */
export const SECONDS_PER_WEEK = 7 * 24 * 3600;

/** Smallest submit time (a loop: spreading 200,000 values into Math.min overflows the stack). */
function firstSubmit(jobs: readonly WorkloadJob[]): number {
  let m = Infinity;
  for (const j of jobs) if (j.submit < m) m = j.submit;
  return m;
}

/** Jobs with start <= submit < end. */
export function timeWindow(jobs: readonly WorkloadJob[], window: { start?: number; end?: number }): WorkloadJob[] {
  const start = window.start ?? -Infinity;
  const end = window.end ?? Infinity;
  if (!(start <= end)) throw new InputError(`timeWindow: start ${start} is after end ${end}`, { source: 'timeWindow' });
  return jobs.filter((j) => j.submit >= start && j.submit < end).map((j) => ({ ...j }));
}

/** Shift submit times so the first job is submitted at `origin` (default 0). */
export function rebase(jobs: readonly WorkloadJob[], origin = 0): WorkloadJob[] {
  if (jobs.length === 0) return [];
  const first = firstSubmit(jobs);
  return jobs.map((j) => ({ ...j, submit: j.submit - first + origin }));
}

/** Options of `weeklySegments`: segment length and start, rebasing to time 0, and the fewest jobs a kept segment has. */
export interface SegmentOptions {
  /** Segment length in seconds (default one week). */
  length?: number;
  /** Start of the first segment (default: the first submit time). */
  start?: number;
  /** Shift each segment so it starts at time 0 (default true). */
  rebase?: boolean;
  /** Drop segments with fewer jobs than this (default 1: empty segments are dropped). */
  minJobs?: number;
}

/**
 * Cut a trace into consecutive fixed-length segments by submit time (default
 * week-long). With `rebase` (default) segment k's times are relative to the
 * segment start, so each segment is a workload of its own.
 */
export function weeklySegments(jobs: readonly WorkloadJob[], options: SegmentOptions = {}): WorkloadJob[][] {
  const doRebase = options.rebase ?? true;
  return segmentsOf(jobs, options).map(({ start, jobs: segment }) => segment.map((j) => (doRebase ? { ...j, submit: j.submit - start } : { ...j })));
}

/**
 * The segments of `weeklySegments` (same options; `rebase` is not read), each
 * with its start time, holding the input's own job objects, not copies: for a
 * caller that reads them only (the HPC2N weeks convert one week of a 200,000-job
 * log at a time).
 */
export function segmentsOf(jobs: readonly WorkloadJob[], options: SegmentOptions = {}): { start: number; jobs: WorkloadJob[] }[] {
  const length = options.length ?? SECONDS_PER_WEEK;
  if (!(length > 0)) throw new InputError(`weeklySegments: length must be > 0, got ${length}`, { source: 'weeklySegments' });
  if (jobs.length === 0) return [];
  const start = options.start ?? firstSubmit(jobs);
  const minJobs = options.minJobs ?? 1;
  const buckets = new Map<number, WorkloadJob[]>();
  for (const j of jobs) {
    if (j.submit < start) continue;
    const k = Math.floor((j.submit - start) / length);
    let b = buckets.get(k);
    if (!b) buckets.set(k, (b = []));
    b.push(j);
  }
  return [...buckets.keys()]
    .sort((a, b) => a - b)
    .map((k) => ({ start: start + k * length, jobs: buckets.get(k) as WorkloadJob[] }))
    .filter((b) => b.jobs.length >= minJobs);
}

/** Which jobs `cleanJobs` drops: invalid fields, oversize jobs, zero run times, statuses, memory over a limit. */
export interface CleanOptions {
  /** Drop jobs with more processors than this. */
  machineSize?: number;
  /** Drop jobs without a requested time (needed for backfilling on user estimates). Default false. */
  requireRequestedTime?: boolean;
  /** Drop jobs with run time 0 (default false). */
  dropZeroRuntime?: boolean;
  /** Keep only these status codes (default: keep all). */
  statuses?: number[];
  /** Drop jobs whose requested memory exceeds this (KB per processor). */
  maxRequestedMemory?: number;
}

/** The jobs `cleanJobs` kept, and how many it dropped for each reason. */
export interface CleanResult {
  jobs: WorkloadJob[];
  /** Jobs dropped, by reason (only reasons that dropped something appear). */
  dropped: Record<string, number>;
}

/**
 * Remove jobs that cannot be used, counting what was dropped and why. Each
 * job is counted under the first reason that applies, in the order: invalid
 * core fields, processors over machine, missing requested time, zero run
 * time, status, memory.
 */
export function cleanJobs(jobs: readonly WorkloadJob[], options: CleanOptions = {}): CleanResult {
  const dropped: Record<string, number> = {};
  const drop = (r: string) => (dropped[r] = (dropped[r] ?? 0) + 1);
  const statuses = options.statuses ? new Set(options.statuses) : undefined;
  const out: WorkloadJob[] = [];
  for (const j of jobs) {
    if (!Number.isFinite(j.submit) || j.submit < 0) drop('invalid submit time');
    else if (!Number.isFinite(j.runtime) || j.runtime < 0) drop('invalid run time');
    else if (!Number.isFinite(j.procs) || j.procs < 1) drop('invalid processors');
    else if (options.machineSize !== undefined && j.procs > options.machineSize) drop('more processors than machine');
    else if (options.requireRequestedTime && !(j.requestedTime !== undefined && j.requestedTime > 0)) drop('missing requested time');
    else if (options.dropZeroRuntime && j.runtime === 0) drop('zero run time');
    else if (statuses && !statuses.has(j.status ?? -1)) drop(`status ${j.status ?? -1}`);
    else if (options.maxRequestedMemory !== undefined && (j.requestedMemory ?? 0) > options.maxRequestedMemory) drop('requested memory over limit');
    else out.push({ ...j });
  }
  return { jobs: out, dropped };
}

/**
 * Multiply every job's submit offset from the earliest submit time by
 * `factor`, keeping that earliest time: factor < 1 compresses arrivals
 * (higher load), factor > 1 spreads them (lower load). The offered load is
 * divided by `factor`. For jobs sorted by submit time (as SWF files are) this
 * scales every inter-arrival time; unsorted jobs keep their order and their
 * relative timing (the simulators sort them anyway).
 */
export function scaleLoad(jobs: readonly WorkloadJob[], factor: number): WorkloadJob[] {
  if (!(factor > 0) || !Number.isFinite(factor)) throw new InputError(`scaleLoad: factor must be a positive finite number, got ${factor}`, { source: 'scaleLoad' });
  let first = Infinity;
  for (const j of jobs) if (j.submit < first) first = j.submit;
  return jobs.map((j) => ({ ...j, submit: first + (j.submit - first) * factor }));
}

/**
 * Offered load: total work (runtime × processors) divided by machine
 * capacity over the submission span (last submit − first submit). This is
 * the model's definition (Lublin & Feitelson); it ignores the drain after the
 * last submission. Undefined (an InputError) for fewer than 2 jobs or a span
 * of 0; {@link offeredLoadIfDefined} returns undefined instead.
 */
export function offeredLoad(jobs: readonly WorkloadJob[], machineSize: number): number {
  const load = offeredLoadIfDefined(jobs, machineSize);
  if (load !== undefined) return load;
  if (jobs.length < 2) throw new InputError(`offeredLoad: needs at least 2 jobs, got ${jobs.length}`, { source: 'offeredLoad' });
  throw new InputError('offeredLoad: all jobs are submitted at the same time (span 0)', { source: 'offeredLoad' });
}

/** {@link offeredLoad}, or undefined where it is not defined (fewer than 2 jobs, or all submitted at one time). */
export function offeredLoadIfDefined(jobs: readonly WorkloadJob[], machineSize: number): number | undefined {
  if (!(machineSize > 0)) throw new InputError(`offeredLoad: machineSize must be > 0, got ${machineSize}`, { source: 'offeredLoad' });
  let lo = Infinity;
  let hi = -Infinity;
  let work = 0;
  for (const j of jobs) {
    if (j.submit < lo) lo = j.submit;
    if (j.submit > hi) hi = j.submit;
    work += j.runtime * j.procs;
  }
  return hi > lo ? work / (machineSize * (hi - lo)) : undefined;
}

/** Scale inter-arrival times so the offered load becomes `targetLoad`. */
export function scaleToLoad(jobs: readonly WorkloadJob[], machineSize: number, targetLoad: number): WorkloadJob[] {
  if (!(targetLoad > 0)) throw new InputError(`scaleToLoad: targetLoad must be > 0, got ${targetLoad}`, { source: 'scaleToLoad' });
  return scaleLoad(jobs, offeredLoad(jobs, machineSize) / targetLoad);
}
