/**
 * The LP engines behind the VCSched MILP and LP relaxation: each engine
 * against brute force on tiny instances, infeasibility, agreement between
 * engines on seeded instances, the compact relaxation against the paper's,
 * determinism, the node limit, and loading in a worker thread (as the sweep does).
 */
import { expect } from 'chai';
import * as path from 'path';
import { Worker } from 'worker_threads';
import {
  LP_ENGINES,
  LpEngine,
  LpModel,
  VcInstance,
  buildVcschedModel,
  buildVcschedRelaxation,
  columnsFromLpModel,
  lpModelFromColumns,
  instanceTasks,
  loadLpEngine,
  lpObjective,
  lpSolutionViolation,
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
import { vcschedCellInstance } from '../../src/sweep/papers/02-virtual-clusters';

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

/**
 * Rank of the constraints of `model` active at `x` (rows at a bound, variables
 * at 0), by Gaussian elimination: `x` is a vertex of the model's polyhedron
 * exactly when this equals the number of variables.
 */
function activeRank(model: LpModel, x: Record<string, number>, tol = 1e-7): number {
  const vars = Object.keys(model.variables);
  const col = new Map(vars.map((v, j) => [v, j]));
  const rows = new Map<string, number[]>();
  for (const [v, coefs] of Object.entries(model.variables)) {
    for (const [r, c] of Object.entries(coefs)) {
      if (!(r in model.constraints)) continue;
      if (!rows.has(r)) rows.set(r, new Array<number>(vars.length).fill(0));
      rows.get(r)![col.get(v)!] = c;
    }
  }
  const active: number[][] = [];
  for (const [r, coef] of rows) {
    const sum = coef.reduce((s, c, j) => s + c * (x[vars[j]] ?? 0), 0);
    const b = model.constraints[r];
    if ([b.equal, b.min, b.max].some((v) => v !== undefined && Math.abs(sum - v) <= tol)) active.push(coef);
  }
  vars.forEach((v, j) => {
    if (Math.abs(x[v] ?? 0) <= tol) active.push(vars.map((_, k) => (k === j ? 1 : 0)));
  });
  let rank = 0;
  for (let j = 0; j < vars.length && rank < active.length; j++) {
    let p = rank;
    for (let i = rank + 1; i < active.length; i++) if (Math.abs(active[i][j]) > Math.abs(active[p][j])) p = i;
    if (Math.abs(active[p][j]) < 1e-9) continue;
    [active[rank], active[p]] = [active[p], active[rank]];
    for (let i = rank + 1; i < active.length; i++) {
      const f = active[i][j] / active[rank][j];
      if (f !== 0) for (let k = j; k < vars.length; k++) active[i][k] -= f * active[rank][k];
    }
    rank++;
  }
  return rank;
}

/** A solution of the compact relaxation as one of the paper's: e = a + b, a, Y. */
function paperValues(inst: VcInstance, raw: Record<string, number | boolean | undefined>): Record<string, number> {
  const v = (k: string) => (typeof raw[k] === 'number' ? (raw[k] as number) : 0);
  const out: Record<string, number> = { Y: v('Y') };
  instanceTasks(inst).forEach((_, i) => {
    for (let h = 0; h < inst.hosts; h++) {
      out[`e_${i}_${h}`] = v(`a_${i}_${h}`) + v(`b_${i}_${h}`);
      out[`a_${i}_${h}`] = v(`a_${i}_${h}`);
    }
  });
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

  for (const engine of LP_ENGINES) {
    it(`${engine}: the compact relaxation has the paper's optimum, and its answer is an optimal vertex of the paper's relaxation`, () => {
      const rng = createRng('lp-engines/compact');
      const instances: VcInstance[] = [
        ...vcschedInstanceSet('small', { instancesPerSpec: 1, taskCounts: [6, 12], slacks: [0.1, 0.3, 0.6, 0.9], seed: 'lp-engines/compact' }).map((g) => g.instance),
        // parallel jobs (equal-allocation rows), sizes up to 4 tasks
        ...[0.2, 0.5, 0.8].map((slack, k) => generateVcInstance({ hosts: 4, tasks: 10, slack, memCv: 0.75, cpuCv: 0.75, parallel: true, maxJobSize: 4 }, rng.fork(`par${k}`))),
        // zero needs and memory (left out of the rows)
        { hosts: 3, jobs: [{ cpuNeed: 0, mem: 0.5 }, { cpuNeed: 0.8, mem: 0 }, { cpuNeed: 0.6, mem: 0.7, tasks: 2 }, { cpuNeed: 0.9, mem: 0.4 }] },
        ...(engine === 'highs' ? [0.2, 0.7].map((slack, k) => generateVcInstance({ hosts: 8, tasks: 24, slack, memCv: 0.75, cpuCv: 0.25 }, rng.fork(`mid${k}`))) : []),
      ];
      let vertices = 0;
      for (const inst of instances) {
        const label = JSON.stringify(inst).slice(0, 80);
        const paper = buildVcschedModel(inst, { relax: true });
        const compact = runLp(buildVcschedRelaxation(inst), undefined, { engine, lpMethod: 'dual-simplex' });
        const original = runLp(paper, undefined, { engine });
        const closed = vcschedRelaxedMinYield(inst);
        expect(compact.status, label).to.equal(original.status);
        if (closed === null) {
          expect(compact.status, label).to.equal('infeasible');
          continue;
        }
        expect(compact.status, label).to.equal('optimal');
        expect(compact.objective, label).to.be.closeTo(original.objective, 1e-7);
        expect(compact.objective, label).to.be.closeTo(closed, 1e-7);
        // Read back, the answer satisfies the paper's relaxation with the same objective ...
        const x = paperValues(inst, compact.raw);
        expect(lpSolutionViolation(paper, x), label).to.equal(null);
        expect(lpObjective(paper, x), label).to.be.closeTo(original.objective, 1e-7);
        // ... is one of its vertices (unlike the closed form's even spread, optimal too) ...
        expect(activeRank(paper, x), label).to.equal(Object.keys(paper.variables).length);
        const spread: Record<string, number> = { Y: closed };
        instanceTasks(inst).forEach((t, i) => {
          for (let h = 0; h < inst.hosts; h++) [spread[`e_${i}_${h}`], spread[`a_${i}_${h}`]] = [1 / inst.hosts, (t.cpuNeed * closed) / inst.hosts];
        });
        expect(lpSolutionViolation(paper, spread), label).to.equal(null);
        expect(activeRank(paper, spread), label).to.be.below(Object.keys(paper.variables).length);
        // ... and gives solveVcschedLp's fractions.
        const lp = solveVcschedLp(inst, { engine });
        expect(lp.fractions!.flat()).to.deep.equal(instanceTasks(inst).flatMap((_, i) => Array.from({ length: inst.hosts }, (_, h) => Math.max(0, x[`e_${i}_${h}`]))));
        vertices++;
      }
      expect(vertices).to.be.at.least(engine === 'highs' ? 10 : 8);
    });
  }

  it('a model in column form and in JSON form are the same model: same answers from both engines, bit for bit', () => {
    const set = vcschedInstanceSet('small', { instancesPerSpec: 1, taskCounts: [8], slacks: [0.2, 0.6], seed: 'lp-engines/columns' });
    const [par] = vcschedInstanceSet('large', { instancesPerSpec: 1, taskCounts: [100], slacks: [0.5], seed: 'lp-engines/columns', parallel: true });
    let optimal = 0;
    for (const inst of [...set.map((g) => g.instance), par.instance]) {
      const paper = buildVcschedModel(inst, { relax: true });
      expect(lpModelFromColumns(columnsFromLpModel(paper))).to.deep.equal(paper);
      const columns = buildVcschedRelaxation(inst);
      const json = lpModelFromColumns(columns);
      expect(columnsFromLpModel(json)).to.deep.equal(columns);
      for (const engine of inst.hosts > 4 ? (['highs'] as const) : LP_ENGINES) {
        const a = runLp(columns, undefined, { engine, lpMethod: 'dual-simplex' });
        const b = runLp(json, undefined, { engine, lpMethod: 'dual-simplex' });
        if (a.status === 'optimal') optimal++;
        expect({ ...a, seconds: 0 }).to.deep.equal({ ...b, seconds: 0 });
        const c = runLp(paper, undefined, { engine });
        const d = runLp(columnsFromLpModel(paper), undefined, { engine });
        expect({ ...d, seconds: 0 }).to.deep.equal({ ...c, seconds: 0 });
      }
    }
    expect(optimal).to.be.at.least(5);
  });

  it('HiGHS: on 64-host instances the compact relaxation has the paper relaxation\'s optimum, and its answer satisfies the paper\'s model', () => {
    const set = vcschedInstanceSet('large', { instancesPerSpec: 1, taskCounts: [100], slacks: [0.1, 0.5, 0.9], seed: 'lp-engines/compact' }).filter((_, k) => k % 4 === 0);
    let compared = 0;
    for (const g of set) {
      const paper = buildVcschedModel(g.instance, { relax: true });
      const compact = runLp(buildVcschedRelaxation(g.instance), undefined, { engine: 'highs', lpMethod: 'dual-simplex' });
      const original = runLp(paper, undefined, { engine: 'highs' });
      expect(compact.status).to.equal(original.status);
      if (compact.status !== 'optimal') continue;
      expect(compact.objective).to.be.closeTo(original.objective, 1e-7);
      const x = paperValues(g.instance, compact.raw);
      expect(lpSolutionViolation(paper, x)).to.equal(null);
      expect(lpObjective(paper, x)).to.be.closeTo(original.objective, 1e-7);
      compared++;
    }
    expect(compared).to.be.at.least(2);
  });

  it('HiGHS: a relaxation on which the dual simplex ends in "unknown" is answered by the other method (notebook 02, large set, 250 tasks, slack 0.1, instance 37)', () => {
    const g = vcschedCellInstance({ part: 'large', set: 'large', parallel: false, tasks: 250, slack: 0.1, memCv: 0.75, cpuCv: 0.25, instance: 37, algorithm: 'RRND+RRNZ', instanceSeed: 2009, options: {} });
    const compact = runLp(buildVcschedRelaxation(g.instance), undefined, { engine: 'highs', lpMethod: 'dual-simplex' });
    // Before the fallback this threw "HiGHS model status 15"; the paper's relaxation, solved by the default path, agrees.
    expect(compact.status).to.equal('infeasible');
    expect(runLp(buildVcschedModel(g.instance, { relax: true }), undefined, { engine: 'highs' }).status).to.equal('infeasible');
  });

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
      require(${JSON.stringify(path.resolve(__dirname, '../support/ts-register.js'))});
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
