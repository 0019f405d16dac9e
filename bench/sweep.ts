/**
 * Sweep runner benchmark: fixed start-up cost, overhead per cell (dispatch,
 * message passing, checksummed append), and speed-up of 2 workers over 1 on
 * a CPU-bound toy cell. Run: npx ts-node --transpile-only bench/sweep.ts
 * Writes bench/results/sweep.json.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { performance } from 'perf_hooks';
import { defineSweep, runSweep } from '../src/sweep';

const CELLS = path.resolve(__dirname, '..', 'test', 'sweep', 'fixtures', 'cells.ts');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-bench-sweep-'));
let runs = 0;

/** Cells per second between the `workers`-th and the last record (start-up excluded). */
let lastSteadyRate = 0;

async function timed(cells: number, iterations: number, workers: number): Promise<number> {
  const sweep = defineSweep({
    name: `bench-${iterations}`,
    cell: { module: CELLS, export: 'spin' },
    grid: { i: Array.from({ length: cells }, (_, i) => i) },
    fixed: { iterations },
  });
  const t0 = performance.now();
  const stamps: number[] = [];
  const s = await runSweep(sweep, {
    out: path.join(tmp, `run-${runs++}.jsonl`),
    workers,
    progress: 'none',
    handleSigint: false,
    onRecord: () => stamps.push(performance.now()),
  });
  const w = Math.max(1, workers);
  lastSteadyRate = stamps.length > w ? (stamps.length - w) / ((stamps[stamps.length - 1] - stamps[w - 1]) / 1000) : 0;
  if (s.ok !== cells) throw new Error(`expected ${cells} ok cells, got ${s.ok}`);
  return (performance.now() - t0) / 1000;
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main(): Promise<void> {
  // Overhead: empty cells; subtract the fixed cost (worker start-up) measured with 1 cell.
  const N = 2000;
  const reps = 3;
  const fixed1: number[] = [];
  const many1: number[] = [];
  const fixed0: number[] = [];
  const many0: number[] = [];
  for (let r = 0; r < reps; r++) {
    fixed1.push(await timed(1, 0, 1));
    many1.push(await timed(N, 0, 1));
    fixed0.push(await timed(1, 0, 0));
    many0.push(await timed(N, 0, 0));
  }
  const overheadWorkerMs = (1000 * (median(many1) - median(fixed1))) / (N - 1);
  const overheadInlineMs = (1000 * (median(many0) - median(fixed0))) / (N - 1);

  // Speed-up: CPU-bound cells of roughly 50 ms each.
  const cal0 = performance.now();
  await timed(1, 2_000_000, 0);
  const perIter = (performance.now() - cal0) / 2_000_000;
  const iterations = Math.max(10_000, Math.round(50 / perIter));
  const cells = 40;
  const t1: number[] = [];
  const t2: number[] = [];
  const r1: number[] = [];
  const r2: number[] = [];
  for (let r = 0; r < 2; r++) {
    t1.push(await timed(cells, iterations, 1));
    r1.push(lastSteadyRate);
    t2.push(await timed(cells, iterations, 2));
    r2.push(lastSteadyRate);
  }
  const speedup = median(t1) / median(t2);
  const steadySpeedup = median(r2) / median(r1);

  const load = os.loadavg()[0];
  const result = {
    date: new Date().toISOString(),
    cpus: os.availableParallelism(),
    loadAverage1m: Number(load.toFixed(2)),
    startupOneWorkerSeconds: Number(median(fixed1).toFixed(3)),
    overheadPerCellMs: { worker: Number(overheadWorkerMs.toFixed(3)), inline: Number(overheadInlineMs.toFixed(3)) },
    cpuBound: {
      cells,
      iterationsPerCell: iterations,
      seconds1Worker: Number(median(t1).toFixed(3)),
      seconds2Workers: Number(median(t2).toFixed(3)),
      speedup2vs1: Number(speedup.toFixed(2)),
      cellsPerSecond1Worker: Number(median(r1).toFixed(2)),
      cellsPerSecond2Workers: Number(median(r2).toFixed(2)),
      steadySpeedup2vs1: Number(steadySpeedup.toFixed(2)),
    },
    note: 'cells are loaded through ts-node (transpile-only); start-up includes compiling the worker',
  };
  fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  fs.writeFileSync(path.join(__dirname, 'results', 'sweep.json'), JSON.stringify(result, null, 2) + '\n');
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(
    `sweep bench (${result.cpus} cpus, load ${result.loadAverage1m}): start-up ${result.startupOneWorkerSeconds} s, ` +
      `overhead ${result.overheadPerCellMs.worker} ms/cell with workers (${result.overheadPerCellMs.inline} ms in-thread); ` +
      `${cells} cells of ~50 ms: 1 worker ${result.cpuBound.seconds1Worker} s, 2 workers ${result.cpuBound.seconds2Workers} s, ` +
      `speed-up ${result.cpuBound.speedup2vs1}× wall, ${result.cpuBound.steadySpeedup2vs1}× after start-up`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
