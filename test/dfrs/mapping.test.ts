import { expect } from 'chai';
import {
  ActiveJob,
  byPriority,
  greedyPlace,
  jobPriority,
  mcb8Mapping,
  mcb8StretchMapping,
  preemptiveGreedy,
  sortedByPriority,
  usageOf,
} from '../../src/schedulers/dfrs/mapping';
import { createRng } from '../../src/util/random';

/** A running or waiting job for the mappers; priority = ft / vt². */
function job(order: number, o: Omit<Partial<ActiveJob>, 'nodes'> & { nodes?: number[] | null }): ActiveJob {
  return {
    order,
    tasks: o.nodes ? o.nodes.length : (o.tasks ?? 1),
    need: o.need ?? 1,
    mem: o.mem ?? 0.1,
    flowTime: o.flowTime ?? 0,
    virtualTime: o.virtualTime ?? 0,
    nodes: o.nodes ? Int32Array.from(o.nodes) : null,
  };
}

describe('dfrs priority', () => {
  it('is flow time over squared virtual time, infinite before any CPU', () => {
    expect(jobPriority(100, 10)).to.equal(1);
    expect(jobPriority(5, 0)).to.equal(Infinity);
  });
  it('breaks ties by submission order', () => {
    const a = job(3, { flowTime: 100, virtualTime: 10 });
    const b = job(1, { flowTime: 100, virtualTime: 10 });
    const c = job(2, { flowTime: 0, virtualTime: 0 });
    expect([a, b, c].sort(byPriority).map((j) => j.order)).to.deep.equal([2, 1, 3]);
  });
});

describe('dfrs sortedByPriority', () => {
  it('gives byPriority\'s order at every call of a sequence (ties, infinities, signed zeros, jobs coming and going, a second run)', () => {
    const rng = createRng(3);
    let pool = Array.from({ length: 300 }, (_, k) => job(k, {}));
    for (let t = 0; t < 600; t++) {
      // Another run: the same orders on new objects (the last order must not be taken for theirs).
      if (t % 200 === 0) pool = pool.map((j) => ({ ...j }));
      const from = rng.int(0, 40);
      const jobs = pool.slice(from, from + rng.int(0, 250)).filter(() => rng.next() < 0.9);
      for (const j of jobs) {
        const u = rng.next();
        const old = j.priority;
        // Mostly small moves from the last priority (as between decisions), some jumps and ties.
        j.priority = u < 0.2 ? Infinity : u < 0.3 ? 5 : u < 0.33 ? 0 : u < 0.36 ? -0 : u < 0.38 ? -Infinity : old !== undefined && Number.isFinite(old) && u < 0.8 ? old * (1 + 0.01 * rng.next()) : 100 * rng.next();
      }
      const got = sortedByPriority(jobs);
      const want = [...jobs].sort(byPriority);
      expect(got.map((j) => j.order)).to.deep.equal(want.map((j) => j.order));
      expect(got.every((j, i) => j === want[i])).to.equal(true);
    }
  });

  it('sorts by byPriority itself when a priority is NaN, and computes missing priorities from flow and virtual time', () => {
    const jobs = [job(0, { flowTime: 10, virtualTime: 2 }), job(1, { flowTime: 10, virtualTime: 1 }), job(2, {}), job(3, { flowTime: 4, virtualTime: 1 })];
    expect(sortedByPriority(jobs).map((j) => j.order)).to.deep.equal([2, 1, 3, 0]);
    const withNaN = jobs.map((j) => ({ ...j }));
    withNaN[1].priority = NaN;
    expect(sortedByPriority(withNaN)).to.deep.equal([...withNaN].sort(byPriority));
  });
});

describe('dfrs Greedy', () => {
  it('puts each task on the least loaded node with enough memory', () => {
    // node0: load 1, mem 0.5; node1: load 2, mem 0.2; node2: load 0, mem 0.9
    const running = [job(0, { nodes: [0], mem: 0.5 }), job(1, { nodes: [1, 1], mem: 0.1 }), job(2, { nodes: [2], mem: 0.9, need: 0 })];
    const u = usageOf(running, 3);
    const placed = greedyPlace(job(3, { tasks: 3, mem: 0.3 }), u);
    // node2 lacks memory; task1 -> node0 (load 1 < 2); node0 then has 0.2 free, so
    // task2 and task3 -> node1 (the only node left with 0.3 free).
    expect(Array.from(placed as Int32Array)).to.deep.equal([0, 1, 1]);
    expect(u.mem[0]).to.be.closeTo(0.8, 1e-12);
    expect(u.load[1]).to.be.closeTo(4, 1e-12);
  });
  it('places nothing when the job does not fit in memory', () => {
    const u = usageOf([job(0, { nodes: [0, 1], mem: 0.6 })], 2);
    expect(greedyPlace(job(1, { tasks: 1, mem: 0.5 }), u)).to.equal(null);
    expect(Array.from(u.mem)).to.deep.equal([0.6, 0.6]);
  });
});

