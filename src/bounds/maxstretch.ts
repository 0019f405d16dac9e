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
 *
 * The LP path never trusts the solver blindly: a solver exception or a
 * malformed answer is a SolverError 'failure'; an "unbounded" answer (there is
 * no objective) is 'unbounded'; a "feasible" answer whose solution breaks
 * system (1) is 'inconsistent'; a model above `lpMaxVariables` is refused as
 * 'too-large'; and a search that runs past `lpTimeLimitMs` stops with
 * 'timeout' (javascript-lp-solver cannot interrupt a pure LP, so the budget
 * is checked after each solve). With `crossCheck` (default: on when
 * invariant checks are on) every LP verdict is compared with the max-flow
 * verdict, and a disagreement that is not a float tie at the boundary is
 * 'inconsistent'.
 *
 * With invariant checks on, the flow is checked for capacity and
 * conservation, and the result for bound >= 1, bound <= upper and two
 * independent necessary conditions on the upper value (each job alone, all
 * work together).
 */

import { performance } from 'perf_hooks';
import lpSolver from 'javascript-lp-solver';
import type { DfrsJob } from '../workloads/dfrs';
import { InputError, SolverError } from '../util/errors';
import { invariantChecksEnabled, InvariantError } from '../util/invariants';
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

/** The machine and rules under which a maximum stretch is tested for feasibility: nodes, cores, stretch threshold. */
export interface StretchFeasibilityOptions {
  /** Number of nodes |P| (total CPU capacity in node-units). */
  nodes: number;
  /** Cores per node. Accepted for symmetry with the simulators; the bound does not use it (see module comment). */
  cores?: number;
  /** Bounded-stretch threshold, seconds. Default 10. */
  threshold?: number;
  /** 'flow' (default, exact max flow) or 'lp' (system (1) through javascript-lp-solver). */
  method?: 'flow' | 'lp';
  /** LP path: refuse models with more variables than this (SolverError 'too-large'). Default 20,000. */
  lpMaxVariables?: number;
  /** LP path: wall-clock budget in ms for all solves of one call (SolverError 'timeout'). Default 60,000. */
  lpTimeLimitMs?: number;
  /** LP path: compare every LP verdict with max flow (default: on when invariant checks are on). */
  crossCheck?: boolean;
  /** LP solver (default javascript-lp-solver's Solve); replaceable to test failure handling. */
  lpSolve?: (model: LpModel) => unknown;
}

/** The model handed to the LP solver (javascript-lp-solver's JSON format). */
export interface LpModel {
  optimize: string;
  opType: 'max' | 'min';
  constraints: Record<string, { equal?: number; max?: number }>;
  variables: Record<string, Record<string, number>>;
  options?: { timeout?: number };
}

/** Options of `maxStretchLowerBound`: the feasibility options plus search tolerance and method (max-flow or LP). */
export interface MaxStretchBoundOptions extends StretchFeasibilityOptions {
  /** Relative width at which the binary search stops: upper/bound <= 1 + tolerance. Default 1e-4. */
  tolerance?: number;
}

/** Result of `maxStretchLowerBound`: the bound, the upper end of its search, iterations and the jobs used. */
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

const SRC = 'maxStretch bound';

