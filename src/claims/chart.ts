/**
 * The paper's headline chart on a notebook's first screen: our results with
 * the published values over them as a series labelled "published". Published
 * numbers come only from the registry's value claims (never typed into a
 * result); a figure the paper prints without numbers is drawn from our results
 * alone, and its title says so.
 */
import { barChart, Figure, lineChart } from '../analysis/charts';
import type { ClaimResult } from './registry';

/** One point of a chart drawn from our results alone. */
export interface ChartPoint {
  x: number | string;
  series: string;
  y: number;
  /** 95 % CI half-width, when there are replications. */
  ci95?: number;
}

/** How a registry draws its paper's headline chart. */
export type HeadlineChart<V> =
  /** The paper's numbers exist: one bar pair (published, ours with its 95 % CI) per value claim picked by `ids`, labelled by `label`. */
  | { kind: 'claims'; place: string; title: string; xLabel: string; yLabel: string; logY?: boolean; ids: (id: string) => boolean; label: (claim: ClaimResult) => string }
  /** The paper prints the figure without numbers: our curves only. */
  | { kind: 'ours'; place: string; title: string; xLabel: string; yLabel: string; logY?: boolean; bars?: boolean; points: (view: V) => ChartPoint[] };

/** The series name of published values in every headline chart. */
export const PUBLISHED_SERIES = 'published';
/** The series name of our values in a chart of value claims. */
export const OURS_SERIES = 'ours';

/**
 * Draw a headline chart: `results` are the registry's evaluated claims (for a
 * 'claims' chart), `view` its view of the records (for an 'ours' chart, null
 * when there are none).
 */
export function drawHeadlineChart<V>(spec: HeadlineChart<V>, results: readonly ClaimResult[], view: V | null, status: string): Figure {
  const title = `${spec.place} — ${spec.title}`;
  if (spec.kind === 'claims') {
    const picked = results.filter((r) => spec.ids(r.id) && r.values);
    const data = picked.flatMap((r) => {
      const v = r.values!;
      const ci = v.low !== undefined && v.high !== undefined ? (v.high - v.low) / 2 : 0;
      return [
        { claim: spec.label(r), source: PUBLISHED_SERIES, value: v.published, ci95: 0 },
        { claim: spec.label(r), source: OURS_SERIES, value: v.ours, ci95: ci },
      ];
    });
    return barChart({ data, x: 'claim', y: 'value', series: 'source', error: 'ci95', title: `${title}<br><sub>${PUBLISHED_SERIES}: the paper's numbers; ${OURS_SERIES}: ${status}</sub>`, xLabel: spec.xLabel, yLabel: spec.yLabel, logY: spec.logY });
  }
  const data = view === null ? [] : spec.points(view).map((p) => ({ ...p, ci95: p.ci95 ?? 0 }));
  const options = { data, x: 'x', y: 'y', series: 'series', error: 'ci95', title: `${title}<br><sub>ours only (the paper prints no numbers for it): ${status}</sub>`, xLabel: spec.xLabel, yLabel: spec.yLabel, logY: spec.logY };
  return spec.bars ? barChart(options) : lineChart(options);
}
