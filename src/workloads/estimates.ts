/**
 * User runtime estimates measured and modelled from real logs: the
 * distribution of estimate / actual runtime of a workload (for comparing a
 * generated workload with the logs), and an empirical estimate model that
 * gives each job the estimate/runtime ratio of a job of a real log with a
 * similar runtime.
 */
import { InputError } from '../util/errors';
import { Rng, Seed } from '../util/random';
import { WorkloadJob } from './job';

/** Estimate / actual runtime of a workload, over jobs with a runtime > 0 and an estimate > 0. */
export interface EstimateDistribution {
  /** Jobs counted (runtime > 0 and requestedTime > 0). */
  jobs: number;
  /** Σ estimate / Σ runtime (an estimate below the runtime counts as the runtime, as the schedulers see it). */
  totalRatio: number;
  /** Σ estimate·procs / Σ runtime·procs: the same over processor-seconds. */
  areaRatio: number;
  /** Quantiles of the per-job ratio estimate / runtime. */
  median: number;
  q25: number;
  q75: number;
  q90: number;
  /** Largest estimate, and the share of jobs whose estimate equals it. */
  maxEstimate: number;
  atMaxShare: number;
  /** Share of jobs whose estimate is below the runtime (raised to it by the schedulers). */
  underShare: number;
  /** Mean runtime of the counted jobs, seconds. */
  meanRuntime: number;
}

/** The estimate/actual distribution of `jobs` (jobs without an estimate or with runtime 0 are left out). */
export function estimateDistribution(jobs: readonly WorkloadJob[]): EstimateDistribution {
  const ratios: number[] = [];
  let est = 0;
  let rt = 0;
  let estArea = 0;
  let rtArea = 0;
  let maxEstimate = 0;
  let under = 0;
  for (const j of jobs) {
    if (!(j.runtime > 0 && j.requestedTime !== undefined && j.requestedTime > 0)) continue;
    const e = Math.max(j.requestedTime, j.runtime);
    ratios.push(e / j.runtime);
    est += e;
    rt += j.runtime;
    estArea += e * j.procs;
    rtArea += j.runtime * j.procs;
    if (j.requestedTime > maxEstimate) maxEstimate = j.requestedTime;
    if (j.requestedTime < j.runtime) under++;
  }
  const n = ratios.length;
  if (n === 0) throw new InputError('estimateDistribution: no job has both a runtime > 0 and an estimate > 0', { source: 'estimateDistribution', field: 'requestedTime' });
  ratios.sort((a, b) => a - b);
  const q = (p: number) => ratios[Math.floor(p * (n - 1))];
  let atMax = 0;
  for (const j of jobs) if (j.runtime > 0 && j.requestedTime === maxEstimate) atMax++;
  return {
    jobs: n, totalRatio: est / rt, areaRatio: estArea / rtArea, median: q(0.5), q25: q(0.25), q75: q(0.75), q90: q(0.9),
    maxEstimate, atMaxShare: atMax / n, underShare: under / n, meanRuntime: rt / n,
  };
}

/** Options of the empirical estimate model: seed and number of runtime classes. */
export interface EmpiricalEstimateOptions {
  seed?: Seed;
  /** Runtime classes of equal job count in the reference log (default 20). */
  classes?: number;
}

/**
 * Copy of `jobs` with `requestedTime` = runtime × the estimate/runtime ratio
 * of a job drawn at random from `reference` (a real log) among those of the
 * same runtime class (classes of equal job count by runtime; a job outside
 * the log's range takes the nearest class). Ratios below 1 (the log's jobs
 * that overran their estimate) are kept as they are: the schedulers raise
 * such estimates to the runtime, as they do on the log itself. Estimates
 * are whole seconds, at least 1. The ratio depends on the runtime in real
 * logs (short jobs overestimate by far more), hence the classes.
 */
export function withEmpiricalEstimates<J extends WorkloadJob>(jobs: readonly J[], reference: readonly WorkloadJob[], options: EmpiricalEstimateOptions = {}): J[] {
  const SRC = 'withEmpiricalEstimates';
  const classes = options.classes ?? 20;
  if (!(Number.isInteger(classes) && classes >= 1)) throw new InputError(`${SRC}: classes must be a positive integer, got ${classes}`, { source: SRC, field: 'classes' });
  const ref = reference
    .filter((j) => j.runtime > 0 && j.requestedTime !== undefined && j.requestedTime > 0)
    .map((j) => ({ runtime: j.runtime, ratio: j.requestedTime! / j.runtime }))
    .sort((a, b) => a.runtime - b.runtime || a.ratio - b.ratio);
  if (ref.length < classes) throw new InputError(`${SRC}: the reference has ${ref.length} jobs with a runtime and an estimate, fewer than ${classes} classes`, { source: SRC, field: 'reference' });
  // class k holds ref[bounds[k] .. bounds[k+1]); upper[k] is its largest runtime
  const bounds = Array.from({ length: classes + 1 }, (_, k) => Math.round((k * ref.length) / classes));
  const upper = Array.from({ length: classes }, (_, k) => ref[bounds[k + 1] - 1].runtime);
  const rng = new Rng(options.seed ?? 1);
  return jobs.map((j, i) => {
    if (!(j.runtime >= 0 && Number.isFinite(j.runtime))) throw new InputError(`${SRC}: job ${j.id} (index ${i}): runtime ${j.runtime} is not a finite number >= 0`, { source: SRC, field: `jobs[${i}].runtime` });
    let k = 0;
    while (k < classes - 1 && j.runtime > upper[k]) k++;
    const r = ref[bounds[k] + Math.floor(rng.next() * (bounds[k + 1] - bounds[k]))];
    // a job of runtime 0 takes the drawn job's own estimate
    const estimate = j.runtime > 0 ? j.runtime * r.ratio : r.runtime * r.ratio;
    return { ...j, requestedTime: Math.max(1, Math.round(estimate)) };
  });
}
