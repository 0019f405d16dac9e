/**
 * The rigid baseline of section 5: every application is seen as a rigid job
 * (peak node count × total duration) and the jobs are scheduled by
 * conservative backfilling (CBF) in queue order.
 *
 * `scheduleRigid` runs the toolkit's batch simulator (`simulateBatch`,
 * policy 'conservative', exact run times) on jobs all submitted at time 0.
 * With every job queued at 0 and exact run times, CBF reduces to giving each
 * job, in order, the earliest start at which it fits beside the reservations
 * already made (no job ends early, so no reservation moves):
 * `scheduleRigidEarliestFit` computes that directly (Algorithm 1 with the
 * no-expansion fit on one-step profiles); the tests check that both agree.
 */
import { AppSchedule, EvolvingApp, EvolvingSchedule, listSchedule, rigidProfile } from './list';
import { baseFit } from './fit';
import { sumAll, delay, totalDuration, peakNodes } from './profile';
import { simulateBatch } from '../batch/simulate';
import { WorkloadJob } from '../../workloads/job';
import { invariantChecksEnabled } from '../../util/invariants';
import { verifyEvolvingSchedule } from './invariants';
import { InputError } from '../../util/errors';

/** The rigid job of an application: submitted at 0, peak nodes for the total duration. */
export function rigidJob(app: EvolvingApp): WorkloadJob {
  return { id: app.id, submit: 0, runtime: totalDuration(app.profile), procs: peakNodes(app.profile) };
}

/** Schedule the applications as rigid jobs with conservative backfilling (batch simulator). */
export function scheduleRigid(apps: readonly EvolvingApp[], nodes: number): EvolvingSchedule {
  apps.forEach((a, k) => {
    if (peakNodes(a.profile) < 1) throw new InputError(`scheduleRigid: application ${a.id} (position ${k}) never uses a node; a rigid job needs at least one`, { source: 'scheduleRigid' });
  });
  const results = simulateBatch(apps.map(rigidJob), { machineSize: nodes, policy: 'conservative', estimates: 'exact' });
  const out: AppSchedule[] = apps.map((a, k) => {
    const r = results[k];
    const allocation = rigidProfile(a.profile);
    return { id: a.id, requested: a.profile.map((s) => ({ ...s })), start: r.start, allocation, completion: r.start + allocation[0].duration };
  });
  const schedule = { algorithm: 'rigid', nodes, apps: out, resource: sumAll(out.map((x) => delay(x.allocation, x.start))) };
  if (invariantChecksEnabled()) verifyEvolvingSchedule(apps, schedule, { rigid: true });
  return schedule;
}

/** The same schedule computed as earliest fit in queue order (no simulator). */
export function scheduleRigidEarliestFit(apps: readonly EvolvingApp[], nodes: number): EvolvingSchedule {
  const rigidApps = apps.map((a) => ({ id: a.id, profile: rigidProfile(a.profile) }));
  const s = listSchedule(rigidApps, nodes, (r, res, n) => baseFit(r, res, n, { expandLimit: 1 }), 'rigid');
  const byId = new Map(apps.map((a) => [a.id, a]));
  const out: AppSchedule[] = s.apps.map((x) => ({ ...x, requested: byId.get(x.id)!.profile.map((st) => ({ ...st })) }));
  const schedule = { ...s, apps: out };
  if (invariantChecksEnabled()) verifyEvolvingSchedule(apps, schedule, { rigid: true });
  return schedule;
}
