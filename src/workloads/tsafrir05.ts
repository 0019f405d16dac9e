/**
 * The Tsafrir, Etsion & Feitelson (2005) model of user runtime estimates
 * ("est_model"): a few popular round values (the "head", 20 bins holding 89%
 * of jobs) plus a long tail of other values, assigned so that every estimate
 * is at least its job's runtime. Parameters: MODELS.md section 2.
 *
 * As the model defines them: every value is at most max_est (tail values
 * lie strictly below it, see {@link tsafrirTailValues}), and the head's
 * popularity ranks follow the four traces' table with its bound and its
 * preference for small ranks ({@link tsafrirHeadPopularity}).
 */
import { InputError } from '../util/errors';
import { Rng, Seed } from '../util/random';
import { WorkloadJob } from './job';

/** Parameter defaults of the model (MODELS.md section 2, source [LW] est_model.hh). */
export const TSAFRIR05_DEFAULTS = {
  /** (njobs, K) points of the piecewise-linear bin-number model. */
  binnumPoints: [
    [0, 0], [20, 10], [200, 20], [1000, 35], [10000, 90], [70000, 340], [250000, 565],
  ] as readonly (readonly [number, number])[],
  top: 20,
  headParams: { a: 14.0491, b: -0.177531, c: 0.462513 },
  headSum: 89.0,
  tailParams: { a: 795.6, b: -2.267 },
  bintimA: { base: 12.1039, exponent: -0.6026 },
  /** The 15 "joint" head values (seconds): 5, 10, 15, 20, 30 min; 1, 2, 3, 4, 5, 6, 8, 10, 12, 18 h. */
  jointValues: [300, 600, 900, 1200, 1800, 3600, 7200, 10800, 14400, 18000, 21600, 28800, 36000, 43200, 64800],
  /** Steps used to fill the head when fewer than 20 joint values lie below max_est (seconds). */
  fillSteps: [720000, 360000, 180000, 36000, 18000, 7200, 3600, 1200, 600, 300],
  /** Popularity ranks (1 = most popular) seen in SDSC-SP2, CTC, KTH, SDSC-Blue for each head time rank (0 = max_est, then ascending time). */
  headRankTable: [
    [3, 1, 1, 1], [1, 3, 4, 6], [4, 4, 10, 5], [17, 2, 14, 3], [13, 12, 20, 7], [7, 9, 2, 2],
    [8, 8, 3, 18], [18, 18, 7, 19], [2, 6, 12, 4], [6, 7, 6, 11], [16, 11, 19, 20],
    [10, 20, 5, 9], [5, 16, 18, 10], [15, 5, 16, 14], [14, 14, 9, 13], [19, 13, 17, 16],
    [11, 10, 15, 15], [12, 15, 13, 17], [9, 17, 8, 8], [20, 19, 11, 12],
  ] as readonly (readonly number[])[],
  /** Nudges tried when a tail value collides with one already taken (seconds). */
  nudges: [30, -30, 20, -20, 10, -10],
};

/** Number of distinct estimate values K for `njobs` jobs (piecewise-linear model). */
export function tsafrirBinCount(njobs: number): number {
  const pts = TSAFRIR05_DEFAULTS.binnumPoints;
  if (njobs >= pts[pts.length - 1][0]) return pts[pts.length - 1][1];
  for (let k = 1; k < pts.length; k++) {
    const [x0, y0] = pts[k - 1];
    const [x1, y1] = pts[k];
    if (njobs <= x1) return Math.max(1, Math.round(y0 + ((y1 - y0) * (njobs - x0)) / (x1 - x0)));
  }
  return pts[pts.length - 1][1];
}

/** One estimate value and how many jobs get it. */
export interface EstimateBin {
  value: number;
  count: number;
  /** 1 = most popular. */
  popularity: number;
  head: boolean;
}

/** The head values: max_est, then the joint values below it, filled up to `top` values. */
export function tsafrirHeadValues(maxEstimate: number, top = TSAFRIR05_DEFAULTS.top): number[] {
  const values = new Set<number>([maxEstimate]);
  for (const v of TSAFRIR05_DEFAULTS.jointValues) if (v < maxEstimate && values.size < top) values.add(v);
  for (const step of TSAFRIR05_DEFAULTS.fillSteps) {
    for (let v = Math.floor((maxEstimate - 1) / step) * step; v >= step && values.size < top; v -= step) values.add(v);
    if (values.size >= top) break;
  }
  const rest = Array.from(values).filter((v) => v !== maxEstimate).sort((a, b) => a - b);
  return [maxEstimate, ...rest];
}

