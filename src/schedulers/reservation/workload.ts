/**
 * Advance-reservation requests with deadlines from ordinary rigid-job
 * workloads (Li et al., section 6.1): the Lublin–Feitelson model with the
 * LANL-CM5 size parameters, or the LANL-CM5 trace itself.
 *
 * From a job (submit time, size, runtime) a request is made as
 *   arrival  = submit / arrivalFactor
 *   ready    = arrival + artimeFactor · U[0,1] · duration
 *   deadline = ready + (1 + deadlineFactor · U[0,1]) · duration
 * with `duration` one of the six run-time classes 60, 300, 900, 1,800,
 * 3,600, 10,800 s.
 *
 * Choices where the paper is not explicit (also stated in notebook 04):
 *  - ready is rounded up and deadline down to whole seconds (deadline never
 *    below ready + duration). Integer times keep candidate start times
 *    (slot − duration) exact in floating point.
 *  - the two U[0,1] draws come from their own seeded streams, so changing a
 *    factor rescales the same draws (common random numbers across settings).
 *  - run-time classes (see `calibrateRuntimeClasses`): the class shares are
 *    those of the user estimates of the LANL-CM5 log (each estimate rounded up
 *    to the next class, capped at 10,800 s); model run times are cut into
 *    classes at the quantiles of a reference sample (UMed = 7, the LANL-CM5
 *    fit) that give these shares. The cut points then stay fixed while UMed
 *    changes, so larger jobs (which the model gives longer run times) move
 *    to longer classes, as the paper requires.
 */
import { InputError } from '../../util/errors';
import { Rng, Seed } from '../../util/random';
import { WorkloadJob } from '../../workloads/job';
import { LublinParams, generateLublin } from '../../workloads/lublin';
import { ReservationRequest } from './simulate';

/** The six durations (seconds) the paper allows. */
export const RUNTIME_CLASSES: readonly number[] = Object.freeze([60, 300, 900, 1800, 3600, 10800]);

/** Machine size of the LANL CM-5. */
export const LANL_CM5_PES = 1024;

/**
 * Lublin size parameters for the LANL-CM5 as given in the paper (section 6.1):
 * no serial jobs, all sizes powers of two (32 … 1,024).
 */
export function lanlCm5SizeParams(uMed = 7): Partial<LublinParams> {
  if (!(uMed >= 4.5 && uMed <= 10)) throw new InputError(`lanlCm5SizeParams: uMed must be in [4.5, 10], got ${uMed}`, { source: 'lanlCm5SizeParams', field: 'uMed' });
  return { serialProb: 0, pow2Prob: 1, uLow: 4.5, uMed, uHi: 10, uProb: 0.82 };
}

/** The smallest class ≥ seconds (the largest class for anything longer). */
export function runtimeClassAtLeast(seconds: number, classes: readonly number[] = RUNTIME_CLASSES): number {
  if (!Number.isFinite(seconds)) throw new InputError(`runtime class: seconds must be finite, got ${seconds}`, { source: 'runtime class', field: 'seconds' });
  for (const c of classes) if (seconds <= c) return c;
  return classes[classes.length - 1];
}

/**
 * Share of each run-time class among the jobs' user estimates (requestedTime),
 * each estimate rounded up to a class. Jobs without an estimate are skipped.
 */
export function runtimeClassShares(jobs: readonly WorkloadJob[], classes: readonly number[] = RUNTIME_CLASSES): number[] {
  const counts = new Array<number>(classes.length).fill(0);
  let n = 0;
  for (const j of jobs) {
    if (j.requestedTime === undefined || !(j.requestedTime > 0)) continue;
    counts[classes.indexOf(runtimeClassAtLeast(j.requestedTime, classes))]++;
    n++;
  }
  if (n === 0) throw new InputError('runtimeClassShares: no job has a user estimate (requestedTime)', { source: 'runtimeClassShares', field: 'jobs' });
  return counts.map((c) => c / n);
}

/** Cut points for mapping model run times to classes: runtime ≤ cuts[k] → classes[k]; above the last cut → last class. */
export interface RuntimeClassMap {
  classes: readonly number[];
  cuts: number[];
}

