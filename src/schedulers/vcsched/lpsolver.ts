/**
 * Thin typed wrapper around javascript-lp-solver (JSON models, simplex +
 * branch-and-cut), shared by the VCSched MILP/LP and DFRS's opt=avg LP.
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
 * The time limit only stops branch-and-cut (MILPs); a pure LP's simplex runs
 * to the end, and a run that ends after the limit is still reported as
 * 'timeout'.
 */
// eslint-disable-next-line @typescript-eslint/no-var-requires
import { InputError } from '../../util/errors';

const lpSolver: { Solve(model: LpModel, precision?: number, full?: boolean): Record<string, number | boolean | undefined> } =
  require('javascript-lp-solver');

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

/** Test hook: replaces the library (to simulate solver faults). Undefined: the real solver. */
let solveImpl: ((model: LpModel) => Record<string, number | boolean | undefined>) | undefined;

/**
 * Replace the solver for tests (fault injection); call with undefined to
 * restore javascript-lp-solver.
 */
export function setLpSolverForTesting(fn: ((model: LpModel) => Record<string, number | boolean | undefined>) | undefined): void {
  solveImpl = fn;
}

/** Absolute tolerance of the solution check, scaled by the size of the numbers involved. */
const CHECK_TOLERANCE = 1e-6;

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
  const integrality = options.integrality ?? true;
  const value = (name: string): number => {
    const v = values[name];
    return typeof v === 'number' ? v : 0;
  };
  const rows = new Map<string, { sum: number; scale: number }>();
  for (const [name, coefs] of Object.entries(model.variables)) {
    const x = value(name);
    if (!Number.isFinite(x)) return `variable ${name} = ${x}`;
    if (x < -tolerance) return `variable ${name} = ${x} < 0`;
    if (integrality && (model.binaries?.[name] || model.ints?.[name]) && Math.abs(x - Math.round(x)) > tolerance) return `integer variable ${name} = ${x}`;
    if (model.binaries?.[name] && (x < -tolerance || x > 1 + tolerance)) return `binary variable ${name} = ${x}`;
    for (const [row, c] of Object.entries(coefs)) {
      const r = rows.get(row) ?? { sum: 0, scale: 1 };
      r.sum += c * x;
      r.scale = Math.max(r.scale, Math.abs(c * x));
      rows.set(row, r);
    }
  }
  for (const [row, bound] of Object.entries(model.constraints)) {
    const r = rows.get(row) ?? { sum: 0, scale: 1 };
    const tol = tolerance * Math.max(r.scale, Math.abs(bound.max ?? 0), Math.abs(bound.min ?? 0), Math.abs(bound.equal ?? 0), 1);
    if (bound.max !== undefined && r.sum > bound.max + tol) return `constraint ${row}: ${r.sum} > max ${bound.max}`;
    if (bound.min !== undefined && r.sum < bound.min - tol) return `constraint ${row}: ${r.sum} < min ${bound.min}`;
    if (bound.equal !== undefined && Math.abs(r.sum - bound.equal) > tol) return `constraint ${row}: ${r.sum} ≠ ${bound.equal}`;
  }
  return null;
}

/** The objective of `values` for `model` (Σ coefficient × value over the variables). */
export function lpObjective(model: LpModel, values: Record<string, number | boolean | undefined>): number {
  let s = 0;
  for (const [name, coefs] of Object.entries(model.variables)) {
    const v = values[name];
    if (typeof v === 'number' && coefs[model.optimize] !== undefined) s += coefs[model.optimize] * v;
  }
  return s;
}

/** Solve a model, measuring wall-clock time. `timeLimitSeconds` applies to branch-and-cut. */
export function runLp(model: LpModel, timeLimitSeconds?: number): LpRun {
  const m: LpModel = { ...model };
  if (timeLimitSeconds !== undefined) {
    if (!(timeLimitSeconds > 0)) throw new InputError(`runLp: timeLimitSeconds must be > 0, got ${timeLimitSeconds}`, { source: 'runLp', field: 'timeLimitSeconds' });
    m.timeout = Math.max(1, Math.round(timeLimitSeconds * 1000));
    m.options = { ...(m.options ?? {}), timeout: m.timeout };
  }
  const t0 = process.hrtime.bigint();
  let raw: Record<string, number | boolean | undefined>;
  try {
    raw = solveImpl ? solveImpl(m) : lpSolver.Solve(m);
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
  const timedOut = timeLimitSeconds !== undefined && seconds >= timeLimitSeconds * 0.98;
  const run: LpRun = { raw, feasible, objective, seconds, timedOut, status: 'optimal' };
  if (timedOut) {
    run.status = 'timeout';
    run.message = `time limit of ${timeLimitSeconds} s reached after ${seconds.toFixed(3)} s`;
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
    const violation = lpSolutionViolation(model, raw);
    if (violation && run.status === 'timeout' && !lpSolutionViolation(model, raw, CHECK_TOLERANCE, { integrality: false })) {
      // On a time-out the library hands back the values of its last node flagged
      // feasible, which may be a fractional relaxation: no integral incumbent, not a fault.
      run.feasible = false;
      run.message += `; no integral incumbent (${violation})`;
    } else if (violation) {
      run.status = 'failure';
      run.message = `solution does not check: ${violation}`;
    } else if (run.status === 'optimal') {
      const recomputed = lpObjective(model, raw);
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