/**
 * Popularity rank (1 = most popular) of each head value, by time rank (0 =
 * max_est, then ascending time), as the model defines it from the four
 * traces' table (TSAFRIR05_DEFAULTS.headRankTable):
 *  - max_est is always rank 1;
 *  - a rank is "due" at the largest time rank at which any trace shows it
 *    (its bound): once due and still free, the smallest due rank is taken;
 *  - otherwise the rank is drawn from a pool holding every free rank of the
 *    table rows seen so far (time ranks 0..t, one entry per trace, so ranks
 *    several traces agree on are likelier), favouring small ranks: two
 *    uniform draws, the smaller kept.
 * With fewer than 20 head values (H < 20) only ranks 1..H are used; should
 * the pool then hold none and none be due, the smallest free rank is taken
 * (our choice: the model is defined for a full head of 20).
 */
export function tsafrirHeadPopularity(H: number, rng: Rng): number[] {
  const table = TSAFRIR05_DEFAULTS.headRankTable;
  const bound = new Map<number, number>();
  table.forEach((row, t) => row.forEach((r) => bound.set(r, Math.max(bound.get(r) ?? 0, t))));
  const chosen = new Set<number>();
  let pool: number[] = [];
  const pop: number[] = [];
  for (let t = 0; t < H; t++) {
    for (const r of table[t] ?? []) if (r <= H && !chosen.has(r)) pool.push(r);
    let r = t === 0 ? 1 : -1;
    for (let x = 1; r < 0 && x <= H; x++) if (!chosen.has(x) && (bound.get(x) ?? Infinity) <= t) r = x;
    if (r < 0 && pool.length > 0) r = Math.min(rng.pick(pool), rng.pick(pool));
    for (let x = 1; r < 0; x++) if (!chosen.has(x)) r = x;
    pop.push(r);
    chosen.add(r);
    pool = pool.filter((x) => x !== r);
  }
  return pop;
}

/**
 * Tail estimate values (seconds), ascending. Bin i of T (relative rank r =
 * i/T) maps to est/max = (a−1)·r/(a−r), rounded to whole minutes; if that
 * value is taken (by the head or an earlier tail bin) or not strictly
 * between 0 and max_est, the nudges +30, −30, +20, −20, +10, −10 s are tried
 * in turn, and a bin none of them frees is dropped (so every tail value is
 * below max_est; there may be fewer than T).
 */
export function tsafrirTailValues(T: number, K: number, maxEstimate: number, headValues: readonly number[]): number[] {
  const D = TSAFRIR05_DEFAULTS;
  const used = new Set<number>(headValues);
  const a = 1 + D.bintimA.base * Math.pow(K, D.bintimA.exponent);
  const out: number[] = [];
  for (let i = 1; i <= T; i++) {
    const r = i / T;
    const base = Math.round(((((a - 1) * r) / (a - r)) * maxEstimate) / 60) * 60;
    const v = [0, ...D.nudges].map((d) => base + d).find((x) => x > 0 && x < maxEstimate && !used.has(x));
    if (v === undefined) continue;
    used.add(v);
    out.push(v);
  }
  return out.sort((x, y) => x - y);
}

/**
 * The estimate bins (values and job counts) for `njobs` jobs and a largest
 * estimate `maxEstimate` (seconds).
 */
export function tsafrirBins(njobs: number, maxEstimate: number, rng: Rng): EstimateBin[] {
  const D = TSAFRIR05_DEFAULTS;
  const K = Math.max(1, Math.min(tsafrirBinCount(njobs), njobs));
  const headVals = tsafrirHeadValues(maxEstimate, Math.min(D.top, K));
  const H = headVals.length;
  const pop = tsafrirHeadPopularity(H, rng);
  const tailVals = tsafrirTailValues(K - H, K, maxEstimate, headVals);
  const tailN = tailVals.length;
  // shares (percent) by popularity rank
  const headPct = (x: number) => D.headParams.a * Math.exp(D.headParams.b * x) + D.headParams.c;
  const pctByRank = new Array<number>(K + 1).fill(0);
  let rest = 0;
  for (let x = 2; x <= H; x++) {
    pctByRank[x] = headPct(x);
    rest += pctByRank[x];
  }
  const headTotal = tailN > 0 ? D.headSum : 100;
  pctByRank[1] = headTotal - rest;
  if (tailN > 0) {
    let tailSum = 0;
    for (let x = H + 1; x <= H + tailN; x++) tailSum += D.tailParams.a * Math.pow(x, D.tailParams.b);
    for (let x = H + 1; x <= H + tailN; x++) pctByRank[x] = ((D.tailParams.a * Math.pow(x, D.tailParams.b)) / tailSum) * (100 - D.headSum);
  }
  const tailRanks = rng.shuffle(Array.from({ length: tailN }, (_, k) => H + 1 + k));
  const bins: EstimateBin[] = [
    ...headVals.map((value, t) => ({ value, popularity: pop[t], head: true, count: 0 })),
    ...tailVals.map((value, k) => ({ value, popularity: tailRanks[k], head: false, count: 0 })),
  ];
  // percentages -> counts, at least 1 each, summing to njobs
  for (const b of bins) b.count = Math.max(1, Math.round((pctByRank[b.popularity] / 100) * njobs));
  let diff = njobs - bins.reduce((s, b) => s + b.count, 0);
  const byPop = bins.slice().sort((x, y) => x.popularity - y.popularity);
  for (let k = 0; diff !== 0; k = (k + 1) % byPop.length) {
    const b = byPop[k];
    if (diff > 0) {
      b.count++;
      diff--;
    } else if (b.count > 1) {
      b.count--;
      diff++;
    }
  }
  return bins;
}

