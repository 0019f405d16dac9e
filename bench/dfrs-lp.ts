/**
 * Benchmark: DFRS opt=avg's linear programs (issue 29, target 3: ≥ ×5 per LP).
 *  1. Records every LP of one scaled opt=avg cell (GreedyPM * /per/opt=avg/minvt=600
 *     on lublin-21@0.7, the cell profiled in docs/paper-scale.md) and times, side
 *     by side in interleaved rounds, per LP: javascript-lp-solver as the
 *     allocation called it (runLp on the column model: JSON form, Solve, check),
 *     the library's Solve alone on a ready JSON model, the port
 *     (`solvePackingLp` and its check, as the allocation calls it now; and the
 *     solve alone), and HiGHS through runLp (what a fallback costs).
 *  2. Per cell: a fixed sample of committed opt=avg cells of notebook 01 (every
 *     trace set), each run with the library and with the port, alternated;
 *     CPU seconds, and whether the two records are identical.
 *  3. The whole notebook 01 extrapolated from the committed records' cell
 *     times (run.durationMs): opt=avg cells scaled by the measured after/before
 *     ratio of their trace set, every other cell unchanged; on 2 cores = / 2.
 * Run: npx ts-node --transpile-only -P tsconfig.json bench/dfrs-lp.ts   (writes bench/results/dfrs-lp.json)
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { packingLpViolation, PackingLp, solvePackingLp } from '../src/schedulers/dfrs/avg-lp';
import { setAvgLpSolver } from '../src/schedulers/dfrs/allocation';
import { dfrsTrace, runDfrsCell } from '../src/schedulers/dfrs/experiment';
import { ColumnLpModel, columnsFromLpModel, loadLpEngine, LpModel, lpModelFromColumns, runLp, setLpSolverForTesting } from '../src/schedulers/vcsched/lpsolver';
import { canonicalJson } from '../src/sweep/grid';
import { loadCommittedResults } from '../src/sweep/papers/committed';
import { DfrsCellParams, dfrsCell, experiment } from '../src/sweep/papers/01-dfrs-vs-batch';
import { createRng } from '../src/util/random';

const lpSolver: { Solve(model: LpModel): unknown } = require('javascript-lp-solver');
const ROUNDS = Number(process.env.BENCH_LP_ROUNDS ?? 5);
const CELL_ROUNDS = Number(process.env.BENCH_LP_CELL_ROUNDS ?? 2);

const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () => +os.loadavg()[0].toFixed(2);

async function main(): Promise<void> {
  await loadLpEngine('highs');
  const loadStart = load();

  // 1. The LPs of one scaled opt=avg cell, recorded on their way to the library.
  const cellSpec = { trace_set: 'scaled' as const, trace_index: 21, load: 0.7 };
  const cellAlgorithm = 'GreedyPM */per/opt=avg/minvt=600';
  const trace = dfrsTrace(cellSpec);
  const models: LpModel[] = [];
  setLpSolverForTesting((m) => {
    models.push(m);
    return undefined;
  });
  runDfrsCell({ jobs: trace.jobs, nodes: trace.nodes, cores: trace.cores, algorithm: cellAlgorithm, bound: 1, batchUnit: 'node', labels: {} });
  setLpSolverForTesting(undefined);
  const columns: ColumnLpModel[] = models.map(columnsFromLpModel);
  const packings: PackingLp[] = columns.map((c) => ({ rows: c.rows.length, cols: c.cols.length, starts: c.starts, rowOf: c.rowOf, coef: c.coef, rhs: Float64Array.from(c.bounds, (b) => b.max as number), cost: c.cost }));
  const names = columns.map((c) => ({ row: (i: number) => c.rows[i], col: (j: number) => c.cols[j] }));
  const sizes = { lps: models.length, medianColumns: median(packings.map((p) => p.cols)), medianRows: median(packings.map((p) => p.rows)), maxColumns: Math.max(...packings.map((p) => p.cols)), maxRows: Math.max(...packings.map((p) => p.rows)) };
  console.error(`${trace.name} ${cellAlgorithm}: ${sizes.lps} LPs, median ${sizes.medianColumns} columns × ${sizes.medianRows} rows`);

  const solvers: Record<string, () => void> = {
    'javascript-lp-solver (runLp: JSON form, Solve, check)': () => {
      for (const c of columns) runLp(c);
    },
    'javascript-lp-solver (Solve on a ready JSON model)': () => {
      for (const m of models) lpSolver.Solve(m);
    },
    'port (solvePackingLp and its check)': () => {
      packings.forEach((p, i) => {
        const a = solvePackingLp(p);
        packingLpViolation(p, a.x, a.objective, names[i]);
      });
    },
    'port (solvePackingLp alone)': () => {
      for (const p of packings) solvePackingLp(p);
    },
    'HiGHS (runLp, engine highs)': () => {
      for (const c of columns) runLp(c, undefined, { engine: 'highs' });
    },
  };
  const perLp: Record<string, number[]> = Object.fromEntries(Object.keys(solvers).map((k) => [k, []]));
  for (const fn of Object.values(solvers)) fn(); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, fn] of Object.entries(solvers)) {
      const c0 = cpu();
      fn();
      perLp[name].push(((cpu() - c0) / models.length) * 1e6);
    }
  }
  const perLpMedian = Object.fromEntries(Object.entries(perLp).map(([k, v]) => [k, +median(v).toFixed(2)]));
  const [libraryAsCalled, libraryAlone, portAsCalled, portAlone, highs] = Object.values(perLpMedian);
  const perLpRatios = {
    asCalled: +(libraryAsCalled / portAsCalled).toFixed(1),
    solveAlone: +(libraryAlone / portAlone).toFixed(1),
    highsOverPort: +(highs / portAsCalled).toFixed(1),
  };
  console.error('µs CPU per LP (median of rounds):', perLpMedian, perLpRatios);

  // 2. Cells: a fixed sample of committed opt=avg cells, each with both solvers, alternated.
  const committed = loadCommittedResults(experiment, { scale: 'paper' });
  const avg = committed.records.filter((r) => r.status === 'ok' && String(r.params.algorithm).includes('opt=avg'));
  const rng = createRng(29);
  const perSet: Record<string, number> = { scaled: 6, unscaled: 3, hpc2n: 3 };
  const sample = Object.entries(perSet).flatMap(([set, n]) => rng.shuffle(avg.filter((r) => r.params.trace_set === set)).slice(0, n));
  const cells: { trace_set: string; trace: string; algorithm: string; beforeCpuSeconds: number; afterCpuSeconds: number; ratio: number; identical: boolean }[] = [];
  for (const r of sample) {
    const params = r.params as unknown as DfrsCellParams;
    const times: Record<string, number[]> = { 'javascript-lp-solver': [], tableau: [] };
    const records: Record<string, string> = {};
    await dfrsCell(params); // trace and bound built once, outside the timing
    for (let k = 0; k < CELL_ROUNDS; k++) {
      for (const solver of (k % 2 === 0 ? ['javascript-lp-solver', 'tableau'] : ['tableau', 'javascript-lp-solver']) as ('tableau' | 'javascript-lp-solver')[]) {
        setAvgLpSolver(solver);
        const c0 = cpu();
        const rec = await dfrsCell(params);
        times[solver].push(cpu() - c0);
        records[solver] = canonicalJson(JSON.parse(JSON.stringify({ ...rec, wall_ms: 0, mcb_mean_ms: 0, mcb_max_ms: 0 })));
      }
    }
    setAvgLpSolver('tableau');
    const before = Math.min(...times['javascript-lp-solver']);
    const after = Math.min(...times.tableau);
    const cell = { trace_set: params.trace_set, trace: (r.result as { trace: string }).trace, algorithm: params.algorithm, beforeCpuSeconds: +before.toFixed(3), afterCpuSeconds: +after.toFixed(3), ratio: +(before / after).toFixed(2), identical: records['javascript-lp-solver'] === records.tableau };
    console.error(`  ${cell.trace_set} ${cell.trace} ${cell.algorithm}: ${cell.beforeCpuSeconds} s -> ${cell.afterCpuSeconds} s (×${cell.ratio})${cell.identical ? '' : ' RECORDS DIFFER'}`);
    cells.push(cell);
  }
  const ratioOf = (set: string) => {
    const c = cells.filter((x) => x.trace_set === set);
    return c.reduce((a, x) => a + x.afterCpuSeconds, 0) / c.reduce((a, x) => a + x.beforeCpuSeconds, 0);
  };

  // 3. Notebook 01 from the committed cell times.
  const hours = (ms: number) => +(ms / 3.6e6).toFixed(2);
  const ok = committed.records.filter((r) => r.status === 'ok');
  const groups: Record<string, { cells: number; ms: number; afterMs: number }> = {};
  for (const r of ok) {
    const isAvg = String(r.params.algorithm).includes('opt=avg');
    const key = `${r.params.part} ${r.params.trace_set}${isAvg ? ' opt=avg' : ''}`;
    const g = (groups[key] ??= { cells: 0, ms: 0, afterMs: 0 });
    g.cells++;
    g.ms += r.run.durationMs;
    g.afterMs += r.run.durationMs * (isAvg ? ratioOf(String(r.params.trace_set)) : 1);
  }
  const totalMs = Object.values(groups).reduce((a, g) => a + g.ms, 0);
  const afterMs = Object.values(groups).reduce((a, g) => a + g.afterMs, 0);
  const notebook01 = {
    basis: 'sum of run.durationMs over the committed records of 01 (cells run on 2 workers beside other work, sweep version 4); opt=avg cells multiplied by the after/before CPU ratio measured above for their trace set, other cells unchanged; 2 cores = total / 2',
    ratioByTraceSet: Object.fromEntries(Object.keys(perSet).map((s) => [s, +ratioOf(s).toFixed(3)])),
    groups: Object.fromEntries(Object.entries(groups).map(([k, g]) => [k, { cells: g.cells, cpuHours: hours(g.ms), afterCpuHours: hours(g.afterMs) }])),
    cpuHoursBefore: hours(totalMs),
    cpuHoursAfter: hours(afterMs),
    hoursOn2CoresBefore: hours(totalMs / 2),
    hoursOn2CoresAfter: hours(afterMs / 2),
    targetHoursOn2Cores: 2,
  };
  console.error(`notebook 01: ${notebook01.cpuHoursBefore} CPU h -> ${notebook01.cpuHoursAfter} CPU h; on 2 cores ${notebook01.hoursOn2CoresBefore} h -> ${notebook01.hoursOn2CoresAfter} h`);

  const out = {
    bench: 'dfrs-lp',
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadAverage1m: { start: loadStart, end: load() } },
    capturedCell: { ...cellSpec, trace: trace.name, algorithm: cellAlgorithm, ...sizes },
    perLpMicrosecondsCpu: perLpMedian,
    perLpAllRounds: perLp,
    perLpRatios,
    perLpTarget: 5,
    meetsPerLpTarget: perLpRatios.asCalled >= 5,
    cells,
    cellsIdentical: cells.every((c) => c.identical),
    notebook01,
  };
  const file = path.join(__dirname, 'results', 'dfrs-lp.json');
  fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
  console.error(`wrote ${file}`);
}

void main();
