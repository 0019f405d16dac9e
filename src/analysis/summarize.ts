/** Grouped summaries with confidence intervals, over plain records. */
import { mean, sampleStandardDeviation, min, max } from 'simple-statistics';
import type { DataFrame } from './frame';
import { fromFrame, type Row } from './frame';
import { logGamma } from '../util/numeric';

/**
 * Two-sided Student-t critical value t_{1-alpha/2, df}: the quantile found by
 * bisection on the regularized incomplete beta function (exact to ~1e-10).
 */
export function tCritical(df: number, confidence = 0.95): number {
  if (!(df >= 1)) throw new RangeError(`tCritical needs df >= 1, got ${df}`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  const target = 1 - (1 - confidence) / 2;
  let lo = 0;
  let hi = 1e3;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** CDF of Student's t distribution. */
export function studentTCdf(t: number, df: number): number {
  const x = df / (df + t * t);
  const tail = 0.5 * regularizedBeta(x, df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** Regularized incomplete beta I_x(a, b) by Lentz's continued fraction. */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  if (x > (a + 1) / (a + b + 2)) return 1 - regularizedBeta(1 - x, b, a);
  const tiny = 1e-300;
  let f = 1;
  let c = 1;
  let d = 0;
  for (let i = 0; i <= 400; i++) {
    const m = Math.floor(i / 2);
    let num: number;
    if (i === 0) num = 1;
    else if (i % 2 === 0) num = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    else num = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    d = 1 / d;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    const cd = c * d;
    f *= cd;
    if (Math.abs(1 - cd) < 1e-14) break;
  }
  return (front * (f - 1)) / a;
}

/**
 * Half-width of the confidence interval of the mean of `values`
 * (Student t, sample standard deviation). 0 for one value; NaN for none.
 */
export function confidenceHalfWidth(values: readonly number[], confidence = 0.95): number {
  if (values.length === 0) return NaN;
  if (values.length === 1) return 0;
  const s = sampleStandardDeviation(values as number[]);
  return (tCritical(values.length - 1, confidence) * s) / Math.sqrt(values.length);
}

/** One group of a `summarize` result: the group keys, then mean, standard deviation, count and CI half-width per value column. */
export interface SummaryRow extends Row {
  n: number;
  mean: number;
  std: number;
  min: number;
  max: number;
  /** Half-width of the confidence interval of the mean. */
  ci95: number;
}

/** Options of `summarize`: grouping columns, value columns and the confidence level. */
export interface SummarizeOptions {
  /** Keys to group by, in order; groups appear in order of first appearance. */
  by: string[];
  /** The numeric field to summarise. */
  value: string;
  /** Confidence level of `ci95` (default 0.95). */
  confidence?: number;
}

/**
 * The one grouped summary of the toolkit: group `records` (plain records or a
 * danfojs DataFrame) by the `by` keys and summarise `value`: count, mean,
 * sample standard deviation, min, max and the half-width of the 95% CI of the
 * mean. Non-finite values are an error: a summary must never hide a broken run.
 * The per-family tables (vcsched.degradationTable, evolving.evolvingSystemTable,
 * reservation.summarizeReservationRuns, dfrs.periodAgainstBaselines) call it.
 *
 * @example
 * const rows = [1, 2, 3].flatMap((seed) => ['easy', 'fcfs'].map((policy) => ({ policy, seed, wait: seed * (policy === 'easy' ? 10 : 20) })));
 * showTable(summarize(rows, { by: ['policy'], value: 'wait' }));
 */
export function summarize(data: readonly Row[] | DataFrame, options: SummarizeOptions): SummaryRow[] {
  const records: readonly Row[] = Array.isArray(data) ? data : fromFrame(data as DataFrame);
  const { by, value, confidence = 0.95 } = options;
  const groups = new Map<string, { keys: Row; values: number[] }>();
  records.forEach((r, i) => {
    const v = r[value];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new TypeError(`summarize: record ${i} has ${value} = ${String(v)}, expected a finite number`);
    }
    const keys: Row = {};
    for (const k of by) keys[k] = r[k];
    const id = JSON.stringify(by.map((k) => r[k]));
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { keys, values: [] }));
    g.values.push(v);
  });
  return [...groups.values()].map(({ keys, values }) => ({
    ...keys,
    n: values.length,
    mean: mean(values),
    std: values.length > 1 ? sampleStandardDeviation(values) : 0,
    min: min(values),
    max: max(values),
    ci95: confidenceHalfWidth(values, confidence),
  }));
}

/** Percentage by which `value` is worse than `best` (both positive; larger is worse). */
export function degradation(value: number, best: number): number {
  if (!(best > 0)) throw new RangeError(`degradation needs a positive reference, got ${best}`);
  return (100 * (value - best)) / best;
}
