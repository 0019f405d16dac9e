/**
 * Heuristics for VCSched (paper sections 3.2-3.4): RRND, RRNZ (randomized
 * rounding of the LP relaxation), GR, SG (greedy), GB, SGB (greedy with bounded
 * backtracking) and MCB1..MCB8 (vector packing + yield binary search, shared
 * packing module). Every heuristic only decides a placement; the CPU fractions
 * then come from the common two-phase step: best minimum yield for the
 * placement, followed by the average-yield improvement of section 3.5.
 */
import { Rng, Seed, createRng } from '../../util/random';
import { McbVariant, maximizeMinYield } from '../packing';
import { VcAllocation, VcInstance, instanceTasks, checkInstance, evaluateAllocation, FEASIBILITY_TOLERANCE, VcTask } from './model';
import { improveAverageYield, placementYield, solverFailureKind } from './improve';
import { InputError, SolverError } from '../../util/errors';
import { InvariantError, invariantChecksEnabled } from '../../util/invariants';
import { verifyVcAllocation } from './invariants';
import { LpRelaxationResult, solveVcschedLp } from './milp';
import { LpEngine } from './lpsolver';

/** Names of the VCSched heuristics (rounding, greedy and MCB variants). */
export const VCSCHED_HEURISTICS = [
  'RRND',
  'RRNZ',
  'GR',
  'SG',
  'GB',
  'SGB',
  'MCB1',
  'MCB2',
  'MCB3',
  'MCB4',
  'MCB5',
  'MCB6',
  'MCB7',
  'MCB8',
] as const;
/** One VCSched heuristic name. */
export type VcHeuristic = (typeof VCSCHED_HEURISTICS)[number];

/** Options of the VCSched heuristics: seed, backtracking budget, tolerances, LP engine and settings, improvement pass. */
export interface HeuristicOptions {
  /** Seed for RRND/RRNZ (default 1). */
  seed?: Seed;
  /** Placement-attempt budget of GB/SGB (default 500,000, as in the paper). */
  backtrackBudget?: number;
  /** Probability given by RRNZ to hosts with zero LP fraction (default 0.01; the paper's value is lost from its text). */
  rrnzEpsilon?: number;
  /**
   * Random draws of RRNZ: 'per-heuristic' (default: a stream of its own) or
   * 'shared' (RRND's stream, so that where RRND's draws fit RRNZ makes nearly
   * the same choices, as the paper expects of it).
   */
  roundingStream?: 'per-heuristic' | 'shared';
  /** Binary-search tolerance of MCB (default 0.01). */
  tolerance?: number;
  /** Pre-computed LP relaxation for RRND/RRNZ (otherwise solved here, time included). */
  lp?: LpRelaxationResult;
  /**
   * RRND/RRNZ solve the LP only up to this many (tasks x hosts) pairs; above
   * it they are skipped. Default 400 with javascript-lp-solver (its dense
   * simplex cannot handle the 64-host LPs in reasonable time), none with HiGHS.
   */
  lpMaxPairs?: number;
  /** Engine of the RRND/RRNZ relaxation and, in experiments, of the MILP (default 'javascript-lp-solver'). */
  lpEngine?: LpEngine;
  /** Average-yield improvement method (default 'greedy'). */
  improve?: 'greedy' | 'lp' | 'none';
}

/** A heuristic's placement and minimum yield, or why it found none. */
export interface HeuristicResult {
  algorithm: VcHeuristic;
  /** 'ok', 'failed' (no placement found), or 'skipped' (see message). */
  status: 'ok' | 'failed' | 'skipped';
  placement: number[] | null;
  allocation: VcAllocation | null;
  /** Minimum job yield of the final allocation (null when failed). */
  minYield: number | null;
  /** Average job yield after the improvement step (null when failed). */
  avgYield: number | null;
  /** Time spent deciding the placement (incl. LP for RRND/RRNZ), excluding the common improvement step. */
  seconds: number;
  message?: string;
}

// ---------------------------------------------------------------------------
// Greedy family

/** Order in which greedy heuristics consider tasks: input order (GR) or memory descending (SG). */
function greedyOrder(tasks: VcTask[], sorted: boolean): number[] {
  const order = tasks.map((_, i) => i);
  if (sorted) order.sort((a, b) => tasks[b].mem - tasks[a].mem || a - b);
  return order;
}

/**
 * GR / SG: each task goes to the least CPU-loaded host on which its memory fits.
 * Returns null on failure.
 */
export function greedyPlacement(inst: VcInstance, options: { sortByMemory?: boolean } = {}): number[] | null {
  const tasks = instanceTasks(inst);
  const load = new Float64Array(inst.hosts);
  const mem = new Float64Array(inst.hosts);
  const placement = new Array<number>(tasks.length).fill(-1);
  for (const i of greedyOrder(tasks, options.sortByMemory ?? false)) {
    const t = tasks[i];
    // The least-loaded host where the memory fits, ties by index.
    let chosen = -1;
    for (let h = 0; h < inst.hosts; h++) {
      if (mem[h] + t.mem <= 1 + FEASIBILITY_TOLERANCE && (chosen < 0 || load[h] < load[chosen])) chosen = h;
    }
    if (chosen < 0) return null;
    placement[i] = chosen;
    load[chosen] += t.cpuNeed;
    mem[chosen] += t.mem;
  }
  return placement;
}

