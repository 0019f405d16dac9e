/**
 * What a reader must be able to see in every chart (issue 26): one style per
 * policy everywhere, no series hidden under another, cut error bars marked,
 * panels and legend inside the cell, Gantt charts by job on an ordered axis,
 * and timelines over weeks aggregated.
 */
import { expect } from 'chai';
import {
  barChart, chartStyles, colorDistance, ganttChart, lineChart, MAX_FIGURE_WIDTH, MIN_COLOR_DISTANCE, PALETTE, POLICY_STYLES,
  resetSeriesColors, seriesStyle,
} from '../../src/analysis/charts';
import { occupancyTimeline, processorGanttRows } from '../../src/analysis/timeline';

type Trace = Record<string, unknown>;
const colorOf = (t: Trace) => ((t.line ?? t.marker) as { color: string }).color;

/** Runs `fn` and returns what it wrote on stdout and stderr. */
function captureOutput(fn: () => void): { stdout: string; stderr: string } {
  const out = { stdout: '', stderr: '' };
  const [w1, w2] = [process.stdout.write, process.stderr.write];
  process.stdout.write = ((s: string) => ((out.stdout += s), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string) => ((out.stderr += s), true)) as typeof process.stderr.write;
  try {
    fn();
  } finally {
    process.stdout.write = w1;
    process.stderr.write = w2;
  }
  return out;
}

describe('charts: one style per policy, in every chart and notebook', () => {
  beforeEach(() => resetSeriesColors());

  it('EASY looks the same whatever it is spelt, drawn with and in whatever order', () => {
    const a = lineChart({ data: [{ p: 'fcfs', x: 1, y: 1 }, { p: 'easy', x: 1, y: 2 }], x: 'x', y: 'y', series: 'p' });
    const b = barChart({ data: [{ p: 'MCB8', x: 1, y: 1 }, { p: 'zeta', x: 1, y: 3 }, { p: 'EASY', x: 1, y: 2 }], x: 'x', y: 'y', series: 'p' });
    const easyA = a.data.find((t) => t.name === 'EASY') as Trace;
    const easyB = b.data.find((t) => t.name === 'EASY') as Trace;
    expect(colorOf(easyA)).to.equal(colorOf(easyB)).and.equal(POLICY_STYLES.easy.color);
  });

  it('any other name has a style of its own, independent of which names came first', () => {
    const first = seriesStyle('GreedyPM */per');
    for (let i = 0; i < 30; i++) seriesStyle(`other ${i}`);
    resetSeriesColors();
    seriesStyle('MCB8');
    expect(seriesStyle('GreedyPM */per')).to.deep.equal(first);
  });

  it('no two palette colours, and no two colours in one chart, are near-identical', () => {
    for (let i = 0; i < PALETTE.length; i++) {
      for (let j = i + 1; j < PALETTE.length; j++) expect(colorDistance(PALETTE[i], PALETTE[j]), `${PALETTE[i]} ${PALETTE[j]}`).to.be.at.least(25);
    }
    const fixed = Object.entries(POLICY_STYLES);
    for (const [a, s] of fixed) for (const [b, t] of fixed) if (a < b) expect(colorDistance(s.color, t.color), `${a} ${b}`).to.be.at.least(MIN_COLOR_DISTANCE);
    const names = ['easy', 'fcfs', 'conservative', ...Array.from({ length: 12 }, (_, i) => `algorithm ${i}`)];
    const colors = [...chartStyles(names).values()].map((s) => s.color);
    for (let i = 0; i < colors.length; i++) for (let j = i + 1; j < colors.length; j++) expect(colorDistance(colors[i], colors[j])).to.be.at.least(MIN_COLOR_DISTANCE);
  });
});

describe('charts: coinciding series stay visible', () => {
  const rows = [0.5, 0.9].flatMap((load) => [
    { alg: 'SG', load, y: load * 2 },
    { alg: 'SGB', load, y: load * 2 },
    { alg: 'MCB8', load, y: load * 3 },
  ]);

  it('a series identical to another is drawn with open markers around it and says so in the legend', () => {
    const f = lineChart({ data: rows, x: 'load', y: 'y', series: 'alg' });
    const sgb = f.data.find((t) => String(t.name).startsWith('SGB')) as Trace;
    expect(sgb.name).to.equal('SGB (identical to SG)');
    const sg = f.data.find((t) => t.name === 'SG') as Trace;
    expect((sgb.marker as { symbol: string }).symbol).to.match(/-open$/);
    expect((sgb.marker as { size: number }).size).to.be.greaterThan((sg.marker as { size: number }).size);
    expect(f.data.find((t) => t.name === 'MCB8')).to.not.equal(undefined);
  });

  it('in panels, the note names the panels where they coincide', () => {
    const panels = [...rows.map((r) => ({ ...r, panel: 'MCB5' })), ...rows.map((r) => ({ ...r, panel: 'MCB8', y: r.alg === 'SGB' ? r.y + 1 : r.y }))];
    const f = lineChart({ data: panels, x: 'load', y: 'y', series: 'alg', facet: 'panel' });
    expect(f.data.filter((t) => t.showlegend).map((t) => t.name)).to.include('SGB (identical to SG in MCB5)');
  });
});

