/**
 * Offline list scheduling of evolving applications (Algorithm 1), the five
 * variants compared in section 5, and the per-application schedule record
 * that the metrics read.
 */
import { EvolutionProfile, Step, delay, sum, validateProfile, totalDuration, area, peakNodes } from './profile';
import { baseFit, FitFunction, FitOptions } from './fit';
import { invariantChecksEnabled } from '../../util/invariants';
import { verifyEvolvingSchedule } from './invariants';
import { InputError } from '../../util/errors';

/** A queued evolving application: an id and its requested EP. */
export interface EvolvingApp {
  id: number;
  /** Requested EP: the steps the application needs, in order. */
  profile: Step[];
}

/**
 * Where one application runs. `allocation` is what it holds from `start`
 * (its expanded EP for the evolving variants, one max-nodes block for rigid);
 * `requested` is the useful work it asked for.
 */
export interface AppSchedule {
  id: number;
  requested: Step[];
  start: number;
  allocation: Step[];
  /** start + total allocation duration. */
  completion: number;
}

/** A list schedule of evolving applications: start times and the resource profile they use. */
export interface EvolvingSchedule {
  /** Variant or algorithm name. */
  algorithm: string;
  nodes: number;
  apps: AppSchedule[];
  /** Resource EP of the whole schedule (sum of all allocations). */
  resource: Step[];
}

/**
 * Algorithm 1: applications are taken in the given order; each requested EP
 * is fitted over the resource EP built so far and the result is added to it.
 * With invariant checks on, the schedule is verified (cluster never
 * exceeded, every requested EP preserved, possibly delayed and expanded).
 */
export function listSchedule(apps: readonly EvolvingApp[], nodes: number, fit: FitFunction, algorithm = 'list'): EvolvingSchedule {
  const s = listScheduleUnchecked(apps, nodes, fit, algorithm);
  if (invariantChecksEnabled()) verifyEvolvingSchedule(apps, s);
  return s;
}

function listScheduleUnchecked(apps: readonly EvolvingApp[], nodes: number, fit: FitFunction, algorithm: string): EvolvingSchedule {
  const seen = new Set<number>();
  let resource: Step[] = [];
  const out: AppSchedule[] = [];
  apps.forEach((app, k) => {
    if (seen.has(app.id)) throw new InputError(`listSchedule: application id ${app.id} appears twice (position ${k})`, { source: 'listSchedule' });
    seen.add(app.id);
    validateProfile(app.profile, `application ${app.id} requested EP`, { positiveDurations: true });
    const x = fit(app.profile, resource, nodes);
    resource = sum(resource, delay(x.steps, x.start));
    out.push({
      id: app.id,
      requested: app.profile.map((s) => ({ ...s })),
      start: x.start,
      allocation: x.steps,
      completion: x.start + totalDuration(x.steps),
    });
  });
  return { algorithm, nodes, apps: out, resource };
}

/** The five Algorithm 1 variants of section 5. */
export const EVOLVING_VARIANTS: Readonly<Record<string, Required<Pick<FitOptions, 'expandLimit' | 'compact'>>>> = {
  noX: { expandLimit: 1, compact: false },
  '2X': { expandLimit: 2, compact: false },
  '2X+c': { expandLimit: 2, compact: true },
  infX: { expandLimit: Infinity, compact: false },
  'infX+c': { expandLimit: Infinity, compact: true },
};

/** Algorithm 1 with the base fit and the given options. */
export function scheduleEvolving(apps: readonly EvolvingApp[], nodes: number, options: FitOptions = {}, algorithm?: string): EvolvingSchedule {
  const name = algorithm ?? `${options.expandLimit === Infinity ? 'inf' : options.expandLimit ?? 1}X${options.compact ? '+c' : ''}`;
  const s = listScheduleUnchecked(apps, nodes, (r, res, n) => baseFit(r, res, n, options), name);
  if (invariantChecksEnabled()) verifyEvolvingSchedule(apps, s, { expandLimit: options.expandLimit ?? 1 });
  return s;
}

/** Run a named variant (noX, 2X, 2X+c, infX, infX+c). */
export function scheduleVariant(apps: readonly EvolvingApp[], nodes: number, variant: string): EvolvingSchedule {
  const v = EVOLVING_VARIANTS[variant];
  if (!v) throw new InputError(`unknown evolving variant "${variant}"; expected one of ${Object.keys(EVOLVING_VARIANTS).join(', ')}`, { source: 'evolving variant', field: variant });
  return scheduleEvolving(apps, nodes, v, variant);
}

/** An application seen as a rigid job: peak node count for the total duration. */
export function rigidProfile(profile: EvolutionProfile): Step[] {
  return [{ duration: totalDuration(profile), nodes: peakNodes(profile) }];
}

/** Useful node·seconds of an application (area of its requested EP). */
export function usefulArea(app: AppSchedule): number {
  return area(app.requested);
}
