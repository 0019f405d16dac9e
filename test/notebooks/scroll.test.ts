/**
 * No chart sits in a scroll-folded output (issue 26): the classic notebook
 * folds an output taller than 100 lines into a scroll box, where charts
 * below the fold stay blank until the reader scrolls inside it. A cell with
 * six charts (as in 00-batch-baselines) must open unfolded, every chart
 * drawn, whether or not the runner wrote "scrolled": false.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { installNotebookExtension } from '../../src/analysis/jupyter';
import { CHROMIUM_ARGS, chromiumPath } from '../../src/analysis/render';
import { figureBundle } from '../../src/analysis/show';
import { lineChart } from '../../src/analysis/charts';
import { startJupyter } from '../support/jupyter-browser';

/** A 1×1 white PNG: the static fallback of each chart. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mP8/x8AAwMCAO+ip1sAAAAASUVORK5CYII=';

function notebook(metadata: Record<string, unknown>): unknown {
  const outputs = Array.from({ length: 6 }, (_, i) => {
    const fig = lineChart({ data: [{ x: 1, y: i }, { x: 2, y: i + 1 }], x: 'x', y: 'y', title: `chart ${i + 1}` });
    const { data, metadata: md } = figureBundle(fig, PNG);
    return { output_type: 'display_data', data, metadata: md };
  });
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: [{ cell_type: 'code', id: 'six-charts', execution_count: 1, metadata, source: ['// six charts'], outputs }],
  };
}

describe('charts are never in a scroll-folded output (classic Jupyter in headless Chromium)', function () {
  this.timeout(8 * 60 * 1000);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-scroll-'));
  const env: NodeJS.ProcessEnv = { ...process.env, JUPYTER_DATA_DIR: path.join(tmp, 'data'), JUPYTER_CONFIG_DIR: path.join(tmp, 'config') };
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('a cell of six charts opens unfolded with every chart drawn, with and without "scrolled": false', async () => {
    installNotebookExtension(env.JUPYTER_DATA_DIR, env.JUPYTER_CONFIG_DIR);
    fs.writeFileSync(path.join(tmp, 'plain.ipynb'), JSON.stringify(notebook({})));
    fs.writeFileSync(path.join(tmp, 'unfolded.ipynb'), JSON.stringify(notebook({ scrolled: false })));
    const { server, port, token } = await startJupyter(tmp, env);
    // eslint-disable-next-line @typescript-eslint/no-var-requires
    const { chromium } = require('playwright-core') as typeof import('playwright-core');
    const ctx = await chromium.launchPersistentContext(path.join(tmp, 'browser'), { executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS, viewport: { width: 1280, height: 900 } });
    try {
      for (const file of ['plain.ipynb', 'unfolded.ipynb']) {
        const page = await ctx.newPage();
        await page.goto(`http://127.0.0.1:${port}/notebooks/${file}?token=${token}`, { waitUntil: 'domcontentloaded', timeout: 90000 });
        await page.waitForSelector('.js-plotly-plot', { state: 'attached', timeout: 180000 });
        // Scroll the page (never inside an output) to the end of the cell, so every chart comes into view.
        for (let y = 0; y < 5000; y += 400) {
          await page.evaluate((top) => document.querySelector('#site')?.scrollTo(0, top), y);
          await page.waitForTimeout(300);
        }
        await page.waitForFunction(() => document.querySelectorAll('.js-plotly-plot .main-svg').length >= 6, undefined, { timeout: 120000 }).catch(() => undefined);
        const state = await page.evaluate(() => ({
          folded: document.querySelectorAll('.output_scroll').length,
          charts: document.querySelectorAll('.js-plotly-plot').length,
          outputs: document.querySelectorAll('.output_schedlab_plotly').length,
        }));
        expect(state, file).to.deep.equal({ folded: 0, charts: 6, outputs: 6 });
        await page.close();
      }
    } finally {
      await ctx.close();
      server.kill();
    }
  });
});
