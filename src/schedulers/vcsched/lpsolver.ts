/**
 * The LP/MILP seam shared by the VCSched MILP/LP and DFRS's opt=avg LP: one
 * JSON model format (javascript-lp-solver's) and two engines, chosen per call
 * by measurement (bench/vcsched.ts, bench/results/vcsched.json):
 *  - 'javascript-lp-solver' (default): synchronous, no start-up cost; fastest
 *    on tiny LPs, hopeless on the 64-host relaxations and slow on 4 x 12 MILPs;
 *  - 'highs': HiGHS compiled to WebAssembly (npm `highs`, wasm inside the
 *    package). Loading is asynchronous, so `await loadLpEngine('highs')` once
 *    per thread before a synchronous solve; asking for it unloaded throws.
 *    The package runs HiGHS with one thread (threads=1, parallel=off) and we
 *    set no time limit unless one is given, so the same model gives the same
 *    values bit for bit (tested); `nodeLimit` (branch-and-bound nodes) is the
 *    deterministic way to bound a MILP, a time limit makes the answer depend
 *    on the machine's speed.
 *
 * The library answers with a bare `{ feasible, result, bounded, ...values }`
 * and is silent about most things that can go wrong, so the wrapper turns
 * every answer into a {@link LpStatus}:
 *  - it catches exceptions thrown by the library ('failure');
 *  - it flags runs that reached the time limit ('timeout'): the library
 *    checks its deadline only between branch-and-bound nodes and then
 *    silently returns its incumbent (or nothing), so callers must not read
 *    an optimum out of a timed-out run;
 *  - it reports infeasible and unbounded models as such;
 *  - it checks every claimed solution against the model — each constraint
 *    within a tolerance, integrality of binaries/integers, and the objective
 *    recomputed from the values — and reports a solution that does not check
 *    as 'failure' with the first violation in `message`.
 * javascript-lp-solver's time limit only stops branch-and-cut (MILPs); a pure LP's simplex runs
 * to the end, and a run that ends after the limit is still reported as
 * 'timeout'.
 */
import type { Highs, ModelData } from 'highs';
import { InputError } from '../../util/errors';

const lpSolver: { Solve(model: LpModel, precision?: number, full?: boolean): Record<string, number | boolean | undefined> } =
  require('javascript-lp-solver');

/** A linear program as a JSON model: objective, direction, constraints and variables. */
export interface LpModel {
  optimize: string;
  opType: 'max' | 'min';
  constraints: Record<string, { min?: number; max?: number; equal?: number }>;
  variables: Record<string, Record<string, number>>;
  binaries?: Record<string, 1>;
  ints?: Record<string, 1>;
  /** Branch-and-cut time limit in milliseconds (library option). */
  timeout?: number;
  options?: { timeout?: number; tolerance?: number; presolve?: boolean };
}

/**
 * optimal: solved and the solution checks out; infeasible: no solution
 * exists (as far as the solver can tell); unbounded: the objective is
 * unbounded; timeout: the time limit was reached (any values are an
 * unproven incumbent); failure: the library threw, or returned values that
 * break the model or disagree with its objective.
 */
export type LpStatus = 'optimal' | 'infeasible' | 'unbounded' | 'timeout' | 'failure';

/** An LP engine's answer: status, objective, variable values and time. */
export interface LpRun {
  /** The library's answer: feasible flag, objective `result`, variable values (absent = 0). */
  raw: Record<string, number | boolean | undefined>;
  /** The solver claims a solution (also for a timed-out incumbent). */
  feasible: boolean;
  objective: number;
  seconds: number;
  /** True when the run lasted at least the time limit (its answer is then not proven optimal). */
  timedOut: boolean;
  status: LpStatus;
  /** Why the status is not 'optimal' (first violated constraint, exception text, …). */
  message?: string;
}

/** An LP engine: javascript-lp-solver or HiGHS. */
export type LpEngine = 'javascript-lp-solver' | 'highs';
/** LP engines the VCSched code can use. */
export const LP_ENGINES: readonly LpEngine[] = ['javascript-lp-solver', 'highs'];

