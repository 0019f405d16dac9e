/**
 * What SCHEDLAB_IMAGES=off saves a quick-scale execution (the test suite's
 * determinism runs): each notebook executed by scripts/run-notebook.sh with
 * images on and off, alternating, and the CPU of every process of the run
 * counted, Chromium's included (its renderer and zygote processes are waited
 * for by no one, so `times` and rusage miss them): /proc/<pid>/stat of every
 * descendant is read every 200 ms and each process counts with its own
 * utime + stime when last seen.
 *
 *   node -r ./test/support/ts-register.js bench/images-off.ts [--rounds N] [--append] notebooks/00-quickstart.ipynb …
 *
 * The last on and off runs of each notebook are then compared as the
 * determinism test compares its two runs: tables, text outputs and chart
 * specs compared, against an images-on run compared with itself (what a
 * second images-on run gave the test before). --append adds the runs to
 * those already in the results file.
 *
 * Results: bench/results/images-off.json.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { compareRuns, formatComparison } from '../test/determinism/compare';

const root = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 1;
// --append: the runs already in the results file count too (a later round of the same comparison)
const appendAt = args.indexOf('--append');
const append = appendAt >= 0 && args.splice(appendAt, 1).length > 0;
const RESULTS = path.join(root, 'bench', 'results', 'images-off.json');
const files = args;
const TICK = 100; // clock ticks a second (USER_HZ on Linux)

interface Proc { ppid: number; cpu: number; chromium: boolean }

function snapshot(): Map<string, Proc & { pid: number }> {
  const out = new Map<string, Proc & { pid: number }>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const comm = s.slice(s.indexOf('(') + 1, s.lastIndexOf(')'));
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      // key: pid and start time, so that a reused pid is another process
      out.set(`${d}:${f[19]}`, { pid: Number(d), ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / TICK, chromium: /chrom/i.test(comm) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

interface Run { notebook: string; images: 'on' | 'off'; status: number | null; wallS: number; cpuS: number; chromiumCpuS: number; waitedCpuS: number | null; chromiumProcesses: number }

/** Each mode's last output folder per notebook, kept for the comparison at the end. */
const kept = new Map<string, string>();

function runOnce(file: string, images: 'on' | 'off'): Promise<Run> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'images-off-bench-'));
  const previous = kept.get(`${file}:${images}`);
  if (previous) fs.rmSync(previous, { recursive: true, force: true });
  kept.set(`${file}:${images}`, out);
  const env = { ...process.env, SCHEDLAB_SCALE: 'quick', SCHEDLAB_OUT: out, SCHEDLAB_IMAGES: images };
  const t0 = Date.now();
  const child = spawn('bash', ['scripts/run-notebook.sh', file], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b) => (stderr += b));
  const seen = new Map<string, Proc>();
  const poll = () => {
    const all = snapshot();
    const byPid = new Map([...all.values()].map((p) => [p.pid, p]));
    const mine = new Set([child.pid as number]);
    for (const [key, p] of all) {
      // a descendant of the run: walk up its parents
      for (let q: number | undefined = p.pid, n = 0; q !== undefined && q > 1 && n < 64; q = byPid.get(q)?.ppid, n++) {
        if (mine.has(q)) {
          mine.add(p.pid);
          seen.set(key, p);
          break;
        }
      }
    }
  };
  const timer = setInterval(poll, 200);
  return new Promise((resolve) => {
    child.on('exit', (status) => {
      clearInterval(timer);
      const procs = [...seen.values()];
      const chromium = procs.filter((p) => p.chromium);
      const waited = /\((\d+) s CPU\)/.exec(stderr);
      if (status !== 0) process.stderr.write(stderr.slice(-3000));
      resolve({
        notebook: path.basename(file, '.ipynb'),
        images,
        status,
        wallS: Math.round((Date.now() - t0) / 100) / 10,
        cpuS: Math.round(procs.reduce((s, p) => s + p.cpu, 0) * 10) / 10,
        chromiumCpuS: Math.round(chromium.reduce((s, p) => s + p.cpu, 0) * 10) / 10,
        waitedCpuS: waited ? Number(waited[1]) : null,
        chromiumProcesses: chromium.length,
      });
    });
  });
}

