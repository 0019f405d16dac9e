/**
 * Evolution profiles (EPs): a sequence of steps, each a duration and a node
 * count, as in section 3.1 of "Towards scheduling evolving applications".
 *
 * One EP type serves three purposes: a *requested* EP (what an application
 * asks for), a *scheduled* EP (what it is given, possibly delayed and with
 * steps expanded) and a *resource* EP (how many nodes of the cluster are busy
 * over time). Time 0 is the start of the profile; an EP is 0 outside
 * [0, totalDuration).
 *
 * All functions here are pure: they never modify their arguments.
 */
import { InputError } from '../../util/errors';

/** One step of an evolution profile. */
export interface Step {
  /** Length of the step, seconds (> 0 in a requested EP). */
  duration: number;
  /** Nodes used during the step (>= 0). */
  nodes: number;
}

/** A sequence of steps; step i starts when step i-1 ends. */
export type EvolutionProfile = readonly Step[];

/** Check that an EP is well formed; `what` names it in the error. */
export function validateProfile(ep: EvolutionProfile, what = 'evolution profile', options: { positiveDurations?: boolean } = {}): void {
  if (!Array.isArray(ep)) throw new InputError(`${what}: expected an array of {duration, nodes} steps`, { source: what });
  ep.forEach((s, i) => {
    if (s === null || typeof s !== 'object') throw new InputError(`${what}: step ${i} is not an object`, { source: what });
    if (!Number.isFinite(s.duration) || s.duration < 0 || (options.positiveDurations && s.duration === 0)) {
      throw new InputError(`${what}: step ${i} has duration ${s.duration}; expected a finite number ${options.positiveDurations ? '> 0' : '>= 0'}`, { source: what });
    }
    if (!Number.isFinite(s.nodes) || s.nodes < 0) {
      throw new InputError(`${what}: step ${i} has node count ${s.nodes}; expected a finite number >= 0`, { source: what });
    }
  });
}

/** Sum of the step durations. */
export function totalDuration(ep: EvolutionProfile): number {
  let t = 0;
  for (const s of ep) t += s.duration;
  return t;
}

/** Node·seconds of the profile (the area under it). */
export function area(ep: EvolutionProfile): number {
  let a = 0;
  for (const s of ep) a += s.duration * s.nodes;
  return a;
}

/** Largest node count of any step of non-zero length (0 for an empty EP). */
export function peakNodes(ep: EvolutionProfile): number {
  let m = 0;
  for (const s of ep) if (s.duration > 0 && s.nodes > m) m = s.nodes;
  return m;
}

/** Start time of every step (cumulative durations). */
export function stepStarts(ep: EvolutionProfile): number[] {
  const out: number[] = [];
  let t = 0;
  for (const s of ep) {
    out.push(t);
    t += s.duration;
  }
  return out;
}

/** ep(t): nodes at time t; steps are half-open [start, end), and 0 outside the profile. */
export function valueAt(ep: EvolutionProfile, t: number): number {
  if (t < 0) return 0;
  let start = 0;
  for (const s of ep) {
    const end = start + s.duration;
    if (t < end) return s.nodes;
    start = end;
  }
  return 0;
}

/** max(ep, t0, t1): the largest ep(t) for t in [t0, t1); 0 when t0 >= t1. */
export function maxOver(ep: EvolutionProfile, t0: number, t1: number): number {
  if (!(t0 < t1)) return 0;
  // Node counts are >= 0 and time outside the profile counts as 0, so starting at 0 is exact.
  let m = 0;
  let start = 0;
  for (const s of ep) {
    const end = start + s.duration;
    if (s.duration > 0 && end > t0 && start < t1 && s.nodes > m) m = s.nodes;
    start = end;
    if (start >= t1) break;
  }
  return m;
}

/**
 * loc(ep, t0, t1): the end of the last step holding the maximum of ep over
 * [t0, t1), clipped to t1. It is the time t with
 * max(ep, t0, t) = max(ep, t0, t1) > max(ep, t, t1): the earliest point after
 * which the maximum no longer occurs, so a failed placement can jump there.
 * When the maximum is 0 (nothing to jump over) or t0 >= t1, returns t0.
 */
export function loc(ep: EvolutionProfile, t0: number, t1: number): number {
  const m = maxOver(ep, t0, t1);
  if (!(t0 < t1) || m <= 0) return t0;
  let result = t0;
  let start = 0;
  for (const s of ep) {
    const end = start + s.duration;
    if (s.duration > 0 && end > t0 && start < t1 && s.nodes === m) result = Math.min(end, t1);
    start = end;
    if (start >= t1) break;
  }
  return result;
}

