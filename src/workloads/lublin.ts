/**
 * Lublin & Feitelson (2003) model of rigid parallel jobs ("lublin99"), as a
 * seeded generator.
 *
 * U. Lublin, D. G. Feitelson, "The workload on parallel supercomputers:
 * modeling the characteristics of rigid jobs", JPDC 63(11), 2003.
 * Parameter values: /work/shared/data/MODELS.md section 1.
 *
 * Three parts, each usable alone:
 *  - size: serial with probability serialProb; otherwise log2(size) from a
 *    two-stage uniform, rounded to an integer (power of two) for a share
 *    pow2Prob of all jobs ({@link sampleLublinSize});
 *  - runtime: ln(runtime) from a hyper-gamma whose branch probability falls
 *    linearly with size ({@link sampleLublinRuntime});
 *  - arrivals: ln(inter-arrival) ~ Gamma, stretched over a daily cycle of 48
 *    half-hour buckets ({@link lublinArrivals}, {@link LublinArrivalStream}).
 *
 * Differences from the reference C program (m_lublin99.c), chosen on purpose:
 *  - randomness comes from schedlab's seeded Rng (sfc32) and its Marsaglia–Tsang
 *    gamma sampler instead of drand48 and Jain's sum-of-exponentials; the
 *    distributions are the same, the individual numbers are not;
 *  - the arrival, size and runtime parts draw from separate forked streams, so
 *    changing the size parameters leaves the arrival times unchanged;
 *  - sizes are capped at the machine size (as the GridSim port does): with a
 *    machine size that is not a power of two, rounding log2(size) up could
 *    otherwise exceed the machine.
 * As in the C program, the per-type "points" balance and leftover fraction
 * persist from one arrival to the next, the cumulative arrival time is
 * truncated to whole seconds after each step, the runtime is exp(g) truncated
 * to whole seconds, and the batch stream wins only if its next arrival is
 * strictly earlier than the interactive one.
 */
import { Rng, Seed } from '../util/random';
import { InputError } from '../util/errors';
import { WorkloadJob } from './job';

/** All parameters of one Lublin job stream (batch, interactive or typeless). */
export interface LublinParams {
  /** P(size = 1). */
  serialProb: number;
  /** Share of all jobs whose log2(size) is rounded to an integer (power of two). */
  pow2Prob: number;
  /** Lower bound of log2(size) for parallel jobs. */
  uLow: number;
  /** Break point of the two-stage uniform (log2). */
  uMed: number;
  /** Upper bound of log2(size): 7 = log2 128 for batch on the model's 128-node machine, 5.5 for interactive. */
  uHi: number;
  /** Probability of the lower segment [uLow, uMed]. */
  uProb: number;
  /** Hyper-gamma branch 1 shape (of ln runtime). */
  a1: number;
  /** Hyper-gamma branch 1 scale. */
  b1: number;
  /** Hyper-gamma branch 2 shape. */
  a2: number;
  /** Hyper-gamma branch 2 scale. */
  b2: number;
  /** Slope of the branch-1 probability p = pa·size + pb. */
  pa: number;
  /** Intercept of p. */
  pb: number;
  /** Gamma shape of ln(inter-arrival) in peak hours (multiplied by arar). */
  aarr: number;
  /** Gamma scale of ln(inter-arrival). */
  barr: number;
  /** Gamma shape of the daily-cycle arrival-density curve. */
  anum: number;
  /** Gamma scale of the daily-cycle curve. */
  bnum: number;
  /** Peak-hours to whole-day ratio: effective shape = aarr·arar. */
  arar: number;
  /** Apply the daily cycle (default true). When false, inter-arrival = exp(g) seconds. */
  dailyCycle: boolean;
  /** Redraw ln(runtime) above this (default 12, i.e. runtime ≤ e^12 ≈ 162,754 s). */
  maxLogRuntime: number;
  /** Redraw ln(inter-arrival) above this (default 13). */
  maxLogInterArrival: number;
  /** Hour at which the fitted daily curve starts (default 11). */
  cyclicDayStart: number;
}