/**
 * Quantile cut points of `runtimes` that give the class `shares`
 * (shares sum to 1; cuts.length = classes.length − 1).
 */
export function runtimeClassCuts(runtimes: readonly number[], shares: readonly number[], classes: readonly number[] = RUNTIME_CLASSES): RuntimeClassMap {
  if (shares.length !== classes.length) throw new InputError(`runtimeClassCuts: ${shares.length} shares for ${classes.length} classes`, { source: 'runtimeClassCuts', field: 'shares' });
  const total = shares.reduce((s, v) => s + v, 0);
  if (!(Math.abs(total - 1) < 1e-6) || shares.some((s) => !(s >= 0))) {
    throw new InputError(`runtimeClassCuts: shares must be non-negative and sum to 1, got ${shares.join(', ')}`, { source: 'runtimeClassCuts', field: 'shares' });
  }
  if (runtimes.length === 0) throw new InputError('runtimeClassCuts: no run times', { source: 'runtimeClassCuts', field: 'runtimes' });
  const sorted = [...runtimes].sort((a, b) => a - b);
  const cuts: number[] = [];
  let cum = 0;
  for (let k = 0; k < classes.length - 1; k++) {
    cum += shares[k];
    // Largest value whose rank stays within the cumulative share.
    const idx = Math.floor(cum * sorted.length) - 1;
    cuts.push(idx < 0 ? -Infinity : sorted[Math.min(idx, sorted.length - 1)]);
  }
  return { classes, cuts };
}

/** The class of a model run time under a cut-point map. */
export function runtimeClassOf(runtime: number, map: RuntimeClassMap): number {
  for (let k = 0; k < map.cuts.length; k++) if (runtime <= map.cuts[k]) return map.classes[k];
  return map.classes[map.classes.length - 1];
}

/** Options of the duration-class calibration: target class shares, mean duration, sample size and seed. */
export interface CalibrationOptions {
  /** Class shares to match (e.g. runtimeClassShares of the LANL-CM5 log). */
  shares: readonly number[];
  /** UMed of the reference sample (default 7, the LANL-CM5 value). */
  uMed?: number;
  /** Size of the reference sample (default 50,000). */
  sampleJobs?: number;
  seed?: Seed;
}

/** Cut points from a reference Lublin sample with the LANL-CM5 size parameters. */
export function calibrateRuntimeClasses(options: CalibrationOptions): RuntimeClassMap {
  const jobs = generateLublin({
    jobs: options.sampleJobs ?? 50000,
    seed: options.seed ?? 'runtime-class-calibration',
    machineSize: LANL_CM5_PES,
    params: lanlCm5SizeParams(options.uMed ?? 7),
  });
  return runtimeClassCuts(
    jobs.map((j) => j.runtime),
    options.shares,
  );
}

/** How jobs become reservation requests: arrival scaling, ready-time and deadline factors. */
export interface ReservationFactors {
  /** Divides arrival times (> 0; default 1): larger means more load. */
  arrivalFactor?: number;
  /** Ready time = arrival + artimeFactor · U · duration (≥ 0; default 3). */
  artimeFactor?: number;
  /** Deadline = ready + (1 + deadlineFactor · U) · duration (≥ 0; default 3). */
  deadlineFactor?: number;
}

function checkFactors(f: ReservationFactors): Required<ReservationFactors> {
  const out = { arrivalFactor: f.arrivalFactor ?? 1, artimeFactor: f.artimeFactor ?? 3, deadlineFactor: f.deadlineFactor ?? 3 };
  if (!(out.arrivalFactor > 0) || !Number.isFinite(out.arrivalFactor)) throw new InputError(`arrivalFactor must be > 0, got ${out.arrivalFactor}`, { source: 'reservation factors', field: 'arrivalFactor' });
  if (!(out.artimeFactor >= 0) || !Number.isFinite(out.artimeFactor)) throw new InputError(`artimeFactor must be >= 0, got ${out.artimeFactor}`, { source: 'reservation factors', field: 'artimeFactor' });
  if (!(out.deadlineFactor >= 0) || !Number.isFinite(out.deadlineFactor)) throw new InputError(`deadlineFactor must be >= 0, got ${out.deadlineFactor}`, { source: 'reservation factors', field: 'deadlineFactor' });
  return out;
}