describe('dfrs GreedyP / GreedyPM (hand-worked)', () => {
  // Two nodes. node0: A (mem 0.3, lowest priority) and C (mem 0.5); node1: D (mem 0.5, highest priority).
  // Incoming N: one task of mem 0.6 (fits nowhere: free 0.2 and 0.5).
  // Marking by increasing priority: A (node0 free 0.5, not enough), then C (node0 free 1.0: fits).
  // Un-marking by decreasing priority: C first (restored: node0 free 0.5, N does not fit: stays marked),
  // then A (restored: node0 free 0.7, N fits: A keeps running). Only C is paused, although A has the
  // lowest priority.
  const make = () => {
    const A = job(0, { nodes: [0], mem: 0.3, flowTime: 10_000, virtualTime: 5_000 }); // 4e-4
    const C = job(1, { nodes: [0], mem: 0.5, flowTime: 1_000, virtualTime: 500 }); // 4e-3
    const D = job(2, { nodes: [1], mem: 0.5, flowTime: 100, virtualTime: 10 }); // 1
    const N = job(3, { tasks: 1, mem: 0.6 });
    return { A, C, D, N, running: [A, C, D] };
  };

  it('GreedyP pauses exactly the job that must go', () => {
    const { A, C, D, N, running } = make();
    const u = usageOf(running, 2);
    const res = preemptiveGreedy(N, running, u, false);
    expect(res.paused).to.deep.equal([C]);
    expect(res.moved.size).to.equal(0);
    expect(Array.from(res.placed as Int32Array)).to.deep.equal([0]);
    expect(u.mem[0]).to.be.closeTo(0.9, 1e-12); // A 0.3 + N 0.6
    expect(u.mem[1]).to.be.closeTo(0.5, 1e-12);
    void A;
    void D;
  });

  it('GreedyPM moves the marked job where Greedy can place it instead of pausing it', () => {
    const { C, N, running } = make();
    const u = usageOf(running, 2);
    const res = preemptiveGreedy(N, running, u, true);
    expect(res.paused).to.deep.equal([]);
    expect(Array.from(res.moved.get(C) as Int32Array)).to.deep.equal([1]); // node1 has 0.5 free
    expect(u.mem[1]).to.be.closeTo(1.0, 1e-12);
  });

  it('does nothing to running jobs when the new job fits', () => {
    const { running } = make();
    const u = usageOf(running, 2);
    const res = preemptiveGreedy(job(3, { tasks: 1, mem: 0.2 }), running, u, false);
    expect(res.paused).to.deep.equal([]);
    // Both nodes have room; node1 carries less CPU load (1 vs 2).
    expect(Array.from(res.placed as Int32Array)).to.deep.equal([1]);
  });
});

