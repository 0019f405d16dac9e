/**
 * The LP engines behind the VCSched MILP and LP relaxation: each engine
 * against brute force on tiny instances, infeasibility, agreement between
 * engines on seeded instances, determinism, the node limit, and loading in a
 * worker thread (as the sweep does).
 */
import { expect } from 'chai';
import * as path from 'path';
import { Worker } from 'worker_threads';
import {
  LP_ENGINES,
  LpEngine,
  VcInstance,
  loadLpEngine,
  runLp,
  runVcschedHeuristic,
  solveVcschedLp,
  solveVcschedMilp,
  vcschedInstanceSet,
  vcschedRelaxedMinYield,
  generateVcInstance,
} from '../../src/schedulers/vcsched';
import { createRng } from '../../src/util/random';
import { InputError } from '../../src/util/errors';

/** Best minimum yield over every placement of tasks on hosts (min(1, 1 / max CPU load) when memory fits), or null. */
function bruteForce(inst: VcInstance): number | null {
  const tasks = inst.jobs.flatMap((j) => Array.from({ length: j.tasks ?? 1 }, () => j));
  const n = tasks.length;
  let best: number | null = null;
  const place = new Array<number>(n).fill(0);
  for (let code = 0; code < inst.hosts ** n; code++) {
    let c = code;
    for (let i = 0; i < n; i++) {
      place[i] = c % inst.hosts;
      c = Math.floor(c / inst.hosts);
    }
    const mem = new Array<number>(inst.hosts).fill(0);
    const load = new Array<number>(inst.hosts).fill(0);
    tasks.forEach((t, i) => {
      mem[place[i]] += t.mem;
      load[place[i]] += t.cpuNeed;
    });
    if (mem.some((m) => m > 1 + 1e-9)) continue;
    const y = Math.min(1, 1 / Math.max(...load));
    if (best === null || y > best) best = y;
  }
  return best;
}

/** Seeded tiny instances: 2-3 hosts, 3-6 tasks, memory tight enough that some are infeasible. */
function tinyInstances(count: number): VcInstance[] {
  const rng = createRng('lp-engines/tiny');
  const out: VcInstance[] = [];
  for (let k = 0; k < count; k++) {
    const hosts = 2 + (k % 2);
    const tasks = 3 + (k % 4);
    out.push(generateVcInstance({ hosts, tasks, slack: 0.1 + 0.2 * (k % 4), memCv: 0.75, cpuCv: 0.75 }, rng.fork(String(k))));
  }
  return out;
}

