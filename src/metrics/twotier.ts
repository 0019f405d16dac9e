/**
 * Metrics of the MEASY paper's evaluation (Section 3.3): average response time,
 * average bounded slowdown (τ = 10 s), number of migrations, and batch-means
 * confidence intervals (the paper uses the batch means method without giving
 * its settings; ours are options with the defaults below).
 */
import { InputError } from '../util/errors';
import { boundedSlowdown, responseTime, TimedJob } from './jobs';
import { InvariantError, invariantChecksEnabled } from '../util/invariants';

/** Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** 0.975 quantile of Student's t with `df` degrees of freedom (Cornish–Fisher beyond 30). */
export function tQuantile975(df: number): number {
  if (!(df >= 1)) throw new InputError(`tQuantile975: df must be >= 1, got ${df}`, { source: 'tQuantile975', field: 'df' });
  if (df <= 30) return T975[Math.floor(df) - 1];
  const z = 1.959964;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df);
}

/** Options of `batchMeans`: the number of batches and the fraction of jobs dropped as warm-up. */
export interface BatchMeansOptions {
  /** Number of batches (default 10). */
  batches?: number;
  /** Share of the first values dropped as warm-up (default 0). */
  warmupFraction?: number;
}

/** A steady-state mean with its confidence interval from the method of batch means. */
export interface BatchMeansResult {
  mean: number;
  /** Half-width of the 95% confidence interval of the mean. */
  ci95: number;
  batches: number;
  batchSize: number;
  batchMeans: number[];
}

/**
 * Batch means: split the (time-ordered) values into `batches` consecutive
 * batches of equal size, and treat the batch averages as independent
 * observations: CI half-width = t(0.975, b−1) · sd(batch means) / √b.
 * Leftover values at the end (fewer than a batch) are not used.
 */
export function batchMeans(values: readonly number[], options: BatchMeansOptions = {}): BatchMeansResult {
  const b = options.batches ?? 10;
  const warm = options.warmupFraction ?? 0;
  if (!Number.isInteger(b) || b < 2) throw new InputError(`batchMeans: batches must be an integer >= 2, got ${b}`, { source: 'batchMeans', field: 'batches' });
  if (!(warm >= 0 && warm < 1)) throw new InputError(`batchMeans: warmupFraction must be in [0, 1), got ${warm}`, { source: 'batchMeans', field: 'warmupFraction' });
  const start = Math.floor(values.length * warm);
  const size = Math.floor((values.length - start) / b);
  if (size < 1) throw new InputError(`batchMeans: ${values.length - start} values are too few for ${b} batches`, { source: 'batchMeans', field: 'values' });
  const means: number[] = [];
  for (let k = 0; k < b; k++) {
    let s = 0;
    for (let i = start + k * size; i < start + (k + 1) * size; i++) s += values[i];
    means.push(s / size);
  }
  const mean = means.reduce((s, x) => s + x, 0) / b;
  const v = means.reduce((s, x) => s + (x - mean) ** 2, 0) / (b - 1);
  return { mean, ci95: (tQuantile975(b - 1) * Math.sqrt(v)) / Math.sqrt(b), batches: b, batchSize: size, batchMeans: means };
}

/** Options of the two-tier run metrics: batch means plus the bounded-slowdown threshold. */
export interface TwoTierMetricOptions extends BatchMeansOptions {
  /** Bounded-slowdown threshold τ, seconds (default 10). */
  tau?: number;
}

/** Summary of one run in the paper's terms. */
export interface TwoTierMetrics {
  jobs: number;
  /** Mean over all jobs (not only the batches). */
  meanResponse: number;
  responseCi95: number;
  meanBoundedSlowdown: number;
  slowdownCi95: number;
}

/**
 * Average response time and average bounded slowdown with batch-means 95%
 * confidence intervals. Jobs are ordered by submit time for the batches.
 * `runtime` must be the dedicated execution time (a job's slowdown compares
 * its response with how long it runs on a dedicated machine).
 */
export function twoTierMetrics(jobs: readonly TimedJob[], options: TwoTierMetricOptions = {}): TwoTierMetrics {
  const tau = options.tau ?? 10;
  if (jobs.length === 0) throw new InputError('twoTierMetrics: no jobs', { source: 'twoTierMetrics', field: 'jobs' });
  const ordered = jobs.slice().sort((a, b) => a.submit - b.submit);
  const resp = ordered.map((j) => responseTime(j));
  const bsld = ordered.map((j) => boundedSlowdown(j, tau));
  if (invariantChecksEnabled()) {
    // A job never runs faster than on a dedicated processor: response >= run time, bounded slowdown >= 1.
    ordered.forEach((j, k) => {
      const rt = j.runtime ?? j.end - j.start;
      if (!(bsld[k] >= 1) || resp[k] < rt - (1e-6 + 1e-9 * Math.abs(j.end))) {
        throw new InvariantError('twotier/slowdown', `response ${resp[k]} s for a run time of ${rt} s (bounded slowdown ${bsld[k]})`, { job: j.id, time: j.end });
      }
    });
  }
  const avg = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const batches = Math.min(options.batches ?? 10, Math.max(2, Math.floor(jobs.length / 2)));
  const r = batchMeans(resp, { ...options, batches });
  const s = batchMeans(bsld, { ...options, batches });
  return { jobs: jobs.length, meanResponse: avg(resp), responseCi95: r.ci95, meanBoundedSlowdown: avg(bsld), slowdownCi95: s.ci95 };
}

/** Relative improvement of `value` over `baseline` (positive = better, i.e. smaller). */
export function improvement(baseline: number, value: number): number {
  if (!(baseline > 0)) throw new InputError(`improvement: baseline must be > 0, got ${baseline}`, { source: 'improvement', field: 'baseline' });
  return (baseline - value) / baseline;
}
