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
import { outputStem } from './paths';
import { displayName } from './charts';

/** How a table is written: columns and headers, decimals, title, LaTeX caption and label. */
export interface TableOptions {
  /** Columns to include, in order (default: keys of the first record). */
  columns?: string[];
  /** Human-readable header per column (default: the key). */
  headers?: Record<string, string>;
  /**
   * Decimal places for non-integer numbers in HTML/Markdown/LaTeX (default 3):
   * one number for every column, or per column ({ mean: 1, ci95: 2 }; columns
   * not named get 3). Within a column every number gets the same decimals.
   */
  digits?: number | Record<string, number>;
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
function columnFormat(records: readonly Row[], col: string, option: TableOptions['digits']): (value: unknown) => string {
  const digits = typeof option === 'number' ? option : option?.[col] ?? 3;
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

/**
 * The header of a column in a printed table: its display name when one is
 * set (setDisplayNames), else the record key as words: `meanBoundedSlowdown`
 * and `mean_bounded_slowdown` read "mean bounded slowdown", `ci95` "95% CI".
 */
export function columnHeader(key: string): string {
  const shown = displayName(key);
  if (shown !== key) return shown;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_+/g, ' ')
    .trim()
    .split(/\s+/)
    .map((w) => (/^ci95$/i.test(w) ? '95% CI' : /^[A-Z][a-z]/.test(w) ? w.toLowerCase() : w));
  return words.join(' ');
}

/** Printed text width of the LaTeX article class (pt), and the page height a sideways table gets. */
const TEXT_WIDTH = 345;
const SIDEWAYS_WIDTH = 550;
/** Font sizes tried in turn (LaTeX command, size in pt). */
const SIZES: [string, number][] = [['', 10], ['\\small', 9], ['\\footnotesize', 8]];
/** Text cells longer than this wrap in a paragraph column instead of widening the table. */
const WRAP_CHARS = 40;
/** Headers longer than their column wrap onto lines of at most this many characters. */
const HEADER_CHARS = 12;

function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const w of text.split(' ')) {
    const last = lines.length ? lines[lines.length - 1] : undefined;
    if (last !== undefined && last.length + 1 + w.length <= width) lines[lines.length - 1] = `${last} ${w}`;
    else lines.push(w);
  }
  return lines;
}

interface LatexColumn {
  key: string;
  spec: string;
  header: string;
  /** Widest line in characters (header lines and cells). */
  chars: number;
  cells: string[];
}

/** Estimated width of columns at a font size, in pt (average glyph about half the size, 12 pt of column separation). */
function widthOf(cols: readonly LatexColumn[], size: number): number {
  return cols.reduce((w, c) => w + c.chars * 0.5 * size + 12, 0);
}

function latexColumns(records: readonly Row[], options: TableOptions, wrapHeaders: boolean): LatexColumn[] {
  return columnsOf(records, options).map((key) => {
    const fmt = columnFormat(records, key, options.digits);
    const numeric = isNumericColumn(records, key);
    const text = records.map((r) => (typeof r[key] === 'string' ? displayName(r[key] as string) : fmt(r[key])));
    const cellChars = Math.max(0, ...text.map((t) => t.length));
    const wrap = !numeric && cellChars > WRAP_CHARS;
    const width = wrap ? WRAP_CHARS : cellChars;
    const header = options.headers?.[key] ?? columnHeader(key);
    const lines = wrapHeaders && header.length > Math.max(width, HEADER_CHARS) ? wrapWords(header, Math.max(width, HEADER_CHARS)) : [header];
    const align = numeric ? 'r' : 'l';
    return {
      key,
      spec: wrap ? `>{\\raggedright\\arraybackslash}p{${(WRAP_CHARS * 0.5).toFixed(0)}em}` : align,
      header: lines.length > 1 ? `\\begin{tabular}[b]{@{}${align}@{}}${lines.map(latexEscape).join(' \\\\ ')}\\end{tabular}` : latexEscape(header),
      chars: Math.max(width, ...lines.map((l) => l.length)),
      cells: text.map(latexEscape),
    };
  });
}

/**
 * A LaTeX table that fits the page (needs \usepackage{booktabs, array,
 * graphicx, rotating}): a booktabs `tabular` at the largest of normal,
 * small and footnote size that fits the text width; else a `sidewaystable`;
 * tables wider than a sideways page are split by columns into parts that
 * repeat the leading label columns. Whatever the estimate, a tabular wider
 * than the line is scaled down to it (\resizebox), so no table runs off the
 * page. Headers are display names (`columnHeader`), long ones wrapped; long
 * text cells wrap in paragraph columns; numbers are right-aligned with one
 * number of decimals per column.
 */
