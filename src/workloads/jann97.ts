/**
 * The Jann et al. (1997) workload model of the Cornell Theory Center SP2
 * ("JWload" in the MEASY paper), rebuilt from its published structure
 * (MODELS.md section 3): job sizes fall into ranges (1, 2, 3–4, 5–8, …); each
 * range has its own inter-arrival-time and run-time distribution, each a
 * two-branch Hyper-Erlang of common order fitted to the first three moments.
 *
 * The numeric parameter table of the original was not available. We refit the
 * same structure to the CTC SP2 log itself (the system the model describes),
 * restricted to the model's period (25 Jun – 12 Sep 1996, the first ~78 days of
 * the log): `fitJann97(jobs)`. `JANN97_CTC_FIT` holds that fit. The generator's
 * default parameters (`JANN97_PARAMS`) are that fit calibrated to the MEASY
 * paper's stated JWload statistics (`calibrateJann97`).
 */
import { InputError } from '../util/errors';
import { Rng, Seed } from '../util/random';
import { WorkloadJob } from './job';

/** Two-branch Hyper-Erlang: with prob p Erlang(order, rate1), else Erlang(order, rate2). */
export interface HyperErlang {
  order: number;
  p: number;
  /** Mean of one phase of branch 1 (1 / rate1), seconds. */
  scale1: number;
  /** Mean of one phase of branch 2, seconds. */
  scale2: number;
}

/** Mean of a Hyper-Erlang. */
export function hyperErlangMean(h: HyperErlang): number {
  return h.order * (h.p * h.scale1 + (1 - h.p) * h.scale2);
}

/** i-th raw moment of a Hyper-Erlang (i = 1, 2, 3). */
export function hyperErlangMoment(h: HyperErlang, i: number): number {
  let c = 1;
  for (let m = 0; m < i; m++) c *= h.order + m;
  return c * (h.p * Math.pow(h.scale1, i) + (1 - h.p) * Math.pow(h.scale2, i));
}

/** Draw from a Hyper-Erlang. */
export function sampleHyperErlang(rng: Rng, h: HyperErlang): number {
  const scale = rng.next() < h.p ? h.scale1 : h.scale2;
  return h.order === 1 ? rng.exponential(scale) : rng.gamma(h.order, scale);
}

/** Multiply all values of a Hyper-Erlang by `factor`. */
export function scaleHyperErlang(h: HyperErlang, factor: number): HyperErlang {
  return { ...h, scale1: h.scale1 * factor, scale2: h.scale2 * factor };
}

/**
 * Fit a two-branch Hyper-Erlang of common order to three raw moments: the
 * smallest order k (1..maxOrder) for which the two-point moment problem
 * m_i / (k(k+1)…(k+i-1)) = p x^i + (1-p) y^i has a solution with 0 < p < 1 and
 * x, y > 0. If no order matches all three moments (the third moment of a heavy
 * tail can be out of reach), the first two are matched: a balanced-means
 * hyper-exponential when the squared coefficient of variation is ≥ 1, else an
 * Erlang of order round(1 / scv).
 */
export function fitHyperErlang(m1: number, m2: number, m3: number, maxOrder = 30): HyperErlang & { matched: 2 | 3 } {
  if (!(m1 > 0) || !(m2 > 0) || !(m3 > 0)) throw new InputError(`fitHyperErlang: moments must be positive, got ${m1}, ${m2}, ${m3}`, { source: 'fitHyperErlang', field: 'moments' });
  for (let k = 1; k <= maxOrder; k++) {
    const a1 = m1 / k;
    const a2 = m2 / (k * (k + 1));
    const a3 = m3 / (k * (k + 1) * (k + 2));
    const d = a2 - a1 * a1;
    if (!(d > 1e-12 * a1 * a1)) continue;
    const s = (a3 - a1 * a2) / d;
    const q = s * a1 - a2;
    const disc = s * s - 4 * q;
    if (!(disc > 0) || !(q > 0)) continue;
    const x = (s + Math.sqrt(disc)) / 2;
    const y = (s - Math.sqrt(disc)) / 2;
    if (!(y > 0)) continue;
    const p = (a1 - y) / (x - y);
    if (p > 0 && p < 1) return { order: k, p, scale1: x, scale2: y, matched: 3 };
  }
  const scv = m2 / (m1 * m1) - 1;
  if (scv >= 1) {
    const p = 0.5 * (1 - Math.sqrt((scv - 1) / (scv + 1)));
    return { order: 1, p, scale1: m1 / (2 * p), scale2: m1 / (2 * (1 - p)), matched: 2 };
  }
  const k = Math.max(1, Math.round(1 / Math.max(scv, 1e-6)));
  return { order: k, p: 1, scale1: m1 / k, scale2: m1 / k, matched: 2 };
}