/** Options of `runLp`: engine, branch-and-bound node limit and LP method. */
export interface RunLpOptions {
  /** Default 'javascript-lp-solver'. */
  engine?: LpEngine;
  /** Branch-and-bound node limit (HiGHS only; reaching it is a 'timeout', the same on every machine). */
  nodeLimit?: number;
  /**
   * HiGHS' method for a pure LP: 'ipm' (default: interior point, then
   * crossover to a vertex) or 'dual-simplex' (without presolve). Both answer
   * with an optimal vertex; which one, when several are optimal, depends on
   * the method. MILPs ignore it.
   */
  lpMethod?: 'ipm' | 'dual-simplex';
}

let highs: Highs | undefined;
let highsLoading: Promise<Highs> | undefined;

/** Load an engine (instantiates HiGHS' WebAssembly once per thread; javascript-lp-solver needs nothing). */
export async function loadLpEngine(engine: LpEngine): Promise<void> {
  checkEngine(engine);
  if (engine !== 'highs' || highs) return;
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  highsLoading ??= (require('highs') as (o?: object) => Promise<Highs>)();
  highs = await highsLoading;
}

/** True once `loadLpEngine(engine)` has finished in this thread (javascript-lp-solver: always). */
export function lpEngineLoaded(engine: LpEngine): boolean {
  return engine !== 'highs' || highs !== undefined;
}

function checkEngine(engine: unknown): asserts engine is LpEngine {
  if (!LP_ENGINES.includes(engine as LpEngine)) {
    throw new InputError(`runLp: unknown engine '${String(engine)}' (expected ${LP_ENGINES.join(' or ')})`, { source: 'runLp', field: 'engine' });
  }
}

/**
 * An LP in column form: variables >= 0, the constraint matrix by columns
 * (CSC), no integer variables. `runLp` reads a JSON model into this form
 * once and converts, checks and evaluates from it; a caller building an LP
 * with tens of thousands of columns can hand it this form directly
 * (`ColumnLpBuilder`) and skip the objects, whose construction and reading
 * cost as much as the solve on the 64-host relaxations. The JSON form
 * (`lpModelFromColumns`) is built only for javascript-lp-solver and the
 * test hook.
 */
export interface ColumnLpModel {
  format: 'columns';
  opType: 'max' | 'min';
  /** Name of the objective (its key in the JSON form). */
  optimize: string;
  cols: string[];
  /** Objective coefficient per column. */
  cost: Float64Array;
  rows: string[];
  bounds: { min?: number; max?: number; equal?: number }[];
  /** Column j's nonzero entries are k = starts[j] .. starts[j + 1] - 1: coefficient coef[k] in row rowOf[k]. */
  starts: Int32Array;
  rowOf: Int32Array;
  coef: Float64Array;
}

function isColumnModel(model: LpModel | ColumnLpModel): model is ColumnLpModel {
  return (model as ColumnLpModel).format === 'columns';
}

/** Builds a `ColumnLpModel` row by row, then column by column (entries of a column, then the column). */
export class ColumnLpBuilder {
  private readonly rows: string[] = [];
  private readonly bounds: ColumnLpModel['bounds'] = [];
  private readonly cols: string[] = [];
  private readonly cost: number[] = [];
  private readonly starts: number[] = [0];
  private readonly rowOf: number[] = [];
  private readonly coef: number[] = [];

  constructor(
    private readonly opType: 'max' | 'min',
    private readonly optimize: string,
  ) {}

  /** Add a constraint row; returns its index. */
  row(name: string, bound: { min?: number; max?: number; equal?: number }): number {
    this.bounds.push(bound);
    return this.rows.push(name) - 1;
  }

  /** Add an entry to the next column (zero coefficients are left out). */
  entry(row: number, coef: number): void {
    if (coef === 0) return;
    this.rowOf.push(row);
    this.coef.push(coef);
  }

