/**
 * Tables from plain records: inline HTML for notebooks, and CSV, Markdown and
 * LaTeX (booktabs) for papers. Columns are taken from the first record unless
 * given; numbers are rounded to `digits` significant decimals for display only
 * (CSV keeps full precision so results can be re-read exactly).
 */
import * as path from 'path';
import type { Row } from './frame';
import { display } from './display';
import { makeFolder, writeFileSafely } from '../util/errors';

export interface TableOptions {
  /** Columns to include, in order (default: keys of the first record). */
  columns?: string[];
  /** Human-readable header per column (default: the key). */
  headers?: Record<string, string>;
  /** Decimal places for non-integer numbers in HTML/Markdown/LaTeX (default 3). */
  digits?: number;
  /** Title shown above the HTML table, and the LaTeX caption. */
  title?: string;
  /** LaTeX caption (default: title). */
  caption?: string;
  /** LaTeX label. */
  label?: string;
}

function columnsOf(records: readonly Row[], options: TableOptions): string[] {
  if (options.columns) return options.columns;
  if (records.length === 0) return [];
  const seen: string[] = [];
  for (const r of records) for (const k of Object.keys(r)) if (!seen.includes(k)) seen.push(k);
  return seen;
}

/** Display text of one cell. */
export function formatCell(value: unknown, digits = 3): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? '∞' : '-∞';
    if (Number.isInteger(value)) return String(value);
    return value.toFixed(digits);
  }
  return String(value);
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const s = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : String(value)) : String(value);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** RFC 4180 CSV with a header line; numbers at full precision. */
export function toCsv(records: readonly Row[], options: TableOptions = {}): string {
  const cols = columnsOf(records, options);
  const lines = [cols.map(csvCell).join(',')];
  for (const r of records) lines.push(cols.map((c) => csvCell(r[c])).join(','));
  return lines.join('\n') + '\n';
}

/** GitHub-flavoured Markdown table. */
export function toMarkdown(records: readonly Row[], options: TableOptions = {}): string {
  const cols = columnsOf(records, options);
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const head = cols.map((c) => esc(options.headers?.[c] ?? c));
  const align = cols.map((c) => (records.length > 0 && typeof records[0][c] === 'number' ? '---:' : ':---'));
  const body = records.map((r) => '| ' + cols.map((c) => esc(formatCell(r[c], options.digits))).join(' | ') + ' |');
  const title = options.title ? `**${options.title}**\n\n` : '';
  return title + ['| ' + head.join(' | ') + ' |', '|' + align.join('|') + '|', ...body].join('\n') + '\n';
}

/** Escape text for LaTeX. */
export function latexEscape(text: string): string {
  return text.replace(/[\\{}$&#^_%~]/g, (ch) => {
    switch (ch) {
      case '\\':
        return '\\textbackslash{}';
      case '~':
        return '\\textasciitilde{}';
      case '^':
        return '\\textasciicircum{}';
      default:
        return '\\' + ch;
    }
  });
}

/** A LaTeX `table` with a booktabs `tabular` (needs \usepackage{booktabs}). */
export function toLatex(records: readonly Row[], options: TableOptions = {}): string {
  const cols = columnsOf(records, options);
  const spec = cols.map((c) => (records.length > 0 && typeof records[0][c] === 'number' ? 'r' : 'l')).join('');
  const lines: string[] = ['\\begin{table}[htbp]', '\\centering'];
  const caption = options.caption ?? options.title;
  if (caption) lines.push(`\\caption{${latexEscape(caption)}}`);
  if (options.label) lines.push(`\\label{${options.label}}`);
  lines.push(`\\begin{tabular}{${spec}}`, '\\toprule');
  lines.push(cols.map((c) => latexEscape(options.headers?.[c] ?? c)).join(' & ') + ' \\\\');
  lines.push('\\midrule');
  for (const r of records) {
    lines.push(cols.map((c) => latexEscape(formatCell(r[c], options.digits))).join(' & ') + ' \\\\');
  }
  lines.push('\\bottomrule', '\\end{tabular}', '\\end{table}');
  return lines.join('\n') + '\n';
}

function htmlEscape(text: string): string {
  return text.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch] as string);
}

/** A self-contained HTML table (inline styles, readable in any viewer). */
export function toHtml(records: readonly Row[], options: TableOptions = {}): string {
  const cols = columnsOf(records, options);
  const th = 'style="text-align:left;padding:3px 8px;border-bottom:1px solid #444"';
  const td = (num: boolean) => `style="text-align:${num ? 'right' : 'left'};padding:2px 8px;font-variant-numeric:tabular-nums"`;
  const head = cols.map((c) => `<th ${th}>${htmlEscape(options.headers?.[c] ?? c)}</th>`).join('');
  const body = records
    .map((r) => '<tr>' + cols.map((c) => `<td ${td(typeof r[c] === 'number')}>${htmlEscape(formatCell(r[c], options.digits))}</td>`).join('') + '</tr>')
    .join('\n');
  const title = options.title ? `<caption style="caption-side:top;text-align:left;font-weight:bold;padding:4px 0">${htmlEscape(options.title)}</caption>` : '';
  return `<table style="border-collapse:collapse;font-size:12px">${title}<thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** Show records as a table inline in a notebook (plain text outside one). */
export function showTable(records: readonly Row[], options: TableOptions = {}): void {
  display({ 'text/html': toHtml(records, options), 'text/plain': toMarkdown(records, options) });
}

/** The files `writeTable` produced. */
export interface WrittenTable {
  csv: string;
  markdown: string;
  latex: string;
}

/** Write `<dir>/<name>.csv`, `.md` and `.tex`; returns their paths. */
export function writeTable(records: readonly Row[], dir: string, name: string, options: TableOptions = {}): WrittenTable {
  if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new Error(`table name must be a plain file name, got "${name}"`);
  makeFolder(dir);
  const base = path.join(dir, name);
  const out = { csv: `${base}.csv`, markdown: `${base}.md`, latex: `${base}.tex` };
  // Each file is written whole or not at all (OutputError naming it on a full disk).
  writeFileSafely(out.csv, toCsv(records, options));
  writeFileSafely(out.markdown, toMarkdown(records, options));
  writeFileSafely(out.latex, toLatex(records, options));
  return out;
}
