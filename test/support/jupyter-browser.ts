/**
 * Debian's classic Jupyter and headless Chromium for browser tests: start a
 * notebook server on a free localhost port, open a notebook and wait for its
 * plotly charts.
 */
import { spawn, ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CHROMIUM_ARGS, chromiumPath } from '../../src/analysis/render';

const NOTEBOOK_SERVER = '/usr/bin/jupyter-notebook';

interface Opened {
  /** ms from navigation to the first chart drawn by plotly. */
  chartMs: number;
  charts: number;
  hovered: boolean;
}

/** Open `file` (relative to the server's folder) and wait for plotly to draw and answer a hover. */
export async function openInBrowser(port: number, token: string, file: string): Promise<Opened> {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const { chromium } = require('playwright-core') as typeof import('playwright-core');
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-browser-'));
  const ctx = await chromium.launchPersistentContext(userDataDir, { executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
  try {
    const page = await ctx.newPage();
    const t0 = Date.now();
    // Generous limits: the suite runs two notebook executions beside this on a 2-core machine.
    await page.goto(`http://127.0.0.1:${port}/notebooks/${encodeURIComponent(file)}?token=${token}`, { waitUntil: 'domcontentloaded', timeout: 180000 });
    await page.waitForSelector('.js-plotly-plot .hoverlayer', { state: 'attached', timeout: 180000 });
    const chartMs = Date.now() - t0;
    // Hover over a data point of the first chart: plotly must show its hover label.
    const pt = await page.evaluate(() => {
      type Axis = { _offset: number; l2p: (v: number) => number };
      const gd = document.querySelector('.js-plotly-plot') as HTMLElement & {
        _fullData: { x: number[]; y: number[] }[];
        _fullLayout: { xaxis: Axis; yaxis: Axis };
      };
      gd.scrollIntoView({ block: 'center' });
      const r = gd.getBoundingClientRect();
      const t = gd._fullData[0];
      const i = Math.floor(t.x.length / 2);
      return { x: r.left + gd._fullLayout.xaxis._offset + gd._fullLayout.xaxis.l2p(t.x[i]), y: r.top + gd._fullLayout.yaxis._offset + gd._fullLayout.yaxis.l2p(t.y[i]) };
    });
    await page.mouse.move(pt.x - 4, pt.y - 4);
    await page.mouse.move(pt.x, pt.y);
    const hovered = await page
      .waitForSelector('.js-plotly-plot .hoverlayer .hovertext', { state: 'attached', timeout: 10000 })
      .then(() => true, () => false);
    const charts = await page.evaluate(() => document.querySelectorAll('.js-plotly-plot').length);
    return { chartMs, charts, hovered };
  } finally {
    await ctx.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
}

let serversStarted = 0;

/** Start Debian's classic Jupyter on a free localhost port; resolves once its API answers. */
export async function startJupyter(dir: string, env: NodeJS.ProcessEnv): Promise<{ server: ChildProcess; port: number; token: string }> {
  const token = 'schedlab-test';
  // One port per server started by this process (two browser suites share the mocha process).
  const port = 20000 + ((process.pid * 7 + serversStarted++) % 20000);
  const server = spawn(
    NOTEBOOK_SERVER,
    ['--no-browser', '--ip=127.0.0.1', `--port=${port}`, '--port-retries=0', `--NotebookApp.token=${token}`, `--notebook-dir=${dir}`, '--allow-root'],
    { env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  server.stderr?.on('data', (d) => (log += d));
  for (let i = 0; i < 300; i++) {
    if (server.exitCode !== null) throw new Error(`jupyter-notebook exited:\n${log}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api?token=${token}`)).ok) return { server, port, token };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  server.kill();
  throw new Error(`jupyter-notebook did not answer on port ${port}:\n${log}`);
}

/** What a reader sees of an executed notebook opened in Jupyter (see inspectNotebook). */
export interface NotebookPage {
  /** The first screen: its text, and the live charts it holds whole (drawn, nonzero size). */
  firstScreen: { text: string; charts: number };
  /** Chart outputs on the page, charts drawn live (an SVG of nonzero size), and charts inside a folded (scroll-box) output. */
  outputs: number;
  drawn: number;
  folded: number;
  /** The charts not drawn ("chart 3 of 12"), for the failure message. */
  blank: string[];
}

/** The page's scrolling box in the classic notebook: the page, never an output. */
const SITE = '#site';

/**
 * One tab for opening notebooks one after another (one at a time) at `viewport`.
 * Each notebook gets a fresh document, but the tab keeps its renderer process,
 * which has the 10 MB plotly bundle and Jupyter's scripts compiled already: a
 * notebook then costs Chromium about half the CPU of one opened in a new context.
 * No kernel is started: the page's request for one is refused (the header then
 * says "Kernel error"), since displaying an executed notebook needs none.
 */
export async function notebookTab(browser: import('playwright-core').Browser, viewport = { width: 1280, height: 900 }): Promise<import('playwright-core').Page> {
  const ctx = await browser.newContext({ viewport });
  const page = await ctx.newPage();
  await page.route('**/api/sessions', (r) =>
    r.request().method() === 'POST' ? r.fulfill({ status: 503, contentType: 'application/json', body: '{"message": "no kernel in this test"}' }) : r.continue(),
  );
  // Leaving a notebook never waits on "leave this page?".
  page.on('dialog', (d) => void d.accept().catch(() => undefined));
  return page;
}

/**
 * Open `file` (relative to the server's folder, holding `charts` chart outputs)
 * in `page` (a notebookTab), save the first screen to `screenshot` once its charts are
 * drawn, then scroll the page (never an output) over every chart so that the
 * lazily drawn ones draw too, and count. The tab is left on about:blank, so that
 * the notebook's timers (autosave) stop.
 */
export async function inspectNotebook(
  page: import('playwright-core').Page,
  server: { port: number; token: string },
  file: string,
  charts: number,
  screenshot: string,
): Promise<NotebookPage> {
  const viewport = page.viewportSize()!;
  try {
    // Generous limits: the suite runs two notebook executions beside this on a 2-core machine.
    await page.goto(`http://127.0.0.1:${server.port}/notebooks/${encodeURIComponent(file)}?token=${server.token}`, { waitUntil: 'domcontentloaded', timeout: 180000 });
    await page.waitForFunction(() => (window as unknown as { Jupyter?: { notebook?: { _fully_loaded?: boolean } } }).Jupyter?.notebook?._fully_loaded === true, undefined, { timeout: 180000 });
    // The extension renders chart outputs once it has loaded: wait for as many as the file holds (then count, below).
    await page.waitForFunction((n) => document.querySelectorAll('.output_schedlab_plotly').length >= n, charts, { timeout: 180000 }).catch(() => undefined);
    const onScreen = (drawnOnly: boolean) =>
      page.evaluate(
        ({ drawnOnly, height }) =>
          Array.from(document.querySelectorAll('.output_schedlab_plotly')).filter((o) => {
            const r = o.getBoundingClientRect();
            const svg = o.querySelector('.js-plotly-plot .main-svg')?.getBoundingClientRect();
            return r.top >= 0 && r.top < height && (!drawnOnly || (svg !== undefined && svg.width > 0 && svg.height > 0 && svg.bottom <= height));
          }).length,
        { drawnOnly, height: viewport.height },
      );
    // Charts that start on the first screen must draw there (no timed assertion: a wait, then a count).
    const starting = await onScreen(false);
    await page.waitForFunction(
      ({ n, height }) =>
        Array.from(document.querySelectorAll('.output_schedlab_plotly')).filter((o) => {
          const r = o.getBoundingClientRect();
          return r.top >= 0 && r.top < height && o.querySelector('.js-plotly-plot .main-svg');
        }).length >= n,
      { n: starting, height: viewport.height },
      { timeout: 180000 },
    ).catch(() => undefined);
    await page.screenshot({ path: screenshot });
    const firstScreen = {
      charts: await onScreen(true),
      // Text of the cells, trimmed to what lies in the first screen's height.
      text: await page.evaluate((height) => {
        const out: string[] = [];
        const walker = document.createTreeWalker(document.querySelector('#notebook-container') ?? document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(n);
          const r = range.getBoundingClientRect();
          if (r.height > 0 && r.top >= 0 && r.bottom <= height) out.push(n.textContent ?? '');
        }
        return out.join(' ').replace(/\s+/g, ' ');
      }, viewport.height),
    };
    // Every chart: scroll the page (not an output) to it, and wait for plotly to draw it.
    const total = await page.evaluate(() => document.querySelectorAll('.output_schedlab_plotly').length);
    for (let i = 0; i < total; i++) {
      await page.evaluate(
        ({ i, site }) => {
          const box = document.querySelector(site) as HTMLElement;
          const chart = document.querySelectorAll('.output_schedlab_plotly')[i];
          box.scrollTop += chart.getBoundingClientRect().top - box.getBoundingClientRect().top - 120;
        },
        { i, site: SITE },
      );
      await page.waitForFunction((i) => document.querySelectorAll('.output_schedlab_plotly')[i].querySelector('.js-plotly-plot .main-svg') !== null, i, { timeout: 120000 }).catch(() => undefined);
    }
    const counted = await page.evaluate(() => {
      const outputs = Array.from(document.querySelectorAll('.output_schedlab_plotly'));
      const isDrawn = (o: Element) => {
        const r = o.querySelector('.js-plotly-plot .main-svg')?.getBoundingClientRect();
        return r !== undefined && r.width > 0 && r.height > 0;
      };
      // Folded: inside the classic notebook's scroll box, or in an output area that scrolls (taller inside than shown).
      const isFolded = (o: Element) => {
        const area = o.closest('.output') as HTMLElement | null;
        return o.closest('.output_scroll') !== null || (area !== null && area.scrollHeight > area.clientHeight + 1);
      };
      return {
        outputs: outputs.length,
        drawn: outputs.filter(isDrawn).length,
        folded: outputs.filter(isFolded).length,
        blank: outputs.map((o, k) => (isDrawn(o) ? '' : `chart ${k + 1} of ${outputs.length}`)).filter((b) => b !== ''),
      };
    });
    return { firstScreen, ...counted };
  } finally {
    await page.goto('about:blank').catch(() => undefined);
  }
}

/** One headless Chromium for a test process's pages (closed by the caller). */
export async function launchBrowser(): Promise<import('playwright-core').Browser> {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const { chromium } = require('playwright-core') as typeof import('playwright-core');
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
}