export function toLatex(records: readonly Row[], options: TableOptions = {}): string {
  const caption = options.caption ?? options.title;
  const fits = (c: LatexColumn[]) => SIZES.find(([, pt]) => widthOf(c, pt) <= TEXT_WIDTH);
  // Headers wrap only where that is what keeps the table upright, or when it is too wide anyway.
  let cols = latexColumns(records, options, false);
  if (!fits(cols)) cols = latexColumns(records, options, true);
  const size = fits(cols);
  let parts: LatexColumn[][] = [cols];
  const sideways = !size;
  if (sideways && widthOf(cols, 8) > SIDEWAYS_WIDTH) {
    // Split by columns: each part repeats the leading text columns (the row labels).
    let lead = 0;
    while (lead < Math.min(2, cols.length - 1) && !isNumericColumn(records, cols[lead].key)) lead++;
    const keys = cols.slice(0, lead);
    parts = [];
    let part: LatexColumn[] = [];
    for (const c of cols.slice(lead)) {
      if (part.length > 0 && widthOf([...keys, ...part, c], 8) > SIDEWAYS_WIDTH) parts.push(part), (part = []);
      part.push(c);
    }
    parts.push(part);
    parts = parts.map((p) => [...keys, ...p]);
  }
  const env = sideways ? 'sidewaystable' : 'table';
  const lines: string[] = ['% needs \\usepackage{booktabs,array,graphicx,rotating}'];
  parts.forEach((part, k) => {
    lines.push(`\\begin{${env}}${sideways ? '' : '[htbp]'}`, '\\centering');
    const command = sideways ? '\\footnotesize' : (size as [string, number])[0];
    if (command) lines.push(command);
    const suffix = parts.length > 1 ? ` (part ${k + 1} of ${parts.length})` : '';
    if (caption || suffix) lines.push(`\\caption{${latexEscape(caption ?? '')}${suffix}}`);
    if (options.label) lines.push(`\\label{${options.label}${parts.length > 1 ? `-${k + 1}` : ''}}`);
    lines.push('\\resizebox{\\ifdim\\width>\\linewidth\\linewidth\\else\\width\\fi}{!}{%');
    lines.push(`\\begin{tabular}{${part.map((c) => c.spec).join('')}}`, '\\toprule');
    lines.push(part.map((c) => c.header).join(' & ') + ' \\\\');
    lines.push('\\midrule');
    records.forEach((_, i) => lines.push(part.map((c) => c.cells[i]).join(' & ') + ' \\\\'));
    lines.push('\\bottomrule', '\\end{tabular}}', `\\end{${env}}`);
  });
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
 * Write `<dir>/<stem>.csv`, `.md` and `.tex`; returns their absolute paths.
 * The stem follows `outputStem` (the one naming rule of figures and tables):
 * `table<NN>-…` or `fig<NN>-…` when the name or caption starts with the
 * paper's table or figure number, `extra-<name>` otherwise. Echoed in a
 * notebook (a cell ending with it) the result reads
 * `[table written: out/<notebook>/tables/<stem>.csv, .md, .tex]`, relative to
 * the notebook's folder.
 *
 * @example
 * const written = writeTable([{ policy: 'easy', wait: 120.5 }], tablesDir('my-study'), 'waits', { caption: 'Mean wait', digits: 1 });
 * console.log(written.latex); // absolute path of out/my-study/tables/extra-waits.tex
 */
export function writeTable(records: readonly Row[], dir: string, name: string, options: TableOptions = {}): WrittenTable {
  if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new Error(`table name must be a plain file name, got "${name}"`);
  makeFolder(dir);
  const base = path.join(dir, outputStem(name, options.caption ?? options.title));
  const out = { csv: `${base}.csv`, markdown: `${base}.md`, latex: `${base}.tex` };
  // Each file is written whole or not at all (OutputError naming it on a full disk).
  writeFileSafely(out.csv, toCsv(records, options));
  writeFileSafely(out.markdown, toMarkdown(records, options));
  writeFileSafely(out.latex, toLatex(records, options));
  Object.defineProperty(out, inspect.custom, { enumerable: false, value: () => `[table written: ${shortPath(out.csv)}, .md, .tex]` });
  return out;
}
