/**
 * Benchmark: notebook 01 at paper scale estimated from a seeded sample run
 * through the sweep engine (issue 29, target 3: ≤ 2 h on 2 cores), CPU and
 * wall, this build and an earlier one alternated.
 *
 * The sample is whole traces, every one of their 129 cells (20 Table 2
 * algorithms, 98 appendix variants, 11 periods) in the notebook's enumeration
 * order, so that what a worker keeps from cell to cell (the trace, its bound)
 * is reused as in the full run: BENCH_SAMPLE_TRACES per trace set, seeded
 * (default hpc2n 2, unscaled 1, scaled 9: 12 of 1,182 traces, 1,548 cells,
 * 1.0 %). Each build runs the sample on BENCH_WORKERS workers (default 2)
 * into a fresh results file; CPU is the process's (worker threads included),
 * every record is compared with the committed one, timing fields aside.
 * The notebook: each trace set's sampled CPU per trace times its number of
 * traces; and (byCommittedRatio) each set's sampled CPU times the ratio of
 * the committed cell times of all its traces to those of the sampled ones;
 * on 2 cores, half of that (the cells are independent and the pool keeps
 * both workers busy), and the sample's own wall time scaled the same way.
 * Run: BENCH_DFRS_BEFORE=/path/to/old/dist NODE_PATH=node_modules npx ts-node --transpile-only -P tsconfig.json bench/dfrs-sample.ts
 *      (this build is dist/, compiled from src/ by scripts/setup.sh; adds a
 *      labelled run to bench/results/dfrs-sample.json)
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { canonicalJson, defineSweep, Json, REPLICATION, sweepCells } from '../src/sweep/grid';
import type { runSweep } from '../src/sweep/run';
import { readResultsFile } from '../src/sweep/store';
import { loadCommittedResults, withoutFields } from '../src/sweep/papers/committed';
import { experiment, paperSweep } from '../src/sweep/papers/01-dfrs-vs-batch';
import { createRng } from '../src/util/random';

const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const PER_SET: Record<string, number> = { hpc2n: 2, unscaled: 1, scaled: 9, ...JSON.parse(process.env.BENCH_SAMPLE_TRACES ?? '{}') };
const MODULE = '/sweep/papers/01-dfrs-vs-batch.js';
const builds: Record<string, string> = { after: path.resolve(__dirname, '..', 'dist') };
if (process.env.BENCH_DFRS_BEFORE) builds.before = path.resolve(process.env.BENCH_DFRS_BEFORE);

const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};
const load = () => +os.loadavg()[0].toFixed(2);
const timing = new Set(experiment.timingFields ?? []);
const withoutTiming = (v: Json): Json => withoutFields(v, timing);
const traceOf = (p: Record<string, unknown>) => canonicalJson({ trace_set: p.trace_set, trace_index: p.trace_index, load: p.load } as Json);

async function main(): Promise<void> {
  const cells = sweepCells(paperSweep);
  // Traces by set, in the notebook's order; a seeded choice of whole traces.
  const traces = new Map<string, Set<string>>();
  for (const c of cells) {
    const set = String(c.params.trace_set);
    if (!traces.has(set)) traces.set(set, new Set());
    (traces.get(set) as Set<string>).add(traceOf(c.params));
  }
  const rng = createRng(29);
  const chosen = new Set<string>();
  const tracesPerSet: Record<string, { all: number; sampled: string[] }> = {};
  for (const [set, all] of traces) {
    const sampled = rng.shuffle([...all]).slice(0, PER_SET[set] ?? 0);
    sampled.forEach((t) => chosen.add(t));
    tracesPerSet[set] = { all: all.size, sampled };
  }
  const sample = cells.filter((c) => chosen.has(traceOf(c.params)));
  const committed = new Map(loadCommittedResults(experiment, { scale: 'paper' }).records.map((r) => [r.key, r]));
  // Committed cell times (run.durationMs) per trace set, of all its traces and of the sampled ones.
  const committedSeconds: Record<'all' | 'sampled', Record<string, number>> = { all: {}, sampled: {} };
  for (const r of committed.values()) {
    const set = String(r.params.trace_set);
    for (const part of chosen.has(traceOf(r.params)) ? (['all', 'sampled'] as const) : (['all'] as const)) committedSeconds[part][set] = (committedSeconds[part][set] ?? 0) + r.run.durationMs / 1000;
  }
  const grid = sample.map((c) => Object.fromEntries(Object.entries(c.params).filter(([k]) => k !== REPLICATION).map(([k, v]) => [k, [v]])));
  console.error(`${sample.length} cells of ${cells.length} (${((100 * sample.length) / cells.length).toFixed(2)} %), ${chosen.size} traces`);

  const runs: Record<string, unknown>[] = [];
  const names = Object.keys(builds);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
  for (const [round, order] of Array.from({ length: rounds }, (_, k) => (k % 2 === 0 ? names : [...names].reverse())).entries()) {
    for (const name of order) {
      // Each build runs its own sweep engine: a worker of one copy of the toolkit loading a
      // cell module of another one also starts that copy's worker loop on the same port
      // (sweep/run imports sweep/worker, whose main() then answers every cell a second time).
      const engine = { ...(require(builds[name] + '/sweep/grid.js') as { defineSweep: typeof defineSweep }), ...(require(builds[name] + '/sweep/run.js') as { runSweep: typeof runSweep }) };
      const sweep = engine.defineSweep({ name: `dfrs-sample-${name}`, version: 1, cell: { module: builds[name] + MODULE, export: 'dfrsCell' }, grid });
      const out = path.join(os.tmpdir(), `dfrs-sample-${process.pid}-${name}-${round}.jsonl`);
      const loadStart = load();
      const c0 = cpu();
      const w0 = performance.now();
      await engine.runSweep(sweep, { out, workers: WORKERS, log: () => undefined });
      const cpuSeconds = cpu() - c0;
      const wallSeconds = (performance.now() - w0) / 1000;
      const records = readResultsFile(out).records;
      fs.rmSync(out, { force: true });
      let differ = 0;
      const cpuBySet: Record<string, number> = {};
      for (const r of records) {
        const want = committed.get(r.key);
        const got = canonicalJson(withoutTiming(r.result as Json));
        const exp = want ? canonicalJson(withoutTiming(want.result as Json)) : '';
        if (r.status !== 'ok' || got !== exp) {
          if (differ++ === 0) {
            let i = 0;
            while (i < got.length && got[i] === exp[i]) i++;
            console.error(`first record differing from the committed one: ${r.key} (${r.status}) at ${i}: ${got.slice(Math.max(0, i - 80), i + 80)} / ${exp.slice(Math.max(0, i - 80), i + 80)}`);
          }
        }
        const set = String(r.params.trace_set);
        cpuBySet[set] = (cpuBySet[set] ?? 0) + r.run.durationMs / 1000;
      }
      // The notebook: each set's cells' share of the run's CPU per sampled trace, times the set's traces.
      const cellSeconds = Object.values(cpuBySet).reduce((a, s) => a + s, 0);
      // Second reading (ratio estimator): a set's sampled CPU times the ratio of the committed
      // cell times of all its traces to those of the sampled ones (a set's traces differ
      // in cost by 10x: the busiest HPC2N weeks weigh most).
      const cpuOfSet = (set: string) => (cpuSeconds * cpuBySet[set]) / cellSeconds;
      const byRatio = Object.keys(cpuBySet).reduce((a, set) => a + (cpuOfSet(set) * committedSeconds.all[set]) / committedSeconds.sampled[set], 0);
      const notebookCpu = Object.entries(cpuBySet).reduce((a, [set, s]) => a + (cpuSeconds * (s / cellSeconds) * tracesPerSet[set].all) / tracesPerSet[set].sampled.length, 0);
      const run = {
        build: name,
        round,
        cells: records.length,
        recordsDifferingFromCommitted: differ,
        cpuSeconds: +cpuSeconds.toFixed(1),
        wallSeconds: +wallSeconds.toFixed(1),
        loadAverage1m: { start: loadStart, end: load() },
        notebookCpuHours: +(notebookCpu / 3600).toFixed(2),
        notebookHoursOn2Cores: +(notebookCpu / 2 / 3600).toFixed(2),
        notebookWallHoursAtThisLoad: +((wallSeconds * notebookCpu) / cpuSeconds / 3600).toFixed(2),
        cpuSecondsBySet: Object.fromEntries(Object.keys(cpuBySet).map((set) => [set, +cpuOfSet(set).toFixed(1)])),
        byCommittedRatio: { notebookCpuHours: +(byRatio / 3600).toFixed(2), notebookHoursOn2Cores: +(byRatio / 2 / 3600).toFixed(2) },
      };
      console.error(JSON.stringify(run));
      runs.push(run);
    }
  }
  const file = path.join(__dirname, 'results', 'dfrs-sample.json');
  const previous = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { entries: unknown[] }).entries : [];
  const entry = {
    label: process.env.BENCH_LABEL ?? new Date().toISOString().slice(0, 10),
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version },
    builds,
    workers: WORKERS,
    cells: sample.length,
    traces: Object.fromEntries(Object.entries(tracesPerSet).map(([set, t]) => [set, { all: t.all, sampled: t.sampled.map((s) => JSON.parse(s) as Json) }])),
    basis: "CPU of the whole process (sweep engine and its worker threads); notebook = per trace set, the run's CPU in proportion to the set's cell times, per sampled trace, times the set's traces; 2 cores = half",
    runs,
  };
  fs.writeFileSync(file, JSON.stringify({ bench: 'dfrs-sample', entries: [...previous, entry] }, null, 2) + '\n');
  console.error(`wrote ${file}`);
}

void main();
