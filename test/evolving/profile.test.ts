import { expect } from 'chai';
import * as fc from 'fast-check';
import {
  valueAt, maxOver, loc, delay, sum, sumAll, normalize, totalDuration, area, peakNodes,
  isExpandedOf, isDelayedOf, isScheduledVersionOf, validateProfile, Step, Timeline,
} from '../../src/schedulers/evolving';

// The two-step resource EP used as the running example: 10 nodes for 1200 s, then 20 for 3600 s.
const res: Step[] = [
  { duration: 1200, nodes: 10 },
  { duration: 3600, nodes: 20 },
];

const arbProfile = (maxSteps = 6, maxNodes = 9) =>
  fc.array(fc.record({ duration: fc.integer({ min: 0, max: 12 }), nodes: fc.integer({ min: 0, max: maxNodes }) }), { maxLength: maxSteps });

describe('evolving/profile: helper functions of section 3.1', () => {
  it('valueAt uses half-open steps and is 0 outside the profile', () => {
    expect(valueAt(res, -1)).to.equal(0);
    expect(valueAt(res, 0)).to.equal(10);
    expect(valueAt(res, 1199.5)).to.equal(10);
    expect(valueAt(res, 1200)).to.equal(20);
    expect(valueAt(res, 4799)).to.equal(20);
    expect(valueAt(res, 4800)).to.equal(0);
  });

  it('maxOver is the maximum over [t0, t1) and 0 on an empty interval', () => {
    expect(maxOver(res, 0, 1200)).to.equal(10);
    expect(maxOver(res, 0, 1201)).to.equal(20);
    expect(maxOver(res, 1199, 1199)).to.equal(0);
    expect(maxOver(res, 5000, 6000)).to.equal(0);
    expect(maxOver(res, -100, 10)).to.equal(10);
  });

  it('loc is the end of the last step holding the maximum, clipped to t1', () => {
    // Maximum 20 on [1200, 4800): inside [0, 2000) it ends at the clip.
    expect(loc(res, 0, 2000)).to.equal(2000);
    expect(loc(res, 0, 6000)).to.equal(4800);
    expect(loc(res, 0, 1000)).to.equal(1000);
    const zigzag: Step[] = [
      { duration: 2, nodes: 5 },
      { duration: 2, nodes: 1 },
      { duration: 2, nodes: 5 },
      { duration: 2, nodes: 3 },
    ];
    expect(loc(zigzag, 0, 8)).to.equal(6); // last occurrence of the maximum
    expect(loc(zigzag, 0, 3)).to.equal(2);
    expect(loc([], 0, 5)).to.equal(0); // maximum 0: nothing to jump over
  });

  it('loc satisfies its definition max(ep,t0,t) = max(ep,t0,t1) > max(ep,t,t1)', () => {
    fc.assert(
      fc.property(arbProfile(), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 40 }), (ep, t0, len) => {
        const t1 = t0 + len;
        const m = maxOver(ep, t0, t1);
        const t = loc(ep, t0, t1);
        if (m === 0) return t === t0;
        return t > t0 && t <= t1 && maxOver(ep, t0, t) === m && m > maxOver(ep, t, t1);
      }),
    );
  });

  it('Timeline answers max/loc like the list functions', () => {
    fc.assert(
      fc.property(arbProfile(), fc.integer({ min: -5, max: 40 }), fc.integer({ min: 0, max: 40 }), (ep, t0, len) => {
        const tl = new Timeline(ep);
        return tl.max(t0, t0 + len) === maxOver(ep, t0, t0 + len) && tl.loc(t0, t0 + len) === loc(ep, t0, t0 + len);
      }),
    );
  });

  it('Timeline.firstMaxStart is the start of the first maximum step, clipped to t0', () => {
    const zigzag: Step[] = [
      { duration: 2, nodes: 1 },
      { duration: 2, nodes: 5 },
      { duration: 2, nodes: 1 },
      { duration: 2, nodes: 5 },
    ];
    const tl = new Timeline(zigzag);
    expect(tl.firstMaxStart(0, 8)).to.equal(2);
    expect(tl.firstMaxStart(3, 8)).to.equal(3);
    expect(tl.firstMaxStart(4, 8)).to.equal(6);
    expect(tl.firstMaxStart(8, 10)).to.equal(10);
  });

  it('delay prepends a zero-node step and shifts every value', () => {
    const d = delay(res, 500);
    expect(d[0]).to.deep.equal({ duration: 500, nodes: 0 });
    expect(valueAt(d, 499)).to.equal(0);
    expect(valueAt(d, 500)).to.equal(10);
    expect(valueAt(d, 1700)).to.equal(20);
    expect(delay(res, 0)).to.deep.equal(res);
    expect(() => delay(res, -1)).to.throw(/t0/);
  });

  it('sum is the pointwise sum', () => {
    const s = sum(res, delay([{ duration: 1000, nodes: 7 }], 1000));
    expect(s).to.deep.equal([
      { duration: 1000, nodes: 10 },
      { duration: 200, nodes: 17 },
      { duration: 800, nodes: 27 },
      { duration: 2800, nodes: 20 },
    ]);
    fc.assert(
      fc.property(arbProfile(), arbProfile(), fc.integer({ min: 0, max: 80 }), (a, b, t2) => {
        const t = t2 / 2;
        return valueAt(sum(a, b), t) === valueAt(a, t) + valueAt(b, t);
      }),
    );
  });

  it('sum is commutative and sumAll of nothing is the empty EP', () => {
    fc.assert(fc.property(arbProfile(), arbProfile(), (a, b) => JSON.stringify(sum(a, b)) === JSON.stringify(sum(b, a))));
    expect(sumAll([])).to.deep.equal([]);
  });

  it('normalize keeps the function and the area', () => {
    fc.assert(
      fc.property(arbProfile(), fc.integer({ min: 0, max: 80 }), (ep, t) => {
        const n = normalize(ep);
        return valueAt(n, t) === valueAt(ep, t) && area(n) === area(ep) && n.every((s) => s.duration > 0);
      }),
    );
  });

  it('totalDuration, area and peakNodes', () => {
    expect(totalDuration(res)).to.equal(4800);
    expect(area(res)).to.equal(1200 * 10 + 3600 * 20);
    expect(peakNodes(res)).to.equal(20);
    expect(peakNodes([{ duration: 0, nodes: 99 }, { duration: 1, nodes: 3 }])).to.equal(3);
  });

  it('expanded and delayed checks', () => {
    const req: Step[] = [
      { duration: 500, nodes: 2 },
      { duration: 100, nodes: 4 },
    ];
    const exp: Step[] = [
      { duration: 900, nodes: 2 },
      { duration: 100, nodes: 4 },
    ];
    expect(isExpandedOf(req, req)).to.equal(true);
    expect(isExpandedOf(exp, req)).to.equal(true);
    expect(isExpandedOf(exp, req, 2)).to.equal(true);
    expect(isExpandedOf(exp, req, 1.5)).to.equal(false); // 900 > 1.5 × 500
    expect(isExpandedOf(req, exp)).to.equal(false); // shorter is not expanded
    expect(isExpandedOf([{ duration: 500, nodes: 3 }, req[1]], req)).to.equal(false); // node count changed
    expect(isDelayedOf(delay(req, 2000), req)).to.equal(true);
    expect(isDelayedOf(req, req)).to.equal(true);
    expect(isDelayedOf(delay(exp, 2000), req)).to.equal(false);
    expect(isScheduledVersionOf(delay(exp, 2000), req, 2)).to.equal(true);
    expect(isScheduledVersionOf(delay(exp, 2000), req, 1)).to.equal(false);
    expect(isScheduledVersionOf([{ duration: 10, nodes: 1 }, ...req], req)).to.equal(false); // leading step is not idle
  });

  it('validateProfile names the bad step', () => {
    expect(() => validateProfile([{ duration: 1, nodes: 1 }, { duration: -2, nodes: 1 }], 'app 7')).to.throw(/app 7: step 1 has duration -2/);
    expect(() => validateProfile([{ duration: 0, nodes: 1 }], 'req', { positiveDurations: true })).to.throw(/> 0/);
    expect(() => validateProfile([{ duration: 1, nodes: NaN }], 'req')).to.throw(/node count/);
  });
});
