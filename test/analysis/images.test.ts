/**
 * SCHEDLAB_IMAGES=off: charts shown as plotly specs and text without a PNG,
 * figures saved as their plotly JSON, and Chromium never started. The mode is
 * read once per process, so the off mode runs in a child process, inside a
 * stand-in tslab kernel (as the module loads in a real kernel).
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { lineChart } from '../../src/analysis/charts';
import { figureSpec, parseImagesMode } from '../../src/analysis/images';
import { figureBundle, PLOTLY_MIME } from '../../src/analysis/show';
import { UsageError } from '../../src/util/errors';

const ROOT = path.resolve(__dirname, '..', '..');
const TS_REGISTER = path.join(ROOT, 'test', 'support', 'ts-register.js');

/**
 * A child that fakes a tslab kernel, then loads the toolkit's analysis
 * modules, shows and saves a figure, and prints as JSON what it displayed,
 * what it wrote, what renderFigure said, and whether playwright (Chromium's
 * driver) was ever loaded.
 */
const CHILD = `
const path = require('path'), fs = require('fs');
const file = path.join(process.env.FAKE_KERNEL_DIR, 'node_modules', 'tslab', 'dist', 'jupyter.js');
const sent = [];
require.cache[file] = { id: file, filename: file, loaded: true, exports: { lastWriteDisplayData: (m) => sent.push(m.data) } };
(async () => {
  const report = {};
  try {
    const { lineChart } = require(${JSON.stringify(path.join(ROOT, 'src/analysis/charts.ts'))});
    const { show, saveFigure } = require(${JSON.stringify(path.join(ROOT, 'src/analysis/show.ts'))});
    const { exportFigure, renderFigure, warmRenderer } = require(${JSON.stringify(path.join(ROOT, 'src/analysis/render.ts'))});
    const fig = lineChart({ data: [{ x: 1, y: 2 }, { x: 2, y: 3 }], x: 'x', y: 'y', title: 'a' });
    await warmRenderer();
    await show(fig);
    await saveFigure(fig, 'nb', 'first');
    report.exported = await exportFigure(fig, path.join(process.env.SCHEDLAB_OUT, 'direct.pdf'));
    report.render = await renderFigure(fig, 'png').then(() => 'drawn', (e) => e.name + ': ' + e.message);
    report.figures = fs.readdirSync(path.join(process.env.SCHEDLAB_OUT, 'nb', 'figures')).sort();
    report.saved = JSON.parse(fs.readFileSync(path.join(process.env.SCHEDLAB_OUT, 'nb', 'figures', 'extra-first.json'), 'utf8'));
  } catch (e) {
    report.error = e.name + ': ' + e.message;
  }
  report.sent = sent;
  report.playwright = Object.keys(require.cache).some((f) => f.includes('playwright'));
  process.stdout.write(JSON.stringify(report));
})();
`;

function runChild(images: string): Record<string, unknown> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'images-off-'));
  try {
    const env = { ...process.env, SCHEDLAB_IMAGES: images, SCHEDLAB_OUT: out, FAKE_KERNEL_DIR: out, SCHEDLAB_CHROMIUM: path.join(out, 'no-chromium') };
    const r = spawnSync(process.execPath, ['-r', TS_REGISTER, '-e', CHILD], { cwd: ROOT, env, encoding: 'utf8' });
    expect(r.status, r.stderr).to.equal(0);
    const report = JSON.parse(r.stdout) as Record<string, unknown>;
    report.out = out;
    return report;
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

describe('SCHEDLAB_IMAGES: figures without drawing images', function () {
  this.timeout(120 * 1000);

  it('reads on, off or unset; any other value is a UsageError naming the variable', () => {
    expect(parseImagesMode(undefined)).to.equal('on');
    expect(parseImagesMode('')).to.equal('on');
    expect(parseImagesMode('on')).to.equal('on');
    expect(parseImagesMode('off')).to.equal('off');
    for (const bad of ['OFF', '0', 'no', 'false', ' off']) {
      expect(() => parseImagesMode(bad), bad).to.throw(UsageError, /SCHEDLAB_IMAGES must be "on" or "off", got "/);
    }
  });

  it('a figure shown without an image holds its plotly spec and text, no PNG', () => {
    const f = lineChart({ data: [{ x: 1, y: 2 }], x: 'x', y: 'y', title: 'T' });
    const { data, metadata } = figureBundle(f);
    expect(Object.keys(data).sort()).to.deep.equal([PLOTLY_MIME, 'text/plain']);
    expect(data[PLOTLY_MIME]).to.deep.equal(figureSpec(f));
    expect(data['text/plain']).to.equal('<Figure: T>');
    expect(metadata).to.deep.equal({});
    // the same spec as with a PNG
    expect(figureBundle(f, 'AAAA').data[PLOTLY_MIME]).to.deep.equal(data[PLOTLY_MIME]);
  });

  it('off, inside a kernel: show sends spec and text, saveFigure and exportFigure write the plotly JSON, Chromium never starts', () => {
    const r = runChild('off');
    expect(r.error).to.equal(undefined);
    const sent = r.sent as Record<string, unknown>[];
    expect(sent).to.have.length(1); // saveFigure after show does not show it again
    expect(Object.keys(sent[0]).sort()).to.deep.equal([PLOTLY_MIME, 'text/plain']);
    expect(sent[0]['text/plain']).to.equal('<Figure: a>');
    const fig = lineChart({ data: [{ x: 1, y: 2 }, { x: 2, y: 3 }], x: 'x', y: 'y', title: 'a' });
    expect(sent[0][PLOTLY_MIME]).to.deep.equal(figureSpec(fig));
    expect(r.figures).to.deep.equal(['extra-first.json']);
    expect(r.saved).to.deep.equal(figureSpec(fig));
    expect(r.exported).to.deep.equal([path.join(r.out as string, 'direct.json')]);
    expect(r.render).to.match(/^UsageError: SCHEDLAB_IMAGES=off: figures are not drawn/);
    // neither on loading render.ts in a kernel (warmRenderer) nor later
    expect(r.playwright).to.equal(false);
  });

  it('outside a kernel, show says what exportFigure would write: SVG/PNG/PDF, or the plotly JSON when off', () => {
    const said = (images: string) => {
      const code = `const { lineChart } = require(${JSON.stringify(path.join(ROOT, 'src/analysis/charts.ts'))}); const { show } = require(${JSON.stringify(path.join(ROOT, 'src/analysis/show.ts'))}); show(lineChart({ data: [{ x: 1, y: 2 }], x: 'x', y: 'y', title: 'Q' }));`;
      const r = spawnSync(process.execPath, ['-r', TS_REGISTER, '-e', code], { cwd: ROOT, env: { ...process.env, SCHEDLAB_IMAGES: images }, encoding: 'utf8' });
      expect(r.status, r.stderr).to.equal(0);
      return r.stdout;
    };
    expect(said('on')).to.match(/figure "Q" .* not displayed: .*exportFigure\(fig, path\) writes it to SVG\/PNG\/PDF\]/);
    expect(said('off')).to.match(/figure "Q" .* not displayed: .*exportFigure\(fig, path\) writes it to its plotly JSON \(SCHEDLAB_IMAGES=off\)\]/);
  });

  it('a bad value inside a kernel fails on loading the renderer, naming the variable', () => {
    const r = runChild('maybe');
    expect(r.error).to.match(/^UsageError: SCHEDLAB_IMAGES must be "on" or "off", got "maybe"/);
    expect(r.sent).to.deep.equal([]);
    expect(r.playwright).to.equal(false);
  });
});
