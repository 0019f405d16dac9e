/**
 * Thin typed wrapper around javascript-lp-solver (JSON models, simplex +
 * branch-and-cut). The wrapper adds a wall-clock measurement and a
 * "did it hit the time limit" flag: the library itself silently returns its
 * incumbent (or nothing) when its timeout expires, so callers must not read
 * an optimum out of a timed-out run.
 */
// eslint-disable-next-line @typescript-eslint/no-var-requires
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

export interface LpRun {
  /** The library's answer: feasible flag, objective `result`, variable values (absent = 0). */
  raw: Record<string, number | boolean | undefined>;
  feasible: boolean;
  objective: number;
  seconds: number;
  /** True when the run lasted at least the time limit (its answer is then not proven optimal). */
  timedOut: boolean;
}

/** Solve a model, measuring wall-clock time. `timeLimitSeconds` applies to branch-and-cut. */
export function runLp(model: LpModel, timeLimitSeconds?: number): LpRun {
  const m: LpModel = { ...model };
  if (timeLimitSeconds !== undefined) {
    m.timeout = Math.max(1, Math.round(timeLimitSeconds * 1000));
    m.options = { ...(m.options ?? {}), timeout: m.timeout };
  }
  const t0 = process.hrtime.bigint();
  const raw = lpSolver.Solve(m);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const feasible = raw.feasible === true;
  const objective = typeof raw.result === 'number' ? raw.result : NaN;
  // The library checks its deadline only between branch-and-bound nodes; any run
  // that reached the limit may have stopped early. 2% margin for timer granularity.
  const timedOut = timeLimitSeconds !== undefined && seconds >= timeLimitSeconds * 0.98;
  return { raw, feasible, objective, seconds, timedOut };
}

/** Value of a variable in a solution (the library omits zero-valued variables). */
export function lpValue(run: LpRun, name: string): number {
  const v = run.raw[name];
  return typeof v === 'number' ? v : 0;
}
