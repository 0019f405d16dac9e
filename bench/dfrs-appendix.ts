/**
 * Benchmark: notebook 01 at paper scale, measured by running it (issue 29,
 * target 3: ≤ 2 h on 2 cores). Reads the results file of a run of
 * `schedlab paper 01 --workers 2` started without the committed copy (so
 * every cell is computed again), whole or partial, and
 *  - compares every record with the committed one, timing fields aside;
 *  - sums each part's cell times (run.durationMs) by part and trace set, and
 *    projects the parts not run to the end by the ratio of this run's cell
 *    times to the committed cell times of the same cells;
 *  - turns cell time into wall time at the run's own rate: the cell seconds
 *    it recorded per second of its wall time (BENCH_RUN_WALL_S, the wall
 *    seconds of the run or runs that wrote the file, from /usr/bin/time).
 * Run: BENCH_RUN_WALL_S=… npx ts-node --transpile-only -P tsconfig.json bench/dfrs-appendix.ts RESULTS.jsonl COMMITTED.jsonl.gz LABEL [NOTE]
 * Adds LABEL to bench/results/dfrs-appendix.json.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { canonicalJson, Json } from '../src/sweep/grid';
import { experiment } from '../src/sweep/papers/01-dfrs-vs-batch';
import { withoutFields } from '../src/sweep/papers/committed';
import { readResultsFile } from '../src/sweep/store';

interface Rec {
  key: string;
  status: string;
  params: { part: string; trace_set: string };
  result: Json;
  run: { durationMs: number };
}

const [resultsFile, committedFile, label, note] = process.argv.slice(2);
if (!resultsFile || !committedFile || !label) throw new Error('usage: bench/dfrs-appendix.ts RESULTS.jsonl COMMITTED.jsonl.gz LABEL [NOTE]');
const timing = new Set(experiment.timingFields ?? []);
const withoutTiming = (v: Json): Json => withoutFields(v, timing);
const committed = new Map<string, Rec>();
for (const l of zlib.gunzipSync(fs.readFileSync(committedFile)).toString('utf8').split('\n').filter((line) => line.startsWith('{'))) {
  const r = JSON.parse(l) as Rec;
  committed.set(r.key, r);
}
type Group = { cells: number; done: number; committedS: number; committedDoneS: number; doneS: number };
const groups: Record<string, Group> = {};
const groupOf = (r: Rec) => `${r.params.part}/${r.params.trace_set}`;
for (const r of committed.values()) {
  const g = (groups[groupOf(r)] ??= { cells: 0, done: 0, committedS: 0, committedDoneS: 0, doneS: 0 });
  g.cells++;
  g.committedS += r.run.durationMs / 1000;
}
let identical = 0;
let differ = 0;
let failed = 0;
let unknown = 0;
let firstDiffering: string | null = null;
const run = readResultsFile(resultsFile);
if (run.invalid.length) throw new Error(`${resultsFile}: ${run.invalid.length} invalid lines, the first at line ${run.invalid[0].line}: ${run.invalid[0].reason}`);
for (const r of run.records as unknown as Rec[]) {
  if (r.status !== 'ok') {
    failed++;
    continue;
  }
  const c = committed.get(r.key);
  if (!c) {
    unknown++;
    continue;
  }
  if (canonicalJson(withoutTiming(c.result)) === canonicalJson(withoutTiming(r.result))) identical++;
  else {
    differ++;
    firstDiffering ??= r.key;
  }
  const g = groups[groupOf(c)];
  g.done++;
  g.doneS += r.run.durationMs / 1000;
  g.committedDoneS += c.run.durationMs / 1000;
}
const r2 = (x: number) => +x.toFixed(2);
const byGroup = Object.fromEntries(
  Object.entries(groups).map(([k, g]) => {
    const ratio = g.committedDoneS > 0 ? g.doneS / g.committedDoneS : NaN;
    return [k, { cells: g.cells, done: g.done, doneCellS: Math.round(g.doneS), committedCellS: Math.round(g.committedS), ratioToCommitted: +ratio.toFixed(3), projectedCellS: Math.round(g.done === g.cells ? g.doneS : g.committedS * ratio) }];
  }),
);
const doneS = Object.values(groups).reduce((a, g) => a + g.doneS, 0);
const projectedS = Object.values(byGroup).reduce((a, g) => a + g.projectedCellS, 0);
const notSampled = Object.entries(byGroup).filter(([, g]) => g.done === 0).map(([k]) => k);
const wallS = Number(process.env.BENCH_RUN_WALL_S);
if (!(wallS > 0)) throw new Error('BENCH_RUN_WALL_S: the wall seconds of the run(s) that wrote the results file');
const rate = doneS / wallS;
const entry = {
  label,
  note,
  results: path.basename(resultsFile),
  records: { identical, differ, firstDiffering, failed, notInCommitted: unknown, committed: committed.size },
  byGroup,
  doneCellHours: r2(doneS / 3600),
  // Only when every part was sampled.
  projectedCellHours: notSampled.length ? null : r2(projectedS / 3600),
  runWallS: wallS,
  cellSecondsPerWallSecond: r2(rate),
  projectedWallHours: notSampled.length ? null : r2(projectedS / rate / 3600),
  partsNotSampled: notSampled,
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model,
  date: new Date().toISOString(),
};
const out = path.join(__dirname, 'results', 'dfrs-appendix.json');
const all = fs.existsSync(out) ? JSON.parse(fs.readFileSync(out, 'utf8')) : { benchmark: 'notebook 01 at paper scale, run through the sweep engine on 2 workers without the committed copy', runs: {} };
all.runs[label] = entry;
fs.writeFileSync(out, JSON.stringify(all, null, 1) + '\n');
console.log(JSON.stringify(entry, null, 1));
