/**
 * Ablation of notebook 01 (issue 25): records of one sweep where candidate
 * causes of a gap to the paper are switches (one changed at a time), summed
 * up per variant and algorithm beside the default variant on the same traces
 * and beside the published value. A subset of traces can stand for the whole
 * set: the variant's effect on the subset (its ratio to the default there) is
 * applied to the whole set's average, and that projection is what is held
 * against the published value.
 */
import { mean } from 'simple-statistics';

/** How to read an ablation's records. */
export interface AblationOptions {
  /** Record fields that are switches, e.g. ['spanning', 'tasks']. */
  switches: readonly string[];
  /** The default value of every switch (the notebook's own runs). */
  defaults: Readonly<Record<string, string>>;
  /** Metric to compare (default 'degradation'). */
  metric?: string;
  /** The algorithm's average over the whole set under the defaults (e.g. Table 2's), or NaN. */
  fullSetAverage: (algorithm: string) => number;
  /** The published average for the algorithm, or NaN. */
  published: (algorithm: string) => number;
}

/** One (variant, algorithm) of an ablation. A type, not an interface: rows for tables. */
export type AblationRow = {
  /** The switches that differ from the defaults, 'default' for none: "spanning=drop". */
  variant: string;
  algorithm: string;
  traces: number;
  /** Average of the metric over the variant's traces. */
  avg: number;
  /** avg / the default variant's average on the same traces. */
  ratio_to_default: number;
  /** The whole set's default average times ratio_to_default. */
  projected: number;
  published: number;
  /** projected / published: 1 when the variant alone explains the gap. */
  projected_over_published: number;
};

/** Per variant (in order of first appearance) and algorithm: see {@link AblationRow}. */
export function ablationSummary(records: readonly Record<string, unknown>[], options: AblationOptions): AblationRow[] {
  const metric = options.metric ?? 'degradation';
  const variantOf = (r: Record<string, unknown>) => {
    const changed = options.switches.filter((k) => String(r[k]) !== options.defaults[k]).map((k) => `${k}=${String(r[k])}`);
    return changed.length ? changed.join(', ') : 'default';
  };
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const r of records) {
    const key = `${variantOf(r)}\u0000${String(r.algorithm)}`;
    const g = groups.get(key);
    if (g) g.push(r);
    else groups.set(key, [r]);
  }
  const avgOf = (rs: readonly Record<string, unknown>[]) => {
    const xs = rs.map((r) => r[metric] as number).filter(Number.isFinite);
    return xs.length ? mean(xs) : NaN;
  };
  return [...groups].map(([key, rs]) => {
    const [variant, algorithm] = key.split('\u0000');
    const avg = avgOf(rs);
    const base = groups.get(`default\u0000${algorithm}`) ?? [];
    // the default on the same traces as this variant
    const traces = new Set(rs.map((r) => String(r.trace)));
    const ratio = avg / avgOf(base.filter((r) => traces.has(String(r.trace))));
    const projected = options.fullSetAverage(algorithm) * ratio;
    const published = options.published(algorithm);
    return { variant, algorithm, traces: rs.length, avg, ratio_to_default: ratio, projected, published, projected_over_published: projected / published };
  });
}
