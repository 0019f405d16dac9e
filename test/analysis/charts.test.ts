import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { lineChart, barChart, cdfChart, ecdfPoints, ganttChart, scatterChart, seriesColor, chartStyles, resetSeriesColors, setSeriesColors, displayName, PALETTE } from '../../src/analysis/charts';
import { processorGanttRows } from '../../src/analysis/timeline';
import { exportFigure, closeRenderer } from '../../src/analysis/render';
import { figureBundle, show, PLOTLY_MIME } from '../../src/analysis/show';
import { outputStem } from '../../src/analysis/paths';
import { toFrame, fromFrame } from '../../src/analysis/frame';
import { display, displayUnavailableReason } from '../../src/analysis/display';

const data = [
  { algorithm: 'EASY', load: 0.9, y: 4, ci95: 0.5 },
  { algorithm: 'EASY', load: 0.1, y: 1, ci95: 0.1 },
  { algorithm: 'MCB8', load: 0.1, y: 1, ci95: 0.1 },
  { algorithm: 'MCB8', load: 0.9, y: 2, ci95: 0.2 },
];

describe('analysis/charts', () => {
  beforeEach(() => resetSeriesColors());

  it('lineChart draws one sorted curve per series with error bars and log axis', () => {
    const f = lineChart({ data, x: 'load', y: 'y', series: 'algorithm', error: 'ci95', logY: true });
    expect(f.data).to.have.length(2);
    expect(f.data[0].name).to.equal('EASY');
    expect(f.data[0].x).to.deep.equal([0.1, 0.9]);
    expect(f.data[0].y).to.deep.equal([1, 4]);
    expect((f.data[0].error_y as { array: number[] }).array).to.deep.equal([0.1, 0.5]);
    expect((f.layout.yaxis as { type: string }).type).to.equal('log');
  });

  it('a series keeps its colour across figures', () => {
    setSeriesColors({ EASY: '#000000' });
    const a = lineChart({ data, x: 'load', y: 'y', series: 'algorithm' });
    const b = barChart({ data: [...data].reverse(), x: 'load', y: 'y', series: 'algorithm' });
    const colorOf = (f: typeof a, name: string, key: 'line' | 'marker') =>
      (f.data.find((t) => t.name === name)?.[key] as { color: string }).color;
    expect(colorOf(a, 'EASY', 'line')).to.equal('#000000');
    expect(colorOf(a, 'MCB8', 'line')).to.equal(colorOf(b, 'MCB8', 'marker'));
    expect(seriesColor('new')).to.not.equal(seriesColor('MCB8'));
  });

  it('cdfChart steps from 1/n to 1', () => {
    const f = cdfChart({ data: [{ v: 3 }, { v: 1 }, { v: 2 }], value: 'v' });
    expect(f.data[0].x).to.deep.equal([1, 2, 3]);
    expect(f.data[0].y).to.deep.equal([1 / 3, 2 / 3, 1]);
  });

  it('ganttChart turns (start, end) into bars with a base', () => {
    const f = ganttChart({ data: [{ node: 'n1', start: 5, end: 15, job: 'j' }], row: 'node', start: 'start', end: 'end', series: 'job' });
    expect(f.data[0].base).to.deep.equal([5]);
    expect(f.data[0].x).to.deep.equal([10]);
  });

  it('charts reject non-numeric values, naming the field', () => {
    expect(() => scatterChart({ data: [{ a: 'x', b: 1 }], x: 'a', y: 'b' })).to.throw(/field "a" must be a number/);
  });

  it('a shown figure is plotly JSON plus one static PNG, with no script and no bundle', () => {
    const f = lineChart({ data, x: 'load', y: 'y', series: 'algorithm', title: 'T' });
    const { data: bundle, metadata } = figureBundle(f, 'AAAA');
    expect(Object.keys(bundle).sort()).to.deep.equal([PLOTLY_MIME, 'image/png', 'text/plain'].sort());
    const spec = bundle[PLOTLY_MIME] as { data: unknown[]; layout: { width: number } };
    expect(spec.data).to.have.length(f.data.length);
    expect(spec.layout.width).to.equal(f.width);
    expect(bundle['image/png']).to.equal('AAAA');
    expect(metadata).to.deep.equal({ 'image/png': { width: f.width, height: f.height } });
    expect(JSON.stringify(bundle)).to.not.match(/<script/i);
  });

  it('frames round-trip plain records', () => {
    const df = toFrame(data);
    expect(df.shape).to.deep.equal([4, 4]);
    expect(fromFrame(df)).to.deep.equal(data);
    expect(() => toFrame([])).to.throw(/no records/);
  });
});

