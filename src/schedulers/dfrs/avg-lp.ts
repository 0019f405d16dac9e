/**
 * The opt=avg linear program's own solver: maximize c·x subject to A x ≤ b,
 * x ≥ 0, with b ≥ 0 (so x = 0 is feasible and no phase 1 is needed) — the
 * form of DFRS's LP (2) on z = y − lower (allocation.ts): ~14 columns, ~75
 * rows, solved ~2,700 times per simulated trace.
 *
 * Why a port and not a new algorithm: every committed opt=avg result of
 * notebook 01 came from javascript-lp-solver 1.0.3, and these LPs often
 * have several optimal vertices (all weights 1 under opt=avg): another
 * solver, or another pivot rule, may return another optimal vertex, hence
 * other yields and other schedules. So this is javascript-lp-solver's
 * dense tableau simplex (Tableau.phase2 and Tableau.pivot of its
 * dist/index.cjs) restricted to this form, operation for operation: the
 * same tableau layout (row 0 the costs, column 0 the right-hand sides, the
 * variables and rows in the caller's order), the same entering rule
 * (largest reduced cost above 1e-8, first on ties; partial pricing beyond
 * 100 columns; Bland's rule after 500 pivots without progress, as the
 * library), the same ratio test with its quirks (a degenerate row with a
 * positive entry leaves at once; quotients ≤ 1e-8 are skipped), the same
 * pivot with its 1e-16 zero tests, and the answer rounded to 8 decimals as
 * the library rounds it. Same floating-point operations in the same order,
 * so the same bits (tested against the library on random LPs of the real
 * shape and on LPs captured from simulations; the optimum against HiGHS).
 *
 * What it leaves out costs the library most of its time on LPs this small:
 * the JSON model and its objects (variables, constraints, terms), the
 * presolve (on this form it fixes no variable and finds nothing
 * infeasible, so it changes nothing), a new tableau per call, and the
 * cycle detector (it fires only when one pivot repeats the previous
 * (leaving, entering) pair, impossible since the leaving variable is then
 * non-basic). The tableau and its work arrays are reused from call to
 * call (the solver calls no user code, so it is never re-entered).
 */
import { InputError } from '../../util/errors';
import { CHECK_TOLERANCE } from '../vcsched/lpsolver';

/** javascript-lp-solver's default tolerance (Tableau precision). */
const PRECISION = 1e-8;
/** Its rounding of reported values: Math.round((ε + v) × 1e8) / 1e8. */
const ROUNDING = Math.round(1 / PRECISION);
/** Its pivot's zero test. */
const TINY = 1e-16;
/** Its phase 2 anti-cycling: a window of 100 pivots, Bland's rule after 5 windows without progress. */
const PHASE2_WINDOW = 100;
const PHASE2_STALE_LIMIT = 5;

/** A packing LP in column form: column j's entries k = starts[j] .. starts[j + 1] - 1 are coef[k] in row rowOf[k]. */
export interface PackingLp {
  rows: number;
  cols: number;
  starts: ArrayLike<number>;
  rowOf: ArrayLike<number>;
  coef: ArrayLike<number>;
  /** Right-hand side per row (≥ 0). */
  rhs: ArrayLike<number>;
  /** Objective coefficient per column (maximized). */
  cost: ArrayLike<number>;
}

/** What `solvePackingLp` returns: feasibility, the optimum and the variables' values (as javascript-lp-solver gives them). */
export interface PackingLpAnswer {
  /** 'unbounded' when a column with positive reduced cost has no limiting row (javascript-lp-solver's verdict too). */
  status: 'optimal' | 'unbounded';
  /** The objective as javascript-lp-solver reports it (`result`): the tableau's, rounded to 8 decimals. */
  objective: number;
  /** The tableau's objective before rounding. */
  tableauObjective: number;
  /** Column values as javascript-lp-solver reports them: basic ones rounded to 8 decimals, the others 0. Shared: valid until the next call. */
  x: Float64Array;
  /** Column values before rounding (shared, as `x`). */
  tableauX: Float64Array;
  /**
   * Every non-basic variable (column or slack) has a reduced cost below
   * −1e-9 at the end: no other point reaches the optimum (a sufficient
   * condition for a unique optimum; the tests compare yields there).
   */
  unique: boolean;
  pivots: number;
}

