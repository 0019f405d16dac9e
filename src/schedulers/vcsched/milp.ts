/**
 * The mixed-integer linear program of section 2.5 (sequential jobs) extended
 * with the equal-allocation constraints of section 5.1 (parallel jobs), solved
 * with either LP engine (lpsolver.ts), and its rational relaxation.
 *
 * Variables, for task t and host h: e[t,h] in {0,1} (t on h), a[t,h] >= 0 (CPU
 * fraction of t on h), and Y (minimum yield). Constraints:
 *   sum_h e[t,h] = 1                     (one host per task)
 *   a[t,h] <= e[t,h]                     (CPU only where placed)
 *   sum_t a[t,h] <= 1                    (host CPU)
 *   sum_t m_t e[t,h] <= 1                (host memory)
 *   sum_h a[t,h] <= c_t                  (no more than the need)
 *   sum_h a[t,h] >= c_t Y                (yield of every task at least Y)
 *   sum_h a[t,h] = sum_h a[t',h]         (tasks of one job, t' its first task)
 *   Y <= 1;  maximise Y.
 * The answer is never trusted blindly: the placement is read back, checked
 * against memory, and its yield recomputed; a disagreement is reported as
 * status 'invalid', a time-out as 'feasible' (verified incumbent) or 'unknown'.
 */
import { VcInstance, instanceTasks, checkInstance, placementFitsMemory } from './model';
import { placementYield, uniformYieldAllocation } from './improve';
import { invariantChecksEnabled } from '../../util/invariants';
import { verifyVcAllocation } from './invariants';
import { ColumnLpBuilder, ColumnLpModel, LpEngine, LpModel, LpStatus, runLp, lpValue } from './lpsolver';
import { vcschedRelaxedMinYield } from '../../bounds/vcsched';

/** Options of the VCSched MILP: engine, time and node limits, symmetry breaking. */
export interface MilpOptions {
  /** Wall-clock limit for branch-and-cut, seconds (default 60). Machine-dependent: prefer `nodeLimit` with HiGHS. */
  timeLimitSeconds?: number;
  /** Branch-and-bound node limit (HiGHS only): a deterministic time-out. */
  nodeLimit?: number;
  /** Default 'javascript-lp-solver'. */
  engine?: LpEngine;
  /**
   * Forbid task t on hosts h > t (hosts are identical, so any solution can be
   * relabelled to satisfy this). Default true; shrinks the search, not the optimum.
   */
  symmetryBreaking?: boolean;
}

/** How a MILP solve ended. */
export type MilpStatus = 'optimal' | 'infeasible' | 'feasible' | 'unknown' | 'invalid';

/** Result of the VCSched MILP: status, minimum yield and placement. */
export interface MilpResult {
  /**
   * optimal: proven optimum (verified); infeasible: solver finished without any
   * solution; feasible: time limit reached, verified incumbent (not proven
   * optimal); unknown: time limit reached without incumbent; invalid: the
   * solver's answer failed verification (never use it as an optimum).
   */
  status: MilpStatus;
  /** Minimum yield of the returned placement (recomputed), or null. */
  minYield: number | null;
  placement: number[] | null;
  /** Objective value reported by the solver (NaN if none). */
  solverObjective: number;
  seconds: number;
  message?: string;
}

const e = (t: number, h: number) => `e_${t}_${h}`;
/** Needs and memory requirements at or below this are left out of the model (the solver's precision is 1e-9). */
const NEGLIGIBLE = 1e-9;
const a = (t: number, h: number) => `a_${t}_${h}`;

