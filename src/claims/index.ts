/**
 * Claims as data (issue 26): each paper's registry of stated numbers and
 * findings, with computed verdicts on the committed results.
 *
 *   evaluateClaims(registry, records)   verdicts of one registry on records
 *   claimsFor(notebook[, committed])     the committed records of a notebook, evaluated (cached: per process and on disk)
 *   claimsSummary(notebook[, committed]) a notebook's first screen: verdict counts and its three headline claims
 *   countsLine(claims)                   the verdict counts as one line
 *   headlineChart(notebook[, committed]) the paper's headline chart, ours with the published values over it
 *   claimsMarkdown(results)              claims as a markdown list (published, ours, verdict), for prose rendered from results
 *   claimRows(results)                   claims as table rows (place, claim, published, ours, verdict, why)
 *
 * The same evaluation feeds `schedlab claims <notebook>` and docs/fidelity.md
 * (scripts/fidelity.ts).
 */
import { cachedFromCommitted, committedRoot, CommittedResults, findPaperExperiment, loadCommittedResults } from '../sweep/papers';
import type { Figure } from '../analysis/charts';
import { ClaimRegistry, ClaimResult, countVerdicts, evaluateOnView } from './registry';
import { drawHeadlineChart } from './chart';
import { VERDICTS, Verdict } from './rules';
import { registry as dfrs } from './01-dfrs-vs-batch';
import { registry as vcsched } from './02-virtual-clusters';
import { registry as evolving } from './03-evolving-applications';
import { registry as reservation } from './04-advance-reservation';
import { registry as measy } from './05-measy';

export * from './rules';
export * from './registry';
export * from './chart';
export { claimsMarkdown, claimRows } from './render';
export { everywhere, somewhere, pairedMargin, experimentView } from './measures';
export { reservationClaimsOn, ABLATION_CLAIM_IDS as RESERVATION_ABLATION_CLAIM_IDS } from './04-advance-reservation';
export { measyAblationRows, measyCauses, MEASY_ABLATION_QUESTIONS, MeasyAblationQuestion, MeasyAblationRow } from './05-measy';

/** Every registry, in notebook order. */
export const CLAIM_REGISTRIES: readonly ClaimRegistry<any>[] = [dfrs, vcsched, evolving, reservation, measy]; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The registry of a notebook (full name or unique prefix, as `schedlab paper`). */
export function claimRegistry(notebook: string): ClaimRegistry<unknown> {
  const name = findPaperExperiment(notebook).notebook;
  const r = CLAIM_REGISTRIES.find((x) => x.notebook === name);
  if (!r) throw new Error(`no claims registry for ${name} yet; registries: ${CLAIM_REGISTRIES.map((x) => x.notebook).join(', ')}`);
  return r;
}

/** A notebook's claims evaluated on its committed results. */
export interface NotebookClaims {
  notebook: string;
  paper: string;
  /** The committed results' status line (coverage). */
  status: string;
  results: ClaimResult[];
  counts: Record<Verdict, number>;
  /** The paper's headline chart drawn from the same evaluation (null when the registry has none). */
  chart?: Figure | null;
}

const cache = new Map<string, NotebookClaims>();

/** Forget the evaluations this process holds (the next `claimsFor` reads the cache on disk or evaluates again). */
export function forgetClaims(): void {
  cache.clear();
}

function evaluate(registry: ClaimRegistry<unknown>, from: CommittedResults): NotebookClaims {
  const view = from.records.length ? registry.view(from.records) : null;
  const results = evaluateOnView(registry, view);
  const chart = registry.chart ? drawHeadlineChart(registry.chart, results, view, 'committed paper-scale results') : null;
  return { notebook: registry.notebook, paper: registry.paper, status: from.status, results, counts: countVerdicts(results), chart };
}

/**
 * Evaluate a notebook's registry on its committed paper-scale results, once
 * per process and, across processes, through the content-addressed cache
 * (src/util/cache.ts: kept while the committed files it read and the code are
 * byte for byte the same; `SCHEDLAB_CACHE`). A notebook that already holds its
 * committed results passes them (`loadCommittedResults(experiment)`): they are
 * evaluated as given.
 */
export function claimsFor(notebook: string, committed?: CommittedResults): NotebookClaims {
  const registry = claimRegistry(notebook);
  if (committed) return evaluate(registry, committed);
  let out = cache.get(registry.notebook);
  if (!out) {
    out = cachedFromCommitted('claims', registry.notebook, { root: committedRoot() }, () => evaluate(registry, loadCommittedResults(findPaperExperiment(registry.notebook))));
    cache.set(registry.notebook, out);
  }
  return out;
}

/** A notebook's first screen: verdict counts and the three headline claims, published vs ours. */
export interface ClaimsSummary {
  notebook: string;
  paper: string;
  status: string;
  /** One row per verdict: `{ verdict, claims }`, every verdict listed. */
  counts: { verdict: Verdict; claims: number }[];
  /** The same counts as one line (countsLine), short enough for the first screen beside the headline chart. */
  line: string;
  /** The three claims that matter most (the registry's headline claims, in its order): published vs ours. */
  top: { place: string; claim: string; published: string; ours: string; verdict: Verdict }[];
}

/**
 * A notebook's first screen: how many claims of the paper each verdict got,
 * and the three headline claims with the published value beside ours. Plain
 * rows, ready for `showTable`.
 */
export function claimsSummary(notebook: string, committed?: CommittedResults): ClaimsSummary {
  const c = claimsFor(notebook, committed);
  const top = c.results.filter((r) => r.headline).slice(0, 3).map((r) => ({ place: r.place, claim: r.statement, published: r.published, ours: r.ours, verdict: r.verdict }));
  return { notebook: c.notebook, paper: c.paper, status: c.status, counts: Object.entries(c.counts).map(([verdict, claims]) => ({ verdict: verdict as Verdict, claims })), line: countsLine(c), top };
}

/** The verdict counts as one line: "19 claims: 15 reproduced; 0 same direction, different size; 1 contradicted; 3 not comparable". */
export function countsLine(c: Pick<NotebookClaims, 'results' | 'counts'>): string {
  return `${c.results.length} claims: ` + VERDICTS.map((v) => `${c.counts[v]} ${v}`).join('; ');
}

/**
 * The paper's headline chart for a notebook's first screen, right after the
 * verdict summary: our committed paper-scale results with the published values
 * over them as a series labelled "published" (from the registry's value
 * claims), or ours alone where the paper prints the figure without numbers.
 */
export function headlineChart(notebook: string, committed?: CommittedResults): Figure {
  const c = claimsFor(notebook, committed);
  if (!c.chart) throw new Error(`${c.notebook}: its claims registry names no headline chart`);
  return c.chart;
}
