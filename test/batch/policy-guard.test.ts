/**
 * A batch user policy cannot hurt the run (issue 27, section 3): a throw or a
 * slow decision is a PolicyError naming the policy, its module, the decision
 * and the simulated time; the queue and profile it is handed are read-only.
 */
import { expect } from 'chai';
import * as path from 'path';
import { BatchSchedulingPolicy, BUILTIN_BATCH_POLICIES, simulateBatch } from '../../src/schedulers/batch';
import { setPolicyBudget } from '../../src/util/policy-guard';
import { BatchState } from '../../src/schedulers/batch/state';
import { InvariantError } from '../../src/util/invariants';
import { busyWait, policyError } from '../support/helpers';
import { batchJobs, batchProfileWriter, batchReverser, batchThrower } from '../support/broken-policies';

const MODULE = path.join(__dirname, '..', 'support', 'broken-policies.ts');
const run = (policy: Parameters<typeof simulateBatch>[1]['policy']) => simulateBatch(batchJobs(), { machineSize: 64, policy, estimates: 'requested' });

describe('batch: a user policy cannot hurt the run', () => {
  afterEach(() => setPolicyBudget(undefined));

  it('a throw names the policy, the decision and the simulated time (and the module when loaded from one)', () => {
    const e = policyError(() => run(batchThrower), { policy: 'batch-thrower', decision: 'schedule' });
    expect(e.message).to.match(/Error: no room for you$/);
    expect((e.cause as Error).message).to.equal('no room for you');
    expect(e.time).to.be.greaterThan(0);
    const m = policyError(() => run({ module: MODULE, export: 'batchThrower' }), { policy: 'batch-thrower', decision: 'schedule', module: `${MODULE}#batchThrower` });
    expect(m.time).to.equal(e.time);
  });

  it('onJobSubmitted and onJobCompleted are guarded too', () => {
    const onSubmit: BatchSchedulingPolicy = { ...BUILTIN_BATCH_POLICIES.easy, name: 'on-submit', onJobSubmitted: (job) => { if (job === 7) throw new Error('seven'); } };
    policyError(() => run(onSubmit), { policy: 'on-submit', decision: 'onJobSubmitted' });
    const onComplete: BatchSchedulingPolicy = { ...BUILTIN_BATCH_POLICIES.easy, name: 'on-complete', onJobCompleted: () => { throw 'a string'; } };
    const e = policyError(() => run(onComplete), { policy: 'on-complete', decision: 'onJobCompleted' });
    expect(e.message).to.contain('threw "a string"');
  });

  it('reversing the array ctx.waiting() returns is an error, never a reordered engine queue', () => {
    const e = policyError(() => run(batchReverser), { policy: 'batch-reverser', decision: 'schedule' });
    expect(e.cause).to.be.instanceOf(TypeError);
  });

  it('a copy of the queue taken by the policy may be reordered freely: same schedule as the built-in', () => {
    const copying: BatchSchedulingPolicy = {
      name: 'copying-easy',
      schedule(ctx) {
        [...ctx.waiting()].reverse();
        return BUILTIN_BATCH_POLICIES.easy.schedule(ctx);
      },
    };
    expect(JSON.stringify(run(copying))).to.equal(JSON.stringify(run('easy')));
  });

  it('the profile answers queries only: booking in it is an error', () => {
    const e = policyError(() => run(batchProfileWriter), { policy: 'batch-profile-writer', decision: 'schedule' });
    expect(e.message).to.match(/TypeError: .*reserve is not a function/);
  });

  it('the context is not the engine state: its internals are out of reach', () => {
    let seen: unknown;
    const peek: BatchSchedulingPolicy = {
      name: 'peek',
      schedule(ctx) {
        seen = (ctx as unknown as { queue?: unknown; start?: unknown }).queue ?? (ctx as unknown as { start?: unknown }).start;
        return BUILTIN_BATCH_POLICIES.easy.schedule(ctx);
      },
    };
    run(peek);
    expect(seen).to.equal(undefined);
  });

  it('a decision over the time budget is a named error; budget 0 turns the limit off', () => {
    // The budget is far above an ordinary decision even on a loaded machine, so
    // the one slow decision (the fifth) is the one reported. busyWait counts whole
    // milliseconds of Date.now, so 250 ms may measure 249.x.
    let calls = 0;
    let slowAt = NaN;
    const slow: BatchSchedulingPolicy = {
      name: 'slow',
      schedule(ctx) {
        if (++calls === 5) {
          slowAt = ctx.now;
          busyWait(250);
        }
        return BUILTIN_BATCH_POLICIES.easy.schedule(ctx);
      },
    };
    setPolicyBudget(0.1);
    const e = policyError(() => run(slow), { policy: 'slow', decision: 'schedule', kind: 'over-budget' });
    expect(e.message).to.match(/took 0\.[2-9]\d* s|took [1-9]/).and.contain('budget of 0.1 s');
    expect(e.time).to.equal(slowAt);
    setPolicyBudget(0);
    calls = 0;
    expect(JSON.stringify(run(slow))).to.equal(JSON.stringify(run('easy')));
  });

  it("the invariant checks catch a reordered engine queue (what a policy handed the engine's own state could do)", () => {
    // Built-ins get the state itself; this is what the checks see if one of them reorders the queue.
    const n = 4;
    const f = (xs: number[]) => Float64Array.from(xs);
    const jobs = { length: n, id: (i: number) => 100 + i, job: (i: number) => ({ id: 100 + i, submit: i, runtime: 10, procs: 1 }) };
    const order = Int32Array.from([0, 1, 2, 3]);
    const state = new BatchState(jobs, 1, f([0, 1, 2, 3]), f([10, 10, 10, 10]), f([10, 10, 10, 10]), Int32Array.from([1, 1, 1, 1]), order, 'fcfs', BUILTIN_BATCH_POLICIES.easy, true, false, undefined);
    for (let i = 0; i < n; i++) state.arrive(i);
    (state.waiting() as number[]).reverse();
    expect(() => state.waiting()).to.throw(InvariantError, /invariant batch\/queue broken \(job 102, time 0\): policy easy: the queue is out of arrival order: job 103 before it/);
  });
});