function prepare(jobs: readonly DfrsJob[], nodes: number, threshold: number, cores?: number): BoundJob[] {
  if (!(Number.isFinite(nodes) && nodes > 0)) throw new InputError(`maxStretch bound: nodes must be > 0, got ${nodes}`, { source: SRC, field: 'nodes' });
  if (cores !== undefined && !(Number.isInteger(cores) && cores > 0)) {
    throw new InputError(`maxStretch bound: cores must be a positive integer, got ${cores}`, { source: SRC, field: 'cores' });
  }
  if (!(Number.isFinite(threshold) && threshold >= 0)) {
    throw new InputError(`maxStretch bound: threshold must be a finite number >= 0, got ${threshold}`, { source: SRC, field: 'threshold' });
  }
  const out: BoundJob[] = [];
  jobs.forEach((job, index) => {
    const where = `job at index ${index} (id ${job.id})`;
    const at = (field: string) => ({ source: SRC, field: `jobs[${index}].${field}` });
    if (!Number.isFinite(job.submit)) throw new InputError(`maxStretch bound: ${where}: submit must be finite, got ${job.submit}`, at('submit'));
    if (!(Number.isFinite(job.runtime) && job.runtime >= 0)) {
      throw new InputError(`maxStretch bound: ${where}: runtime must be finite and >= 0, got ${job.runtime}`, at('runtime'));
    }
    if (!(Number.isInteger(job.tasks) && job.tasks >= 1)) {
      throw new InputError(`maxStretch bound: ${where}: tasks must be a positive integer, got ${job.tasks}`, at('tasks'));
    }
    if (!(job.cpuNeed > 0 && job.cpuNeed <= 1)) {
      throw new InputError(`maxStretch bound: ${where}: cpuNeed must be in (0, 1], got ${job.cpuNeed}`, at('cpuNeed'));
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
  if (seeded >= totalWork * (1 - FLOW_SLACK)) {
    if (invariantChecksEnabled()) net.verifyFlow(source, sink);
    return true;
  }
  const flow = seeded + net.maxFlow(source, sink);
  if (invariantChecksEnabled()) {
    const value = net.verifyFlow(source, sink);
    if (Math.abs(value - flow) > 1e-9 * Math.max(1, totalWork)) {
      throw new InvariantError('maxflow/value', `flow out of the source is ${value}, the solver reported ${flow}`);
    }
  }
  return flow >= totalWork * (1 - FLOW_SLACK);
}

/** Settings of the LP path, with defaults applied. */
interface LpSettings {
  maxVariables: number;
  timeLimitMs: number;
  crossCheck: boolean;
  solve: (model: LpModel) => unknown;
  /** performance.now() when the budget started. */
  startedAt: number;
}

function lpSettings(options: StretchFeasibilityOptions): LpSettings {
  const maxVariables = options.lpMaxVariables ?? 20000;
  const timeLimitMs = options.lpTimeLimitMs ?? 60000;
  if (!(maxVariables >= 1)) throw new InputError(`maxStretch bound: lpMaxVariables must be >= 1, got ${maxVariables}`, { source: SRC, field: 'lpMaxVariables' });
  if (!(timeLimitMs > 0)) throw new InputError(`maxStretch bound: lpTimeLimitMs must be > 0, got ${timeLimitMs}`, { source: SRC, field: 'lpTimeLimitMs' });
  return {
    maxVariables,
    timeLimitMs,
    crossCheck: options.crossCheck ?? invariantChecksEnabled(),
    solve: options.lpSolve ?? ((m) => lpSolver.Solve(m as never)),
    startedAt: performance.now(),
  };
}

/**
 * Relative slack when checking an LP solution against system (1), and the
 * relative distance from the optimum beyond which LP and flow must agree.
 * javascript-lp-solver works to about 1e-6 relative on these models (short
 * intervals give coefficients in the hundreds), so answers are judged at 1e-4:
 * loose enough for its rounding, tight enough to catch a wrong verdict.
 */
const LP_SLACK = 1e-4;

function feasibleByLp(jobs: readonly BoundJob[], stretch: number, nodes: number, lp: LpSettings): boolean {
  const solver = 'maxStretch LP (javascript-lp-solver)';
  const points = boundaries(jobs, stretch);
  const constraints: Record<string, { equal?: number; max?: number }> = {};
  const variables: Record<string, Record<string, number>> = {};
  // What each variable means, to check the solver's answer against system (1).
  const meaning: { name: string; job: number; interval: number; cap: number; power: number }[] = [];
  for (let t = 0; t + 1 < points.length; t++) constraints[`power_${t}`] = { max: 1 };
  jobs.forEach((job, j) => {
    constraints[`complete_${j}`] = { equal: 1 }; // (1a)
    const deadline = job.release + stretch * job.reference;
    for (let t = 0; t + 1 < points.length; t++) {
      // (1b) and (1c): α_j^t exists only for intervals inside [r_j, d_j).
      if (points[t + 1] <= job.release || points[t] >= deadline) continue;
      const length = points[t + 1] - points[t];
      const name = `a_${j}_${t}`;
      const cap = length / job.runtime;
      const power = (job.runtime * job.width) / (nodes * length);
      constraints[`int_${name}`] = { max: cap }; // (1d): α p_j <= ℓ(t)
      // (1e), both sides divided by |P|·ℓ(t) to keep coefficients near 1.
      variables[name] = {
        [`complete_${j}`]: 1,
        [`int_${name}`]: 1,
        [`power_${t}`]: power,
      };
      meaning.push({ name, job: j, interval: t, cap, power });
    }
  });
  if (meaning.length > lp.maxVariables) {
    throw new SolverError(solver, 'too-large', `system (1) at stretch ${stretch} has ${meaning.length} variables, above lpMaxVariables = ${lp.maxVariables}; use method 'flow'`);
  }
  const remaining = lp.timeLimitMs - (performance.now() - lp.startedAt);
  let raw: unknown;
  try {
    raw = lp.solve({ optimize: 'none', opType: 'max', constraints, variables, options: { timeout: Math.max(1, remaining) } });
  } catch (e) {
    throw new SolverError(solver, 'failure', `the solver threw at stretch ${stretch}: ${(e as Error)?.message ?? String(e)}`);
  }
  const elapsed = performance.now() - lp.startedAt;
  if (elapsed > lp.timeLimitMs) {
    throw new SolverError(solver, 'timeout', `${elapsed.toFixed(0)} ms spent, above lpTimeLimitMs = ${lp.timeLimitMs} (at stretch ${stretch}, ${meaning.length} variables)`);
  }
  const result = raw as { feasible?: unknown; bounded?: unknown } & Record<string, unknown>;
  if (result === null || typeof result !== 'object' || typeof result.feasible !== 'boolean') {
    throw new SolverError(solver, 'failure', `malformed answer at stretch ${stretch}: ${safeJson(raw)}`);
  }
  if (result.bounded === false) throw new SolverError(solver, 'unbounded', `the feasibility model at stretch ${stretch} was reported unbounded`);
  if (result.feasible) {
    // Check the solution: (1a) per job, (1d) per variable, (1e) per interval.
    const done = new Float64Array(jobs.length);
    const power = new Float64Array(Math.max(0, points.length - 1));
    for (const v of meaning) {
      const x = result[v.name] === undefined ? 0 : result[v.name];
      if (typeof x !== 'number' || !Number.isFinite(x)) throw new SolverError(solver, 'failure', `variable ${v.name} = ${safeJson(x)} at stretch ${stretch}`);
      if (x < -LP_SLACK || x > v.cap * (1 + LP_SLACK) + LP_SLACK) {
        throw new SolverError(solver, 'inconsistent', `"feasible" at stretch ${stretch}, but ${v.name} = ${x} is outside [0, ${v.cap}] (1d)`);
      }
      done[v.job] += x;
      power[v.interval] += x * v.power;
    }
    done.forEach((d, j) => {
      if (Math.abs(d - 1) > LP_SLACK) throw new SolverError(solver, 'inconsistent', `"feasible" at stretch ${stretch}, but job ${j} completes a fraction ${d} of its work (1a)`);
    });
    // (1e) is judged in node-seconds against the total work: a tiny interval may be
    // overfull by a large factor within the solver's rounding without any real work moving.
    let totalWork = 0;
    for (const job of jobs) totalWork += job.runtime * job.width;
    power.forEach((p, t) => {
      const capacity = nodes * (points[t + 1] - points[t]);
      if ((p - 1) * capacity > LP_SLACK * totalWork) {
        throw new SolverError(solver, 'inconsistent', `"feasible" at stretch ${stretch}, but interval ${t} uses ${p} × the platform, ${(p - 1) * capacity} node-seconds too many (1e)`);
      }
    });
  }
  if (lp.crossCheck) {
    const net = new FlowNetwork(2);
    const byFlow = feasibleByFlow(jobs, stretch, nodes, net);
    if (byFlow !== result.feasible) {
      // A float tie at the optimum may go either way; a real disagreement persists a little away from it.
      const away = result.feasible ? stretch * (1 + LP_SLACK) : stretch * (1 - LP_SLACK);
      if (feasibleByFlow(jobs, away, nodes, net) !== result.feasible) {
        throw new SolverError(solver, 'inconsistent', `LP says ${result.feasible ? 'feasible' : 'infeasible'} at stretch ${stretch}, max flow says the opposite (also at ${away})`);
      }
    }
  }
  return result.feasible;
}

function safeJson(v: unknown): string {
  try {
    return (JSON.stringify(v) ?? String(v)).slice(0, 200);
  } catch {
    return String(v);
  }
}

/**
 * Does system (1) have a solution for target maximum stretch `stretch`? That
 * is, can every job finish by r_j + stretch·max(threshold, p_j) under the
 * relaxed model of Theorem 1?
 */
export function stretchFeasible(jobs: readonly DfrsJob[], stretch: number, options: StretchFeasibilityOptions): boolean {
  if (!(stretch > 0) || !Number.isFinite(stretch)) throw new InputError(`stretchFeasible: stretch must be finite and > 0, got ${stretch}`, { source: 'stretchFeasible', field: 'stretch' });
  const threshold = options.threshold ?? STRETCH_THRESHOLD;
  const method = checkMethod(options.method);
  const prepared = prepare(jobs, options.nodes, threshold, options.cores);
  return check(prepared, stretch, options.nodes, method, method === 'lp' ? lpSettings(options) : undefined);
}

function checkMethod(method: unknown): 'flow' | 'lp' {
  if (method === undefined) return 'flow';
  if (method === 'flow' || method === 'lp') return method;
  throw new InputError(`maxStretch bound: method must be 'flow' or 'lp', got '${String(method)}'`, { source: SRC, field: 'method' });
}

function check(jobs: readonly BoundJob[], stretch: number, nodes: number, method: 'flow' | 'lp', lp?: LpSettings, net?: FlowNetwork): boolean {
  if (jobs.length === 0) return true;
  if (method === 'lp') return feasibleByLp(jobs, stretch, nodes, lp ?? lpSettings({ nodes }));
  return feasibleByFlow(jobs, stretch, nodes, net ?? new FlowNetwork(2));
}

/**
 * Invariants of a bound result (checks on): bound >= 1, bound <= upper, and
 * two necessary conditions every feasible target (so `upper`) must meet,
 * computed without the flow: each job alone runs at most at rate
 * min(1, |P| / width), and all the work must fit between the first release
 * and the last deadline.
 */
/** The flow accepts work within FLOW_SLACK of the total, so the checks allow ten times that (LP: LP_SLACK). */
const CHECK_SLACK = 10 * FLOW_SLACK;

function verifyBound(jobs: readonly BoundJob[], nodes: number, r: MaxStretchBound, slack: number): void {
  if (!(r.bound >= 1 && Number.isFinite(r.bound))) throw new InvariantError('maxstretch/bound', `bound ${r.bound} is not a finite number >= 1`);
  if (!(r.upper >= r.bound)) throw new InvariantError('maxstretch/bound', `upper ${r.upper} is below bound ${r.bound}`);
  let first = Infinity;
  let lastDeadline = -Infinity;
  let work = 0;
  for (const j of jobs) work += j.runtime * j.width;
  // Feasibility is decided up to `slack` × the total work, so shortfalls are measured in work too.
  const allowed = slack * work;
  for (const j of jobs) {
    const rate = Math.min(j.width, nodes);
    const shortfall = (j.runtime * j.width) / rate - r.upper * j.reference; // seconds missing when running alone
    if (shortfall * rate > allowed) {
      const alone = (j.runtime * j.width) / rate / j.reference;
      throw new InvariantError('maxstretch/single-job', `upper ${r.upper} is below ${alone}, the stretch of a job (release ${j.release}) running alone`, { time: j.release });
    }
    first = Math.min(first, j.release);
    lastDeadline = Math.max(lastDeadline, j.release + r.upper * j.reference);
  }
  if (jobs.length > 0 && work - nodes * (lastDeadline - first) > allowed) {
    throw new InvariantError('maxstretch/total-work', `at stretch ${r.upper} the ${work} node-seconds of work do not fit in [${first}, ${lastDeadline}) on ${nodes} nodes`);
  }
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
  const method = checkMethod(options.method);
  if (!(tolerance > 0)) throw new InputError(`maxStretchLowerBound: tolerance must be > 0, got ${tolerance}`, { source: 'maxStretchLowerBound', field: 'tolerance' });
  const prepared = prepare(jobs, options.nodes, threshold, options.cores);
  const lp = method === 'lp' ? lpSettings(options) : undefined;
  const checks = invariantChecksEnabled();
  let iterations = 0;
  const net = new FlowNetwork(2); // buffers reused by every check
  const feasible = (s: number) => {
    iterations++;
    return check(prepared, s, options.nodes, method, lp, net);
  };
  const done = (r: MaxStretchBound): MaxStretchBound => {
    if (checks) verifyBound(prepared, options.nodes, r, method === 'lp' ? LP_SLACK : CHECK_SLACK);
    return r;
  };
  if (feasible(1)) return done({ bound: 1, upper: 1, iterations, jobsUsed: prepared.length });
  let lo = 1;
  let hi = 2;
  while (!feasible(hi)) {
    lo = hi;
    hi *= 2;
    // A job alone can always finish by stretch max(1, c_j·|T_j| / |P|); the sum of
    // all work over |P| past the last release bounds S, so this only guards bugs.
    if (hi > 1e15) throw new InvariantError('maxstretch/search', 'no feasible stretch below 1e15 (each job alone is feasible at a finite stretch)');
  }
  while (hi / lo > 1 + tolerance) {
    const mid = Math.sqrt(lo * hi);
    if (feasible(mid)) hi = mid;
    else lo = mid;
  }
  return done({ bound: lo, upper: hi, iterations, jobsUsed: prepared.length });
}
