/**
 * Allocation policies: the rule that picks one availability rectangle among
 * the feasible start times of a request. The seven policies of Li et al.
 * ("Resource availability-aware advance reservation for parallel jobs with
 * deadlines", section 5) are built on the same open interface a user policy
 * uses:
 *
 *  - FF      First Fit: the earliest feasible start time.
 *  - PE_B    PE Best Fit: the rectangle with the fewest free PEs.
 *  - PE_W    PE Worst Fit: the rectangle with the most free PEs.
 *  - Du_B    Duration Best Fit: the rectangle with the shortest duration (end − begin).
 *  - Du_W    Duration Worst Fit: the longest duration.
 *  - PEDu_B  PE-Duration Best Fit: the smallest product free PEs × duration.
 *  - PEDu_W  PE-Duration Worst Fit: the largest product.
 *
 * A policy is either a scoring function over candidates (lower is better;
 * ties go to the earliest start, the paper's rule, so that the job waits as
 * little as possible) or a chooser that walks the candidates itself. The
 * candidates come lazily in increasing start order, so a chooser can stop
 * early: First Fit is the chooser that takes the first one.
 */
import { InputError } from '../../util/errors';
import { isPolicyRef, loadPolicyRef, PolicyRef } from '../../util/modules';

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

/** The seven placement policies for advance reservations (first fit, and best/worst by PEs, duration or both). */
export const RESERVATION_POLICIES = ['FF', 'PE_B', 'PE_W', 'Du_B', 'Du_W', 'PEDu_B', 'PEDu_W'] as const;
/** One of the advance-reservation placement policies. */
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

/** What a policy knows besides the candidates: the request, the clock and a read-only view of the machine. */
export interface RectangleContext {
  /** The request being placed (ready ≤ start, start + duration ≤ deadline). */
  request: { readonly id?: number; readonly ready: number; readonly duration: number; readonly deadline: number; readonly pes: number };
  /** Current time (nothing before it is kept). */
  now: number;
  machineSize: number;
  /** Read-only view of the availability structure, e.g. for fragmentation measures. */
  profile: AvailabilityView;
}

/** What a policy may look at in the availability structure (no mutation). */
export interface AvailabilityView {
  readonly machineSize: number;
  readonly now: number;
  /** Number of records (a fragmentation measure). */
  readonly size: number;
  /** The PEs busy at time t (a copy). */
  busyAt(time: number): Uint32Array;
  /**
   * A candidate's rectangle again, with the free PE set written to `freeOut`
   * (which PEs the job would get: the lowest-numbered `pes` of them).
   */
  availabilityRectangle(start: number, duration: number, minPes?: number, freeOut?: Uint32Array): AvailabilityRectangle | undefined;
}

/** Score of a candidate: lower is better (±Infinity allowed, NaN is an error). */
export type RectangleScore = (r: AvailabilityRectangle, ctx: RectangleContext) => number;
/** Pick one of the candidates (given in increasing start order), or undefined to reject the request. */
export type RectangleChooser = (candidates: Iterable<AvailabilityRectangle>, ctx: RectangleContext) => AvailabilityRectangle | undefined;

/**
 * A placement policy: a name (used in results and error messages) and either
 * `score` or `choose`. Built-ins and user policies are the same kind of object.
 */
export type ReservationPolicyObject =
  | { readonly name: string; readonly score: RectangleScore; readonly choose?: undefined }
  | { readonly name: string; readonly choose: RectangleChooser; readonly score?: undefined };

/** A policy exported by a module, for sweeps run in worker threads (params must be JSON). */
export type PolicyModuleRef = PolicyRef;

/** Anything the simulator accepts as a policy: a built-in's name, a policy object, or a module reference. */
export type ReservationPolicySpec = ReservationPolicy | ReservationPolicyObject | PolicyModuleRef;

/** Duration of a rectangle (Infinity when it is open-ended). */
export function rectangleDuration(r: AvailabilityRectangle): number {
  return r.end - r.begin;
}

/** Time left between the job's end and its deadline if it starts at the rectangle's start. */
export function rectangleSlack(r: AvailabilityRectangle, ctx: RectangleContext): number {
  return ctx.request.deadline - (r.start + ctx.request.duration);
}

const firstCandidate: RectangleChooser = (candidates) => {
  for (const r of candidates) return r;
  return undefined;
};

