import { expect } from 'chai';
import fc from 'fast-check';
import { ProcessorProfile } from '../../src/engine/profile';

describe('ProcessorProfile', () => {
  it('reserve/release build the expected step function and merge equal neighbours', () => {
    const p = new ProcessorProfile(10);
    p.reserve(0, 100, 4);
    p.reserve(50, 150, 3);
    expect(p.segments()).to.deep.equal([
      { time: 0, free: 6 },
      { time: 50, free: 3 },
      { time: 100, free: 7 },
      { time: 150, free: 10 },
    ]);
    expect(p.freeAt(75)).to.equal(3);
    expect(p.minFree(0, 120)).to.equal(3);
    expect(p.minFree(100, 200)).to.equal(7);
    p.release(50, 150, 3);
    expect(p.segments()).to.deep.equal([
      { time: 0, free: 6 },
      { time: 100, free: 10 },
    ]);
  });

  it('refuses over-reservation and over-release, naming the numbers', () => {
    const p = new ProcessorProfile(4);
    p.reserve(0, 10, 3);
    expect(() => p.reserve(5, 20, 2)).to.throw(/cannot reserve 2 processors on \[5, 20\): only 1 free/);
    expect(() => p.release(0, 20, 2)).to.throw(/exceeds the capacity/);
    expect(p.segments()).to.deep.equal([
      { time: 0, free: 1 },
      { time: 10, free: 4 },
    ]);
  });

  it('earliestStart finds the first hole long enough', () => {
    const p = new ProcessorProfile(10);
    p.reserve(0, 100, 8); // 2 free until 100
    p.reserve(150, 200, 6); // 4 free on [150,200)
    expect(p.earliestStart(2, 1000)).to.equal(0);
    expect(p.earliestStart(3, 10)).to.equal(100);
    expect(p.earliestStart(5, 50)).to.equal(100); // [100,150) has 10 free
    expect(p.earliestStart(5, 60)).to.equal(200);
    expect(p.earliestStart(5, 10, 120)).to.equal(120);
    expect(p.earliestStart(11, 1)).to.equal(Infinity);
  });

  it('earliestStartShape places a staircase (evolving application) without overlap', () => {
    const p = new ProcessorProfile(10);
    p.reserve(0, 100, 6); // 4 free on [0,100)
    // 2 procs for 50 s then 8 procs for 50 s: second step must start at >= 100.
    const shape = [
      { duration: 50, procs: 2 },
      { duration: 50, procs: 8 },
    ];
    expect(p.earliestStartShape(shape)).to.equal(50);
    const end = p.reserveShape(50, shape);
    expect(end).to.equal(150);
    expect(p.segments()).to.deep.equal([
      { time: 0, free: 4 },
      { time: 50, free: 2 },
      { time: 100, free: 2 },
      { time: 150, free: 10 },
    ].filter((s, i, a) => i === 0 || s.free !== a[i - 1].free));
    p.releaseShape(50, shape);
    expect(p.freeAt(120)).to.equal(10);
  });

  it('trim forgets the past', () => {
    const p = new ProcessorProfile(5);
    p.reserve(0, 10, 1);
    p.reserve(20, 30, 2);
    p.trim(25);
    expect(p.origin).to.equal(25);
    expect(p.segments()).to.deep.equal([
      { time: 25, free: 3 },
      { time: 30, free: 5 },
    ]);
    expect(() => p.freeAt(0)).to.throw(/before the profile origin/);
  });

  it('property: earliestStart is feasible and no earlier feasible breakpoint exists', () => {
    const arb = fc.record({
      res: fc.array(fc.record({ s: fc.integer({ min: 0, max: 200 }), d: fc.integer({ min: 1, max: 100 }), n: fc.integer({ min: 1, max: 8 }) }), { maxLength: 15 }),
      q: fc.record({ n: fc.integer({ min: 1, max: 8 }), d: fc.integer({ min: 0, max: 80 }), nb: fc.integer({ min: 0, max: 150 }) }),
    });
    fc.assert(
      fc.property(arb, ({ res, q }) => {
        const p = new ProcessorProfile(8);
        for (const r of res) if (p.fits(r.s, r.d, r.n)) p.reserve(r.s, r.s + r.d, r.n);
        const t = p.earliestStart(q.n, q.d, q.nb);
        expect(t).to.be.at.least(q.nb);
        expect(p.fits(t, q.d, q.n)).to.equal(true);
        // Candidates: notBefore and every breakpoint after it.
        for (const c of [q.nb, ...p.segments().map((s) => s.time)]) {
          if (c >= q.nb && c < t) expect(p.fits(c, q.d, q.n)).to.equal(false);
        }
        // Free never negative, never above capacity.
        for (const s of p.segments()) expect(s.free).to.be.within(0, 8);
      }),
      { numRuns: 300, seed: 12345 },
    );
  });

  it('property: earliestStartShape is feasible and no earlier candidate start fits', () => {
    const step = fc.record({ duration: fc.integer({ min: 0, max: 60 }), procs: fc.integer({ min: 0, max: 8 }) });
    const arb = fc.record({
      res: fc.array(fc.record({ s: fc.integer({ min: 0, max: 200 }), d: fc.integer({ min: 1, max: 100 }), n: fc.integer({ min: 1, max: 8 }) }), { maxLength: 12 }),
      shape: fc.array(step, { minLength: 1, maxLength: 4 }),
      nb: fc.integer({ min: 0, max: 100 }),
    });
    fc.assert(
      fc.property(arb, ({ res, shape, nb }) => {
        const p = new ProcessorProfile(8);
        for (const r of res) if (p.fits(r.s, r.d, r.n)) p.reserve(r.s, r.s + r.d, r.n);
        const t = p.earliestStartShape(shape, nb);
        expect(t).to.be.at.least(nb);
        expect(p.fitsShape(t, shape)).to.equal(true);
        // Any feasible start is a breakpoint minus a step offset, or nb.
        const offsets: number[] = [];
        let o = 0;
        for (const s of shape) (offsets.push(o), (o += s.duration));
        const cands = [nb];
        for (const seg of p.segments()) for (const off of offsets) cands.push(seg.time - off);
        for (const c of cands) if (c >= nb && c < t) expect(p.fitsShape(c, shape)).to.equal(false);
      }),
      { numRuns: 300, seed: 777 },
    );
  });
});
