/**
 * Verdict rules: small functions that turn a published value (or a published
 * direction) and what we measured into one of four verdicts. Each rule can
 * fail: change the published value and the verdict changes (test/claims).
 */
import { mean } from 'simple-statistics';
import { confidenceHalfWidth } from '../analysis/summarize';

/** How a claim fares against our results. */
export type Verdict = 'reproduced' | 'same direction, different size' | 'contradicted' | 'not comparable';
/** Every Verdict, in the order tables list them. */
export const VERDICTS: readonly Verdict[] = ['reproduced', 'same direction, different size', 'contradicted', 'not comparable'];

/** How close our value must be to a published one: |ours − published| ≤ absolute, or ≤ relative × |published|. */
export interface Tolerance {
  absolute?: number;
  relative?: number;
}

/** True when `ours` is within the tolerance of `published` (either bound suffices). */
export function withinTolerance(ours: number, published: number, tolerance: Tolerance): boolean {
  if (!Number.isFinite(ours) || !Number.isFinite(published)) return false;
  const d = Math.abs(ours - published);
  return (tolerance.absolute !== undefined && d <= tolerance.absolute) || (tolerance.relative !== undefined && d <= tolerance.relative * Math.abs(published));
}

/** The 95 % confidence interval of the mean of `samples` (Student t, simple-statistics' sample SD); null for fewer than two finite samples. */
export function confidenceInterval95(samples: readonly number[]): { mean: number; low: number; high: number } | null {
  const xs = samples.filter(Number.isFinite);
  if (xs.length < 2) return null;
  const m = mean(xs);
  const h = confidenceHalfWidth(xs);
  return { mean: m, low: m - h, high: m + h };
}

/** True when `value` lies inside the 95 % CI of the mean of `samples` (false when there is no CI). */
export function ciContains(samples: readonly number[], value: number): boolean {
  const ci = confidenceInterval95(samples);
  return ci !== null && value >= ci.low && value <= ci.high;
}

/** True when ours and published lie strictly on the same side of `reference` (default 0). */
export function sameDirection(ours: number, published: number, reference = 0): boolean {
  return Math.sign(ours - reference) !== 0 && Math.sign(ours - reference) === Math.sign(published - reference);
}

/** Size of our effect relative to the published one, both measured from `reference`: 1 = same size. */
export function effectRatio(ours: number, published: number, reference = 0): number {
  return (ours - reference) / (published - reference);
}

/** What a verdict rule decides, with the numbers it compared. */
export interface RuleOutcome {
  verdict: Verdict;
  /** ours / published (effects from the reference), for a value claim. */
  ratio?: number;
  /** Why this verdict, in a few words. */
  reason: string;
}

/**
 * A published number: reproduced when ours is within the tolerance or the
 * published value is inside our 95 % CI; otherwise same direction (from the
 * reference) with the ratio, or contradicted.
 */
export function valueVerdict(published: number, ours: number, tolerance: Tolerance, options: { samples?: readonly number[]; reference?: number } = {}): RuleOutcome {
  const reference = options.reference ?? 0;
  if (!Number.isFinite(ours)) return { verdict: 'not comparable', reason: 'no value computed' };
  const ratio = effectRatio(ours, published, reference);
  if (withinTolerance(ours, published, tolerance)) return { verdict: 'reproduced', ratio, reason: `within tolerance (${toleranceText(tolerance)})` };
  if (options.samples && ciContains(options.samples, published)) return { verdict: 'reproduced', ratio, reason: 'published value inside our 95% CI' };
  if (sameDirection(ours, published, reference)) return { verdict: 'same direction, different size', ratio, reason: `outside tolerance (${toleranceText(tolerance)}), ratio ${ratio.toFixed(2)}` };
  return { verdict: 'contradicted', ratio, reason: `opposite side of ${reference}` };
}

/**
 * A published direction ("A beats B", "X grows with Y"), measured as a signed
 * margin (> 0: the claim holds). With samples (paired differences, per-setting
 * margins) the margin's 95 % CI decides: reproduced when it excludes 0 on the
 * claimed side, same direction (not significant) when the mean is on that side
 * but the CI reaches 0, contradicted when the mean is not on that side.
 */
export function directionVerdict(margin: number, samples?: readonly number[]): RuleOutcome {
  if (!Number.isFinite(margin)) return { verdict: 'not comparable', reason: 'no value computed' };
  if (margin <= 0) return { verdict: 'contradicted', reason: 'the claimed direction does not hold' };
  const ci = samples ? confidenceInterval95(samples) : null;
  if (ci && ci.low <= 0) return { verdict: 'same direction, different size', reason: `holds on average, but the 95% CI [${ci.low.toPrecision(3)}, ${ci.high.toPrecision(3)}] reaches 0` };
  return { verdict: 'reproduced', reason: ci ? `95% CI [${ci.low.toPrecision(3)}, ${ci.high.toPrecision(3)}] excludes 0` : 'the claimed direction holds' };
}

function toleranceText(t: Tolerance): string {
  return [t.absolute !== undefined ? `±${t.absolute}` : '', t.relative !== undefined ? `±${100 * t.relative}%` : ''].filter(Boolean).join(' or ');
}
