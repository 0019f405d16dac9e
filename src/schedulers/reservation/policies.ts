/**
 * The seven allocation policies of Li et al. ("Resource availability-aware
 * advance reservation for parallel jobs with deadlines", section 5).
 *
 * Each policy looks at the feasible start times of a request and the maximum
 * availability rectangle of each (free PEs × [begin, end)) and picks one:
 *
 *  - FF      First Fit: the earliest feasible start time.
 *  - PE_B    PE Best Fit: the rectangle with the fewest free PEs.
 *  - PE_W    PE Worst Fit: the rectangle with the most free PEs.
 *  - Du_B    Duration Best Fit: the rectangle with the shortest duration (end − begin).
 *  - Du_W    Duration Worst Fit: the longest duration.
 *  - PEDu_B  PE-Duration Best Fit: the smallest product free PEs × duration.
 *  - PEDu_W  PE-Duration Worst Fit: the largest product.
 *
 * Ties go to the earliest start time (the paper's rule, section 5, so that
 * the job waits as little as possible).
 */
import { InputError } from '../../util/errors';

/** One feasible start time with its maximum availability rectangle. */
export interface AvailabilityRectangle {
  /** Candidate start time of the job. */
  start: number;
  /** Beginning of the maximum availability rectangle (≤ start). */
  begin: number;
  /** End of the rectangle (≥ start + duration); Infinity when the free PEs stay free for ever. */
  end: number;
  /** Number of PEs free during [start, start + duration) (the rectangle's height). */
  freePes: number;
}

export const RESERVATION_POLICIES = ['FF', 'PE_B', 'PE_W', 'Du_B', 'Du_W', 'PEDu_B', 'PEDu_W'] as const;
export type ReservationPolicy = (typeof RESERVATION_POLICIES)[number];

/** Long names as the paper writes them (for tables and legends). */
export const RESERVATION_POLICY_NAMES: Readonly<Record<ReservationPolicy, string>> = Object.freeze({
  FF: 'First Fit',
  PE_B: 'PE Best Fit',
  PE_W: 'PE Worst Fit',
  Du_B: 'Duration Best Fit',
  Du_W: 'Duration Worst Fit',
  PEDu_B: 'PE-Duration Best Fit',
  PEDu_W: 'PE-Duration Worst Fit',
});

/** Throw a clear error unless `name` is one of the seven policies. */
export function checkReservationPolicy(name: string): ReservationPolicy {
  if (!(RESERVATION_POLICIES as readonly string[]).includes(name)) {
    throw new InputError(`unknown reservation policy '${name}'; expected one of ${RESERVATION_POLICIES.join(', ')}`, { source: 'policy', field: 'policy' });
  }
  return name as ReservationPolicy;
}

/** Duration of a rectangle (Infinity when it is open-ended). */
export function rectangleDuration(r: AvailabilityRectangle): number {
  return r.end - r.begin;
}

/**
 * The policy's score of a rectangle: lower is better. FF scores every
 * rectangle equally, so the earliest-start tie rule makes it First Fit.
 */
export function policyScore(policy: ReservationPolicy, r: AvailabilityRectangle): number {
  switch (policy) {
    case 'FF':
      return 0;
    case 'PE_B':
      return r.freePes;
    case 'PE_W':
      return -r.freePes;
    case 'Du_B':
      return rectangleDuration(r);
    case 'Du_W':
      return -rectangleDuration(r);
    case 'PEDu_B':
      return r.freePes * rectangleDuration(r);
    case 'PEDu_W':
      return -(r.freePes * rectangleDuration(r));
  }
}

/**
 * Pick one rectangle by `policy`; undefined when there is none. Rectangles
 * need not be sorted: equal scores are resolved towards the earlier start.
 */
export function chooseRectangle(policy: ReservationPolicy, rects: readonly AvailabilityRectangle[]): AvailabilityRectangle | undefined {
  let best: AvailabilityRectangle | undefined;
  let bestScore = Infinity;
  for (const r of rects) {
    const s = policyScore(policy, r);
    // Open-ended rectangles give ±Infinity scores; those tie with each other
    // and fall through to the start-time rule like any other tie.
    if (best === undefined || s < bestScore || (s === bestScore && r.start < best.start)) {
      best = r;
      bestScore = s;
    }
  }
  return best;
}
