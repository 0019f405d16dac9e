/**
 * User policies that misbehave, one set per family (batch, DFRS, reservation,
 * two-tier), loaded by `{ module, export }` in the tests of the policy guard
 * (util/policy-guard.ts), and a sweep cell that runs one of them.
 * Each misbehaves only once the run is under way, so the simulated time of
 * the failure is not the first instant.
 */
import type { BatchSchedulingPolicy } from '../../src/schedulers/batch';
import type { TwoTierSchedulingPolicy } from '../../src/schedulers/twotier';
import type { AvailabilityRectangle, ReservationPolicyObject } from '../../src/schedulers/reservation';
import type { DfrsPolicy } from '../../src/schedulers/dfrs/policy';

// Each family's code is required when first used, so that a sweep worker
// running one family's policy transpiles only that family's sources (loading
// all four took a worker about 5 s CPU).
/* eslint-disable @typescript-eslint/no-var-requires */
const batch = (): typeof import('../../src/schedulers/batch') => require('../../src/schedulers/batch');
const twoTier = (): typeof import('../../src/schedulers/twotier') => require('../../src/schedulers/twotier');
const reservation = (): typeof import('../../src/schedulers/reservation') => require('../../src/schedulers/reservation');
const dfrsSimulator = (): typeof import('../../src/schedulers/dfrs/simulator') => require('../../src/schedulers/dfrs/simulator');
const dfrsWorkloads = (): typeof import('../../src/workloads/dfrs') => require('../../src/workloads/dfrs');
const lublin = (): typeof import('../../src/workloads/lublin') => require('../../src/workloads/lublin');
/* eslint-enable @typescript-eslint/no-var-requires */
const easy = { schedule: (ctx: Parameters<BatchSchedulingPolicy['schedule']>[0]) => batch().BUILTIN_BATCH_POLICIES.easy.schedule(ctx) };
const measy = { schedule: (ctx: Parameters<TwoTierSchedulingPolicy['schedule']>[0]) => twoTier().BUILTIN_TWO_TIER_POLICIES.measy.schedule(ctx) };
const loopForever = (): never => {
  for (;;) {
    /* never returns */
  }
};

// ---- workloads --------------------------------------------------------------------------------
export const batchJobs = () => lublin().generateLublin({ jobs: 200, machineSize: 64, seed: 3 });
export const twoTierJobs = () => twoTier().measyWorkload({ workload: 'jann', jobs: 120, load: 0.9, seed: 2 });
export const dfrsJobs = () => {
  const { scaleToLoad, syntheticDfrsTrace } = dfrsWorkloads();
  return scaleToLoad(syntheticDfrsTrace({ seed: 4, jobs: 60, nodes: 64, cores: 4 }), 0.9, 64);
};
export const reservationRequests = () => reservation().lublinReservationRequests({ jobs: 100, seed: 'guard', uMed: 7, artimeFactor: 3, deadlineFactor: 3 });

// ---- batch --------------------------------------------------------------------------------------
/** EASY until three jobs wait, then a throw. */
export const batchThrower: BatchSchedulingPolicy = {
  name: 'batch-thrower',
  schedule(ctx) {
    if (ctx.queueLength >= 3) throw new Error('no room for you');
    return easy.schedule(ctx);
  },
};
/** Reverses the queue it is given, then starts what fits in that order. */
export const batchReverser: BatchSchedulingPolicy = {
  name: 'batch-reverser',
  schedule(ctx) {
    const q = ctx.waiting() as number[];
    q.reverse();
    for (const i of q) if (!ctx.isRunning(i) && ctx.procs(i) <= ctx.free) ctx.startJob(i);
  },
};
/** Books processors in the engine's profile behind its back (the profile is typed read-only). */
export const batchProfileWriter: BatchSchedulingPolicy = {
  name: 'batch-profile-writer',
  schedule(ctx) {
    const p = ctx.profile as unknown as { reserve(start: number, end: number, procs: number): void };
    if (ctx.queueLength >= 3) p.reserve(ctx.now, ctx.now + 1000, 1);
    return easy.schedule(ctx);
  },
};
/** EASY until three jobs wait, then never returns. */
export const batchLooper: BatchSchedulingPolicy = {
  name: 'batch-looper',
  schedule(ctx) {
    if (ctx.queueLength >= 3) loopForever();
    return easy.schedule(ctx);
  },
};