describe('VCSched LP engines', () => {
  before(async () => {
    for (const e of LP_ENGINES) await loadLpEngine(e);
  });

  for (const engine of LP_ENGINES) {
    it(`${engine}: the MILP optimum equals brute force on 40 tiny instances; infeasible ones are reported so`, () => {
      let feasible = 0;
      let infeasible = 0;
      for (const inst of tinyInstances(40)) {
        const want = bruteForce(inst);
        const r = solveVcschedMilp(inst, { engine, timeLimitSeconds: 60 });
        if (want === null) {
          expect(r.status, JSON.stringify(inst)).to.equal('infeasible');
          infeasible++;
        } else {
          expect(r.status, JSON.stringify(inst)).to.equal('optimal');
          expect(r.minYield!).to.be.closeTo(want, 1e-6);
          feasible++;
        }
      }
      // The set must exercise both outcomes.
      expect(feasible).to.be.greaterThan(10);
      expect(infeasible).to.be.at.least(2);
    });

    it(`${engine}: the LP relaxation equals its closed form, and is infeasible when total memory exceeds the hosts'`, () => {
      for (const inst of tinyInstances(20)) {
        const lp = solveVcschedLp(inst, { engine });
        const closed = vcschedRelaxedMinYield(inst);
        if (closed === null) expect(lp.status).to.equal('infeasible');
        else {
          expect(lp.status).to.equal('optimal');
          expect(lp.minYield!).to.be.closeTo(closed, 1e-6);
          // Fractions of each task sum to 1 (a valid start for randomized rounding).
          for (const row of lp.fractions!) expect(row.reduce((s, x) => s + x, 0)).to.be.closeTo(1, 1e-6);
        }
      }
      const tooBig: VcInstance = { hosts: 2, jobs: [{ cpuNeed: 0.5, mem: 0.9 }, { cpuNeed: 0.5, mem: 0.9 }, { cpuNeed: 0.5, mem: 0.9 }] };
      expect(solveVcschedMilp(tooBig, { engine }).status).to.equal('infeasible');
      expect(solveVcschedLp(tooBig, { engine }).status).to.equal('infeasible');
    });
  }

  it('the engines agree on the MILP optimum and the LP bound of seeded 4-host instances (6 and 8 tasks)', () => {
    const set = vcschedInstanceSet('small', { instancesPerSpec: 1, taskCounts: [6, 8], slacks: [0.2, 0.5, 0.8], seed: 'lp-engines' });
    let compared = 0;
    for (const g of set) {
      const [a, b] = LP_ENGINES.map((engine) => solveVcschedMilp(g.instance, { engine, timeLimitSeconds: 60 }));
      expect(b.status, `${g.spec.tasks}/${g.spec.slack}`).to.equal(a.status);
      if (a.status === 'optimal') {
        expect(b.minYield!).to.be.closeTo(a.minYield!, 1e-6);
        compared++;
      }
      const [la, lb] = LP_ENGINES.map((engine) => solveVcschedLp(g.instance, { engine }));
      expect(lb.status).to.equal(la.status);
      if (la.status === 'optimal') expect(lb.minYield!).to.be.closeTo(la.minYield!, 1e-6);
    }
    expect(compared).to.be.greaterThan(10);
  });

  it('HiGHS: the same instance gives the same values, bit for bit (MILP, LP vertex, RRND/RRNZ placements)', () => {
    const [g] = vcschedInstanceSet('small', { instancesPerSpec: 1, taskCounts: [10], slacks: [0.6], seed: 'lp-engines' });
    const m1 = solveVcschedMilp(g.instance, { engine: 'highs' });
    const m2 = solveVcschedMilp(g.instance, { engine: 'highs' });
    expect(m1.status).to.equal('optimal');
    expect({ ...m2, seconds: 0 }).to.deep.equal({ ...m1, seconds: 0 });
    const [big] = vcschedInstanceSet('large', { instancesPerSpec: 1, taskCounts: [100], slacks: [0.5], seed: 'lp-engines' });
    const l1 = solveVcschedLp(big.instance, { engine: 'highs' });
    const l2 = solveVcschedLp(big.instance, { engine: 'highs' });
    expect(l1.status).to.equal('optimal');
    expect(Buffer.from(Float64Array.from(l2.fractions!.flat()).buffer)).to.deep.equal(Buffer.from(Float64Array.from(l1.fractions!.flat()).buffer));
    for (const h of ['RRND', 'RRNZ'] as const) {
      const r1 = runVcschedHeuristic(big.instance, h, { lp: l1, seed: 7 });
      const r2 = runVcschedHeuristic(big.instance, h, { lpEngine: 'highs', seed: 7 });
      expect(r2.status).to.not.equal('skipped');
      expect(r2.placement).to.deep.equal(r1.placement);
    }
  });

  it('HiGHS: a node limit stops the MILP at the same point every time (feasible incumbent or unknown, never optimal)', () => {
    const [g] = vcschedInstanceSet('small', { instancesPerSpec: 1, taskCounts: [12], slacks: [0.6], seed: 'lp-engines' });
    const a = solveVcschedMilp(g.instance, { engine: 'highs', nodeLimit: 20 });
    const b = solveVcschedMilp(g.instance, { engine: 'highs', nodeLimit: 20 });
    expect(['feasible', 'unknown']).to.include(a.status);
    expect(a.message).to.match(/node limit 20/);
    expect({ ...b, seconds: 0 }).to.deep.equal({ ...a, seconds: 0 });
  });

  it('rejects an unknown engine and a bad node limit with an InputError naming the field', () => {
    const model = { optimize: 'x', opType: 'max' as const, constraints: { c: { max: 1 } }, variables: { x: { x: 1, c: 1 } } };
    expect(() => runLp(model, undefined, { engine: 'glpk' as LpEngine })).to.throw(InputError, /engine/);
    expect(() => runLp(model, undefined, { engine: 'highs', nodeLimit: 0 })).to.throw(InputError, /nodeLimit/);
    expect(runLp(model, undefined, { engine: 'highs' }).objective).to.be.closeTo(1, 1e-9);
  });

  it('HiGHS loads and solves in a worker thread; unloaded there, it is refused with an InputError', async () => {
    const src = path.resolve(__dirname, '../../src/schedulers/vcsched/lpsolver.ts');
    const code = `
      require('ts-node/register/transpile-only');
      const { parentPort } = require('worker_threads');
      const lp = require(${JSON.stringify(src)});
      const model = { optimize: 'x', opType: 'max', constraints: { c: { max: 2 } }, variables: { x: { x: 1, c: 1 } }, ints: { x: 1 } };
      let refused = '';
      try { lp.runLp(model, undefined, { engine: 'highs' }); } catch (e) { refused = e.name + ': ' + e.message; }
      lp.loadLpEngine('highs').then(() => {
        const r = lp.runLp(model, undefined, { engine: 'highs' });
        parentPort.postMessage({ refused, status: r.status, objective: r.objective });
      });`;
    const reply = await new Promise<{ refused: string; status: string; objective: number }>((resolve, reject) => {
      const w = new Worker(code, { eval: true });
      w.once('message', (m) => {
        resolve(m);
        void w.terminate();
      });
      w.once('error', reject);
    });
    expect(reply.refused).to.match(/^InputError: .*not loaded/);
    expect(reply.status).to.equal('optimal');
    expect(reply.objective).to.equal(2);
  });
});