/** The seven policies of the paper as policy objects. */
export const BUILTIN_RESERVATION_POLICIES: Readonly<Record<ReservationPolicy, ReservationPolicyObject>> = Object.freeze({
  FF: { name: 'FF', choose: firstCandidate },
  PE_B: { name: 'PE_B', score: (r: AvailabilityRectangle) => r.freePes },
  PE_W: { name: 'PE_W', score: (r: AvailabilityRectangle) => -r.freePes },
  Du_B: { name: 'Du_B', score: (r: AvailabilityRectangle) => rectangleDuration(r) },
  Du_W: { name: 'Du_W', score: (r: AvailabilityRectangle) => -rectangleDuration(r) },
  PEDu_B: { name: 'PEDu_B', score: (r: AvailabilityRectangle) => r.freePes * rectangleDuration(r) },
  PEDu_W: { name: 'PEDu_W', score: (r: AvailabilityRectangle) => -(r.freePes * rectangleDuration(r)) },
});

/** Throw a clear error unless `name` is one of the seven policies. */
export function checkReservationPolicy(name: string): ReservationPolicy {
  if (!(RESERVATION_POLICIES as readonly string[]).includes(name)) {
    throw new InputError(`unknown reservation policy '${name}'; expected one of ${RESERVATION_POLICIES.join(', ')}`, { source: 'policy', field: 'policy' });
  }
  return name as ReservationPolicy;
}

/** True for one of the seven built-in policy objects (their invariant checks follow the global switch). */
export function isBuiltinReservationPolicy(p: ReservationPolicyObject): boolean {
  return (BUILTIN_RESERVATION_POLICIES as Record<string, ReservationPolicyObject>)[p.name] === p;
}

/** Throw an InputError unless `p` is a usable policy object. */
export function checkReservationPolicyObject(p: unknown, source = 'policy'): ReservationPolicyObject {
  const o = p as Partial<{ name: unknown; score: unknown; choose: unknown }>;
  if (o === null || typeof o !== 'object') throw new InputError(`${source}: a policy must be a built-in name or an object, got ${String(p)}`, { source, field: 'policy' });
  if (typeof o.name !== 'string' || o.name === '') throw new InputError(`${source}: a policy object needs a non-empty string 'name'`, { source, field: 'policy.name' });
  if ((typeof o.score === 'function') === (typeof o.choose === 'function')) {
    throw new InputError(`${source}: policy '${o.name}' must have exactly one of score(rect, ctx) or choose(candidates, ctx)`, { source, field: 'policy' });
  }
  return p as ReservationPolicyObject;
}

/**
 * The policy object of a spec: a built-in's name, a policy object (checked),
 * or `{ module, export }` loaded in this thread (how sweep cells in worker
 * threads name a user policy; the export must be a policy object).
 */
export function resolveReservationPolicy(spec: ReservationPolicySpec, source = 'policy'): ReservationPolicyObject {
  if (typeof spec === 'string') return BUILTIN_RESERVATION_POLICIES[checkReservationPolicy(spec)];
  if (isPolicyRef(spec)) {
    const { value, where } = loadPolicyRef(spec);
    return checkReservationPolicyObject(value, where);
  }
  return checkReservationPolicyObject(spec, source);
}

/** The policy's score of a rectangle (lower is better); FF scores every rectangle equally. */
export function policyScore(policy: ReservationPolicy, r: AvailabilityRectangle, ctx?: RectangleContext): number {
  const p = BUILTIN_RESERVATION_POLICIES[checkReservationPolicy(policy)];
  return p.score ? p.score(r, ctx as RectangleContext) : 0;
}

/**
 * The lowest-scoring candidate, ties to the earlier start (candidates need
 * not be sorted); undefined when there is none. `checkScore` sees every score
 * (used to reject NaN from user policies).
 */
export function chooseByScore(
  score: RectangleScore,
  rects: Iterable<AvailabilityRectangle>,
  ctx: RectangleContext,
  checkScore?: (s: number, r: AvailabilityRectangle) => void,
): AvailabilityRectangle | undefined {
  let best: AvailabilityRectangle | undefined;
  let bestScore = Infinity;
  for (const r of rects) {
    const s = score(r, ctx);
    if (checkScore) checkScore(s, r);
    // Open-ended rectangles give ±Infinity scores; those tie with each other
    // and fall through to the start-time rule like any other tie.
    if (best === undefined || s < bestScore || (s === bestScore && r.start < best.start)) {
      best = r;
      bestScore = s;
    }
  }
  return best;
}

/**
 * Pick one rectangle by a built-in `policy`; undefined when there is none.
 * Rectangles need not be sorted: equal scores are resolved towards the earlier start.
 */
export function chooseRectangle(policy: ReservationPolicy, rects: readonly AvailabilityRectangle[], ctx?: RectangleContext): AvailabilityRectangle | undefined {
  const p = BUILTIN_RESERVATION_POLICIES[checkReservationPolicy(policy)];
  // FF takes the earliest start (the first candidate once sorted).
  const score = p.score ?? ((r: AvailabilityRectangle) => 0);
  return chooseByScore(score, rects, ctx as RectangleContext);
}
