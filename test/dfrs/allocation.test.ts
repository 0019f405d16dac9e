import { expect } from 'chai';
import { loadLpEngine, runLp } from '../../src/schedulers/vcsched/lpsolver';
import { createRng } from '../../src/util/random';
import {
  maxAvgYields,
  maxMinYields,
  minMaxStretchYields,
  uniformYield,
  yieldForInverseStretch,
} from '../../src/schedulers/dfrs/allocation';

describe('dfrs allocation', () => {
  it('opt=min on a two-node example (hand-worked)', () => {
    // node0: A (need 1) and one task of B (need 0.5); node1: the other task of B and C (need 0.2).
    // Loads 1.5 and 0.7, so every job first gets 1/1.5 = 2/3; node0 is then full: A and B stay at 2/3.
    // C alone can still grow on node1 (room 1 - 0.5*2/3 = 2/3, i.e. up to yield 10/3): capped at 1.
    const jobs = [
      { need: 1, nodes: [0] },
      { need: 0.5, nodes: [0, 1] },
      { need: 0.2, nodes: [1] },
    ];
    expect(uniformYield(jobs, 2)).to.be.closeTo(2 / 3, 1e-12);
    const y = maxMinYields(jobs, 2);
    expect(y[0]).to.be.closeTo(2 / 3, 1e-12);
    expect(y[1]).to.be.closeTo(2 / 3, 1e-12);
    expect(y[2]).to.equal(1);
  });

  it('opt=min respects a per-job cap (multi-core sequential task)', () => {
    const y = maxMinYields([{ need: 1, nodes: [0], maxYield: 0.25 }], 1);
    expect(y[0]).to.equal(0.25);
  });

  it('opt=avg solves linear program (2) and can beat max-min on the average', () => {
    // node0: X, Y, Z (Λ = 3: everyone gets at least 1/3); node1: A and B; node2: B and C (all needs 1).
    // Max-min: X, Y, Z at 1/3, then A, B, C rise together to 1/2 (nodes 1 and 2 saturate): sum 2.5.
    // LP: B stays at its floor 1/3 so that A and C get 2/3 each: sum 1 + 1/3 + 4/3 = 8/3.
    const jobs = [
      { need: 1, nodes: [0] },
      { need: 1, nodes: [0] },
      { need: 1, nodes: [0] },
      { need: 1, nodes: [1] },
      { need: 1, nodes: [1, 2] },
      { need: 1, nodes: [2] },
    ];
    const mm = Array.from(maxMinYields(jobs, 3));
    const avg = Array.from(maxAvgYields(jobs, 3));
    const expectClose = (got: number[], want: number[]) => got.forEach((v, i) => expect(v).to.be.closeTo(want[i], 1e-6));
    expectClose(mm, [1 / 3, 1 / 3, 1 / 3, 1 / 2, 1 / 2, 1 / 2]);
    expectClose(avg, [1 / 3, 1 / 3, 1 / 3, 2 / 3, 1 / 3, 2 / 3]);
    // Never above capacity, even after the solver's rounding.
    expect(avg[0] + avg[1] + avg[2]).to.be.at.most(1);
    expect(avg[3] + avg[4]).to.be.at.most(1);
    expect(avg[4] + avg[5]).to.be.at.most(1);
  });

  it('opt=avg counts every task of a job on a node, also when they are not consecutive', () => {
    // A has tasks on nodes 0, 1, 0: it uses 2 × 0.25 of node 0 per unit of yield. Node 2 (D, E)
    // sets Λ = 2, so every job gets at least 1/2. Node 0: 0.5 y_A + 0.75 y_B ≤ 1, and A is the
    // cheaper one to grow: y_A = 1, y_B = 2/3. Counting one of A's tasks there (0.25 y_A) would
    // give y_A = y_B = 1, which node 0 cannot hold (scaled back: 0.8 each, a lower average).
    const jobs = [
      { need: 0.25, nodes: [0, 1, 0] },
      { need: 0.75, nodes: [0] },
      { need: 1, nodes: [2] },
      { need: 1, nodes: [2] },
    ];
    const y = Array.from(maxAvgYields(jobs, 3));
    [1, 2 / 3, 1 / 2, 1 / 2].forEach((want, j) => expect(y[j]).to.be.closeTo(want, 1e-6));
  });

  it('opt=avg reaches the optimum of linear program (2) written from the definition (random instances, HiGHS)', async () => {
    // Reference: one constraint per node summing need × y over every task there, bounds
    // [min(1/max(1, Λ), cap), cap], solved by the other engine.
    await loadLpEngine('highs');
    const rng = createRng(11);
    let split = 0;
    for (let t = 0; t < 60; t++) {
      const nodes = rng.int(1, 5);
      const jobs = Array.from({ length: rng.int(1, 8) }, () => ({
        need: [0.1, 0.25, 0.5, 0.75, 1][rng.int(0, 4)],
        nodes: Array.from({ length: rng.int(1, 4) }, () => rng.int(0, nodes - 1)),
        ...(rng.bernoulli(0.25) ? { maxYield: rng.uniform(0.3, 1) } : {}),
      }));
      split += jobs.filter((j) => j.nodes.some((n, k) => k > 0 && n !== j.nodes[k - 1] && j.nodes.slice(0, k - 1).includes(n))).length;
      const floor = uniformYield(jobs, nodes);
      const constraints: Record<string, { max?: number; min?: number }> = {};
      const variables: Record<string, Record<string, number>> = {};
      jobs.forEach((j, k) => {
        const cap = j.maxYield ?? 1;
        const v: Record<string, number> = { obj: 1, [`lo${k}`]: 1, [`hi${k}`]: 1 };
        constraints[`lo${k}`] = { min: Math.min(floor, cap) };
        constraints[`hi${k}`] = { max: cap };
        for (const n of j.nodes) v[`node${n}`] = (v[`node${n}`] ?? 0) + j.need;
        variables[`y${k}`] = v;
      });
      for (let n = 0; n < nodes; n++) constraints[`node${n}`] = { max: 1 };
      const ref = runLp({ optimize: 'obj', opType: 'max', constraints, variables }, undefined, { engine: 'highs' });
      expect(ref.status).to.equal('optimal');
      const y = maxAvgYields(jobs, nodes);
      const sum = Array.from(y).reduce((a, b) => a + b, 0);
      expect(sum, `instance ${t}`).to.be.closeTo(ref.objective, 1e-6);
      for (let n = 0; n < nodes; n++) {
        let load = 0;
        jobs.forEach((j, k) => j.nodes.forEach((m) => (load += m === n ? j.need * y[k] : 0)));
        expect(load, `instance ${t}, node ${n}`).to.be.at.most(1 + 1e-9);
      }
    }
    expect(split).to.be.greaterThan(5); // the instances do exercise non-consecutive tasks
  });

  it('opt=max for stretch-per equalizes the estimated stretch, then lets unconstrained jobs grow', () => {
    // One node shared by a fresh job (ft = vt = 0) and an older one (ft = 1200, vt = 600), period 600.
    // Estimated stretch (ft+T)/(vt+yT): fresh 1/y1, old 1800/(600+600 y2). Equal stretch S with
    // y1 + y2 = 1: 1/y1 = 3/(1+y2) -> 1 + y2 = 3 y1 -> y1 = 1/2, y2 = 1/2, S = 2.
    const T = 600;
    const states = [
      { flowTime: 0, virtualTime: 0 },
      { flowTime: 1200, virtualTime: 600 },
    ];
    const y = minMaxStretchYields([{ need: 1, nodes: [0] }, { need: 1, nodes: [0] }], states, 1, T);
    expect(y[0]).to.be.closeTo(0.5, 1e-9);
    expect(y[1]).to.be.closeTo(0.5, 1e-9);
    expect(yieldForInverseStretch(0.5, states[1], T)).to.be.closeTo(0.5, 1e-12);
  });
});