/** delay(ep, t0): the same profile starting t0 later (a leading zero-node step of length t0). */
export function delay(ep: EvolutionProfile, t0: number): EvolutionProfile {
  if (!Number.isFinite(t0) || t0 < 0) throw new InputError(`delay: t0 must be a finite number >= 0, got ${t0}`, { source: 'delay' });
  const steps = ep.map((s) => ({ duration: s.duration, nodes: s.nodes }));
  return t0 > 0 ? [{ duration: t0, nodes: 0 }, ...steps] : steps;
}

/**
 * Canonical form: zero-length steps dropped, neighbouring steps with equal
 * node counts merged and trailing zero-node steps removed (they do not change
 * ep(t)). Two EPs are equal as functions iff their normal forms are equal.
 */
export function normalize(ep: EvolutionProfile): Step[] {
  const out: Step[] = [];
  for (const s of ep) {
    if (s.duration === 0) continue;
    const last = out[out.length - 1];
    if (last && last.nodes === s.nodes) last.duration += s.duration;
    else out.push({ duration: s.duration, nodes: s.nodes });
  }
  while (out.length > 0 && out[out.length - 1].nodes === 0) out.pop();
  return out;
}

/** ep1 + ep2: the pointwise sum, (ep1 + ep2)(t) = ep1(t) + ep2(t), in normal form. */
export function sum(ep1: EvolutionProfile, ep2: EvolutionProfile): Step[] {
  const a = normalize(ep1);
  const b = normalize(ep2);
  const out: Step[] = [];
  let i = 0;
  let j = 0;
  let leftA = a.length > 0 ? a[0].duration : 0;
  let leftB = b.length > 0 ? b[0].duration : 0;
  while (i < a.length || j < b.length) {
    const na = i < a.length ? a[i].nodes : 0;
    const nb = j < b.length ? b[j].nodes : 0;
    const dt = Math.min(i < a.length ? leftA : Infinity, j < b.length ? leftB : Infinity);
    out.push({ duration: dt, nodes: na + nb });
    if (i < a.length) {
      leftA -= dt;
      if (leftA <= 0) {
        i++;
        leftA = i < a.length ? a[i].duration : 0;
      }
    }
    if (j < b.length) {
      leftB -= dt;
      if (leftB <= 0) {
        j++;
        leftB = j < b.length ? b[j].duration : 0;
      }
    }
  }
  return normalize(out);
}

/** Sum of many EPs. */
export function sumAll(eps: readonly EvolutionProfile[]): Step[] {
  return eps.reduce<Step[]>((acc, ep) => sum(acc, ep), []);
}

/**
 * True when `candidate` is an expanded EP of `requested`: same number of
 * steps, same node counts, and every duration at least the requested one and,
 * with `limit`, at most `limit` times it. Equality counts as expanded (an
 * expansion by factor 1), so that "possibly expanded" reads naturally.
 */
export function isExpandedOf(candidate: EvolutionProfile, requested: EvolutionProfile, limit = Infinity, tolerance = 1e-9): boolean {
  if (candidate.length !== requested.length) return false;
  for (let i = 0; i < requested.length; i++) {
    const c = candidate[i];
    const r = requested[i];
    if (c.nodes !== r.nodes) return false;
    if (c.duration < r.duration - tolerance) return false;
    if (c.duration > limit * r.duration + tolerance) return false;
  }
  return true;
}

/**
 * True when `candidate` is `requested` delayed by some d0 >= 0: either the
 * same steps, or a leading zero-node step followed by them (compared with
 * `same`, exact equality by default).
 */
export function isDelayedOf(
  candidate: EvolutionProfile,
  requested: EvolutionProfile,
  same: (c: EvolutionProfile, r: EvolutionProfile) => boolean = (c, r) => isExpandedOf(c, r, 1, 0),
): boolean {
  if (same(candidate, requested)) return true;
  if (candidate.length === requested.length + 1 && candidate[0].nodes === 0 && candidate[0].duration > 0) {
    return same(candidate.slice(1), requested);
  }
  return false;
}

/**
 * True when `scheduled` is `requested`, possibly delayed and with steps
 * expanded by at most `limit` (condition C1 of the problem statement).
 */
export function isScheduledVersionOf(scheduled: EvolutionProfile, requested: EvolutionProfile, limit = Infinity, tolerance = 1e-9): boolean {
  return isDelayedOf(scheduled, requested, (c, r) => isExpandedOf(c, r, limit, tolerance));
}
