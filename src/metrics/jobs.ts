/**
 * Per-job and per-run metrics for any schedule in which jobs have a submit,
 * start and end time (batch schedulers and others alike).
 *
 * Definitions (the usual ones of the parallel job scheduling literature):
 *  - wait = start − submit
 *  - response (turnaround, flow time) = end − submit
 *  - stretch (slowdown) = response / runtime, with runtime = end − start
 *    unless given. A zero-runtime job has stretch 1 if it did not wait and
 *    Infinity otherwise; use the bounded slowdown for such jobs.
 *  - bounded slowdown = max(1, response / max(runtime, threshold)) with a
 *    threshold of 10 s by default (Feitelson et al.), so that very short jobs
 *    do not dominate averages.
 *  - makespan = last end − first submit; utilization = Σ runtime × procs /
 *    (machineSize × makespan).
 *
 * With invariant checks on (util/invariants.ts), every job's stretch and
 * bounded slowdown are checked to be >= 1 (a job never runs faster than its
 * run time; up to the rounding of start + runtime) and a run's utilization
 * to be <= 1 (capacity never exceeded).
 */
import { invariantChecksEnabled, InvariantError } from '../util/invariants';
import { InputError } from '../util/errors';

/** What a job record needs to be measured. */
export interface TimedJob {
  id?: number | string;
  submit: number;
  start: number;
  end: number;
  /** Run time; default end − start. */
  runtime?: number;
  /** Processors; default 1 (needed for utilization). */
  procs?: number;
}

/** One job's wait, response time, stretch and bounded slowdown. */
export interface JobMetrics {
  id: number | string | undefined;
  wait: number;
  response: number;
  stretch: number;
  boundedSlowdown: number;
}

/** Default bounded-slowdown threshold, seconds. */
export const BOUNDED_SLOWDOWN_THRESHOLD = 10;

function check(job: TimedJob): void {
  if (!Number.isFinite(job.submit) || !Number.isFinite(job.start) || !Number.isFinite(job.end)) {
    throw new InputError(`metrics: job ${job.id ?? '?'} has a non-finite time (submit ${job.submit}, start ${job.start}, end ${job.end})`, { source: 'metrics', field: `job ${job.id ?? '?'}` });
  }
  if (job.start < job.submit) throw new InputError(`metrics: job ${job.id ?? '?'} starts at ${job.start}, before its submission at ${job.submit}`, { source: 'metrics', field: `job ${job.id ?? '?'}.start` });
  if (job.end < job.start) throw new InputError(`metrics: job ${job.id ?? '?'} ends at ${job.end}, before its start at ${job.start}`, { source: 'metrics', field: `job ${job.id ?? '?'}.end` });
}

const runtimeOf = (job: TimedJob): number => job.runtime ?? job.end - job.start;

/** start − submit. */
export function waitTime(job: TimedJob): number {
  check(job);
  return job.start - job.submit;
}

/** end − submit. */
export function responseTime(job: TimedJob): number {
  check(job);
  return job.end - job.submit;
}

/** response / runtime (1 for an instant job that did not wait, Infinity if it waited). */
export function stretch(job: TimedJob): number {
  const response = responseTime(job);
  const rt = runtimeOf(job);
  if (rt > 0) return response / rt;
  return response === 0 ? 1 : Infinity;
}

/** max(1, response / max(runtime, threshold)). */
export function boundedSlowdown(job: TimedJob, threshold = BOUNDED_SLOWDOWN_THRESHOLD): number {
  if (!(threshold > 0)) throw new InputError(`boundedSlowdown: threshold must be > 0, got ${threshold}`, { source: 'boundedSlowdown', field: 'threshold' });
  return Math.max(1, responseTime(job) / Math.max(runtimeOf(job), threshold));
}

/** All per-job metrics of one job. */
export function jobMetrics(job: TimedJob, options: { threshold?: number } = {}): JobMetrics {
  return metricsOf(job, options.threshold, invariantChecksEnabled());
}

