/**
 * Tables from plain records: inline HTML for notebooks, and CSV, Markdown and
 * LaTeX (booktabs) for papers. Columns are taken from the first record unless
 * given; numbers are rounded to `digits` significant decimals for display only
 * (CSV keeps full precision so results can be re-read exactly).
 */
import * as path from 'path';
import { inspect } from 'util';
import type { Row } from './frame';
import { display } from './display';
import { makeFolder, writeFileSafely } from '../util/errors';

/** How a table is written: columns and headers, decimals, title, LaTeX caption and label. */
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

/**
 * Formatter of one column: when any number in the column has decimals, every
 * number in it gets the same number of decimals (2 and 2.50 never share a column).
 */
function columnFormat(records: readonly Row[], col: string, digits = 3): (value: unknown) => string {
  const fractional = records.some((r) => typeof r[col] === 'number' && Number.isFinite(r[col]) && !Number.isInteger(r[col]));
  return (value) => (fractional && typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : formatCell(value, digits));
}

function isNumericColumn(records: readonly Row[], col: string): boolean {
  return records.length > 0 && records.every((r) => r[col] === undefined || r[col] === null || typeof r[col] === 'number');
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
  const align = cols.map((c) => (isNumericColumn(records, c) ? '---:' : ':---'));
  const fmt = cols.map((c) => columnFormat(records, c, options.digits));
  const body = records.map((r) => '| ' + cols.map((c, i) => esc(fmt[i](r[c]))).join(' | ') + ' |');
  const title = options.title ? `**${options.title}**\n\n` : '';
  return title + ['| ' + head.join(' | ') + ' |', '|' + align.join('|') + '|', ...body].join('\n') + '\n';
}

/**
 * Characters outside ASCII that tables use, as LaTeX that compiles with
 * pdflatex and no package beyond booktabs.
 */
const LATEX_CHARS: Record<string, string> = {
  '✔': '$\\surd$', '✓': '$\\surd$', '✘': '$\\times$', '✗': '$\\times$',
  'Σ': '$\\Sigma$', 'Δ': '$\\Delta$', 'σ': '$\\sigma$', 'μ': '$\\mu$', 'µ': '$\\mu$', 'α': '$\\alpha$', 'β': '$\\beta$', 'λ': '$\\lambda$', 'ρ': '$\\rho$',
  '≤': '$\\leq$', '≥': '$\\geq$', '≠': '$\\neq$', '≈': '$\\approx$', '±': '$\\pm$', '×': '$\\times$', '·': '$\\cdot$', '∞': '$\\infty$',
  '→': '$\\rightarrow$', '←': '$\\leftarrow$', '−': '$-$', '√': '$\\surd$', '°': '$^\\circ$', '²': '$^2$', '³': '$^3$',
  '–': '--', '—': '---', '‘': '`', '’': "'", '“': '``', '”': "''", '…': '\\ldots{}', '\u00a0': '~',
  'ø': '{\\o}', 'Ø': '{\\O}', 'æ': '{\\ae}', 'ß': '{\\ss}', 'å': '{\\aa}', 'Å': '{\\AA}', '§': '\\S{}', '€': 'EUR',
};
const LATEX_ASCII: Record<string, string> = {
  '\\': '\\textbackslash{}', '~': '\\textasciitilde{}', '^': '\\textasciicircum{}', '|': '\\textbar{}', '<': '\\textless{}', '>': '\\textgreater{}',
};
const LATEX_ACCENTS: Record<string, string> = { '\u0301': "'", '\u0300': '`', '\u0302': '^', '\u0308': '"', '\u0303': '~', '\u0327': 'c', '\u030c': 'v' };

/**
 * Escape text for LaTeX: the ten special ASCII characters, `| < >`, and every
 * non-ASCII character (a mapped symbol, an accented letter as an accent
 * command, else its code point in brackets, so a table never stops pdflatex).
 */
export function latexEscape(text: string): string {
  let out = '';
  for (const ch of text) {
    if (ch in LATEX_ASCII) out += LATEX_ASCII[ch];
    else if ('{}$&#_%'.includes(ch)) out += '\\' + ch;
    else if (ch.charCodeAt(0) < 128) out += ch;
    else if (ch in LATEX_CHARS) out += LATEX_CHARS[ch];
    else {
      const [base, ...marks] = ch.normalize('NFD');
      if (base.charCodeAt(0) < 128 && marks.length === 1 && marks[0] in LATEX_ACCENTS) out += `\\${LATEX_ACCENTS[marks[0]]}{${base}}`;
      else out += `[U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`;
    }
  }
  return out;
}

