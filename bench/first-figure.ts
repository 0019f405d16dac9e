/**
 * Benchmark: a notebook kernel's first figure (issue 29, targets 1 and 2: paid once per kernel, 8 times in the
 * main job and 22 times in the test suite). One fresh node process per run, like a kernel, stage by stage:
 * loading the modules, the notebook's own work before its first chart (notebook 03's headline chart from the
 * committed results), the first `show` PNG (which starts Chromium and loads plotly), the exports of
 * `saveFigure` (SVG, PNG, PDF), a second figure shown and exported, closing. Per stage: wall, the node
 * process's CPU and Chromium's (every live descendant process, read from /proc before the browser closes);
 * per run, the CPU of everything the process waited for (`/usr/bin/time`).
 * The renderer before the change (`src/analysis/render.ts` at `--before REV`, transpiled next to the
 * compiled one in dist/) and now (dist/) alternate, `--rounds` times each. Both start the renderer when
 * the modules are loaded if they can, as on import inside a kernel (outside one it waits for the first figure).
 * Before the timed runs, six figures (the headline charts of 03 and 04, a line chart with error bars on a log
 * axis, a bar, a CDF and a Gantt chart) are drawn by both renderers and compared: PNG byte for byte, SVG with
 * plotly's random ids set aside, PDF with its dates set aside; with the bundle the new renderer chose.
 * Run after `scripts/setup.sh` (or the build): npx ts-node --transpile-only bench/first-figure.ts [--rounds 3] [--before REV]
 * Writes bench/results/first-figure.json.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { execFileSync, spawnSync } from 'child_process';
import { CHROMIUM_CPU_SOURCE, SIX_FIGURES_SOURCE } from './child-sources';

const root = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const rounds = Number(opt('--rounds', '3'));
const beforeRev = opt('--before', '35d36b7');
const dist = path.join(root, 'dist');

/** The child: one kernel-like process, stages timed; prints one JSON line. */
const CHILD = String.raw`
const fs = require('fs');
const [dist, renderFile, warm] = process.argv.slice(1);
${CHROMIUM_CPU_SOURCE}const stages = [];
let last = { w: performance.now(), c: process.cpuUsage(), k: 0 };
function mark(stage) {
  const w = performance.now(), c = process.cpuUsage(), k = stage === 'close' ? last.k : chromiumCpu();
  stages.push({ stage, wallS: +((w - last.w) / 1000).toFixed(3), nodeCpuS: +((c.user + c.system - last.c.user - last.c.system) / 1e6).toFixed(3), chromiumCpuS: +Math.max(0, k - last.k).toFixed(2) });
  last = { w, c, k };
}
(async () => {
  require('playwright-core'); require('danfojs');
  const lib = require(dist + '/index.js');
  const R = require(renderFile);
  if (warm === 'warm' && R.warmRenderer) R.warmRenderer();
  mark('modules');
  const fig = lib.headlineChart('03-evolving-applications');
  const second = lib.headlineChart('04-advance-reservation');
  mark('notebook work (headline charts of 03, 04)');
  await R.renderFigure(fig, 'png', { scale: 1.5 }); mark('first show PNG');
  const out = fs.mkdtempSync(require('path').join(require('os').tmpdir(), 'schedlab-first-figure-'));
  await R.exportFigure(fig, out + '/first', { formats: ['svg'] }); mark('export SVG');
  await R.exportFigure(fig, out + '/first', { formats: ['png'] }); mark('export PNG');
  await R.exportFigure(fig, out + '/first', { formats: ['pdf'] }); mark('export PDF');
  await R.renderFigure(second, 'png', { scale: 1.5 }); await R.exportFigure(second, out + '/second'); mark('second figure: show + SVG/PNG/PDF');
  await R.closeRenderer(); mark('close');
  fs.rmSync(out, { recursive: true, force: true });
  console.log(JSON.stringify(stages));
})().catch((e) => { console.error(e); process.exit(1); });
`;

/** The comparison child: each figure drawn by both renderers; prints one JSON line. */
const COMPARE = String.raw`
const [dist, beforeFile, nowFile] = process.argv.slice(1);
${SIX_FIGURES_SOURCE}
(async () => {
  const lib = require(dist + '/index.js');
  const B = require(beforeFile), N = require(nowFile);
  const figs = figures(lib);
  // plotly names clip paths, legends and traces with random 6-hex ids: the same id in both is set aside.
  const svgNorm = (s) => { for (const id of new Set([...s.matchAll(/(?:clip|legend|trace|topbar|bottomshadow|scrollbar)([0-9a-f]{6})/g)].map((m) => m[1]))) s = s.split(id).join('UID'); return s; };
  const pdfNorm = (b) => b.toString('latin1').replace(/\/(CreationDate|ModDate) \(D:[^)]*\)/g, '/$1 ()');
  const out = [];
  for (const [figure, fig] of Object.entries(figs)) {
    const r = { figure, bundle: N.plotlyBundleFor ? await N.plotlyBundleFor(fig) : 'full' };
    for (const fmt of ['png', 'svg', 'pdf']) {
      const a = await B.renderFigure(fig, fmt, { scale: 1.5 }), b = await N.renderFigure(fig, fmt, { scale: 1.5 });
      r[fmt + 'Identical'] = fmt === 'png' ? a.equals(b) : fmt === 'svg' ? svgNorm(a.toString()) === svgNorm(b.toString()) : pdfNorm(a) === pdfNorm(b);
    }
    out.push(r);
  }
  await B.closeRenderer(); await N.closeRenderer();
  console.log(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
`;