  /** Close the column with the entries added since the previous one. */
  column(name: string, cost = 0): void {
    this.cols.push(name);
    this.cost.push(cost);
    this.starts.push(this.rowOf.length);
  }

  build(): ColumnLpModel {
    return {
      format: 'columns',
      opType: this.opType,
      optimize: this.optimize,
      cols: this.cols,
      cost: Float64Array.from(this.cost),
      rows: this.rows,
      bounds: this.bounds,
      starts: Int32Array.from(this.starts),
      rowOf: Int32Array.from(this.rowOf),
      coef: Float64Array.from(this.coef),
    };
  }
}

/** The column form of a JSON model (its binaries and integers are not carried over). */
export function columnsFromLpModel(model: LpModel): ColumnLpModel {
  const cols = Object.keys(model.variables);
  const rows = Object.keys(model.constraints);
  const rowIndex = new Map<string, number>();
  rows.forEach((r, i) => rowIndex.set(r, i));
  const starts = new Int32Array(cols.length + 1);
  const rowOf: number[] = [];
  const coef: number[] = [];
  const cost = new Float64Array(cols.length);
  for (let j = 0; j < cols.length; j++) {
    const coefs = model.variables[cols[j]];
    for (const r of Object.keys(coefs)) {
      const v = coefs[r];
      if (r === model.optimize) cost[j] = v;
      const i = rowIndex.get(r);
      if (i !== undefined && v !== 0) {
        rowOf.push(i);
        coef.push(v);
      }
    }
    starts[j + 1] = rowOf.length;
  }
  return {
    format: 'columns',
    opType: model.opType,
    optimize: model.optimize,
    cols,
    cost,
    rows,
    bounds: rows.map((r) => model.constraints[r]),
    starts,
    rowOf: Int32Array.from(rowOf),
    coef: Float64Array.from(coef),
  };
}

/** The JSON form of a column model (objective coefficient first in each variable, then its entries in order). */
export function lpModelFromColumns(c: ColumnLpModel): LpModel {
  // Objects without a prototype are dictionaries from the start: adding keys that differ from
  // object to object to plain objects made V8 build a hidden class for each (most of the time of
  // DFRS opt=avg's thousands of small LPs). Same keys in the same order.
  const constraints: LpModel['constraints'] = Object.create(null);
  c.rows.forEach((r, i) => (constraints[r] = { ...c.bounds[i] }));
  const variables: LpModel['variables'] = Object.create(null);
  for (let j = 0; j < c.cols.length; j++) {
    const v: Record<string, number> = Object.create(null);
    if (c.cost[j] !== 0) v[c.optimize] = c.cost[j];
    for (let k = c.starts[j]; k < c.starts[j + 1]; k++) v[c.rows[c.rowOf[k]]] = c.coef[k];
    variables[c.cols[j]] = v;
  }
  return { optimize: c.optimize, opType: c.opType, constraints, variables };
}

/** Binary and integer variables of a JSON model, by column. */
interface Integrality {
  binaries?: Record<string, 1>;
  ints?: Record<string, 1>;
}