/** Tables this wide or long are set smaller, and the widest ones sideways. */
const SMALL_COLUMNS = 7;
const SMALL_ROWS = 25;
const SIDEWAYS_COLUMNS = 11;

/**
 * A LaTeX `table` with a booktabs `tabular` (needs \usepackage{booktabs};
 * tables of more than 10 columns are a `sidewaystable`, which needs
 * \usepackage{rotating}). Numbers are right-aligned with the same decimals
 * down a column.
 */
export function toLatex(records: readonly Row[], options: TableOptions = {}): string {
  const cols = columnsOf(records, options);
  const spec = cols.map((c) => (isNumericColumn(records, c) ? 'r' : 'l')).join('');
  const fmt = cols.map((c) => columnFormat(records, c, options.digits));
  const sideways = cols.length >= SIDEWAYS_COLUMNS;
  const env = sideways ? 'sidewaystable' : 'table';
  const lines: string[] = [`\\begin{${env}}${sideways ? '' : '[htbp]'}`, '\\centering'];
  if (sideways) lines.push('\\footnotesize');
  else if (cols.length >= SMALL_COLUMNS || records.length > SMALL_ROWS) lines.push('\\small');
  const caption = options.caption ?? options.title;
  if (caption) lines.push(`\\caption{${latexEscape(caption)}}`);
  if (options.label) lines.push(`\\label{${options.label}}`);
  lines.push(`\\begin{tabular}{${spec}}`, '\\toprule');
  lines.push(cols.map((c) => latexEscape(options.headers?.[c] ?? c)).join(' & ') + ' \\\\');
  lines.push('\\midrule');
  for (const r of records) {
    lines.push(cols.map((c, i) => latexEscape(fmt[i](r[c]))).join(' & ') + ' \\\\');
  }
  lines.push('\\bottomrule', '\\end{tabular}', `\\end{${env}}`);
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
  const fmt = cols.map((c) => columnFormat(records, c, options.digits));
  const body = records
    .map((r) => '<tr>' + cols.map((c, i) => `<td ${td(typeof r[c] === 'number')}>${htmlEscape(fmt[i](r[c]))}</td>`).join('') + '</tr>')
    .join('\n');
  const title = options.title ? `<caption style="caption-side:top;text-align:left;font-weight:bold;padding:4px 0">${htmlEscape(options.title)}</caption>` : '';
  return `<table style="border-collapse:collapse;font-size:12px">${title}<thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** Show records as a table inline in a notebook (plain text outside one). */
export function showTable(records: readonly Row[], options: TableOptions = {}): void {
  display({ 'text/html': toHtml(records, options), 'text/plain': toMarkdown(records, options) });
}

/** `file` relative to the working directory (the notebook's folder) when that is shorter. */
export function shortPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel && rel.length < file.length ? rel : file;
}

/** The files `writeTable` produced. */
export interface WrittenTable {
  csv: string;
  markdown: string;
  latex: string;
}

/**
 * Write `<dir>/<name>.csv`, `.md` and `.tex`; returns their absolute paths.
 * Echoed in a notebook (a cell ending with it) the result reads
 * `[table written: out/<notebook>/tables/<name>.csv, .md, .tex]`, relative to
 * the notebook's folder.
 *
 * @example
 * const written = writeTable([{ policy: 'easy', wait: 120.5 }], tablesDir('my-study'), 'waits', { caption: 'Mean wait', digits: 1 });
 * console.log(written.latex); // absolute path of out/my-study/tables/waits.tex
 */
export function writeTable(records: readonly Row[], dir: string, name: string, options: TableOptions = {}): WrittenTable {
  if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new Error(`table name must be a plain file name, got "${name}"`);
  makeFolder(dir);
  const base = path.join(dir, name);
  const out = { csv: `${base}.csv`, markdown: `${base}.md`, latex: `${base}.tex` };
  // Each file is written whole or not at all (OutputError naming it on a full disk).
  writeFileSafely(out.csv, toCsv(records, options));
  writeFileSafely(out.markdown, toMarkdown(records, options));
  writeFileSafely(out.latex, toLatex(records, options));
  Object.defineProperty(out, inspect.custom, { enumerable: false, value: () => `[table written: ${shortPath(out.csv)}, .md, .tex]` });
  return out;
}
