/** Small building blocks the registries use to turn results into a `Measured`. */
import { mean } from 'simple-statistics';
import type { PaperExperiment, PaperSummary } from '../sweep/papers/common';
import type { ResultRecord } from '../sweep/store';
import type { Measured } from './registry';

/** The experiment's own regrouping of committed records (the view its notebook analyses). */
export function experimentView<R>(experiment: PaperExperiment<R>, records: readonly ResultRecord[]): R {
  const summary = { sweep: experiment.notebook, out: '', shard: null, total: records.length, skipped: records.length, ok: records.length, failed: 0, missing: 0, records: [...records], partial: true } as unknown as PaperSummary;
  return experiment.results(summary);
}

/** Up to `digits` significant decimals, for one-line texts. */
export function fmt(x: number, digits = 3): string {
  if (!Number.isFinite(x)) return String(x);
  return Math.abs(x) >= 100 ? x.toFixed(0) : Number(x.toPrecision(digits)).toString();
}

/**
 * A claim that must hold in every case (every load, every setting): the margin
 * is the smallest one, the text says in how many cases it holds and where it
 * fails worst.
 */
export function everywhere(cases: readonly { at: string; margin: number }[], unit = ''): Measured {
  if (cases.length === 0) return { value: NaN, text: 'no case to check' };
  const worst = cases.reduce((a, b) => (b.margin < a.margin ? b : a));
  const holds = cases.filter((c) => c.margin > 0).length;
  return { value: worst.margin, text: `holds in ${holds} of ${cases.length} (smallest margin ${fmt(worst.margin)}${unit} at ${worst.at})` };
}

/** A claim that must hold somewhere: the margin is the largest one. */
export function somewhere(cases: readonly { at: string; margin: number }[], unit = ''): Measured {
  if (cases.length === 0) return { value: NaN, text: 'no case to check' };
  const best = cases.reduce((a, b) => (b.margin > a.margin ? b : a));
  const holds = cases.filter((c) => c.margin > 0).length;
  return { value: best.margin, text: `holds in ${holds} of ${cases.length} (largest margin ${fmt(best.margin)}${unit} at ${best.at})` };
}

/** A paired comparison: the mean of per-unit differences, with the differences as samples for a 95 % CI. */
export function pairedMargin(diffs: readonly number[], text: string): Measured {
  const xs = diffs.filter(Number.isFinite);
  return { value: xs.length ? mean(xs) : NaN, samples: xs, text };
}

/** (max − min) / mean of a few values: how much they differ relative to their size. */
export function relativeSpread(xs: readonly number[]): number {
  return (Math.max(...xs) - Math.min(...xs)) / mean([...xs]);
}
