/**
 * Offline lower bound on the optimal maximum (bounded) stretch of a DFRS
 * instance: Theorem 1 / linear system (1) of Stillwell, Vivien & Casanova,
 * "Dynamic fractional resource scheduling versus batch scheduling", with a
 * binary search on the target stretch.
 *
 * Model (as in the paper's Section 3.1): memory is ignored (infinite), tasks
 * migrate for free, every node's CPU is one fluid resource of capacity 1, and a
 * job j with |T_j| tasks of CPU need c_j runs at most at rate 1 (yield <= 1),
 * i.e. uses at most c_j·|T_j| node-units at any moment. Total capacity is
 * |P| = `nodes` node-units; the number of cores per node plays no role here
 * (Section 5.1: a multi-core node is shared as a single fluid resource, the
 * core count only shapes c_j, which the workload already encodes).
 *
 * Stretch is the bounded stretch of Section 2.2 with a 10 s threshold:
 *   stretch_j = max(1, flowTime_j / max(10, p_j)).
 * (The paper's wording, "turn-around time replaced by the threshold when
 * smaller", applied to both the actual and the dedicated turn-around time,
 * gives max(flow, 10) / max(p, 10), which is the same number because
 * flow >= p.)
 * Choice (the paper writes d_j = r_j + S·p_j for the plain stretch): for the
 * bounded stretch, a target S >= 1 is met exactly when the job completes by
 *   d_j = r_j + S · max(10, p_j),
 * so that is the deadline we use in system (1). Every schedule has max
 * stretch >= 1 under this definition, so the bound is never below 1.
 *
 * Feasibility of system (1) for a given S. With x_j^t = α_j^t·p_j·c_j·|T_j|
 * (node-seconds of job j done in interval t) the system reads
 *   Σ_t x_j^t = W_j := p_j·c_j·|T_j|                         (1a)
 *   x_j^t = 0 outside [r_j, d_j)                               (1b, 1c)
 *   x_j^t <= ℓ(t)·c_j·|T_j|                                     (1d)
 *   Σ_j x_j^t <= |P|·ℓ(t)                                       (1e)
 * which is a transportation problem: source -> job (capacity W_j) -> interval
 * (capacity ℓ(t)·c_j·|T_j|) -> sink (capacity |P|·ℓ(t)). The system has a
 * solution iff the maximum flow saturates every source edge. Max flow
 * (Dinic) is the default method; `method: 'lp'` solves system (1) literally,
 * in the α variables, with javascript-lp-solver (small instances only).
 */

import lpSolver from 'javascript-lp-solver';
import type { DfrsJob } from '../workloads/dfrs';
import { FlowNetwork } from './maxflow';

/** Bounded-stretch threshold of the DFRS paper (seconds). */
export const STRETCH_THRESHOLD = 10;

/**
 * Bounded stretch of one job: max(1, flowTime / max(threshold, runtime)).
 * `flowTime` is completion minus submission; `runtime` the dedicated-mode
 * processing time. This is the definition the bound is computed for.
 */
export function boundedStretch(flowTime: number, runtime: number, threshold = STRETCH_THRESHOLD): number {
  return Math.max(1, flowTime / Math.max(threshold, runtime));
}

export interface StretchFeasibilityOptions {
  /** Number of nodes |P| (total CPU capacity in node-units). */
  nodes: number;
  /** Cores per node. Accepted for symmetry with the simulators; the bound does not use it (see module comment). */
  cores?: number;
  /** Bounded-stretch threshold, seconds. Default 10. */
  threshold?: number;
  /** 'flow' (default, exact max flow) or 'lp' (system (1) through javascript-lp-solver). */
  method?: 'flow' | 'lp';
}

export interface MaxStretchBoundOptions extends StretchFeasibilityOptions {
  /** Relative width at which the binary search stops: upper/bound <= 1 + tolerance. Default 1e-4. */
  tolerance?: number;
}