/** Build the JSON model (javascript-lp-solver's format, read by both engines). `relax`: no binaries (the LP of section 3.1). */
export function buildVcschedModel(inst: VcInstance, options: { relax?: boolean; symmetryBreaking?: boolean } = {}): LpModel {
  checkInstance(inst);
  const tasks = instanceTasks(inst);
  const H = inst.hosts;
  const sym = !options.relax && (options.symmetryBreaking ?? true);
  const constraints: LpModel['constraints'] = {};
  const variables: LpModel['variables'] = {};
  const binaries: Record<string, 1> = {};
  const firstTask = new Map<number, number>();
  tasks.forEach((t, i) => {
    if (!firstTask.has(t.job)) firstTask.set(t.job, i);
  });

  constraints.Ymax = { max: 1 };
  variables.Y = { Y: 1, Ymax: 1 };
  for (let h = 0; h < H; h++) {
    constraints[`cpu_${h}`] = { max: 1 };
    constraints[`mem_${h}`] = { max: 1 };
  }
  // No zero (or negligible) coefficients: javascript-lp-solver declared
  // feasible models infeasible when a task had memory 0 (a zero coefficient in
  // a memory row) or CPU need 0 (degenerate need/yield rows with right-hand
  // side 0), e.g. one host and one task {cpuNeed: 1, mem: 0}. Coefficients
  // below the solver's precision are therefore left out: such a task gets no
  // CPU variables and no need/yield/equal-share rows (its CPU is negligible and
  // every answer is re-checked on the true values), and its memory is not
  // entered in the memory rows.
  tasks.forEach((t, i) => {
    const zeroNeed = !(t.cpuNeed > NEGLIGIBLE);
    const zeroMem = !(t.mem > NEGLIGIBLE);
    constraints[`one_${i}`] = { equal: 1 };
    const f = firstTask.get(t.job)!;
    if (!zeroNeed) {
      constraints[`need_${i}`] = { max: t.cpuNeed };
      constraints[`yield_${i}`] = { min: 0 }; // sum_h a - c Y >= 0
      variables.Y[`yield_${i}`] = -t.cpuNeed;
      if (f !== i) constraints[`same_${i}`] = { equal: 0 }; // sum_h a[i,h] - sum_h a[f,h] = 0
    }
    const hmax = sym ? Math.min(H - 1, i) : H - 1;
    for (let h = 0; h <= hmax; h++) {
      const ev: Record<string, number> = { [`one_${i}`]: 1 };
      if (!zeroMem) ev[`mem_${h}`] = t.mem;
      if (!zeroNeed) {
        constraints[`link_${i}_${h}`] = { max: 0 };
        ev[`link_${i}_${h}`] = -1;
      }
      if (options.relax) {
        constraints[`eub_${i}_${h}`] = { max: 1 };
        ev[`eub_${i}_${h}`] = 1;
      } else binaries[e(i, h)] = 1;
      variables[e(i, h)] = ev;
      if (!zeroNeed) variables[a(i, h)] = { [`link_${i}_${h}`]: 1, [`cpu_${h}`]: 1, [`need_${i}`]: 1, [`yield_${i}`]: 1 };
    }
  });
  // Equal-allocation constraints need the first task's a-variables too.
  tasks.forEach((t, i) => {
    const f = firstTask.get(t.job)!;
    if (f === i || !(t.cpuNeed > NEGLIGIBLE)) return;
    const hmaxI = sym ? Math.min(H - 1, i) : H - 1;
    const hmaxF = sym ? Math.min(H - 1, f) : H - 1;
    for (let h = 0; h <= hmaxI; h++) variables[a(i, h)][`same_${i}`] = 1;
    for (let h = 0; h <= hmaxF; h++) variables[a(f, h)][`same_${i}`] = -1;
  });
  const model: LpModel = { optimize: 'Y', opType: 'max', constraints, variables };
  if (!options.relax) model.binaries = binaries;
  return model;
}

const b = (t: number, h: number) => `b_${t}_${h}`;

/**
 * The rational relaxation of section 3.1 (the model above without binaries)
 * written in the variables a[t,h] and b[t,h] = e[t,h] - a[t,h] >= 0, the part
 * of t's placement share on h that gets no CPU. Substituting e = a + b:
 *   sum_h (a[t,h] + b[t,h]) = 1                   (one_t)
 *   sum_t a[t,h] <= 1                             (cpu_h)
 *   sum_t m_t (a[t,h] + b[t,h]) <= 1              (mem_h)
 *   sum_h a[t,h] <= c_t,  sum_h a[t,h] >= c_t Y   (need_t, yield_t)
 *   sum_h a[t,h] = sum_h a[t',h]                  (same_t)
 *   Y <= 1, a, b >= 0; maximise Y.
 * The link rows a <= e become the bounds b >= 0, and the rows e <= 1 are
 * implied by one_t (as they are in the paper's model), so the map
 * (e, a) -> (a, e - a) is a linear bijection between the two feasible sets: the
 * same optimum, and every vertex of one is a vertex of the other, so an
 * optimal vertex of this LP gives an optimal vertex e = a + b of the paper's
 * relaxation (test/vcsched/lp-engines.test.ts checks both on seeded instances).
 * It has 3 x tasks + 2 x hosts rows (sequential jobs) instead of
 * tasks x (hosts + 3) + 2 x hosts: 33,628 rows for 500 tasks on 64 hosts become
 * 1,628, and HiGHS' dual simplex solves it in about a tenth of the time its
 * interior point method (the faster one there) takes on the paper's form.
 * Negligible needs and memory are left out as in `buildVcschedModel`. Built
 * in column form (a 500-task relaxation has 64,001 columns), with the rows
 * and columns in the order the JSON form would have them.
 */
