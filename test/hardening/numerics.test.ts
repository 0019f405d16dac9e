/**
 * Numerics of the max-stretch bound: the LP path must report a solver that
 * throws, answers nonsense, claims "unbounded", returns a solution that does
 * not satisfy system (1), disagrees with max flow, is too large or runs past
 * its time budget, instead of returning a wrong bound. And the bound is
 * cross-checked against real schedules: no batch schedule of the same jobs
 * may have a smaller maximum bounded stretch than the lower bound.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { maxStretchLowerBound, boundedStretch, LpModel, stretchFeasible } from '../../src/bounds/maxstretch';
import { DfrsJob } from '../../src/workloads/dfrs';
import { SolverError } from '../../src/util/errors';
import { InvariantError, setInvariantChecks } from '../../src/util/invariants';
import { simulateBatch, BatchPolicy } from '../../src/schedulers/batch';
import { record } from './tally';

const job = (id: number, submit: number, runtime: number, tasks = 1, cpuNeed = 1): DfrsJob => ({ id, submit, runtime, tasks, cpuNeed, mem: 0.1 });
/** Two jobs competing for one node: the optimum max bounded stretch is 1.5. */
const JOBS = [job(1, 0, 100), job(2, 0, 50)];

function solverError(fn: () => unknown): SolverError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SolverError) return e;
    throw e;
  }
  throw new Error('expected a SolverError');
}

describe('hardening: the LP path reports solver trouble', () => {
  afterEach(() => setInvariantChecks(undefined));

  it('a solver that throws, answers nonsense or claims "unbounded" is a SolverError naming the kind', () => {
    const cases: [string, (m: LpModel) => unknown, string, RegExp][] = [
      ['throws', () => { throw new Error('simplex exploded'); }, 'failure', /the solver threw at stretch 1: simplex exploded/],
      ['returns null', () => null, 'failure', /malformed answer/],
      ['returns a string', () => 'ok', 'failure', /malformed answer/],
      ['feasible is not a boolean', () => ({ feasible: 'yes' }), 'failure', /malformed answer/],
      ['NaN in the solution', (m) => ({ feasible: true, bounded: true, [Object.keys(m.variables)[0]]: NaN }), 'failure', /= null/],
      ['unbounded', () => ({ feasible: true, bounded: false }), 'unbounded', /reported unbounded/],
    ];
    for (const [what, lpSolve, kind, msg] of cases) {
      const e = solverError(() => maxStretchLowerBound(JOBS, { nodes: 1, method: 'lp', lpSolve, crossCheck: false }));
      expect(e.kind, what).to.equal(kind);
      expect(e.message, what).to.match(msg);
      expect(e.solver).to.match(/javascript-lp-solver/);
    }
    record({ area: 'numerics', kind: 'LP solver throws, returns null / a string / a non-boolean verdict / NaN, or claims unbounded', cases: cases.length, outcome: 'SolverError (failure / unbounded) naming the stretch; no bound returned' });
  });

  it('a "feasible" answer whose solution breaks system (1) is caught as inconsistent', () => {
    // Claims feasible with every α at 0 (no job completes), or all work crammed into one interval.
    const empty = () => ({ feasible: true, bounded: true });
    const crammed = (m: LpModel) => {
      const out: Record<string, unknown> = { feasible: true, bounded: true };
      const first = new Map<string, string>();
      for (const [name, coef] of Object.entries(m.variables)) {
        const complete = Object.keys(coef).find((k) => k.startsWith('complete_'))!;
        if (!first.has(complete)) first.set(complete, name);
      }
      for (const name of first.values()) out[name] = 1;
      return out;
    };
    const tooBig = (m: LpModel) => ({ feasible: true, bounded: true, ...Object.fromEntries(Object.keys(m.variables).map((v) => [v, 5])) });
    let n = 0;
    for (const [what, lpSolve, msg] of [
      ['no work done', empty, /completes a fraction 0 of its work \(1a\)/],
      ['all work in the first interval', crammed, /\((1d|1e)\)/],
      ['α above its bound', tooBig, /outside \[0, .*\] \(1d\)/],
    ] as [string, (m: LpModel) => unknown, RegExp][]) {
      const e = solverError(() => maxStretchLowerBound(JOBS, { nodes: 1, method: 'lp', lpSolve, crossCheck: false }));
      expect(e.kind, what).to.equal('inconsistent');
      expect(e.message, what).to.match(msg);
      n++;
    }
    record({ area: 'numerics', kind: 'LP solver says "feasible" with a solution that breaks (1a), (1d) or (1e)', cases: n, outcome: 'SolverError inconsistent, naming the broken constraint' });
  });

  it('a solver that wrongly says "infeasible" is caught by the max-flow cross-check, or by the search guard without it', () => {
    const liar = () => ({ feasible: false, bounded: true });
    const e = solverError(() => maxStretchLowerBound(JOBS, { nodes: 1, method: 'lp', lpSolve: liar, crossCheck: true }));
    expect(e.kind).to.equal('inconsistent');
    expect(e.message).to.match(/LP says infeasible at stretch [\d.]+, max flow says the opposite/);
    // Cross-check on by default once invariant checks are on.
    setInvariantChecks(true);
    expect(solverError(() => stretchFeasible(JOBS, 3, { nodes: 1, method: 'lp', lpSolve: liar })).kind).to.equal('inconsistent');
    setInvariantChecks(false);
    // Without any check the search still refuses to run away.
    let guard: unknown = null;
    try {
      maxStretchLowerBound(JOBS, { nodes: 1, method: 'lp', lpSolve: liar, crossCheck: false });
    } catch (err) {
      guard = err;
    }
    expect(guard).to.be.instanceOf(InvariantError);
    expect((guard as InvariantError).invariant).to.equal('maxstretch/search');
    record({ area: 'numerics', kind: 'LP solver wrongly says "infeasible" (with cross-check, with invariant checks, with neither)', cases: 3, outcome: 'SolverError inconsistent; without checks an InvariantError from the search guard — never a wrong bound' });
  });

  it('models above lpMaxVariables and solves past lpTimeLimitMs are refused as too-large / timeout', () => {
    expect(solverError(() => maxStretchLowerBound(JOBS, { nodes: 1, method: 'lp', lpMaxVariables: 1 })).kind).to.equal('too-large');
    const slow = (m: LpModel) => {
      const until = Date.now() + 30;
      while (Date.now() < until) {
        /* a slow solve */
      }
      return { feasible: true, bounded: true, ...Object.fromEntries(Object.keys(m.variables).map((v) => [v, 0])) };
    };
    const e = solverError(() => maxStretchLowerBound(JOBS, { nodes: 1, method: 'lp', lpSolve: slow, lpTimeLimitMs: 5 }));
    expect(e.kind).to.equal('timeout');
    expect(e.message).to.match(/above lpTimeLimitMs = 5/);
    // The real solver on a small instance, well within its budget, agrees with max flow.
    const lp = maxStretchLowerBound(JOBS, { nodes: 1, method: 'lp', crossCheck: true, tolerance: 1e-6 });
    expect(lp.bound).to.be.closeTo(1.5, 1e-4);
    record({ area: 'numerics', kind: 'LP model above the size limit; solve past the time budget', cases: 2, outcome: 'SolverError too-large / timeout (javascript-lp-solver cannot interrupt a pure LP: checked after each solve)' });
  });
});