/** Options of `toRequests`: the reservation factors, the seed and the durations. */
export interface ToRequestsOptions extends ReservationFactors {
  seed: Seed;
  /** Duration of a job (default: its runtime). */
  duration?: (job: WorkloadJob) => number;
}

/**
 * Turn jobs into AR requests. Arrival times are shifted so the first job
 * arrives at 0 before dividing by the arrival factor.
 */
export function toReservationRequests(jobs: readonly WorkloadJob[], options: ToRequestsOptions): ReservationRequest[] {
  const f = checkFactors(options);
  const root = new Rng(options.seed);
  const readyRng = root.fork('ready');
  const deadlineRng = root.fork('deadline');
  const t0 = jobs.reduce((m, j) => Math.min(m, j.submit), jobs.length > 0 ? Infinity : 0);
  return jobs.map((job) => {
    const duration = options.duration ? options.duration(job) : job.runtime;
    if (!(duration > 0)) throw new InputError(`job ${job.id}: duration must be > 0, got ${duration}`, { source: 'toReservationRequests', field: `jobs[${job.id}].duration` });
    const arrival = (job.submit - t0) / f.arrivalFactor;
    const ready = Math.ceil(arrival + f.artimeFactor * readyRng.next() * duration);
    const deadline = Math.max(ready + duration, Math.floor(ready + (1 + f.deadlineFactor * deadlineRng.next()) * duration));
    return { id: job.id, arrival, ready, duration, deadline, pes: job.procs };
  });
}

/** A Lublin-model reservation workload: jobs, seed, machine and the reservation factors. */
export interface LublinReservationOptions extends ReservationFactors {
  jobs: number;
  seed: Seed;
  /** Two-stage-uniform break point (default 7). */
  uMed?: number;
  /** Run-time class map; default: run times rounded up to a class (`runtimeClassAtLeast`). */
  classMap?: RuntimeClassMap;
}

/**
 * AR requests from the Lublin model with the LANL-CM5 parameters (1,024 PEs,
 * sizes 32 … 1,024). Arrivals come from the model's combined batch and
 * interactive streams with their own (default) arrival parameters.
 */
export function lublinReservationRequests(options: LublinReservationOptions): ReservationRequest[] {
  const jobs = generateLublin({
    jobs: options.jobs,
    seed: options.seed,
    machineSize: LANL_CM5_PES,
    params: lanlCm5SizeParams(options.uMed ?? 7),
  });
  const map = options.classMap;
  return toReservationRequests(jobs, {
    ...options,
    seed: `${String(options.seed)}/reservation`,
    duration: (j) => (map ? runtimeClassOf(j.runtime, map) : runtimeClassAtLeast(j.runtime)),
  });
}

/** A trace-based reservation workload: the trace jobs, machine and the reservation factors. */
export interface TraceReservationOptions extends ReservationFactors {
  seed: Seed;
  /** Index of the first trace job used (default 0). */
  offset?: number;
  /** Number of consecutive jobs (default: all after offset). */
  jobs?: number;
}

/**
 * AR requests from a real trace (e.g. LANL-CM5). Duration: the user estimate
 * rounded up to a class, or the actual runtime when the estimate is missing.
 * Sizes are the allocated processors.
 */
export function traceReservationRequests(trace: readonly WorkloadJob[], options: TraceReservationOptions): ReservationRequest[] {
  const offset = options.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0 || offset >= trace.length) {
    throw new InputError(`traceReservationRequests: offset ${offset} is outside 0..${trace.length - 1}`, { source: 'traceReservationRequests', field: 'offset' });
  }
  const slice = trace.slice(offset, options.jobs === undefined ? undefined : offset + options.jobs).filter((j) => j.procs > 0);
  return toReservationRequests(slice, {
    ...options,
    duration: (j) => runtimeClassAtLeast(j.requestedTime !== undefined && j.requestedTime > 0 ? j.requestedTime : Math.max(1, j.runtime)),
  });
}