/**
 * GB / SGB: depth-first search in greedy order (least-loaded memory-feasible
 * host first), backtracking when a task fits nowhere. Its first complete
 * placement is the greedy one whenever greedy succeeds. One placement attempt =
 * putting one task on one host; the search stops (failure) after `budget`
 * attempts. Among hosts that are still empty only the first is tried: empty
 * hosts are interchangeable, so the others would repeat the same subtree (this
 * saves budget without changing what can be found).
 */
export function backtrackingPlacement(
  inst: VcInstance,
  options: { sortByMemory?: boolean; budget?: number } = {},
): { placement: number[] | null; attempts: number } {
  const budget = options.budget ?? 500_000;
  const tasks = instanceTasks(inst);
  const order = greedyOrder(tasks, options.sortByMemory ?? false);
  const n = tasks.length;
  const H = inst.hosts;
  const load = new Float64Array(H);
  const mem = new Float64Array(H);
  const count = new Int32Array(H);
  const placement = new Array<number>(n).fill(-1);
  let attempts = 0;
  // Hosts by non-decreasing load, ties by index (GR's order of preference), kept
  // up to date as loads change instead of sorted again at every node: a failing
  // search visits its 500,000 nodes 5x faster on 64 hosts.
  const byLoad = Int32Array.from({ length: H }, (_, h) => h);
  const rank = Int32Array.from({ length: H }, (_, h) => h);
  const before = (x: number, y: number) => load[x] < load[y] || (load[x] === load[y] && x < y);
  const changeLoad = (h: number, delta: number) => {
    load[h] += delta;
    let p = rank[h];
    while (p + 1 < H && before(byLoad[p + 1], h)) {
      byLoad[p] = byLoad[p + 1];
      rank[byLoad[p]] = p;
      p++;
    }
    while (p > 0 && before(h, byLoad[p - 1])) {
      byLoad[p] = byLoad[p - 1];
      rank[byLoad[p]] = p;
      p--;
    }
    byLoad[p] = h;
    rank[h] = p;
  };

  // Explicit stack of candidate lists (no recursion: large instances are deep),
  // task k's in cand[k * H ..], candLen[k] of them.
  const cand = new Int32Array(n * H);
  const candLen = new Int32Array(n);
  const cursor = new Int32Array(n);
  const candidatesFor = (k: number): void => {
    const t = tasks[order[k]];
    let len = 0;
    let emptySeen = false;
    for (let p = 0; p < H; p++) {
      const h = byLoad[p];
      if (mem[h] + t.mem > 1 + FEASIBILITY_TOLERANCE) continue;
      if (count[h] === 0) {
        if (emptySeen) continue;
        emptySeen = true;
      }
      cand[k * H + len++] = h;
    }
    candLen[k] = len;
  };
  let k = 0;
  if (n === 0) return { placement: [], attempts };
  candidatesFor(0);
  cursor[0] = 0;
  while (k >= 0) {
    if (cursor[k] >= candLen[k]) {
      // Exhausted: undo the previous task's placement and try its next host.
      k--;
      if (k < 0) break;
      const i = order[k];
      const h = placement[i];
      changeLoad(h, -tasks[i].cpuNeed);
      mem[h] -= tasks[i].mem;
      count[h]--;
      placement[i] = -1;
      cursor[k]++;
      continue;
    }
    if (attempts >= budget) return { placement: null, attempts };
    attempts++;
    const i = order[k];
    const h = cand[k * H + cursor[k]];
    placement[i] = h;
    changeLoad(h, tasks[i].cpuNeed);
    mem[h] += tasks[i].mem;
    count[h]++;
    if (k === n - 1) return { placement, attempts };
    k++;
    candidatesFor(k);
    cursor[k] = 0;
  }
  return { placement: null, attempts };
}

// ---------------------------------------------------------------------------
// Randomized rounding

/**
 * RRND / RRNZ: each task (in input order) goes to a host drawn with
 * probability proportional to its LP fraction e[t,h]; a host where the task's
 * memory does not fit gets probability 0 and the draw is repeated; failure when
 * no host is left. RRNZ first replaces zero fractions by `epsilon`.
 */
export function randomizedRoundingPlacement(
  inst: VcInstance,
  fractions: number[][],
  rng: Rng,
  options: { epsilon?: number } = {},
): number[] | null {
  const tasks = instanceTasks(inst);
  const mem = new Float64Array(inst.hosts);
  const placement = new Array<number>(tasks.length).fill(-1);
  const eps = options.epsilon ?? 0;
  for (let i = 0; i < tasks.length; i++) {
    const p = fractions[i].map((x) => (x > 1e-9 ? x : eps));
    for (;;) {
      let total = 0;
      for (const x of p) total += x;
      if (!(total > 0)) return null;
      let u = rng.next() * total;
      let h = -1;
      let lastPositive = -1;
      for (let g = 0; g < p.length; g++) {
        if (p[g] <= 0) continue;
        lastPositive = g;
        if (u < p[g]) {
          h = g;
          break;
        }
        u -= p[g];
      }
      if (h < 0) h = lastPositive; // float round-off at the end of the range
      if (mem[h] + tasks[i].mem <= 1 + FEASIBILITY_TOLERANCE) {
        placement[i] = h;
        mem[h] += tasks[i].mem;
        break;
      }
      p[h] = 0;
    }
  }
  return placement;
}

