/**
 * How the two-tier engine runs a user policy: every job it sees is a
 * read-only view (getters over the engine's job, no setters; `processors`
 * and `job` are copies), every array a frozen copy or, for the live
 * `queued()`, a proxy that refuses writes; decisions naming views are mapped
 * back to the engine's jobs; and each call runs under a PolicyGuard
 * (util/policy-guard.ts). Built-in policies get the engine's objects.
 */
import { PolicyGuard, frozenCopy } from '../../util/policy-guard';
import type { TwoTierContext, TwoTierDecision, TwoTierJobView, TwoTierSchedulingPolicy, TwoTierTier } from './policies';
import type { TwoTierJob } from './simulator';

/** A read-only view of one engine job. */
function jobView(j: TwoTierJobView): TwoTierJobView {
  const input: TwoTierJob = Object.freeze({ ...j.job, ...(j.job.cpuUsage ? { cpuUsage: Object.freeze(Array.from(j.job.cpuUsage)) } : {}) });
  return Object.freeze({
    get job(): TwoTierJob { return input; },
    get index(): number { return j.index; },
    get size(): number { return j.size; },
    get estimate(): number { return j.estimate; },
    get tier(): TwoTierTier { return j.tier; },
    get processors(): Int32Array { return j.processors.slice(); },
    get estimatedEnd(): number { return j.estimatedEnd; },
  });
}

const readOnly = (what: string) => () => {
  throw new TypeError(`${what} is read-only`);
};

/**
 * `policy` as the engine calls it: each method gets a read-only context and
 * job views instead of the engine's, under a guard. `jobs` are the engine's
 * jobs in arrival order (a view's `index`).
 */
export function guardedTwoTierPolicy(policy: TwoTierSchedulingPolicy, jobs: readonly TwoTierJobView[], clock: () => number): TwoTierSchedulingPolicy {
  const guard = new PolicyGuard(policy, clock);
  const views: (TwoTierJobView | undefined)[] = new Array(jobs.length);
  const view = (j: TwoTierJobView): TwoTierJobView => (views[j.index] ??= jobView(j));
  const viewOrNull = (j: TwoTierJobView | null) => (j === null ? null : view(j));
  /** The engine's job behind a view; anything else is passed on for the engine to reject. */
  const engineJob = <T>(ref: T): T => {
    const v = ref as unknown as TwoTierJobView;
    return v !== null && typeof v === 'object' && views[v.index] === v ? (jobs[v.index] as unknown as T) : ref;
  };
  const engineDecision = (d: TwoTierDecision): TwoTierDecision => (d !== null && typeof d === 'object' ? ({ ...d, job: engineJob(d.job) } as TwoTierDecision) : d);

  let inner: TwoTierContext | undefined;
  let queuedView: readonly TwoTierJobView[] | undefined;
  let liveQueue: readonly TwoTierJobView[] | undefined;
  const ctx: TwoTierContext = Object.freeze({
    get now() { return inner!.now; },
    get machineSize() { return inner!.machineSize; },
    get idleForeground() { return inner!.idleForeground; },
    get migrationCost() { return inner!.migrationCost; },
    get remainingEstimates() { return inner!.remainingEstimates; },
    get reasyReservation() { return inner!.reasyReservation; },
    waiting: () => frozenCopy(inner!.waiting().map(view)),
    queued() {
      // Live, as for built-ins (a start removes the job), and read-only: a proxy over the engine's array.
      const q = inner!.queued();
      if (q !== liveQueue) {
        liveQueue = q;
        queuedView = new Proxy(q as TwoTierJobView[], {
          get(target, key, receiver) {
            if (typeof key === 'string' && key !== '' && Number(key) >= 0 && Number.isInteger(Number(key))) {
              const j = target[Number(key)];
              return j === undefined ? undefined : view(j);
            }
            return Reflect.get(target, key, receiver);
          },
          set: readOnly('ctx.queued()'),
          deleteProperty: readOnly('ctx.queued()'),
          defineProperty: readOnly('ctx.queued()'),
          setPrototypeOf: readOnly('ctx.queued()'),
        });
      }
      return queuedView!;
    },
    foregroundJobs: () => frozenCopy(Array.from(inner!.foregroundJobs(), view)),
    foregroundJob: (p: number) => viewOrNull(inner!.foregroundJob(p)),
    eligibleBackground: () => inner!.eligibleBackground(),
    canSwap: (j: TwoTierJobView) => inner!.canSwap(engineJob(j)),
    remainingEstimate: (j: TwoTierJobView) => inner!.remainingEstimate(engineJob(j)),
    apply: (d: TwoTierDecision) => inner!.apply(engineDecision(d)),
  });

  return {
    name: policy.name,
    ...(policy.movesBackgroundJobs !== undefined ? { movesBackgroundJobs: policy.movesBackgroundJobs } : {}),
    ...(policy.onJobSubmitted
      ? {
          onJobSubmitted(job: TwoTierJobView, engine: TwoTierContext) {
            inner = engine;
            guard.call('onJobSubmitted', () => policy.onJobSubmitted!(view(job), ctx));
          },
        }
      : {}),
    ...(policy.onJobCompleted
      ? {
          onJobCompleted(job: TwoTierJobView, engine: TwoTierContext) {
            inner = engine;
            guard.call('onJobCompleted', () => policy.onJobCompleted!(view(job), ctx));
          },
        }
      : {}),
    schedule(engine: TwoTierContext) {
      inner = engine;
      return guard.call('schedule', () => {
        const out = policy.schedule(ctx);
        return out ? Array.from(out, engineDecision) : out;
      });
    },
  };
}
