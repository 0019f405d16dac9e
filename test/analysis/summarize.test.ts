import { expect } from 'chai';
import { toFrame } from '../../src/analysis/frame';
import { occupancyTimeline } from '../../src/analysis/timeline';
import { loopProgress } from '../../src/analysis/progress';
import { tCritical, confidenceHalfWidth, summarize, studentTCdf, degradation } from '../../src/analysis/summarize';

describe('analysis/summarize', () => {
  it('tCritical matches Student-t tables', () => {
    // Two-sided 95% critical values from standard tables.
    expect(tCritical(1)).to.be.closeTo(12.706, 1e-3);
    expect(tCritical(4)).to.be.closeTo(2.776, 1e-3);
    expect(tCritical(10)).to.be.closeTo(2.228, 1e-3);
    expect(tCritical(30)).to.be.closeTo(2.042, 1e-3);
    expect(tCritical(10, 0.99)).to.be.closeTo(3.169, 1e-3);
  });

  it('studentTCdf is symmetric and 0.5 at zero', () => {
    expect(studentTCdf(0, 7)).to.be.closeTo(0.5, 1e-12);
    expect(studentTCdf(1.3, 7) + studentTCdf(-1.3, 7)).to.be.closeTo(1, 1e-12);
  });

  it('95% CI half-width against a hand-computed value', () => {
    // values 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample sd sqrt(32/7) = 2.138090,
    // t(7) = 2.364624, half-width = 2.364624 * 2.138090 / sqrt(8) = 1.787520
    const v = [2, 4, 4, 4, 5, 5, 7, 9];
    expect(confidenceHalfWidth(v)).to.be.closeTo(1.78752, 1e-4);
    expect(confidenceHalfWidth([3])).to.equal(0);
    expect(Number.isNaN(confidenceHalfWidth([]))).to.equal(true);
  });

  it('summarize groups in order of first appearance', () => {
    const rows = [
      { alg: 'B', load: 0.5, y: 1 },
      { alg: 'A', load: 0.5, y: 2 },
      { alg: 'B', load: 0.5, y: 3 },
      { alg: 'B', load: 0.9, y: 10 },
    ];
    const s = summarize(rows, { by: ['alg', 'load'], value: 'y' });
    expect(s.map((r) => [r.alg, r.load, r.n])).to.deep.equal([
      ['B', 0.5, 2],
      ['A', 0.5, 1],
      ['B', 0.9, 1],
    ]);
    expect(s[0].mean).to.equal(2);
    expect(s[0].std).to.be.closeTo(Math.SQRT2, 1e-12);
    expect(s[0].min).to.equal(1);
    expect(s[0].max).to.equal(3);
    expect(s[0].ci95).to.be.closeTo((12.7062 * Math.SQRT2) / Math.SQRT2, 1e-3);
    // A group of one value: standard deviation and CI half-width 0, min = max = the value (the paper tables' n = 1 rows).
    expect(s[1]).to.deep.equal({ alg: 'A', load: 0.5, n: 1, mean: 2, std: 0, min: 2, max: 2, ci95: 0 });
  });

  it('summarize refuses non-finite values, naming the record', () => {
    expect(() => summarize([{ y: 1 }, { y: NaN }], { by: [], value: 'y' })).to.throw(/record 1 has y = NaN/);
    expect(() => summarize([{ y: 'x' }], { by: [], value: 'y' })).to.throw(/finite number/);
  });

  it('degradation is the percentage above the reference', () => {
    expect(degradation(1.5, 1)).to.be.closeTo(50, 1e-12);
    expect(() => degradation(1, 0)).to.throw(/positive/);
  });
});

describe('analysis/summarize on a DataFrame', () => {
  it('gives the same groups from a danfojs DataFrame as from records', () => {
    const recs = [
      { a: 'x', v: 1 },
      { a: 'x', v: 3 },
      { a: 'y', v: 5 },
    ];
    expect(summarize(toFrame(recs), { by: ['a'], value: 'v' })).to.deep.equal(summarize(recs, { by: ['a'], value: 'v' }));
    expect(summarize(toFrame(recs), { by: ['a'], value: 'v' })[0]).to.include({ a: 'x', n: 2, mean: 2, min: 1, max: 3 });
  });
});

describe('analysis/timeline', () => {
  it('tracks utilization, running jobs and queue length; ends free processors before starts at the same time', () => {
    const rows = occupancyTimeline(
      [
        { submit: 0, start: 0, end: 10, procs: 4 },
        { submit: 1, start: 10, end: 12, procs: 4 },
      ],
      4,
    );
    expect(rows).to.deep.equal([
      { time: 0, utilization: 100, running: 1, queued: 0 },
      { time: 1, utilization: 100, running: 1, queued: 1 },
      { time: 10, utilization: 100, running: 1, queued: 0 },
      { time: 12, utilization: 0, running: 0, queued: 0 },
    ]);
    expect(() => occupancyTimeline([{ submit: 0, start: 0, end: 5, procs: 3 }, { submit: 0, start: 1, end: 2, procs: 2 }], 4)).to.throw(/5 processors busy at time 1/);
  });
});

describe('analysis/progress', () => {
  it('a loop outside a notebook reports its final count on one line', () => {
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((s: string) => (lines.push(String(s)), true)) as typeof process.stderr.write;
    try {
      const p = loopProgress('cells', 3);
      p.step();
      p.step();
      p.step();
      p.end();
    } finally {
      process.stderr.write = write;
    }
    expect(lines.join('')).to.match(/cells: done 3\/3 \(100%\)/);
  });
});