/** Working arrays, reused from call to call; grown on demand. */
const work = {
  matrix: new Float64Array(0),
  /** Variable in each row's basis (columns are 0 .. cols - 1, row i's slack is cols + i). */
  varOfRow: new Int32Array(0),
  /** Non-basic variable of each tableau column. */
  varOfCol: new Int32Array(0),
  nonZeroColumns: new Int32Array(0),
  pivotRowCache: new Float64Array(0),
  x: new Float64Array(0),
  tableauX: new Float64Array(0),
};

function grow(width: number, height: number, cols: number): void {
  if (work.matrix.length < width * height) work.matrix = new Float64Array(Math.max(width * height, 2 * work.matrix.length));
  if (work.varOfRow.length < height) work.varOfRow = new Int32Array(Math.max(height, 2 * work.varOfRow.length));
  if (work.varOfCol.length < width) {
    const size = Math.max(width, 2 * work.varOfCol.length);
    work.varOfCol = new Int32Array(size);
    work.nonZeroColumns = new Int32Array(size);
    work.pivotRowCache = new Float64Array(size);
  }
  if (work.x.length < cols) {
    const size = Math.max(cols, 2 * work.x.length);
    work.x = new Float64Array(size);
    work.tableauX = new Float64Array(size);
  }
}

/** javascript-lp-solver's pivot on (row, column): the same operations in the same order. */
function pivot(matrix: Float64Array, width: number, height: number, pivotRow: number, pivotColumn: number): void {
  const { varOfRow, varOfCol, nonZeroColumns, pivotRowCache } = work;
  const pivotOffset = pivotRow * width;
  const quotient = matrix[pivotOffset + pivotColumn];
  const invQuotient = 1 / quotient;
  const leaving = varOfRow[pivotRow];
  varOfRow[pivotRow] = varOfCol[pivotColumn];
  varOfCol[pivotColumn] = leaving;
  let nonZero = 0;
  for (let c = 0; c < width; c++) {
    const val = matrix[pivotOffset + c];
    if (!(val >= -TINY && val <= TINY)) {
      const normalized = val / quotient;
      matrix[pivotOffset + c] = normalized;
      nonZeroColumns[nonZero] = c;
      pivotRowCache[nonZero] = normalized;
      nonZero++;
    } else matrix[pivotOffset + c] = 0;
  }
  matrix[pivotOffset + pivotColumn] = invQuotient;
  for (let r = 0; r < height; r++) {
    if (r === pivotRow) continue;
    const offset = r * width;
    const coefficient = matrix[offset + pivotColumn];
    // (a tiny entry of the pivot column is left as it is, as the library does)
    if (coefficient >= -TINY && coefficient <= TINY) continue;
    for (let i = 0; i < nonZero; i++) {
      const c = nonZeroColumns[i];
      const v0 = pivotRowCache[i];
      if (!(v0 >= -TINY && v0 <= TINY)) matrix[offset + c] -= coefficient * v0;
      else if (v0 !== 0) matrix[pivotOffset + c] = 0;
    }
    matrix[offset + pivotColumn] = -coefficient / quotient;
  }
}

/** The library's rounding of a reported value. */
function rounded(v: number): number {
  return Math.round((Number.EPSILON + v) * ROUNDING) / ROUNDING;
}

/**
 * Solve a packing LP as javascript-lp-solver 1.0.3 solves its JSON form
 * (variables in column order, one `max` constraint per row in row order):
 * same optimal vertex, same values bit for bit. Rows whose right-hand side
 * is negative or not finite are refused (the form needs x = 0 feasible).
 */
