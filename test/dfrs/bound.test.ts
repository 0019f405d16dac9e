import { expect } from 'chai';
import * as fc from 'fast-check';
import { FlowNetwork } from '../../src/bounds/maxflow';
import { boundedStretch, maxStretchLowerBound, stretchFeasible } from '../../src/bounds/maxstretch';
import { DfrsJob, scaleToLoad, syntheticDfrsTrace } from '../../src/workloads/dfrs';

/** Job with defaults: one task, CPU need 1, 10% memory. */
function job(id: number, submit: number, runtime: number, extra: Partial<DfrsJob> = {}): DfrsJob {
  return { id, submit, runtime, tasks: 1, cpuNeed: 1, mem: 0.1, ...extra };
}

/**
 * FCFS on the fluid platform of Theorem 1: jobs start in submit order, each at
 * yield 1 (using tasks·cpuNeed node-units) as soon as that much capacity is
 * free. A valid schedule of the relaxed model, so its max stretch can never be
 * below the bound.
 */
function fcfsMaxStretch(jobs: readonly DfrsJob[], nodes: number): number {
  const order = [...jobs].sort((a, b) => a.submit - b.submit || a.id - b.id);
  let running: { end: number; width: number }[] = [];
  let free = nodes;
  let now = -Infinity;
  let worst = 1;
  for (const j of order) {
    const width = j.tasks * j.cpuNeed;
    now = Math.max(now, j.submit);
    running.sort((a, b) => a.end - b.end);
    // Release everything done by `now`, then wait for the earliest ends until the job fits.
    for (;;) {
      const done = running.filter((r) => r.end <= now);
      for (const r of done) free += r.width;
      running = running.filter((r) => r.end > now);
      if (free >= width - 1e-12) break;
      now = running[0].end;
    }
    running.push({ end: now + j.runtime, width });
    free -= width;
    worst = Math.max(worst, boundedStretch(now + j.runtime - j.submit, j.runtime));
  }
  return worst;
}

const smallInstance = (maxJobs: number) =>
  fc.record({
    nodes: fc.integer({ min: 1, max: 3 }),
    jobs: fc.array(
      fc.record({
        submit: fc.integer({ min: 0, max: 300 }),
        runtime: fc.integer({ min: 1, max: 400 }),
        tasks: fc.integer({ min: 1, max: 3 }),
        cpuNeed: fc.constantFrom(0.25, 0.5, 0.75, 1),
      }),
      { minLength: 1, maxLength: maxJobs },
    ),
  });

const toJobs = (raw: { submit: number; runtime: number; tasks: number; cpuNeed: number }[]): DfrsJob[] =>
  raw.map((r, i) => job(i + 1, r.submit, r.runtime, { tasks: r.tasks, cpuNeed: r.cpuNeed }));

describe('bounds/maxflow: FlowNetwork', () => {
  it('finds the textbook maximum flow (CLRS figure 26.1: 23)', () => {
    const g = new FlowNetwork(6);
    const edges: [number, number, number][] = [
      [0, 1, 16], [0, 2, 13], [1, 3, 12], [2, 1, 4], [2, 4, 14], [3, 2, 9], [3, 5, 20], [4, 3, 7], [4, 5, 4],
    ];
    const ids = edges.map(([u, v, c]) => g.addEdge(u, v, c));
    expect(g.maxFlow(0, 5)).to.be.closeTo(23, 1e-9);
    // Conservation at every inner node.
    for (let v = 1; v <= 4; v++) {
      let net = 0;
      edges.forEach(([u, w], k) => {
        if (w === v) net += g.flowOn(ids[k]);
        if (u === v) net -= g.flowOn(ids[k]);
      });
      expect(net).to.be.closeTo(0, 1e-9);
    }
  });

  it('equals the minimum cut on random bipartite networks', () => {
    fc.assert(
      fc.property(
        fc.array(fc.float({ min: 0, max: 10, noNaN: true }), { minLength: 3, maxLength: 3 }),
        fc.array(fc.float({ min: 0, max: 10, noNaN: true }), { minLength: 3, maxLength: 3 }),
        fc.array(fc.float({ min: 0, max: 10, noNaN: true }), { minLength: 9, maxLength: 9 }),
        (left, right, middle) => {
          // source 0, left 1..3, right 4..6, sink 7; min cut by enumerating 2^6 source sides.
          const g = new FlowNetwork(8);
          left.forEach((c, i) => g.addEdge(0, 1 + i, c));
          right.forEach((c, i) => g.addEdge(4 + i, 7, c));
          middle.forEach((c, k) => g.addEdge(1 + Math.floor(k / 3), 4 + (k % 3), c));
          const flow = g.maxFlow(0, 7);
          let best = Infinity;
          for (let mask = 0; mask < 64; mask++) {
            const inS = (v: number) => v === 0 || (v >= 1 && v <= 6 && (mask >> (v - 1)) & 1) === 1;
            let cut = 0;
            left.forEach((c, i) => { if (!inS(1 + i)) cut += c; });
            right.forEach((c, i) => { if (inS(4 + i)) cut += c; });
            middle.forEach((c, k) => { if (inS(1 + Math.floor(k / 3)) && !inS(4 + (k % 3))) cut += c; });
            best = Math.min(best, cut);
          }
          expect(flow).to.be.closeTo(best, 1e-6);
        },
      ),
      { numRuns: 100, seed: 7 },
    );
  });
});

