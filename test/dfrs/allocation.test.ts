import { expect } from 'chai';
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