export interface MaxStretchBound {
  /**
   * Lower bound on the optimal maximum bounded stretch: the largest target
   * proven infeasible by the search (or exactly 1 when S = 1 is feasible).
   * The true optimum of system (1) lies in (bound, upper].
   */
  bound: number;
  /** Smallest target found feasible; upper / bound <= 1 + tolerance. */
  upper: number;
  /** Number of feasibility checks performed. */
  iterations: number;
  /** Jobs with positive work that entered the system (zero-work jobs never constrain it). */
  jobsUsed: number;
}

/** The parts of a job the bound needs, after validation. */
interface BoundJob {
  release: number;
  runtime: number;
  /** Stretch denominator max(threshold, runtime). */
  reference: number;
  /** Peak node-units c_j·|T_j|. */
  width: number;
}

function prepare(jobs: readonly DfrsJob[], nodes: number, threshold: number, cores?: number): BoundJob[] {
  if (!(Number.isFinite(nodes) && nodes > 0)) throw new RangeError(`maxStretch bound: nodes must be > 0, got ${nodes}`);
  if (cores !== undefined && !(Number.isInteger(cores) && cores > 0)) {
    throw new RangeError(`maxStretch bound: cores must be a positive integer, got ${cores}`);
  }
  if (!(Number.isFinite(threshold) && threshold >= 0)) {
    throw new RangeError(`maxStretch bound: threshold must be a finite number >= 0, got ${threshold}`);
  }
  const out: BoundJob[] = [];
  jobs.forEach((job, index) => {
    const where = `job at index ${index} (id ${job.id})`;
    if (!Number.isFinite(job.submit)) throw new RangeError(`maxStretch bound: ${where}: submit must be finite, got ${job.submit}`);
    if (!(Number.isFinite(job.runtime) && job.runtime >= 0)) {
      throw new RangeError(`maxStretch bound: ${where}: runtime must be finite and >= 0, got ${job.runtime}`);
    }
    if (!(Number.isInteger(job.tasks) && job.tasks >= 1)) {
      throw new RangeError(`maxStretch bound: ${where}: tasks must be a positive integer, got ${job.tasks}`);
    }
    if (!(job.cpuNeed > 0 && job.cpuNeed <= 1)) {
      throw new RangeError(`maxStretch bound: ${where}: cpuNeed must be in (0, 1], got ${job.cpuNeed}`);
    }
    if (job.runtime === 0) return; // no work: met at any stretch >= 1
    const reference = Math.max(threshold, job.runtime);
    if (!(reference > 0)) return;
    out.push({ release: job.submit, runtime: job.runtime, reference, width: job.tasks * job.cpuNeed });
  });
  return out;
}

/** Sorted distinct release dates and deadlines: the interval boundaries of system (1). */
function boundaries(jobs: readonly BoundJob[], stretch: number): Float64Array {
  const points = new Float64Array(2 * jobs.length);
  jobs.forEach((j, i) => {
    points[2 * i] = j.release;
    points[2 * i + 1] = j.release + stretch * j.reference;
  });
  points.sort();
  let k = 0;
  for (let i = 0; i < points.length; i++) if (k === 0 || points[i] !== points[k - 1]) points[k++] = points[i];
  return points.subarray(0, k);
}