describe('bounds/maxstretch: offline max-stretch lower bound', () => {
  const tight = { nodes: 1, tolerance: 1e-7 };

  it('is 2 for two identical jobs released together on one node', () => {
    const r = maxStretchLowerBound([job(1, 0, 100), job(2, 0, 100)], tight);
    expect(r.bound).to.be.closeTo(2, 1e-5);
    expect(r.upper).to.be.at.least(r.bound);
    expect(r.upper / r.bound).to.be.at.most(1 + 1e-7);
  });

  it('is 1.5 for runtimes 100 and 50 released together (shortest first)', () => {
    expect(maxStretchLowerBound([job(1, 0, 100), job(2, 0, 50)], tight).bound).to.be.closeTo(1.5, 1e-5);
  });

  it('is 1.1 when a short job arrives while a long one runs (preemption)', () => {
    // A: [0,100) work 100; B arrives at 50 with 10 s: best is B at 50..60, A done at 110.
    expect(maxStretchLowerBound([job(1, 0, 100), job(2, 50, 10)], tight).bound).to.be.closeTo(1.1, 1e-5);
  });

  it('lets jobs with CPU need 0.5 share a node without slowing down', () => {
    const jobs = [job(1, 0, 100, { cpuNeed: 0.5 }), job(2, 0, 100, { cpuNeed: 0.5 })];
    const r = maxStretchLowerBound(jobs, tight);
    expect(r.bound).to.equal(1);
    expect(r.iterations).to.equal(1);
  });

  it('charges CPU need times tasks: two jobs of need 0.6 give 1.2', () => {
    const jobs = [job(1, 0, 100, { cpuNeed: 0.6 }), job(2, 0, 100, { cpuNeed: 0.6 })];
    expect(maxStretchLowerBound(jobs, tight).bound).to.be.closeTo(1.2, 1e-5);
  });

  it('caps a job at yield 1: a 4-task job alone on 2 nodes gets stretch 2', () => {
    const r = maxStretchLowerBound([job(1, 0, 100, { tasks: 4 })], { nodes: 2, tolerance: 1e-7 });
    expect(r.bound).to.be.closeTo(2, 1e-5);
  });

  it('uses the 10 s threshold: three 5 s jobs at once give 1.5, two give 1', () => {
    expect(maxStretchLowerBound([job(1, 0, 5), job(2, 0, 5)], tight).bound).to.equal(1);
    expect(maxStretchLowerBound([job(1, 0, 5), job(2, 0, 5), job(3, 0, 5)], tight).bound).to.be.closeTo(1.5, 1e-5);
    expect(boundedStretch(3, 1)).to.equal(1);
    expect(boundedStretch(40, 5)).to.equal(4);
    expect(boundedStretch(300, 100)).to.equal(3);
  });

  it('ignores zero-runtime jobs and rejects malformed ones by index and id', () => {
    expect(maxStretchLowerBound([job(1, 0, 0), job(2, 0, 100)], tight)).to.include({ bound: 1, jobsUsed: 1 });
    expect(() => maxStretchLowerBound([job(7, 0, 10, { cpuNeed: 0 })], tight)).to.throw(/index 0 \(id 7\).*cpuNeed/);
    expect(() => maxStretchLowerBound([job(8, 0, 10, { tasks: 1.5 })], tight)).to.throw(/id 8.*tasks/);
    expect(() => maxStretchLowerBound([job(9, 0, -1)], tight)).to.throw(/id 9.*runtime/);
    expect(() => maxStretchLowerBound([job(1, 0, 10)], { nodes: 0 })).to.throw(/nodes/);
  });

  it('max flow and the LP of system (1) agree on random small instances', () => {
    fc.assert(
      fc.property(smallInstance(5), ({ nodes, jobs: raw }) => {
        const jobs = toJobs(raw);
        const flow = maxStretchLowerBound(jobs, { nodes, method: 'flow', tolerance: 1e-6 });
        const lp = maxStretchLowerBound(jobs, { nodes, method: 'lp', tolerance: 1e-6 });
        expect(Math.abs(flow.bound - lp.bound) / lp.bound).to.be.below(1e-4);
      }),
      { numRuns: 60, seed: 11 },
    );
  });

  it('flow and LP give the same verdict at fixed targets', () => {
    fc.assert(
      fc.property(smallInstance(6), fc.double({ min: 1, max: 8, noNaN: true }), ({ nodes, jobs: raw }, s) => {
        const jobs = toJobs(raw);
        const exact = maxStretchLowerBound(jobs, { nodes, tolerance: 1e-9 });
        fc.pre(Math.abs(s - exact.bound) / exact.bound > 1e-6); // stay off the boundary
        expect(stretchFeasible(jobs, s, { nodes, method: 'lp' })).to.equal(stretchFeasible(jobs, s, { nodes }));
        expect(stretchFeasible(jobs, s, { nodes })).to.equal(s > exact.bound);
      }),
      { numRuns: 60, seed: 12 },
    );
  });

  it('never exceeds the max stretch of an FCFS schedule (random instances)', () => {
    fc.assert(
      fc.property(smallInstance(12), ({ nodes, jobs: raw }) => {
        const jobs = toJobs(raw).map((j) => ({ ...j, tasks: Math.min(j.tasks, nodes) }));
        const { bound } = maxStretchLowerBound(jobs, { nodes });
        expect(bound).to.be.at.least(1);
        expect(bound).to.be.at.most(fcfsMaxStretch(jobs, nodes) * (1 + 1e-9));
      }),
      { numRuns: 200, seed: 13 },
    );
  });

  it('never exceeds FCFS on a full synthetic trace, and grows with the load', () => {
    const base = syntheticDfrsTrace({ seed: 5 });
    const low = maxStretchLowerBound(scaleToLoad(base, 0.2, 128), { nodes: 128 });
    const highJobs = scaleToLoad(base, 0.9, 128);
    const high = maxStretchLowerBound(highJobs, { nodes: 128 });
    expect(high.bound).to.be.at.most(fcfsMaxStretch(highJobs, 128));
    // Compressing arrivals only tightens every window, so the bound cannot drop.
    expect(high.upper).to.be.at.least(low.bound);
  });

  it('is monotone: more nodes never raise it, an extra job never lowers it', () => {
    fc.assert(
      fc.property(smallInstance(8), fc.record({ submit: fc.integer({ min: 0, max: 300 }), runtime: fc.integer({ min: 1, max: 400 }) }), ({ nodes, jobs: raw }, extra) => {
        const jobs = toJobs(raw);
        const base = maxStretchLowerBound(jobs, { nodes, tolerance: 1e-6 });
        const bigger = maxStretchLowerBound(jobs, { nodes: nodes + 1, tolerance: 1e-6 });
        const more = maxStretchLowerBound([...jobs, job(99, extra.submit, extra.runtime)], { nodes, tolerance: 1e-6 });
        expect(bigger.bound).to.be.at.most(base.upper);
        expect(more.upper).to.be.at.least(base.bound);
      }),
      { numRuns: 100, seed: 14 },
    );
  });
});
