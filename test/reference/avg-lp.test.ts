import { expect } from 'chai';
import { packingLpViolation, PackingLp, solvePackingLp } from '../../src/schedulers/dfrs/avg-lp';
import { setAvgLpSolver } from '../../src/schedulers/dfrs/allocation';
import { dfrsTrace } from '../../src/schedulers/dfrs/experiment';
import { simulateDfrs } from '../../src/schedulers/dfrs/simulator';
import { columnsFromLpModel, loadLpEngine, LpModel, lpModelFromColumns, lpValue, runLp, setLpSolverForTesting, ColumnLpModel } from '../../src/schedulers/vcsched/lpsolver';
import { createRng, Rng } from '../../src/util/random';

/**
 * The opt=avg LP's solver (avg-lp.ts) against javascript-lp-solver, whose
 * answers it must reproduce bit for bit (every committed opt=avg result came
 * from the library), and against HiGHS, which decides what the optimum is.
 */

const lpSolver: { Solve(model: LpModel): Record<string, number | boolean | undefined> } = require('javascript-lp-solver');

/** A packing LP in the form allocation.ts writes (rows u_j, then n_i; column j: u_j, then its nodes), as a named column model. */
function namedModel(lp: PackingLp): ColumnLpModel {
  const starts = Int32Array.from(lp.starts);
  return {
    format: 'columns',
    opType: 'max',
    optimize: 'obj',
    cols: Array.from({ length: lp.cols }, (_, j) => `z${j}`),
    cost: Float64Array.from(lp.cost),
    rows: Array.from({ length: lp.rows }, (_, i) => (i < lp.cols ? `u${i}` : `n${i - lp.cols}`)),
    bounds: Array.from(lp.rhs, (max) => ({ max })),
    starts,
    rowOf: Int32Array.from(lp.rowOf),
    coef: Float64Array.from(lp.coef),
  };
}

function packingFrom(c: ColumnLpModel): PackingLp {
  return { rows: c.rows.length, cols: c.cols.length, starts: c.starts, rowOf: c.rowOf, coef: c.coef, rhs: c.bounds.map((b) => b.max as number), cost: c.cost };
}

/**
 * A random LP (2) of the sizes DFRS produces (1–45 jobs, up to 128 nodes with
 * jobs on them; median ~14 columns × ~90 rows): jobs of 1–12 tasks with needs
 * in (0, 1] on random nodes, 1–3 tasks a node on average; under opt=avg every job's floor is the max-min
 * yield 1/max(1, Λ) and its weight 1 (ties between optima are common), under
 * /stretch-per floors and weights differ. Written as allocation.ts writes it:
 * z_j = room_j · x_j, nodes left full by the floors dropped with their jobs.
 */
function randomLp(rng: Rng, stretch: boolean): PackingLp {
  const jobs = rng.int(1, 45);
  // half the opt=avg instances with few distinct jobs, where optima tie as they do in simulations
  const needs = !stretch && rng.bernoulli(0.5) ? [0.25, 0.5, 1] : [0.05, 0.1, 0.125, 0.2, 0.25, 0.3, 0.5, 0.6, 0.75, 1];
  const need = Array.from({ length: jobs }, () => (stretch && rng.bernoulli(0.2) ? rng.uniform(0.01, 1) : needs[rng.int(0, needs.length - 1)]));
  const tasks = need.map(() => rng.int(1, rng.bernoulli(0.3) ? 12 : rng.bernoulli(0.5) ? 3 : 1));
  const total = tasks.reduce((a, b) => a + b, 0);
  // 1–3 tasks a node on average, as on a loaded cluster (an idle one leaves every job at yield 1: no LP)
  const nodes = Math.min(128, rng.int(Math.max(1, Math.ceil(total / 3)), total));
  const onNode: number[][] = Array.from({ length: nodes }, () => new Array(jobs).fill(0));
  tasks.forEach((k, j) => {
    for (let t = 0; t < k; t++) onNode[rng.int(0, nodes - 1)][j] += need[j];
  });
  const load = onNode.map((row) => row.reduce((a, b) => a + b, 0));
  const floor = 1 / Math.max(1, ...load);
  const lower = need.map(() => (stretch ? floor * rng.uniform(0.3, 1) : floor));
  const weight = need.map(() => (stretch ? rng.uniform(1e-3, 1) : 1));
  const kept = need.map((_, j) => 1 - lower[j] > 1e-12);
  const residual = onNode.map((row) => 1 - row.reduce((a, c, j) => a + c * lower[j], 0));
  residual.forEach((r, i) => {
    if (r <= 1e-6) onNode[i].forEach((c, j) => c > 0 && (kept[j] = false));
  });
  const colOf = new Map<number, number>();
  kept.forEach((k, j) => k && colOf.set(j, colOf.size));
  const cols = colOf.size;
  const rhs: number[] = new Array(cols).fill(1);
  const entries: [number, number][][] = Array.from({ length: cols }, (_, c) => [[c, 1]]);
  onNode.forEach((row, i) => {
    if (!row.some((c, j) => c > 0 && kept[j])) return;
    const r = rhs.push(Math.max(0, residual[i])) - 1;
    row.forEach((c, j) => c > 0 && kept[j] && entries[colOf.get(j)!].push([r, c * (1 - lower[j])]));
  });
  const starts = [0];
  const rowOf: number[] = [];
  const coef: number[] = [];
  const cost: number[] = [];
  for (const [j, c] of colOf) {
    for (const [r, v] of entries[c]) rowOf.push(r), coef.push(v);
    starts.push(rowOf.length);
    cost.push(weight[j] * (1 - lower[j]));
  }
  return { rows: rhs.length, cols, starts, rowOf, coef, rhs, cost };
}