describe('analysis/render (headless Chromium)', function () {
  this.timeout(5 * 60 * 1000); // starting Chromium takes minutes when the suite's notebook executions and other work load the machine
  after(() => closeRenderer());

  it('exportFigure writes valid SVG, PNG and PDF files', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-fig-'));
    const f = lineChart({ data, x: 'load', y: 'y', series: 'algorithm', title: 'Export test', width: 500, height: 300 });
    const files = await exportFigure(f, path.join(dir, 'fig'));
    expect(files.map((p) => path.basename(p))).to.deep.equal(['fig.svg', 'fig.png', 'fig.pdf']);
    const svg = fs.readFileSync(files[0], 'utf8');
    expect(svg).to.match(/^<svg/).and.contain('Export test');
    const png = fs.readFileSync(files[1]);
    expect(png.subarray(0, 8).toString('hex')).to.equal('89504e470d0a1a0a');
    // PNG width (bytes 16..19 of IHDR) is the figure width times the scale (2).
    expect(png.readUInt32BE(16)).to.equal(1000);
    const pdf = fs.readFileSync(files[2]);
    expect(pdf.subarray(0, 5).toString()).to.equal('%PDF-');
    // The figure title is the PDF's Title metadata (Chromium writes it as UTF-16BE hex).
    const utf16 = Buffer.from('\ufeffExport test', 'utf16le').swap16().toString('hex').toUpperCase();
    expect(pdf.toString('latin1')).to.match(new RegExp(`/Title \\((\\xfe\\xff)?Export test\\)|/Title <${utf16}>`, 'i'));
    fs.rmSync(dir, { recursive: true });
  });
});

describe('analysis/charts log axes', () => {
  it('tick density follows the number of decades spanned', () => {
    const fig = (hi: number) => cdfChart({ data: [{ v: 1 }, { v: hi }], value: 'v', logX: true });
    expect((fig(50).layout.xaxis as { dtick: unknown }).dtick).to.equal('D2');
    expect((fig(1e6).layout.xaxis as { dtick: unknown }).dtick).to.equal(1);
    expect((fig(1e12).layout.xaxis as { dtick: unknown }).dtick).to.equal(2);
  });
});

describe('analysis/charts: publication style', () => {
  beforeEach(() => resetSeriesColors());

  it('20 series of one chart get 20 different colours, and dash/marker pairs that differ', () => {
    const names = Array.from({ length: 20 }, (_, i) => `s${i}`);
    const styles = [...chartStyles(names).values()];
    expect(new Set(styles.map((s) => s.color)).size).to.equal(20);
    expect(new Set(styles.map((s) => `${s.dash}|${s.symbol}`)).size).to.equal(20);
  });

  it('a fixed colour is never handed out again to another series', () => {
    setSeriesColors({ easy: PALETTE[0] });
    expect(seriesColor('other')).to.not.equal(PALETTE[0]);
  });

  it('error bars stay above 0 on a log axis and inside [0, 100] for percentages', () => {
    const log = lineChart({ data: [{ x: 1, y: 2, e: 5 }, { x: 2, y: 8, e: 1 }], x: 'x', y: 'y', error: 'e', logY: true });
    const eb = log.data[0].error_y as { array: number[]; arrayminus: number[] };
    expect(2 - eb.arrayminus[0]).to.be.greaterThan(0);
    expect(eb.array[0]).to.equal(5);
    const pct = lineChart({ data: [{ x: 1, y: 97, e: 5 }, { x: 2, y: 3, e: 5 }], x: 'x', y: 'y', error: 'e', yLabel: 'accepted (%)' });
    const pb = pct.data[0].error_y as { array: number[]; arrayminus: number[] };
    expect(97 + pb.array[0]).to.equal(100);
    expect(3 - pb.arrayminus[1]).to.equal(0);
  });

  it('internal names are shown by their display names; colours stay keyed by the internal name', () => {
    const f = lineChart({ data: [{ p: 'easy', x: 1, y: 1 }, { p: 'feitelson', x: 1, y: 2 }], x: 'x', y: 'y', series: 'p' });
    expect(f.data.map((t) => t.name)).to.deep.equal(['EASY', 'Feitelson 1996']);
    expect((f.data[0].line as { color: string }).color).to.equal(seriesColor('easy'));
    expect(displayName('unknown-name')).to.equal('unknown-name');
  });

  it('facets draw one panel per value with one legend entry per series', () => {
    const rows = ['a', 'b'].flatMap((panel) => ['easy', 'fcfs'].map((p) => ({ panel, p, x: 1, y: p === 'easy' ? 1 : 2 })));
    const f = lineChart({ data: rows, x: 'x', y: 'y', series: 'p', facet: 'panel' });
    expect(f.data.map((t) => t.xaxis ?? 'x')).to.deep.equal(['x', 'x', 'x2', 'x2']);
    expect(f.data.filter((t) => t.showlegend).map((t) => t.name)).to.deep.equal(['EASY', 'FCFS']);
    expect(f.layout.xaxis2).to.have.property('domain');
    expect((f.layout.annotations as { text: string }[]).map((a) => a.text)).to.deep.equal(['<b>a</b>', '<b>b</b>']);
  });

  it('grouped bars use category x values so numeric groups are dodged', () => {
    const f = barChart({ data: [{ l: 0.5, p: 'a', y: 1 }, { l: 0.5, p: 'b', y: 2 }], x: 'l', y: 'y', series: 'p' });
    expect(f.layout.barmode).to.equal('group');
    expect((f.layout.xaxis as { type: string }).type).to.equal('category');
  });

  it('Gantt labels are on hover, and on the bars only where they fit', () => {
    const f = ganttChart({ data: [{ n: 'n1', s: 0, e: 1, j: 'job 1' }], row: 'n', start: 's', end: 'e', label: 'j' });
    expect(f.data[0].textposition).to.equal('inside');
    expect(f.layout.uniformtext).to.deep.equal({ mode: 'hide', minsize: 6 });
    expect(f.data[0].hovertext).to.deep.equal(['job 1']);
  });

  it("file stems carry the paper's figure or table number, and extra-<slug> for anything else", () => {
    expect(outputStem('load-curve')).to.equal('extra-load-curve');
    expect(outputStem('Section 6.2: MCB8')).to.equal('extra-section-6-2-mcb8');
    expect(outputStem('figure3a-underutilization-vs-period-hpc2n')).to.equal('fig03a-underutilization-vs-period-hpc2n');
    expect(outputStem('fig13-14-migration-cost')).to.equal('fig13-14-migration-cost');
    expect(outputStem('table2')).to.equal('table02');
    expect(outputStem('Table 7: large instances')).to.equal('table07-large-instances');
    // A slug without a number takes it from the title ("Fig. 2: …", "Figure 6a — …").
    expect(outputStem('mcb-small-minyield', 'Fig. 2: minimum yield vs slack')).to.equal('fig02-mcb-small-minyield');
    expect(outputStem('feitelson-response', 'Figure 6a — FWload')).to.equal('fig06a-feitelson-response');
    expect(outputStem('summary', 'Mean wait per figure 3 policy')).to.equal('extra-summary');
    expect(() => outputStem('--')).to.throw(/slug/);
  });
});