/** Fit to a sample (its first three raw moments). */
export function fitHyperErlangSample(values: readonly number[]): HyperErlang & { matched: 2 | 3 } {
  if (values.length === 0) throw new InputError('fitHyperErlangSample: empty sample', { source: 'fitHyperErlangSample', field: 'values' });
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (const v of values) {
    s1 += v;
    s2 += v * v;
    s3 += v * v * v;
  }
  const n = values.length;
  return fitHyperErlang(s1 / n, s2 / n, s3 / n);
}

/** One size range of the model. */
export interface Jann97Range {
  /** Smallest and largest size in the range (sizes are uniform within). */
  low: number;
  high: number;
  interarrival: HyperErlang;
  runtime: HyperErlang;
  /** Jobs of the fitted log in this range (for reference). */
  count?: number;
}

/** Parameters of the Jann 1997 model: per size range, hyper-Erlang inter-arrival and run-time distributions. */
export interface Jann97Params {
  ranges: Jann97Range[];
  /** Runtimes below this are raised to it (seconds; the log has 0 s jobs, the model 1 s). */
  minRuntime: number;
}

/** The size ranges: powers of two up to the machine size. */
export function jann97Ranges(machineSize: number): [number, number][] {
  const out: [number, number][] = [[1, 1]];
  for (let lo = 2; lo <= machineSize; lo *= 2) out.push([lo === 2 ? 2 : lo / 2 + 1, Math.min(lo, machineSize)]);
  const last = out[out.length - 1][1];
  if (last < machineSize) out.push([last + 1, machineSize]);
  return out;
}

/** Options of the Jann 1997 calibration to a trace: machine size and trace window. */
export interface Jann97FitOptions {
  /** Processors of the modelled machine (ranges run up to it; larger jobs are dropped). Default 320. */
  machineSize?: number;
  /** Fit only jobs submitted within [start, end) seconds of the first submit. Default: the model's 25 Jun–12 Sep 1996 window. */
  window?: { start: number; end: number };
}

/** The model's fitting period in the CTC log: the log starts 26 Jun 1996 17:06 EDT, the model ends 12 Sep 1996. */
export const JANN97_CTC_WINDOW = { start: 0, end: 77.3 * 86400 };

/**
 * Fit the model's structure to a log: per size range, three-moment
 * Hyper-Erlang fits of the inter-arrival times (between consecutive jobs of
 * that range) and of the run times.
 */
export function fitJann97(jobs: readonly WorkloadJob[], options: Jann97FitOptions = {}): Jann97Params {
  const P = options.machineSize ?? 320;
  const win = options.window ?? JANN97_CTC_WINDOW;
  if (jobs.length === 0) throw new InputError('fitJann97: no jobs', { source: 'fitJann97', field: 'jobs' });
  let t0 = Infinity;
  for (const j of jobs) if (j.submit < t0) t0 = j.submit;
  const inWin = jobs.filter((j) => j.submit - t0 >= win.start && j.submit - t0 < win.end && j.procs <= P && j.runtime >= 0);
  const ranges = jann97Ranges(P).map(([low, high]) => {
    const sel = inWin.filter((j) => j.procs >= low && j.procs <= high).sort((a, b) => a.submit - b.submit);
    if (sel.length < 3) {
      // too few jobs for moments: exponential arrivals at the observed rate, runtimes from the neighbours' mean
      const mean = (win.end - win.start) / Math.max(1, sel.length);
      const rt = sel.length > 0 ? sel.reduce((s, j) => s + Math.max(1, j.runtime), 0) / sel.length : 3600;
      return { low, high, count: sel.length, interarrival: { order: 1, p: 1, scale1: mean, scale2: mean }, runtime: { order: 1, p: 1, scale1: rt, scale2: rt } };
    }
    const gaps: number[] = [];
    for (let k = 1; k < sel.length; k++) gaps.push(Math.max(1, sel[k].submit - sel[k - 1].submit));
    const { matched: _m1, ...ia } = fitHyperErlangSample(gaps);
    const { matched: _m2, ...rt } = fitHyperErlangSample(sel.map((j) => Math.max(1, j.runtime)));
    return { low, high, count: sel.length, interarrival: ia, runtime: rt };
  });
  return { ranges, minRuntime: 1 };
}

