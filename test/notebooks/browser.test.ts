/**
 * What a reader sees of every executed notebook (issue 26, "What must show").
 * The executions are the pool's (test/support/notebook-runs.ts: the quick run
 * of every notebook and the default-scale run of those with committed results),
 * none of this suite's own. Each is opened once, in classic Jupyter with
 * headless Chromium at 1280×900 (one server and one browser for the process):
 *
 * - the first screen of a paper notebook shows its verdict counts (the line of
 *   claimsSummary) and a whole live chart; it is saved as
 *   out/first-screens/<run>-<notebook>.png (not committed) to look at;
 * - every chart output of the file is drawn live (a plotly SVG of nonzero
 *   size) once the page, never an output, is scrolled to it (charts draw when
 *   they come on screen), and none sits in a folded (scroll-box) output;
 *
 * and from the executed file: a series with the same points as another in the
 * same panel is drawn apart (other marker) and its legend says "identical to X"
 * (02's Figure 17 and 01's /per vs /stretch-per panel must be among the charts
 * checked); its LaTeX tables compile with no overfull box over 10 pt; the
 * headline chart is saved under the paper's figure or table number.
 *
 * A run's browser and LaTeX work (its check) runs once its execution has
 * finished, one check at a time, in one reused tab.
 *
 * SCHEDLAB_EXECUTED_OUT=<dir> checks the notebooks executed beforehand into
 * <dir>/<name>/<name>.ipynb (scripts/run-notebook.sh writes out/<name>/) instead
 * of the pool's runs, and lists only those: a way to try these checks on one or
 * two notebooks without executing the others.
 */