/** javascript-lp-solver's answer shape ({ feasible, result, bounded, ...values }) from HiGHS, and the column values (compiled order). */
function solveWithHighs(
  compiled: ColumnLpModel,
  integ: Integrality,
  timeLimitSeconds: number | undefined,
  nodeLimit: number | undefined,
  lpMethod: 'ipm' | 'dual-simplex',
): { raw: Record<string, number | boolean | undefined>; x: ArrayLike<number> | null; limit: boolean; message?: string } {
  if (!highs) throw new InputError("runLp: engine 'highs' is not loaded; await loadLpEngine('highs') first", { source: 'runLp', field: 'engine' });
  const h = highs;
  const { cols, rows: allRows, bounds, starts: colStarts, rowOf, coef } = compiled;
  const bound = (i: number, side: 'min' | 'max') => {
    const b = bounds[i];
    return b.equal ?? b[side] ?? (side === 'min' ? -h.infinity : h.infinity);
  };
  // Rows with one variable become bounds on it (e <= 1 of the relaxation, Y <= 1): 1.5x faster on the 64-host LPs.
  const entriesPerRow = new Int32Array(allRows.length);
  for (let k = 0; k < rowOf.length; k++) entriesPerRow[rowOf[k]]++;
  const hsRow = new Int32Array(allRows.length).fill(-1);
  const rows: number[] = [];
  allRows.forEach((_, i) => {
    if (entriesPerRow[i] !== 1) hsRow[i] = rows.push(i) - 1;
  });
  const starts = new Int32Array(cols.length + 1);
  const indices = new Int32Array(rowOf.length);
  const values = new Float64Array(rowOf.length);
  let nnz = 0;
  const colLower = new Float64Array(cols.length);
  const colUpper = new Float64Array(cols.length).fill(h.infinity);
  const integrality = new Int32Array(cols.length);
  for (let j = 0; j < cols.length; j++) {
    const c = cols[j];
    if (integ.binaries?.[c]) colUpper[j] = 1;
    const first = nnz;
    for (let k = colStarts[j]; k < colStarts[j + 1]; k++) {
      const v = coef[k];
      const i = hsRow[rowOf[k]];
      if (i >= 0) {
        // insertion sort: HiGHS wants each column's rows in increasing order
        let at = nnz++;
        while (at > first && indices[at - 1] > i) {
          indices[at] = indices[at - 1];
          values[at] = values[at - 1];
          at--;
        }
        indices[at] = i;
        values[at] = v;
      } else {
        const r = rowOf[k];
        const [lo, hi] = v > 0 ? [bound(r, 'min') / v, bound(r, 'max') / v] : [bound(r, 'max') / v, bound(r, 'min') / v];
        colLower[j] = Math.max(colLower[j], lo);
        colUpper[j] = Math.min(colUpper[j], hi);
      }
    }
    starts[j + 1] = nnz;
    if (integ.binaries?.[c] || integ.ints?.[c]) integrality[j] = 1;
  }
  // Bounds that cross (a singleton row contradicting x >= 0) make the model infeasible, as the row did.
  const crossed = colLower.some((lo, j) => lo > colUpper[j]);
  const mip = integrality.some((x) => x === 1);
  const data: ModelData = {
    numCols: cols.length,
    numRows: rows.length,
    sense: compiled.opType === 'max' ? h.constants.objectiveSense.maximize : h.constants.objectiveSense.minimize,
    colCost: compiled.cost,
    colLower,
    colUpper,
    rowLower: Float64Array.from(rows, (r) => bound(r, 'min')),
    rowUpper: Float64Array.from(rows, (r) => bound(r, 'max')),
    matrix: { format: 'csc', numRows: rows.length, numCols: cols.length, starts, indices: indices.slice(0, nnz), values: values.slice(0, nnz) },
    ...(mip ? { integrality } : {}),
  };
  const S = h.constants.modelStatus;
  const run = (presolve: 'choose' | 'off', method = lpMethod) => {
    const m = h.createModel();
    try {
      // Optimality gaps at 0 so 'optimal' means optimal (HiGHS stops at a 1e-4 relative gap by default).
      m.options.set({ output_flag: false, presolve, mip_rel_gap: 0, mip_abs_gap: 1e-9 });
      // Interior point then crossover (a vertex): 1.6-3x faster than dual simplex on the paper's 64-host relaxation
      // (bench/vcsched.ts). The dual simplex wins on the compact relaxation (milp.ts), where presolve removes nothing.
      if (!mip && method === 'ipm') m.options.set({ solver: 'ipm', run_crossover: 'on' });
      if (!mip && method === 'dual-simplex') m.options.set({ solver: 'simplex', simplex_strategy: 1, presolve: 'off' });
      if (timeLimitSeconds !== undefined) m.options.set('time_limit', timeLimitSeconds);
      if (nodeLimit !== undefined) m.options.set('mip_max_nodes', nodeLimit);
      m.passModel(data);
      const status = m.run().modelStatus;
      const hasPrimal = m.info.get('primal_solution_status') === h.constants.solutionStatus.feasible;
      const x = hasPrimal ? m.getSolution().colValue : null;
      return { status, x, objective: hasPrimal ? m.getObjectiveValue() : NaN };
    } finally {
      m.dispose();
    }
  };
  let r = crossed ? { status: S.infeasible, x: null, objective: NaN } : run('choose');
  // Presolve may only say "infeasible or unbounded": without it the simplex tells which.
  if (r.status === S.unboundedOrInfeasible) r = run('off');
  // An LP method can end in "unknown" (the dual simplex without presolve did on one large-set relaxation of
  // notebook 02): the other method is asked then, and only then, so every other answer stays as it was.
  if (r.status === S.unknown && !mip) r = run('choose', lpMethod === 'ipm' ? 'dual-simplex' : 'ipm');
  const raw: Record<string, number | boolean | undefined> = {};
  if (r.x) for (let j = 0; j < cols.length; j++) raw[cols[j]] = r.x[j];
  const limit = r.status === S.timeLimit || r.status === S.iterationLimit || r.status === S.solutionLimit || r.status === S.interrupted;
  if (r.status === S.optimal || (limit && r.x)) {
    raw.feasible = true;
    raw.result = r.objective;
  } else if (r.status === S.unbounded) {
    raw.feasible = true;
    raw.bounded = false;
    raw.result = compiled.opType === 'max' ? Infinity : -Infinity;
  } else if (r.status === S.infeasible || limit) {
    raw.feasible = false;
  } else {
    throw new Error(`HiGHS model status ${r.status}`);
  }
  return { raw, x: r.x, limit, ...(limit ? { message: `HiGHS stopped at a limit (model status ${r.status}${nodeLimit !== undefined ? `, node limit ${nodeLimit}` : ''}${timeLimitSeconds !== undefined ? `, time limit ${timeLimitSeconds} s` : ''})` } : {}) };
}

