/**
 * What a researcher sees in a notebook: frames shown as tables, short echoes
 * of written tables, rounded hover values, and one chart per saveFigure.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { inspect } from 'util';
import { frameBundle, saveFigure, show } from '../../src/analysis/show';
import { toFrame } from '../../src/analysis/frame';
import { writeTable } from '../../src/analysis/table';
import { lineChart, scatterChart } from '../../src/analysis/charts';
import { closeRenderer } from '../../src/analysis/render';

/** Run `fn` as if inside a tslab kernel; returns the MIME bundles it displayed. */
async function underKernel(fn: () => Promise<void> | void): Promise<Record<string, unknown>[]> {
  const file = path.join(os.tmpdir(), 'project-display', 'node_modules', 'tslab', 'dist', 'jupyter.js');
  const sent: Record<string, unknown>[] = [];
  (require.cache as Record<string, unknown>)[file] = { id: file, filename: file, loaded: true, exports: { lastWriteDisplayData: (msg: { data: Record<string, unknown> }) => void sent.push(msg.data) } };
  try {
    await fn();
  } finally {
    delete require.cache[file];
  }
  return sent;
}

describe('show(frame): a danfojs DataFrame or Series as a table', function () {
  this.timeout(5 * 60 * 1000); // danfojs loads TensorFlow.js on first use; the suite runs beside notebook executions
  const rows = Array.from({ length: 45 }, (_, i) => ({ job: i + 1, wait: i / 7, queue: i % 2 ? 'long' : 'short' }));

  it('shows a small frame whole, index first, in HTML and text', async () => {
    const sent = await underKernel(() => show(toFrame(rows.slice(0, 3))));
    expect(sent).to.have.length(1);
    expect(sent[0]['text/html']).to.match(/<table/).and.match(/<th[^>]*>wait<\/th>/).and.match(/0\.143/);
    expect(sent[0]['text/plain']).to.match(/\| 2 \| 3 \| 0\.286 \| short \|/).and.match(/3 rows × 3 columns$/);
  });

  it('truncates a large frame to its first and last rows, saying how many are hidden', () => {
    const b = frameBundle(toFrame(rows));
    const lines = b['text/plain'].split('\n').filter((l) => l.startsWith('| '));
    expect(lines).to.have.length(1 + 21); // header, 20 rows and the gap
    expect(b['text/plain']).to.match(/\| 9 \| 10 \|/).and.match(/\| … \| … \| … \| … \|/).and.match(/\| 44 \| 45 \|/).and.not.match(/\| 10 \| 11 \|/);
    expect(b['text/plain']).to.match(/45 rows × 3 columns; 25 rows hidden/);
    expect(b['text/html']).to.match(/25 rows hidden/);
  });

  it('pages with { from, rows }, and shows a Series and a groupby result', () => {
    const page = frameBundle(toFrame(rows), { from: 40, rows: 10 });
    expect(page['text/plain']).to.match(/\| 40 \| 41 \|/).and.match(/\| 44 \| 45 \|/).and.match(/rows 40–44 of 45; 40 rows hidden/);
    const frame = toFrame(rows);
    const series = frameBundle(frame.column('wait'), { rows: 4 });
    expect(series['text/plain']).to.match(/\|\s*\| wait \|/).and.match(/41 rows hidden/);
    const grouped = frameBundle(frame.groupby(['queue']).agg({ wait: 'mean' }));
    expect(grouped['text/plain']).to.match(/queue \| wait_mean/).and.match(/2 rows × 2 columns/);
  });

  it('refuses what is neither a figure nor a frame, and bad paging', () => {
    expect(() => show({ rows: [] } as never)).to.throw(TypeError, /figure .* or a danfojs DataFrame/);
    expect(() => frameBundle(toFrame(rows), { rows: 0 })).to.throw(RangeError, /rows/);
    expect(() => frameBundle(toFrame(rows), { from: -1 })).to.throw(RangeError, /from/);
  });
});

describe('notebook echoes and charts', () => {
  after(() => closeRenderer());
  it('writeTable echoes as one short line relative to the notebook folder; its fields stay absolute paths', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'write-table-'));
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const w = writeTable([{ a: 1.5 }], path.join(dir, 'out', 'nb', 'tables'), 'summary');
      expect(inspect(w)).to.equal('[table written: out/nb/tables/extra-summary.csv, .md, .tex]');
      expect(path.isAbsolute(w.csv)).to.equal(true);
      expect(fs.existsSync(w.latex)).to.equal(true);
    } finally {
      process.chdir(cwd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('hover values of fractional axes are rounded (5 significant digits), integer axes left alone', () => {
    const fig = lineChart({ data: [{ job: 1, wait: 1385.8474033893926 }, { job: 2, wait: 3 }], x: 'job', y: 'wait' });
    expect((fig.layout.yaxis as Record<string, unknown>).hoverformat).to.equal(',.5~r');
    expect((fig.layout.xaxis as Record<string, unknown>).hoverformat).to.equal(undefined);
    const scatter = scatterChart({ data: [{ x: 0.25, y: 2 }], x: 'x', y: 'y' });
    expect((scatter.layout.xaxis as Record<string, unknown>).hoverformat).to.equal(',.5~r');
  });

  it('saveFigure after show draws the chart once; saveFigure alone shows and saves', async function () {
    this.timeout(5 * 60 * 1000); // two figures rendered by headless Chromium, started here (minutes on a loaded machine)
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'save-figure-'));
    const old = process.env.SCHEDLAB_OUT;
    process.env.SCHEDLAB_OUT = out;
    try {
      const a = lineChart({ data: [{ x: 1, y: 2 }, { x: 2, y: 3 }], x: 'x', y: 'y', title: 'a' });
      const b = lineChart({ data: [{ x: 1, y: 5 }, { x: 2, y: 1 }], x: 'x', y: 'y', title: 'b' });
      const sent = await underKernel(async () => {
        await show(a);
        await saveFigure(a, 'nb', 'first');
        await saveFigure(b, 'nb', 'second');
      });
      expect(sent.map((d) => d['text/plain'])).to.deep.equal(['<Figure: a>', '<Figure: b>']);
      expect(fs.readdirSync(path.join(out, 'nb', 'figures')).sort()).to.deep.equal(['extra-first.pdf', 'extra-first.png', 'extra-first.svg', 'extra-second.pdf', 'extra-second.png', 'extra-second.svg']);
    } finally {
      if (old === undefined) delete process.env.SCHEDLAB_OUT;
      else process.env.SCHEDLAB_OUT = old;
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
