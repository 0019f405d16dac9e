/**
 * Benchmark: where notebook 01's CPU time goes, by algorithm group, and what
 * a change to the DFRS simulator saves on the whole notebook (issue 29,
 * target 3: ≤ 2 h on 2 cores).
 *  1. Groups: the committed records' cell times (run.durationMs) summed by
 *     algorithm family (the name without opt= and minvt/minft), opt= and
 *     trace set. The committed times predate the opt=avg LP port: opt=avg
 *     cells are scaled by the port's measured ratio per trace set
 *     (bench/results/dfrs-lp.json), as bench/dfrs-lp.ts did.
 *  2. A seeded sample of committed cells, BENCH_CELLS_PER_GROUP per group,
 *     each run with this build and, when BENCH_DFRS_BEFORE names the dist/
 *     directory of an earlier build (e.g. the branch point, compiled), with
 *     that one too, alternated, BENCH_CELL_ROUNDS each; CPU seconds (the
 *     least of the rounds; the trace and its bound are built before the
 *     timing, as the sweep's workers cache them), and every record compared
 *     with the committed one, timing fields aside, bit for bit.
 *  3. Notebook 01 after: each group's (LP-scaled) committed time times the
 *     group's measured after/before CPU ratio (sum over its sampled cells);
 *     and, as a second reading, the sampled cells' own CPU time: each
 *     group's mean times its number of cells (the committed times are wall
 *     times at various loads; this one excludes building traces and bounds).
 * Run: BENCH_DFRS_BEFORE=/path/to/old/dist NODE_PATH=node_modules npx ts-node --transpile-only -P tsconfig.json bench/dfrs-notebook.ts
 *      (writes bench/results/dfrs-notebook.json, labelled BENCH_LABEL, earlier runs kept
 *      under `earlier`; BENCH_RESUMMARIZE=1 recomputes the summary from the cells
 *      already in that file, without running them)
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { toJsonResult } from '../src/sweep/cellmodule';
import { canonicalJson, Json } from '../src/sweep/grid';
import { loadCommittedResults } from '../src/sweep/papers/committed';
import { DfrsCellParams, dfrsCell, experiment } from '../src/sweep/papers/01-dfrs-vs-batch';
import { createRng } from '../src/util/random';

const PER_GROUP = Number(process.env.BENCH_CELLS_PER_GROUP ?? 1);
const ROUNDS = Number(process.env.BENCH_CELL_ROUNDS ?? 2);
const BEFORE = process.env.BENCH_DFRS_BEFORE;

type Cell = (p: DfrsCellParams) => Promise<unknown>;
type Sampled = { group: string; trace_set: string; algorithm: string; part: string; trace_index: number; load: unknown; period: unknown; cpuSeconds: Record<string, number>; identicalToCommitted: Record<string, boolean> };
const builds: Record<string, Cell> = { after: dfrsCell as Cell };
if (BEFORE) builds.before = (require(path.resolve(BEFORE, 'sweep/papers/01-dfrs-vs-batch.js')) as { dfrsCell: Cell }).dfrsCell;

const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};
const load = () => +os.loadavg()[0].toFixed(2);
const hours = (s: number) => +(s / 3600).toFixed(2);
const timing = new Set(experiment.timingFields ?? []);
function withoutTiming(v: Json): Json {
  if (Array.isArray(v)) return v.map(withoutTiming);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([k]) => !timing.has(k)).map(([k, x]) => [k, withoutTiming(x)]));
  return v;
}

/** Algorithm family (name without opt= and minvt/minft), opt= and trace set. */
function groupOf(params: Record<string, unknown>): string {
  const name = String(params.algorithm);
  const opt = /\/opt=(\w+)/.exec(name)?.[1] ?? '-';
  const family = name.replace(/\/opt=\w+/, '').replace(/\/(minvt|minft)=\d+/, '') || name;
  return `${family} | opt=${opt} | ${params.trace_set}`;
}