type RawAnswer = Record<string, number | boolean | undefined>;

/** Test hook: replaces the engines (to simulate solver faults). Undefined: the real solver. */
let solveImpl: ((model: LpModel, engine: LpEngine) => RawAnswer | undefined) | undefined;

/**
 * Replace the solver for tests (fault injection); call with undefined to
 * restore the real engines. The hook sees the JSON model (a column model is
 * converted for it) and which engine was asked for, and may return undefined
 * to let that engine answer.
 */
export function setLpSolverForTesting(fn: ((model: LpModel, engine: LpEngine) => RawAnswer | undefined) | undefined): void {
  solveImpl = fn;
}

/** True while a test hook replaces the engines (callers with a solver of their own route through runLp then). */
export function lpSolverReplacedForTesting(): boolean {
  return solveImpl !== undefined;
}

/** Absolute tolerance of the solution check, scaled by the size of the numbers involved. */
export const CHECK_TOLERANCE = 1e-6;

/**
 * The first way `values` breaks `model`, or null when it satisfies every
 * constraint (within `tolerance` × scale), every variable is ≥ 0, binaries
 * are 0/1 and integers integral. Variables absent from `values` are 0.
 */
export function lpSolutionViolation(
  model: LpModel,
  values: Record<string, number | boolean | undefined>,
  tolerance = CHECK_TOLERANCE,
  options: { integrality?: boolean } = {},
): string | null {
  const compiled = columnsFromLpModel(model);
  return compiledViolation(compiled, model, columnValues(compiled, values), tolerance, options.integrality ?? true);
}

/** The values of the compiled columns (absent or not a number: 0). */
function columnValues(compiled: ColumnLpModel, values: Record<string, number | boolean | undefined>): Float64Array {
  return Float64Array.from(compiled.cols, (name) => {
    const v = values[name];
    return typeof v === 'number' ? v : 0;
  });
}

