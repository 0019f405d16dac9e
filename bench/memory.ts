/**
 * Benchmark: `schedlab simulate --out` on traces of 1M and 10M jobs (HPC2N
 * repeated back to back, ids renumbered), EASY with requested estimates.
 * Measures wall time and peak RSS of the whole process (getrusage of the
 * child), and the resident bytes per job: (peak RSS − peak RSS of the same
 * command on a one-job trace) / jobs. Target (issue: bounded memory):
 * ≤ 150 bytes a job, and 10M jobs through `simulate --out` at all.
 * Uses the built CLI (dist/; `npm run build` first); writes bench/results/memory.json.
 * Run: npx ts-node --transpile-only bench/memory.ts [jobs ...]
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { findTrace } from '../src/workloads/traces';

const ROOT = path.resolve(__dirname, '..');
const SIMULATE = path.join(ROOT, 'dist', 'cli', 'simulate.js');

/** An SWF file of n jobs: HPC2N copies shifted one after another. */
function writeBigTrace(n: number, file: string): void {
  const text = zlib.gunzipSync(fs.readFileSync(findTrace('HPC2N')!)).toString();
  const rows = text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith(';')).map((l) => l.trim().split(/\s+/).map(Number));
  const span = rows[rows.length - 1][1] + 1;
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, '; MaxProcs: 240\n');
  let id = 0;
  let buf: string[] = [];
  for (let copy = 0; id < n; copy++) {
    for (const r of rows) {
      if (id >= n) break;
      const v = r.slice();
      v[0] = ++id;
      v[1] = r[1] + copy * span;
      buf.push(v.join(' '));
      if (buf.length === 100_000) {
        fs.writeSync(fd, buf.join('\n') + '\n');
        buf = [];
      }
    }
  }
  if (buf.length) fs.writeSync(fd, buf.join('\n') + '\n');
  fs.closeSync(fd);
}

/** Run the CLI in a child that reports its own peak RSS (getrusage, KiB) on exit. */
function run(trace: string, out: string): { seconds: number; peakRssBytes: number } {
  const args = ['--trace', trace, '--policy', 'easy', '--estimates', 'requested', '--out', out];
  const wrapper = `process.on('exit', () => process.stderr.write('MAXRSS ' + process.resourceUsage().maxRSS + '\\n'));
    require(${JSON.stringify(SIMULATE)}).simulateMain(${JSON.stringify(args)}).then((code) => { process.exitCode = code; });`;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['-e', wrapper], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`simulate failed (${r.status}): ${r.stderr}`);
  const kib = Number(/MAXRSS (\d+)/.exec(r.stderr)?.[1]);
  return { seconds, peakRssBytes: kib * 1024 };
}

function main(): void {
  const sizes = process.argv.slice(2).map(Number);
  const counts = sizes.length ? sizes : [1_000_000, 10_000_000];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-memory-'));
  try {
    writeBigTrace(1, path.join(dir, 'one.swf'));
    const base = run(path.join(dir, 'one.swf'), path.join(dir, 'one.csv'));
    const runs = counts.map((n) => {
      const trace = path.join(dir, `${n}.swf`);
      writeBigTrace(n, trace);
      const r = run(trace, path.join(dir, `${n}.csv`));
      const csvBytes = fs.statSync(path.join(dir, `${n}.csv`)).size;
      fs.rmSync(trace);
      fs.rmSync(path.join(dir, `${n}.csv`));
      const perJob = (r.peakRssBytes - base.peakRssBytes) / n;
      console.log(`${n} jobs: ${r.seconds.toFixed(1)} s, peak RSS ${(r.peakRssBytes / 2 ** 20).toFixed(0)} MiB, ${perJob.toFixed(0)} bytes a job, CSV ${(csvBytes / 2 ** 20).toFixed(0)} MiB`);
      return { jobs: n, seconds: Number(r.seconds.toFixed(2)), peakRssMiB: Number((r.peakRssBytes / 2 ** 20).toFixed(1)), bytesPerJob: Math.round(perJob), csvMiB: Number((csvBytes / 2 ** 20).toFixed(1)) };
    });
    const result = {
      benchmark: 'schedlab simulate --out on N-job traces (HPC2N repeated), EASY, requested estimates',
      machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))) },
      baselinePeakRssMiB: Number((base.peakRssBytes / 2 ** 20).toFixed(1)),
      targetBytesPerJob: 150,
      runs,
      // Between the smallest and largest run: what each further job costs, fixed heap overheads aside.
      marginalBytesPerJob: runs.length > 1 ? Math.round(((runs[runs.length - 1].peakRssMiB - runs[0].peakRssMiB) * 2 ** 20) / (runs[runs.length - 1].jobs - runs[0].jobs)) : null,
      // The target is judged at the largest size: the garbage collector's fixed heap weighs on small runs.
      meetsTarget: runs[runs.length - 1].bytesPerJob <= 150,
    };
    fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, 'bench', 'results', 'memory.json'), JSON.stringify(result, null, 2) + '\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main();
