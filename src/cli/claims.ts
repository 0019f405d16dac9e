/**
 * `schedlab claims <notebook>|all`: the paper's stated numbers and findings
 * (the notebook's claims registry, src/claims/) with the verdict computed
 * from the committed results: counts per verdict, then every claim with its
 * place in the paper, the published value and ours.
 */
import { CLAIM_REGISTRIES, claimRegistry, claimsFor, countsLine, NotebookClaims, VERDICTS, Verdict } from '../claims';
import { UsageError } from '../util/errors';

const USAGE = `usage: schedlab claims <notebook>|all [--verdict V] [--json]
Prints every claim the notebook's paper states, its place in the paper, the published value, ours
(computed from results/<notebook>/*.jsonl.gz) and the verdict: ${VERDICTS.join(', ')}.
--verdict V keeps the claims with that verdict (reproduced, different, contradicted, not-comparable).
--json prints the evaluation as JSON. <notebook>: a name or unique prefix (03); all: every registry.`;

const VERDICT_FLAG: Record<string, Verdict> = { reproduced: 'reproduced', different: 'same direction, different size', contradicted: 'contradicted', 'not-comparable': 'not comparable' };

/** The evaluation of one notebook as text. */
export function formatClaims(c: NotebookClaims, only?: Verdict): string {
  const lines = [`${c.notebook} — ${c.paper}`, c.status, countsLine(c), ''];
  for (const r of c.results) {
    if (only && r.verdict !== only) continue;
    lines.push(`[${r.verdict}${r.ratio !== undefined && r.verdict !== 'reproduced' ? `, ratio ${r.ratio.toFixed(2)}` : ''}] ${r.place}: ${r.statement}`);
    lines.push(`    published: ${r.published}`);
    lines.push(`    ours:      ${r.ours}`);
    lines.push(`    why:       ${r.reason}`);
  }
  return lines.join('\n');
}

/** Entry point: `argv` after `claims`. Resolves to the exit code (0 ok, 1 error, 2 usage). */
export async function claimsMain(argv: readonly string[], out: (s: string) => void = (s) => process.stdout.write(s + '\n'), err: (s: string) => void = (s) => process.stderr.write(s + '\n')): Promise<number> {
  try {
    return run(argv, out);
  } catch (e) {
    err(`schedlab claims: ${(e as Error).message}`);
    return e instanceof UsageError ? 2 : 1;
  }
}

function run(argv: readonly string[], out: (s: string) => void): number {
  const positional = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--verdict');
  if (argv.includes('--help') || positional.length === 0) {
    out(USAGE);
    return argv.includes('--help') ? 0 : 2;
  }
  const unknown = argv.filter((a) => a.startsWith('--') && !['--help', '--json', '--verdict'].includes(a));
  if (unknown.length) throw new UsageError(`unknown option ${unknown[0]}\n${USAGE}`, { field: unknown[0] });
  if (positional.length !== 1) throw new UsageError(`expected one notebook name, got ${positional.length}: ${positional.join(' ')}`);
  let only: Verdict | undefined;
  const vi = argv.indexOf('--verdict');
  if (vi >= 0) {
    only = VERDICT_FLAG[argv[vi + 1] ?? ''];
    if (!only) throw new UsageError(`--verdict must be one of ${Object.keys(VERDICT_FLAG).join(', ')}, got ${JSON.stringify(argv[vi + 1] ?? '')}`, { field: '--verdict' });
  }
  let names: string[];
  try {
    names = positional[0] === 'all' ? CLAIM_REGISTRIES.map((r) => r.notebook) : [claimRegistry(positional[0]).notebook];
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const evaluated = names.map((n) => claimsFor(n));
  if (argv.includes('--json')) out(JSON.stringify(evaluated.map(({ chart: _chart, ...c }) => ({ ...c, results: only ? c.results.filter((r) => r.verdict === only) : c.results })), null, 2));
  else out(evaluated.map((c) => formatClaims(c, only)).join('\n\n'));
  return 0;
}
