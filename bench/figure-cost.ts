/**
 * Benchmark: what drawing a figure costs once the renderer is warm (issue 29: ~270 `saveFigure`s a suite, each
 * a PNG for the notebook and the SVG, PNG and PDF files). The renderer before the change (`src/analysis/render.ts`
 * at `--before REV`, transpiled next to the compiled one in dist/) and now (dist/) alternate, one fresh node
 * process each, `--rounds` times. In each, after a first figure has started Chromium and loaded plotly, six typical
 * charts (the headline charts of 03 and 04, a line chart with error bars on a log axis, a bar, a CDF, a Gantt
 * chart), `--reps` times each, are drawn
 *  - as `saveFigure` draws them: the notebook's PNG (scale 1.5), then `exportFigure` (SVG, PNG at scale 2, PDF);
 *  - one format at a time (`exportFigure` with that format only): where a figure's cost goes.
 * CPU per stage: the node process (process.cpuUsage) and Chromium (every live descendant process, from /proc).
 * Before the timed runs both renderers draw the six figures as saveFigure does and the bytes are compared
 * (PNG exactly, SVG without plotly's random ids and in attribute name order, PDF without its dates: test/support/figure-bytes.ts).
 * With `--notebook NAME` it also executes notebooks/NAME.ipynb at quick scale with each renderer in turn
 * (dist/analysis/render.js swapped for the old one, then restored), summing the CPU of every process of the
 * run from /proc (Chromium included), and compares the figure files and the notebook's PNG outputs.
 * Run after `scripts/setup.sh`: npx ts-node --transpile-only bench/figure-cost.ts [--rounds 2] [--reps 2] [--before REV] [--notebook 04-advance-reservation] [--notebook-rounds 1]
 * Writes bench/results/figure-cost.json.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { execFileSync, spawn, spawnSync } from 'child_process';
import { pdfWithoutDates, svgWithoutIds } from '../test/support/figure-bytes';
import { sortAttributes } from '../src/analysis/render';
import { CHROMIUM_CPU_SOURCE, SIX_FIGURES_SOURCE } from './child-sources';

const root = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const rounds = Number(opt('--rounds', '2'));
const reps = Number(opt('--reps', '2'));
const beforeRev = opt('--before', '65b384f');
const notebook = opt('--notebook', '');
const notebookRounds = Number(opt('--notebook-rounds', '1'));
const dist = path.join(root, 'dist');

/** Shared by the children: the six figures, and CPU read from /proc. */
const COMMON = String.raw`
const fs = require('fs');
${SIX_FIGURES_SOURCE}${CHROMIUM_CPU_SOURCE}`;

/** The timing child: prints one JSON line of { figure, stage, nodeCpuS, chromiumCpuS }. */
const CHILD = COMMON + String.raw`
const [dist, renderFile, reps] = process.argv.slice(1);
(async () => {
  const lib = require(dist + '/index.js');
  const R = require(renderFile);
  const out = fs.mkdtempSync(require('path').join(require('os').tmpdir(), 'schedlab-figure-cost-'));
  const figs = figures(lib);
  // Warm: Chromium started, plotly loaded, the PDF page opened.
  const warm = lib.lineChart({ data: [{ x: 1, y: 2 }, { x: 2, y: 3 }], x: 'x', y: 'y', title: 'warm' });
  await R.renderFigure(warm, 'png', { scale: 1.5 }); await R.exportFigure(warm, out + '/warm');
  const rows = [];
  let last;
  const start = () => { last = { c: process.cpuUsage(), k: chromiumCpu() }; };
  const mark = (figure, stage) => {
    const c = process.cpuUsage(), k = chromiumCpu();
    rows.push({ figure, stage, nodeCpuS: (c.user + c.system - last.c.user - last.c.system) / 1e6, chromiumCpuS: Math.max(0, k - last.k) });
    last = { c: process.cpuUsage(), k };
  };
  for (let r = 0; r < +reps; r++) {
    for (const [name, fig] of Object.entries(figs)) {
      start();
      await R.renderFigure(fig, 'png', { scale: 1.5 }); mark(name, 'saveFigure: show PNG');
      await R.exportFigure(fig, out + '/f'); mark(name, 'saveFigure: exportFigure (SVG, PNG, PDF)');
      for (const fmt of ['svg', 'png', 'pdf']) { await R.exportFigure(fig, out + '/f', { formats: [fmt] }); mark(name, 'alone: ' + fmt.toUpperCase()); }
    }
  }
  await R.closeRenderer();
  fs.rmSync(out, { recursive: true, force: true });
  console.log(JSON.stringify(rows));
})().catch((e) => { console.error(e); process.exit(1); });
`;

