import { expect } from 'chai';
import { batchMeans, improvement, tQuantile975, twoTierMetrics } from '../../src/metrics/twotier';

describe('twotier metrics', () => {
  it('batch means: the mean of equal batches and a t-based half-width', () => {
    const values = [1, 1, 3, 3, 5, 5, 7, 7]; // 4 batches of 2: means 1, 3, 5, 7
    const r = batchMeans(values, { batches: 4 });
    expect(r.batchMeans).to.deep.equal([1, 3, 5, 7]);
    expect(r.mean).to.equal(4);
    const sd = Math.sqrt(((9 + 1 + 1 + 9) / 3));
    expect(r.ci95).to.be.closeTo((3.182 * sd) / 2, 1e-9);
    expect(batchMeans([2, 2, 2, 2], { batches: 2 }).ci95).to.equal(0);
    expect(() => batchMeans([1], { batches: 2 })).to.throw(/too few/);
    expect(tQuantile975(9)).to.equal(2.262);
    expect(tQuantile975(200)).to.be.closeTo(1.972, 0.001);
  });

  it('response time and bounded slowdown with τ = 10 s use the dedicated runtime', () => {
    const jobs = [
      { submit: 0, start: 0, end: 100, runtime: 50 }, // response 100, bsld 2
      { submit: 10, start: 20, end: 22, runtime: 2 }, // response 12, bsld 12/10
    ];
    const m = twoTierMetrics(jobs, { batches: 2 });
    expect(m.meanResponse).to.equal(56);
    expect(m.meanBoundedSlowdown).to.be.closeTo((2 + 1.2) / 2, 1e-12);
  });

  it('improvement is relative to the baseline', () => {
    expect(improvement(200, 150)).to.equal(0.25);
    expect(improvement(100, 40)).to.be.closeTo(0.6, 1e-12);
  });
});