/** `lpSolutionViolation` on a compiled model and column values. */
function compiledViolation(compiled: ColumnLpModel, integ: Integrality, x: ArrayLike<number>, tolerance: number, integrality: boolean): string | null {
  const { cols, rows, bounds, starts, rowOf, coef } = compiled;
  const sum = new Float64Array(rows.length);
  const scale = new Float64Array(rows.length).fill(1);
  for (let j = 0; j < cols.length; j++) {
    const name = cols[j];
    const v = x[j];
    if (!Number.isFinite(v)) return `variable ${name} = ${v}`;
    if (v < -tolerance) return `variable ${name} = ${v} < 0`;
    if (integrality && (integ.binaries?.[name] || integ.ints?.[name]) && Math.abs(v - Math.round(v)) > tolerance) return `integer variable ${name} = ${v}`;
    if (integ.binaries?.[name] && (v < -tolerance || v > 1 + tolerance)) return `binary variable ${name} = ${v}`;
    for (let k = starts[j]; k < starts[j + 1]; k++) {
      const t = coef[k] * v;
      const i = rowOf[k];
      sum[i] += t;
      if (Math.abs(t) > scale[i]) scale[i] = Math.abs(t);
    }
  }
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const bound = bounds[i];
    const tol = tolerance * Math.max(scale[i], Math.abs(bound.max ?? 0), Math.abs(bound.min ?? 0), Math.abs(bound.equal ?? 0), 1);
    if (bound.max !== undefined && sum[i] > bound.max + tol) return `constraint ${row}: ${sum[i]} > max ${bound.max}`;
    if (bound.min !== undefined && sum[i] < bound.min - tol) return `constraint ${row}: ${sum[i]} < min ${bound.min}`;
    if (bound.equal !== undefined && Math.abs(sum[i] - bound.equal) > tol) return `constraint ${row}: ${sum[i]} ≠ ${bound.equal}`;
  }
  return null;
}

/** The objective of `values` for `model` (Σ coefficient × value over the variables). */
export function lpObjective(model: LpModel, values: Record<string, number | boolean | undefined>): number {
  let s = 0;
  for (const name of Object.keys(model.variables)) {
    const c = model.variables[name][model.optimize];
    const v = values[name];
    if (typeof v === 'number' && c !== undefined) s += c * v;
  }
  return s;
}

/** `lpObjective` on a column model and its column values. */
function compiledObjective(compiled: ColumnLpModel, x: ArrayLike<number>): number {
  let s = 0;
  for (let j = 0; j < compiled.cols.length; j++) if (compiled.cost[j] !== 0) s += compiled.cost[j] * x[j];
  return s;
}

/**
 * Solve a model (JSON or column form), measuring wall-clock time.
 * `timeLimitSeconds` applies to branch-and-cut (and, with HiGHS, to the
 * simplex too).
 */