export function solvePackingLp(lp: PackingLp): PackingLpAnswer {
  const { rows, cols, starts, rowOf, coef, rhs, cost } = lp;
  const width = cols + 1;
  const height = rows + 1;
  grow(width, height, cols);
  const { matrix, varOfRow, varOfCol, x, tableauX } = work;
  matrix.fill(0, 0, width * height);
  for (let j = 0; j < cols; j++) {
    matrix[j + 1] = cost[j];
    varOfCol[j + 1] = j;
    for (let k = starts[j]; k < starts[j + 1]; k++) matrix[(rowOf[k] + 1) * width + j + 1] = coef[k];
  }
  for (let i = 0; i < rows; i++) {
    const b = rhs[i];
    if (!(b >= 0 && b < Infinity)) throw new InputError(`solvePackingLp: row ${i}: right-hand side ${b} (must be finite and ≥ 0)`, { source: 'solvePackingLp', field: `rhs[${i}]` });
    matrix[(i + 1) * width] = b;
    varOfRow[i + 1] = cols + i;
  }

  // Phase 2 of Tableau (phase 1 has nothing to do: every right-hand side is ≥ 0).
  const lastColumn = cols;
  const lastRow = rows;
  let pivots = 0;
  let useBland = false;
  let windowStartObjective = matrix[0];
  let staleWindows = 0;
  let blandStartPivot = 0;
  let blandStartObjective = 0;
  const batchSize = Math.min(500, Math.max(50, Math.floor(Math.sqrt(cols))));
  const partialPricing = cols > batchSize * 2;
  let batchStart = 1;
  let status: PackingLpAnswer['status'] = 'optimal';
  for (;;) {
    if (!useBland && pivots > 0 && pivots % PHASE2_WINDOW === 0) {
      const objective = matrix[0];
      if (Math.abs(objective - windowStartObjective) / Math.max(1, Math.abs(windowStartObjective)) < 1e-10) {
        staleWindows++;
        if (staleWindows >= PHASE2_STALE_LIMIT) {
          useBland = true;
          blandStartPivot = pivots;
          blandStartObjective = objective;
        }
      } else staleWindows = 0;
      windowStartObjective = objective;
    }
    if (useBland && pivots - blandStartPivot > lastRow) {
      const objective = matrix[0];
      if (Math.abs(objective - blandStartObjective) / Math.max(1, Math.abs(blandStartObjective)) < 1e-10) break;
      blandStartPivot = pivots;
      blandStartObjective = objective;
    }
    let entering = 0;
    let enteringValue = PRECISION;
    if (useBland) {
      for (let c = 1; c <= lastColumn; c++) {
        if (matrix[c] > PRECISION) {
          entering = c;
          break;
        }
      }
    } else if (partialPricing) {
      const firstBatch = batchStart;
      const batches = Math.ceil(lastColumn / batchSize);
      for (let scanned = 0; entering === 0 && scanned < batches; scanned++) {
        const end = Math.min(batchStart + batchSize - 1, lastColumn);
        for (let c = batchStart; c <= end; c++) {
          if (matrix[c] > enteringValue) {
            enteringValue = matrix[c];
            entering = c;
          }
        }
        batchStart = end >= lastColumn ? 1 : end + 1;
      }
      if (entering !== 0) batchStart = firstBatch;
    } else {
      for (let c = 1; c <= lastColumn; c++) {
        if (matrix[c] > enteringValue) {
          enteringValue = matrix[c];
          entering = c;
        }
      }
    }
    if (entering === 0) break;
    let leaving = 0;
    let minQuotient = Infinity;
    for (let r = 1; r <= lastRow; r++) {
      const offset = r * width;
      const rhsValue = matrix[offset];
      const colValue = matrix[offset + entering];
      if (-PRECISION < colValue && colValue < PRECISION) continue;
      if (colValue > 0 && PRECISION > rhsValue && rhsValue > -PRECISION) {
        minQuotient = 0;
        leaving = r;
        break;
      }
      const q = rhsValue / colValue;
      if (q > PRECISION && minQuotient > q) {
        minQuotient = q;
        leaving = r;
      }
    }
    if (minQuotient === Infinity) {
      status = 'unbounded';
      break;
    }
    pivot(matrix, width, height, leaving, entering);
    pivots++;
  }

  x.fill(0, 0, cols);
  tableauX.fill(0, 0, cols);
  for (let r = 1; r <= lastRow; r++) {
    const v = varOfRow[r];
    if (v < cols) {
      tableauX[v] = matrix[r * width];
      // the library leaves zeros out of its answer: a −0 reads back as 0 (a NaN stays NaN, and fails the check)
      const value = rounded(matrix[r * width]);
      x[v] = value === 0 ? 0 : value;
    }
  }
  let unique = status === 'optimal';
  for (let c = 1; c <= lastColumn; c++) if (!(matrix[c] < -1e-9)) unique = false;
  // The cost row holds −(c·x) (the library negates it back for a maximization).
  return {
    status,
    objective: status === 'unbounded' ? Infinity : -rounded(matrix[0]),
    tableauObjective: -matrix[0],
    x: x.subarray(0, cols),
    tableauX: tableauX.subarray(0, cols),
    unique,
    pivots,
  };
}

