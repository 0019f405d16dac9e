/**
 * Counts of the paper-family hardening tests: each test records what it
 * tried, how many cases and the outcome. With SCHEDLAB_HARDENING_PAPERS_TABLE=1
 * the table is printed (Markdown) when the test process exits, so
 * docs/hardening-papers.md is filled from a run, not by hand:
 *
 *   SCHEDLAB_HARDENING_PAPERS_TABLE=1 npx mocha 'test/hardening-papers/**\/*.test.ts'
 */

export interface TallyRow {
  family: string;
  kind: string;
  cases: number;
  outcome: string;
}

const rows: TallyRow[] = [];

/** Add one row (or, for the same family and kind, add its cases). */
export function record(row: TallyRow): void {
  const same = rows.find((r) => r.family === row.family && r.kind === row.kind);
  if (same) {
    same.cases += row.cases;
    same.outcome = row.outcome;
  } else rows.push({ ...row });
}

export function tallyRows(): readonly TallyRow[] {
  return rows;
}

/** The rows as a Markdown table. */
export function tallyTable(): string {
  const lines = ['| family | bad input or fault tried | cases | outcome |', '|---|---|---:|---|'];
  for (const r of rows) lines.push(`| ${r.family} | ${r.kind} | ${r.cases} | ${r.outcome} |`);
  return lines.join('\n');
}

if (process.env.SCHEDLAB_HARDENING_PAPERS_TABLE === '1') {
  process.on('exit', () => {
    process.stdout.write(`\n${tallyTable()}\n`);
  });
}