/** Expected statistics of a parameter set (arrival-rate weighted over ranges). */
export function jann97Stats(params: Jann97Params): { meanProcs: number; meanRuntime: number; serialFraction: number; rangeShares: number[] } {
  const rates = params.ranges.map((r) => 1 / hyperErlangMean(r.interarrival));
  const total = rates.reduce((s, x) => s + x, 0);
  const shares = rates.map((x) => x / total);
  let meanProcs = 0;
  let meanRuntime = 0;
  params.ranges.forEach((r, k) => {
    meanProcs += shares[k] * (r.low + r.high) / 2;
    meanRuntime += shares[k] * hyperErlangMean(r.runtime);
  });
  const serial = params.ranges.filter((r) => r.high === 1).reduce((s, r) => s + shares[params.ranges.indexOf(r)], 0);
  return { meanProcs, meanRuntime, serialFraction: serial, rangeShares: shares };
}

/** Targets for calibration: the statistics the MEASY paper states for its JWload. */
export interface Jann97Targets {
  meanProcs: number;
  meanRuntime: number;
  serialFraction: number;
}

/** JWload statistics stated in the MEASY paper (Section 3.1, and the 40.8% serial share in 3.4). Calibration targets only. */
export const MEASY_JWLOAD_TARGETS: Jann97Targets = { meanProcs: 10.5, meanRuntime: 11267.0, serialFraction: 0.408 };

/**
 * Calibrate a fitted parameter set to target statistics, changing as little
 * structure as possible: (1) the serial range's arrival rate is set so its
 * share is `serialFraction`; (2) the parallel ranges' rates are tilted by
 * size^θ (θ found by bisection) so the mean size is `meanProcs`; (3) every run-
 * time distribution is multiplied by one factor so the mean runtime is
 * `meanRuntime`. Shapes (orders, branch probabilities, CVs) are untouched.
 */
export function calibrateJann97(params: Jann97Params, targets: Jann97Targets = MEASY_JWLOAD_TARGETS): Jann97Params {
  const rates0 = params.ranges.map((r) => 1 / hyperErlangMean(r.interarrival));
  const serialIdx = params.ranges.findIndex((r) => r.high === 1);
  const mids = params.ranges.map((r) => (r.low + r.high) / 2);
  const parallel = rates0.map((_, k) => k).filter((k) => k !== serialIdx);
  const parallelShares = (theta: number) => {
    const w = parallel.map((k) => rates0[k] * Math.pow(mids[k], theta));
    const t = w.reduce((s, x) => s + x, 0);
    return w.map((x) => x / t);
  };
  const meanParallel = (theta: number) => parallelShares(theta).reduce((s, x, i) => s + x * mids[parallel[i]], 0);
  const need = (targets.meanProcs - targets.serialFraction * 1) / (1 - targets.serialFraction);
  let lo = -5;
  let hi = 5;
  if (!(meanParallel(lo) <= need && meanParallel(hi) >= need)) throw new InputError(`calibrateJann97: mean size ${targets.meanProcs} is out of reach of the size ranges`, { source: 'calibrateJann97', field: 'meanProcs' });
  for (let it = 0; it < 200; it++) {
    const mid = (lo + hi) / 2;
    if (meanParallel(mid) < need) lo = mid;
    else hi = mid;
  }
  const ps = parallelShares((lo + hi) / 2);
  const shares = new Array<number>(params.ranges.length).fill(0);
  shares[serialIdx] = targets.serialFraction;
  parallel.forEach((k, i) => (shares[k] = (1 - targets.serialFraction) * ps[i]));
  // keep the total arrival rate; set each range's rate to its share
  const total = rates0.reduce((s, x) => s + x, 0);
  const meanRt = shares.reduce((s, x, k) => s + x * hyperErlangMean(params.ranges[k].runtime), 0);
  const rtFactor = targets.meanRuntime / meanRt;
  return {
    minRuntime: params.minRuntime,
    ranges: params.ranges.map((r, k) => ({
      ...r,
      interarrival: scaleHyperErlang(r.interarrival, rates0[k] / (shares[k] * total)),
      runtime: scaleHyperErlang(r.runtime, rtFactor),
    })),
  };
}