// ---- two-tier -----------------------------------------------------------------------------------
export const twoTierThrower: TwoTierSchedulingPolicy = {
  name: 'twotier-thrower',
  movesBackgroundJobs: true,
  schedule(ctx) {
    if (ctx.now > 3600) throw new RangeError('an hour is enough');
    return measy.schedule(ctx);
  },
};
/** Reverses `ctx.waiting()` before MEASY reads it. */
export const twoTierReverser: TwoTierSchedulingPolicy = {
  name: 'twotier-reverser',
  movesBackgroundJobs: true,
  schedule(ctx) {
    (ctx.waiting() as unknown as unknown[]).reverse();
    return measy.schedule(ctx);
  },
};
/** Halves the estimate of every waiting job (a job view is the engine's job today). */
export const twoTierViewWriter: TwoTierSchedulingPolicy = {
  name: 'twotier-view-writer',
  movesBackgroundJobs: true,
  schedule(ctx) {
    for (const j of ctx.waiting()) (j as { estimate: number }).estimate = j.estimate / 2;
    return measy.schedule(ctx);
  },
};
/** Sorts the live queued() list by size instead of SJF. */
export const twoTierQueueSorter: TwoTierSchedulingPolicy = {
  name: 'twotier-queue-sorter',
  movesBackgroundJobs: true,
  schedule(ctx) {
    (ctx.queued() as unknown as { size: number }[]).sort((a, b) => a.size - b.size);
    return measy.schedule(ctx);
  },
};
export const twoTierLooper: TwoTierSchedulingPolicy = {
  name: 'twotier-looper',
  movesBackgroundJobs: true,
  schedule(ctx) {
    if (ctx.now > 3600) loopForever();
    return measy.schedule(ctx);
  },
};

// ---- DFRS ---------------------------------------------------------------------------------------
/** Last submitted first, until a job has waited ten minutes. */
export const dfrsThrower: DfrsPolicy = {
  name: 'dfrs-thrower',
  priority(job) {
    if (job.flowTime > 600) throw new Error('waited too long');
    return job.submit;
  },
};
export const dfrsLooper: DfrsPolicy = {
  name: 'dfrs-looper',
  priority(job) {
    if (job.flowTime > 600) loopForever();
    return job.submit;
  },
};
/** A mapper that throws once two jobs are in the system. */
export const dfrsMapThrower: DfrsPolicy = {
  name: 'dfrs-map-thrower',
  map(view) {
    if (view.jobs.length >= 2) throw new TypeError('cannot map');
    return undefined;
  },
};

// ---- reservation ---------------------------------------------------------------------------------
export const reservationThrower: ReservationPolicyObject = {
  name: 'reservation-thrower',
  score(r, ctx) {
    if ((ctx.request.id ?? 0) >= 5) throw new Error('refusing to score');
    return r.start;
  },
};
/** First Fit that also books the PEs itself, in the engine's structure. */
export const reservationProfileWriter: ReservationPolicyObject = {
  name: 'reservation-profile-writer',
  choose(candidates, ctx) {
    let first: AvailabilityRectangle | undefined;
    for (const r of candidates) {
      first = r;
      break;
    }
    if (first && (ctx.request.id ?? 0) >= 5) {
      const profile = ctx.profile as unknown as { addAllocation(start: number, end: number, pes: Uint32Array): void; busyAt(t: number): Uint32Array };
      profile.addAllocation(first.start, first.start + ctx.request.duration, profile.busyAt(-1));
    }
    return first;
  },
};
export const reservationLooper: ReservationPolicyObject = {
  name: 'reservation-looper',
  score(r, ctx) {
    if ((ctx.request.id ?? 0) >= 5) loopForever();
    return r.start;
  },
};

// ---- a sweep cell -------------------------------------------------------------------------------
/** Each family's policy that never returns, by export name. */
export const LOOPERS = { batch: 'batchLooper', twotier: 'twoTierLooper', dfrs: 'dfrsLooper', reservation: 'reservationLooper' } as const;

/**
 * Run one family's simulation with the policy the params name (`looper`: that
 * family's looper, loaded from this module). Each family's cell module
 * (test/sweep/fixtures/loopers/<family>.ts) calls it once with the built-in
 * policy as the worker loads, before the cell's time-out starts: only that
 * family's code is loaded (a worker transpiles every .ts it loads), and the
 * timed cell reaches its looping policy call within milliseconds, even on a
 * loaded machine.
 */
export function brokenPolicyCell(p: { family: keyof typeof LOOPERS; policy?: any; looper?: boolean }): Record<string, number> {
  if (p.looper) p = { family: p.family, policy: { module: __filename, export: LOOPERS[p.family] } };
  switch (p.family) {
    case 'batch':
      return { jobs: batch().simulateBatch(batchJobs(), { machineSize: 64, policy: p.policy }).length };
    case 'twotier':
      return { jobs: twoTier().simulateTwoTier(twoTierJobs(), { machineSize: 320, policy: p.policy }).jobs.length };
    case 'dfrs':
      return { jobs: dfrsSimulator().simulateDfrs(dfrsJobs(), { nodes: 64, algorithm: 'GreedyPM */opt=min', policy: p.policy }).jobs.length };
    default:
      return { jobs: reservation().simulateReservations(reservationRequests(), { machineSize: 1024, policy: p.policy }).length };
  }
}
