/**
 * Claims as markdown: the sentences of a notebook's discussion that quote a
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