export function runLp(model: LpModel | ColumnLpModel, timeLimitSeconds?: number, options: RunLpOptions = {}): LpRun {
  const engine = options.engine ?? 'javascript-lp-solver';
  checkEngine(engine);
  if (options.nodeLimit !== undefined && !(Number.isInteger(options.nodeLimit) && options.nodeLimit > 0)) {
    throw new InputError(`runLp: nodeLimit must be a positive integer, got ${options.nodeLimit}`, { source: 'runLp', field: 'nodeLimit' });
  }
  if (timeLimitSeconds !== undefined && !(timeLimitSeconds > 0)) {
    throw new InputError(`runLp: timeLimitSeconds must be > 0, got ${timeLimitSeconds}`, { source: 'runLp', field: 'timeLimitSeconds' });
  }
  // The JSON model with the time limit in the library's fields (javascript-lp-solver and the test hook only).
  const jsonModel = (): LpModel => {
    const m: LpModel = { ...(isColumnModel(model) ? lpModelFromColumns(model) : model) };
    if (timeLimitSeconds !== undefined) {
      m.timeout = Math.max(1, Math.round(timeLimitSeconds * 1000));
      m.options = { ...(m.options ?? {}), timeout: m.timeout };
    }
    return m;
  };
  if (engine === 'highs' && !solveImpl && !highs) {
    throw new InputError("runLp: engine 'highs' is not loaded; await loadLpEngine('highs') first", { source: 'runLp', field: 'engine' });
  }
  const compiled = isColumnModel(model) ? model : columnsFromLpModel(model);
  const integ: Integrality = isColumnModel(model) ? {} : model;
  const t0 = process.hrtime.bigint();
  let raw: Record<string, number | boolean | undefined>;
  let x: ArrayLike<number> | null = null;
  let engineLimit: boolean | undefined;
  let limitMessage: string | undefined;
  try {
    const injected = solveImpl?.(jsonModel(), engine);
    if (injected !== undefined) raw = injected;
    else if (engine === 'highs') ({ raw, x, limit: engineLimit, message: limitMessage } = solveWithHighs(compiled, integ, timeLimitSeconds, options.nodeLimit, options.lpMethod ?? 'ipm'));
    else raw = lpSolver.Solve(jsonModel());
  } catch (e) {
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    return { raw: {}, feasible: false, objective: NaN, seconds, timedOut: false, status: 'failure', message: `solver threw: ${e instanceof Error ? e.message : String(e)}` };
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (raw === null || typeof raw !== 'object') {
    return { raw: {}, feasible: false, objective: NaN, seconds, timedOut: false, status: 'failure', message: `solver returned ${String(raw)}` };
  }
  const feasible = raw.feasible === true;
  const objective = typeof raw.result === 'number' ? raw.result : NaN;
  // The library checks its deadline only between branch-and-bound nodes; any run
  // that reached the limit may have stopped early. 2% margin for timer granularity.
  // HiGHS says when it stopped at a limit.
  const timedOut = engineLimit ?? (timeLimitSeconds !== undefined && seconds >= timeLimitSeconds * 0.98);
  const run: LpRun = { raw, feasible, objective, seconds, timedOut, status: 'optimal' };
  if (timedOut) {
    run.status = 'timeout';
    run.message = limitMessage ?? `time limit of ${timeLimitSeconds} s reached after ${seconds.toFixed(3)} s`;
  } else if (!feasible) {
    run.status = 'infeasible';
  } else if (raw.bounded === false || Math.abs(objective) === Infinity) {
    run.status = 'unbounded';
    run.message = `objective ${objective}`;
  } else if (!Number.isFinite(objective)) {
    run.status = 'failure';
    run.message = `objective is ${String(raw.result)}`;
  }
  // A claimed solution (also a timed-out incumbent) must satisfy the model.
  if (feasible && (run.status === 'optimal' || run.status === 'timeout')) {
    const values = x ?? columnValues(compiled, raw);
    const violation = compiledViolation(compiled, integ, values, CHECK_TOLERANCE, true);
    if (violation && run.status === 'timeout' && !compiledViolation(compiled, integ, values, CHECK_TOLERANCE, false)) {
      // On a time-out the library hands back the values of its last node flagged
      // feasible, which may be a fractional relaxation: no integral incumbent, not a fault.
      run.feasible = false;
      run.message += `; no integral incumbent (${violation})`;
    } else if (violation) {
      run.status = 'failure';
      run.message = `solution does not check: ${violation}`;
    } else if (run.status === 'optimal') {
      const recomputed = compiledObjective(compiled, values);
      if (Math.abs(recomputed - objective) > CHECK_TOLERANCE * Math.max(1, Math.abs(objective))) {
        run.status = 'failure';
        run.message = `reported objective ${objective} differs from the objective of its values ${recomputed}`;
      }
    }
  }
  return run;
}

/** Value of a variable in a solution (the library omits zero-valued variables). */
export function lpValue(run: LpRun, name: string): number {
  const v = run.raw[name];
  return typeof v === 'number' ? v : 0;
}