import { expect } from 'chai';
import { ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { lineChart } from '../../src/analysis/charts';
import { installNotebookExtension } from '../../src/analysis/jupyter';
import { outputStem } from '../../src/analysis/paths';
import { PLOTLY_MIME } from '../../src/analysis/show';
import { CLAIM_REGISTRIES } from '../../src/claims';
import { inspectNotebook, launchBrowser, NotebookPage, notebookTab, startJupyter } from '../support/jupyter-browser';
import { compile } from '../support/latex';
import { committedNotebooks, execution, executionOrder, notebooks, root, runLast } from '../support/notebook-runs';

interface Run {
  file: string;
  /** quick, default or executed: names the page's copy and its screenshot. */
  label: string;
  /** The executed notebook, its tables and figures: `<outRoot>/<name>/`. */
  outRoot: string;
  /** When the execution started (ms since the epoch): files older than that are left from an earlier run. */
  started: number;
}

type Trace = { type?: string; name?: string; legendgroup?: string; showlegend?: boolean; x?: unknown[]; y?: unknown[]; xaxis?: string; yaxis?: string; marker?: { symbol?: unknown; size?: unknown } };
type Chart = { data: Trace[]; layout: { title?: string | { text?: string } } };

const executedOut = process.env.SCHEDLAB_EXECUTED_OUT ? path.resolve(process.env.SCHEDLAB_EXECUTED_OUT) : null;

/** The runs to check: the pool's, or those found under SCHEDLAB_EXECUTED_OUT. */
const runs: { file: string; label: string; get: () => Promise<Run> }[] = executedOut
  ? notebooks
      .filter((f) => fs.existsSync(executedPath(executedOut, f)))
      .map((file) => ({ file, label: 'executed', get: async () => ({ file, label: 'executed', outRoot: executedOut, started: 0 }) }))
  : executionOrder(committedNotebooks())
      // In the order the executions finish: each check waits only for its own.
      .filter(([, purpose]) => purpose !== 'determinism')
      .map(([file, purpose]) => ({
        file,
        label: purpose,
        get: async () => {
          const run = await execution(file, purpose);
          expect(run.status, `${file} (${purpose}) failed:\n${run.stderr.slice(-3000)}`).to.equal(0);
          return { file, label: purpose, outRoot: run.outRoot, started: run.started - 1000 };
        },
      }));

function executedPath(outRoot: string, file: string): string {
  const name = path.basename(file, '.ipynb');
  return path.join(outRoot, name, `${name}.ipynb`);
}

function chartsOf(nb: { cells: { outputs?: { data?: Record<string, unknown> }[] }[] }): Chart[] {
  return nb.cells.flatMap((c) => c.outputs ?? []).flatMap((o) => (o.data?.[PLOTLY_MIME] ? [o.data[PLOTLY_MIME] as Chart] : []));
}

function titleOf(c: Chart): string {
  const t = c.layout.title;
  return typeof t === 'string' ? t : t?.text ?? '';
}

const same = (u: unknown, v: unknown) => u === v || (typeof u === 'number' && typeof v === 'number' && Math.abs(u - v) <= 1e-9 * Math.max(Math.abs(u), Math.abs(v)));

/**
 * Pairs of series (the curves of lineChart: scatter traces of a legend group)
 * drawn on the same points in one panel of a chart, and which of them the
 * reader could not tell apart: the later one must differ in marker (symbol or
 * size) and its legend entry must say "identical to <the earlier one>".
 */
export function identicalSeries(chart: Chart): { pairs: string[]; hidden: string[] } {
  const series = chart.data.filter((t) => (t.type ?? 'scatter') === 'scatter' && t.legendgroup !== undefined && t.name && Array.isArray(t.x) && t.x.length > 0);
  const pairs: string[] = [];
  const hidden: string[] = [];
  const plain = (name: string) => name.replace(/ \(identical to .*\)$/, '');
  series.forEach((later, j) => {
    const first = series.slice(0, j).find((t) => (t.xaxis ?? 'x') === (later.xaxis ?? 'x') && (t.yaxis ?? 'y') === (later.yaxis ?? 'y') && t.x!.length === later.x!.length && t.x!.every((x, i) => same(x, later.x![i]) && same(t.y![i], later.y![i])));
    if (!first) return;
    const pair = `${titleOf(chart)}: "${plain(later.name!)}" on "${plain(first.name!)}"`;
    pairs.push(pair);
    const legend = chart.data.find((t) => t.legendgroup !== undefined && t.legendgroup === later.legendgroup && t.showlegend !== false) ?? later;
    const marked = JSON.stringify(later.marker?.symbol) !== JSON.stringify(first.marker?.symbol) || later.marker?.size !== first.marker?.size;
    const noted = (legend.name ?? '').includes(`identical to ${plain(first.name!)}`);
    if (!marked || !noted) hidden.push(`${pair}${marked ? '' : ', same marker'}${noted ? '' : `, legend "${legend.name}" without "identical to ${plain(first.name!)}"`}`);
  });
  return { pairs, hidden };
}

/** The charts issue 26 names, where series coincide: each must be among those checked. */
const NAMED_CHARTS: Record<string, { what: string; is: (c: Chart) => boolean }> = {
  '02-virtual-clusters': { what: 'Figure 17 (SG and SGB under MCB8)', is: (c) => /^Fig\. 17:/.test(titleOf(c)) },
  '01-dfrs-vs-batch': {
    what: '/per and /stretch-per in one panel',
    is: (c) => c.data.some((t) => /^\/per\b/.test(t.name ?? '') && c.data.some((u) => /^\/stretch-per\b/.test(u.name ?? '') && (u.xaxis ?? 'x') === (t.xaxis ?? 'x'))),
  },
};

describe('identical series: the check used on every executed chart', () => {
  const rows = [0, 1, 2].flatMap((slack) => [
    { slack, algorithm: 'MCB8', failures: 10 - slack },
    { slack, algorithm: 'SG', failures: 10 - slack },
    { slack, algorithm: 'SGB', failures: 10 - slack },
    { slack, algorithm: 'GR', failures: 12 - slack },
  ]);
  const chart = () => lineChart({ data: rows, x: 'slack', y: 'failures', series: 'algorithm', title: 'Fig. 17: failure rate vs slack' }) as unknown as Chart;

  it('lineChart draws SG and SGB around MCB8 and labels them: two pairs found, none hidden', () => {
    expect(identicalSeries(chart())).to.deep.equal({ pairs: ['Fig. 17: failure rate vs slack: "SG" on "MCB8"', 'Fig. 17: failure rate vs slack: "SGB" on "MCB8"'], hidden: [] });
  });

  it('a series drawn plainly over another (no note, same marker size) is reported hidden', () => {
    const c = chart();
    for (const t of c.data) {
      t.name = (t.name ?? '').replace(/ \(identical to .*\)$/, '');
      if (t.marker) t.marker = { ...t.marker, size: 6, symbol: 'circle' };
    }
    expect(identicalSeries(c).hidden).to.have.length(2).and.satisfy((h: string[]) => h.every((x) => /same marker, legend "SGB?" without "identical to MCB8"/.test(x)));
  });
});

/** What the browser and LaTeX found for a run: the test of the run asserts on it. */
interface Checked {
  run: Run;
  charts: Chart[];
  page: NotebookPage;
  screenshot: string;
  /** The tables this run wrote, and what pdflatex said of them (error lines and overfull boxes over 10 pt). */
  tex: string[];
  latex: string[];
  /** Wall seconds of the browser and LaTeX work (not of the wait for the execution). */
  seconds: number;
}

/** The process's one Jupyter server and one browser tab, started with the first check and shared by all. */
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-pages-'));
const env: NodeJS.ProcessEnv = { ...process.env, JUPYTER_DATA_DIR: path.join(tmp, 'data'), JUPYTER_CONFIG_DIR: path.join(tmp, 'config') };
const pages = path.join(tmp, 'pages');
const screens = path.join(root, 'out', 'first-screens');
let server: ChildProcess | null = null;
let jupyter: Promise<{ port: number; token: string }> | null = null;
let browser: Promise<import('playwright-core').Browser> | null = null;
let tab: Promise<import('playwright-core').Page> | null = null;
process.on('exit', () => {
  server?.kill();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function open(): { jupyter: Promise<{ port: number; token: string }>; tab: Promise<import('playwright-core').Page> } {
  if (!jupyter || !browser) {
    fs.mkdirSync(pages, { recursive: true });
    fs.mkdirSync(screens, { recursive: true });
    installNotebookExtension(env.JUPYTER_DATA_DIR, env.JUPYTER_CONFIG_DIR);
    jupyter = startJupyter(pages, env).then((j) => {
      server = j.server;
      return j;
    });
    browser = launchBrowser();
  }
  if (!tab) tab = browser.then((b) => notebookTab(b));
  return { jupyter, tab };
}

async function close(): Promise<void> {
  if (browser) await (await browser.catch(() => null))?.close();
  server?.kill();
  jupyter = browser = tab = null;
}

async function inspect(run: Run): Promise<Checked> {
  const t0 = Date.now();
  const name = path.basename(run.file, '.ipynb');
  const executed = executedPath(run.outRoot, run.file);
  const charts = chartsOf(JSON.parse(fs.readFileSync(executed, 'utf8')));
  const { jupyter: j, tab: t } = open();
  const copy = `${run.label}-${name}.ipynb`;
  fs.copyFileSync(executed, path.join(pages, copy)); // Jupyter may write beside what it opens (checkpoints): a copy
  const screenshot = path.join(screens, `${run.label}-${name}.png`);
  let page: NotebookPage;
  try {
    page = await inspectNotebook(await t, await j, copy, charts.length, screenshot);
  } catch (e) {
    // A tab left in a bad state (timed out, crashed) is not reused.
    void t.then((p) => p.context().close()).catch(() => undefined);
    tab = null;
    throw e;
  }
  // Every table this run wrote (older files are left from an earlier run).
  const tables = path.join(run.outRoot, name, 'tables');
  const tex = fs.existsSync(tables) ? fs.readdirSync(tables).filter((f) => f.endsWith('.tex')).map((f) => path.join(tables, f)).filter((f) => fs.statSync(f).mtimeMs >= run.started) : [];
  return { run, charts, page, screenshot, tex, latex: compile(tex), seconds: (Date.now() - t0) / 1000 };
}

// Each test starts its own check, after the unit tests: a check started beside
// them shares the mocha process, whose event loop a synchronous unit test holds
// for seconds (the Jupyter server's log pipe and the page then wait on it).
// These checks come first among the suites that wait for executions (rank -1):
// they then run beside the last executions instead of after them all.

runLast(describe('executed notebooks as a reader sees them (Jupyter in headless Chromium, 1280×900)', function () {
  this.timeout(60 * 60 * 1000);
  after(async () => {
    await close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('there are runs to check', () => {
    expect(runs.length, executedOut ? `no executed notebook under ${executedOut}` : 'notebooks').to.be.greaterThan(0);
  });

  for (const r of runs) {
    const { file, label } = r;
    const name = path.basename(file, '.ipynb');
    const registry = CLAIM_REGISTRIES.find((r) => r.notebook === name);
    it(`${label} ${name}: ${registry ? 'first screen shows the verdict counts and a live chart; ' : ''}every chart drawn live, none folded or hidden; tables compile`, async () => {
      const { run, charts, page, screenshot, tex, latex, seconds } = await inspect(await r.get());
      console.log(`      ${charts.length} charts in the file; on the page ${page.outputs} chart outputs, ${page.drawn} drawn, ${page.folded} folded; first screen: ${page.firstScreen.charts} whole live chart(s) (${path.relative(root, screenshot)}); checked in ${seconds.toFixed(1)} s`);

      expect({ outputs: page.outputs, drawn: page.drawn, folded: page.folded }, `not drawn: ${page.blank.join(', ')}`).to.deep.equal({ outputs: charts.length, drawn: charts.length, folded: 0 });

      if (registry) {
        // The verdict counts, as claimsSummary's line printed them in the file, on the first screen.
        const counts = /(\d+) claims: (\d+) reproduced; (\d+) same direction, different size; (\d+) contradicted; (\d+) not comparable/.exec(page.firstScreen.text);
        expect(counts, `verdict counts on the first screen of ${name}; it shows: ${page.firstScreen.text.slice(0, 600)}`).to.not.equal(null);
        const [total, ...perVerdict] = counts!.slice(1).map(Number);
        expect(total, 'every claim of the registry counted').to.equal(registry.claims.length);
        expect(perVerdict.reduce((a, n) => a + n, 0)).to.equal(total);
        expect(page.firstScreen.charts, `a whole live chart on the first screen of ${name}`).to.be.at.least(1);
        // The headline chart is saved under the paper's figure or table number (extra-… where the place names neither), by this run.
        const stem = outputStem('headline', `${registry.chart!.place} — ${registry.chart!.title}`);
        if (/^(Figure|Table) \d/.test(registry.chart!.place)) expect(stem).to.match(/^(fig|table)\d\d/);
        for (const ext of ['svg', 'png', 'pdf']) {
          const f = path.join(run.outRoot, name, 'figures', `${stem}.${ext}`);
          expect(fs.existsSync(f) && fs.statSync(f).mtimeMs >= run.started, `${path.relative(run.outRoot, f)} written by this run`).to.equal(true);
        }
      }

      // No series hidden under another.
      const found = charts.map(identicalSeries);
      expect(found.flatMap((f) => f.hidden)).to.deep.equal([]);
      const named = NAMED_CHARTS[name];
      if (named) {
        const checked = charts.filter(named.is);
        expect(checked.length, `${name}: ${named.what} among its charts`).to.be.at.least(1);
        console.log(`      ${named.what}: ${checked.flatMap((c) => identicalSeries(c).pairs).join('; ') || 'no series on the same points'}`);
      }

      // Every table this run wrote compiles, with no overfull box over 10 pt.
      expect(latex, `${tex.length} tables of ${name}`).to.deep.equal([]);
      console.log(`      ${tex.length} LaTeX tables compiled; ${found.reduce((n, f) => n + f.pairs.length, 0)} series on another's points, each marked and labelled`);
    });
  }
}), -1);