/** Index of `value` in the sorted array `points` (value is known to be present). */
function indexOf(points: Float64Array, value: number): number {
  let lo = 0;
  let hi = points.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Relative slack accepted when comparing the max flow with the total work (float rounding). */
const FLOW_SLACK = 1e-9;

function feasibleByFlow(jobs: readonly BoundJob[], stretch: number, nodes: number, net: FlowNetwork): boolean {
  const points = boundaries(jobs, stretch);
  const intervals = points.length - 1;
  const n = jobs.length;
  const first = new Int32Array(n);
  const last = new Int32Array(n); // exclusive
  let edgeCount = n + intervals;
  for (let j = 0; j < n; j++) {
    first[j] = indexOf(points, jobs[j].release);
    last[j] = indexOf(points, jobs[j].release + stretch * jobs[j].reference);
    edgeCount += last[j] - first[j];
  }
  // Nodes: 0 = source, 1..n = jobs, n+1..n+intervals = intervals, last = sink.
  const source = 0;
  const sink = n + intervals + 1;
  net.reset(n + intervals + 2, edgeCount);
  const remaining = new Float64Array(n);
  const sourceEdge = new Int32Array(n);
  const firstEdge = new Int32Array(n);
  let totalWork = 0;
  for (let j = 0; j < n; j++) {
    const job = jobs[j];
    const work = job.runtime * job.width;
    totalWork += work;
    remaining[j] = work;
    sourceEdge[j] = net.addEdge(source, 1 + j, work);
    firstEdge[j] = -1;
    for (let t = first[j]; t < last[j]; t++) {
      // Arc ids of one job are consecutive: id = firstEdge + (t - first).
      const e = net.addEdge(1 + j, 1 + n + t, Math.min(work, (points[t + 1] - points[t]) * job.width));
      if (firstEdge[j] < 0) firstEdge[j] = e;
    }
  }
  const sinkEdge = new Int32Array(intervals);
  for (let t = 0; t < intervals; t++) sinkEdge[t] = net.addEdge(1 + n + t, sink, nodes * (points[t + 1] - points[t]));

  // Seed with an earliest-deadline-first greedy flow (intervals in time order,
  // active jobs by deadline). It is usually close to maximal, so Dinic only
  // has to repair what the greedy misses.
  const order = Array.from({ length: n }, (_, j) => j).sort((a, b) => first[a] - first[b] || last[a] - last[b]);
  let active: number[] = [];
  let finished = 0; // jobs in `active` with no work left (dropped in batches)
  let next = 0;
  let seeded = 0;
  for (let t = 0; t < intervals; t++) {
    while (next < n && first[order[next]] <= t) {
      const j = order[next++];
      // Keep `active` sorted by deadline index (binary insertion).
      let lo = 0;
      let hi = active.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (last[active[mid]] <= last[j]) lo = mid + 1;
        else hi = mid;
      }
      active.splice(lo, 0, j);
    }
    if (finished > 32 && 2 * finished > active.length) {
      active = active.filter((j) => remaining[j] > 0);
      finished = 0;
    }
    const length = points[t + 1] - points[t];
    let room = nodes * length;
    for (let k = 0; k < active.length && room > 0; k++) {
      const j = active[k];
      // Past its deadline with work left: the greedy failed this job; Dinic decides.
      if (remaining[j] <= 0 || last[j] <= t) continue;
      const amount = Math.min(remaining[j], length * jobs[j].width, room);
      if (!(amount > 0)) continue;
      net.push(sourceEdge[j], amount);
      net.push(firstEdge[j] + (t - first[j]), amount);
      net.push(sinkEdge[t], amount);
      remaining[j] -= amount;
      room -= amount;
      seeded += amount;
      if (remaining[j] <= 0) finished++;
    }
    // Jobs whose deadline has passed leave the front of the list.
    let dead = 0;
    while (dead < active.length && last[active[dead]] <= t + 1) {
      if (remaining[active[dead]] <= 0) finished--;
      dead++;
    }
    if (dead > 0) active = active.slice(dead);
  }
  if (seeded >= totalWork * (1 - FLOW_SLACK)) return true;
  const flow = seeded + net.maxFlow(source, sink);
  return flow >= totalWork * (1 - FLOW_SLACK);
}

