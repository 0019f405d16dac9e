/**
 * Determinism of the main job at quick scale: executing the notebooks twice
 * gives byte-identical CSV tables and identical text outputs, run times
 * aside (the rule: test/determinism/compare.ts, docs/hardening-papers.md).
 *
 * The first run is the notebooks suite's quick execution (test/notebooks/),
 * the second one more execution into a scratch folder; both come from
 * test/support/notebook-runs.ts, which starts each at most once per test
 * process and runs them beside the other suites.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { chartText, compareCsv, compareNotebooks, compareRuns, formatComparison, isRunTimeAxis, isRunTimeColumn, isRunTimeRow, normalizeText } from './compare';
import { record } from '../hardening-papers/tally';
import { execution, notebooks, runLast } from '../support/notebook-runs';

describe('determinism: the comparison rule', () => {
  it('run-time columns and rows are recognised by name; simulated times are not', () => {
    for (const h of ['runTimeMs', 'exactMeanMs', 'milpMeanSeconds', 'mean_s', 'max_s', 'schedulingTime_avg', 'sched. time max (ms)', 'seconds', 'elapsed']) {
      expect(isRunTimeColumn(h), h).to.equal(true);
    }
    for (const h of ['meanRuntime', 'runtime', 'duration_s', 'makespan_avg', 'meanWait', 'makespan avg (h)', 'published max_s (below)', 'wait time (s)']) {
      expect(isRunTimeColumn(h), h).to.equal(false);
    }
    expect(isRunTimeRow('large: MCB8 run time, 500 tasks (ms)')).to.equal(true);
    expect(isRunTimeRow('small: MILP mean solve time (s, solved within limit)')).to.equal(true);
    expect(isRunTimeRow('small: LP bound above optimum (mean %)')).to.equal(false);
  });

  it('tables: any changed value is a difference, except in run-time columns and rows', () => {
    const a = 'algorithm,minYield,runTimeMs\nMCB8,0.81,1.25\nGR,0.7,0.5\n';
    expect(compareCsv('t.csv', a, a.replace('1.25', '3.5')).identical).to.equal(true);
    const changed = compareCsv('t.csv', a, a.replace('0.81', '0.82'));
    expect(changed.identical).to.equal(false);
    expect(changed.differences[0]).to.match(/row 1, column minYield: 0.81 vs 0.82/);
    expect(compareCsv('t.csv', a, a.replace('GR,0.7,0.5\n', '')).identical).to.equal(false);
    expect(compareCsv('t.csv', a, a.replace('minYield', 'min_yield')).identical).to.equal(false);
    const long = 'quantity,ours\n"MCB8 run time, 500 tasks (ms)",2.15\nLP bound above MCB8 (mean %),12.0\n';
    expect(compareCsv('l.csv', long, long.replace('2.15', '8.1')).identical).to.equal(true);
    expect(compareCsv('l.csv', long, long.replace('12.0', '12.1')).identical).to.equal(false);
    // quoted cells with commas and line breaks
    const q = 'a,b\n"x, ""y""\nz",1\n';
    expect(compareCsv('q.csv', q, q).identical).to.equal(true);
    expect(compareCsv('q.csv', q, q.replace(',1', ',2')).identical).to.equal(false);
  });

  it('notebook text: timings are blanked, every other number must match; edited notebooks are reported', () => {
    expect(normalizeText('180 runs, 13 s\ndone in 2s, 340 cells/s')).to.equal('180 runs, <t> s\ndone in <t>s, <t> cells/s');
    const nb = (text: string, src = 'run()') => ({ cells: [{ cell_type: 'code', source: src, outputs: [{ output_type: 'stream', text }] }] });
    expect(compareNotebooks('x', nb('max stretch 3.2 (12 s)'), nb('max stretch 3.2 (40 s)')).identical).to.equal(true);
    const diff = compareNotebooks('x', nb('max stretch 3.2 (12 s)'), nb('max stretch 3.3 (12 s)'));
    expect(diff.identical).to.equal(false);
    expect(diff.differences[0]).to.match(/3\.2.*vs.*3\.3/);
    const edited = compareNotebooks('x', nb('a'), nb('a', 'run(2)'));
    expect(edited.sourcesChanged).to.equal(true);
    expect(edited.identical).to.equal(false);
    // the output folder's own path is not a difference
    const p = compareNotebooks('x', nb('wrote /tmp/r1/x/tables/a.csv'), nb('wrote /tmp/r2/x/tables/a.csv'), ['/tmp/r1', '/tmp/r2']);
    expect(p.identical).to.equal(true);
  });

  it('charts: plotly specs compared (data and layout), run-time axes aside; one run without images compares the same outputs', () => {
    const MIME = 'application/vnd.plotly.v1+json';
    const spec = (y: number[], yTitle = 'average slowdown', name = 'EASY', title = 'Figure 3 (12 s)') => ({
      data: [{ type: 'scatter', name, x: [1, 2], y }, { type: 'scatter', name: 'FCFS', x: [1, 2], y: [5, 6] }],
      layout: { title: { text: title }, xaxis: { title: { text: 'offered load' } }, yaxis: { title: { text: yTitle }, range: [0, y[1]] } },
    });
    const nb = (s: unknown, png = true) => ({ cells: [{ cell_type: 'code', source: 'show(f)', outputs: [{ output_type: 'display_data', data: { [MIME]: s, ...(png ? { 'image/png': 'AAAA' } : {}), 'text/plain': '<Figure: F>' } }] }] });
    const same = compareNotebooks('x', nb(spec([1, 2])), nb(spec([1, 2], undefined, undefined, 'Figure 3 (40 s)'), false));
    expect(same.identical, same.differences.join('\n')).to.equal(true);
    expect(same.chartsCompared).to.equal(1);
    expect(same.outputsCompared).to.equal(1); // the chart's text/plain, with or without a PNG
    const changed = compareNotebooks('x', nb(spec([1, 2])), nb(spec([1, 2.5]), false));
    expect(changed.identical).to.equal(false);
    expect(changed.differences[0]).to.match(/chart/);
    // a chart of run times: the times, what derives from them and the range may differ, not the trace names
    expect(isRunTimeAxis('run time (ms, log)')).to.equal(true);
    expect(isRunTimeAxis('seconds per call (floored at 1 µs)')).to.equal(true);
    expect(isRunTimeAxis('average response time (s)')).to.equal(false);
    expect(isRunTimeAxis('seconds (log)')).to.equal(false);
    const t = 'run time (ms, log)';
    expect(chartText(spec([1, 2], t))).to.equal(chartText(spec([3, 9], t, 'EASY (identical to FCFS)')));
    expect(chartText(spec([1, 2], t))).to.not.equal(chartText(spec([1, 2], t, 'EASY2')));
    // a CDF of call times: the fractions on the other axis and the number of points follow the times
    const cdf = (x: number[]) => ({ data: [{ type: 'scatter', name: 'seconds', x, y: x.map((_, i) => (i + 1) / x.length) }], layout: { xaxis: { title: { text: 'seconds per call (floored at 1 µs)' } }, yaxis: { title: { text: 'fraction ≤ x' } } } });
    expect(chartText(cdf([1e-6, 2e-6, 3e-6]))).to.equal(chartText(cdf([1e-6, 4e-6])));
    // a log axis of times: its ticks follow the range of the times
    const ticked = (dtick: unknown) => ({ ...cdf([1e-6]), layout: { ...cdf([1e-6]).layout, xaxis: { title: { text: 'seconds per call (floored at 1 µs)' }, type: 'log', dtick } } });
    expect(chartText(ticked('D2'))).to.equal(chartText(ticked(1)));
    expect(chartText(ticked('D2'))).to.not.equal(chartText({ ...ticked('D2'), layout: { ...ticked('D2').layout, xaxis: { title: { text: 'run time (ms, log)' } } } }));
    expect(chartText(cdf([1e-6, 2e-6]))).to.not.equal(chartText({ ...cdf([1e-6, 2e-6]), data: [...cdf([1e-6, 2e-6]).data, { type: 'scatter', name: 'another', x: [1], y: [1] }] }));
    // a chart without run-time axes compares both axes
    const otherX = spec([1, 2]);
    otherX.data[1].x = [1, 3];
    expect(chartText(spec([1, 2]))).to.not.equal(chartText(otherX));
    // a chart in one run only is a difference
    const gone = compareNotebooks('x', nb(spec([1, 2])), { cells: [{ cell_type: 'code', source: 'show(f)', outputs: [{ output_type: 'display_data', data: { 'text/plain': '<Figure: F>' } }] }] });
    expect(gone.identical).to.equal(false);
  });
});

runLast(
  describe('determinism: notebooks executed twice at quick scale give identical tables and text outputs (run times aside)', function () {
  this.timeout(60 * 60 * 1000);

  for (const file of notebooks) {
    const name = path.basename(file, '.ipynb');
    it(`${name}`, async () => {
      const [first, second] = await Promise.all([execution(file, 'quick'), execution(file, 'determinism')]);
      for (const r of [first, second]) expect(r.status, `executing ${file} failed:\n${r.stderr.slice(-4000)}`).to.equal(0);
      // The second run drew no image (SCHEDLAB_IMAGES=off): no PNG in its notebook, only plotly specs among its figure files.
      expect(fs.readFileSync(path.join(second.outRoot, name, `${name}.ipynb`), 'utf8').includes('"image/png"'), 'the determinism run drew images').to.equal(false);
      const figures = path.join(second.outRoot, name, 'figures');
      if (fs.existsSync(figures)) expect(fs.readdirSync(figures).filter((f) => !f.endsWith('.json'))).to.deep.equal([]);
      const cmp = compareRuns(first.outRoot, second.outRoot, [name]);
      expect(cmp.tables.length + cmp.notebooks.length, 'nothing was compared').to.be.greaterThan(0);
      expect(cmp.identical, formatComparison(cmp)).to.equal(true);
      const outputs = cmp.notebooks.reduce((n, x) => n + x.outputsCompared, 0);
      record({ family: 'determinism', kind: 'notebook executed twice at quick scale: CSV tables compared', cases: cmp.tables.length, outcome: 'byte-identical (run-time columns/rows aside)' });
      record({ family: 'determinism', kind: 'notebook executed twice at quick scale: text outputs compared', cases: outputs, outcome: 'identical (timings aside)' });
      const charts = cmp.notebooks.reduce((n, x) => n + x.chartsCompared, 0);
      record({ family: 'determinism', kind: "notebook executed twice at quick scale (the second without images): charts' plotly specs compared", cases: charts, outcome: 'identical (run-time axes and timings aside)' });
    });
  }
}),
);
