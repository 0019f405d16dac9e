/**
 * How the batch engine runs a user policy: through a context that reaches the
 * engine's state only by the BatchContext methods (a private field, not the
 * state object itself), whose arrays are frozen copies and whose profile
 * answers queries only, with every call timed and named by a PolicyGuard
 * (util/policy-guard.ts). Built-in policies get the state itself.
 */
import { PolicyGuard, frozenCopy } from '../../util/policy-guard';
import type { BatchContext, BatchJobInfo, BatchSchedulingPolicy, BatchVariant, ReadonlyProcessorProfile } from './policies';
import type { BatchState } from './state';

/** The BatchContext a user policy sees. */
class BatchPolicyView implements BatchContext {
  readonly #s: BatchState;
  readonly #profile: ReadonlyProcessorProfile;

  constructor(state: BatchState) {
    this.#s = state;
    const s = state;
    // Queries only; the profile is re-read each time (the engine trims it to now).
    this.#profile = Object.freeze({
      get capacity() { return s.profile.capacity; },
      get origin() { return s.profile.origin; },
      get size() { return s.profile.size; },
      freeAt: (t: number) => s.profile.freeAt(t),
      minFree: (start: number, end: number) => s.profile.minFree(start, end),
      fits: (start: number, duration: number, procs: number) => s.profile.fits(start, duration, procs),
      earliestStart: (procs: number, duration: number, notBefore?: number) => s.profile.earliestStart(procs, duration, notBefore),
      segments: () => s.profile.segments(),
    });
  }

  /** Asking for it builds the engine's profile (from then on reservations are booked in it), as for built-ins. */
  get profile(): ReadonlyProcessorProfile {
    void this.#s.profile;
    return this.#profile;
  }
  get now(): number { return this.#s.now; }
  get machineSize(): number { return this.#s.machineSize; }
  get free(): number { return this.#s.free; }
  get endedEarly(): number { return this.#s.endedEarly; }
  get queueInArrivalOrder(): boolean { return this.#s.queueInArrivalOrder; }
  get queueLength(): number { return this.#s.queueLength; }
  get runningCount(): number { return this.#s.runningCount; }
  get variant(): BatchVariant { return this.#s.variant; }

  id(job: number): number { return this.#s.id(job); }
  submit(job: number): number { return this.#s.submit(job); }
  procs(job: number): number { return this.#s.procs(job); }
  estimate(job: number): number { return this.#s.estimate(job); }
  backfillLength(job: number): number { return this.#s.backfillLength(job); }
  wait(job: number): number { return this.#s.wait(job); }
  rank(job: number): number { return this.#s.rank(job); }
  job(job: number): BatchJobInfo { return this.#s.job(job); }
  isRunning(job: number): boolean { return this.#s.isRunning(job); }
  estimatedEnd(job: number): number { return this.#s.estimatedEnd(job); }
  reservation(job: number): number { return this.#s.reservation(job); }
  head(): number { return this.#s.head(); }
  /** A frozen copy: reordering it throws, and never reorders the engine's queue. */
  waiting(): readonly number[] { return frozenCopy(this.#s.waiting()); }
  running(k: number): number { return this.#s.running(k); }
  minWaitingProcs(): number { return this.#s.minWaitingProcs(); }
  backfillCandidate(after: number, shadow: number, extra: number): number { return this.#s.backfillCandidate(after, shadow, extra); }
  earliestStart(job: number): number { return this.#s.earliestStart(job); }
  startJob(job: number): void { this.#s.startJob(job); }
  reserve(job: number, time: number): void { this.#s.reserve(job, time); }
  cancelReservation(job: number): void { this.#s.cancelReservation(job); }
  wakeUpAt(time: number): void { this.#s.wakeUpAt(time); }
}

/**
 * `policy` as the engine calls it: the same methods, each one given the
 * read-only view instead of the state and run under a guard.
 */
export function guardedBatchPolicy(policy: BatchSchedulingPolicy, state: BatchState): BatchSchedulingPolicy {
  const guard = new PolicyGuard(policy, () => state.now);
  const ctx = new BatchPolicyView(state);
  return {
    name: policy.name,
    ...(policy.onJobSubmitted ? { onJobSubmitted: (job: number) => guard.call('onJobSubmitted', () => policy.onJobSubmitted!(job, ctx)) } : {}),
    ...(policy.onJobCompleted ? { onJobCompleted: (job: number) => guard.call('onJobCompleted', () => policy.onJobCompleted!(job, ctx)) } : {}),
    // The jobs it returns are read inside the guard too (a getter or iterator of the policy's may throw).
    schedule: () =>
      guard.call('schedule', () => {
        const out = policy.schedule(ctx);
        return out ? Array.from(out) : out;
      }),
  };
}