/**
 * `fitJann97` applied to CTC-SP2-1996-3.1-cln (77,222 jobs; 17543 of them in the
 * window and at most 320 processors), machine size 320, rounded. Recompute with
 * `fitJann97((await loadTrace('CTC-SP2')).jobs)`.
 */
export const JANN97_CTC_FIT: Jann97Params = {
  minRuntime: 1,
  ranges: [
    { low: 1, high: 1, count: 7293,
      interarrival: { order: 1, p: 0.0694091, scale1: 6761.44, scale2: 431.976 },
      runtime: { order: 4, p: 0.39047, scale1: 8422.34, scale2: 145.565 } },
    { low: 2, high: 2, count: 1711,
      interarrival: { order: 1, p: 0.0954165, scale1: 27706.5, scale2: 1122.35 },
      runtime: { order: 8, p: 0.310475, scale1: 5689.33, scale2: 25.2128 } },
    { low: 3, high: 4, count: 2316,
      interarrival: { order: 1, p: 0.129869, scale1: 16107.8, scale2: 744.922 },
      runtime: { order: 5, p: 0.208858, scale1: 7018.27, scale2: 28.8922 } },
    { low: 5, high: 8, count: 1795,
      interarrival: { order: 1, p: 0.218086, scale1: 13967.1, scale2: 601.078 },
      runtime: { order: 2, p: 0.223608, scale1: 10483.7, scale2: 327.467 } },
    { low: 9, high: 16, count: 2234,
      interarrival: { order: 1, p: 0.106504, scale1: 14944.5, scale2: 1405.98 },
      runtime: { order: 3, p: 0.318291, scale1: 8883.52, scale2: 36.486 } },
    { low: 17, high: 32, count: 1090,
      interarrival: { order: 1, p: 0.123742, scale1: 29710.6, scale2: 2626.74 },
      runtime: { order: 3, p: 0.318816, scale1: 9529.2, scale2: 47.5779 } },
    { low: 33, high: 64, count: 762,
      interarrival: { order: 1, p: 0.443873, scale1: 18062.2, scale2: 621.585 },
      runtime: { order: 3, p: 0.417687, scale1: 9915.48, scale2: 101.903 } },
    { low: 65, high: 128, count: 197,
      interarrival: { order: 2, p: 0.504061, scale1: 30007.5, scale2: 1954.15 },
      runtime: { order: 5, p: 0.318947, scale1: 8207.78, scale2: 7.02075 } },
    { low: 129, high: 256, count: 98,
      interarrival: { order: 2, p: 0.170326, scale1: 173034, scale2: 3290.12 },
      runtime: { order: 1, p: 0.352922, scale1: 3413.85, scale2: 120.516 } },
    { low: 257, high: 320, count: 47,
      interarrival: { order: 1, p: 0.156167, scale1: 600295, scale2: 56764.4 },
      runtime: { order: 6, p: 0.219269, scale1: 6949.69, scale2: 30.2415 } },
  ],
};

/** Default generator parameters: the CTC fit calibrated to `MEASY_JWLOAD_TARGETS`. */
/** Validate a Hyper-Erlang; errors name `source` and the field. */
function checkHyperErlang(h: HyperErlang, source: string, field: string): void {
  const bad = (f: string, v: unknown, what: string) => new InputError(`${source}: ${field}.${f} must be ${what}, got ${String(v)}`, { source, field: `${field}.${f}` });
  if (h === null || typeof h !== 'object') throw new InputError(`${source}: ${field} must be a Hyper-Erlang {order, p, scale1, scale2}, got ${String(h)}`, { source, field });
  if (!(Number.isInteger(h.order) && h.order >= 1)) throw bad('order', h.order, 'a positive integer');
  if (!(h.p >= 0 && h.p <= 1)) throw bad('p', h.p, 'in [0, 1]');
  if (!(h.scale1 > 0 && Number.isFinite(h.scale1))) throw bad('scale1', h.scale1, 'a finite number > 0');
  if (!(h.scale2 > 0 && Number.isFinite(h.scale2))) throw bad('scale2', h.scale2, 'a finite number > 0');
}

