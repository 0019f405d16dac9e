/**
 * Benchmark: the main job (`npm run notebooks`, scripts/notebooks.sh) per
 * notebook (issue 29, target 1: ≤ 5 min on an idle 2-core machine after set-up).
 * Runs scripts/notebooks.sh (set-up included, not timed here: its own log line)
 * into $SCHEDLAB_OUT (default: a temporary folder, so that a test run's out/ is
 * left alone) and then reads every executed notebook: the wall and CPU seconds
 * scripts/run-notebook.sh reports for it, and where the wall time went, cell by
 * cell (Jupyter's busy → idle timestamps of each cell), the kernel's start-up
 * being what the run took beyond its cells.
 * Run: npx ts-node --transpile-only -P tsconfig.json bench/main-job.ts [--no-run] [label]
 *   --no-run: read the notebooks a previous `npm run notebooks` left in $SCHEDLAB_OUT or out/ (its log on stdin).
 * Writes bench/results/main-job.json (the label's entry; other labels are kept).
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const root = path.resolve(__dirname, '..');
const resultsFile = path.join(root, 'bench', 'results', 'main-job.json');

interface CellTime {
  cell: number;
  seconds: number;
  /** The cell's first comment line, or its first line. */
  what: string;
}

async function runMainJob(outRoot: string): Promise<{ log: string; wallS: number }> {
  const t0 = Date.now();
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const p = spawn('bash', ['scripts/notebooks.sh'], { cwd: root, env: { ...process.env, SCHEDLAB_OUT: outRoot }, stdio: ['ignore', 'inherit', 'pipe'] });
    p.stderr.on('data', (d) => {
      log += d;
      process.stderr.write(d);
    });
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`scripts/notebooks.sh exited with ${code}`))));
  });
  return { log, wallS: (Date.now() - t0) / 1000 };
}

function cellTimes(file: string): CellTime[] {
  const nb = JSON.parse(fs.readFileSync(file, 'utf8'));
  const out: CellTime[] = [];
  nb.cells.forEach((c: any, i: number) => {
    const ex = c.metadata?.execution;
    if (c.cell_type !== 'code' || !ex?.['iopub.status.busy'] || !ex?.['iopub.status.idle']) return;
    const src: string = Array.isArray(c.source) ? c.source.join('') : c.source;
    const lines = src.split('\n').map((l) => l.trim()).filter(Boolean);
    const what = (lines.find((l) => l.startsWith('//')) ?? lines[0] ?? '').replace(/^\/\/\s*/, '').slice(0, 100);
    out.push({ cell: i, seconds: (Date.parse(ex['iopub.status.idle']) - Date.parse(ex['iopub.status.busy'])) / 1000, what });
  });
  return out;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const noRun = args.includes('--no-run');
  const label = args.find((a) => !a.startsWith('--')) ?? 'now';
  const loadBefore = os.loadavg()[0];
  const scratch = process.env.SCHEDLAB_OUT === undefined && !noRun;
  const outRoot = process.env.SCHEDLAB_OUT ?? (noRun ? path.join(root, 'out') : fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-main-job-')));
  const { log, wallS } = noRun ? { log: fs.readFileSync(0, 'utf8'), wallS: NaN } : await runMainJob(outRoot);
  const total = /\[notebooks\] (\d+) notebooks in (\d+) s/.exec(log);
  const rows = [];
  for (const m of log.matchAll(/\[notebook\] (\S+): ok in (\d+) s(?: \((\d+) s CPU\))?/g)) {
    const [, name, wall, cpu] = m;
    const cells = cellTimes(path.join(outRoot, name, `${name}.ipynb`));
    const inCells = cells.reduce((s, c) => s + c.seconds, 0);
    rows.push({
      notebook: name,
      wallS: Number(wall),
      cpuS: cpu === undefined ? null : Number(cpu),
      cellsS: Math.round(inCells * 10) / 10,
      startAndSaveS: Math.round((Number(wall) - inCells) * 10) / 10,
      slowestCells: [...cells].sort((a, b) => b.seconds - a.seconds).slice(0, 5),
    });
  }
  if (scratch) fs.rmSync(outRoot, { recursive: true, force: true });
  const entry = {
    date: new Date().toISOString(),
    loadAverage: { before: loadBefore, after: os.loadavg()[0] },
    cores: os.cpus().length,
    mainJobS: total ? Number(total[2]) : null,
    withSetUpS: Number.isFinite(wallS) ? Math.round(wallS) : null,
    cpuS: rows.reduce((s, r) => s + (r.cpuS ?? 0), 0),
    notebooks: rows,
  };
  const all = fs.existsSync(resultsFile) ? JSON.parse(fs.readFileSync(resultsFile, 'utf8')) : {};
  all[label] = entry;
  fs.writeFileSync(resultsFile, JSON.stringify(all, null, 1) + '\n');
  for (const r of rows) console.log(`${r.notebook}: ${r.wallS} s wall, ${r.cpuS} s CPU, cells ${r.cellsS} s; slowest: ${r.slowestCells.slice(0, 3).map((c) => `${c.seconds.toFixed(1)} s ${c.what}`).join(' | ')}`);
  console.log(`main job ${entry.mainJobS} s, ${entry.cpuS} s CPU, load ${loadBefore.toFixed(1)} → ${entry.loadAverage.after.toFixed(1)}: ${resultsFile} (${label})`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
