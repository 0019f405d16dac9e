/**
 * CPU allocation once tasks are mapped to nodes (DFRS paper, sections 4.6 and 4.7).
 *
 * All tasks of a job get the same CPU fraction, so an allocation is one yield
 * per job: a task of job j on node i uses yield_j × need_j of node i's CPU.
 * Every function here returns yields with, on every node,
 * Σ yield × need ≤ 1 and, for every job, yield ≤ its cap (1 by default).
 */
import { ColumnLpBuilder, ColumnLpModel, lpEngineLoaded, lpSolverReplacedForTesting, lpValue, runLp } from '../vcsched/lpsolver';
import { PackingLp, packingLpViolation, solvePackingLp } from './avg-lp';
import { solverFailureKind } from '../vcsched/improve';
import { InputError, SolverError } from '../../util/errors';
import type { DfrsAlgorithm } from './names';
import { grownFloat, grownInt } from '../../util/arrays';

/** A job whose tasks are placed: its CPU need per task and the node of each task. */
export interface MappedJob {
  /** CPU need of one task (fraction of a node). */
  need: number;
  /** Node index of every task (length = number of tasks). */
  nodes: ArrayLike<number>;
  /** Highest yield the job can use (default 1; lower when a multi-core cap applies). */
  maxYield?: number;
}

const EPS = 1e-12;
/** Residual node capacity below which a node counts as full in the opt=avg LP. */
const FULL_NODE = 1e-6;

/**
 * Working arrays of the opt=min loop, reused from call to call (maxMinYields
 * calls no user code, so it is never re-entered); grown on demand.
 */
const scratch = {
  start: new Int32Array(0),
  lastJob: new Int32Array(0),
  fill: new Int32Array(0),
  job: new Int32Array(0),
  coef: new Float64Array(0),
  residual: new Float64Array(0),
  demand: new Float64Array(0),
  dirty: new Uint8Array(0),
  live: new Int32Array(0),
  cap: new Float64Array(0),
  active: new Uint8Array(0),
  activeJobs: new Int32Array(0),
};

function growScratch(nodeCount: number, jobCount: number): void {
  if (scratch.start.length < nodeCount + 1) {
    const size = Math.max(nodeCount + 1, 2 * scratch.start.length);
    scratch.start = new Int32Array(size);
    scratch.lastJob = new Int32Array(size);
    scratch.fill = new Int32Array(size);
    scratch.residual = new Float64Array(size);
    scratch.demand = new Float64Array(size);
    scratch.dirty = new Uint8Array(size);
    scratch.live = new Int32Array(size);
  }
  if (scratch.cap.length < jobCount) {
    const size = Math.max(jobCount, 2 * scratch.cap.length);
    scratch.cap = new Float64Array(size);
    scratch.active = new Uint8Array(size);
    scratch.activeJobs = new Int32Array(size);
  }
}

/**
 * Per node, the jobs with a task there and the sum of their tasks' needs
 * there, as flat arrays (entries of node i at start[i] .. start[i + 1] - 1,
 * by job index). The arrays are the shared scratch ones (call growScratch
 * first): valid until the next call.
 */
function nodeCoefficientArrays(jobs: readonly MappedJob[], nodeCount: number): { start: Int32Array; job: Int32Array; coef: Float64Array } {
  const { start, lastJob, fill } = scratch;
  start.fill(0, 0, nodeCount + 1);
  lastJob.fill(-1, 0, nodeCount);
  for (let idx = 0; idx < jobs.length; idx++) {
    const nodes = jobs[idx].nodes;
    for (let k = 0; k < nodes.length; k++) {
      const n = nodes[k];
      if (!(n >= 0 && n < nodeCount)) throw new InputError(`DFRS allocation: job #${idx}: task ${k} is on node ${n}, outside 0..${nodeCount - 1}`, { source: 'DFRS allocation', field: `jobs[${idx}].nodes[${k}]` });
      if (lastJob[n] !== idx) {
        lastJob[n] = idx;
        start[n + 1]++;
      }
    }
  }
  for (let i = 0; i < nodeCount; i++) start[i + 1] += start[i];
  const entries = start[nodeCount];
  if (scratch.job.length < entries) {
    const size = Math.max(entries, 2 * scratch.job.length);
    scratch.job = new Int32Array(size);
    scratch.coef = new Float64Array(size);
  }
  const { job, coef } = scratch;
  fill.set(start.subarray(0, nodeCount));
  lastJob.fill(-1, 0, nodeCount);
  for (let idx = 0; idx < jobs.length; idx++) {
    const { nodes, need } = jobs[idx];
    for (let k = 0; k < nodes.length; k++) {
      const n = nodes[k];
      if (lastJob[n] !== idx) {
        lastJob[n] = idx;
        job[fill[n]] = idx;
        coef[fill[n]++] = need;
      } else coef[fill[n] - 1] += need;
    }
  }
  return { start, job, coef };
}

