/** Small helpers shared by tests. */
import { expect } from 'chai';
import { InvariantError } from '../../src/util/invariants';
import { PolicyError, PolicyFailure } from '../../src/util/errors';
import { WorkloadJob } from '../../src/workloads/job';

/** A job by position: id, submit, processors, run time and (optionally) requested time. */
export const J = (id: number, submit: number, procs: number, runtime: number, requestedTime?: number): WorkloadJob => ({
  id,
  submit,
  procs,
  runtime,
  ...(requestedTime !== undefined ? { requestedTime } : {}),
});

/** The error thrown by `fn`, which must be an InvariantError. */
export function invariantError(fn: () => unknown): InvariantError {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(InvariantError);
    return e as InvariantError;
  }
  throw new Error('no error was thrown');
}

/**
 * Run `fn`, expect a PolicyError naming `policy`, its `decision` (and `module`
 * and `kind` when given) and a simulated time, and return it.
 */
export function policyError(fn: () => unknown, want: { policy: string; decision: string; module?: string; kind?: PolicyFailure }): PolicyError {
  try {
    fn();
  } catch (e) {
    expect(e, String((e as Error)?.stack)).to.be.instanceOf(PolicyError);
    const err = e as PolicyError;
    expect(err.policy).to.equal(want.policy);
    expect(err.decision).to.equal(want.decision);
    expect(err.kind).to.equal(want.kind ?? 'threw');
    if (want.module !== undefined) expect(err.module).to.equal(want.module);
    expect(err.time).to.be.a('number').and.satisfy(Number.isFinite);
    expect(err.message).to.contain(`policy '${want.policy}'`).and.contain(`${want.decision} at simulated time ${err.time}`);
    if (want.module !== undefined) expect(err.message).to.contain(want.module);
    return err;
  }
  throw new Error(`no PolicyError was thrown (expected one from policy '${want.policy}')`);
}

/** Spin for `ms` milliseconds of wall-clock time (a policy decision that is slow but returns). */
export function busyWait(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    /* spin */
  }
}
