/**
 * Workload preparation for the two-tier experiments (MEASY paper, Section 3.1).
 */
import { Rng, Seed } from '../../util/random';
import { WorkloadJob } from '../../workloads/job';
import { TwoTierJob } from './simulator';

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
  if (mode !== 'paper' && mode !== 'full') throw new RangeError(`assignCpuUsage: mode must be 'paper' or 'full', got '${mode}'`);
  const [lo, hi] = options.range ?? [0.4, 1.0];
  if (!(lo > 0 && lo <= hi && hi <= 1)) throw new RangeError(`assignCpuUsage: range must satisfy 0 < low <= high <= 1, got [${lo}, ${hi}]`);
  const rng = new Rng(options.seed ?? 1);
  return jobs.map((j) => {
    const use = new Float64Array(j.procs);
    if (mode === 'full' || j.procs === 1) use.fill(1);
    else for (let k = 0; k < j.procs; k++) use[k] = rng.uniform(lo, hi);
    return { ...j, cpuUsage: use };
  });
}