/** Validate a parameter set (e.g. one passed to `generateJann97`); errors name the range and field. */
export function checkJann97Params(params: Jann97Params, source = 'Jann97Params'): void {
  if (params === null || typeof params !== 'object' || !Array.isArray(params.ranges)) {
    throw new InputError(`${source}: params must be {ranges: [...], minRuntime}`, { source, field: 'ranges' });
  }
  if (params.ranges.length === 0) throw new InputError(`${source}: no size ranges`, { source, field: 'ranges' });
  if (!(params.minRuntime >= 0 && Number.isFinite(params.minRuntime))) {
    throw new InputError(`${source}: minRuntime must be a finite number >= 0, got ${params.minRuntime}`, { source, field: 'minRuntime' });
  }
  params.ranges.forEach((r, k) => {
    const f = `ranges[${k}]`;
    if (!(Number.isInteger(r.low) && Number.isInteger(r.high) && r.low >= 1 && r.low <= r.high)) {
      throw new InputError(`${source}: ${f} needs integers 1 <= low <= high, got low ${r.low}, high ${r.high}`, { source, field: `${f}.low` });
    }
    checkHyperErlang(r.interarrival, source, `${f}.interarrival`);
    checkHyperErlang(r.runtime, source, `${f}.runtime`);
  });
}

/** The Jann 1997 model parameters fitted to the CTC-SP2 trace (hyper-Erlang arrivals and run times per size range). */
export const JANN97_PARAMS: Jann97Params = JANN97_CTC_FIT.ranges.length > 0 ? calibrateJann97(JANN97_CTC_FIT) : JANN97_CTC_FIT;

/** Options of the Jann 1997 generator: jobs, seed, machine size and parameters. */
export interface Jann97Options {
  /** Number of jobs (the paper: 100,000). */
  jobs: number;
  seed?: Seed;
  params?: Jann97Params;
}

/**
 * Generate jobs: each size range is an independent renewal process with its
 * own inter-arrival distribution; the streams are merged by time and the first
 * `jobs` arrivals kept. Size is uniform within the range; runtime from the
 * range's distribution. Deterministic for a seed.
 */
export function generateJann97(options: Jann97Options): WorkloadJob[] {
  if (options === null || typeof options !== 'object') throw new InputError('generateJann97: options must be an object', { source: 'generateJann97', field: 'options' });
  const params = options.params ?? JANN97_PARAMS;
  if (options.params !== undefined) checkJann97Params(options.params, 'generateJann97 params');
  const n = options.jobs;
  if (!Number.isInteger(n) || n < 0) throw new InputError(`generateJann97: jobs must be an integer >= 0, got ${n}`, { source: 'generateJann97', field: 'jobs' });
  if (params.ranges.length === 0) throw new InputError('generateJann97: no parameters (JANN97_CTC_FIT is empty)', { source: 'generateJann97', field: 'params' });
  const root = new Rng(options.seed ?? 1);
  const streams = params.ranges.map((r, k) => ({ r, rng: root.fork(`range${k}`), next: 0 }));
  for (const s of streams) s.next = sampleHyperErlang(s.rng, s.r.interarrival);
  const out: WorkloadJob[] = [];
  while (out.length < n) {
    let best = 0;
    for (let k = 1; k < streams.length; k++) if (streams[k].next < streams[best].next) best = k;
    const s = streams[best];
    const procs = s.r.low === s.r.high ? s.r.low : s.rng.int(s.r.low, s.r.high);
    const runtime = Math.max(params.minRuntime, Math.round(sampleHyperErlang(s.rng, s.r.runtime)));
    out.push({ id: out.length + 1, submit: Math.round(s.next), runtime, procs });
    s.next += sampleHyperErlang(s.rng, s.r.interarrival);
  }
  return out;
}
