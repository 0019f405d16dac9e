/**
 * The DFRS max-stretch lower bound (src/bounds, binary search on the target
 * stretch with max-flow feasibility checks) against a second formulation
 * written from the paper's linear system (1): the optimal stretch S* is found
 * directly as the minimum of a linear program in S, with no bisection.
 *
 * With deadlines d_j = r_j + S·q_j (q_j = max(10, p_j), the bounded stretch),
 * the order of all releases and deadlines only changes at finitely many
 * breakpoints of S. Between two breakpoints every interval of system (1) has
 * a length linear in S, so system (1) plus "minimise S" is an LP in
 * (S, x_j^t), where x_j^t is the work (node-seconds) job j does in interval t:
 *   Σ_t x_j^t = c_j·|T_j|·p_j,   x_j^t <= c_j·|T_j|·ℓ_t(S),   Σ_j x_j^t <= |P|·ℓ_t(S).
 * Solving the segments from the smallest S up, the first feasible one gives S*.
 * Memory is ignored, as in the paper's bound.
 */
import { expect } from 'chai';
import lpSolver from 'javascript-lp-solver';
import { maxStretchLowerBound } from '../../src/bounds';
import { simulateDfrs, TABLE2_DFRS_ALGORITHMS } from '../../src/schedulers/dfrs';
import { DfrsJob } from '../../src/workloads/dfrs';
import { Rng } from '../../src/util/random';

const THRESHOLD = 10;

/** Optimal max bounded stretch of the fluid relaxation, by LP over the segments of S. */
export function lpOptimalStretch(jobs: readonly DfrsJob[], nodes: number): number {
  const js = jobs.filter((j) => j.runtime > 0).map((j) => ({ r: j.submit, q: Math.max(THRESHOLD, j.runtime), w: j.tasks * j.cpuNeed, work: j.tasks * j.cpuNeed * j.runtime }));
  if (js.length === 0) return 1;
  // Points of the time line as a + b·S: releases (b = 0) and deadlines (b = q_j).
  const points = [...js.map((j) => ({ a: j.r, b: 0 })), ...js.map((j) => ({ a: j.r, b: j.q }))];
  // Breakpoints: S where two points meet. Above the largest one plus the serial schedule, all is feasible.
  const cuts = new Set<number>([1]);
  for (const u of points) for (const v of points) if (u.b !== v.b) {
    const s = (v.a - u.a) / (u.b - v.b);
    if (s > 1) cuts.add(s);
  }
  const rMin = Math.min(...js.map((j) => j.r));
  const rMax = Math.max(...js.map((j) => j.r));
  const serial = (rMax - rMin + js.reduce((s, j) => s + j.work / Math.min(j.w, nodes), 0)) / Math.min(...js.map((j) => j.q));
  const sorted = [...cuts].sort((a, b) => a - b);
  sorted.push(Math.max(sorted[sorted.length - 1], serial) * 2 + 1);
  for (let k = 0; k + 1 < sorted.length; k++) {
    const lo = sorted[k];
    const hi = sorted[k + 1];
    const mid = (lo + hi) / 2;
    // Order of the points inside this segment (fixed between breakpoints).
    const order = points.map((p, i) => ({ ...p, i })).sort((u, v) => u.a + u.b * mid - (v.a + v.b * mid));
    const model = {
      optimize: 'S',
      opType: 'min' as const,
      constraints: {} as Record<string, { equal?: number; max?: number; min?: number }>,
      variables: { S: { S: 1, lo: 1, hi: 1 } } as Record<string, Record<string, number>>,
    };
    model.constraints.lo = { min: lo };
    model.constraints.hi = { max: hi };
    js.forEach((_, j) => (model.constraints[`work${j}`] = { equal: js[j].work }));
    for (let t = 0; t + 1 < order.length; t++) {
      const A = order[t + 1].a - order[t].a;
      const B = order[t + 1].b - order[t].b;
      if (A === 0 && B === 0) continue;
      // Capacity: Σ_j x_j^t − |P|·B·S <= |P|·A.
      model.constraints[`cap${t}`] = { max: nodes * A };
      model.variables.S[`cap${t}`] = -nodes * B;
      const startMid = order[t].a + order[t].b * mid;
      const endMid = order[t + 1].a + order[t + 1].b * mid;
      js.forEach((j, jj) => {
        if (!(j.r <= startMid + 1e-9 && endMid <= j.r + mid * j.q + 1e-9)) return;
        const x = `x${jj}_${t}`;
        model.variables[x] = { [`work${jj}`]: 1, [`cap${t}`]: 1, [`rate${jj}_${t}`]: 1 };
        // Rate: x_j^t − w_j·B·S <= w_j·A.
        model.constraints[`rate${jj}_${t}`] = { max: j.w * A };
        model.variables.S[`rate${jj}_${t}`] = -j.w * B;
      });
    }
    const res = lpSolver.Solve(model as never) as { feasible: boolean; result: number };
    if (res.feasible) return Math.max(1, res.result);
  }
  throw new Error('lpOptimalStretch: no feasible segment');
}

