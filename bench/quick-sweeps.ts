/**
 * Benchmark: the quick-scale sweeps of notebooks 04 and 05 and 02's ablation, as notebooks 02, 04 and 05 run them in each of
 * their two quick executions (the notebooks suite's and the determinism
 * suite's), every cell in this process, one at a time: CPU seconds per sweep
 * and a hash of every cell's result (run-time fields left out), so a faster
 * build is shown to give the same results.
 *
 * With `--before DIR` (repeatable; a `dist/` compiled from the old sources, e.g.
 * `git stash; tsc -p tsconfig.json --outDir .old/dist; git stash pop`, inside
 * the repository so traces are found) the old and the new build alternate,
 * each in its own process, `--rounds N` times (default 2): CPU under a shared
 * machine's load is only comparable side by side.
 * Run: npx ts-node --transpile-only bench/quick-sweeps.ts [--before DIR] [--rounds N]
 * Results: bench/results/quick-sweeps.json. Its `notebookExecutions` (CPU of
 * whole quick-scale notebook executions, from scripts/run-notebook.sh's last
 * line, entered by hand: one execution costs minutes) is kept across runs.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const root = path.resolve(__dirname, '..');
const SWEEPS: [string, string][] = [
  ['04-advance-reservation', 'quickSweep'],
  ['04-advance-reservation', 'ablationQuickSweep'],
  ['05-measy', 'quickSweep'],
  ['05-measy', 'ablationQuickSweep'],
  // (a trimmed grid has another fingerprint and result hash: its cells are other cells)
  ['02-virtual-clusters', 'ablationQuickSweep'],
];

/** Run in a child: every cell of one sweep from one build; prints JSON. */
const CHILD = `
const path = require('path'); const crypto = require('crypto');
const [dist, mod, exp] = process.argv.slice(1);
const { sweepCells } = require(path.join(dist, 'sweep/grid'));
const sweep = require(path.join(dist, 'sweep/papers', mod))[exp];
const fn = require(sweep.cell.module)[sweep.cell.export];
const timing = new Set(['seconds', 'runTimeMs']);
(async () => {
  const h = crypto.createHash('sha256');
  const cells = sweepCells(sweep);
  const t0 = process.cpuUsage();
  for (const c of cells) h.update(JSON.stringify(await fn(c.params, c.seed), (k, v) => (timing.has(k) ? undefined : v)));
  const d = process.cpuUsage(t0);
  console.log(JSON.stringify({ cells: cells.length, cpuSeconds: (d.user + d.system) / 1e6, fingerprint: sweep.fingerprint, resultHash: h.digest('hex').slice(0, 16) }));
})();
`;

function arg(name: string): string | undefined {
  const k = process.argv.indexOf(`--${name}`);
  return k >= 0 ? process.argv[k + 1] : undefined;
}
// Several --before builds (e.g. the old grids, and the new grids on the old code) are labelled by their folders.
const befores = process.argv.flatMap((a, i) => (a === '--before' && process.argv[i + 1] ? [process.argv[i + 1]] : []));
const rounds = Number(arg('rounds') ?? 2);
const builds: [string, string][] = [...befores.map((b): [string, string] => [befores.length > 1 ? `before ${b}` : 'before', path.resolve(b)]), ['after', path.join(root, 'dist')]];

interface Run {
  cells: number;
  cpuSeconds: number;
  fingerprint: string;
  resultHash: string;
}
const rows: Record<string, unknown>[] = [];
for (const [mod, exp] of SWEEPS) {
  const runs: Record<string, Run[]> = {};
  for (let r = 0; r < rounds; r++) {
    for (const [label, dist] of builds) {
      const out = execFileSync(process.execPath, ['-e', CHILD, dist, mod, exp], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20 });
      (runs[label] ??= []).push(JSON.parse(out.trim().split('\n').pop()!));
    }
  }
  const row: Record<string, unknown> = { sweep: `${mod} ${exp}` };
  for (const [label, rs] of Object.entries(runs)) {
    row[label] = { cells: rs[0].cells, fingerprint: rs[0].fingerprint, resultHash: rs[0].resultHash, cpuSeconds: rs.map((x) => Number(x.cpuSeconds.toFixed(2))), minCpuSeconds: Number(Math.min(...rs.map((x) => x.cpuSeconds)).toFixed(2)) };
  }
  console.log(JSON.stringify(row));
  rows.push(row);
}
const result = { benchmark: 'quick-sweeps', date: new Date().toISOString(), load: os.loadavg().map((x) => Number(x.toFixed(1))), cpus: os.cpus().length, node: process.version, rounds, sweeps: rows };
const dir = path.join(root, 'bench', 'results');
const file = path.join(dir, 'quick-sweeps.json');
const notebookExecutions = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')).notebookExecutions : undefined;
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(file, JSON.stringify({ ...result, notebookExecutions }, null, 2) + '\n');
