import { expect } from 'chai';
import * as fc from 'fast-check';
import {
  baseFit, compact, compactSearch, completionOf, expansionWaste, delay, sum, maxOver, valueAt, isExpandedOf, totalDuration, Step,
} from '../../src/schedulers/evolving';

/** Resource EP from [duration, nodes] pairs. */
const ep = (...pairs: [number, number][]): Step[] => pairs.map(([duration, nodes]) => ({ duration, nodes }));

/** True when the scheduled EP of `fit` plus `res` stays within `nodes` everywhere. */
function fits(res: Step[], steps: Step[], start: number, nodes: number): boolean {
  const total = sum(res, delay(steps, start));
  return maxOver(total, 0, totalDuration(total) + 1) <= nodes;
}

/**
 * Brute force on the integer grid (all data integers, so breakpoints are too):
 * earliest completion over every placement in which step i starts at s_i,
 * lasts until s_{i+1} with s_{i+1} - s_i in [d_i, limit·d_i], the first step is
 * not expanded and the cluster is never exceeded.
 */
function bruteEarliestCompletion(req: Step[], res: Step[], nodes: number, limit: number, horizon: number): number {
  const free = (t0: number, t1: number, n: number) => nodes - maxOver(res, t0, t1) >= n;
  // feasible[s] = step i can start at s with a valid prefix.
  let feasible = new Array<boolean>(horizon + 1).fill(false);
  for (let s = 0; s <= horizon; s++) feasible[s] = free(s, s + req[0].duration, req[0].nodes);
  for (let i = 1; i < req.length; i++) {
    const next = new Array<boolean>(horizon + 1).fill(false);
    const dp = req[i - 1].duration;
    for (let s = 0; s <= horizon; s++) {
      if (!free(s, s + req[i].duration, req[i].nodes)) continue;
      for (let p = 0; p <= s - dp; p++) {
        if (!feasible[p] || s - p > limit * dp) continue;
        // the first step is delayed instead of expanded
        if (i === 1 ? free(s - dp, s, req[0].nodes) : free(p, s, req[i - 1].nodes)) {
          next[s] = true;
          break;
        }
      }
    }
    feasible = next;
  }
  const last = req[req.length - 1].duration;
  for (let s = 0; s <= horizon; s++) if (feasible[s]) return s + last;
  return Infinity;
}