/** Maximum CPU load Λ over nodes: the sum of the CPU needs of the tasks on a node. */
export function maxNodeLoad(jobs: readonly MappedJob[], nodeCount: number): number {
  const load = new Float64Array(nodeCount);
  for (const j of jobs) for (let k = 0; k < j.nodes.length; k++) load[j.nodes[k]] += j.need;
  let max = 0;
  for (let i = 0; i < nodeCount; i++) if (load[i] > max) max = load[i];
  return max;
}

/** The common yield 1 / max(1, Λ) that maximizes the minimum yield for a fixed mapping. */
export function uniformYield(jobs: readonly MappedJob[], nodeCount: number): number {
  return 1 / Math.max(1, maxNodeLoad(jobs, nodeCount));
}

/**
 * opt=min: iterative max-min ("water-filling", as for network flows): raise all
 * unfrozen yields together until a node saturates or a job reaches its cap,
 * freeze the jobs on saturated nodes and the capped jobs, repeat.
 * The first step gives every job 1 / max(1, Λ).
 */
export function maxMinYields(jobs: readonly MappedJob[], nodeCount: number): Float64Array {
  const n = jobs.length;
  const y = new Float64Array(n);
  if (n === 0) return y;
  growScratch(nodeCount, n);
  const { start, job: entryJob, coef } = nodeCoefficientArrays(jobs, nodeCount);
  const { cap, residual, active, activeJobs, demand, dirty, live } = scratch;
  residual.fill(1, 0, nodeCount);
  active.fill(0, 0, n);
  // The unfrozen jobs, and the nodes that still carry one ("live": demand > 0).
  // A node with no unfrozen job neither limits the increment nor changes (its
  // residual would drop by 0 × delta), and never has one again, so each round
  // only goes through the unfrozen jobs and the live nodes.
  let activeCount = 0;
  for (let j = 0; j < n; j++) {
    cap[j] = jobs[j].maxYield ?? 1;
    if (jobs[j].need <= 0 || jobs[j].nodes.length === 0) y[j] = cap[j]; // uses no CPU: nothing limits it
    else {
      active[j] = 1;
      activeJobs[activeCount++] = j;
    }
  }
  // A node's demand only changes when one of its jobs is frozen: recompute those.
  dirty.fill(1, 0, nodeCount);
  let liveCount = nodeCount;
  for (let i = 0; i < nodeCount; i++) live[i] = i;
  // Every unfrozen job has the same yield, `level` (all start at 0 and are
  // raised together): it is written to y when the job is frozen.
  let level = 0;
  let minCap = Infinity;
  for (let k = 0; k < activeCount; k++) if (cap[activeJobs[k]] < minCap) minCap = cap[activeJobs[k]];
  while (activeCount > 0) {
    // Largest common increment allowed by every node and every job cap.
    let delta = Infinity;
    let stillLive = 0;
    for (let l = 0; l < liveCount; l++) {
      const i = live[l];
      if (dirty[i]) {
        let a = 0;
        for (let e = start[i]; e < start[i + 1]; e++) if (active[entryJob[e]]) a += coef[e];
        demand[i] = a;
        dirty[i] = 0;
      }
      const a = demand[i];
      if (a > 0) {
        delta = Math.min(delta, Math.max(0, residual[i]) / a);
        live[stillLive++] = i;
      }
    }
    liveCount = stillLive;
    delta = Math.min(delta, minCap - level);
    if (!Number.isFinite(delta)) break;
    level += delta;
    for (let l = 0; l < liveCount; l++) {
      const i = live[l];
      residual[i] -= demand[i] * delta;
    }
    // Freeze jobs at their cap and jobs touching a saturated node.
    let frozen = 0;
    const freeze = (j: number, value: number) => {
      y[j] = value;
      active[j] = 0;
      frozen++;
      const nodes = jobs[j].nodes;
      for (let k = 0; k < nodes.length; k++) dirty[nodes[k]] = 1;
    };
    if (level >= minCap - 1e-12) {
      for (let k = 0; k < activeCount; k++) {
        const j = activeJobs[k];
        if (level >= cap[j] - 1e-12) freeze(j, cap[j]);
      }
    }
    for (let l = 0; l < liveCount; l++) {
      const i = live[l];
      if (residual[i] <= 1e-12) {
        for (let e = start[i]; e < start[i + 1]; e++) if (active[entryJob[e]]) freeze(entryJob[e], level);
      }
    }
    if (frozen === 0) break; // cannot happen in exact arithmetic; guards against float stalls
    let stillActive = 0;
    minCap = Infinity;
    for (let k = 0; k < activeCount; k++) {
      const j = activeJobs[k];
      if (active[j]) {
        activeJobs[stillActive++] = j;
        if (cap[j] < minCap) minCap = cap[j];
      }
    }
    activeCount = stillActive;
  }
  // Jobs still unfrozen after a stall keep the common yield.
  for (let k = 0; k < activeCount; k++) y[activeJobs[k]] = level;
  return y;
}