const COMMON = { dailyCycle: true, maxLogRuntime: 12, maxLogInterArrival: 13, cyclicDayStart: 11 };

/** Batch-job stream parameters (the model's *_BATCH values). */
export const LUBLIN_BATCH: Readonly<LublinParams> = Object.freeze({
  serialProb: 0.2927, pow2Prob: 0.6686, uLow: 1.2, uMed: 5, uHi: 7, uProb: 0.875,
  a1: 6.57, b1: 0.823, a2: 639.1, b2: 0.0156, pa: -0.003, pb: 0.6986,
  aarr: 6.0415, barr: 0.8531, anum: 6.1271, bnum: 5.274, arar: 1.0519,
  ...COMMON,
});

/** Interactive-job stream parameters (the model's *_ACTIVE values). */
export const LUBLIN_INTERACTIVE: Readonly<LublinParams> = Object.freeze({
  serialProb: 0.1541, pow2Prob: 0.625, uLow: 1, uMed: 3, uHi: 5.5, uProb: 0.705,
  a1: 3.8351, b1: 0.6605, a2: 7.073, b2: 0.6856, pa: -0.0118, pb: 0.9156,
  aarr: 6.551, barr: 0.6621, anum: 8.9186, bnum: 3.668, arar: 0.9797,
  ...COMMON,
});

/** Whole-sample parameters, used when job types are not distinguished. */
export const LUBLIN_TYPELESS: Readonly<LublinParams> = Object.freeze({
  serialProb: 0.244, pow2Prob: 0.576, uLow: 0.8, uMed: 4.5, uHi: 7, uProb: 0.86,
  a1: 4.2, b1: 0.94, a2: 312, b2: 0.03, pa: -0.0054, pb: 0.78,
  aarr: 10.2303, barr: 0.4871, anum: 8.1737, bnum: 3.9631, arar: 1.0225,
  ...COMMON,
});

/** Options of `generateLublin`: jobs, seed, machine size, and the model parameters to override. */
export interface LublinOptions {
  /** Number of jobs to generate. */
  jobs: number;
  seed: Seed;
  /**
   * Machine size in processors: moves each stream's uHi by log2(machineSize) − 7
   * (batch and typeless uHi = log2(machineSize), interactive 1.5 less; see
   * {@link lublinUHi}) and caps sizes.
   */
  machineSize?: number;
  /** Overrides applied to every stream (after machineSize). */
  params?: Partial<LublinParams>;
  /** Two streams, batch and interactive (default true, as the C program); false: one typeless stream. */
  includeJobTypes?: boolean;
  /** Overrides for the batch stream only (applied after `params`). */
  batchParams?: Partial<LublinParams>;
  /** Overrides for the interactive stream only (applied after `params`). */
  interactiveParams?: Partial<LublinParams>;
  /** Hour of day (0–23) at which the log starts (default 0, as the C program). */
  startHour?: number;
}

const BUCKETS = 48;
const SECONDS_IN_BUCKET = 1800;

// ---------------------------------------------------------------------------
// Parameter handling

/** Merge overrides onto a base parameter set and check the result; errors name the field. */
export function lublinParams(base: Readonly<LublinParams>, overrides: Partial<LublinParams> = {}, label = 'Lublin'): LublinParams {
  const p: LublinParams = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    if (!(key in base)) throw new InputError(`${label}: unknown parameter '${key}' (known: ${Object.keys(base).join(', ')})`, { source: label, field: key });
    (p as unknown as Record<string, unknown>)[key] = value;
  }
  validateLublinParams(p, label);
  return p;
}

