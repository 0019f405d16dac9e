/**
 * Benchmark: notebook 02's paper-scale sweep, estimated without running it.
 * Every stratum (part x task count x algorithm x slack) of the paper grid
 * gets a seeded random sample of cells (the other parameters drawn at
 * random), run in process through the sweep's cell function; its mean time x
 * its cell count, summed, is the one-core CPU time; divided by the worker
 * count (cells are independent) it is the wall time. Stratifying by slack
 * matters: the costly cells (GB/SGB searches that exhaust their budget,
 * infeasible LPs) gather at low slack. VCSCHED_PAPER_SAMPLE cells per stratum
 * (default 2). Writes bench/results/vcsched-paper.json.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { paperSweep, vcschedCell, VcschedCellParams } from '../src/sweep/papers/02-virtual-clusters';
import { createRng } from '../src/util/random';

const PER_STRATUM = Number(process.env.VCSCHED_PAPER_SAMPLE ?? 2);
const WORKERS = 2;

interface Stratum {
  part: string;
  tasks: number;
  algorithm: string;
  /** Cells of the stratum (all slacks). */
  cells: number;
  sampled: number;
  /** Mean seconds per cell (the mean of the per-slack means: every slack has as many cells). */
  meanSeconds: number;
  maxSeconds: number;
  /** Mean seconds per cell at each slack, in the grid's order. */
  bySlack: { slack: number; meanSeconds: number }[];
  statuses: Record<string, number>;
}

async function main(): Promise<void> {
  const loadStart = os.loadavg();
  const rng = createRng('bench/vcsched-paper');
  const strata: Stratum[] = [];
  const t0All = process.hrtime.bigint();
  for (const g of paperSweep.grids) {
    const per = Object.entries(g).reduce((n, [k, v]) => (k === 'tasks' || k === 'algorithm' ? n : n * v.length), 1);
    for (const tasks of g.tasks as number[]) {
      for (const algorithm of g.algorithm as string[]) {
        const all: number[] = [];
        const bySlack: Stratum['bySlack'] = [];
        const statuses: Record<string, number> = {};
        for (const slack of g.slack as number[]) {
          const seconds: number[] = [];
          for (let k = 0; k < PER_STRATUM; k++) {
            const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng.next() * xs.length)];
            const p = { ...paperSweep.fixed, ...Object.fromEntries(Object.entries(g).map(([d, v]) => [d, pick(v as unknown[])])), tasks, algorithm, slack } as unknown as VcschedCellParams;
            const t0 = process.hrtime.bigint();
            const r = await vcschedCell(p);
            seconds.push(Number(process.hrtime.bigint() - t0) / 1e9);
            // An RRND+RRNZ cell gives two records: statuses 'RRND:ok', 'RRNZ:failed', ...
            for (const x of Array.isArray(r) ? r : [r]) {
              const key = Array.isArray(r) ? `${x.algorithm}:${x.status}` : x.status;
              statuses[key] = (statuses[key] ?? 0) + 1;
            }
          }
          bySlack.push({ slack, meanSeconds: seconds.reduce((s, x) => s + x, 0) / seconds.length });
          all.push(...seconds);
        }
        const meanSeconds = bySlack.reduce((s, x) => s + x.meanSeconds, 0) / bySlack.length;
        strata.push({ part: String(g.part[0]), tasks, algorithm, cells: per, sampled: all.length, meanSeconds, maxSeconds: Math.max(...all), bySlack, statuses });
      }
    }
    console.log(`${g.part[0]}: ${strata.filter((s) => s.part === g.part[0]).reduce((t, s) => t + s.cells * s.meanSeconds, 0).toFixed(0)} CPU s estimated`);
  }
  const cpuSeconds = strata.reduce((t, s) => t + s.cells * s.meanSeconds, 0);
  const byPart = Object.fromEntries(['small', 'large', 'milp', 'par'].map((p) => [p, strata.filter((s) => s.part === p).reduce((t, s) => t + s.cells * s.meanSeconds, 0)]));
  const heaviest = [...strata].sort((a, b) => b.cells * b.meanSeconds - a.cells * a.meanSeconds).slice(0, 10);
  const result = {
    benchmark: `notebook 02 paper sweep (${paperSweep.name} v${paperSweep.version}), ${PER_STRATUM} seeded cells per part x tasks x algorithm x slack stratum, in process`,
    cells: strata.reduce((t, s) => t + s.cells, 0),
    sampledCells: strata.reduce((t, s) => t + s.sampled, 0),
    benchSeconds: Number(process.hrtime.bigint() - t0All) / 1e9,
    cpuHoursOneCore: cpuSeconds / 3600,
    wallHoursEstimate: { workers: WORKERS, hours: cpuSeconds / WORKERS / 3600 },
    cpuHoursByPart: Object.fromEntries(Object.entries(byPart).map(([k, v]) => [k, v / 3600])),
    heaviestStrataCpuHours: heaviest.map((s) => ({ part: s.part, tasks: s.tasks, algorithm: s.algorithm, cpuHours: (s.cells * s.meanSeconds) / 3600, meanSeconds: s.meanSeconds })),
    strata,
    note: 'timings on a shared machine: see loadAverage; the cells are CPU-bound, so a busy machine inflates the estimate',
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: { start: loadStart, end: os.loadavg() },
    date: new Date().toISOString(),
  };
  const out = path.join(__dirname, 'results', 'vcsched-paper.json');
  fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  console.log(`estimate: ${result.cpuHoursOneCore.toFixed(2)} CPU h, ${result.wallHoursEstimate.hours.toFixed(2)} h on ${WORKERS} workers; by part (CPU h): ${JSON.stringify(result.cpuHoursByPart)}`);
  console.log(`written ${path.relative(process.cwd(), out)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