function feasibleByLp(jobs: readonly BoundJob[], stretch: number, nodes: number): boolean {
  const points = boundaries(jobs, stretch);
  const constraints: Record<string, { equal?: number; max?: number }> = {};
  const variables: Record<string, Record<string, number>> = {};
  for (let t = 0; t + 1 < points.length; t++) constraints[`power_${t}`] = { max: 1 };
  jobs.forEach((job, j) => {
    constraints[`complete_${j}`] = { equal: 1 }; // (1a)
    const deadline = job.release + stretch * job.reference;
    for (let t = 0; t + 1 < points.length; t++) {
      // (1b) and (1c): α_j^t exists only for intervals inside [r_j, d_j).
      if (points[t + 1] <= job.release || points[t] >= deadline) continue;
      const length = points[t + 1] - points[t];
      const name = `a_${j}_${t}`;
      constraints[`int_${name}`] = { max: length / job.runtime }; // (1d): α p_j <= ℓ(t)
      // (1e), both sides divided by |P|·ℓ(t) to keep coefficients near 1.
      variables[name] = {
        [`complete_${j}`]: 1,
        [`int_${name}`]: 1,
        [`power_${t}`]: (job.runtime * job.width) / (nodes * length),
      };
    }
  });
  const result = lpSolver.Solve({ optimize: 'none', opType: 'max', constraints, variables }) as { feasible: boolean };
  return result.feasible === true;
}

/**
 * Does system (1) have a solution for target maximum stretch `stretch`? That
 * is, can every job finish by r_j + stretch·max(threshold, p_j) under the
 * relaxed model of Theorem 1?
 */
export function stretchFeasible(jobs: readonly DfrsJob[], stretch: number, options: StretchFeasibilityOptions): boolean {
  if (!(stretch > 0) || !Number.isFinite(stretch)) throw new RangeError(`stretchFeasible: stretch must be finite and > 0, got ${stretch}`);
  const threshold = options.threshold ?? STRETCH_THRESHOLD;
  const prepared = prepare(jobs, options.nodes, threshold, options.cores);
  return check(prepared, stretch, options.nodes, options.method ?? 'flow');
}

function check(jobs: readonly BoundJob[], stretch: number, nodes: number, method: 'flow' | 'lp', net?: FlowNetwork): boolean {
  if (jobs.length === 0) return true;
  if (method === 'flow') return feasibleByFlow(jobs, stretch, nodes, net ?? new FlowNetwork(2));
  if (method === 'lp') return feasibleByLp(jobs, stretch, nodes);
  throw new RangeError(`maxStretch bound: method must be 'flow' or 'lp', got '${method as string}'`);
}

/**
 * Lower bound on the optimal maximum bounded stretch (Theorem 1, memory
 * ignored), by binary search on the target stretch S in log space: S = 1 is
 * tried first, then S doubles until feasible, then the bracket is halved
 * (geometrically) until upper / bound <= 1 + tolerance. Feasibility is
 * monotone in S because deadlines only move later.
 */
export function maxStretchLowerBound(jobs: readonly DfrsJob[], options: MaxStretchBoundOptions): MaxStretchBound {
  const threshold = options.threshold ?? STRETCH_THRESHOLD;
  const tolerance = options.tolerance ?? 1e-4;
  const method = options.method ?? 'flow';
  if (!(tolerance > 0)) throw new RangeError(`maxStretchLowerBound: tolerance must be > 0, got ${tolerance}`);
  const prepared = prepare(jobs, options.nodes, threshold, options.cores);
  let iterations = 0;
  const net = new FlowNetwork(2); // buffers reused by every check
  const feasible = (s: number) => {
    iterations++;
    return check(prepared, s, options.nodes, method, net);
  };
  if (feasible(1)) return { bound: 1, upper: 1, iterations, jobsUsed: prepared.length };
  let lo = 1;
  let hi = 2;
  while (!feasible(hi)) {
    lo = hi;
    hi *= 2;
    // A job alone can always finish by stretch max(1, c_j·|T_j| / |P|); the sum of
    // all work over |P| past the last release bounds S, so this only guards bugs.
    if (hi > 1e15) throw new Error('maxStretchLowerBound: no feasible stretch below 1e15 (inconsistent input?)');
  }
  while (hi / lo > 1 + tolerance) {
    const mid = Math.sqrt(lo * hi);
    if (feasible(mid)) hi = mid;
    else lo = mid;
  }
  return { bound: lo, upper: hi, iterations, jobsUsed: prepared.length };
}
