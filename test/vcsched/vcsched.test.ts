import { expect } from 'chai';
import fc from 'fast-check';
import {
  VcInstance,
  evaluateAllocation,
  solveVcschedMilp,
  solveVcschedLp,
  solveVcschedExact,
  vcschedRelaxedMinYield,
  vcschedRelaxedAverageYield,
  runVcschedHeuristic,
  VCSCHED_HEURISTICS,
  greedyPlacement,
  backtrackingPlacement,
  improvedJobYields,
  placementYield,
  generateVcInstance,
  vcschedSpecs,
  vcschedInstanceSet,
  runVcschedExperiment,
  instanceTasks,
  degradationTable,
  failureCurve,
  meanRelativeGap,
  VcRunRecord,
} from '../../src/schedulers/vcsched';
import { createRng } from '../../src/util/random';

const EPS = 1e-6;

/** Fractions on a 1e-4 grid (avoids denormal round-off artefacts in the LP comparisons). */
const fraction = fc.integer({ min: 0, max: 10_000 }).map((x) => x / 10_000);

/** Random instance arbitrary: few hosts, few jobs, optional parallel jobs. */
const instanceArb = (maxHosts: number, maxJobs: number, parallel: boolean) =>
  fc.record({
    hosts: fc.integer({ min: 1, max: maxHosts }),
    jobs: fc.array(
      fc.record({
        cpuNeed: fraction,
        mem: fraction,
        tasks: parallel ? fc.integer({ min: 1, max: 3 }) : fc.constant(1),
      }),
      { minLength: 1, maxLength: maxJobs },
    ),
  });

