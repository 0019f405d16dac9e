/**
 * Invariants of an evolving-applications schedule, checked from the schedule
 * alone (the resource EP is rebuilt from the allocations, not read from the
 * scheduler). The schedulers call this when invariant checks are on (see
 * util/invariants.ts); tests can call it on any schedule.
 */
import { InvariantError } from '../../util/invariants';
import { delay, peakNodes, sumAll, totalDuration, EvolutionProfile } from './profile';
import type { EvolvingApp, EvolvingSchedule } from './list';

/** The rules an evolving schedule was built with, for the invariant check: expansion limit and rigid mode. */
export interface EvolvingCheckOptions {
  /** Largest allowed expansion factor of a step (default Infinity). */
  expandLimit?: number;
  /** Rigid schedule: each allocation is one block of peak nodes × total duration. */
  rigid?: boolean;
}

/** Relative slack for float sums of durations. */
const EPS = 1e-9;
const close = (a: number, b: number) => Math.abs(a - b) <= EPS * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * Throw an InvariantError unless `schedule` is a valid schedule of `apps`:
 *  - one entry per application, in queue order, with its requested EP (`evolving/apps`);
 *  - start finite and >= 0, completion = start + allocated duration (`evolving/release`, `evolving/completion`);
 *  - profile preserved (`evolving/profile`): the allocation has the requested
 *    steps with the same node counts, each at least as long as requested and
 *    at most `expandLimit` times as long; for rigid schedules one block of the
 *    peak node count for the total requested duration;
 *  - the cluster is never exceeded (`evolving/capacity`): the sum of all
 *    allocations stays <= `schedule.nodes` at every instant.
 */
export function verifyEvolvingSchedule(apps: readonly EvolvingApp[], schedule: EvolvingSchedule, options: EvolvingCheckOptions = {}): void {
  const limit = options.expandLimit ?? Infinity;
  if (schedule.apps.length !== apps.length) {
    throw new InvariantError('evolving/apps', `${schedule.apps.length} scheduled applications for ${apps.length} requested`);
  }
  apps.forEach((app, k) => {
    const a = schedule.apps[k];
    if (a.id !== app.id) throw new InvariantError('evolving/apps', `position ${k} holds application ${a.id}`, { job: app.id });
    if (!(Number.isFinite(a.start) && a.start >= 0)) {
      throw new InvariantError('evolving/release', `starts at ${a.start} (applications are released at 0)`, { job: app.id, time: a.start });
    }
    if (!close(a.completion, a.start + totalDuration(a.allocation))) {
      throw new InvariantError('evolving/completion', `completion ${a.completion} differs from start + allocated duration ${a.start + totalDuration(a.allocation)}`, { job: app.id });
    }
    const req = app.profile;
    if (options.rigid) {
      const want = { duration: totalDuration(req), nodes: peakNodes(req) };
      const got = a.allocation;
      if (got.length !== 1 || got[0].nodes !== want.nodes || !close(got[0].duration, want.duration)) {
        throw new InvariantError('evolving/profile', `rigid allocation ${JSON.stringify(got)}, expected ${JSON.stringify([want])}`, { job: app.id, time: a.start });
      }
      return;
    }
    if (a.allocation.length !== req.length) {
      throw new InvariantError('evolving/profile', `${a.allocation.length} allocated steps for ${req.length} requested`, { job: app.id, time: a.start });
    }
    let t = a.start;
    req.forEach((r, i) => {
      const s = a.allocation[i];
      const where = { job: app.id, time: t };
      if (s.nodes !== r.nodes) throw new InvariantError('evolving/profile', `step ${i} holds ${s.nodes} nodes, requested ${r.nodes}`, where);
      if (s.duration < r.duration && !close(s.duration, r.duration)) {
        throw new InvariantError('evolving/profile', `step ${i} lasts ${s.duration} s, shorter than the requested ${r.duration} s (work lost)`, where);
      }
      if (s.duration > limit * r.duration && !close(s.duration, limit * r.duration)) {
        throw new InvariantError('evolving/profile', `step ${i} lasts ${s.duration} s, more than ${limit} × the requested ${r.duration} s`, where);
      }
      t += s.duration;
    });
  });
  checkCapacity(sumAll(schedule.apps.map((a) => delay(a.allocation, a.start))), schedule.nodes);
}

/** Throw unless the resource EP stays within `nodes`. */
function checkCapacity(resource: EvolutionProfile, nodes: number): void {
  let t = 0;
  for (const s of resource) {
    if (s.duration > 0 && s.nodes > nodes) {
      throw new InvariantError('evolving/capacity', `${s.nodes} nodes in use on a cluster of ${nodes} during [${t}, ${t + s.duration})`, { time: t });
    }
    t += s.duration;
  }
}
