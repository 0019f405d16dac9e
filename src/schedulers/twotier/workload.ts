/**
 * Workload preparation for the two-tier experiments (MEASY paper, Section 3.1).
 */
import { InputError } from '../../util/errors';
import { Rng, Seed } from '../../util/random';
import { WorkloadJob } from '../../workloads/job';
import { TwoTierJob } from './simulator';

/** How CPU usage is assigned to the jobs of a two-tier workload: mode, range and seed. */
export interface CpuUsageOptions {
  seed?: Seed;
  /**
   * 'paper' (default): a one-process job uses 100%; each process of a
   * multi-process job gets its own average usage drawn from U(low, high).
   * 'full': every process uses 100% (Section 3.5.2).
   */
  mode?: 'paper' | 'full';
  /** Range of the multi-process usage (default 0.40–1.00). */
  range?: readonly [number, number];
}

/**
 * Give every process a CPU usage. "The average CPU usage of each process is a
 * random number between 40% and 100%": we read it as one independent draw per
 * process (not one per job), so a job's processes differ and Dispatch's
 * pairing has something to pair.
 */
export function assignCpuUsage<J extends WorkloadJob>(jobs: readonly J[], options: CpuUsageOptions = {}): (J & TwoTierJob)[] {
  const mode = options.mode ?? 'paper';
  if (mode !== 'paper' && mode !== 'full') throw new InputError(`assignCpuUsage: mode must be 'paper' or 'full', got '${mode}'`, { source: 'assignCpuUsage', field: 'mode' });
  const [lo, hi] = options.range ?? [0.4, 1.0];
  if (!(lo > 0 && lo <= hi && hi <= 1)) throw new InputError(`assignCpuUsage: range must satisfy 0 < low <= high <= 1, got [${lo}, ${hi}]`, { source: 'assignCpuUsage', field: 'range' });
  const rng = new Rng(options.seed ?? 1);
  return jobs.map((j) => {
    const use = new Float64Array(j.procs);
    if (mode === 'full' || j.procs === 1) use.fill(1);
    else for (let k = 0; k < j.procs; k++) use[k] = rng.uniform(lo, hi);
    return { ...j, cpuUsage: use };
  });
}

/** The statistics the MEASY paper states for its workloads (Section 3.1, Table 1). */
export interface WorkloadStatistics {
  jobs: number;
  /** Average parallelism: mean processors per job. */
  meanProcs: number;
  /** Mean runtime, seconds. */
  meanRuntime: number;
  /** Share of one-process jobs. */
  serialFraction: number;
  /** Σ estimate / Σ runtime over jobs with an estimate (1 = exact estimates). */
  estimateRatio: number;
}

/** Job count, size and run-time statistics of a workload, as the MEASY paper tabulates them. */
export function workloadStatistics(jobs: readonly WorkloadJob[]): WorkloadStatistics {
  if (jobs.length === 0) throw new InputError('workloadStatistics: no jobs', { source: 'workloadStatistics', field: 'jobs' });
  let p = 0;
  let r = 0;
  let s = 0;
  let est = 0;
  let estRt = 0;
  for (const j of jobs) {
    p += j.procs;
    r += j.runtime;
    if (j.procs === 1) s++;
    if (j.requestedTime !== undefined && j.requestedTime > 0) {
      est += j.requestedTime;
      estRt += j.runtime;
    }
  }
  const n = jobs.length;
  return { jobs: n, meanProcs: p / n, meanRuntime: r / n, serialFraction: s / n, estimateRatio: estRt > 0 ? est / estRt : NaN };
}

/** Share of jobs per size range 1, 2, 3–4, 5–8, … (the usual power-of-two bins). */
export function sizeDistribution(jobs: readonly WorkloadJob[], machineSize = 320): { sizes: string; low: number; high: number; share: number }[] {
  const bins: [number, number][] = [[1, 1], [2, 2]];
  for (let hi = 4; hi / 2 < machineSize; hi *= 2) bins.push([hi / 2 + 1, Math.min(hi, machineSize)]);
  const counts = new Array<number>(bins.length).fill(0);
  for (const j of jobs) {
    const k = bins.findIndex(([lo, hi]) => j.procs >= lo && j.procs <= hi);
    if (k >= 0) counts[k]++;
  }
  return bins.map(([low, high], k) => ({ sizes: low === high ? `${low}` : `${low}-${high}`, low, high, share: counts[k] / jobs.length }));
}
