/**
 * System-centric and user-centric metrics for evolving-application schedules
 * (section 5). The extracted paper text lost the exact metric lists; these are
 * reconstructed from its discussion, which names resource utilisation,
 * effective resource utilisation, makespan, resource waste and scheduling
 * time (administrator's view) and per-application waste, completion time,
 * waiting time and expansion (user's view).
 *
 * All applications are queued at time 0 (offline problem), so an
 * application's completion time is its response time and its waiting time is
 * its start time.
 */
import { InputError } from '../util/errors';

/** A step of an evolution profile: `nodes` held for `duration` seconds. */
export interface NodeStep {
  duration: number;
  nodes: number;
}

/** One scheduled application, as the metrics need it (the evolving family's `AppSchedule` is one). */
export interface ScheduledApp {
  id: number;
  requested: readonly NodeStep[];
  start: number;
  allocation: readonly NodeStep[];
  completion: number;
}

/** A schedule, as the metrics need it (the evolving family's `EvolvingSchedule` is one). */
export interface ScheduledApps {
  algorithm: string;
  nodes: number;
  apps: readonly ScheduledApp[];
}

function totalDuration(steps: readonly NodeStep[]): number {
  let t = 0;
  for (const s of steps) t += s.duration;
  return t;
}

/** Node·seconds of the steps. */
function area(steps: readonly NodeStep[]): number {
  let a = 0;
  for (const s of steps) a += s.duration * s.nodes;
  return a;
}

/** Administrator's view of one schedule. */
export interface EvolvingSystemMetrics {
  algorithm: string;
  /** Latest completion time, s. */
  makespan: number;
  /** Allocated node·s / (cluster nodes × makespan): nodes held, used or not. */
  resourceUtilization: number;
  /** Requested (useful) node·s / (cluster nodes × makespan). */
  effectiveUtilization: number;
  /** Allocated but unused node·s: expansions for evolving variants, peak-minus-actual for rigid. */
  resourceWaste: number;
  /** resourceWaste / allocated node·s. */
  wasteFraction: number;
  /** Wall-clock time to compute the schedule, ms (NaN when not measured). */
  schedulingTime: number;
}

/** User's view of one application. */
export interface EvolvingAppMetrics {
  algorithm: string;
  id: number;
  /** Allocated minus requested node·s of this application. */
  waste: number;
  /** Completion (= response) time, s. */
  completionTime: number;
  /** Start time, s. */
  waitingTime: number;
  /** Steps whose scheduled duration exceeds the requested one. */
  expandedSteps: number;
  /** Total scheduled duration over total requested duration, minus 1 (0 = no expansion). */
  expansion: number;
  /** Largest scheduled/requested duration ratio over the steps (1 = no expansion). */
  maxStepExpansion: number;
}

/** Per-application metrics of a schedule. */
export function appMetrics(schedule: ScheduledApps): EvolvingAppMetrics[] {
  return schedule.apps.map((a) => appMetricsOf(a, schedule.algorithm));
}

/** Metrics of one scheduled application. */
export function appMetricsOf(app: ScheduledApp, algorithm = ''): EvolvingAppMetrics {
  let expandedSteps = 0;
  let maxStepExpansion = 1;
  // Step-wise expansion only makes sense when the allocation keeps the requested steps (not for rigid).
  if (app.allocation.length === app.requested.length) {
    app.allocation.forEach((s, i) => {
      const r = app.requested[i].duration;
      if (s.duration > r) expandedSteps++;
      maxStepExpansion = Math.max(maxStepExpansion, s.duration / r);
    });
  }
  const requestedDuration = totalDuration(app.requested);
  return {
    algorithm,
    id: app.id,
    waste: area(app.allocation) - area(app.requested),
    completionTime: app.completion,
    waitingTime: app.start,
    expandedSteps,
    expansion: requestedDuration > 0 ? totalDuration(app.allocation) / requestedDuration - 1 : 0,
    maxStepExpansion,
  };
}

/** System-centric metrics of a schedule; pass the measured scheduling time (ms) if known. */
export function systemMetrics(schedule: ScheduledApps, schedulingTime = NaN): EvolvingSystemMetrics {
  let makespan = 0;
  let allocated = 0;
  let useful = 0;
  for (const a of schedule.apps) {
    makespan = Math.max(makespan, a.completion);
    allocated += area(a.allocation);
    useful += area(a.requested);
  }
  const capacity = schedule.nodes * makespan;
  return {
    algorithm: schedule.algorithm,
    makespan,
    resourceUtilization: capacity > 0 ? allocated / capacity : 0,
    effectiveUtilization: capacity > 0 ? useful / capacity : 0,
    resourceWaste: allocated - useful,
    wasteFraction: allocated > 0 ? (allocated - useful) / allocated : 0,
    schedulingTime,
  };
}

/**
 * How unequally waste is split among applications: the share of the total
 * waste held by the `top` fraction of applications that waste most (e.g. 0.1
 * for the top 10%). 0 when nothing is wasted.
 */
export function topWasteShare(wastes: readonly number[], top = 0.1): number {
  if (!(top > 0 && top <= 1)) throw new InputError(`topWasteShare: top must be in (0, 1], got ${top}`, { source: 'topWasteShare' });
  const total = wastes.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return 0;
  const sorted = [...wastes].sort((a, b) => b - a);
  const k = Math.max(1, Math.ceil(top * sorted.length));
  return sorted.slice(0, k).reduce((a, b) => a + b, 0) / total;
}