/** The comparison child: each figure drawn as saveFigure draws it by both renderers; prints the files' paths as JSON. */
const COMPARE = COMMON + String.raw`
const [dist, beforeFile, nowFile, outDir] = process.argv.slice(1);
(async () => {
  const lib = require(dist + '/index.js');
  const B = require(beforeFile), N = require(nowFile);
  const out = [];
  for (const [figure, fig] of Object.entries(figures(lib))) {
    const slug = figure.replace(/\W+/g, '-');
    const row = { figure };
    for (const [v, R] of [['before', B], ['now', N]]) {
      fs.writeFileSync(outDir + '/' + v + '-' + slug + '-show.png', await R.renderFigure(fig, 'png', { scale: 1.5 }));
      row[v] = [outDir + '/' + v + '-' + slug + '-show.png', ...(await R.exportFigure(fig, outDir + '/' + v + '-' + slug))];
    }
    out.push(row);
  }
  await B.closeRenderer(); await N.closeRenderer();
  console.log(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
`;

interface Row { figure: string; stage: string; nodeCpuS: number; chromiumCpuS: number }

const round3 = (x: number) => Number(x.toFixed(3));
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Files (or the same file of two runs) identical up to plotly's ids and attribute order (SVG; renderers up to 068decb kept plotly's order) and dates (PDF). */
function same(a: string, b: string): boolean {
  const svg = (file: string) => svgWithoutIds(sortAttributes(fs.readFileSync(file, 'utf8')));
  if (a.endsWith('.svg')) return svg(a) === svg(b);
  if (a.endsWith('.pdf')) return pdfWithoutDates(fs.readFileSync(a)) === pdfWithoutDates(fs.readFileSync(b));
  return fs.readFileSync(a).equals(fs.readFileSync(b));
}

/** CPU seconds of a command and every process it starts, read from /proc every 0.2 s (a process's last 0.2 s before it exits can be missed). */
function runCounted(cmd: string, argv: string[], env: NodeJS.ProcessEnv): Promise<{ cpuS: number; wallS: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const child = spawn(cmd, argv, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const seen = new Map<number, number>();
    const sample = () => {
      const procs = new Map<number, { ppid: number; cpu: number }>();
      for (const d of fs.readdirSync('/proc')) {
        if (!/^\d+$/.test(d)) continue;
        try {
          const s = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
          const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
          // utime + stime only: a waited-for child's time is its own entry while it lives.
          procs.set(+d, { ppid: +f[1], cpu: (+f[11] + +f[12]) / 100 });
        } catch {
          // exited meanwhile
        }
      }
      const mine = new Set([child.pid!]);
      for (let grew = true; grew; ) {
        grew = false;
        for (const [p, k] of procs) if (!mine.has(p) && mine.has(k.ppid)) { mine.add(p); grew = true; }
      }
      for (const p of mine) if (procs.has(p)) seen.set(p, Math.max(seen.get(p) ?? 0, procs.get(p)!.cpu));
    };
    const timer = setInterval(sample, 200);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) return reject(new Error(`${cmd} ${argv.join(' ')} failed (${code}): ${stderr}`));
      resolve({ cpuS: round3([...seen.values()].reduce((a, b) => a + b, 0)), wallS: (Date.now() - t0) / 1000, stderr });
    });
  });
}

/** The notebook's PNG outputs (base64), in order. */
function notebookPngs(file: string): string[] {
  const nb = JSON.parse(fs.readFileSync(file, 'utf8')) as { cells: { outputs?: { data?: Record<string, unknown> }[] }[] };
  return nb.cells.flatMap((c) => (c.outputs ?? []).map((o) => o.data?.['image/png']).filter((p): p is string => typeof p === 'string'));
}