describe('evolving/fit: Algorithm 2 (base fit) and compacting', () => {
  it('empty resource EP: the requested EP starts at 0 unchanged', () => {
    const req = ep([300, 4], [200, 9]);
    for (const expandLimit of [1, 2, Infinity]) {
      expect(baseFit(req, [], 10, { expandLimit })).to.deep.equal({ start: 0, steps: req });
    }
  });

  it('a step that does not fit jumps past the maximum', () => {
    // 8 of 10 nodes busy for 10 s: a 5-node step must wait until 10.
    expect(baseFit(ep([5, 5]), ep([10, 8]), 10)).to.deep.equal({ start: 10, steps: ep([5, 5]) });
    // Two busy blocks: the 4-node step does not fit in the 2-node gap [3,5) that lies between them.
    expect(baseFit(ep([2, 4]), ep([3, 9], [2, 8], [3, 9]), 10).start).to.equal(8);
  });

  // Worked example: cluster of 10, requested (2 s, 8), (2 s, 2), (2 s, 8);
  // resource: idle on [0, 2), 5 busy on [2, 6), idle afterwards.
  // Step 3 (8 nodes) cannot run on [4, 6) and moves to 6. Step 2 (2 nodes) then
  // has to wait from 4 to 6: an expansion to 4 s (factor 2). Step 1 cannot move
  // later because 8 nodes are not free on [2, 6).
  const req = ep([2, 8], [2, 2], [2, 8]);
  const res = ep([2, 0], [4, 5]);

  it('expand limit 2 and infinity: the middle step is expanded ×2', () => {
    for (const expandLimit of [2, Infinity]) {
      const x = baseFit(req, res, 10, { expandLimit });
      expect(x).to.deep.equal({ start: 0, steps: ep([2, 8], [4, 2], [2, 8]) });
      expect(completionOf(x)).to.equal(8);
      expect(expansionWaste(req, x)).to.equal(2 * 2);
    }
  });

  it('no expansion: the failed expansion makes step 1 jump to 6 (completion 12)', () => {
    // Trace: step 3 at 6 would expand step 2 to 4 s > 1 × 2 s: fail, step 2 must start >= 4;
    // step 2 at 4 would expand step 1 over [2, 4): fail, step 1 must start >= 2;
    // step 1 does not fit on [2, 4) or [4, 6) (5 busy + 8 > 10) and jumps to 6.
    const x = baseFit(req, res, 10, { expandLimit: 1 });
    expect(x).to.deep.equal({ start: 6, steps: req });
  });

  it('expand limit 1.5: the limit is exceeded, the search jumps and ends like no expansion', () => {
    const x = baseFit(req, res, 10, { expandLimit: 1.5 });
    expect(x).to.deep.equal({ start: 6, steps: req });
  });

  it('failed expansion for lack of nodes forces a jump past the maximum', () => {
    // Cluster 10, requested (2 s, 1), (2 s, 4), (2 s, 6); 7 nodes busy on [4, 6).
    // Step 3 cannot run on [4, 6) and goes to 6; expanding step 2 (4 nodes) over
    // [4, 6) needs 4 nodes but only 3 are free: the expansion fails and step 2
    // jumps to loc = 6. Step 1 is then delayed to 4: start 4, no expansion.
    const r2 = ep([4, 0], [2, 7]);
    const q = ep([2, 1], [2, 4], [2, 6]);
    for (const expandLimit of [1, 2, Infinity]) {
      expect(baseFit(q, r2, 10, { expandLimit })).to.deep.equal({ start: 4, steps: q });
    }
  });

  it('compacting removes an expansion that delaying the start avoids', () => {
    // Requested (2 s, 1), (2 s, 4), (2 s, 6); 6 busy on [4, 6). Base ×2: step 2
    // expanded over [2, 6) (waste 2 s × 4 nodes). Compacting pins step 3 to
    // [6, 8) and places step 2 on [4, 6), step 1 on [2, 4): no waste.
    const r2 = ep([4, 0], [2, 6]);
    const q = ep([2, 1], [2, 4], [2, 6]);
    const base = baseFit(q, r2, 10, { expandLimit: 2 });
    expect(base).to.deep.equal({ start: 0, steps: ep([2, 1], [4, 4], [2, 6]) });
    const c = baseFit(q, r2, 10, { expandLimit: 2, compact: true });
    expect(c).to.deep.equal({ start: 2, steps: q });
    expect(completionOf(c)).to.equal(completionOf(base));
  });

  it('compacting keeps an expansion that cannot be avoided', () => {
    const base = baseFit(req, res, 10, { expandLimit: 2 });
    expect(compact(req, res, 10, base, { expandLimit: 2 })).to.deep.equal(base);
  });

  it('rejects requests larger than the cluster and bad limits, naming the step', () => {
    expect(() => baseFit(ep([1, 3], [1, 11]), [], 10)).to.throw(/step 1 asks for 11 nodes/);
    expect(() => baseFit(ep([1, 3]), [], 10, { expandLimit: 0.5 })).to.throw(/expandLimit/);
    expect(() => baseFit(ep([0, 3]), [], 10)).to.throw(/duration 0/);
  });

  const arbCase = fc
    .record({
      nodes: fc.integer({ min: 1, max: 8 }),
      req: fc.array(fc.record({ duration: fc.integer({ min: 1, max: 4 }), nodes: fc.integer({ min: 0, max: 8 }) }), { minLength: 1, maxLength: 4 }),
      res: fc.array(fc.record({ duration: fc.integer({ min: 1, max: 5 }), nodes: fc.integer({ min: 0, max: 8 }) }), { maxLength: 6 }),
      limit: fc.constantFrom(1, 1.5, 2, 3, Infinity),
    })
    .map((c) => ({
      ...c,
      req: c.req.map((s) => ({ ...s, nodes: Math.min(s.nodes, c.nodes) })),
      res: c.res.map((s) => ({ ...s, nodes: Math.min(s.nodes, c.nodes) })),
    }));

  it('property: result is the requested EP expanded within the limit, first and last steps unexpanded, never overflowing', () => {
    fc.assert(
      fc.property(arbCase, fc.boolean(), ({ nodes, req, res, limit }, doCompact) => {
        const x = baseFit(req, res, nodes, { expandLimit: limit, compact: doCompact });
        expect(x.start).to.be.at.least(0);
        expect(isExpandedOf(x.steps, req, limit)).to.equal(true);
        expect(x.steps[0].duration).to.equal(req[0].duration);
        expect(x.steps[x.steps.length - 1].duration).to.equal(req[req.length - 1].duration);
        expect(fits(res, x.steps, x.start, nodes)).to.equal(true);
      }),
      { numRuns: 300 },
    );
  });

  it('property: with no expansion the start is the earliest one at which the whole EP fits', () => {
    fc.assert(
      fc.property(arbCase, ({ nodes, req, res }) => {
        const x = baseFit(req, res, nodes, { expandLimit: 1 });
        for (let t = 0; t < x.start; t++) {
          if (fits(res, req, t, nodes)) return false;
        }
        return fits(res, req, x.start, nodes);
      }),
      { numRuns: 300 },
    );
  });

  it('property: the completion time is the earliest possible for the expand limit (brute force)', () => {
    fc.assert(
      fc.property(arbCase, ({ nodes, req, res, limit }) => {
        const x = baseFit(req, res, nodes, { expandLimit: limit });
        const horizon = totalDuration(res) + 3 * totalDuration(req) + 1;
        return completionOf(x) === bruteEarliestCompletion(req, res, nodes, limit, horizon);
      }),
      { numRuns: 200 },
    );
  });

  it('property: the compacting search always finds a placement ending at the base completion, starting no earlier', () => {
    fc.assert(
      fc.property(arbCase, ({ nodes, req, res, limit }) => {
        const base = baseFit(req, res, nodes, { expandLimit: limit });
        const c = compactSearch(req, res, nodes, completionOf(base), { expandLimit: limit });
        return (
          c !== null &&
          c.start >= base.start &&
          completionOf(c) === completionOf(base) &&
          isExpandedOf(c.steps, req, limit) &&
          fits(res, c.steps, c.start, nodes)
        );
      }),
      { numRuns: 300 },
    );
  });

  it('the raw compacting search can waste more than the base (latest start is not least waste); compact then keeps the base', () => {
    // Found by random search: the base expands the 0-node step 4 by 1 s; the
    // latest-start placement instead expands the 2-node step 3 by 1 s.
    const q = ep([3, 6], [2, 5], [3, 2], [1, 0], [1, 6]);
    const r = ep([5, 7], [5, 4], [5, 7], [4, 0], [1, 0], [5, 3]);
    const base = baseFit(q, r, 7, { expandLimit: 2 });
    expect(base).to.deep.equal({ start: 15, steps: ep([3, 6], [2, 5], [3, 2], [2, 0], [1, 6]) });
    const raw = compactSearch(q, r, 7, completionOf(base), { expandLimit: 2 });
    expect(raw).to.deep.equal({ start: 15, steps: ep([3, 6], [2, 5], [4, 2], [1, 0], [1, 6]) });
    expect(expansionWaste(q, raw!)).to.be.greaterThan(expansionWaste(q, base));
    expect(compact(q, r, 7, base, { expandLimit: 2 })).to.deep.equal(base);
  });

  it('property: compacting never delays completion, never starts earlier, never increases waste', () => {
    fc.assert(
      fc.property(arbCase, ({ nodes, req, res, limit }) => {
        const base = baseFit(req, res, nodes, { expandLimit: limit });
        const c = compact(req, res, nodes, base, { expandLimit: limit });
        return (
          completionOf(c) === completionOf(base) &&
          c.start >= base.start &&
          expansionWaste(req, c) <= expansionWaste(req, base) &&
          isExpandedOf(c.steps, req, limit) &&
          fits(res, c.steps, c.start, nodes)
        );
      }),
      { numRuns: 300 },
    );
  });

  it('scheduled EP value equals the requested node count inside each step', () => {
    const x = baseFit(req, res, 10, { expandLimit: 2 });
    const s = delay(x.steps, x.start);
    expect([0, 1, 2, 5, 6, 7].map((t) => valueAt(s, t))).to.deep.equal([8, 8, 2, 2, 8, 8]);
  });
});
