/**
 * Claims as data. A paper's registry lists every number and claim the paper
 * states about its experiments, with its place in the paper, the published
 * value (the only place a paper's number is typed), the computation that
 * answers it from our committed result records, and a verdict rule
 * (./rules.ts). `evaluateClaims` runs them; notebooks, `schedlab claims` and
 * docs/fidelity.md all read the same evaluation.
 */
import type { ResultRecord } from '../sweep/store';
import type { HeadlineChart } from './chart';
import { confidenceInterval95, directionVerdict, RuleOutcome, Tolerance, valueVerdict, Verdict, VERDICTS } from './rules';

/** What the paper states. */
export type Published =
  /** A number, with the tolerance within which ours reproduces it (`reference`: the "no effect" value, default 0). */
  | { kind: 'value'; value: number; unit?: string; tolerance: Tolerance; reference?: number }
  /** A direction or ordering; ours is measured as a margin (> 0: holds). */
  | { kind: 'direction' }
  /** A statement we cannot check, and why. */
  | { kind: 'not comparable'; reason: string };

/** What we computed for one claim. */
export interface Measured {
  /** Our value (a value claim: in the published unit; a direction claim: the margin, > 0 = holds). */
  value: number;
  /** Replications, loads or paired differences behind `value`, for a 95 % CI. */
  samples?: number[];
  /** One line: what we found. */
  text: string;
}

/** One number or finding a paper states: where, the published value, how ours is computed and judged. */
export interface Claim<V> {
  /** Stable id, unique within the registry. */
  id: string;
  /** Where the paper states it: 'Abstract', 'Figure 6', 'Table 2', 'Section 3.4 (2)'. */
  place: string;
  /** The paper's statement (quoted or closely paraphrased). */
  statement: string;
  published: Published;
  /** One of the claims that matter most (shown first). */
  headline?: boolean;
  /** The computation from our results (absent when not comparable). */
  measure?: (view: V) => Measured;
  /** Why ours differs, where an ablation found it (which switch moves ours to the published value, or what was ruled out). */
  cause?: string;
}

/** Every claim of one paper, with how its values are computed from the notebook's records. */
export interface ClaimRegistry<V = unknown> {
  notebook: string;
  /** Short citation of the paper. */
  paper: string;
  /** The records regrouped as the claims read them (usually the experiment's own `results`). */
  view(records: readonly ResultRecord[]): V;
  claims: readonly Claim<V>[];
  /** The paper's headline chart, drawn from our results with the published values over it (./chart.ts). */
  chart?: HeadlineChart<V>;
}

/** One claim evaluated: published, ours, verdict and why. */
export interface ClaimResult {
  id: string;
  place: string;
  statement: string;
  headline: boolean;
  verdict: Verdict;
  /** The published value or direction, as text. */
  published: string;
  /** Ours, as text. */
  ours: string;
  /** ours / published for value claims. */
  ratio?: number;
  reason: string;
  /** A value claim's numbers: the published value, ours and our 95 % CI (when there are samples), for charts. */
  values?: { published: number; ours: number; low?: number; high?: number };
  /** The claim's cause, when one is known. */
  cause?: string;
}

function publishedText(p: Published): string {
  if (p.kind === 'value') return `${p.value}${p.unit ? ` ${p.unit}` : ''}`;
  if (p.kind === 'direction') return 'direction (see statement)';
  return '—';
}

/** Verdict of one claim from its published side and our measurement. */
export function judge(published: Published, measured: Measured | null): RuleOutcome {
  if (published.kind === 'not comparable') return { verdict: 'not comparable', reason: published.reason };
  if (!measured) return { verdict: 'not comparable', reason: 'no computation' };
  if (published.kind === 'value') return valueVerdict(published.value, measured.value, published.tolerance, { samples: measured.samples, reference: published.reference });
  return directionVerdict(measured.value, measured.samples);
}

/** Evaluate every claim of a registry on result records (the committed records of its notebook). */
export function evaluateClaims<V>(registry: ClaimRegistry<V>, records: readonly ResultRecord[]): ClaimResult[] {
  return evaluateOnView(registry, records.length ? registry.view(records) : null);
}

/** Evaluate every claim of a registry on its view of the records (null: no records). */
export function evaluateOnView<V>(registry: ClaimRegistry<V>, view: V | null): ClaimResult[] {
  const ids = new Set<string>();
  for (const c of registry.claims) {
    if (ids.has(c.id)) throw new Error(`${registry.notebook}: claim id ${c.id} is used twice`);
    ids.add(c.id);
  }
  return registry.claims.map((c) => {
    let measured: Measured | null = null;
    if (c.measure && view !== null) measured = c.measure(view);
    const outcome = view === null && c.published.kind !== 'not comparable' ? { verdict: 'not comparable' as const, reason: 'no committed results' } : judge(c.published, measured);
    return {
      id: c.id,
      place: c.place,
      statement: c.statement,
      headline: c.headline === true,
      verdict: outcome.verdict,
      published: publishedText(c.published),
      ours: measured?.text ?? '—',
      ratio: outcome.ratio,
      reason: outcome.reason,
      values: c.published.kind === 'value' && measured && Number.isFinite(measured.value) ? valuesOf(c.published.value, measured) : undefined,
      ...(c.cause ? { cause: c.cause } : {}),
    };
  });
}

function valuesOf(published: number, measured: Measured): ClaimResult['values'] {
  const ci = measured.samples ? confidenceInterval95(measured.samples) : null;
  return ci ? { published, ours: measured.value, low: ci.low, high: ci.high } : { published, ours: measured.value };
}

/** Claims per verdict, every verdict listed (0 when none). */
export function countVerdicts(results: readonly ClaimResult[]): Record<Verdict, number> {
  const out = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const r of results) out[r.verdict]++;
  return out;
}