function loadAverage(): number[] {
  return os.loadavg().map((x) => Math.round(x * 10) / 10);
}

(async () => {
  const runs: (Run & { round: number; loadBefore: number[] })[] = append && fs.existsSync(RESULTS) ? JSON.parse(fs.readFileSync(RESULTS, 'utf8')).runs : [];
  const first = runs.reduce((n, r) => Math.max(n, r.round + 1), 0);
  for (let round = first; round < first + rounds; round++) {
    for (const [i, file] of files.entries()) {
      // alternate which mode goes first
      const order: ('on' | 'off')[] = (round + i) % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
      for (const images of order) {
        const loadBefore = loadAverage();
        // A kernel that does not answer nbconvert within its 60 s (a loaded machine) is a failed start, not a result: tried again.
        let r = await runOnce(file, images);
        for (let retry = 0; r.status !== 0 && retry < 2; retry++) r = await runOnce(file, images);
        runs.push({ round, loadBefore, ...r });
        process.stderr.write(`${r.notebook} images ${images}: ${r.cpuS} s CPU (Chromium ${r.chromiumCpuS} s, ${r.chromiumProcesses} processes; waited-for ${r.waitedCpuS} s), ${r.wallS} s wall, load ${loadBefore.join(' ')}\n`);
      }
    }
  }
  const summary = [...new Set(runs.map((r) => r.notebook))].map((notebook) => {
    const of = (images: string) => runs.filter((r) => r.notebook === notebook && r.images === images);
    const mean = (xs: number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10;
    const on = of('on');
    const off = of('off');
    return { notebook, runs: on.length, onCpuS: mean(on.map((r) => r.cpuS)), offCpuS: mean(off.map((r) => r.cpuS)), savedCpuS: Math.round((mean(on.map((r) => r.cpuS)) - mean(off.map((r) => r.cpuS))) * 10) / 10, onChromiumCpuS: mean(on.map((r) => r.chromiumCpuS)), offChromiumCpuS: mean(off.map((r) => r.chromiumCpuS)) };
  });
  // What the determinism test compares with the second run's images off, against what it compared with both on
  // (an images-on run against itself: the same cells and outputs as a second images-on run).
  const comparison = files.map((file) => {
    const name = path.basename(file, '.ipynb');
    const on = kept.get(`${file}:on`) as string;
    const off = kept.get(`${file}:off`) as string;
    const count = (a: string, b: string) => {
      const c = compareRuns(a, b, [name]);
      return { identical: c.identical, tables: c.tables.length, textOutputs: c.notebooks[0]?.outputsCompared ?? 0, chartSpecs: c.notebooks[0]?.chartsCompared ?? 0, imageOnlyOutputs: c.notebooks[0]?.chartsSkipped ?? 0, report: c.identical ? undefined : formatComparison(c) };
    };
    return { notebook: name, bothOn: count(on, on), secondOff: count(on, off) };
  });
  for (const dir of kept.values()) fs.rmSync(dir, { recursive: true, force: true });
  const result = {
    bench: 'images-off',
    date: new Date().toISOString(),
    machine: `${os.cpus().length} cores, shared`,
    note: 'quick-scale executions (scripts/run-notebook.sh) with SCHEDLAB_IMAGES on and off, alternating; cpuS: every process of the run with its own utime + stime when last seen (read from /proc every 200 ms, Chromium included); waitedCpuS: what run-notebook.sh reports (processes it waited for: misses Chromium renderers); loadBefore: load average before each run',
    summary,
    comparison,
    runs,
  };
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  fs.writeFileSync(RESULTS, JSON.stringify(result, null, 1) + '\n');
  process.stderr.write(`${JSON.stringify({ summary, comparison }, null, 1)}\n`);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