async function main(): Promise<void> {
  const nowFile = path.join(dist, 'analysis', 'render.js');
  if (!fs.existsSync(nowFile)) throw new Error('dist/ is missing: run scripts/setup.sh (or npm run build) first');
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const ts = require('typescript') as typeof import('typescript');
  const oldSource = execFileSync('git', ['show', `${beforeRev}:src/analysis/render.ts`], { cwd: root, encoding: 'utf8' });
  const beforeJs = ts.transpileModule(oldSource, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 } }).outputText;
  const beforeFile = path.join(dist, 'analysis', 'render-before-bench.js');
  fs.writeFileSync(beforeFile, beforeJs);
  const loads: number[] = [os.loadavg()[0]];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-figure-cost-'));
  const rows: Record<'before' | 'now', Row[]> = { before: [], now: [] };
  const result: Record<string, unknown> = { date: new Date().toISOString(), cores: os.cpus().length, before: beforeRev, rounds, reps };
  try {
    const cmp = spawnSync(process.execPath, ['-e', COMPARE, dist, beforeFile, nowFile, tmp], { cwd: root, encoding: 'utf8' });
    if (cmp.status !== 0) throw new Error(`figure comparison failed: ${cmp.stderr}`);
    const files = JSON.parse(cmp.stdout.trim().split('\n').pop()!) as { figure: string; before: string[]; now: string[] }[];
    result.sameOutput = files.map((f) => ({ figure: f.figure, ...Object.fromEntries(['show PNG', 'SVG', 'PNG', 'PDF'].map((k, i) => [k, same(f.before[i], f.now[i])])) }));
    process.stderr.write(`same output: ${JSON.stringify(result.sameOutput)}\n`);
    for (let i = 0; i < rounds; i++) {
      for (const version of ['before', 'now'] as const) {
        const r = spawnSync(process.execPath, ['-e', CHILD, dist, version === 'before' ? beforeFile : nowFile, String(reps)], { cwd: root, encoding: 'utf8' });
        if (r.status !== 0) throw new Error(`figure-cost run (${version}) failed: ${r.stderr}`);
        rows[version].push(...(JSON.parse(r.stdout.trim().split('\n').pop()!) as Row[]));
        loads.push(os.loadavg()[0]);
        process.stderr.write(`${version}: round ${i + 1} done\n`);
      }
    }
    write(result, rows, loads);
    if (notebook) {
      result.notebook = await notebookRuns(beforeJs, nowFile, tmp, loads);
      write(result, rows, loads);
      process.stderr.write(`\nnotebook: ${JSON.stringify(result.notebook)}\n`);
    }
  } finally {
    fs.rmSync(beforeFile, { force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function write(result: Record<string, unknown>, rows: Record<'before' | 'now', Row[]>, loads: number[]): void {
  // Per stage: median over figures' runs of node + Chromium CPU; per figure a saveFigure's total.
  const stages = [...new Set(rows.now.map((r) => r.stage))];
  const perStage = (v: 'before' | 'now') =>
    Object.fromEntries(stages.map((st) => {
      const mine = rows[v].filter((r) => r.stage === st);
      return [st, { nodeCpuS: round3(median(mine.map((r) => r.nodeCpuS))), chromiumCpuS: round3(median(mine.map((r) => r.chromiumCpuS))), cpuS: round3(median(mine.map((r) => r.nodeCpuS + r.chromiumCpuS))), meanCpuS: round3(mine.reduce((a, r) => a + r.nodeCpuS + r.chromiumCpuS, 0) / mine.length) }];
    }));
  const perFigure = (v: 'before' | 'now') =>
    Object.fromEntries([...new Set(rows[v].map((r) => r.figure))].map((fig) => {
      const cpu = (st: string) => { const m = rows[v].filter((r) => r.figure === fig && r.stage === st); return m.reduce((a, r) => a + r.nodeCpuS + r.chromiumCpuS, 0) / m.length; };
      return [fig, round3(cpu('saveFigure: show PNG') + cpu('saveFigure: exportFigure (SVG, PNG, PDF)'))];
    }));
  result.loadAverage = { min: Math.min(...loads), max: Math.max(...loads) };
  result.note = 'CPU seconds, node + Chromium (every live descendant of the node process, /proc); per stage the median over figures and runs (meanCpuS: the mean); saveFigure: the show PNG then exportFigure of all three formats; alone: exportFigure of one format; perFigureSaveFigureCpuS: mean of a saveFigure per figure; sameOutput: each figure drawn as saveFigure does by both renderers (PNG bytes, SVG without plotly ids, PDF without dates)';
  result.summary = { before: { stages: perStage('before'), perFigureSaveFigureCpuS: perFigure('before') }, now: { stages: perStage('now'), perFigureSaveFigureCpuS: perFigure('now') } };
  result.rows = rows;
  fs.writeFileSync(path.join(root, 'bench', 'results', 'figure-cost.json'), JSON.stringify(result, null, 1) + '\n');
  for (const v of ['before', 'now'] as const) {
    process.stderr.write(`\n${v} (CPU s, median: node + Chromium)\n`);
    for (const [st, c] of Object.entries(perStage(v))) process.stderr.write(`  ${st.padEnd(44)} ${c.nodeCpuS.toFixed(3)} + ${c.chromiumCpuS.toFixed(3)} = ${c.cpuS.toFixed(3)} (mean ${c.meanCpuS.toFixed(3)})\n`);
    process.stderr.write(`  saveFigure per figure: ${JSON.stringify(perFigure(v))}\n`);
  }
}

/** Whole quick executions of the notebook, the old renderer swapped into dist/ and the new one alternating. */
async function notebookRuns(beforeJs: string, nowFile: string, tmp: string, loads: number[]): Promise<Record<string, unknown>> {
  const nowJs = fs.readFileSync(nowFile, 'utf8');
  const runs: { version: string; cpuS: number; wallS: number; scriptCpuS: number }[] = [];
  const outs: Record<string, string> = {};
  let compared: Record<string, unknown> = {};
  try {
    for (let i = 0; i < notebookRounds; i++) {
      for (const version of ['before', 'now'] as const) {
        fs.writeFileSync(nowFile, version === 'before' ? beforeJs : nowJs);
        const out = path.join(tmp, `${version}-${i}`);
        const env = { ...process.env, SCHEDLAB_SCALE: 'quick', SCHEDLAB_OUT: out };
        const r = await runCounted('bash', ['scripts/run-notebook.sh', `notebooks/${notebook}.ipynb`], env);
        const scriptCpuS = Number(/\((\d+) s CPU\)/.exec(r.stderr)?.[1] ?? NaN);
        runs.push({ version, cpuS: r.cpuS, wallS: r.wallS, scriptCpuS });
        loads.push(os.loadavg()[0]);
        process.stderr.write(`notebook ${version}: ${r.cpuS} s CPU (all processes), ${scriptCpuS} s CPU waited for, ${r.wallS} s wall\n`);
        outs[version] = path.join(out, notebook);
      }
      if (i === 0) {
        // The first round's outputs compared: every figure file, and the notebook's PNGs in order.
        const figs = fs.readdirSync(path.join(outs.before, 'figures')).sort();
        const differ = figs.filter((f) => !same(path.join(outs.before, 'figures', f), path.join(outs.now, 'figures', f)));
        const a = notebookPngs(path.join(outs.before, `${notebook}.ipynb`));
        const b = notebookPngs(path.join(outs.now, `${notebook}.ipynb`));
        const pngsDiffer = a.length !== b.length ? -1 : a.filter((p, j) => p !== b[j]).length;
        compared = { figureFiles: figs.length, figureFilesDiffering: differ, notebookPngs: a.length, notebookPngsDiffering: pngsDiffer };
        process.stderr.write(`notebook outputs: ${JSON.stringify(compared)}\n`);
      }
    }
  } finally {
    fs.writeFileSync(nowFile, nowJs);
  }
  const med = (v: string, k: 'cpuS' | 'scriptCpuS' | 'wallS') => median(runs.filter((r) => r.version === v).map((r) => r[k]));
  return { notebook, scale: 'quick', runs, medianCpuS: { before: med('before', 'cpuS'), now: med('now', 'cpuS') }, medianWaitedCpuS: { before: med('before', 'scriptCpuS'), now: med('now', 'scriptCpuS') }, compared };
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