/**
 * Make yields feasible after an LP solve (the solver rounds to 8 decimals):
 * clamp to [lower, cap] and scale down, node by node, the part above `lower`.
 * The node lists are `nodeCoefficientArrays`' (valid until its next call).
 */
function repair(jobs: readonly MappedJob[], nodeCount: number, y: Float64Array, lower: ArrayLike<number>, perNode: { start: Int32Array; job: Int32Array; coef: Float64Array }): Float64Array {
  const { start, job, coef } = perNode;
  for (let j = 0; j < y.length; j++) y[j] = Math.min(jobs[j].maxYield ?? 1, Math.max(lower[j], y[j]));
  for (let i = 0; i < nodeCount; i++) {
    let base = 0;
    let extra = 0;
    for (let e = start[i]; e < start[i + 1]; e++) {
      base += coef[e] * lower[job[e]];
      extra += coef[e] * (y[job[e]] - lower[job[e]]);
    }
    if (base + extra > 1 && extra > 0) {
      const f = Math.max(0, (1 - base) / extra) * (1 - 1e-12);
      for (let e = start[i]; e < start[i + 1]; e++) y[job[e]] = lower[job[e]] + (y[job[e]] - lower[job[e]]) * f;
    }
  }
  return y;
}

const LP_KEYS: Record<string, string[]> = { u: [], n: [], z: [] };
/** The LP's row and column names ('u3', 'n17', 'z3'), one string each per process. */
function lpKey(prefix: 'u' | 'n' | 'z', k: number): string {
  const cache = LP_KEYS[prefix];
  return (cache[k] ??= prefix + k);
}

/**
 * Which solver answers the opt=avg LP. 'tableau' (the default): `solvePackingLp`
 * (avg-lp.ts), javascript-lp-solver's simplex ported to this LP's form, which
 * returns the library's answer bit for bit at a tenth of its cost;
 * 'javascript-lp-solver': the library itself, through `runLp` (kept to compare
 * the two: bench/dfrs-lp.ts, test/reference/avg-lp.test.ts; and taken while a
 * test replaces the engines with setLpSolverForTesting).
 */
export type AvgLpSolver = 'tableau' | 'javascript-lp-solver';
let avgLpSolver: AvgLpSolver = 'tableau';

/** Choose the opt=avg LP's solver for this thread (both give the same answers); returns the previous one. */
export function setAvgLpSolver(solver: AvgLpSolver): AvgLpSolver {
  if (solver !== 'tableau' && solver !== 'javascript-lp-solver') {
    throw new InputError(`setAvgLpSolver: unknown solver '${String(solver)}' (expected tableau or javascript-lp-solver)`, { source: 'setAvgLpSolver', field: 'solver' });
  }
  const previous = avgLpSolver;
  avgLpSolver = solver;
  return previous;
}

/** The weighted LP in packing form (column arrays) and the map back to jobs; reused from call to call, grown on demand. */
const lpScratch = {
  kept: new Uint8Array(0),
  scale: new Float64Array(0),
  /** Column of each kept job; the kept jobs' rows u_j come first, in the same order. */
  column: new Int32Array(0),
  jobOf: new Int32Array(0),
  fill: new Int32Array(0),
  starts: new Int32Array(0),
  cost: new Float64Array(0),
  nodeRow: new Int32Array(0),
  rhs: new Float64Array(0),
  rowOf: new Int32Array(0),
  coef: new Float64Array(0),
};

function growLpScratch(jobCount: number, nodeCount: number, entries: number): void {
  const s = lpScratch;
  if (s.kept.length < jobCount) {
    const size = Math.max(jobCount, 2 * s.kept.length);
    s.kept = new Uint8Array(size);
    s.scale = new Float64Array(size);
    s.column = new Int32Array(size);
    s.jobOf = new Int32Array(size);
    s.fill = new Int32Array(size);
    s.starts = new Int32Array(size + 1);
    s.cost = new Float64Array(size);
  }
  if (s.nodeRow.length < nodeCount) s.nodeRow = new Int32Array(Math.max(nodeCount, 2 * s.nodeRow.length));
  if (s.rhs.length < jobCount + nodeCount) s.rhs = new Float64Array(Math.max(jobCount + nodeCount, 2 * s.rhs.length));
  if (s.rowOf.length < entries) {
    const size = Math.max(entries, 2 * s.rowOf.length);
    s.rowOf = new Int32Array(size);
    s.coef = new Float64Array(size);
  }
}

