import { expect } from 'chai';
import fc from 'fast-check';
import {
  packVectors,
  maximizeMinYield,
  maximizeMinYieldOfJobs,
  mcbSortKey,
  yieldUpperBound,
  placementMinYield,
  tasksOfJobs,
  McbVariant,
} from '../../src/schedulers/packing';

const EPS = 1e-9;

function binLoads(items: { cpu: number; mem: number }[], placement: number[], bins: number) {
  const cpu = new Array(bins).fill(0);
  const mem = new Array(bins).fill(0);
  items.forEach((it, i) => {
    cpu[placement[i]] += it.cpu;
    mem[placement[i]] += it.mem;
  });
  return { cpu, mem };
}

describe('packing: MCB vector packing', () => {
  it('reproduces a packing worked out by hand (MCB8)', () => {
    // CPU list: A(0.6,0.2), C(0.4,0.3); memory list: B(0.2,0.6), D(0.3,0.4).
    // Bin 0: A (tie, A listed first), then memory list -> B; C and D no longer fit.
    // Bin 1: C, then memory list -> D.
    const items = [
      { cpu: 0.6, mem: 0.2 },
      { cpu: 0.2, mem: 0.6 },
      { cpu: 0.4, mem: 0.3 },
      { cpu: 0.3, mem: 0.4 },
    ];
    expect(packVectors(items, 2, { variant: 8 })).to.deep.equal([0, 0, 1, 1]);
  });

  it('balance-seeking: after a CPU-heavy item it picks a memory-heavy one', () => {
    // Descending order would take the next CPU-heavy item (0.5, 0.1) if it ignored balance.
    const items = [
      { cpu: 0.5, mem: 0.1 },
      { cpu: 0.45, mem: 0.1 },
      { cpu: 0.1, mem: 0.4 },
    ];
    const p = packVectors(items, 3, { variant: 8 })!;
    expect(p[0]).to.equal(0);
    expect(p[2]).to.equal(0);
  });

  it('fails when memory cannot fit', () => {
    const items = [0.6, 0.6, 0.6].map((mem) => ({ cpu: 0.1, mem }));
    expect(packVectors(items, 2)).to.equal(null);
    expect(packVectors(items, 3)).to.not.equal(null);
    expect(packVectors([{ cpu: 1.2, mem: 0.1 }], 5)).to.equal(null);
  });

  it('sort keys follow the paper: MCB5 sum descending, MCB3 ratio ascending, MCB8 max descending', () => {
    expect(mcbSortKey(5, 0.2, 0.3)).to.be.closeTo(-0.5, 1e-12);
    expect(mcbSortKey(1, 0.2, 0.3)).to.be.closeTo(0.5, 1e-12);
    expect(mcbSortKey(3, 0.2, 0.4)).to.be.closeTo(2, 1e-12);
    expect(mcbSortKey(7, 0, 0.4)).to.equal(-Infinity);
    expect(mcbSortKey(8, 0.2, 0.7)).to.equal(-0.7);
    expect(() => mcbSortKey(9 as McbVariant, 0.1, 0.1)).to.throw(/1\.\.8/);
  });

  it('every variant returns capacity-respecting packings (property)', () => {
    const item = fc.record({ cpu: fc.double({ min: 0, max: 1, noNaN: true }), mem: fc.double({ min: 0, max: 1, noNaN: true }) });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 40 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 }), (items, bins, v) => {
        const p = packVectors(items, bins, { variant: v as McbVariant });
        if (p === null) return;
        expect(p).to.have.length(items.length);
        const { cpu, mem } = binLoads(items, p, bins);
        for (let b = 0; b < bins; b++) {
          expect(cpu[b]).to.be.at.most(1 + 1e-6);
          expect(mem[b]).to.be.at.most(1 + 1e-6);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('respects preloaded capacity', () => {
    const p = packVectors([{ cpu: 0.5, mem: 0.5 }], 2, { preload: { cpu: [0.6, 0], mem: [0, 0] } });
    expect(p).to.deep.equal([1]);
    expect(() => packVectors([], 2, { preload: { cpu: [0], mem: [0] } })).to.throw(/preload/);
  });
});

describe('packing: binary search on the yield', () => {
  it('returns the upper bound when it packs', () => {
    const tasks = [0.9, 0.8, 0.8].map((cpuNeed) => ({ job: 0, cpuNeed, mem: 0.1 }));
    const r = maximizeMinYield(tasks, 1)!;
    expect(r.yield).to.be.closeTo(1 / 2.5, EPS);
    expect(yieldUpperBound(tasks, 1)).to.be.closeTo(0.4, EPS);
  });

  it('bisection converges within the tolerance of the heuristic threshold', () => {
    // 3 unit-need tasks on 2 hosts: the best placement doubles up -> yield 1/2,
    // while the bound says 2/3. Bisection must stop within tol below 1/2.
    const tasks = [0, 1, 2].map((job) => ({ job, cpuNeed: 1, mem: 0.1 }));
    for (const tolerance of [0.01, 0.001]) {
      const r = maximizeMinYield(tasks, 2, { tolerance })!;
      expect(r.searchedYield).to.be.at.most(0.5 + EPS);
      expect(r.searchedYield).to.be.at.least(0.5 - tolerance);
      expect(r.yield).to.be.closeTo(0.5, EPS);
    }
    // Without probing the bound, the first probe is ub/2 and the answer is still within tolerance.
    const three = [0, 1, 2].map((job) => ({ job, cpuNeed: 1, mem: 0.1 }));
    const r2 = maximizeMinYield(three, 1, { probeUpperBound: false, tolerance: 0.01 })!;
    expect(r2.searchedYield).to.be.at.least(1 / 3 - 0.01).and.at.most(1 / 3 + EPS);
  });

  it('returns null when memory does not fit even at yield 0', () => {
    const tasks = [0, 1, 2].map((job) => ({ job, cpuNeed: 0.5, mem: 0.6 }));
    expect(maximizeMinYield(tasks, 2)).to.equal(null);
  });

  it('keeps pinned tasks on their host', () => {
    const tasks = tasksOfJobs([
      { cpuNeed: 1, mem: 0.3, tasks: 2 },
      { cpuNeed: 0.5, mem: 0.3, tasks: 1 },
    ]);
    const r = maximizeMinYield(tasks, 2, { fixedHost: [0, 0, null] })!;
    expect(r.placement.slice(0, 2)).to.deep.equal([0, 0]);
    expect(r.placement[2]).to.equal(1);
    expect(r.yield).to.be.closeTo(0.5, EPS);
  });

  it('on jobs (maximizeMinYieldOfJobs) answers bit for bit as on their tasks listed one by one', () => {
    const size = fc.constantFrom(0.05, 0.1, 0.2, 0.25, 0.3, 1 / 3, 0.5, 0.6, 1);
    const job = fc.record({ tasks: fc.integer({ min: 0, max: 5 }), cpuNeed: size, mem: size, pinned: fc.boolean(), seed: fc.nat(100) });
    let found = 0;
    fc.assert(
      fc.property(fc.array(job, { maxLength: 12 }), fc.integer({ min: 1, max: 6 }), (list, hosts) => {
        const jobs = list.map((j) => ({ tasks: j.tasks, cpuNeed: j.cpuNeed, mem: j.mem, hosts: j.pinned ? Array.from({ length: j.tasks }, (_, k) => (j.seed + k) % hosts) : null }));
        const tasks = tasksOfJobs(jobs.filter((j) => j.tasks > 0));
        const fixedHost = jobs.filter((j) => j.tasks > 0).flatMap((j) => (j.hosts ? j.hosts : new Array(j.tasks).fill(null)));
        const want = tasks.length === 0 ? null : maximizeMinYield(tasks, hosts, { fixedHost });
        const got = maximizeMinYieldOfJobs(jobs, hosts);
        if (tasks.length === 0) return;
        if (want === null) {
          expect(got).to.equal(null);
          return;
        }
        found++;
        expect(got).to.not.equal(null);
        expect(Object.is(got!.yield, want.yield)).to.equal(true);
        expect(Object.is(got!.searchedYield, want.searchedYield)).to.equal(true);
        expect(Array.from(got!.placement)).to.deep.equal(want.placement);
      }),
      { numRuns: 400, seed: 31 },
    );
    expect(found).to.be.greaterThan(100);
  });

  it('result is a valid packing at the returned yield (property)', () => {
    const task = fc.record({
      job: fc.constant(0),
      cpuNeed: fc.double({ min: 0, max: 1, noNaN: true }),
      mem: fc.double({ min: 0, max: 0.7, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(task, { maxLength: 30 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 8 }), (tasks, hosts, v) => {
        const r = maximizeMinYield(tasks, hosts, { variant: v as McbVariant });
        if (r === null) return;
        expect(r.yield).to.be.at.most(yieldUpperBound(tasks, hosts) + EPS);
        expect(r.yield).to.be.at.least(r.searchedYield - EPS);
        expect(r.yield).to.be.closeTo(placementMinYield(tasks, r.placement, hosts), EPS);
        const items = tasks.map((t) => ({ cpu: r.yield * t.cpuNeed, mem: t.mem }));
        const { cpu, mem } = binLoads(items, r.placement, hosts);
        for (let h = 0; h < hosts; h++) {
          expect(cpu[h]).to.be.at.most(1 + 1e-6);
          expect(mem[h]).to.be.at.most(1 + 1e-6);
        }
      }),
      { numRuns: 200 },
    );
  });
});