async function main(): Promise<void> {
  const loadStart = load();
  const lp = JSON.parse(fs.readFileSync(path.join(__dirname, 'results', 'dfrs-lp.json'), 'utf8')) as { notebook01: { ratioByTraceSet: Record<string, number> } };
  const lpRatio = lp.notebook01.ratioByTraceSet;
  const committed = loadCommittedResults(experiment, { scale: 'paper' });
  const ok = committed.records.filter((r) => r.status === 'ok');

  // 1. Committed cell time by group (opt=avg scaled by the LP port's ratio).
  const groups = new Map<string, { cells: typeof ok; committedSeconds: number; seconds: number }>();
  for (const r of ok) {
    const key = groupOf(r.params);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { cells: [], committedSeconds: 0, seconds: 0 }));
    g.cells.push(r);
    const s = r.run.durationMs / 1000;
    g.committedSeconds += s;
    g.seconds += String(r.params.algorithm).includes('opt=avg') ? s * lpRatio[String(r.params.trace_set)] : s;
  }
  const total = [...groups.values()].reduce((a, g) => a + g.seconds, 0);

  // 2. Sampled cells, every build, alternated.
  const rng = createRng(29);
  const file = path.join(__dirname, 'results', 'dfrs-notebook.json');
  const previous = process.env.BENCH_RESUMMARIZE ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { cells: Sampled[]; machine: unknown; date: string }) : undefined;
  const sampled: Sampled[] = previous?.cells ?? [];
  const names = previous ? Object.keys(sampled[0].cpuSeconds) : Object.keys(builds);
  for (const [key, g] of previous ? [] : [...groups].sort((a, b) => b[1].seconds - a[1].seconds)) {
    for (const r of rng.shuffle(g.cells).slice(0, PER_GROUP)) {
      const params = r.params as unknown as DfrsCellParams;
      const want = canonicalJson(withoutTiming(r.result as Json));
      const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
      const same: Record<string, boolean> = {};
      for (const n of names) await builds[n](params); // trace and bound built outside the timing
      for (let k = 0; k < ROUNDS; k++) {
        for (const n of k % 2 === 0 ? names : [...names].reverse()) {
          const c0 = cpu();
          const rec = await builds[n](params);
          times[n].push(cpu() - c0);
          same[n] = (same[n] ?? true) && canonicalJson(withoutTiming(JSON.parse(toJsonResult(rec as Json)) as Json)) === want;
        }
      }
      const cell = { group: key, trace_set: params.trace_set, algorithm: params.algorithm, part: params.part, trace_index: params.trace_index, load: params.load, period: params.period, cpuSeconds: Object.fromEntries(names.map((n) => [n, +Math.min(...times[n]).toFixed(4)])), identicalToCommitted: same };
      console.error(`${key}: ${names.map((n) => `${n} ${cell.cpuSeconds[n]} s`).join(', ')}${Object.values(same).every(Boolean) ? '' : ' RECORD DIFFERS FROM THE COMMITTED ONE'}`);
      sampled.push(cell);
    }
  }

  // 3. Per group: share of the notebook, measured ratio, after.
  const table = [...groups].map(([key, g]) => {
    const cells = sampled.filter((c) => c.group === key);
    const sum = (n: string) => cells.reduce((a, c) => a + c.cpuSeconds[n], 0);
    const ratio = names.includes('before') ? sum('after') / sum('before') : NaN;
    return { group: key, cells: g.cells.length, committedCpuHours: hours(g.committedSeconds), cpuHours: hours(g.seconds), share: +(g.seconds / total).toFixed(4), sampled: cells.length, ratio: +ratio.toFixed(3), afterCpuHours: hours(g.seconds * ratio) };
  }).sort((a, b) => b.cpuHours - a.cpuHours);
  const after = table.reduce((a, g) => a + g.afterCpuHours * 3600, 0);
  const hasBefore = names.includes('before');
  // The sampled cells' own CPU time, each group's mean times its cells.
  const direct = (n: string) => [...groups].reduce((a, [key, g]) => {
    const cells = sampled.filter((c) => c.group === key);
    return a + (g.cells.length * cells.reduce((x, c) => x + c.cpuSeconds[n], 0)) / Math.max(1, cells.length);
  }, 0);
  const notebook01 = {
    basis: 'committed run.durationMs of notebook 01 (wall time of cells run on 2 workers beside other work), opt=avg cells scaled by the LP port ratio per trace set (bench/results/dfrs-lp.json); after: each group times the after/before CPU ratio of its sampled cells; 2 cores = total / 2',
    cpuHoursBefore: hours(total),
    cpuHoursAfter: hasBefore ? hours(after) : null,
    hoursOn2CoresBefore: hours(total / 2),
    hoursOn2CoresAfter: hasBefore ? hours(after / 2) : null,
    targetHoursOn2Cores: 2,
    fromSampledCpu: {
      basis: 'each group: mean CPU seconds of its sampled cells times its number of cells (trace and bound building, 1,182 of them for 152,478 cells, and the sweep itself not counted)',
      ...Object.fromEntries(names.map((n) => [`cpuHours_${n}`, hours(direct(n))])),
      ...Object.fromEntries(names.map((n) => [`hoursOn2Cores_${n}`, hours(direct(n) / 2)])),
    },
    sampledCpuSeconds: Object.fromEntries(names.map((n) => [n, +sampled.reduce((a, c) => a + c.cpuSeconds[n], 0).toFixed(2)])),
  };
  console.error(`notebook 01: ${notebook01.cpuHoursBefore} CPU h -> ${notebook01.cpuHoursAfter} CPU h; on 2 cores ${notebook01.hoursOn2CoresBefore} h -> ${notebook01.hoursOn2CoresAfter} h`);
  // Earlier runs stay in the file, labelled (the last one first).
  type Run = { label?: string; date: string; earlier?: unknown[] };
  const old = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Run) : undefined;
  const earlier = previous ? (old?.earlier ?? []) : old ? [{ ...old, label: old.label ?? `run of ${old.date}`, earlier: undefined }, ...(old.earlier ?? [])] : [];
  const out = {
    bench: 'dfrs-notebook',
    label: process.env.BENCH_LABEL ?? (previous as Run | undefined)?.label ?? null,
    date: previous?.date ?? new Date().toISOString(),
    machine: previous?.machine ?? { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadAverage1m: { start: loadStart, end: load() } },
    before: BEFORE ?? null,
    cellsPerGroup: PER_GROUP,
    rounds: ROUNDS,
    groups: table,
    cells: sampled,
    everyRecordIdenticalToCommitted: sampled.every((c) => Object.values(c.identicalToCommitted).every(Boolean)),
    notebook01,
    earlier,
  };
  fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
  console.error(`wrote ${file}`);
}

void main();
