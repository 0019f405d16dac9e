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