/**
 * Solve max Σ w_j y_j subject to lower_j ≤ y_j ≤ cap_j and node capacities.
 * The LP is written on z_j = y_j − lower_j ≥ 0.
 *
 * z = 0 is feasible and z_j ≤ cap_j − lower_j bounds the objective, so the
 * only right answer is an optimum: an infeasible or unbounded verdict, a
 * solver exception, or values that break the LP (checked as runLp checks
 * them) throw a SolverError rather than falling back to the lower bounds,
 * which would be a silently worse allocation.
 */
function weightedLp(
  jobs: readonly MappedJob[],
  nodeCount: number,
  lower: Float64Array,
  /** Per job; null: every weight 1. */
  weight: ArrayLike<number> | null,
  /** nodeCoefficientArrays(jobs, nodeCount) when the caller has it (after growScratch). */
  given?: { start: Int32Array; job: Int32Array; coef: Float64Array },
): Float64Array {
  const n = jobs.length;
  const y = new Float64Array(lower);
  if (n === 0) return y;
  growScratch(nodeCount, n);
  const perNode = given ?? nodeCoefficientArrays(jobs, nodeCount);
  const { start, job: entryJob, coef: entryCoef } = perNode;
  growLpScratch(n, nodeCount, n + start[nodeCount]);
  const { kept, scale, column, jobOf, fill, starts, cost, nodeRow, rhs, rowOf, coef } = lpScratch;
  // Variables are scaled to [0, 1] (z_j = room_j · x_j): javascript-lp-solver is
  // markedly more reliable on a well-scaled model.
  for (let j = 0; j < n; j++) {
    const room = (jobs[j].maxYield ?? 1) - lower[j];
    kept[j] = room <= EPS || jobs[j].need <= 0 ? 0 : 1;
    scale[j] = kept[j] ? room : 0;
  }
  // A node whose capacity is (numerically) used up by the lower bounds pins its
  // jobs at their lower bound. Leaving such a node in the LP with a residual of
  // ~1e-8 makes javascript-lp-solver return values that break the constraint.
  const residual = scratch.residual;
  for (let i = 0; i < nodeCount; i++) {
    let base = 0;
    for (let e = start[i]; e < start[i + 1]; e++) base += entryCoef[e] * lower[entryJob[e]];
    residual[i] = Math.max(0, 1 - base);
    if (1 - base <= FULL_NODE) for (let e = start[i]; e < start[i + 1]; e++) kept[entryJob[e]] = 0;
  }
  // Rows u_j by kept job, then n_i by node with a kept job; column z_j has its u_j
  // entry, then its nodes' entries by node. This order is the solver's input (it
  // decides among equal pivots), as when the JSON model was written by hand.
  let cols = 0;
  for (let j = 0; j < n; j++) {
    if (!kept[j]) continue;
    column[j] = cols;
    jobOf[cols] = j;
    fill[cols] = 1;
    rhs[cols] = 1;
    cost[cols] = weight === null ? scale[j] : weight[j] * scale[j];
    cols++;
  }
  if (cols === 0) return y;
  let rows = cols;
  for (let i = 0; i < nodeCount; i++) {
    nodeRow[i] = -1;
    for (let e = start[i]; e < start[i + 1]; e++) {
      if (!kept[entryJob[e]]) continue;
      if (nodeRow[i] < 0) {
        nodeRow[i] = rows;
        rhs[rows++] = residual[i];
      }
      fill[column[entryJob[e]]]++;
    }
  }
  starts[0] = 0;
  for (let c = 0; c < cols; c++) {
    starts[c + 1] = starts[c] + fill[c];
    fill[c] = starts[c] + 1;
    rowOf[starts[c]] = c;
    coef[starts[c]] = 1;
  }
  for (let i = 0; i < nodeCount; i++) {
    if (nodeRow[i] < 0) continue;
    for (let e = start[i]; e < start[i + 1]; e++) {
      const j = entryJob[e];
      if (!kept[j]) continue;
      const k = fill[column[j]]++;
      rowOf[k] = nodeRow[i];
      coef[k] = entryCoef[e] * scale[j];
    }
  }
  const lp: PackingLp = { rows, cols, starts, rowOf, coef, rhs, cost };
  // The names, for messages and for the solvers that read them.
  const names = { row: (r: number) => (r < cols ? lpKey('u', jobOf[r]) : lpKey('n', nodeOfRow(nodeRow, nodeCount, r))), col: (c: number) => lpKey('z', jobOf[c]) };
  let x: ArrayLike<number>;
  let failure: string | undefined;
  // Injected faults (setLpSolverForTesting) replace the engines behind runLp: the LP goes there then.
  if (avgLpSolver === 'tableau' && !lpSolverReplacedForTesting()) {
    const answer = solvePackingLp(lp);
    if (answer.status === 'unbounded') {
      throw new SolverError('DFRS opt=avg LP', solverFailureKind('unbounded'), `${n} jobs on ${nodeCount} nodes: objective ${answer.objective}`);
    }
    x = answer.x;
    failure = packingLpViolation(lp, answer.x, answer.objective, names) ?? undefined;
  } else {
    const run = runLp(columnModel(lp, names));
    if (run.status !== 'optimal' && run.status !== 'failure') {
      throw new SolverError('DFRS opt=avg LP', solverFailureKind(run.status), `${n} jobs on ${nodeCount} nodes: ${run.message ?? `solver reported ${run.status}`}`);
    }
    x = Float64Array.from({ length: cols }, (_, c) => lpValue(run, names.col(c)));
    failure = run.status === 'failure' ? run.message : undefined;
  }
  // When javascript-lp-solver's answer breaks the model (a rare numerical fault,
  // caught by the check), the same LP is solved again with HiGHS if this thread
  // has loaded it.
  if (failure !== undefined) {
    if (!lpEngineLoaded('highs')) {
      throw new SolverError('DFRS opt=avg LP', 'failure', `${n} jobs on ${nodeCount} nodes: ${failure} (await loadLpEngine('highs') to let this LP fall back to HiGHS)`);
    }
    const model = columnModel(lp, names);
    const run = runLp(model, undefined, { engine: 'highs' });
    if (run.status !== 'optimal') {
      throw new SolverError('DFRS opt=avg LP', solverFailureKind(run.status), `${n} jobs on ${nodeCount} nodes: javascript-lp-solver: ${failure}; HiGHS: ${run.message ?? run.status}`);
    }
    x = Float64Array.from({ length: cols }, (_, c) => lpValue(run, names.col(c)));
  }
  for (let c = 0; c < cols; c++) y[jobOf[c]] = lower[jobOf[c]] + scale[jobOf[c]] * x[c];
  return repair(jobs, nodeCount, y, lower, perNode);
}