/** Throw an InputError naming the first parameter that is out of range. */
export function validateLublinParams(p: LublinParams, label = 'Lublin'): void {
  const bad = (field: string, why: string): never => {
    throw new InputError(`${label}: parameter ${field} = ${(p as unknown as Record<string, unknown>)[field]} ${why}`, { source: label, field });
  };
  for (const key of Object.keys(p) as (keyof LublinParams)[]) {
    if (key === 'dailyCycle') {
      if (typeof p.dailyCycle !== 'boolean') bad(key, 'must be true or false');
    } else if (typeof p[key] !== 'number' || !Number.isFinite(p[key] as number)) bad(key, 'must be a finite number');
  }
  if (p.serialProb < 0 || p.serialProb > 1) bad('serialProb', 'must be in [0, 1]');
  if (p.pow2Prob < 0 || p.serialProb + p.pow2Prob > 1) bad('pow2Prob', 'must be >= 0 with serialProb + pow2Prob <= 1');
  if (p.uProb < 0 || p.uProb > 1) bad('uProb', 'must be in [0, 1]');
  if (p.uLow < 0) bad('uLow', 'must be >= 0');
  if (p.uMed < p.uLow) bad('uMed', `must be >= uLow (${p.uLow})`);
  if (p.uHi < p.uMed) bad('uHi', `must be >= uMed (${p.uMed}); for a small machine also set uMed (about uHi - 2.5)`);
  for (const f of ['a1', 'b1', 'a2', 'b2', 'aarr', 'barr', 'anum', 'bnum', 'arar', 'maxLogRuntime', 'maxLogInterArrival'] as const) {
    if (!(p[f] > 0)) bad(f, 'must be > 0');
  }
  // exp() of more than ~709 is Infinity: run times and gaps would stop being numbers.
  for (const f of ['maxLogRuntime', 'maxLogInterArrival'] as const) {
    if (p[f] > MAX_LOG_CAP) bad(f, `must be <= ${MAX_LOG_CAP} (e^${MAX_LOG_CAP} s is already longer than the universe is old)`);
  }
}

/** Largest allowed maxLogRuntime / maxLogInterArrival. */
const MAX_LOG_CAP = 100;

/** Above this many half-hour "points", whole days are skipped at once (never reached with the model's caps). */
const WHOLE_DAY_SKIP = 1e6;

/**
 * Rejection sampling (redraw while above a cap) gives up after this many
 * draws in a row: with caps so low that almost every draw is rejected, the
 * generator would otherwise spin for ever. The model's own caps reject far
 * less than one draw in a thousand.
 */
export const LUBLIN_MAX_REDRAWS = 10000;

/** Largest number of jobs one call generates (the output is held in memory). */
export const LUBLIN_MAX_JOBS = 50_000_000;

function tooManyRedraws(field: 'maxLogRuntime' | 'maxLogInterArrival', params: LublinParams, what: string): never {
  throw new InputError(
    `Lublin: parameter ${field} = ${params[field]} rejects almost every draw of ${what} (${LUBLIN_MAX_REDRAWS} in a row); raise it or change the gamma parameters`,
    { source: 'Lublin', field },
  );
}

// ---------------------------------------------------------------------------
// Size

/** log2 of the machine the model was fitted for (128 nodes): the batch and typeless uHi. */
export const LUBLIN_REFERENCE_LOG2 = 7;

/**
 * uHi of a stream on a machine of `machineSize` processors. The model is
 * fitted for 128 nodes, with batch uHi = 7 = log2 128 but interactive uHi =
 * 5.5 (the largest interactive job has round(2^5.5) = 45 nodes). Our rule for
 * other sizes (the model states none): keep each stream's distance below
 * log2(machine), uHi = base uHi + log2(machineSize) − 7, so interactive jobs
 * stay at most machine/2^1.5 (about 35 %) and 128 gives the model's values exactly.
 */
export function lublinUHi(base: Pick<LublinParams, 'uHi'>, machineSize: number): number {
  return base.uHi + Math.log2(machineSize) - LUBLIN_REFERENCE_LOG2;
}

