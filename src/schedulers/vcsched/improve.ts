/**
 * From a placement (host per task) to CPU fractions: first the maximum minimum
 * yield for that placement, then the average-yield improvement of section 3.5
 * (tasks are not moved, only CPU fractions grow).
 */
import { VcAllocation, VcInstance, instanceTasks } from './model';
import { runLp, lpValue, LpStatus } from './lpsolver';
import { SolverError, SolverFailure } from '../../util/errors';

/** The SolverError kind of a non-optimal LP status (infeasible where feasibility is guaranteed: 'inconsistent'). */
export function solverFailureKind(status: Exclude<LpStatus, 'optimal'>): SolverFailure {
  return status === 'infeasible' ? 'inconsistent' : status;
}

/** Sum of CPU needs per host. */
export function hostLoads(inst: VcInstance, placement: ArrayLike<number>): number[] {
  const load = new Array<number>(inst.hosts).fill(0);
  instanceTasks(inst).forEach((t, i) => (load[placement[i]] += t.cpuNeed));
  return load;
}

/** Best minimum yield of a placement: every job at yield min(1, 1 / max load). */
export function placementYield(inst: VcInstance, placement: ArrayLike<number>): number {
  const maxLoad = Math.max(0, ...hostLoads(inst, placement));
  return maxLoad <= 1 ? 1 : 1 / maxLoad;
}

/** Allocation giving every task exactly yield y (alpha = y * need). */
export function uniformYieldAllocation(inst: VcInstance, placement: ArrayLike<number>, y: number): VcAllocation {
  const tasks = instanceTasks(inst);
  return { host: Array.from(placement), cpu: tasks.map((t) => y * t.cpuNeed) };
}

/** Options of the yield-improvement pass applied after a placement: the yield to reach and the method. */
export interface ImproveOptions {
  /** Yield floor every job keeps (default: the placement's best minimum yield). */
  minYield?: number;
  /**
   * 'greedy' (default): raise jobs in increasing order of total CPU need
   * (tasks x need), each as far as its hosts' spare CPU allows. For sequential
   * jobs this is the paper's optimal per-host greedy (smallest need first).
   * For parallel jobs spread over several hosts it is a heuristic: the exact
   * per-job optimum is the LP of section 5.1 with fixed placement, available as 'lp'.
   */
  method?: 'greedy' | 'lp';
}

/**
 * Per-job yields maximising the average job yield for a fixed placement, with
 * every job at least `minYield` and at most 1. Returns the yield of each job.
 */
export function improvedJobYields(inst: VcInstance, placement: ArrayLike<number>, options: ImproveOptions = {}): number[] {
  const floor = options.minYield ?? placementYield(inst, placement);
  const nJobs = inst.jobs.length;
  // tasksOn[j] = list of [host, number of tasks of j on host].
  const perJobHosts: Map<number, number>[] = inst.jobs.map(() => new Map());
  instanceTasks(inst).forEach((t, i) => {
    const m = perJobHosts[t.job];
    m.set(placement[i], (m.get(placement[i]) ?? 0) + 1);
  });
  const residual = new Array<number>(inst.hosts).fill(1);
  const load = hostLoads(inst, placement);
  for (let h = 0; h < inst.hosts; h++) residual[h] = Math.max(0, 1 - floor * load[h]);
  const yields = new Array<number>(nJobs).fill(floor);

  if ((options.method ?? 'greedy') === 'lp') {
    if (floor >= 1) return inst.jobs.map(() => 1);
    const constraints: Record<string, { max?: number; min?: number }> = {};
    const variables: Record<string, Record<string, number>> = {};
    for (let h = 0; h < inst.hosts; h++) constraints[`h${h}`] = { max: residual[h] };
    inst.jobs.forEach((j, k) => {
      if (j.cpuNeed <= 0) return; // always at yield 1
      constraints[`u${k}`] = { max: 1 - floor };
      const v: Record<string, number> = { avg: 1, [`u${k}`]: 1 };
      for (const [h, n] of perJobHosts[k]) v[`h${h}`] = n * j.cpuNeed;
      variables[`d${k}`] = v; // d_k = y_k - floor >= 0
    });
    const run = runLp({ optimize: 'avg', opType: 'max', constraints, variables });
    // Every job at the floor is feasible by construction: anything but an optimum is a solver fault.
    if (run.status !== 'optimal') {
      throw new SolverError('improvedJobYields (average-yield LP)', solverFailureKind(run.status), run.message ?? `solver reported ${run.status}`);
    }
    return inst.jobs.map((j, k) => (j.cpuNeed > 0 ? Math.min(1, floor + Math.max(0, lpValue(run, `d${k}`))) : 1));
  }

  const order = inst.jobs.map((_, k) => k);
  const cost = inst.jobs.map((j) => j.cpuNeed * (j.tasks ?? 1));
  order.sort((a, b) => cost[a] - cost[b] || a - b);
  for (const k of order) {
    const c = inst.jobs[k].cpuNeed;
    if (c <= 0) {
      yields[k] = 1;
      continue;
    }
    let inc = 1 - floor;
    for (const [h, n] of perJobHosts[k]) inc = Math.min(inc, residual[h] / (n * c));
    if (inc <= 0) continue;
    yields[k] = floor + inc;
    for (const [h, n] of perJobHosts[k]) residual[h] = Math.max(0, residual[h] - inc * n * c);
  }
  return yields;
}

/** Allocation after the average-yield improvement (CPU fraction = job yield x need). */
export function improveAverageYield(inst: VcInstance, placement: ArrayLike<number>, options: ImproveOptions = {}): VcAllocation {
  const y = improvedJobYields(inst, placement, options);
  return { host: Array.from(placement), cpu: instanceTasks(inst).map((t) => y[t.job] * t.cpuNeed) };
}