function randomInstance(rng: Rng): { jobs: DfrsJob[]; nodes: number } {
  const nodes = rng.int(1, 3);
  const n = rng.int(3, 8);
  const jobs = Array.from({ length: n }, (_, k) => ({
    id: k + 1,
    submit: rng.int(0, 300),
    runtime: rng.int(1, 400),
    tasks: rng.int(1, nodes),
    cpuNeed: rng.int(1, 10) / 10,
    mem: rng.int(1, 5) / 10,
  }));
  return { jobs, nodes };
}

/** The binary search stops at upper/bound <= 1 + 1e-4; LP answers carry float error. */
const TOLERANCE = 1e-3;

describe('DFRS max-stretch bound = LP optimum of system (1)', () => {
  it('hand case: two equal jobs on one node, released together', () => {
    // Two 100 s jobs at rate ≤ 1 on 1 node: the last one completes at 200, so S* = 2.
    const jobs: DfrsJob[] = [1, 2].map((id) => ({ id, submit: 0, runtime: 100, tasks: 1, cpuNeed: 1, mem: 0.1 }));
    expect(lpOptimalStretch(jobs, 1)).to.be.closeTo(2, 1e-9);
    expect(maxStretchLowerBound(jobs, { nodes: 1 }).bound).to.be.closeTo(2, 2e-4);
  });

  it('200 random instances of 3–8 jobs: bound within 1e-3 of the LP optimum, never above the max stretch any Table 2 DFRS algorithm achieves', () => {
    const rng = new Rng(20261122);
    let worst = 0;
    for (let n = 0; n < 200; n++) {
      const { jobs, nodes } = randomInstance(rng);
      const lp = lpOptimalStretch(jobs, nodes);
      const b = maxStretchLowerBound(jobs, { nodes });
      const rel = Math.abs(b.bound - lp) / lp;
      worst = Math.max(worst, rel);
      expect(rel, `instance ${n} (${nodes} nodes, ${JSON.stringify(jobs)}): bound ${b.bound} (upper ${b.upper}) vs LP ${lp}`).to.be.at.most(TOLERANCE);
      {
        for (const algorithm of TABLE2_DFRS_ALGORITHMS) {
          const run = simulateDfrs(jobs, { nodes, algorithm });
          const achieved = Math.max(...run.jobs.map((j) => Math.max(1, (j.completion - j.submit) / Math.max(THRESHOLD, j.runtime))));
          expect(b.bound, `instance ${n}, ${algorithm}: bound ${b.bound} above achieved max stretch ${achieved}`).to.be.at.most(achieved * (1 + 1e-9));
          expect(lp, `instance ${n}, ${algorithm}: LP optimum ${lp} above achieved ${achieved}`).to.be.at.most(achieved * (1 + 1e-6));
        }
      }
    }
    expect(worst).to.be.below(TOLERANCE);
  });
});