/** Two-stage uniform: U[low, med] with probability prob, else U[med, hi]. */
export function twoStageUniform(rng: Rng, low: number, med: number, hi: number, prob: number): number {
  return rng.next() <= prob ? rng.uniform(low, med) : rng.uniform(med, hi);
}

/**
 * One job size (processors). `machineSize` caps the result; it defaults to
 * round(2^uHi).
 */
export function sampleLublinSize(rng: Rng, params: LublinParams, machineSize?: number): number {
  const cap = machineSize ?? Math.round(2 ** params.uHi);
  const u = rng.next();
  if (u <= params.serialProb) return 1;
  let x = twoStageUniform(rng, params.uLow, params.uMed, params.uHi, params.uProb);
  if (u <= params.serialProb + params.pow2Prob) x = Math.round(x);
  return Math.max(1, Math.min(cap, Math.round(2 ** x)));
}

// ---------------------------------------------------------------------------
// Runtime

/** Branch-1 probability of the runtime hyper-gamma for a job of `size` processors. */
export function lublinBranchProbability(size: number, params: LublinParams): number {
  return Math.min(1, Math.max(0, params.pa * size + params.pb));
}

/** One runtime in whole seconds (>= 1) for a job of `size` processors. */
export function sampleLublinRuntime(rng: Rng, size: number, params: LublinParams): number {
  const p = lublinBranchProbability(size, params);
  let g: number;
  let draws = 0;
  do {
    if (++draws > LUBLIN_MAX_REDRAWS) tooManyRedraws('maxLogRuntime', params, 'ln(run time)');
    g = rng.next() <= p ? rng.gamma(params.a1, params.b1) : rng.gamma(params.a2, params.b2);
  } while (g > params.maxLogRuntime);
  return Math.floor(Math.exp(g));
}

// ---------------------------------------------------------------------------
// Arrivals

// ln Γ lives in the shared numeric module; re-exported for existing callers.
import { logGamma } from '../util/numeric';
export { logGamma };

/** Regularized lower incomplete gamma P(a, x) (series / continued fraction, 1000 iterations, eps 1e-10). */
export function regularizedGammaP(a: number, x: number): number {
  if (x <= 0) return 0;
  const ITER_MAX = 1000;
  const EPS = 1e-10;
  const gln = logGamma(a);
  if (x < a + 1) {
    let ap = a;
    let sum = 1 / a;
    let del = sum;
    for (let n = 0; n < ITER_MAX; n++) {
      ap += 1;
      del *= x / ap;
      sum += del;
      if (Math.abs(del) < Math.abs(sum) * EPS) break;
    }
    return sum * Math.exp(-x + a * Math.log(x) - gln);
  }
  // Continued fraction (modified Lentz) for Q = 1 - P.
  const FPMIN = 1e-300;
  let b = x + 1 - a;
  let c = 1 / FPMIN;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i <= ITER_MAX; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = b + an / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return 1 - Math.exp(-x + a * Math.log(x) - gln) * h;
}

/** CDF of Gamma(shape, scale) at x. */
export function gammaCdf(x: number, shape: number, scale: number): number {
  return regularizedGammaP(shape, x / scale);
}

/**
 * The 48 half-hour bucket weights of the daily cycle, normalised to mean 1.
 * Bucket (i−1) mod 48 gets GammaCDF(i+0.5) − GammaCDF(i−0.5) for
 * i = cyclicDayStart … cyclicDayStart+47 (the C program's layout).
 */
export function lublinDailyWeights(params: Pick<LublinParams, 'anum' | 'bnum' | 'cyclicDayStart'>): number[] {
  const w = new Array<number>(BUCKETS).fill(0);
  const start = Math.round(params.cyclicDayStart);
  for (let i = start; i < start + BUCKETS; i++) {
    const idx = (((i - 1) % BUCKETS) + BUCKETS) % BUCKETS;
    w[idx] = gammaCdf(i + 0.5, params.anum, params.bnum) - gammaCdf(i - 0.5, params.anum, params.bnum);
  }
  const mean = w.reduce((s, v) => s + v, 0) / BUCKETS;
  if (!(mean > 0)) throw new InputError(`Lublin: daily-cycle weights are all zero (anum ${params.anum}, bnum ${params.bnum})`, { source: 'Lublin', field: 'anum' });
  return w.map((v) => v / mean);
}

