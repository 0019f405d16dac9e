/**
 * Counts of the hardening tests: each test records what it tried, how many
 * cases and the outcome. With SCHEDLAB_HARDENING_TABLE=1 the table is printed
 * (Markdown) when the test process exits, so docs/hardening.md is filled from
 * a run, not by hand:
 *
 *   SCHEDLAB_HARDENING_TABLE=1 npx mocha 'test/hardening/**\/*.test.ts'
 */

export interface TallyRow {
  area: string;
  kind: string;
  cases: number;
  outcome: string;
}

const rows: TallyRow[] = [];

/** Add (or, for the same area and kind, accumulate) one row. */
export function record(row: TallyRow): void {
  const same = rows.find((r) => r.area === row.area && r.kind === row.kind);
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
  const lines = ['| area | bad input or fault tried | cases | outcome |', '|---|---|---:|---|'];
  for (const r of rows) lines.push(`| ${r.area} | ${r.kind} | ${r.cases} | ${r.outcome} |`);
  return lines.join('\n');
}

if (process.env.SCHEDLAB_HARDENING_TABLE === '1') {
  process.on('exit', () => {
    process.stdout.write(`\n${tallyTable()}\n`);
  });
}
