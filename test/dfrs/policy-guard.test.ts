/**
 * A DFRS user policy cannot hurt the run (issue 27, section 3): a throw or a
 * slow decision in priority, map or allocate is a PolicyError naming the
 * policy, its module, the decision and the simulated time; the views it gets
 * are copies.
 */
import { expect } from 'chai';
import * as path from 'path';
import { simulateDfrs } from '../../src/schedulers/dfrs/simulator';
import { DfrsPolicy, DfrsPolicySpec } from '../../src/schedulers/dfrs/policy';
import { setPolicyBudget } from '../../src/util/policy-guard';
import { busyWait, policyError } from '../support/helpers';
import { dfrsJobs, dfrsMapThrower, dfrsThrower } from '../support/broken-policies';

const MODULE = path.join(__dirname, '..', 'support', 'broken-policies.ts');
const run = (policy: DfrsPolicySpec | undefined) => simulateDfrs(dfrsJobs(), { nodes: 64, algorithm: 'GreedyPM */opt=min', ...(policy ? { policy } : {}) });

describe('DFRS: a user policy cannot hurt the run', () => {
  afterEach(() => setPolicyBudget(undefined));

  it('a throw in priority names the policy, the decision and the simulated time (and the module when loaded from one)', () => {
    const e = policyError(() => run(dfrsThrower), { policy: 'dfrs-thrower', decision: 'priority' });
    expect(e.message).to.match(/Error: waited too long$/);
    expect(e.time).to.be.greaterThan(600);
    const m = policyError(() => run({ module: MODULE, export: 'dfrsThrower' }), { policy: 'dfrs-thrower', decision: 'priority', module: `${MODULE}#dfrsThrower` });
    expect(m.time).to.equal(e.time);
  });

  it('map and allocate are guarded too', () => {
    policyError(() => run(dfrsMapThrower), { policy: 'dfrs-map-thrower', decision: 'map' });
    const allocate: DfrsPolicy = { name: 'bad-allocate', allocate: (view) => new Map(view.jobs.map((j) => [j.id, (null as unknown as { x: number }).x])) };
    const e = policyError(() => run(allocate), { policy: 'bad-allocate', decision: 'allocate' });
    expect(e.cause).to.be.instanceOf(TypeError);
  });

  it('a policy that writes to its view changes nothing (the view is a copy)', () => {
    const vandal: DfrsPolicy = {
      name: 'vandal',
      priority(job) {
        const p = job.flowTime / Math.max(1, job.virtualTime) ** 2;
        const w = job as { submit: number; virtualTime: number; flowTime: number; nodes: number[] | null };
        w.submit = -1;
        w.virtualTime = 0;
        w.flowTime = 1e9;
        w.nodes?.fill(0);
        return p;
      },
    };
    const base: DfrsPolicy = { name: 'base', priority: (job) => job.flowTime / Math.max(1, job.virtualTime) ** 2 };
    expect(JSON.stringify(run(vandal).jobs)).to.equal(JSON.stringify(run(base).jobs));
  });

  it('a decision over the time budget is a named error; budget 0 turns the limit off', () => {
    let calls = 0;
    const slow: DfrsPolicy = { name: 'slow', priority: (job) => (++calls === 50 && busyWait(250), job.submit) };
    setPolicyBudget(0.1);
    policyError(() => run(slow), { policy: 'slow', decision: 'priority', kind: 'over-budget' });
    setPolicyBudget(0);
    calls = 0;
    const lifo: DfrsPolicy = { name: 'slow', priority: (job) => job.submit };
    expect(JSON.stringify(run(slow).jobs)).to.equal(JSON.stringify(run(lifo).jobs));
  });
});