/**
 * One stream of Lublin arrivals. `next()` returns the next arrival time in
 * whole seconds; the first arrival comes one inter-arrival after time 0.
 */
export class LublinArrivalStream {
  private readonly weights: number[];
  private bucket: number;
  private points = 0;
  private reminder = 0;
  private time = 0;

  constructor(
    private readonly rng: Rng,
    private readonly params: LublinParams,
    startHour = 0,
  ) {
    if (!Number.isInteger(startHour) || startHour < 0 || startHour > 23) {
      throw new InputError(`Lublin: startHour must be an integer in [0, 23], got ${startHour}`, { source: 'Lublin', field: 'startHour' });
    }
    this.weights = lublinDailyWeights(params);
    this.bucket = (startHour * BUCKETS) / 24;
  }

  /** One raw inter-arrival time in seconds, exp(g) with g ~ Gamma(aarr·arar, barr), before the daily cycle. */
  private rawGap(): number {
    const shape = this.params.aarr * this.params.arar;
    let g: number;
    let draws = 0;
    do {
      if (++draws > LUBLIN_MAX_REDRAWS) tooManyRedraws('maxLogInterArrival', this.params, 'ln(inter-arrival time)');
      g = this.rng.gamma(shape, this.params.barr);
    } while (g > this.params.maxLogInterArrival);
    return Math.exp(g);
  }

  /** Advance and return the next arrival time (seconds). */
  next(): number {
    const gap = this.rawGap();
    if (!this.params.dailyCycle) {
      this.time = Math.floor(this.time + gap);
      return this.time;
    }
    // Spend "points" to pass half-hour buckets: a heavy (busy) bucket costs
    // more points, so the same draw covers less time there.
    this.points += gap / SECONDS_IN_BUCKET;
    let delta = 0;
    if (this.points > WHOLE_DAY_SKIP) {
      // A day's weights sum to 48 (mean 1): skip whole days instead of
      // walking billions of buckets (only reachable with a raised maxLogInterArrival).
      const days = Math.floor(this.points / BUCKETS) - 1;
      this.points -= days * BUCKETS;
      delta += days * BUCKETS * SECONDS_IN_BUCKET;
    }
    while (this.points > this.weights[this.bucket]) {
      this.points -= this.weights[this.bucket];
      this.bucket = (this.bucket + 1) % BUCKETS;
      delta += SECONDS_IN_BUCKET;
    }
    const fraction = this.points / this.weights[this.bucket];
    delta += SECONDS_IN_BUCKET * (fraction - this.reminder);
    this.reminder = fraction;
    this.time = Math.floor(this.time + delta);
    return this.time;
  }
}

/** `count` arrival times (seconds, non-decreasing) of a single Lublin stream. */
export function lublinArrivals(rng: Rng, params: LublinParams, count: number, options: { startHour?: number } = {}): number[] {
  const stream = new LublinArrivalStream(rng, params, options.startHour ?? 0);
  const out = new Array<number>(count);
  for (let i = 0; i < count; i++) out[i] = stream.next();
  return out;
}

// ---------------------------------------------------------------------------
// Generator

/** Job types written to the SWF queue field, as in the C program. */
export const LUBLIN_INTERACTIVE_QUEUE = 0;
/** Queue field value of batch jobs in generated Lublin workloads. */
export const LUBLIN_BATCH_QUEUE = 1;

