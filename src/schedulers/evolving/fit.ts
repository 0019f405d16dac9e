/**
 * Fit functions (section 4.2): expand a requested EP over a resource EP so
 * that their sum never exceeds the cluster. `baseFit` is Algorithm 2 with an
 * expand limit; `compact` is the right-to-left post-processing.
 */
import { EvolutionProfile, Step, validateProfile, area, totalDuration } from './profile';
import { Timeline } from './timeline';
import { InputError, SchedlabError } from '../../util/errors';
import { InvariantError } from '../../util/invariants';

/** What a fit function returns: an expanded EP and the time it starts. */
export interface FitResult {
  /** ts: when the expanded EP starts. */
  start: number;
  /** epx: the requested EP with (possibly) longer steps, same node counts. */
  steps: Step[];
}

/** Options of the fit search: how far an application may expand, whether to compact, and an iteration cap. */
export interface FitOptions {
  /** How many times a step's duration may grow: 1 = no expansion, 2, Infinity (default 1). */
  expandLimit?: number;
  /** Apply the compacting post-processing (default false). */
  compact?: boolean;
  /** Safety valve against a non-terminating search (default 1e7 loop iterations). */
  maxIterations?: number;
}

/** A fit function: (requested EP, resource EP, cluster size) -> expanded EP and start. */
export type FitFunction = (requested: EvolutionProfile, resource: EvolutionProfile, nodes: number) => FitResult;

type Attempt = { ok: true; start: number; steps: Step[] } | { ok: false; start: number };

function checkInputs(requested: EvolutionProfile, resource: EvolutionProfile, nodes: number, expandLimit: number): void {
  if (!Number.isFinite(nodes) || nodes <= 0) throw new InputError(`fit: cluster size must be a positive number, got ${nodes}`, { source: 'fit' });
  if (!(expandLimit >= 1)) throw new InputError(`fit: expandLimit must be >= 1 (1 = no expansion, Infinity = unlimited), got ${expandLimit}`, { source: 'fit' });
  validateProfile(requested, 'requested EP', { positiveDurations: true });
  validateProfile(resource, 'resource EP');
  requested.forEach((s, i) => {
    if (s.nodes > nodes) throw new InputError(`requested EP: step ${i} asks for ${s.nodes} nodes but the cluster has ${nodes}`, { source: 'requested EP' });
  });
  resource.forEach((s, i) => {
    if (s.nodes > nodes) throw new InputError(`resource EP: step ${i} already uses ${s.nodes} nodes, more than the cluster's ${nodes}`, { source: 'resource EP' });
  });
}

/**
 * Base fit (Algorithm 2). Steps are placed one by one, each at the earliest
 * time it fits; the gap between a step's requested end and the next step's
 * start expands that step (the application keeps its nodes while waiting for
 * more). A placement that would expand the previous step beyond
 * `expandLimit` times its duration, or that the cluster cannot hold during
 * the expansion, fails and makes the previous step jump forward. The first
 * step is delayed rather than expanded, so the application finishes as early
 * as the greedy search allows.
 *
 * Returns the expanded EP and its start time; the scheduled EP is
 * `delay(steps, start)`.
 */
export function baseFit(requested: EvolutionProfile, resource: EvolutionProfile, nodes: number, options: FitOptions = {}): FitResult {
  const expandLimit = options.expandLimit ?? 1;
  checkInputs(requested, resource, nodes, expandLimit);
  const base = baseFitOnTimeline(requested, new Timeline(resource), nodes, expandLimit, options.maxIterations ?? 1e7);
  return options.compact ? compact(requested, resource, nodes, base, { expandLimit, maxIterations: options.maxIterations }) : base;
}