let checkSum = new Float64Array(0);
let checkScale = new Float64Array(0);

/**
 * Why an answer fails the check `runLp` applies to every solver answer
 * (lpsolver.ts: `compiledViolation`, then the reported objective against
 * the one recomputed from the values), or null when it passes: the same
 * tolerance, sums in the same order, the same messages. It decides, as it
 * did for the library's answers, when the LP is handed to HiGHS instead;
 * run here on the packing arrays because building the named model for
 * `runLp` would cost as much as the solve.
 */
export function packingLpViolation(lp: PackingLp, x: ArrayLike<number>, objective: number, names: { row(i: number): string; col(j: number): string }): string | null {
  const { rows, cols, starts, rowOf, coef, rhs, cost } = lp;
  if (!Number.isFinite(objective)) return `objective is ${String(objective)}`;
  if (checkSum.length < rows) {
    checkSum = new Float64Array(Math.max(rows, 2 * checkSum.length));
    checkScale = new Float64Array(checkSum.length);
  }
  const sum = checkSum;
  const scale = checkScale;
  sum.fill(0, 0, rows);
  scale.fill(1, 0, rows);
  const bad = (violation: string) => `solution does not check: ${violation}`;
  for (let j = 0; j < cols; j++) {
    const v = x[j];
    if (!Number.isFinite(v)) return bad(`variable ${names.col(j)} = ${v}`);
    if (v < -CHECK_TOLERANCE) return bad(`variable ${names.col(j)} = ${v} < 0`);
    for (let k = starts[j]; k < starts[j + 1]; k++) {
      const t = coef[k] * v;
      const i = rowOf[k];
      sum[i] += t;
      if (Math.abs(t) > scale[i]) scale[i] = Math.abs(t);
    }
  }
  for (let i = 0; i < rows; i++) {
    const tol = CHECK_TOLERANCE * Math.max(scale[i], Math.abs(rhs[i]), 1);
    if (sum[i] > rhs[i] + tol) return bad(`constraint ${names.row(i)}: ${sum[i]} > max ${rhs[i]}`);
  }
  let recomputed = 0;
  for (let j = 0; j < cols; j++) if (cost[j] !== 0) recomputed += cost[j] * x[j];
  if (Math.abs(recomputed - objective) > CHECK_TOLERANCE * Math.max(1, Math.abs(objective))) {
    return `reported objective ${objective} differs from the objective of its values ${recomputed}`;
  }
  return null;
}