/**
 * Generate `jobs` rigid jobs. Same options (incl. seed) => identical output.
 * Jobs have id, submit, runtime, procs and status 1; with job types, queue is
 * 1 for batch and 0 for interactive.
 *
 * @example
 * const jobs = generateLublin({ jobs: 1000, seed: 7, machineSize: 128 });
 * console.log(jobs.length, jobs[0].submit, jobs[0].procs);
 */
export function generateLublin(options: LublinOptions): WorkloadJob[] {
  const src = 'generateLublin';
  if (options === null || typeof options !== 'object') throw new InputError('generateLublin: options must be an object {jobs, seed, ...}', { source: src });
  const { jobs: count, seed } = options;
  if (!Number.isInteger(count) || count < 0 || count > LUBLIN_MAX_JOBS) {
    throw new InputError(`generateLublin: jobs must be an integer in [0, ${LUBLIN_MAX_JOBS}], got ${count}`, { source: src, field: 'jobs' });
  }
  if (!((typeof seed === 'number' && Number.isFinite(seed)) || typeof seed === 'string')) {
    throw new InputError(`generateLublin: seed must be a finite number or a string, got ${String(seed)}`, { source: src, field: 'seed' });
  }
  const machineSize = options.machineSize;
  if (machineSize !== undefined && (!Number.isInteger(machineSize) || machineSize < 1)) {
    throw new InputError(`generateLublin: machineSize must be a positive integer, got ${machineSize}`, { source: src, field: 'machineSize' });
  }
  for (const key of ['params', 'batchParams', 'interactiveParams'] as const) {
    const v = options[key];
    if (v !== undefined && (v === null || typeof v !== 'object' || Array.isArray(v))) {
      throw new InputError(`generateLublin: ${key} must be an object of parameter overrides`, { source: src, field: key });
    }
  }
  const includeTypes = options.includeJobTypes ?? true;
  const root = new Rng(seed);

  interface Stream {
    params: LublinParams;
    arrivals: LublinArrivalStream;
    sizeRng: Rng;
    runtimeRng: Rng;
    queue: number | undefined;
    nextArrival: number;
  }
  const makeStream = (name: string, base: Readonly<LublinParams>, extra: Partial<LublinParams> | undefined, queue: number | undefined): Stream => {
    const sizeOverride: Partial<LublinParams> = machineSize !== undefined ? { uHi: lublinUHi(base, machineSize) } : {};
    const params = lublinParams(base, { ...sizeOverride, ...options.params, ...extra }, `Lublin ${name} stream`);
    const arrivals = new LublinArrivalStream(root.fork(`${name}/arrivals`), params, options.startHour ?? 0);
    return {
      params,
      arrivals,
      sizeRng: root.fork(`${name}/size`),
      runtimeRng: root.fork(`${name}/runtime`),
      queue,
      nextArrival: arrivals.next(),
    };
  };

  const streams: Stream[] = includeTypes
    ? [
        makeStream('interactive', LUBLIN_INTERACTIVE, options.interactiveParams, LUBLIN_INTERACTIVE_QUEUE),
        makeStream('batch', LUBLIN_BATCH, options.batchParams, LUBLIN_BATCH_QUEUE),
      ]
    : [makeStream('typeless', LUBLIN_TYPELESS, undefined, undefined)];

  const out: WorkloadJob[] = new Array(count);
  for (let i = 0; i < count; i++) {
    // Batch (index 1) only when strictly earlier, as in the C program.
    const s = streams.length === 2 && streams[1].nextArrival < streams[0].nextArrival ? streams[1] : streams[0];
    const submit = s.nextArrival;
    s.nextArrival = s.arrivals.next();
    const procs = sampleLublinSize(s.sizeRng, s.params, machineSize);
    const runtime = sampleLublinRuntime(s.runtimeRng, procs, s.params);
    const job: WorkloadJob = { id: i + 1, submit, runtime, procs, status: 1 };
    if (s.queue !== undefined) job.queue = s.queue;
    out[i] = job;
  }
  return out;
}