describe('vcsched: exact methods', () => {
  // Hand-worked: 2 hosts; jobs (c, m) = (0.8, 0.5), (0.6, 0.5), (0.4, 0.6).
  // Memory allows only {1, 2} | {3}: loads 1.4 and 0.4, so the optimum is 1/1.4 = 5/7.
  // The relaxation pools everything: need 1.8 <= 2 hosts, memory 1.6 <= 2, so 1.
  // Improvement: host of {1,2} is full at 5/7; job 3 alone reaches 1 -> average 17/21.
  const hand: VcInstance = {
    hosts: 2,
    jobs: [
      { cpuNeed: 0.8, mem: 0.5 },
      { cpuNeed: 0.6, mem: 0.5 },
      { cpuNeed: 0.4, mem: 0.6 },
    ],
  };

  it('MILP finds the hand-computed optimum 5/7 and the average yield 17/21', () => {
    const r = solveVcschedMilp(hand, { timeLimitSeconds: 20 });
    expect(r.status).to.equal('optimal');
    expect(r.minYield).to.be.closeTo(5 / 7, EPS);
    expect(r.solverObjective).to.be.closeTo(5 / 7, EPS);
    const p = r.placement!;
    expect(p[0]).to.equal(p[1]);
    expect(p[2]).to.not.equal(p[0]);
    const y = improvedJobYields(hand, p);
    expect(y[0]).to.be.closeTo(5 / 7, EPS);
    expect(y[2]).to.be.closeTo(1, EPS);
    expect((y[0] + y[1] + y[2]) / 3).to.be.closeTo(17 / 21, EPS);
  });

  it('LP relaxation, closed form and exact search agree on the hand instance', () => {
    expect(vcschedRelaxedMinYield(hand)).to.equal(1);
    expect(solveVcschedLp(hand).minYield).to.be.closeTo(1, EPS);
    const ex = solveVcschedExact(hand);
    expect(ex.status).to.equal('optimal');
    expect(ex.minYield).to.be.closeTo(5 / 7, EPS);
  });

  it('parallel job: MILP keeps tasks of a job at equal yield (hand: optimum 5/6)', () => {
    // Job A: 2 tasks (0.6, 0.3); job B: 1 task (0.8, 0.5). Best: A's two tasks together (1.2), B alone.
    const inst: VcInstance = { hosts: 2, jobs: [{ cpuNeed: 0.6, mem: 0.3, tasks: 2 }, { cpuNeed: 0.8, mem: 0.5 }] };
    const r = solveVcschedMilp(inst, { timeLimitSeconds: 20 });
    expect(r.status).to.equal('optimal');
    expect(r.minYield).to.be.closeTo(1 / 1.2, EPS);
    expect(solveVcschedExact(inst).minYield).to.be.closeTo(1 / 1.2, EPS);
  });

  it('reports infeasibility when memory cannot fit', () => {
    const inst: VcInstance = { hosts: 2, jobs: [0.6, 0.6, 0.6].map((mem) => ({ cpuNeed: 0.5, mem })) };
    expect(solveVcschedMilp(inst, { timeLimitSeconds: 20 }).status).to.equal('infeasible');
    expect(solveVcschedExact(inst).status).to.equal('infeasible');
    // Total memory 1.8 <= 2: the relaxation stays feasible (an upper bound, not a proof).
    expect(vcschedRelaxedMinYield(inst)).to.equal(1);
    expect(vcschedRelaxedMinYield({ hosts: 1, jobs: inst.jobs })).to.equal(null);
  });

  it('MILP = exact search <= LP relaxation = closed form on random small instances', () => {
    fc.assert(
      fc.property(instanceArb(3, 5, true), (inst) => {
        const closed = vcschedRelaxedMinYield(inst);
        const lp = solveVcschedLp(inst);
        if (closed === null) expect(lp.feasible).to.equal(false);
        else expect(lp.minYield!).to.be.closeTo(closed, 1e-6);
        const ex = solveVcschedExact(inst);
        const milp = solveVcschedMilp(inst, { timeLimitSeconds: 20 });
        if (milp.status === 'feasible' || milp.status === 'unknown') return; // time limit: no claim
        expect(milp.status).to.not.equal('invalid');
        if (ex.status === 'infeasible') expect(milp.status).to.equal('infeasible');
        if (ex.status === 'optimal') {
          expect(milp.status).to.equal('optimal');
          expect(milp.minYield!).to.be.closeTo(ex.minYield!, 1e-6);
          expect(ex.minYield!).to.be.at.most(closed! + 1e-9);
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('vcsched: heuristics', () => {
  it('every heuristic returns a feasible allocation on random instances (property)', () => {
    fc.assert(
      fc.property(instanceArb(4, 8, true), fc.integer({ min: 0, max: 1000 }), (inst, seed) => {
        const ub = vcschedRelaxedMinYield(inst);
        const exact = solveVcschedExact(inst, { nodeLimit: 200_000 });
        for (const algorithm of VCSCHED_HEURISTICS) {
          const r = runVcschedHeuristic(inst, algorithm, { seed, backtrackBudget: 20_000 });
          if (r.status !== 'ok') continue;
          const ev = evaluateAllocation(inst, r.allocation!);
          expect(ev.feasible, `${algorithm}: ${ev.violations.join('; ')}`).to.equal(true);
          // Explicit checks of the three constraint families.
          const tasks = instanceTasks(inst);
          const mem = new Array(inst.hosts).fill(0);
          const cpu = new Array(inst.hosts).fill(0);
          tasks.forEach((t, i) => {
            mem[r.allocation!.host[i]] += t.mem;
            cpu[r.allocation!.host[i]] += r.allocation!.cpu[i];
            expect(r.allocation!.cpu[i]).to.be.at.most(t.cpuNeed + EPS);
          });
          mem.forEach((m) => expect(m).to.be.at.most(1 + EPS));
          cpu.forEach((c) => expect(c).to.be.at.most(1 + EPS));
          expect(r.minYield!).to.be.at.most(ub! + EPS);
          if (exact.status === 'optimal') expect(r.minYield!).to.be.at.most(exact.minYield! + EPS);
          expect(r.avgYield!).to.be.at.least(r.minYield! - EPS);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('MCB8 never exceeds the LP bound on generated large instances', () => {
    const set = vcschedInstanceSet('large', { instancesPerSpec: 1, taskCounts: [100], slacks: [0.1, 0.3, 0.5, 0.9] });
    for (const gi of set) {
      const r = runVcschedHeuristic(gi.instance, 'MCB8');
      const ub = vcschedRelaxedMinYield(gi.instance);
      if (r.status === 'ok') expect(r.minYield!).to.be.at.most(ub! + EPS);
    }
  });

  it('GR / SG place every task as the definition written with sorts does (seeded small and large instances)', () => {
    // Reference: tasks in input order (GR) or by memory descending, ties by index (SG); every host
    // sorted by CPU load, ties by index; the first one where the memory fits.
    const reference = (inst: VcInstance, sorted: boolean): number[] | null => {
      const tasks = instanceTasks(inst);
      const load: number[] = new Array(inst.hosts).fill(0);
      const mem: number[] = new Array(inst.hosts).fill(0);
      const order = tasks.map((_, i) => i);
      if (sorted) order.sort((a, b) => tasks[b].mem - tasks[a].mem || a - b);
      const placement: number[] = new Array(tasks.length).fill(-1);
      for (const i of order) {
        const hosts = load.map((_, h) => h).sort((a, b) => load[a] - load[b] || a - b);
        const h = hosts.find((x) => mem[x] + tasks[i].mem <= 1 + 1e-6);
        if (h === undefined) return null;
        placement[i] = h;
        load[h] += tasks[i].cpuNeed;
        mem[h] += tasks[i].mem;
      }
      return placement;
    };
    let failures = 0;
    for (const set of ['small', 'large'] as const) {
      const specs = vcschedSpecs(set);
      for (let k = 0; k < 60; k++) {
        const inst = generateVcInstance(specs[(k * 7) % specs.length], createRng(100 + k));
        for (const sorted of [false, true]) {
          const want = reference(inst, sorted);
          if (want === null) failures++;
          expect(greedyPlacement(inst, { sortByMemory: sorted }), `${set} ${k} ${sorted ? 'SG' : 'GR'}`).to.deep.equal(want);
        }
      }
    }
    expect(failures).to.be.greaterThan(0); // failures are compared too
  });

  it('GR fails where GB backtracks to a solution; SG succeeds by sorting', () => {
    // Memory 0.5, 0.5, 0.6, 0.4 on 2 hosts: GR puts the two 0.5s apart and then 0.6 fits nowhere.
    const inst: VcInstance = { hosts: 2, jobs: [0.5, 0.5, 0.6, 0.4].map((mem) => ({ cpuNeed: 0.5, mem })) };
    expect(greedyPlacement(inst)).to.equal(null);
    const gb = backtrackingPlacement(inst);
    expect(gb.placement).to.not.equal(null);
    expect(gb.placement![0]).to.equal(gb.placement![1]);
    expect(greedyPlacement(inst, { sortByMemory: true })).to.not.equal(null);
    expect(backtrackingPlacement(inst, { budget: 2 }).placement).to.equal(null);
  });

  it('GB/SGB visit the same nodes as a search that sorts the hosts by load at every node (same placement, same attempts)', () => {
    // The search as written before the host order was kept up to date incrementally.
    const reference = (inst: VcInstance, sortByMemory: boolean, budget: number): { placement: number[] | null; attempts: number } => {
      const tasks = instanceTasks(inst);
      const order = tasks.map((_, i) => i);
      if (sortByMemory) order.sort((a, b) => tasks[b].mem - tasks[a].mem || a - b);
      const n = tasks.length;
      const load = new Float64Array(inst.hosts);
      const mem = new Float64Array(inst.hosts);
      const count = new Int32Array(inst.hosts);
      const placement = new Array<number>(n).fill(-1);
      let attempts = 0;
      const candidatesFor = (k: number): number[] => {
        const t = tasks[order[k]];
        const hs = Array.from(load, (_, h) => h).sort((a, b) => load[a] - load[b] || a - b);
        const out: number[] = [];
        let emptySeen = false;
        for (const h of hs) {
          if (mem[h] + t.mem > 1 + 1e-6) continue;
          if (count[h] === 0) {
            if (emptySeen) continue;
            emptySeen = true;
          }
          out.push(h);
        }
        return out;
      };
      if (n === 0) return { placement: [], attempts };
      const candidates: number[][] = [candidatesFor(0)];
      const cursor: number[] = [0];
      let k = 0;
      while (k >= 0) {
        if (cursor[k] >= candidates[k].length) {
          k--;
          if (k < 0) break;
          const i = order[k];
          const h = placement[i];
          load[h] -= tasks[i].cpuNeed;
          mem[h] -= tasks[i].mem;
          count[h]--;
          placement[i] = -1;
          cursor[k]++;
          continue;
        }
        if (attempts >= budget) return { placement: null, attempts };
        attempts++;
        const i = order[k];
        const h = candidates[k][cursor[k]];
        placement[i] = h;
        load[h] += tasks[i].cpuNeed;
        mem[h] += tasks[i].mem;
        count[h]++;
        if (k === n - 1) return { placement, attempts };
        k++;
        candidates[k] = candidatesFor(k);
        cursor[k] = 0;
      }
      return { placement: null, attempts };
    };
    const rng = createRng('gb-reference');
    let failed = 0;
    let backtracked = 0;
    for (let k = 0; k < 48; k++) {
      const hosts = [2, 4, 8, 64][k % 4];
      const tasks = hosts === 64 ? [100, 250][(k >> 2) % 2] : hosts * [2, 3][(k >> 2) % 2];
      const inst = generateVcInstance({ hosts, tasks, slack: [0.1, 0.2, 0.3][k % 3], memCv: 0.75, cpuCv: [0.25, 0.75][(k >> 1) % 2] }, rng.fork(String(k)));
      for (const sortByMemory of [false, true]) {
        const budget = hosts === 64 ? 20_000 : 5_000;
        const want = reference(inst, sortByMemory, budget);
        expect(backtrackingPlacement(inst, { sortByMemory, budget }), `instance ${k}, sorted ${sortByMemory}`).to.deep.equal(want);
        if (!want.placement) failed++;
        else if (want.attempts > tasks) backtracked++;
      }
    }
    // The set exercises backtracking, success after it and budget failures.
    expect(failed).to.be.at.least(5);
    expect(backtracked).to.be.at.least(3);
  });

  it('RRND/RRNZ are reproducible for a seed', () => {
    const inst = generateVcInstance({ hosts: 4, tasks: 10, slack: 0.5, memCv: 0.75, cpuCv: 0.75 }, createRng(3));
    const a = runVcschedHeuristic(inst, 'RRNZ', { seed: 7 });
    const b = runVcschedHeuristic(inst, 'RRNZ', { seed: 7 });
    expect(a.placement).to.deep.equal(b.placement);
  });

  it('average-yield greedy equals the LP optimum for sequential jobs and never beats it for parallel jobs', () => {
    fc.assert(
      fc.property(instanceArb(4, 8, false), instanceArb(4, 6, true), (seq, par) => {
        for (const [inst, exactGreedy] of [
          [seq, true],
          [par, false],
        ] as const) {
          const r = runVcschedHeuristic(inst, 'SG');
          if (r.status !== 'ok') continue;
          const g = improvedJobYields(inst, r.placement!);
          const l = improvedJobYields(inst, r.placement!, { method: 'lp' });
          const sg = g.reduce((s, x) => s + x, 0);
          const sl = l.reduce((s, x) => s + x, 0);
          if (exactGreedy) expect(sg).to.be.closeTo(sl, 1e-6);
          else expect(sg).to.be.at.most(sl + 1e-6);
          expect(Math.min(...g)).to.be.closeTo(placementYield(inst, r.placement!), 1e-9);
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('vcsched: bounds, model and generator', () => {
  it('relaxed average yield is a fractional knapsack above the minimum', () => {
    // 1 host, needs 0.5 and 1.0: Y* = 1/1.5; spare 0 -> average = Y*.
    expect(vcschedRelaxedAverageYield({ hosts: 1, jobs: [{ cpuNeed: 0.5, mem: 0 }, { cpuNeed: 1, mem: 0 }] })).to.be.closeTo(1 / 1.5, 1e-12);
    // 2 hosts, needs 0.5 and 1.0: everything fits -> 1.
    expect(vcschedRelaxedAverageYield({ hosts: 2, jobs: [{ cpuNeed: 0.5, mem: 0 }, { cpuNeed: 1, mem: 0 }] })).to.equal(1);
  });

  it('evaluateAllocation flags every kind of violation', () => {
    const inst: VcInstance = { hosts: 1, jobs: [{ cpuNeed: 0.6, mem: 0.7 }, { cpuNeed: 0.6, mem: 0.4, tasks: 2 }] };
    const ev = evaluateAllocation(inst, { host: [0, 0, 0], cpu: [0.7, 0.3, 0.2] });
    expect(ev.feasible).to.equal(false);
    const text = ev.violations.join('\n');
    expect(text).to.match(/outside \[0, need/);
    expect(text).to.match(/different CPU fractions/);
    expect(text).to.match(/memory/);
    expect(text).to.match(/CPU 1\.2/);
  });

  it('generates the paper-sized sets with the requested parameters', () => {
    expect(vcschedSpecs('small')).to.have.length(144);
    expect(vcschedSpecs('large')).to.have.length(108);
    const rng = createRng(11);
    let memSum = 0;
    const reps = 50;
    for (let k = 0; k < reps; k++) {
      const inst = generateVcInstance({ hosts: 64, tasks: 250, slack: 0.4, memCv: 0.25, cpuCv: 0.25 }, rng);
      expect(inst.jobs).to.have.length(250);
      for (const j of inst.jobs) {
        expect(j.cpuNeed).to.be.within(0, 1);
        expect(j.mem).to.be.within(0, 1);
        memSum += j.mem;
      }
    }
    // Total memory about (1 - slack) x hosts.
    expect(memSum / reps / 64).to.be.closeTo(0.6, 0.02);
    const par = generateVcInstance({ hosts: 64, tasks: 500, slack: 0.4, memCv: 0.25, cpuCv: 0.25, parallel: true }, createRng(5));
    expect(instanceTasks(par)).to.have.length(500);
    for (const j of par.jobs) expect(j.tasks).to.be.within(1, 64);
    expect(par.jobs.length).to.be.lessThan(500);
    const a = vcschedInstanceSet('small', { instancesPerSpec: 2, taskCounts: [6] });
    const b = vcschedInstanceSet('small', { instancesPerSpec: 3, taskCounts: [6, 8] });
    expect(a[1].instance).to.deep.equal(b[1].instance);
  });

  it('experiment runner produces one record per instance and algorithm', () => {
    const set = vcschedInstanceSet('small', { instancesPerSpec: 1, taskCounts: [6], slacks: [0.5] });
    const recs = runVcschedExperiment(set, ['MCB8', 'SG', 'EXACT', 'RRND'], { milpTimeLimitSeconds: 5 });
    expect(recs).to.have.length(set.length * 4);
    for (const r of recs) expect(['ok', 'failed', 'timeout', 'skipped', 'invalid']).to.include(r.status);
  });
});

describe('vcsched: analysis of records', () => {
  const rec = (algorithm: string, instance: number, minYield: number | null, slack = 0.5): VcRunRecord => ({
    set: 's', parallel: false, hosts: 2, tasks: 3, jobs: 3, slack, memCv: 0.25, cpuCv: 0.25, instance,
    algorithm: algorithm as VcRunRecord['algorithm'], status: (minYield === null ? 'failed' : 'ok') as 'ok' | 'failed',
    minYield, avgYield: minYield, seconds: 0.001, lpMinYield: 1, lpAvgYield: 1, message: '',
  });
  it('degradation from best, failure rates and gaps follow their definitions', () => {
    // Instance 0: A 0.8, B 0.6 -> B degrades 25%. Instance 1: A 0.5, B 0.5 -> 0. Instance 2: A fails, B 0.4.
    const rs = [rec('A', 0, 0.8), rec('B', 0, 0.6), rec('A', 1, 0.5), rec('B', 1, 0.5), rec('A', 2, null), rec('B', 2, 0.4)];
    const t = degradationTable(rs, ['A', 'B']);
    const b = t.find((r) => r.algorithm === 'B')!;
    expect(b.avgDegradation).to.be.closeTo(25 / 3, 1e-9);
    expect(b.maxDegradation).to.be.closeTo(25, 1e-9);
    expect(t[0].algorithm).to.equal('A');
    expect(t[0].solved).to.equal(2);
    const f = failureCurve(rs, { x: 'slack' });
    expect(f.find((r) => r.algorithm === 'A')!.mean).to.be.closeTo(100 / 3, 1e-9);
    expect(meanRelativeGap(rs, 'A', 'B').gap).to.be.closeTo((100 * (0.8 - 0.6)) / 0.6 / 2, 1e-9);
  });
});
