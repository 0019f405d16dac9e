/**
 * LP/MILP numerics (VCSched MILP and LP relaxation, the average-yield LP, DFRS
 * opt=avg): solver failures, infeasibility and time-outs are detected and
 * reported (a status or a SolverError), never returned as a value. Faults are
 * injected by replacing the solver (setLpSolverForTesting); the real solver is
 * checked on the degenerate instances where it used to answer wrongly.
 */
import { expect } from 'chai';
import { SolverError, InputError } from '../../src/util/errors';
import {
  LpModel,
  runLp,
  setLpSolverForTesting,
  lpSolutionViolation,
  solveVcschedMilp,
  solveVcschedLp,
  solveVcschedExact,
  runVcschedHeuristic,
  improvedJobYields,
  buildVcschedModel,
  VcInstance,
  vcschedRelaxedMinYield,
  loadLpEngine,
} from '../../src/schedulers/vcsched';
import { simulateDfrs, maxAvgYields } from '../../src/schedulers/dfrs';
import { record } from './tally';

type Raw = Record<string, number | boolean | undefined>;

/** A tiny LP: max x + y s.t. x + y <= 1, x <= 0.7. Optimum 1. */
const small: LpModel = {
  optimize: 'obj',
  opType: 'max',
  constraints: { c: { max: 1 }, u: { max: 0.7 } },
  variables: { x: { obj: 1, c: 1, u: 1 }, y: { obj: 1, c: 1 } },
};

/** Faults a solver can show; each maps to the status runLp must report. */
const FAULTS: [string, (m: LpModel) => Raw, string][] = [
  ['throws', () => { throw new Error('internal solver error'); }, 'failure'],
  ['returns nothing', () => null as unknown as Raw, 'failure'],
  ['claims infeasible', () => ({ feasible: false, result: 0, bounded: true }), 'infeasible'],
  ['claims unbounded', () => ({ feasible: true, result: Infinity, bounded: false }), 'unbounded'],
  ['NaN objective', () => ({ feasible: true, result: NaN, bounded: true, x: 0.5 }), 'failure'],
  ['negative variable', () => ({ feasible: true, result: 1, bounded: true, x: -0.2, y: 1.2 }), 'failure'],
  ['breaks a constraint', () => ({ feasible: true, result: 1.4, bounded: true, x: 0.7, y: 0.7 }), 'failure'],
  ['objective does not match its values', () => ({ feasible: true, result: 0.9, bounded: true, x: 0.5, y: 0.5 }), 'failure'],
  ['fractional binary', () => ({ feasible: true, result: 1, bounded: true, x: 0.5, y: 0.5 }), 'failure'],
];

/** Solver that spends `ms` milliseconds (busy) and then answers `answer`. */
function slowSolver(ms: number, answer: (m: LpModel) => Raw): (m: LpModel) => Raw {
  return (m) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      /* busy: the library's time limit is checked between branch-and-bound nodes only */
    }
    return answer(m);
  };
}

const inst: VcInstance = { hosts: 2, jobs: [{ cpuNeed: 0.6, mem: 0.3, tasks: 2 }, { cpuNeed: 0.8, mem: 0.5 }] };