export function buildVcschedRelaxation(inst: VcInstance): ColumnLpModel {
  checkInstance(inst);
  const tasks = instanceTasks(inst);
  const H = inst.hosts;
  const lp = new ColumnLpBuilder('max', 'Y');
  const firstTask = new Map<number, number>();
  tasks.forEach((t, i) => {
    if (!firstTask.has(t.job)) firstTask.set(t.job, i);
  });
  const hasNeed = (i: number) => tasks[i].cpuNeed > NEGLIGIBLE;
  const hasMem = (i: number) => tasks[i].mem > NEGLIGIBLE;
  // Rows, in the order of buildVcschedModel's.
  const ymax = lp.row('Ymax', { max: 1 });
  const cpu = new Int32Array(H);
  const mem = new Int32Array(H);
  for (let h = 0; h < H; h++) {
    cpu[h] = lp.row(`cpu_${h}`, { max: 1 });
    mem[h] = lp.row(`mem_${h}`, { max: 1 });
  }
  const one = new Int32Array(tasks.length);
  const need = new Int32Array(tasks.length).fill(-1);
  const yld = new Int32Array(tasks.length).fill(-1);
  const same = new Int32Array(tasks.length).fill(-1);
  // The tasks whose same-row the first task of their job enters with -1.
  const later: number[][] = tasks.map(() => []);
  tasks.forEach((t, i) => {
    one[i] = lp.row(`one_${i}`, { equal: 1 });
    if (!hasNeed(i)) return;
    need[i] = lp.row(`need_${i}`, { max: t.cpuNeed });
    yld[i] = lp.row(`yield_${i}`, { min: 0 }); // sum_h a - c Y >= 0
    const f = firstTask.get(t.job)!;
    if (f !== i) {
      same[i] = lp.row(`same_${i}`, { equal: 0 }); // sum_h a[i,h] - sum_h a[f,h] = 0
      later[f].push(i);
    }
  });
  lp.entry(ymax, 1);
  tasks.forEach((t, i) => {
    if (yld[i] >= 0) lp.entry(yld[i], -t.cpuNeed);
  });
  lp.column('Y', 1);
  tasks.forEach((t, i) => {
    for (let h = 0; h < H; h++) {
      lp.entry(one[i], 1);
      if (hasMem(i)) lp.entry(mem[h], t.mem);
      lp.column(b(i, h));
      if (!hasNeed(i)) continue;
      lp.entry(one[i], 1);
      lp.entry(cpu[h], 1);
      lp.entry(need[i], 1);
      lp.entry(yld[i], 1);
      if (hasMem(i)) lp.entry(mem[h], t.mem);
      if (same[i] >= 0) lp.entry(same[i], 1);
      for (const k of later[i]) lp.entry(same[k], -1);
      lp.column(a(i, h));
    }
  });
  return lp.build();
}

/**
 * A placement that fits in memory by first fit over tasks in decreasing
 * memory order, or null. Finding one proves the instance feasible (CPU can
 * always be shared at some yield); not finding one proves nothing.
 */
export function memoryFirstFit(inst: VcInstance): number[] | null {
  const tasks = instanceTasks(inst);
  const order = tasks.map((_, i) => i).sort((x, y) => tasks[y].mem - tasks[x].mem || x - y);
  const used = new Float64Array(inst.hosts);
  const placement = new Array<number>(tasks.length).fill(-1);
  for (const i of order) {
    let h = 0;
    while (h < inst.hosts && used[h] + tasks[i].mem > 1 + 1e-9) h++;
    if (h === inst.hosts) return null;
    used[h] += tasks[i].mem;
    placement[i] = h;
  }
  return placement;
}

