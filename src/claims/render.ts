/**
 * Claims as a table or markdown: the findings tables and the sentences of a notebook's discussion that quote a
 * result are rendered from the evaluated claims, so they change with the
 * results instead of going stale.
 */
import type { ClaimResult } from './registry';

/**
 * A markdown list of claims, one line each: the verdict in bold, where the paper
 * states it, the statement, the published value and ours. `results` are
 * evaluated claims (`claimsFor(...).results` or `evaluateClaims(...)`).
 */
export function claimsMarkdown(results: readonly ClaimResult[]): string {
  if (results.length === 0) return '*(no claim to show)*';
  const esc = (s: string) => s.replace(/([*_`\\[\]<>|])/g, '\\$1');
  return results
    .map((r) => {
      const ratio = r.ratio !== undefined && r.verdict !== 'reproduced' && Number.isFinite(r.ratio) ? `, ratio ${r.ratio.toFixed(2)}` : '';
      const published = r.published.startsWith('direction') ? '' : ` Published: ${esc(r.published)};`;
      return `* **${r.verdict}${ratio}** — ${esc(r.place)}: ${esc(r.statement)}.${published} ours: ${esc(r.ours)}.`;
    })
    .join('\n');
}

/** One row per claim for `showTable`/`writeTable`: where, the claim, published, ours, the verdict (with the ratio) and why. */
export function claimRows(results: readonly ClaimResult[]): { place: string; claim: string; published: string; ours: string; verdict: string; why: string }[] {
  return results.map((r) => ({
    place: r.place,
    claim: r.statement,
    published: r.published,
    ours: r.ours,
    verdict: r.verdict + (r.ratio !== undefined && r.verdict !== 'reproduced' && Number.isFinite(r.ratio) ? ` (ratio ${r.ratio.toFixed(2)})` : ''),
    why: r.reason,
  }));
}
