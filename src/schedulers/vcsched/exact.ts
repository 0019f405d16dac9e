/**
 * Exact combinatorial branch-and-bound for VCSched, independent of any LP
 * solver, used to cross-check the MILP on small instances.
 *
 * For a fixed placement the best minimum yield is min(1, 1 / max host CPU
 * load) (every task at yield Y needs Y x need on its host), so the problem is:
 * place tasks so that memory fits and the maximum CPU load, floored at 1, is
 * minimal. Depth-first search over tasks in decreasing size, trying hosts in
 * order and skipping hosts identical (same load and memory) to one already
 * tried; prune when the load floor cannot beat the incumbent.
 */
import { VcInstance, instanceTasks, FEASIBILITY_TOLERANCE, checkInstance } from './model';
import { invariantChecksEnabled } from '../../util/invariants';
import { verifyVcAllocation } from './invariants';
import { placementYield, uniformYieldAllocation } from './improve';

/** Optimal minimum yield of a small VCSched instance and the placement that achieves it. */
export interface ExactResult {
  /** optimal / infeasible are proofs; 'limit' means the node budget ran out. */
  status: 'optimal' | 'infeasible' | 'limit';
  minYield: number | null;
  placement: number[] | null;
  nodes: number;
}

/** Solve a small VCSched instance exactly by branch and bound (nodeLimit caps the search). */
export function solveVcschedExact(inst: VcInstance, options: { nodeLimit?: number } = {}): ExactResult {
  checkInstance(inst, 'solveVcschedExact');
  const nodeLimit = options.nodeLimit ?? 5_000_000;
  const tasks = instanceTasks(inst);
  const n = tasks.length;
  const H = inst.hosts;
  const order = tasks.map((_, i) => i).sort((x, y) => tasks[y].cpuNeed + tasks[y].mem - (tasks[x].cpuNeed + tasks[x].mem) || x - y);
  let totalNeed = 0;
  for (const t of tasks) totalNeed += t.cpuNeed;
  const lowerBound = Math.max(1, totalNeed / H);
  const load = new Float64Array(H);
  const mem = new Float64Array(H);
  const cur = new Int32Array(n);
  let best = Infinity;
  let bestPlacement: number[] | null = null;
  let nodes = 0;
  let stopped = false;

  const dfs = (k: number, curMax: number): void => {
    if (stopped) return;
    if (k === n) {
      if (curMax < best - 1e-12) {
        best = curMax;
        bestPlacement = Array.from(cur);
      }
      return;
    }
    const i = order[k];
    const t = tasks[i];
    for (let h = 0; h < H; h++) {
      let dup = false;
      for (let g = 0; g < h; g++) if (load[g] === load[h] && mem[g] === mem[h]) dup = true;
      if (dup) continue;
      if (mem[h] + t.mem > 1 + FEASIBILITY_TOLERANCE) continue;
      const newMax = Math.max(curMax, load[h] + t.cpuNeed);
      if (newMax >= best - 1e-12) continue;
      if (++nodes > nodeLimit) {
        stopped = true;
        return;
      }
      load[h] += t.cpuNeed;
      mem[h] += t.mem;
      cur[i] = h;
      dfs(k + 1, newMax);
      load[h] -= t.cpuNeed;
      mem[h] -= t.mem;
      if (stopped || best <= lowerBound + 1e-12) return;
    }
  };
  // Loads below 1 all give yield 1: start the max at 1 so such placements tie.
  dfs(0, 1);
  if (bestPlacement === null) return { status: stopped ? 'limit' : 'infeasible', minYield: null, placement: null, nodes };
  if (invariantChecksEnabled()) {
    const found: number[] = bestPlacement;
    verifyVcAllocation(inst, uniformYieldAllocation(inst, found, placementYield(inst, found)), { minYield: 1 / best, algorithm: 'EXACT' });
  }
  return { status: stopped ? 'limit' : 'optimal', minYield: 1 / best, placement: bestPlacement, nodes };
}