/** The node whose row is r (messages only: a scan). */
function nodeOfRow(nodeRow: Int32Array, nodeCount: number, r: number): number {
  for (let i = 0; i < nodeCount; i++) if (nodeRow[i] === r) return i;
  return -1;
}

/** The packing LP as a named column model, for runLp (javascript-lp-solver, or HiGHS when an answer fails its check). */
function columnModel(lp: PackingLp, names: { row(r: number): string; col(c: number): string }): ColumnLpModel {
  const builder = new ColumnLpBuilder('max', 'obj');
  for (let r = 0; r < lp.rows; r++) builder.row(names.row(r), { max: lp.rhs[r] });
  for (let c = 0; c < lp.cols; c++) {
    for (let k = lp.starts[c]; k < lp.starts[c + 1]; k++) builder.entry(lp.rowOf[k], lp.coef[k]);
    builder.column(names.col(c), lp.cost[c]);
  }
  return builder.build();
}

/**
 * opt=avg: the paper's linear program (2): maximize Σ y_j subject to
 * 1/max(1,Λ) ≤ y_j ≤ 1 and, on every node, Σ y_j × need_j ≤ 1.
 */
export function maxAvgYields(jobs: readonly MappedJob[], nodeCount: number): Float64Array {
  const n = jobs.length;
  if (n === 0) return new Float64Array(0);
  growScratch(nodeCount, n);
  const perNode = nodeCoefficientArrays(jobs, nodeCount);
  // Λ from the per-node entries: the same additions in the same order as maxNodeLoad (0 + x is x).
  const { start, coef } = perNode;
  let maxLoad = 0;
  for (let i = 0; i < nodeCount; i++) {
    let load = 0;
    for (let e = start[i]; e < start[i + 1]; e++) load += coef[e];
    if (load > maxLoad) maxLoad = load;
  }
  const base = 1 / Math.max(1, maxLoad);
  const lower = new Float64Array(n);
  for (let j = 0; j < n; j++) lower[j] = Math.min(base, jobs[j].maxYield ?? 1);
  return weightedLp(jobs, nodeCount, lower, null, perNode);
}

/** What MCB8-stretch knows about a job at a scheduling event (section 4.7). */
export interface StretchState {
  /** Flow time (time since submission) at the event. */
  flowTime: number;
  /** Virtual time (integral of the yield) at the event. */
  virtualTime: number;
}

/**
 * The yield job j needs so that its estimated stretch at the next event,
 * (ft + T) / (vt + y T), equals 1/s. Linear in s (the inverse stretch).
 */
export function yieldForInverseStretch(s: number, st: StretchState, period: number): number {
  return ((st.flowTime + period) * s - st.virtualTime) / period;
}

/** StretchNodes' arrays, reused from call to call (see its constructor). */
const stretchScratch: Record<'lo' | 'hi' | 'rate' | 'vt', Float64Array> & { used: Int32Array } = { lo: new Float64Array(0), hi: new Float64Array(0), rate: new Float64Array(0), vt: new Float64Array(0), used: new Int32Array(0) };