/** Solve the MILP exactly (within the time limit) and verify the answer. */
export function solveVcschedMilp(inst: VcInstance, options: MilpOptions = {}): MilpResult {
  const timeLimit = options.timeLimitSeconds ?? 60;
  const model = buildVcschedModel(inst, { symmetryBreaking: options.symmetryBreaking });
  const run = runLp(model, timeLimit, { engine: options.engine, nodeLimit: options.nodeLimit });
  const tasks = instanceTasks(inst);
  const base = { solverObjective: run.objective, seconds: run.seconds };
  if (run.status === 'failure' || run.status === 'unbounded') {
    // The solver threw, or its answer breaks the model (Y <= 1 makes it bounded): never read a value out of it.
    return { status: 'invalid', minYield: null, placement: null, ...base, message: `solver ${run.status}: ${run.message ?? ''}` };
  }
  if (!run.feasible) {
    if (run.timedOut) return { status: 'unknown', minYield: null, placement: null, ...base, ...(run.message ? { message: run.message } : {}) };
    // An infeasibility verdict has no solution to check; refute it when a simple packing fits in memory.
    const witness = memoryFirstFit(inst);
    if (witness) {
      return { status: 'invalid', minYield: null, placement: null, ...base, message: `solver reports infeasible, but placement [${witness.join(', ')}] fits in memory` };
    }
    return { status: 'infeasible', minYield: null, placement: null, ...base };
  }
  // Read the placement back and verify integrality, memory, and the objective.
  const placement: number[] = [];
  for (let i = 0; i < tasks.length; i++) {
    let host = -1;
    let nonInteger = false;
    for (let h = 0; h < inst.hosts; h++) {
      const v = lpValue(run, e(i, h));
      if (Math.abs(v - Math.round(v)) > 1e-6) nonInteger = true;
      if (v > 0.5) host = host < 0 ? h : -2;
    }
    if (nonInteger || host < 0) {
      const status: MilpStatus = run.timedOut ? 'unknown' : 'invalid';
      return { status, minYield: null, placement: null, ...base, message: `task ${i} has no integral host in the solver's answer` };
    }
    placement.push(host);
  }
  if (!placementFitsMemory(inst, placement)) {
    return { status: 'invalid', minYield: null, placement: null, ...base, message: 'solver placement exceeds host memory' };
  }
  const y = placementYield(inst, placement);
  if (invariantChecksEnabled()) verifyVcAllocation(inst, uniformYieldAllocation(inst, placement, y), { minYield: y, algorithm: 'MILP' });
  if (run.timedOut) return { status: 'feasible', minYield: y, placement, ...base, ...(run.message ? { message: run.message } : {}) };
  if (Math.abs(y - run.objective) > 1e-6) {
    return {
      status: 'invalid',
      minYield: y,
      placement,
      ...base,
      message: `solver objective ${run.objective} differs from the placement's yield ${y}`,
    };
  }
  return { status: 'optimal', minYield: y, placement, ...base };
}

/** The LP relaxation of a VCSched instance: its bound and fractional placement. */
export interface LpRelaxationResult {
  /** True only when the solver found the optimum and it checked out (status 'optimal'). */
  feasible: boolean;
  /**
   * The solver's status, checked: 'optimal' also means that the optimum
   * equals the closed-form relaxation optimum (bounds/vcsched.ts); an answer
   * that disagrees with it, or an infeasibility verdict on an instance whose
   * memory fits, is 'failure'.
   */
  status: LpStatus;
  message?: string;
  /** Optimal Y of the relaxation (an upper bound on the MILP optimum). */
  minYield: number | null;
  /** Fractional e[t][h] of the solver's optimal vertex, a[t,h] + b[t,h] (used by RRND/RRNZ). */
  fractions: number[][] | null;
  seconds: number;
}

/**
 * Solve the rational relaxation of the MILP (javascript-lp-solver by default:
 * small instances only) in its compact form (`buildVcschedRelaxation`; HiGHS:
 * dual simplex; `method: 'ipm'`: interior point then crossover, another
 * optimal vertex) and read e = a + b back.
 */
export function solveVcschedLp(inst: VcInstance, options: { engine?: LpEngine; method?: 'dual-simplex' | 'ipm' } = {}): LpRelaxationResult {
  const model = buildVcschedRelaxation(inst);
  const run = runLp(model, undefined, { engine: options.engine, lpMethod: options.method ?? 'dual-simplex' });
  const closedForm = vcschedRelaxedMinYield(inst);
  let status = run.status;
  let message = run.message;
  if (status === 'infeasible' && closedForm !== null) {
    status = 'failure';
    message = `solver reports the relaxation infeasible, but total memory fits (closed-form optimum ${closedForm})`;
  } else if (status === 'optimal' && (closedForm === null || Math.abs(run.objective - closedForm) > 1e-6)) {
    status = 'failure';
    message = `solver optimum ${run.objective} differs from the closed-form optimum ${closedForm}`;
  }
  if (status !== 'optimal') {
    return { feasible: false, status, ...(message !== undefined ? { message } : {}), minYield: null, fractions: null, seconds: run.seconds };
  }
  const tasks = instanceTasks(inst);
  const fractions = tasks.map((_, i) => {
    const row: number[] = [];
    for (let h = 0; h < inst.hosts; h++) row.push(Math.max(0, lpValue(run, a(i, h)) + lpValue(run, b(i, h))));
    return row;
  });
  return { feasible: true, status, minYield: run.objective, fractions, seconds: run.seconds };
}
