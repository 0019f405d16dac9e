/**
 * Counts kept by the hardening tests: each test records what it tried, how
 * many cases and the outcome. When the given environment variable is 1, the
 * table is printed (Markdown) as the test process exits, so the docs' tables
 * are filled from a run, not by hand.
 */

export type TallyRow<K extends string> = { [key in K]: string } & { kind: string; cases: number; outcome: string };

export interface Tally<K extends string> {
  /** Add (or, for the same group and kind, accumulate) one row. */
  record(row: TallyRow<K>): void;
  rows(): readonly TallyRow<K>[];
  /** The rows as a Markdown table. */
  table(): string;
}

/** A tally whose rows are grouped by `groupKey` (e.g. 'area' or 'family'), printed when `envVar`=1. */
export function createTally<K extends string>(groupKey: K, envVar: string): Tally<K> {
  const rows: TallyRow<K>[] = [];
  const tally: Tally<K> = {
    record(row) {
      const same = rows.find((r) => r[groupKey] === row[groupKey] && r.kind === row.kind);
      if (same) {
        same.cases += row.cases;
        same.outcome = row.outcome;
      } else rows.push({ ...row });
    },
    rows: () => rows,
    table() {
      const lines = [`| ${groupKey} | bad input or fault tried | cases | outcome |`, '|---|---|---:|---|'];
      for (const r of rows) lines.push(`| ${r[groupKey]} | ${r.kind} | ${r.cases} | ${r.outcome} |`);
      return lines.join('\n');
    },
  };
  if (process.env[envVar] === '1') process.on('exit', () => process.stdout.write(`\n${tally.table()}\n`));
  return tally;
}