describe('hardening (papers): LP/MILP failures, infeasibility and time-outs are reported, never returned as values', () => {
  afterEach(() => setLpSolverForTesting(undefined));

  it('runLp turns every solver fault into a status (checked against the model)', () => {
    expect(runLp(small).status).to.equal('optimal');
    expect(runLp(small).objective).to.be.closeTo(1, 1e-9);
    let n = 0;
    for (const [label, fault, status] of FAULTS) {
      setLpSolverForTesting(fault);
      const model = label === 'fractional binary' ? { ...small, binaries: { x: 1 as const } } : small;
      const r = runLp(model);
      expect(r.status, label).to.equal(status);
      if (status !== 'infeasible') expect(r.message, label).to.be.a('string').and.not.equal('');
      n++;
    }
    expect(lpSolutionViolation(small, { x: 0.7, y: 0.3 })).to.equal(null);
    expect(lpSolutionViolation(small, { x: 0.8, y: 0 })).to.match(/constraint u/);
    record({ family: 'LP wrapper', kind: 'injected solver faults (throws, no answer, infeasible, unbounded, NaN, negative values, broken constraint, wrong objective, fractional binary)', cases: n, outcome: 'each reported as its status with the reason; no value read' });
  });

  it('the VCSched MILP reports injected faults as invalid and time-outs as feasible/unknown, never optimal', () => {
    let n = 0;
    for (const [label, fault, status] of FAULTS) {
      setLpSolverForTesting(fault);
      const r = solveVcschedMilp(inst, { timeLimitSeconds: 10 });
      // nothing passes as a solution; the infeasibility claim is refuted by a first-fit placement
      expect(r.status, label).to.equal('invalid');
      expect(r.placement, label).to.equal(null);
      n++;
    }
    // the real solver's optimum, for the time-out cases
    setLpSolverForTesting(undefined);
    const good = solveVcschedMilp(inst, { timeLimitSeconds: 10 });
    expect(good.status).to.equal('optimal');
    const model = buildVcschedModel(inst);
    // a time-out with a valid incumbent: 'feasible', its yield recomputed
    const incumbent = runLp(model);
    setLpSolverForTesting(slowSolver(120, () => incumbent.raw));
    const slow = solveVcschedMilp(inst, { timeLimitSeconds: 0.05 });
    expect(slow.status).to.equal('feasible');
    expect(slow.minYield).to.be.closeTo(good.minYield!, 1e-9);
    // a time-out without an incumbent: 'unknown'
    setLpSolverForTesting(slowSolver(120, () => ({ feasible: false, result: 0, bounded: true })));
    expect(solveVcschedMilp(inst, { timeLimitSeconds: 0.05 }).status).to.equal('unknown');
    // a time-out handing back the fractional values of the last relaxation (what
    // javascript-lp-solver does without an integral incumbent): 'unknown', not 'invalid'
    // (three tasks of memory 0.6 on two hosts: no integral placement, so the relaxation is fractional)
    const crowded: VcInstance = { hosts: 2, jobs: [{ cpuNeed: 0.5, mem: 0.6, tasks: 3 }] };
    setLpSolverForTesting(undefined);
    const crowdedModel = buildVcschedModel(crowded);
    const relaxed = runLp({ ...crowdedModel, ints: {}, binaries: {} });
    expect(relaxed.status).to.equal('optimal');
    expect(lpSolutionViolation(crowdedModel, relaxed.raw)).to.match(/integer variable/);
    setLpSolverForTesting(slowSolver(120, () => relaxed.raw));
    const fractional = solveVcschedMilp(crowded, { timeLimitSeconds: 0.05 });
    expect(fractional.status).to.equal('unknown');
    expect(fractional.message).to.match(/no integral incumbent/);
    // a time-out whose incumbent breaks a constraint: 'invalid'
    setLpSolverForTesting(slowSolver(120, () => ({ ...incumbent.raw, Y: 5 })));
    expect(solveVcschedMilp(inst, { timeLimitSeconds: 0.05 }).status).to.equal('invalid');
    n += 4;
    record({ family: 'VCSched MILP', kind: 'injected solver faults and time-outs (with a valid, a missing, a fractional and a broken incumbent)', cases: n, outcome: "'invalid' (a false infeasibility claim refuted by first fit); time-outs 'feasible' (verified) or 'unknown' (none, or only a fractional one); never 'optimal'" });
  });

  it('the LP relaxation is checked against its closed form; RRND/RRNZ and the average-yield LP throw SolverError on a faulty solver', () => {
    let n = 0;
    for (const [label, fault, status] of FAULTS) {
      setLpSolverForTesting(fault);
      const lp = solveVcschedLp(inst);
      expect(lp.feasible, label).to.equal(false);
      expect(lp.fractions, label).to.equal(null);
      // the relaxation is feasible here (memory fits), so an infeasibility claim is a failure too
      expect(lp.status, label).to.equal(status === 'infeasible' ? 'failure' : status);
      for (const h of ['RRND', 'RRNZ'] as const) {
        expect(() => runVcschedHeuristic(inst, h), `${h}: ${label}`).to.throw(SolverError, new RegExp(`${h} \\(LP relaxation\\)`));
      }
      expect(() => improvedJobYields(inst, [0, 0, 1], { method: 'lp' }), label).to.throw(SolverError, /average-yield LP/);
      n += 4;
    }
    // a solver answer that satisfies the model but is not the optimum is caught by the closed form
    setLpSolverForTesting((m) => {
      setLpSolverForTesting(undefined);
      const r = runLp(m).raw;
      const y = (r.Y as number) * 0.9;
      const scaled: Raw = { ...r, Y: y, result: y };
      return scaled;
    });
    const sub = solveVcschedLp(inst);
    expect(sub.status).to.equal('failure');
    expect(sub.message).to.match(/closed-form optimum/);
    n++;
    record({ family: 'VCSched LP', kind: 'injected faults in the relaxation and the average-yield LP; a sub-optimal answer', cases: n, outcome: "status 'failure'/'unbounded' (closed form cross-check); RRND/RRNZ and the average-yield LP throw SolverError" });
  });

  it('the real solver on the degenerate instances it used to get wrong (zero memory or zero need)', () => {
    const cases: VcInstance[] = [
      { hosts: 1, jobs: [{ cpuNeed: 1, mem: 0 }] },
      { hosts: 1, jobs: [{ cpuNeed: 0, mem: 0 }] },
      { hosts: 3, jobs: [{ cpuNeed: 0, mem: 0, tasks: 2 }] },
      { hosts: 2, jobs: [{ cpuNeed: 1, mem: 0 }, { cpuNeed: 0, mem: 0 }] },
      { hosts: 3, jobs: [{ cpuNeed: 1, mem: 0, tasks: 3 }] },
      { hosts: 2, jobs: [{ cpuNeed: 0.5, mem: 0 }, { cpuNeed: 0.7, mem: 0.9 }, { cpuNeed: 0, mem: 0.4 }] },
    ];
    for (const c of cases) {
      const exact = solveVcschedExact(c);
      const milp = solveVcschedMilp(c, { timeLimitSeconds: 10 });
      const lp = solveVcschedLp(c);
      expect(exact.status, JSON.stringify(c)).to.equal('optimal');
      expect(milp.status, JSON.stringify(c)).to.equal('optimal');
      expect(milp.minYield).to.be.closeTo(exact.minYield!, 1e-6);
      expect(lp.status, JSON.stringify(c)).to.equal('optimal');
      expect(lp.minYield).to.be.closeTo(vcschedRelaxedMinYield(c)!, 1e-6);
    }
    // real infeasibility: memory does not fit anywhere
    const tooBig: VcInstance = { hosts: 1, jobs: [{ cpuNeed: 0.5, mem: 0.6 }, { cpuNeed: 0.5, mem: 0.6 }] };
    expect(solveVcschedMilp(tooBig, { timeLimitSeconds: 10 }).status).to.equal('infeasible');
    expect(solveVcschedLp(tooBig).status).to.equal('infeasible');
    record({ family: 'VCSched MILP/LP', kind: 'degenerate instances (zero memory, zero need) and a truly infeasible one, real solver', cases: cases.length * 2 + 2, outcome: 'MILP = exact search, LP = closed form, infeasible reported as such' });
  });

  it('DFRS opt=avg: a faulty solver stops the run with a SolverError instead of a silently worse allocation', () => {
    const jobs = [
      { id: 1, submit: 0, runtime: 400, tasks: 2, cpuNeed: 0.75, mem: 0.3 },
      { id: 2, submit: 10, runtime: 300, tasks: 1, cpuNeed: 0.5, mem: 0.3 },
      // need 0.25 leaves room on a node, so the LP has something to decide (a node
      // whose capacity the max-min floor already uses up is not sent to the solver)
      { id: 3, submit: 20, runtime: 200, tasks: 1, cpuNeed: 0.25, mem: 0.3 },
    ];
    const ok = simulateDfrs(jobs, { nodes: 2, algorithm: 'MCB8 */opt=avg', timeMcb: false });
    expect(ok.jobs.every((j) => Number.isFinite(j.completion))).to.equal(true);
    let n = 0;
    for (const [label, fault] of FAULTS) {
      setLpSolverForTesting(fault);
      expect(() => simulateDfrs(jobs, { nodes: 2, algorithm: 'MCB8 */opt=avg', timeMcb: false }), label).to.throw(SolverError, /DFRS opt=avg LP/);
      n++;
    }
    setLpSolverForTesting(undefined);
    // a node left with a residual of 1e-8 by the floor pins its jobs (the solver used to
    // return values breaking that constraint); a node with room still gets the optimum
    const pinned = maxAvgYields([{ need: 1, nodes: [0] }, { need: 1, nodes: [0] }, { need: 1, nodes: [1] }, { need: 1 - 2e-8, nodes: [1] }, { need: 0.5, nodes: [2] }], 3);
    expect(Array.from(pinned.slice(0, 4))).to.deep.equal([0.5, 0.5, 0.5, 0.5]);
    expect(pinned[4]).to.be.closeTo(1, 1e-9);
    // the LP itself: the optimum raises yields above the max-min floor where room is left
    const y = maxAvgYields([{ need: 0.75, nodes: [0, 1] }, { need: 0.5, nodes: [0] }, { need: 0.25, nodes: [1] }], 2);
    expect(y[0] * 0.75 + y[1] * 0.5).to.be.at.most(1 + 1e-9);
    expect(y[0] * 0.75 + y[2] * 0.25).to.be.at.most(1 + 1e-9);
    expect(y[2]).to.be.closeTo(1, 1e-9);
    record({ family: 'DFRS opt=avg LP', kind: 'injected solver faults during a simulation', cases: n, outcome: 'SolverError naming the LP; no fallback allocation' });
  });

  it('DFRS opt=avg: when javascript-lp-solver\'s answer breaks the LP, the same LP is solved again with HiGHS (once loaded)', async () => {
    const jobs = [
      { id: 1, submit: 0, runtime: 400, tasks: 2, cpuNeed: 0.75, mem: 0.3 },
      { id: 2, submit: 10, runtime: 300, tasks: 1, cpuNeed: 0.5, mem: 0.3 },
      { id: 3, submit: 20, runtime: 200, tasks: 1, cpuNeed: 0.25, mem: 0.3 },
    ];
    const clean = simulateDfrs(jobs, { nodes: 2, algorithm: 'MCB8 */opt=avg', timeMcb: false });
    await loadLpEngine('highs');
    const asked: string[] = [];
    // javascript-lp-solver answers with values above their bounds; HiGHS answers for real
    setLpSolverForTesting((m, engine) => {
      asked.push(engine);
      if (engine === 'highs') return undefined;
      return { feasible: true, result: 99, bounded: true, ...Object.fromEntries(Object.keys(m.variables).map((v) => [v, 5])) };
    });
    const recovered = simulateDfrs(jobs, { nodes: 2, algorithm: 'MCB8 */opt=avg', timeMcb: false });
    expect(asked).to.include('javascript-lp-solver').and.to.include('highs');
    expect(asked.filter((e) => e === 'highs').length).to.equal(asked.filter((e) => e === 'javascript-lp-solver').length);
    // this LP has a unique optimum, so both engines give the same schedule
    recovered.jobs.forEach((j, i) => expect(j.completion, `job ${j.id}`).to.be.closeTo(clean.jobs[i].completion, 1e-6));
    // both engines faulty: still a SolverError naming both answers
    setLpSolverForTesting(() => ({ feasible: true, result: 1.4, bounded: true, z0: 7 }));
    expect(() => simulateDfrs(jobs, { nodes: 2, algorithm: 'MCB8 */opt=avg', timeMcb: false })).to.throw(SolverError, /javascript-lp-solver: .*HiGHS: /);
    record({ family: 'DFRS opt=avg LP', kind: 'javascript-lp-solver answer breaking the LP, HiGHS loaded', cases: 2, outcome: 'solved again with HiGHS (same schedule); both faulty: SolverError naming both' });
  });

  it('bad time limits are input errors', () => {
    expect(() => runLp(small, -1)).to.throw(InputError);
    expect(() => solveVcschedMilp(inst, { timeLimitSeconds: 0 })).to.throw(InputError);
  });
});