/** Options of the Tsafrir 2005 user-estimate model: seed and the maximum estimate. */
export interface TsafrirOptions {
  seed?: Seed;
  /** Largest estimate (s); default max(largest runtime, 3600) as in the model's wrapper. */
  maxEstimate?: number;
}

/** Requested times drawn by the Tsafrir 2005 model, with their bins and shortfalls. */
export interface TsafrirResult {
  /** estimates[k] belongs to runtimes[k]. */
  estimates: number[];
  bins: EstimateBin[];
  maxEstimate: number;
  /** Jobs for which no unused estimate ≥ runtime was left: they get maxEstimate. */
  shortfalls: number;
}

/**
 * Assign a user estimate to each runtime. Jobs are taken longest first and each
 * gets an estimate drawn uniformly from the not-yet-used estimates that are at
 * least its runtime, so every estimate is ≥ its runtime.
 */
export function tsafrirEstimates(runtimes: readonly number[], options: TsafrirOptions = {}): TsafrirResult {
  if (!Array.isArray(runtimes)) throw new InputError('tsafrirEstimates: runtimes must be an array', { source: 'tsafrirEstimates', field: 'runtimes' });
  if (options.maxEstimate !== undefined && !(typeof options.maxEstimate === 'number' && Number.isFinite(options.maxEstimate))) {
    throw new InputError(`tsafrirEstimates: maxEstimate must be a finite number, got ${String(options.maxEstimate)}`, { source: 'tsafrirEstimates', field: 'maxEstimate' });
  }
  const n = runtimes.length;
  if (n === 0) return { estimates: [], bins: [], maxEstimate: options.maxEstimate ?? 3600, shortfalls: 0 };
  let maxRt = 0;
  runtimes.forEach((r, k) => {
    if (!(r >= 0) || !Number.isFinite(r)) throw new InputError(`tsafrirEstimates: runtime[${k}] = ${r} is not a finite number >= 0`, { source: 'tsafrirEstimates', field: `runtimes[${k}]` });
    if (r > maxRt) maxRt = r;
  });
  const maxEstimate = options.maxEstimate ?? Math.max(Math.ceil(maxRt), 3600);
  if (maxEstimate < 3600) throw new InputError(`tsafrirEstimates: maxEstimate must be at least 3600 s (one hour), got ${maxEstimate}`, { source: 'tsafrirEstimates', field: 'maxEstimate' });
  if (maxEstimate < maxRt) throw new InputError(`tsafrirEstimates: maxEstimate ${maxEstimate} is below the largest runtime ${maxRt}`, { source: 'tsafrirEstimates', field: 'maxEstimate' });
  const rng = new Rng(options.seed ?? 1);
  const bins = tsafrirBins(n, maxEstimate, rng);
  const pool: number[] = [];
  for (const b of bins.slice().sort((x, y) => y.value - x.value)) for (let c = 0; c < b.count; c++) pool.push(b.value);
  const jobOrder = Array.from({ length: n }, (_, k) => k).sort((x, y) => runtimes[y] - runtimes[x] || x - y);
  const estimates = new Array<number>(n);
  const avail: number[] = [];
  let next = 0;
  let shortfalls = 0;
  for (const k of jobOrder) {
    while (next < pool.length && pool[next] >= runtimes[k]) avail.push(pool[next++]);
    if (avail.length === 0) {
      estimates[k] = maxEstimate;
      shortfalls++;
      continue;
    }
    const pick = Math.floor(rng.next() * avail.length);
    estimates[k] = avail[pick];
    avail[pick] = avail[avail.length - 1];
    avail.pop();
  }
  return { estimates, bins, maxEstimate, shortfalls };
}

/** Copy of `jobs` with `requestedTime` set by the Tsafrir 2005 model. */
export function withTsafrirEstimates<J extends WorkloadJob>(jobs: readonly J[], options: TsafrirOptions = {}): J[] {
  const { estimates } = tsafrirEstimates(jobs.map((j) => j.runtime), options);
  return jobs.map((j, k) => ({ ...j, requestedTime: estimates[k] }));
}