describe('charts: cut error bars and layout', () => {
  it('a CI cut at a log axis is marked at the cut and noted under the chart', () => {
    const f = lineChart({ data: [{ x: 1, y: 2, e: 5 }, { x: 2, y: 8, e: 1 }], x: 'x', y: 'y', error: 'e', logY: true });
    const marks = f.data.find((t) => t.mode === 'markers') as Trace;
    expect(marks.x).to.deep.equal([1]);
    expect((marks.y as number[])[0]).to.be.greaterThan(0).and.below(2);
    const notes = (f.layout.annotations as { name?: string; text: string }[]).filter((a) => a.name === 'note');
    expect(notes.map((a) => a.text).join()).to.match(/1 error bar cut at the log axis/);
  });

  it('grouped bars say so under the chart when a CI is cut at a log axis', () => {
    const f = barChart({ data: [{ p: 'a', x: 1, y: 2, e: 5 }, { p: 'b', x: 1, y: 3, e: 1 }], x: 'x', y: 'y', series: 'p', error: 'e', logY: true });
    expect((f.layout.annotations as { text: string }[]).map((a) => a.text).join()).to.match(/1 error bar cut at the log axis/);
  });

  it('three panels and their legend fit the width of a notebook cell', () => {
    const data = ['CTC-SP2', 'KTH-SP2', 'Lublin 2003'].flatMap((workload) =>
      ['fcfs', 'easy', 'conservative', 'easy-sjbf'].flatMap((policy, k) => [0.5, 0.9].map((load) => ({ workload, policy, load, mean: load * (k + 1) }))));
    const f = lineChart({ data, x: 'load', y: 'mean', series: 'policy', facet: 'workload', logY: true });
    expect(f.width).to.be.at.most(MAX_FIGURE_WIDTH);
    expect((f.layout.legend as { orientation: string }).orientation).to.equal('h');
    for (const k of ['xaxis', 'xaxis2', 'xaxis3']) {
      const [lo, hi] = (f.layout[k] as { domain: number[] }).domain;
      expect(lo).to.be.at.least(0);
      expect(hi).to.be.at.most(1);
    }
    expect(lineChart({ data, x: 'load', y: 'mean', series: 'policy', width: 1400 }).width).to.equal(MAX_FIGURE_WIDTH);
  });
});

describe('Gantt charts and timelines', () => {
  it('processor bars are coloured by job, on an ordered numeric processor axis, with more than 20 colours', () => {
    // Jobs on scattered processors, listed out of order: the axis must still read 0, 1, 2, …
    const jobs = Array.from({ length: 30 }, (_, i) => ({ id: 100 + i, start: i * 10, end: i * 10 + 50, processors: [(i * 37) % 64, (i * 37 + 1) % 64] }));
    const bars = processorGanttRows(jobs.reverse());
    const f = ganttChart({ data: bars, row: 'processor', start: 'start', end: 'end', label: 'job' });
    expect((f.layout.yaxis as { type: string }).type).to.equal('linear');
    expect(f.data).to.have.length(1);
    const colors = (f.data[0].marker as { color: string[] }).color;
    expect(new Set(colors).size).to.be.greaterThan(20);
    // Same job, same colour.
    const byJob = new Map<number, Set<string>>();
    bars.forEach((b, i) => byJob.set(b.job, (byJob.get(b.job) ?? new Set()).add(colors[i])));
    expect([...byJob.values()].every((s) => s.size === 1)).to.equal(true);
  });

  it('named rows are in natural order', () => {
    const f = ganttChart({ data: ['node 10', 'node 2', 'node 1'].map((node, i) => ({ node, job: `j${i}`, s: 0, e: 1 })), row: 'node', start: 's', end: 'e' });
    expect((f.layout.yaxis as { categoryarray: string[] }).categoryarray).to.deep.equal(['node 1', 'node 2', 'node 10']);
    expect(f.data.filter((t) => t.showlegend)).to.have.length(3);
  });

  it('an empty window prints a warning on stdout (not stderr) and the chart says it is empty', () => {
    const jobs = [{ id: 1, start: 0, end: 10, processors: [0] }];
    let f!: ReturnType<typeof ganttChart>;
    const out = captureOutput(() => {
      const bars = processorGanttRows(jobs, { from: 100, to: 200 });
      f = ganttChart({ data: bars, row: 'processor', start: 'start', end: 'end' });
    });
    expect(out.stderr).to.equal('');
    expect(out.stdout).to.match(/warning: processorGanttRows: no job of 1 runs in \[100, 200\)/);
    expect(out.stdout).to.match(/warning: ganttChart: no bars to draw/);
    expect((f.layout.annotations as { text: string }[])[0].text).to.match(/no job runs/);
  });

  it('a timeline over weeks is aggregated to daily time-weighted means', () => {
    // Day d: one job on half the machine for the first half of the day.
    const jobs = Array.from({ length: 24 }, (_, d) => ({ submit: d * 86400, start: d * 86400, end: d * 86400 + 43200, procs: 2 }));
    const rows = occupancyTimeline(jobs, 4);
    expect(rows.length).to.be.at.most(24);
    expect(rows[0].time).to.equal(0);
    expect(rows[1].time).to.equal(86400);
    expect(rows[0].utilization).to.be.closeTo(25, 1e-9);
    expect(occupancyTimeline(jobs, 4, { period: 0 }).length).to.equal(48);
    expect(occupancyTimeline(jobs.slice(0, 1), 4)).to.have.length(2); // one day: every event
  });
});
