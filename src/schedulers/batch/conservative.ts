/**
 * Offline conservative backfilling ("CBF-like" list scheduling): jobs are
 * taken in the given order and each gets the earliest reservation in a
 * processor profile that does not move any earlier reservation. With all
 * jobs released at time 0 and exact durations this is the whole schedule —
 * the rigid baseline of the evolving-applications study. Shapes (steps of
 * different processor counts) are placed without stretching their steps.
 */
import { ProcessorProfile, ProfileStep } from '../../engine/profile';
import { InputError } from '../../util/errors';

/** A rigid job request for a plan: processors, estimate and release time. */
export interface RigidRequest {
  id: number | string;
  /** Processors for the whole duration (ignored when `steps` is given). */
  procs?: number;
  /** Duration in seconds (ignored when `steps` is given). */
  duration?: number;
  /** A staircase of steps instead of a rectangle. */
  steps?: ProfileStep[];
  /** Earliest start (default 0). */
  release?: number;
}

/** A job with the start time a conservative-backfilling plan reserved for it. */
export interface PlannedJob {
  id: number | string;
  start: number;
  end: number;
}

/**
 * Plan `requests` in order on `machineSize` processors. Pass `profile` to
 * plan on top of existing reservations (it is modified); otherwise a fresh
 * profile starting at 0 is used.
 */
export function conservativeSchedule(
  requests: readonly RigidRequest[],
  machineSize: number,
  options: { profile?: ProcessorProfile } = {},
): PlannedJob[] {
  const profile = options.profile ?? new ProcessorProfile(machineSize, 0);
  if (profile.capacity !== machineSize) throw new InputError(`conservativeSchedule: profile capacity ${profile.capacity} differs from machineSize ${machineSize}`, { source: 'conservativeSchedule' });
  return requests.map((r) => {
    const steps: ProfileStep[] = r.steps ?? [{ procs: r.procs ?? NaN, duration: r.duration ?? NaN }];
    for (const s of steps) {
      if (!(s.procs >= 0) || !Number.isFinite(s.procs)) throw new InputError(`conservativeSchedule: job ${r.id} has processors ${s.procs}`, { source: 'conservativeSchedule' });
      if (s.procs > machineSize) throw new InputError(`conservativeSchedule: job ${r.id} needs ${s.procs} processors but the machine has ${machineSize}`, { source: 'conservativeSchedule' });
      if (!(s.duration >= 0) || !Number.isFinite(s.duration)) throw new InputError(`conservativeSchedule: job ${r.id} has duration ${s.duration}`, { source: 'conservativeSchedule' });
    }
    const t = profile.earliestStartShape(steps, Math.max(r.release ?? 0, profile.origin));
    const end = profile.reserveShape(t, steps);
    return { id: r.id, start: t, end };
  });
}