describe('dfrs MCB8 through the shared packing module', () => {
  it('packs two memory-heavy jobs on separate nodes at yield 1 and drops the lowest-priority third one', () => {
    const jobs = [
      job(0, { tasks: 1, mem: 0.6, flowTime: 1000, virtualTime: 100 }), // priority 0.1
      job(1, { tasks: 1, mem: 0.6, flowTime: 1000, virtualTime: 900 }), // lowest
      job(2, { tasks: 1, mem: 0.6, flowTime: 10, virtualTime: 0 }), // infinite
    ];
    const res = mcb8Mapping(jobs, { nodeCount: 2 });
    expect(res.dropped).to.equal(1);
    expect(res.mapping.has(jobs[1])).to.equal(false);
    const n0 = (res.mapping.get(jobs[0]) as Int32Array)[0];
    const n2 = (res.mapping.get(jobs[2]) as Int32Array)[0];
    expect(new Set([n0, n2])).to.deep.equal(new Set([0, 1]));
    expect(res.level).to.equal(1);
  });

  it('finds the yield of a known packing: four unit-need tasks on two nodes give yield 1/2', () => {
    // Two jobs of two tasks (need 1, mem 0.25): any packing puts two tasks per node at best.
    const jobs = [job(0, { tasks: 2, mem: 0.25 }), job(1, { tasks: 2, mem: 0.25 })];
    const res = mcb8Mapping(jobs, { nodeCount: 2 });
    expect(res.dropped).to.equal(0);
    expect(res.level).to.be.closeTo(0.5, 1e-12);
    const perNode = [0, 0];
    for (const nodes of res.mapping.values()) for (const n of nodes) perNode[n]++;
    expect(perNode).to.deep.equal([2, 2]);
  });

  it('keeps the nodes of running jobs under minvt and moves the others', () => {
    // Job 0 runs on node 1 with 100 s of virtual time: pinned with minvt=600, free without.
    const running = job(0, { nodes: [1], mem: 0.5, flowTime: 200, virtualTime: 100 });
    const other = job(1, { tasks: 1, mem: 0.5, flowTime: 0, virtualTime: 0 });
    const pinned = mcb8Mapping([running, other], { nodeCount: 2, limit: { kind: 'minvt', seconds: 600 } });
    expect(Array.from(pinned.mapping.get(running) as Int32Array)).to.deep.equal([1]);
    const free = mcb8Mapping([running, other], { nodeCount: 2 });
    // Unpinned, MCB8 packs from scratch starting at node 0.
    expect(Array.from(free.mapping.get(running) as Int32Array)).to.deep.equal([0]);
    // minft looks at flow time (200 s): pinned under minft=300, not under minft=100.
    const ft = mcb8Mapping([running, other], { nodeCount: 2, limit: { kind: 'minft', seconds: 100 } });
    expect(Array.from(ft.mapping.get(running) as Int32Array)).to.deep.equal([0]);
  });

  it('answers each input, when it reuses the last search for a repeated one', () => {
    // The same jobs, the pinned one on node 1, then on node 0, then on node 1 again.
    const limit = { kind: 'minvt' as const, seconds: 600 };
    const on = (node: number) => [job(0, { nodes: [node], mem: 0.5, flowTime: 200, virtualTime: 100 }), job(1, { tasks: 1, mem: 0.5 })];
    for (const node of [1, 0, 1, 1]) {
      const jobs = on(node);
      const res = mcb8Mapping(jobs, { nodeCount: 2, limit });
      expect(Array.from(res.mapping.get(jobs[0]) as Int32Array)).to.deep.equal([node]);
      expect(Array.from(res.mapping.get(jobs[1]) as Int32Array)).to.deep.equal([1 - node]);
    }
  });

  it('minvt: a young running job may be paused for a higher-priority job (the paper protects it from migration only)', () => {
    // One node. Job 0 runs (virtual time 50 < 600, priority 100/2500 = 0.04); job 1 never ran
    // (infinite priority); both need 0.6 of the memory. Section 4.3: young jobs "may be paused in
    // order to run higher priority jobs" -> job 0 is dropped by default.
    const young = job(0, { nodes: [0], mem: 0.6, flowTime: 100, virtualTime: 50 });
    const fresh = job(1, { tasks: 1, mem: 0.6 });
    const limit = { kind: 'minvt' as const, seconds: 600 };
    const paper = mcb8Mapping([young, fresh], { nodeCount: 1, limit });
    expect(paper.mapping.has(young)).to.equal(false);
    expect(paper.mapping.has(fresh)).to.equal(true);
    // The other readings keep it (and then the newcomer waits).
    for (const limitProtects of ['preemption', 'both'] as const) {
      const other = mcb8Mapping([young, fresh], { nodeCount: 1, limit, limitProtects });
      expect(other.mapping.has(young), limitProtects).to.equal(true);
      expect(other.mapping.has(fresh), limitProtects).to.equal(false);
    }
  });

  it('drops the lowest-priority job until the rest fits (the paper), or skips only the misfits (option)', () => {
    // One node. Priorities: a > b > c. a and b need 0.6 of the memory each, c needs 0.3.
    // The paper's rule removes c, then b: only a runs, although c would fit beside a.
    const a = job(0, { tasks: 1, mem: 0.6 });
    const b = job(1, { tasks: 1, mem: 0.6, flowTime: 100, virtualTime: 10 });
    const c = job(2, { tasks: 1, mem: 0.3, flowTime: 100, virtualTime: 50 });
    const paper = mcb8Mapping([c, b, a], { nodeCount: 1 });
    expect([...paper.mapping.keys()]).to.deep.equal([a]);
    expect(paper.dropped).to.equal(2);
    const skip = mcb8Mapping([c, b, a], { nodeCount: 1, dropRule: 'skip' });
    expect(new Set(skip.mapping.keys())).to.deep.equal(new Set([a, c]));
    expect(skip.dropped).to.equal(1);
    const stretch = mcb8StretchMapping([c, b, a], 600, { nodeCount: 1, dropRule: 'skip' });
    expect(new Set(stretch.mapping.keys())).to.deep.equal(new Set([a, c]));
    expect(() => mcb8Mapping([a], { nodeCount: 1, dropRule: 'any' as never })).to.throw(/dropRule/);
  });

  it('MCB8-stretch finds the smallest common estimated stretch the packing allows', () => {
    // One node, two fresh one-task jobs (need 1): yields y1 + y2 <= 1; with vt = ft = 0 and
    // period T, S = (ft+T)/(vt+yT) = 1/y, so the best common stretch is 2 (s = 1/2).
    const jobs = [job(0, { tasks: 1, mem: 0.1 }), job(1, { tasks: 1, mem: 0.1 })];
    const res = mcb8StretchMapping(jobs, 600, { nodeCount: 1, tolerance: 1e-4 });
    expect(res.level).to.be.closeTo(0.5, 1e-3);
    expect(res.level).to.be.at.most(0.5 + 1e-12);
    expect(res.mapping.size).to.equal(2);
  });
});
