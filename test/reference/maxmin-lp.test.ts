import { expect } from 'chai';
import { MappedJob, maxMinYields } from '../../src/schedulers/dfrs/allocation';
import { LpModel, loadLpEngine, runLp } from '../../src/schedulers/vcsched/lpsolver';
import { createRng } from '../../src/util/random';

/**
 * opt=min written from its definition: the lexicographic max-min yields
 * (Stillwell et al., section 4.6: maximize the minimum yield, then the next
 * one, …) under the node capacities Σ need × y ≤ 1 over every task and the
 * caps y ≤ maxYield. Each round solves "maximize t with every unfrozen yield
 * ≥ t", then asks for each unfrozen job whether it alone can rise above t;
 * the jobs that cannot are frozen at t. Linear programs solved by HiGHS; no
 * code shared with the water-filling in allocation.ts.
 */
function lexMaxMin(jobs: readonly MappedJob[], nodeCount: number): number[] {
  const n = jobs.length;
  const frozen: (number | undefined)[] = new Array(n).fill(undefined);
  const cap = jobs.map((j) => j.maxYield ?? 1);
  const model = (t: number | undefined, objective: string): LpModel => {
    const constraints: Record<string, { max?: number; min?: number; equal?: number }> = {};
    const variables: Record<string, Record<string, number>> = {};
    for (let i = 0; i < nodeCount; i++) constraints[`node${i}`] = { max: 1 };
    jobs.forEach((j, k) => {
      const v: Record<string, number> = { [`cap${k}`]: 1 };
      constraints[`cap${k}`] = frozen[k] !== undefined ? { equal: frozen[k] } : { max: cap[k] };
      for (const node of Array.from(j.nodes)) v[`node${node}`] = (v[`node${node}`] ?? 0) + j.need;
      if (frozen[k] === undefined) {
        v[`floor${k}`] = 1;
        constraints[`floor${k}`] = t === undefined ? { min: 0 } : { min: t };
      }
      if (objective === `y${k}`) v.obj = 1;
      variables[`y${k}`] = v;
    });
    if (t === undefined) {
      const tv: Record<string, number> = { obj: 1 };
      jobs.forEach((_, k) => {
        if (frozen[k] === undefined) tv[`floor${k}`] = -1;
      });
      variables.t = tv;
    }
    return { optimize: 'obj', opType: 'max', constraints, variables };
  };
  while (frozen.some((f) => f === undefined)) {
    const round = runLp(model(undefined, 't'), undefined, { engine: 'highs' });
    if (round.status !== 'optimal') throw new Error(`reference LP: ${round.status}`);
    const t = round.objective;
    const blocked: number[] = [];
    jobs.forEach((_, k) => {
      if (frozen[k] !== undefined) return;
      const alone = runLp(model(t, `y${k}`), undefined, { engine: 'highs' });
      if (alone.status !== 'optimal') throw new Error(`reference LP for job ${k}: ${alone.status}`);
      if (alone.objective <= t + 1e-7) blocked.push(k);
    });
    if (blocked.length === 0) throw new Error('reference: no job blocked at the max-min level');
    for (const k of blocked) frozen[k] = t;
  }
  return frozen as number[];
}

describe('reference: opt=min yields against lexicographic max-min by linear programs', () => {
  it('agrees on 150 seeded random mappings (split tasks, caps, overloaded and idle nodes)', async () => {
    await loadLpEngine('highs');
    const rng = createRng(2024);
    let worst = 0;
    let multiRound = 0;
    for (let t = 0; t < 150; t++) {
      const nodes = rng.int(1, 5);
      const jobs: MappedJob[] = Array.from({ length: rng.int(1, 7) }, () => ({
        need: [0.1, 0.2, 0.25, 0.5, 0.75, 1][rng.int(0, 5)],
        nodes: Array.from({ length: rng.int(1, 4) }, () => rng.int(0, nodes - 1)),
        ...(rng.bernoulli(0.25) ? { maxYield: rng.uniform(0.2, 1) } : {}),
      }));
      const want = lexMaxMin(jobs, nodes);
      const got = Array.from(maxMinYields(jobs, nodes));
      if (new Set(want.map((x) => x.toFixed(6))).size > 1) multiRound++;
      got.forEach((y, k) => {
        worst = Math.max(worst, Math.abs(y - want[k]));
        expect(y, `instance ${t}, job ${k}: ${JSON.stringify(jobs)}`).to.be.closeTo(want[k], 1e-6);
      });
    }
    expect(multiRound).to.be.greaterThan(30); // the water-filling needs several rounds on many of them
    expect(worst).to.be.lessThan(1e-6);
  });
});