describe('hardening: the bound against real schedules (cross-check)', function () {
  this.timeout(5 * 60 * 1000); // a guard against hangs: the suite runs beside notebook executions
  before(() => setInvariantChecks(true));
  after(() => setInvariantChecks(undefined));

  it('no FCFS / EASY / conservative schedule has a smaller max bounded stretch than the lower bound', () => {
    let n = 0;
    let tight = 0;
    const arb = fc.integer({ min: 1, max: 6 }).chain((nodes) =>
      fc.record({
        nodes: fc.constant(nodes),
        policy: fc.constantFrom<BatchPolicy>('fcfs', 'easy', 'conservative'),
        jobs: fc.array(fc.record({ submit: fc.integer({ min: 0, max: 400 }), runtime: fc.integer({ min: 0, max: 300 }), tasks: fc.integer({ min: 1, max: nodes }) }), { minLength: 1, maxLength: 12 }),
      }),
    );
    fc.assert(
      fc.property(arb, ({ nodes, policy, jobs: raw }) => {
        n++;
        // Whole nodes at full speed: a batch schedule is a valid schedule of the relaxed model of Theorem 1.
        const dfrs = raw.map((r, i) => job(i + 1, r.submit, r.runtime, r.tasks, 1));
        const schedule = simulateBatch(raw.map((r, i) => ({ id: i + 1, submit: r.submit, runtime: r.runtime, procs: r.tasks })), { machineSize: nodes, policy });
        const achieved = Math.max(...schedule.map((s) => boundedStretch(s.end - s.submit, s.runtime)));
        const { bound, upper } = maxStretchLowerBound(dfrs, { nodes, tolerance: 1e-6 });
        expect(bound, `${policy} on ${nodes} nodes`).to.be.at.most(achieved * (1 + 1e-9));
        if (upper >= achieved * (1 - 1e-6)) tight++;
      }),
      { numRuns: 250, seed: 301 },
    );
    record({ area: 'numerics', kind: 'lower bound vs FCFS/EASY/conservative schedules of the same random jobs', cases: n, outcome: `bound ≤ achieved max bounded stretch in every case (schedule optimal up to the bound's tolerance in ${tight})` });
  });
});