// ---------------------------------------------------------------------------
// Driver

function now(): bigint {
  return process.hrtime.bigint();
}
function since(t0: bigint): number {
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

/** Run one heuristic on an instance, then the common yield phases; the result is checked for feasibility. */
export function runVcschedHeuristic(inst: VcInstance, algorithm: VcHeuristic, options: HeuristicOptions = {}): HeuristicResult {
  if (!(VCSCHED_HEURISTICS as readonly string[]).includes(algorithm)) {
    throw new InputError(`runVcschedHeuristic: unknown algorithm '${algorithm}' (expected one of ${VCSCHED_HEURISTICS.join(', ')})`, { source: 'runVcschedHeuristic', field: 'algorithm' });
  }
  checkInstance(inst);
  const t0 = now();
  let placement: number[] | null = null;
  let message: string | undefined;
  if (algorithm === 'GR' || algorithm === 'SG') {
    placement = greedyPlacement(inst, { sortByMemory: algorithm === 'SG' });
  } else if (algorithm === 'GB' || algorithm === 'SGB') {
    const r = backtrackingPlacement(inst, { sortByMemory: algorithm === 'SGB', budget: options.backtrackBudget });
    placement = r.placement;
    if (!placement) message = `no placement within ${r.attempts} placement attempts`;
  } else if (algorithm === 'RRND' || algorithm === 'RRNZ') {
    let lp = options.lp;
    const pairs = instanceTasks(inst).length * inst.hosts;
    if (!lp && pairs > (options.lpMaxPairs ?? (options.lpEngine === 'highs' ? Infinity : 400))) {
      return {
        algorithm,
        status: 'skipped',
        placement: null,
        allocation: null,
        minYield: null,
        avgYield: null,
        seconds: 0,
        message: `LP relaxation with ${pairs} task-host pairs exceeds lpMaxPairs; not solved`,
      };
    }
    lp = lp ?? solveVcschedLp(inst, { engine: options.lpEngine });
    // A relaxation the solver got wrong must not turn into a silent "failed" row.
    if (lp.status !== undefined && lp.status !== 'optimal' && lp.status !== 'infeasible') {
      throw new SolverError(`${algorithm} (LP relaxation)`, solverFailureKind(lp.status), lp.message ?? lp.status);
    }
    if (lp.fractions) {
      const rng = createRng(options.seed ?? 1).fork(options.roundingStream === 'shared' ? 'RRND' : algorithm);
      placement = randomizedRoundingPlacement(inst, lp.fractions, rng, { epsilon: algorithm === 'RRNZ' ? options.rrnzEpsilon ?? 0.01 : 0 });
    } else message = 'LP relaxation infeasible';
  } else if (algorithm.startsWith('MCB')) {
    const variant = Number(algorithm.slice(3)) as McbVariant;
    const r = maximizeMinYield(instanceTasks(inst), inst.hosts, { variant, tolerance: options.tolerance });
    placement = r ? r.placement : null;
  } else {
    throw new InputError(`runVcschedHeuristic: unknown algorithm '${algorithm}' (expected one of ${VCSCHED_HEURISTICS.join(', ')})`, { source: 'runVcschedHeuristic', field: 'algorithm' });
  }
  const seconds = since(t0);
  if (!placement) return { algorithm, status: 'failed', placement: null, allocation: null, minYield: null, avgYield: null, seconds, message };
  return { algorithm, ...finishPlacement(inst, placement, options.improve ?? 'greedy'), seconds };
}

/**
 * Common second part of every algorithm: yields for a placement. 'none' keeps
 * every job at the placement's best minimum yield.
 */
export function finishPlacement(
  inst: VcInstance,
  placement: number[],
  improve: 'greedy' | 'lp' | 'none' = 'greedy',
): { status: 'ok'; placement: number[]; allocation: VcAllocation; minYield: number; avgYield: number } {
  const y = placementYield(inst, placement);
  const allocation =
    improve === 'none'
      ? { host: placement.slice(), cpu: instanceTasks(inst).map((t) => y * t.cpuNeed) }
      : improveAverageYield(inst, placement, { minYield: y, method: improve });
  const ev = evaluateAllocation(inst, allocation);
  // With checks on, name the broken constraint (and check the yield against the relaxation bound).
  if (invariantChecksEnabled()) verifyVcAllocation(inst, allocation, { minYield: ev.minYield });
  if (!ev.feasible) throw new InvariantError('vcsched/feasible', `infeasible allocation (${ev.violations.slice(0, 3).join('; ')})`);
  return { status: 'ok', placement, allocation, minYield: ev.minYield, avgYield: ev.avgYield };
}
