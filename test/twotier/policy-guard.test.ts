/**
 * A two-tier user policy cannot hurt the run (issue 27, section 3): a throw or
 * a slow decision is a PolicyError naming the policy, its module, the decision
 * and the simulated time; job views, arrays and queues it sees are read-only.
 */
import { expect } from 'chai';
import * as path from 'path';
import { BUILTIN_TWO_TIER_POLICIES, simulateTwoTier, TwoTierPolicySpec, TwoTierSchedulingPolicy } from '../../src/schedulers/twotier';
import { setPolicyBudget } from '../../src/util/policy-guard';
import { Simulation } from '../../src/engine/events';
import { SimJob, TwoTierState } from '../../src/schedulers/twotier/state';
import { decisionContext } from '../../src/schedulers/twotier/decisions';
import { InvariantError } from '../../src/util/invariants';
import { busyWait, policyError } from '../support/helpers';
import { twoTierJobs, twoTierQueueSorter, twoTierReverser, twoTierThrower, twoTierViewWriter } from '../support/broken-policies';

const MODULE = path.join(__dirname, '..', 'support', 'broken-policies.ts');
const run = (policy: TwoTierPolicySpec) => simulateTwoTier(twoTierJobs(), { machineSize: 320, policy, log: true });
const measy = BUILTIN_TWO_TIER_POLICIES.measy;

describe('two-tier: a user policy cannot hurt the run', () => {
  afterEach(() => setPolicyBudget(undefined));

  it('a throw names the policy, the decision and the simulated time (and the module when loaded from one)', () => {
    const e = policyError(() => run(twoTierThrower), { policy: 'twotier-thrower', decision: 'schedule' });
    expect(e.message).to.match(/RangeError: an hour is enough$/);
    expect(e.time).to.be.greaterThan(0);
    const m = policyError(() => run({ module: MODULE, export: 'twoTierThrower' }), { policy: 'twotier-thrower', decision: 'schedule', module: `${MODULE}#twoTierThrower` });
    expect(m.time).to.equal(e.time);
  });

  it('onJobSubmitted and onJobCompleted are guarded too', () => {
    const onSubmit: TwoTierSchedulingPolicy = { ...measy, name: 'on-submit', onJobSubmitted: (j) => { if (j.index === 4) throw new Error('four'); } };
    policyError(() => run(onSubmit), { policy: 'on-submit', decision: 'onJobSubmitted' });
    const onComplete: TwoTierSchedulingPolicy = { ...measy, name: 'on-complete', onJobCompleted: () => { throw new Error('done'); } };
    policyError(() => run(onComplete), { policy: 'on-complete', decision: 'onJobCompleted' });
  });

  it('reversing ctx.waiting(), sorting ctx.queued() or writing to a job view is an error, never a changed engine', () => {
    for (const [policy, name] of [[twoTierReverser, 'twotier-reverser'], [twoTierQueueSorter, 'twotier-queue-sorter'], [twoTierViewWriter, 'twotier-view-writer']] as const) {
      const e = policyError(() => run(policy), { policy: name, decision: 'schedule' });
      expect(e.cause, name).to.be.instanceOf(TypeError);
    }
  });

  it('views are enough for the built-in logic: a renamed MEASY gives MEASY\'s run, log included', () => {
    const copy = run({ ...measy, name: 'measy' });
    expect(JSON.stringify(copy)).to.equal(JSON.stringify(run('measy')));
  });

  it('a job view is not the engine job: its bookkeeping is out of reach, and processors is a copy', () => {
    const seen: unknown[] = [];
    const peek: TwoTierSchedulingPolicy = {
      ...measy,
      name: 'peek',
      schedule(ctx) {
        for (const j of ctx.foregroundJobs()) {
          seen.push((j as unknown as { progress?: number }).progress);
          j.processors[0] = -1;
        }
        return measy.schedule(ctx);
      },
    };
    expect(JSON.stringify(run(peek).jobs)).to.equal(JSON.stringify(run('measy').jobs));
    expect(seen.length).to.be.greaterThan(0);
    expect(seen.every((p) => p === undefined)).to.equal(true);
  });

  it('a decision over the time budget is a named error; budget 0 turns the limit off', () => {
    let calls = 0;
    const slow: TwoTierSchedulingPolicy = {
      ...measy,
      name: 'slow',
      schedule(ctx) {
        if (++calls === 5) busyWait(250);
        return measy.schedule(ctx);
      },
    };
    setPolicyBudget(0.1);
    policyError(() => run(slow), { policy: 'slow', decision: 'schedule', kind: 'over-budget' });
    setPolicyBudget(0);
    calls = 0;
    expect(JSON.stringify(run(slow).jobs)).to.equal(JSON.stringify(run('measy').jobs));
  });

  it("the invariant checks catch reordered engine queues (what a policy handed the engine's own context could do)", () => {
    // Built-ins get the engine's context; this is what the checks see after a pass if one of them reorders a queue.
    const job = (index: number, estimate: number) =>
      ({ index, job: { id: 10 + index, submit: 0, runtime: estimate, procs: 1 }, size: 1, estimate, tier: 'pending', processors: new Int32Array(1) }) as unknown as SimJob;
    const st = new TwoTierState(new Simulation(), [job(0, 30), job(1, 20), job(2, 10)], 'measy', {
      machineSize: 4, migrationCost: 20, placementThreshold: 0.96, knowUsage: true, timeSlice: 0, remainingEstimates: false, reasyReservation: 'text', checks: true,
    });
    for (const j of st.all) st.enqueue(j);
    const ctx = decisionContext(st, measy);
    st.checkQueues();
    (ctx.queued() as SimJob[]).reverse();
    expect(() => st.checkQueues()).to.throw(InvariantError, /twotier\/queue broken \(job 11, time 0\): measy: the SJF queue is out of order: job 10 before it/);
    (ctx.queued() as SimJob[]).reverse();
    (ctx.waiting() as SimJob[]).reverse();
    expect(() => st.checkQueues()).to.throw(InvariantError, /twotier\/queue broken \(job 11, time 0\): measy: the waiting list is out of arrival order: job 12 before it/);
  });
});
