/**
 * Figure 1 of the DFRS paper read against the offered-load formula: where an
 * algorithm "breaks down" on the load axis, and what each reading of
 * "offered load" (src/workloads/dfrs.ts, `offeredLoadAs`) would have labelled
 * the same traces. Relabelling needs the traces only, not a new simulation:
 * the scaled traces are the base traces with inter-arrival times multiplied
 * by one constant, so each keeps its runs and only its x value moves.
 */
import { DfrsJob, OFFERED_LOAD_DEFINITIONS, OfferedLoadDefinition, offeredLoadAs, offeredLoadName, scaleToLoad } from '../../workloads/dfrs';
import { InputError } from '../../util/errors';

/** One point of Figure 1: an algorithm's average degradation at one load. */
export interface LoadPoint {
  algorithm: string;
  load: number;
  degradation: number;
}

/** Where an algorithm stops keeping up with the others (see {@link breakdownLoad}). */
export interface Breakdown {
  /** The highest load at which it is not worse than most other algorithms, below a run of loads where it is (NaN: worse at every load). */
  lastGood: number;
  /** The first load of that run (NaN: never worse than most). */
  firstBad: number;
}

/**
 * The load above which `algorithm` is worse than more than `share` of the
 * other algorithms at that load and at every higher one (the paper on
 * GreedyPM *: "performs well under low load conditions but quickly leads to
 * poorer performance than most other algorithms as the load becomes larger
 * than 0.3"). Ties do not count as worse.
 */
export function breakdownLoad(points: readonly LoadPoint[], algorithm: string, share = 0.5): Breakdown {
  const loads = [...new Set(points.map((p) => p.load))].sort((a, b) => a - b);
  const worse = (load: number) => {
    const at = points.filter((p) => p.load === load);
    const own = at.find((p) => p.algorithm === algorithm);
    if (!own) throw new InputError(`breakdownLoad: no point of '${algorithm}' at load ${load}`, { source: 'breakdownLoad' });
    const others = at.filter((p) => p.algorithm !== algorithm);
    return others.length > 0 && others.filter((p) => p.degradation < own.degradation).length > share * others.length;
  };
  let first = loads.length;
  while (first > 0 && worse(loads[first - 1])) first--;
  return { lastGood: first > 0 ? loads[first - 1] : NaN, firstBad: first < loads.length ? loads[first] : NaN };
}

/** One nominal load of the scaled set under one reading of "offered load" (a type, not an interface: rows for tables). */
export type RelabelledLoad = {
  definition: string;
  /** The load the traces were scaled to (our reading). */
  load: number;
  /** Mean over the base traces of the load under this reading. */
  offered_load: number;
  min: number;
  max: number;
};

/**
 * Every nominal load of the scaled set under each reading: each base trace is
 * scaled to each load exactly as the sweep does (`scaleToLoad`), then measured.
 */
export function relabelScaledLoads(
  bases: readonly (readonly DfrsJob[])[],
  loads: readonly number[],
  nodes: number,
  definitions: readonly OfferedLoadDefinition[] = OFFERED_LOAD_DEFINITIONS,
): RelabelledLoad[] {
  if (bases.length === 0) throw new InputError('relabelScaledLoads: no base trace', { source: 'relabelScaledLoads' });
  const scaled = loads.map((load) => bases.map((b) => scaleToLoad(b, load, nodes)));
  return definitions.flatMap((d) =>
    loads.map((load, i) => {
      const xs = scaled[i].map((t) => offeredLoadAs(t, nodes, d));
      return { definition: offeredLoadName(d), load, offered_load: xs.reduce((a, b) => a + b, 0) / xs.length, min: Math.min(...xs), max: Math.max(...xs) };
    }),
  );
}

/** Per reading: where the algorithm breaks down on that reading's axis, and whether a published breakdown load falls there. */
export type BreakdownUnderDefinition = {
  definition: string;
  /** Mean of this reading's load over ours, across the nominal loads. */
  ratio_to_ours: number;
  /** The breakdown's last good load, relabelled. */
  breaks_down_above: number;
  /** The breakdown's first bad load, relabelled. */
  worse_than_most_from: number;
  /** The published breakdown load lies in [above, from): this reading reproduces it. */
  matches_published: boolean;
};

/**
 * {@link breakdownLoad} on our nominal loads, read on each reading's axis
 * (`relabelled` from {@link relabelScaledLoads}); `published` is the load the
 * paper says the algorithm breaks down above.
 */
export function breakdownUnderDefinitions(breakdown: Breakdown, relabelled: readonly RelabelledLoad[], published: number): BreakdownUnderDefinition[] {
  const names = [...new Set(relabelled.map((r) => r.definition))];
  return names.map((definition) => {
    const rows = relabelled.filter((r) => r.definition === definition);
    const at = (load: number) => rows.find((r) => r.load === load)?.offered_load ?? NaN;
    const above = Number.isFinite(breakdown.lastGood) ? at(breakdown.lastGood) : 0;
    const from = Number.isFinite(breakdown.firstBad) ? at(breakdown.firstBad) : Infinity;
    return {
      definition,
      ratio_to_ours: rows.reduce((t, r) => t + r.offered_load / r.load, 0) / rows.length,
      breaks_down_above: above,
      worse_than_most_from: from,
      matches_published: above <= published && published < from,
    };
  });
}
