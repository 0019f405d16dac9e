/**
 * The rigid baseline of section 5: every application is seen as a rigid job
 * (peak node count × total duration) and the jobs are scheduled by
 * conservative backfilling (CBF) in queue order.
 *
 * All applications are queued at time 0 and run times are exact, so CBF
 * reduces to giving each job, in order, the earliest start at which it fits
 * in the availability profile left by the jobs before it (no job ever ends
 * early, so no reservation ever moves). That is Algorithm 1 with the no-
 * expansion fit on one-step profiles, which is what is run here.
 */
import { AppSchedule, EvolvingApp, EvolvingSchedule, listSchedule, rigidProfile } from './list';
import { baseFit } from './fit';

/** Schedule the applications as rigid jobs with conservative backfilling. */
export function scheduleRigid(apps: readonly EvolvingApp[], nodes: number): EvolvingSchedule {
  const rigidApps = apps.map((a) => ({ id: a.id, profile: rigidProfile(a.profile) }));
  const s = listSchedule(rigidApps, nodes, (r, res, n) => baseFit(r, res, n, { expandLimit: 1 }), 'rigid');
  const byId = new Map(apps.map((a) => [a.id, a]));
  const out: AppSchedule[] = s.apps.map((x) => ({ ...x, requested: byId.get(x.id)!.profile.map((st) => ({ ...st })) }));
  return { ...s, apps: out };
}