/**
 * The nodes' CPU use when yields follow the inverse stretch s (each job's
 * yield clipped to [0, cap], frozen jobs at `y`), and where each node's use
 * passes capacity: a bracket per node, within capacity at every s <= lo[i],
 * over it at every s >= hi[i], taken from exact evaluations only. A node's
 * use is non-decreasing in s (also in floating point: every term is, and
 * rounding is monotone), so a bracket answers "over at s?" exactly as
 * evaluating would and a bisection on s rarely evaluates a node. The use is
 * piecewise linear in s: its crossing, interpolated between the jobs'
 * breakpoints and checked a few ulps either side, brackets a node in a
 * handful of evaluations (bisecting the bracket took some fifty).
 */
class StretchNodes {
  /** Bounds of every node's crossing (reset to ±Infinity when a job on it is frozen). */
  readonly lo: Float64Array;
  readonly hi: Float64Array;
  /** Nodes that carry a task: used[0 .. usedCount - 1]. */
  readonly used: Int32Array;
  readonly usedCount: number;
  /** Lowest bounds over the used nodes: s <= minLo is feasible, s >= minHi is not. */
  minLo = Infinity;
  minHi = Infinity;
  /** flowTime + period and virtualTime per job: yieldForInverseStretch's terms. */
  private readonly rate: Float64Array;
  private readonly vt: Float64Array;
  private points = new Float64Array(8);

  constructor(
    private readonly perNode: { start: Int32Array; job: Int32Array; coef: Float64Array },
    states: readonly StretchState[],
    nodeCount: number,
    private readonly period: number,
    private readonly cap: ArrayLike<number>,
    /** 1 while a job's yield follows s, 0 once frozen at `y`. */
    private readonly active: Uint8Array,
    private readonly y: Float64Array,
  ) {
    // The arrays are the shared stretchScratch ones: one StretchNodes is alive at a time.
    const w = stretchScratch;
    w.lo = grownFloat(w.lo, nodeCount);
    w.hi = grownFloat(w.hi, nodeCount);
    w.used = grownInt(w.used, nodeCount);
    w.rate = grownFloat(w.rate, states.length);
    w.vt = grownFloat(w.vt, states.length);
    this.lo = w.lo.fill(-Infinity, 0, nodeCount);
    this.hi = w.hi.fill(Infinity, 0, nodeCount);
    this.rate = w.rate;
    this.vt = w.vt;
    for (let j = 0; j < states.length; j++) {
      this.rate[j] = states[j].flowTime + period;
      this.vt[j] = states[j].virtualTime;
    }
    this.used = w.used;
    let used = 0;
    for (let i = 0; i < nodeCount; i++) if (perNode.start[i + 1] > perNode.start[i]) this.used[used++] = i;
    this.usedCount = used;
  }

  /** Job j's yield at inverse stretch s: yieldForInverseStretch clipped to [0, cap]. */
  yAt(j: number, s: number): number {
    return Math.min(this.cap[j], Math.max(0, (this.rate[j] * s - this.vt[j]) / this.period));
  }

  use(i: number, s: number): number {
    const { start, job, coef } = this.perNode;
    let u = 0;
    for (let e = start[i]; e < start[i + 1]; e++) u += coef[e] * (this.active[job[e]] ? this.yAt(job[e], s) : this.y[job[e]]);
    return u;
  }

  over(i: number, s: number): boolean {
    return this.use(i, s) > 1 + 1e-12;
  }

  /** over(i, s), from the bracket when it decides, else evaluated (and the bracket narrowed). */
  overAt(i: number, s: number): boolean {
    if (s <= this.lo[i]) return false;
    if (s >= this.hi[i]) return true;
    const o = this.over(i, s);
    if (o) this.hi[i] = s;
    else this.lo[i] = s;
    return o;
  }

  /** Bracket node i's crossing in [0, 1] to within 1e-14 (none: lo = 1, or hi = 0). */
  narrow(i: number): void {
    if (!this.overAt(i, 1) || this.overAt(i, 0)) return;
    const lo = this.lo;
    const hi = this.hi;
    const s0 = this.crossing(i);
    if (s0 > lo[i] && s0 < hi[i]) {
      const above = this.overAt(i, s0);
      for (let d = 1e-16, k = 0; k < 16; k++, d *= 4) {
        const s = above ? s0 - d : s0 + d;
        if (!(s > lo[i] && s < hi[i]) || this.overAt(i, s) !== above) break;
      }
    }
    for (let it = 0; it < 50 && hi[i] - lo[i] > 1e-14; it++) this.overAt(i, (lo[i] + hi[i]) / 2);
  }