function metricsOf(job: TimedJob, threshold: number | undefined, checks: boolean): JobMetrics {
  const m = {
    id: job.id,
    wait: waitTime(job),
    response: responseTime(job),
    stretch: stretch(job),
    boundedSlowdown: boundedSlowdown(job, threshold),
  };
  // stretch >= 1 means response >= run time; allow the rounding of end = start + runtime.
  if (checks && !(m.boundedSlowdown >= 1 && (m.stretch >= 1 || m.response >= runtimeOf(job) - 2 * Number.EPSILON * Math.abs(job.end)))) {
    throw new InvariantError('metrics/stretch', `stretch ${m.stretch}, bounded slowdown ${m.boundedSlowdown} (both must be >= 1): run time ${runtimeOf(job)} exceeds end − start ${job.end - job.start}?`, { job: job.id, time: job.start });
  }
  return m;
}

/** A run's means and maxima of the per-job metrics, makespan and utilization (`summarizeRun`). */
export interface RunSummary {
  jobs: number;
  meanWait: number;
  maxWait: number;
  meanResponse: number;
  maxResponse: number;
  /**
   * Mean and maximum stretch over the `stretchJobs` jobs whose stretch is
   * finite: a job of zero run time that waited has an infinite stretch and is
   * left out (NaN / -Infinity when no job is left); the bounded slowdown
   * covers every job.
   */
  meanStretch: number;
  maxStretch: number;
  /** Jobs counted in meanStretch and maxStretch (jobs − those with infinite stretch). */
  stretchJobs: number;
  meanBoundedSlowdown: number;
  maxBoundedSlowdown: number;
  /** Last end − first submit. */
  makespan: number;
  /** Σ runtime × procs / (machineSize × makespan); NaN without machineSize. */
  utilization: number;
  firstSubmit: number;
  lastEnd: number;
}

/**
 * Averages and maxima of the per-job metrics, plus makespan and utilization.
 *
 * @example
 * const run = simulateBatch(generateLublin({ jobs: 500, seed: 1, machineSize: 128 }), { machineSize: 128, policy: 'conservative' });
 * const s = summarizeRun(run, { machineSize: 128 });
 * console.log(s.meanWait, s.meanBoundedSlowdown, s.utilization);
 */
export function summarizeRun(jobs: Iterable<TimedJob> & { readonly length: number }, options: { machineSize?: number; threshold?: number } = {}): RunSummary {
  const n = jobs.length;
  if (n === 0) throw new InputError('summarizeRun: no jobs', { source: 'summarizeRun', field: 'jobs' });
  if (options.machineSize !== undefined && !(options.machineSize > 0)) throw new InputError(`summarizeRun: machineSize must be > 0, got ${options.machineSize}`, { source: 'summarizeRun', field: 'machineSize' });
  const checks = invariantChecksEnabled();
  let sw = 0, mw = -Infinity, sr = 0, mr = -Infinity, ss = 0, ms = -Infinity, ns = 0, sb = 0, mb = -Infinity;
  let first = Infinity, last = -Infinity, work = 0;
  for (const j of jobs) {
    const m = metricsOf(j, options.threshold, checks);
    sw += m.wait; if (m.wait > mw) mw = m.wait;
    sr += m.response; if (m.response > mr) mr = m.response;
    if (m.stretch !== Infinity) {
      ss += m.stretch; ns++;
      if (m.stretch > ms) ms = m.stretch;
    }
    sb += m.boundedSlowdown; if (m.boundedSlowdown > mb) mb = m.boundedSlowdown;
    if (j.submit < first) first = j.submit;
    if (j.end > last) last = j.end;
    work += runtimeOf(j) * (j.procs ?? 1);
  }
  const makespan = last - first;
  if (checks && options.machineSize !== undefined && makespan > 0 && work > options.machineSize * makespan * (1 + 1e-9)) {
    throw new InvariantError('metrics/utilization', `utilization ${work / (options.machineSize * makespan)} > 1 on ${options.machineSize} processors`);
  }
  return {
    jobs: n,
    meanWait: sw / n,
    maxWait: mw,
    meanResponse: sr / n,
    maxResponse: mr,
    meanStretch: ss / ns,
    maxStretch: ms,
    stretchJobs: ns,
    meanBoundedSlowdown: sb / n,
    maxBoundedSlowdown: mb,
    makespan,
    utilization: options.machineSize !== undefined && makespan > 0 ? work / (options.machineSize * makespan) : NaN,
    firstSubmit: first,
    lastEnd: last,
  };
}