function baseFitOnTimeline(req: EvolutionProfile, res: Timeline, nodes: number, limit: number, maxIterations: number): FitResult {
  if (req.length === 0) return { start: 0, steps: [] };
  let iterations = 0;
  // fit(i, t0) of Algorithm 2 with 0-based step indices; t0 is the earliest start of step i.
  const fit = (i: number, t0: number): Attempt => {
    if (i >= req.length) return { ok: true, start: t0, steps: [] }; // lines 1-2
    const d = req[i].duration; // line 3
    const n = req[i].nodes;
    let ts = t0; // line 4
    for (;;) {
      if (++iterations > maxIterations) throw new SchedlabError(`baseFit: no placement found after ${maxIterations} iterations (raise maxIterations)`);
      // lines 6-7: not enough room for the step itself: jump past the maximum.
      if (nodes - res.max(ts, ts + d) < n) {
        ts = res.loc(ts, ts + d);
        continue;
      }
      if (i > 0) {
        // lines 8-13: starting here expands step i-1 over [t0, ts).
        // As in the paper this also applies to the first step, which is later
        // delayed instead of expanded; the check then only steers the search.
        const dPrev = req[i - 1].duration;
        const teas = ts - limit * dPrev; // earliest allowed start of the previous step
        if (teas > t0 - dPrev) return { ok: false, start: teas }; // expand limit exceeded
        if (nodes - res.max(t0, ts) < req[i - 1].nodes) return { ok: false, start: res.loc(t0, ts) }; // no room to expand
      }
      const tail = fit(i + 1, ts + d); // line 14
      if (!tail.ok) {
        ts = tail.start; // lines 15-16: the tail asks this step to start later
        continue;
      }
      if (i > 0) {
        // line 17: this step lasts until the next one starts.
        tail.steps.unshift({ duration: tail.start - ts, nodes: n });
        return { ok: true, start: ts, steps: tail.steps };
      }
      // lines 18-20: the first step is delayed so that it ends when step 2 starts.
      tail.steps.unshift({ duration: d, nodes: n });
      return { ok: true, start: tail.start - d, steps: tail.steps };
    }
  };
  const r = fit(0, 0);
  if (!r.ok) throw new InvariantError('evolving/fit', 'the first step of a fit failed');
  return { start: r.start, steps: r.steps };
}

/** Completion time of a fit result. */
export function completionOf(fit: FitResult): number {
  return fit.start + totalDuration(fit.steps);
}

/** Node·seconds spent in expansions: sum over steps of (scheduled - requested duration) × nodes. */
export function expansionWaste(requested: EvolutionProfile, fit: FitResult): number {
  return area(fit.steps) - area(requested);
}

/**
 * Compacting post-processing. The last step is pinned so that it ends at the
 * completion time of `base`; the other steps are then placed right to left,
 * each as late as possible, mirroring Algorithm 2 (a failure sends a "start
 * no later than" bound back to the step on the right, which then expands).
 *
 * Choices where the paper is terse:
 * - an expansion stays charged to the *earlier* step of each pair, as in the
 *   base algorithm (the application holds its current nodes while it waits),
 *   and the last step is never expanded;
 * - the first step is never expanded (lengthening it only needs more room);
 * - if the search fails, or its result would waste more node·seconds or start
 *   earlier than `base`, `base` is returned unchanged ("in the worst case, no
 *   compacting occurs").
 */
export function compact(
  requested: EvolutionProfile,
  resource: EvolutionProfile,
  nodes: number,
  base: FitResult,
  options: { expandLimit?: number; maxIterations?: number } = {},
): FitResult {
  const r = compactSearch(requested, resource, nodes, completionOf(base), options);
  if (r === null || r.start < base.start) return base;
  if (area(r.steps) > area(base.steps)) return base;
  return r;
}

/**
 * The right-to-left search of `compact` without the fallback: the latest
 * start placement whose last step ends at `completion`, or null if none was
 * found. Exposed so tests can check the search itself.
 */
export function compactSearch(
  requested: EvolutionProfile,
  resource: EvolutionProfile,
  nodes: number,
  completion: number,
  options: { expandLimit?: number; maxIterations?: number } = {},
): FitResult | null {
  const limit = options.expandLimit ?? 1;
  const N = requested.length;
  if (N === 0) return { start: completion, steps: [] };
  const res = new Timeline(resource);
  const T = completion;
  const maxIterations = options.maxIterations ?? 1e7;
  let iterations = 0;
  // place(i, e): steps 0..i with step i ending at e. On failure, `start` is a
  // bound: step i + 1 must start (= e) no later than it.
  const place = (i: number, e: number): Attempt => {
    const d = requested[i].duration;
    const n = requested[i].nodes;
    const lim = i === N - 1 ? 1 : limit;
    if (nodes - res.max(e - d, e) < n) return { ok: false, start: res.firstMaxStart(e - d, e) };
    let s = e - d;
    for (;;) {
      if (++iterations > maxIterations) return { ok: false, start: -Infinity };
      if (e - s > lim * d) return { ok: false, start: s + lim * d };
      if (nodes - res.max(s, e) < n) return { ok: false, start: res.firstMaxStart(s, e) };
      if (i === 0) return { ok: true, start: s, steps: [{ duration: e - s, nodes: n }] };
      const head = place(i - 1, s);
      if (!head.ok) {
        if (!(head.start < s)) return { ok: false, start: -Infinity }; // cannot happen; stop rather than loop
        s = head.start;
        continue;
      }
      head.steps.push({ duration: e - s, nodes: n });
      return { ok: true, start: head.start, steps: head.steps };
    }
  };
  const r = place(N - 1, T);
  return r.ok ? { start: r.start, steps: r.steps } : null;
}

/** A fit function with the options bound, for `listSchedule`. */
export function makeFit(options: FitOptions = {}): FitFunction {
  return (requested, resource, nodes) => baseFit(requested, resource, nodes, options);
}
