/**
 * One Chromium shared by several processes (startSharedBrowser, SCHEDLAB_BROWSER):
 * a process that names the endpoint draws there, launches nothing, gives the
 * same bytes as a browser of its own, and leaves the browser to the next one.
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { barChart } from '../../src/analysis/charts';
import { closeRenderer, renderFigure, SharedBrowser, startSharedBrowser } from '../../src/analysis/render';

const TS_REGISTER = path.resolve(__dirname, '../support/ts-register.js');
const RENDER = path.resolve(__dirname, '../../src/analysis/render');
const CHARTS = path.resolve(__dirname, '../../src/analysis/charts');
const rows = [
  { policy: 'EASY', load: 0.5, wait: 120 },
  { policy: 'FCFS', load: 0.5, wait: 300 },
  { policy: 'EASY', load: 0.9, wait: 900 },
  { policy: 'FCFS', load: 0.9, wait: 2400 },
];
const figure = () => barChart({ data: rows, x: 'load', y: 'wait', series: 'policy', title: 'shared' });

/** A separate process drawing the figure as PNG; SCHEDLAB_CHROMIUM points nowhere, so launching a browser would fail. */
function drawElsewhere(endpoint: string): { status: number | null; png: Buffer; stderr: string } {
  const script = `
    const { renderFigure, closeRenderer } = require(${JSON.stringify(RENDER)});
    const { barChart } = require(${JSON.stringify(CHARTS)});
    const rows = ${JSON.stringify(rows)};
    renderFigure(barChart({ data: rows, x: 'load', y: 'wait', series: 'policy', title: 'shared' }), 'png', { scale: 1 })
      .then(async (png) => { await closeRenderer(); process.stdout.write(png.toString('base64')); })
      .catch((e) => { console.error(e.message); process.exit(3); });`;
  const run = spawnSync(process.execPath, ['-r', TS_REGISTER, '-e', script], {
    env: { ...process.env, SCHEDLAB_BROWSER: endpoint, SCHEDLAB_CHROMIUM: '/nonexistent/chromium' },
    encoding: 'utf8',
    timeout: 4 * 60 * 1000,
  });
  return { status: run.status, png: Buffer.from(run.stdout ?? '', 'base64'), stderr: run.stderr ?? '' };
}

describe('analysis/render: a Chromium shared by several processes (SCHEDLAB_BROWSER)', function () {
  this.timeout(5 * 60 * 1000); // starting Chromium takes minutes when the machine is loaded
  let shared: SharedBrowser;
  before(async () => {
    shared = await startSharedBrowser();
  });
  after(async () => {
    await shared?.close();
    await closeRenderer();
  });

  it('processes naming the endpoint draw there one after another, byte for byte as a browser of their own', async () => {
    expect(shared.endpoint).to.match(/^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\//);
    const own = await renderFigure(figure(), 'png', { scale: 1 });
    for (const round of [1, 2]) {
      const r = drawElsewhere(shared.endpoint);
      expect(r.status, `round ${round}: ${r.stderr.slice(-2000)}`).to.equal(0);
      expect(r.png.equals(own), `round ${round}: PNG differs from the process's own browser's`).to.equal(true);
    }
  });

  it('an endpoint where no Chromium answers is an error naming SCHEDLAB_BROWSER', () => {
    const r = drawElsewhere('ws://127.0.0.1:9/devtools/browser/none');
    expect(r.status).to.equal(3);
    expect(r.stderr).to.match(/SCHEDLAB_BROWSER=ws:\/\/127\.0\.0\.1:9\/devtools\/browser\/none: no Chromium answers there/);
  });

  it('closing the shared browser kills it and deletes its profile', async () => {
    const other = await startSharedBrowser();
    const port = Number(/:(\d+)\//.exec(other.endpoint)?.[1]);
    const profiles = () => fs.readdirSync(require('os').tmpdir()).filter((f: string) => f.startsWith('schedlab-chromium-shared-'));
    const before = profiles().length;
    await other.close();
    expect(profiles().length).to.equal(before - 1);
    // Nothing listens on its port any more (a connection is refused within a few seconds).
    const r = drawElsewhere(`ws://127.0.0.1:${port}/devtools/browser/x`);
    expect(r.status).to.equal(3);
  });
});
