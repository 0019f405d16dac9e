/** Small helpers shared by tests. */
import { expect } from 'chai';
import { InvariantError } from '../../src/util/invariants';
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