interface Stage { stage: string; wallS: number; nodeCpuS: number; chromiumCpuS: number }
interface Run { version: string; stages: Stage[]; wallS: number; cpuS: number }

function runOnce(version: 'before' | 'now', renderFile: string): Run {
  const timeFile = path.join(os.tmpdir(), `schedlab-first-figure-${process.pid}.time`);
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S', '-o', timeFile, process.execPath, '-e', CHILD, dist, renderFile, 'warm'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`first-figure run (${version}) failed: ${r.stderr}`);
  const [wall, user, sys] = fs.readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  fs.rmSync(timeFile, { force: true });
  return { version, stages: JSON.parse(r.stdout.trim().split('\n').pop()!), wallS: wall, cpuS: Number((user + sys).toFixed(2)) };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function main(): void {
  if (!fs.existsSync(path.join(dist, 'analysis', 'render.js'))) throw new Error('dist/ is missing: run scripts/setup.sh (or npm run build) first');
  // The renderer as it was, compiled beside today's so that it loads the same modules.
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const ts = require('typescript') as typeof import('typescript');
  const oldSource = execFileSync('git', ['show', `${beforeRev}:src/analysis/render.ts`], { cwd: root, encoding: 'utf8' });
  const beforeFile = path.join(dist, 'analysis', 'render-before-bench.js');
  fs.writeFileSync(beforeFile, ts.transpileModule(oldSource, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 } }).outputText);
  const loads: number[] = [os.loadavg()[0]];
  const runs: Run[] = [];
  let sameOutput: Record<string, unknown>[];
  try {
    const cmp = spawnSync(process.execPath, ['-e', COMPARE, dist, beforeFile, path.join(dist, 'analysis', 'render.js')], { cwd: root, encoding: 'utf8' });
    if (cmp.status !== 0) throw new Error(`first-figure comparison failed: ${cmp.stderr}`);
    sameOutput = JSON.parse(cmp.stdout.trim().split('\n').pop()!);
    process.stderr.write(`same output: ${JSON.stringify(sameOutput)}\n`);
    for (let i = 0; i < rounds; i++) {
      for (const version of ['before', 'now'] as const) {
        const run = runOnce(version, version === 'before' ? beforeFile : path.join(dist, 'analysis', 'render.js'));
        runs.push(run);
        loads.push(os.loadavg()[0]);
        const first = run.stages.find((s) => s.stage === 'first show PNG')!;
        process.stderr.write(`${version}: ${run.wallS} s wall, ${run.cpuS} s CPU; first PNG ${first.wallS} s wall, Chromium ${first.chromiumCpuS} s CPU\n`);
      }
    }
  } finally {
    fs.rmSync(beforeFile, { force: true });
  }
  const summary = (version: string) => {
    const mine = runs.filter((r) => r.version === version);
    const stages = mine[0].stages.map((s, i) => ({
      stage: s.stage,
      wallS: median(mine.map((r) => r.stages[i].wallS)),
      nodeCpuS: median(mine.map((r) => r.stages[i].nodeCpuS)),
      chromiumCpuS: median(mine.map((r) => r.stages[i].chromiumCpuS)),
    }));
    // /usr/bin/time misses Chromium processes their parents never waited for: the stages' sum counts them.
    const stagesCpuS = median(mine.map((r) => r.stages.reduce((t, st) => t + st.nodeCpuS + st.chromiumCpuS, 0)));
    return { runs: mine.length, wallS: median(mine.map((r) => r.wallS)), cpuS: median(mine.map((r) => r.cpuS)), stagesCpuS: Number(stagesCpuS.toFixed(2)), stages };
  };
  const result = {
    date: new Date().toISOString(),
    cores: os.cpus().length,
    loadAverage: { min: Math.min(...loads), max: Math.max(...loads) },
    before: beforeRev,
    note: 'medians over runs; cpuS: the node process and every child it waited for (/usr/bin/time); stagesCpuS: node and Chromium summed over the stages; chromiumCpuS: Chromium processes alive at the end of the stage; a renderer with warmRenderer starts with the modules, as on import in a kernel; sameOutput: six figures drawn by both renderers (PNG bytes, SVG without plotly ids, PDF without dates)',
    sameOutput,
    summary: { before: summary('before'), now: summary('now') },
    runs,
  };
  fs.writeFileSync(path.join(root, 'bench', 'results', 'first-figure.json'), JSON.stringify(result, null, 1) + '\n');
  for (const v of ['before', 'now'] as const) {
    const s = result.summary[v];
    process.stderr.write(`\n${v}: ${s.wallS} s wall, ${s.cpuS} s CPU waited for, ${s.stagesCpuS} s CPU node + Chromium (median of ${s.runs})\n`);
    for (const st of s.stages) process.stderr.write(`  ${st.stage.padEnd(44)} ${st.wallS.toFixed(2).padStart(7)} s wall ${st.nodeCpuS.toFixed(2).padStart(6)} s node ${st.chromiumCpuS.toFixed(2).padStart(6)} s Chromium\n`);
  }
}

main();