  /** Where node i's use reaches 1 + 1e-12 inside its bracket, interpolated between breakpoints (an estimate). */
  private crossing(i: number): number {
    const { start, job } = this.perNode;
    const lo = this.lo[i];
    const hi = this.hi[i];
    const need = 2 + 2 * (start[i + 1] - start[i]);
    if (this.points.length < need) this.points = new Float64Array(2 * need);
    const pts = this.points;
    let m = 0;
    pts[m++] = lo;
    pts[m++] = hi;
    for (let e = start[i]; e < start[i + 1]; e++) {
      const j = job[e];
      if (!this.active[j]) continue;
      // The yield leaves 0 at s = vt / rate and reaches its cap at (cap·T + vt) / rate.
      const b0 = this.vt[j] / this.rate[j];
      const b1 = (this.cap[j] * this.period + this.vt[j]) / this.rate[j];
      if (b0 > lo && b0 < hi) pts[m++] = b0;
      if (b1 > lo && b1 < hi) pts[m++] = b1;
    }
    for (let a = 1; a < m; a++) {
      const v = pts[a];
      let b = a - 1;
      for (; b >= 0 && pts[b] > v; b--) pts[b + 1] = pts[b];
      pts[b + 1] = v;
    }
    const target = 1 + 1e-12;
    let p = pts[0];
    let up = this.use(i, p);
    for (let a = 1; a < m; a++) {
      const q = pts[a];
      const uq = this.use(i, q);
      if (uq > target) return uq > up ? p + ((target - up) * (q - p)) / (uq - up) : q;
      p = q;
      up = uq;
    }
    return NaN;
  }

  /** Forget node i's bracket (a job on it was frozen) and find it again. */
  reset(i: number): void {
    this.lo[i] = -Infinity;
    this.hi[i] = Infinity;
    if (this.perNode.start[i + 1] > this.perNode.start[i]) this.narrow(i);
  }

  bounds(): void {
    let minLo = Infinity;
    let minHi = Infinity;
    const { lo, hi, used } = this;
    for (let u = 0; u < this.usedCount; u++) {
      const i = used[u];
      if (lo[i] < minLo) minLo = lo[i];
      if (hi[i] < minHi) minHi = hi[i];
    }
    this.minLo = minLo;
    this.minHi = minHi;
  }

  /** Narrow every used node's bracket. */
  narrowAll(): void {
    for (let u = 0; u < this.usedCount; u++) this.narrow(this.used[u]);
    this.bounds();
  }

  /** No node over capacity at s (every node evaluated, to narrow its bracket; then the bounds). */
  feasible(s: number): boolean {
    if (s >= this.minHi) return false;
    if (s <= this.minLo) return true;
    let ok = true;
    let minLo = Infinity;
    let minHi = Infinity;
    const { lo, hi, used } = this;
    for (let u = 0; u < this.usedCount; u++) {
      const i = used[u];
      if (this.overAt(i, s)) ok = false;
      if (lo[i] < minLo) minLo = lo[i];
      if (hi[i] < minHi) minHi = hi[i];
    }
    this.minLo = minLo;
    this.minHi = minHi;
    return ok;
  }
}

/**
 * opt=max for /stretch-per: iteratively minimize the maximum estimated stretch
 * (the stretch analogue of opt=min). Works on the inverse stretch s in [0, 1]:
 * raise s for all unfrozen jobs (each job's yield follows s, clipped to
 * [0, cap]) until a node saturates, freeze the jobs there, repeat. Each round
 * finds the saturation point by bisection (yields are piecewise linear in s),
 * on the nodes' brackets (StretchNodes), which stay valid until a job on the
 * node is frozen.
 */
