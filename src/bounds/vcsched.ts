/**
 * Closed-form optimum of the rational relaxation of the VCSched MILP
 * (Stillwell et al., "Resource Allocation using Virtual Clusters", section 3.1),
 * an upper bound on the minimum yield any allocation can reach.
 *
 * If the total memory requirement fits in the total memory (sum of m over all
 * tasks <= hosts), the relaxation is feasible and its optimum is
 *   Y* = min(1, hosts / sum of CPU needs over all tasks),
 * reached by spreading every task evenly: e[t,h] = 1/hosts, a[t,h] = c_t x Y* / hosts.
 * Otherwise the relaxation (and the problem) is infeasible. The same holds for
 * parallel jobs: spreading keeps the tasks of a job at equal fractions.
 */
import type { VcInstance } from '../schedulers/vcsched/model';

function totals(inst: VcInstance) {
  let need = 0;
  let mem = 0;
  for (const j of inst.jobs) {
    const n = j.tasks ?? 1;
    need += n * j.cpuNeed;
    mem += n * j.mem;
  }
  return { need, mem };
}

/** Optimal minimum yield of the LP relaxation, or null when total memory exceeds the platform's. */
export function vcschedRelaxedMinYield(inst: VcInstance): number | null {
  const { need, mem } = totals(inst);
  if (mem > inst.hosts + 1e-9) return null;
  return need <= inst.hosts ? 1 : inst.hosts / need;
}

/**
 * Average job yield of the relaxation's second phase: keep every job at least
 * at the relaxed minimum yield Y*, then spend the remaining pooled CPU
 * (hosts - Y* x total need) on jobs in increasing order of total need
 * (tasks x need), a fractional knapsack, which is optimal for the pooled LP.
 * This is the "rational LP" average-yield curve; it is NOT an upper bound on
 * the average yield of heuristics that settle for a lower minimum yield.
 */
export function vcschedRelaxedAverageYield(inst: VcInstance): number | null {
  const y0 = vcschedRelaxedMinYield(inst);
  if (y0 === null) return null;
  if (inst.jobs.length === 0) return 1;
  const { need } = totals(inst);
  let spare = Math.max(0, inst.hosts - y0 * need);
  const costs = inst.jobs.map((j) => (j.tasks ?? 1) * j.cpuNeed).sort((x, y) => x - y);
  let sum = 0;
  for (const c of costs) {
    if (c <= 0) {
      sum += 1;
      continue;
    }
    const inc = Math.min(1 - y0, spare / c);
    spare -= inc * c;
    sum += y0 + inc;
  }
  return sum / inst.jobs.length;
}