describe('analysis/show outside a notebook', () => {
  it('says why it cannot display instead of failing silently', async () => {
    const logged: string[] = [];
    const log = console.log;
    console.log = (...a: unknown[]) => void logged.push(a.join(' '));
    try {
      await show(lineChart({ data, x: 'load', y: 'y', title: 'Quiet?' }));
    } finally {
      console.log = log;
    }
    expect(logged.join('\n')).to.match(/figure "Quiet\?" .* not displayed: not running inside a tslab notebook kernel/);
  });
});

describe('analysis/display under a kernel from another installation', () => {
  it("sends rich output through the running kernel's tslab, wherever it was loaded from", () => {
    // A tslab loaded from another folder (another clone, a user's own installation), as the kernel would have it.
    const file = path.join(os.tmpdir(), 'elsewhere', 'node_modules', 'tslab', 'dist', 'jupyter.js');
    const sent: unknown[] = [];
    const fake = { id: file, filename: file, loaded: true, exports: { lastWriteDisplayData: (msg: unknown) => void sent.push(msg) } };
    (require.cache as Record<string, unknown>)[file] = fake;
    try {
      expect(displayUnavailableReason()).to.equal(undefined);
      display({ 'text/plain': 'hello' });
      expect(sent).to.deep.equal([{ data: { 'text/plain': 'hello' }, metadata: {}, transient: {} }]);
    } finally {
      delete require.cache[file];
    }
    expect(displayUnavailableReason()).to.match(/not running inside a tslab notebook kernel/);
  });
});

describe('ecdfPoints', () => {
  it('keeps one exact point per distinct value', () => {
    expect(ecdfPoints([3, 1, 1, 2, 3, 3])).to.deep.equal({ x: [1, 2, 3], y: [2 / 6, 3 / 6, 1] });
  });
  it('thins many distinct values to about maxPoints exact points, ending at (max, 1)', () => {
    const values = Array.from({ length: 10000 }, (_, i) => (i * 7919) % 10007);
    const p = ecdfPoints(values, 100);
    expect(p.x.length).to.equal(101);
    expect(p.x[p.x.length - 1]).to.equal(Math.max(...values));
    expect(p.y[p.y.length - 1]).to.equal(1);
    const sorted = values.slice().sort((a, b) => a - b);
    p.x.forEach((x, k) => expect(p.y[k]).to.equal((sorted.lastIndexOf(x) + 1) / values.length));
  });
});

describe('processorGanttRows', () => {
  it('one bar per processor and job, clipped to the window; jobs without names are an error', () => {
    const jobs = [
      { id: 1, start: 0, end: 10, processors: [0, 1] },
      { id: 2, start: 5, end: 20, processors: [2] },
      { id: 3, start: 30, end: 40, processors: [0] },
    ];
    expect(processorGanttRows(jobs, { from: 8, to: 25 })).to.deep.equal([
      { processor: 0, job: 1, start: 8, end: 10 },
      { processor: 1, job: 1, start: 8, end: 10 },
      { processor: 2, job: 2, start: 8, end: 20 },
    ]);
    expect(() => processorGanttRows([{ id: 9, start: 0, end: 1 }])).to.throw(/job 9 names no processors/);
  });
});