export function minMaxStretchYields(
  jobs: readonly MappedJob[],
  states: readonly StretchState[],
  nodeCount: number,
  period: number,
): Float64Array {
  const n = jobs.length;
  const y = new Float64Array(n);
  if (n === 0) return y;
  if (!(period > 0)) throw new InputError(`minMaxStretchYields: period must be > 0, got ${period}`, { source: 'minMaxStretchYields', field: 'period' });
  growScratch(nodeCount, n);
  const perNode = nodeCoefficientArrays(jobs, nodeCount);
  const { start, job: entryJob } = perNode;
  // The opt=min loop's scratch arrays (maxMinYields is not running).
  const { cap, active, dirty: isTouched } = scratch;
  for (let j = 0; j < n; j++) cap[j] = jobs[j].maxYield ?? 1;
  active.fill(1, 0, n);
  isTouched.fill(0, 0, nodeCount);
  let activeCount = n;
  const nodes = new StretchNodes(perNode, states, nodeCount, period, cap, active, y);
  nodes.narrowAll();
  const touched: number[] = [];
  let sLo = 0;
  while (activeCount > 0) {
    let sHi = 1;
    if (nodes.feasible(sHi)) {
      for (let j = 0; j < n; j++) if (active[j]) y[j] = nodes.yAt(j, sHi);
      break;
    }
    for (let it = 0; it < 60 && sHi - sLo > 1e-12; it++) {
      const mid = (sLo + sHi) / 2;
      if (nodes.feasible(mid)) sLo = mid;
      else sHi = mid;
    }
    // Bottleneck nodes: those over capacity at sHi (in node order, each seeing
    // the jobs frozen on the nodes before it). Freeze their active jobs at sLo.
    touched.length = 0;
    const freeze = (job: number, value: number) => {
      y[job] = value;
      active[job] = 0;
      const on = jobs[job].nodes;
      for (let k = 0; k < on.length; k++) {
        if (!isTouched[on[k]]) {
          isTouched[on[k]] = 1;
          touched.push(on[k]);
        }
      }
    };
    let frozen = 0;
    for (let u = 0; u < nodes.usedCount; u++) {
      const i = nodes.used[u];
      // Only freezing lowers a node's use here, so a node within capacity at sHi stays so.
      if (sHi <= nodes.lo[i] || !(isTouched[i] ? nodes.over(i, sHi) : nodes.overAt(i, sHi))) continue;
      for (let e = start[i]; e < start[i + 1]; e++) {
        const job = entryJob[e];
        if (active[job]) {
          freeze(job, nodes.yAt(job, sLo));
          frozen++;
        }
      }
    }
    for (let j = 0; j < n; j++) {
      if (active[j] && nodes.yAt(j, sLo) >= cap[j] - 1e-12) {
        freeze(j, cap[j]);
        frozen++;
      }
    }
    activeCount -= frozen;
    if (frozen === 0) {
      for (let j = 0; j < n; j++) if (active[j]) y[j] = nodes.yAt(j, sLo);
      break;
    }
    for (const i of touched) {
      isTouched[i] = 0;
      nodes.reset(i);
    }
    nodes.bounds();
  }
  return repair(jobs, nodeCount, y, new Float64Array(n), perNode);
}

/**
 * opt=avg for /stretch-per. The average of (ft+T)/(vt+yT) is not linear in y;
 * we keep the minimized maximum stretch (yields from `minMaxStretchYields`'
 * first round as lower bounds) and maximize the first-order decrease of the
 * average stretch, Σ y_j (ft_j+T) T / (vt_j + y0_j T)², with the LP solver.
 * (Our choice: the paper does not give this program.)
 */
export function minAvgStretchYields(
  jobs: readonly MappedJob[],
  states: readonly StretchState[],
  nodeCount: number,
  period: number,
): Float64Array {
  const n = jobs.length;
  if (n === 0) return new Float64Array(0);
  // Common inverse stretch reachable by all jobs: bisection on s, on the nodes' brackets.
  growScratch(nodeCount, n);
  const cap = jobs.map((j) => j.maxYield ?? 1);
  const perNode = nodeCoefficientArrays(jobs, nodeCount);
  const nodes = new StretchNodes(perNode, states, nodeCount, period, cap, new Uint8Array(n).fill(1), new Float64Array(n));
  nodes.narrowAll();
  let lo = 0;
  let hi = 1;
  if (nodes.feasible(1)) lo = 1;
  else for (let it = 0; it < 60; it++) (nodes.feasible((lo + hi) / 2) ? (lo = (lo + hi) / 2) : (hi = (lo + hi) / 2));
  const lower = Float64Array.from(jobs, (_, j) => nodes.yAt(j, lo));
  const raw = states.map((st, j) => {
    const d = st.virtualTime + lower[j] * period;
    return ((st.flowTime + period) * period) / Math.max(d * d, 1e-6);
  });
  // Normalize so that the LP sees weights in (0, 1] (raw weights can span many decades).
  const top = Math.max(...raw);
  return weightedLp(
    jobs,
    nodeCount,
    lower,
    raw.map((w) => Math.max(w / top, 1e-9)),
    perNode,
  );
}

/**
 * The CPU allocation an algorithm name describes: opt=min / opt=avg on the
 * yield, or for /stretch-per opt=max / opt=avg on the stretch estimated
 * `horizon` seconds ahead (the time to the next tick).
 */
export function builtinYields(
  alg: Pick<DfrsAlgorithm, 'periodic' | 'opt'>,
  running: readonly (StretchState & { need: number; nodes: ArrayLike<number> | null; maxYield: number })[],
  nodeCount: number,
  horizon: number,
): Float64Array {
  // Running jobs have their nodes: they are mapped jobs as they are (no copy per decision).
  const mapped = running as readonly MappedJob[];
  if (alg.periodic === 'MCB8-stretch') {
    return alg.opt === 'avg' ? minAvgStretchYields(mapped, running, nodeCount, horizon) : minMaxStretchYields(mapped, running, nodeCount, horizon);
  }
  return alg.opt === 'avg' ? maxAvgYields(mapped, nodeCount) : maxMinYields(mapped, nodeCount);
}