describe('reference: the opt=avg LP solver against javascript-lp-solver (bit for bit) and HiGHS (the optimum)', () => {
  afterEach(() => {
    setLpSolverForTesting(undefined);
    setAvgLpSolver('tableau');
  });

  it('1,000 seeded random LPs of the real sizes: the library\'s answer to the bit; HiGHS\' optimum within 1e-9 relative, its yields where the optimum is unique', async () => {
    await loadLpEngine('highs');
    const rng = createRng(29);
    let unique = 0;
    let worstObjective = 0;
    let worstYield = 0;
    let columns = 0;
    let rows = 0;
    let empty = 0;
    for (let t = 0; t - empty < 1000; t++) {
      const lp = randomLp(rng, t % 2 === 1);
      if (lp.cols === 0) {
        empty++; // every job pinned at its floor: nothing for a solver (allocation.ts does not call one)
        continue;
      }
      columns += lp.cols;
      rows += lp.rows;
      const label = `instance ${t} (${lp.cols} × ${lp.rows})`;
      const model = namedModel(lp);
      const answer = solvePackingLp(lp);
      const library = lpSolver.Solve(lpModelFromColumns(model));
      expect(answer.status, label).to.equal('optimal');
      expect(answer.objective, label).to.equal(library.result);
      model.cols.forEach((name, j) => expect(answer.x[j], `${label}, ${name}`).to.equal(typeof library[name] === 'number' ? library[name] : 0));
      const highs = runLp(model, undefined, { engine: 'highs', lpMethod: 'dual-simplex' });
      expect(highs.status, label).to.equal('optimal');
      const rel = Math.abs(answer.tableauObjective - highs.objective) / Math.max(Math.abs(highs.objective), 1e-300);
      worstObjective = Math.max(worstObjective, rel);
      expect(rel, `${label}: ${answer.tableauObjective} vs HiGHS ${highs.objective}`).to.be.at.most(1e-9);
      if (answer.unique) {
        unique++;
        model.cols.forEach((name, j) => {
          const d = Math.abs(answer.tableauX[j] - lpValue(highs, name));
          worstYield = Math.max(worstYield, d);
          expect(d, `${label}, ${name}`).to.be.at.most(1e-9);
          expect(Math.abs(answer.x[j] - lpValue(highs, name)), `${label}, ${name} (rounded)`).to.be.at.most(5e-9 + 1e-12);
        });
      }
      expect(packingLpViolation(lp, answer.x, answer.objective, { row: (i) => model.rows[i], col: (j) => model.cols[j] }), label).to.equal(null);
    }
    // the sizes are the real ones, and both kinds of instance occur
    expect(columns / 1000).to.be.within(10, 30);
    expect(rows / 1000).to.be.within(40, 120);
    expect(unique).to.be.within(100, 950);
    expect(worstObjective).to.be.at.most(1e-9);
    expect(worstYield).to.be.at.most(1e-9);
    if (process.env.AVG_LP_STATS) console.log({ empty, unique, meanColumns: columns / 1000, meanRows: rows / 1000, worstObjective, worstYield });
  });

  it('LPs captured from a simulation (opt=avg and /stretch-per opt=avg) are answered exactly as javascript-lp-solver answers them', () => {
    const trace = dfrsTrace({ trace_set: 'scaled', trace_index: 21, load: 0.7, jobs_per_trace: 120 });
    const captured: LpModel[] = [];
    // the hook sees every LP on its way to the library (and lets the library answer)
    setLpSolverForTesting((m) => {
      captured.push(m);
      return undefined;
    });
    for (const algorithm of ['GreedyPM */per/opt=avg/minvt=600', '/stretch-per/opt=avg']) simulateDfrs(trace.jobs.slice(0, 120), { nodes: trace.nodes, algorithm, timeMcb: false });
    setLpSolverForTesting(undefined);
    expect(captured.length).to.be.greaterThan(200);
    for (const [i, m] of captured.entries()) {
      const c = columnsFromLpModel(m);
      const answer = solvePackingLp(packingFrom(c));
      const library = lpSolver.Solve(m);
      expect(answer.objective, `LP ${i}`).to.equal(library.result);
      c.cols.forEach((name, j) => expect(answer.x[j], `LP ${i}, ${name}`).to.equal(typeof library[name] === 'number' ? library[name] : 0));
    }
  });

  it('whole simulations give the same schedule to the bit with either solver', () => {
    const trace = dfrsTrace({ trace_set: 'unscaled', trace_index: 3, jobs_per_trace: 100 });
    for (const algorithm of ['Greedy */opt=avg', 'GreedyPM */per/opt=avg/minft=300', '/stretch-per/opt=avg/minvt=600']) {
      setAvgLpSolver('javascript-lp-solver');
      const library = simulateDfrs(trace.jobs, { nodes: trace.nodes, algorithm, timeMcb: false });
      setAvgLpSolver('tableau');
      const ours = simulateDfrs(trace.jobs, { nodes: trace.nodes, algorithm, timeMcb: false });
      expect(ours.jobs.length).to.equal(library.jobs.length);
      ours.jobs.forEach((j, k) => {
        expect(j.completion, `${algorithm}, job ${j.id}`).to.equal(library.jobs[k].completion);
        expect(j.start, `${algorithm}, job ${j.id}`).to.equal(library.jobs[k].start);
      });
    }
  });

  it('the check decides as runLp\'s check does (same verdict, same message) on broken answers', () => {
    const rng = createRng(5);
    let broken = 0;
    for (let t = 0; t < 300; t++) {
      const lp = randomLp(rng, t % 2 === 0);
      if (lp.cols === 0) continue;
      const model = namedModel(lp);
      const x = Float64Array.from(solvePackingLp(lp).x);
      let objective = 0;
      for (let k = 0; k < lp.cols; k++) objective += lp.cost[k] * x[k];
      const j = rng.int(0, lp.cols - 1);
      const fault = t % 5;
      if (fault === 1) x[j] += rng.uniform(1e-7, 1e-3); // may break a row, or stay within tolerance
      if (fault === 2) x[j] = -rng.uniform(1e-8, 1e-4);
      if (fault === 3) objective += rng.uniform(-1e-4, 1e-4);
      if (fault === 4) x[j] = NaN;
      const raw = { feasible: true, result: objective, bounded: true, ...Object.fromEntries(model.cols.map((n, k) => [n, x[k]])) };
      setLpSolverForTesting(() => raw);
      const run = runLp(model);
      setLpSolverForTesting(undefined);
      const ours = packingLpViolation(lp, x, objective, { row: (i) => model.rows[i], col: (k) => model.cols[k] });
      expect(ours, `instance ${t}`).to.equal(run.status === 'failure' ? run.message : null);
      if (ours) broken++;
    }
    expect(broken).to.be.within(60, 240);
  });

  it('an unbounded column and an empty LP are answered as the library answers them', () => {
    // max x0 + x1 with x0 ≤ 1 and nothing on x1
    const lp: PackingLp = { rows: 1, cols: 2, starts: [0, 1, 1], rowOf: [0], coef: [1], rhs: [1], cost: [1, 1] };
    const answer = solvePackingLp(lp);
    const library = lpSolver.Solve(lpModelFromColumns(namedModel(lp)));
    expect(answer.status).to.equal('unbounded');
    expect(library.bounded).to.equal(false);
    expect(answer.objective).to.equal(library.result);
    expect(() => solvePackingLp({ ...lp, rhs: [-0.5] })).to.throw(/right-hand side -0.5/);
    const none = solvePackingLp({ rows: 0, cols: 0, starts: [0], rowOf: [], coef: [], rhs: [], cost: [] });
    expect(none.objective).to.equal(0);
    expect(none.x.length).to.equal(0);
  });
});
