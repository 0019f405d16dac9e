/** Ablation summaries of notebook 01: each variant beside the default on the same traces, projected onto the whole set. */
import { expect } from 'chai';
import { ablationSummary, BOUND_READINGS, boundReadingRecords, maximaSummary } from '../../src/schedulers/dfrs/ablation';
import { dfrsBound, dfrsTrace } from '../../src/schedulers/dfrs/experiment';
import { degradationFromBound } from '../../src/metrics/dfrs';

describe('dfrs ablation summary', () => {
  const rec = (trace: string, algorithm: string, spanning: string, tasks: string, degradation: number) => ({ trace, algorithm, spanning, tasks, degradation });
  const records = [
    rec('w0', 'EASY', 'keep', 'paper', 10), rec('w1', 'EASY', 'keep', 'paper', 30),
    rec('w0', 'EASY', 'drop', 'paper', 5), rec('w1', 'EASY', 'drop', 'paper', 15),
    // only one trace of this variant: compared with the default on that trace only
    rec('w1', 'EASY', 'keep', 'per-processor', 60),
    rec('w0', 'B', 'keep', 'paper', 2), rec('w0', 'B', 'drop', 'per-processor', 4),
  ];
  const options = {
    switches: ['spanning', 'tasks'],
    defaults: { spanning: 'keep', tasks: 'paper' },
    fullSetAverage: (a: string) => (a === 'EASY' ? 100 : NaN),
    published: (a: string) => (a === 'EASY' ? 50 : 3),
  };

  it('names variants by the switches that differ, compares on the same traces, projects and divides by the published value', () => {
    const rows = ablationSummary(records, options);
    expect(rows.map((r) => [r.variant, r.algorithm, r.traces, r.avg, r.ratio_to_default])).to.deep.equal([
      ['default', 'EASY', 2, 20, 1],
      ['spanning=drop', 'EASY', 2, 10, 0.5],
      ['tasks=per-processor', 'EASY', 1, 60, 2],
      ['default', 'B', 1, 2, 1],
      ['spanning=drop, tasks=per-processor', 'B', 1, 4, 2],
    ]);
    expect(rows[1].projected).to.equal(50);
    expect(rows[1].projected_over_published).to.equal(1);
    expect(rows[2].projected_over_published).to.equal(4);
    expect(rows[4].projected).to.be.NaN;
    expect(rows[4].published).to.equal(3);
  });

  it('reads another metric when asked', () => {
    const rows = ablationSummary(records.map((r) => ({ ...r, uu: r.degradation / 100 })), { ...options, metric: 'uu' });
    expect(rows[0].avg).to.be.closeTo(0.2, 1e-12);
  });
});

describe('dfrs maxima summary', () => {
  // The table's own runs (the default) on four traces; the ablation on two of them, holding the set's maximum.
  const table = [['t0', 2], ['t1', 4], ['t2', 90], ['t3', 8]].map(([trace, degradation]) => ({ trace, trace_set: 's', algorithm: 'A', degradation }));
  const records = [
    { trace: 't0', trace_set: 's', algorithm: 'A', age: '600', degradation: 1 },
    { trace: 't2', trace_set: 's', algorithm: 'A', age: '600', degradation: 9 },
  ];
  const rows = maximaSummary(records, table, { switches: ['age'], defaults: { age: '0' }, published: () => ({ avg: 10, max: 9 }) });

  it("gives the default on the ablation's traces first, then each variant: maxima and averages beside the published ones", () => {
    expect(rows.map((r) => [r.variant, r.traces, r.max, r.default_max, r.full_set_max, r.avg, r.default_avg])).to.deep.equal([
      ['default', 2, 90, 90, 90, 46, 46],
      ['age=600', 2, 9, 90, 90, 5, 46],
    ]);
    expect(rows[0].max_over_published).to.equal(10);
    expect(rows[1].max_over_published).to.equal(1);
    // the whole set's default average (26) times the variant's ratio on its traces (5 / 46)
    expect(rows[1].projected_avg).to.be.closeTo((26 * 5) / 46, 1e-12);
    expect(rows[0].projected_avg_over_published).to.be.closeTo(2.6, 1e-12);
  });

  it('takes the averages over the records averageOver keeps (a random sample), the maxima over all', () => {
    const picked = records.map((r) => ({ ...r, pick: r.trace === 't2' ? 'worst' : 'sample' }));
    const rows = maximaSummary(picked, table, { switches: ['age'], defaults: { age: '0' }, published: () => ({ avg: 10, max: 9 }), averageOver: (r) => r.pick === 'sample' });
    expect(rows.map((r) => [r.variant, r.max, r.avg, r.default_avg])).to.deep.equal([['default', 90, 2, 2], ['age=600', 9, 1, 2]]);
    expect(rows[1].projected_avg).to.equal(13);
  });
});

describe('dfrs bound readings', () => {
  // A small seeded synthetic trace: the bound is a max flow, milliseconds here.
  const trace = dfrsTrace({ trace_set: 'unscaled', trace_index: 0, jobs_per_trace: 60, base_seed: 'bound-readings' });
  const bound = dfrsBound(trace.jobs, trace.nodes);
  const records = [
    { trace: trace.name, algorithm: 'A', max_stretch: 3 * bound, bound, degradation: 3 },
    { trace: trace.name, algorithm: 'B', max_stretch: 5 * bound, bound, degradation: 5 },
  ];

  it('re-divides each committed maximum stretch by every reading of the bound, keeping the records as the default', () => {
    let built = 0;
    const out = boundReadingRecords(records, () => (built++, trace));
    expect(out.filter((r) => r.bound_reading === 'default')).to.deep.equal(records.map((r) => ({ ...r, bound_reading: 'default' })));
    expect(built, 'one bound per reading and trace').to.equal(Object.keys(BOUND_READINGS).length);
    for (const [name, boundOf] of Object.entries(BOUND_READINGS)) {
      const b = boundOf(trace);
      for (const r of out.filter((x) => x.bound_reading === name)) {
        expect(r.bound).to.equal(b);
        expect(r.degradation).to.be.closeTo(degradationFromBound(r.max_stretch, b), 1e-12);
      }
    }
    // More capacity cannot raise the bound, a larger threshold cannot either (bounded stretch only shrinks).
    expect(BOUND_READINGS['nodes=cores'](trace)).to.be.at.most(bound);
    expect(BOUND_READINGS['threshold=60'](trace)).to.be.at.most(bound);
    // The projection reads them like any switch.
    const rows = ablationSummary(out, { switches: ['bound_reading'], defaults: { bound_reading: 'default' }, fullSetAverage: () => 10, published: () => 20 });
    expect(rows.map((r) => r.variant)).to.include.members(['default', ...Object.keys(BOUND_READINGS).map((k) => `bound_reading=${k}`)]);
    expect(rows.find((r) => r.variant === 'default' && r.algorithm === 'A')!.ratio_to_default).to.equal(1);
  });
});
