/**
 * Checks of a notebook's words against its numbers (issue 26), shared by
 * test/notebooks/prose.test.ts and usable on any notebook file:
 *
 * - `numbersInProse`: the numbers a source markdown cell states, after what is
 *   not a stated quantity is set aside (code spans, links, references such as
 *   "Table 2" or "Section 6.2", names with digits such as MCB8 or 2X+c, years
 *   of citations, the 95 % of a confidence level).
 * - `scaleStatements` / `pageScale`: what rendered text says about the scale
 *   and coverage of the page, and what the page's status line reports.
 */

/** A notebook cell as stored in an .ipynb file (the fields these checks read). */
export interface NotebookCell {
  cell_type: string;
  source: string | string[];
  outputs?: { output_type: string; text?: string | string[]; data?: Record<string, unknown> }[];
}

const joined = (x: unknown): string => (Array.isArray(x) ? x.join('') : typeof x === 'string' ? x : '');

/** References to parts of a paper or project, with their numbers: "Table 2", "Figures 6–7", "Sections 3.4 and 3.5", "issue 25". */
const REFERENCE = /\b(?:tables?|figures?|figs?\.|sections?|theorem|equations?|eqs?\.|appendix|algorithms?|steps?|chapters?|issue|lines?)\s+\d+(?:\.\d+)*[a-z]?(?:\s*(?:–|-|,|and|or|to)\s*\d+(?:\.\d+)*[a-z]?)*(?:\s*\(\d+\))?/gi;
/** A number standing alone (not glued to letters, as in MCB8, 2X+c, fig03 or RR-7659); thousands with commas. */
const NUMBER = /(?<![\w.,/=-])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w]|[.,]\d)/g;

/** The numbers a markdown text states, normalised (no thousands commas), in order. */
export function numbersInProse(markdown: string): string[] {
  const text = markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/`[^`]*`/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/\]\([^)]*\)/g, '] ')
    .replace(/^#+\s*\d+\s*—/m, '#') // the notebook's own number in its title ("# 01 — …")
    .replace(REFERENCE, ' ')
    .replace(/\b(?:19|20)\d\d\b/g, ' ') // years of citations
    .replace(/\b95\s*%\s*(?:confidence|CI|interval|half-width)/gi, ' ');
  return [...text.matchAll(NUMBER)].map((m) => m[0].replace(/,/g, ''));
}

/** The text a reader sees in a cell: markdown source, or a code cell's printed and displayed outputs (tags stripped). */
export function renderedText(cell: NotebookCell): string {
  if (cell.cell_type === 'markdown') return joined(cell.source);
  const parts: string[] = [];
  for (const o of cell.outputs ?? []) {
    parts.push(joined(o.text));
    const d = o.data ?? {};
    parts.push(joined(d['text/markdown']));
    if (!d['text/markdown']) parts.push(joined(d['text/html']).replace(/<[^>]*>/g, ' '));
  }
  return parts.join('\n');
}

export type Scale = 'quick' | 'paper';

/** What the page's status line reports: its scale and the committed results' coverage (null: the notebook prints no status line). */
export interface PageStatus {
  scale: Scale;
  coverage: string;
}

const STATUS = /paper-scale results (complete \((\d+) cells|INCOMPLETE — (\d+) of (\d+) cells)[^\n]*/;

/** The status line of an executed notebook (the first output naming the committed results' coverage). */
export function pageScale(cells: readonly NotebookCell[]): PageStatus | null {
  for (const c of cells) {
    if (c.cell_type !== 'code') continue;
    for (const o of c.outputs ?? []) {
      const m = STATUS.exec(joined(o.text));
      if (m) return { scale: /this page runs at quick scale/.test(m[0]) ? 'quick' : 'paper', coverage: coverageOf(m) };
    }
  }
  return null;
}

function coverageOf(m: RegExpExecArray): string {
  return m[2] !== undefined ? `complete ${m[2]}` : `incomplete ${m[3]} of ${m[4]}`;
}

/** One sentence of rendered text that states the page's scale or coverage. */
export interface ScaleStatement {
  says: Scale | 'coverage';
  /** For coverage: what it states ("complete 12000", "incomplete 5 of 10"). */
  value?: string;
  text: string;
}

/** Sentences that say which scale this page is at (not conditionals such as "at quick scale the grid is smaller"). */
const SAYS: [Scale, RegExp][] = [
  ['quick', /\bthis (?:page|notebook|run)\b[^.\n]{0,40}\b(?:runs|renders|is|was) (?:\w+ )?at (?:the )?quick scale/i],
  ['quick', /\bwritten (?:from|for) (?:a|the) quick[- ]scale run/i],
  ['quick', /\bnot yet at paper scale/i],
  ['quick', /\bno paper-scale results? (?:is|are) (?:stored|committed)/i],
  ['quick', /\bpaper-scale (?:run|results?)\b[^.\n]{0,80}\b(?:is|are) not (?:stored|committed)/i],
  ['quick', /\bquick scale (?:is|as) (?:the|its) default|\bdefault(?:s| is| scale)?[^.\n]{0,20}\bquick scale|\bquick scale\W{0,3}\s*\(default\)/i],
  ['quick', /\b(?:read|written|drawn) (?:from|for|on) (?:a |the )?quick[- ]scale (?:run|tables?|results?)/i],
  ['paper', /\bread at paper scale\b/i],
  ['paper', /\bthis (?:page|notebook|run)\b[^.\n]{0,40}\b(?:runs|renders|is|was) (?:\w+ )?at (?:the )?paper scale/i],
  ['paper', /\bwritten (?:from|for) (?:a|the) paper[- ]scale run/i],
];

/** Every statement of scale or coverage in a rendered text (headings that name a scale count as stating it). */
export function scaleStatements(text: string): ScaleStatement[] {
  const out: ScaleStatement[] = [];
  for (const line of text.split('\n')) {
    if (!/^\s*#+\s/.test(line)) continue;
    if (/quick[- ]scale/i.test(line)) out.push({ says: 'quick', text: line.trim() });
    if (/paper[- ]scale/i.test(line)) out.push({ says: 'paper', text: line.trim() });
  }
  // Sentences run over line breaks: match within a paragraph, its lines joined.
  for (const paragraph of text.split(/\n\s*\n/)) {
    const flat = paragraph.replace(/\s*\n\s*/g, ' ');
    for (const scale of ['quick', 'paper'] as const) {
      const m = SAYS.filter(([s]) => s === scale).map(([, re]) => re.exec(flat)).find((x) => x !== null);
      if (m) out.push({ says: scale, text: flat.slice(Math.max(0, m.index - 40), m.index + m[0].length + 40) });
    }
  }
  for (const line of text.split('\n')) {    for (const m of line.matchAll(new RegExp(STATUS.source, 'g'))) out.push({ says: 'coverage', value: coverageOf(m as RegExpExecArray), text: m[0] });
    for (const m of line.matchAll(/\bcomplete \(([\d,]+) cells\)|\b([\d,]+) committed cells/g)) out.push({ says: 'coverage', value: `complete ${(m[1] ?? m[2]).replace(/,/g, '')}`, text: m[0] });
  }
  return out;
}

/** The statements of a rendered notebook that contradict its status line (every statement, when it has none). */
export function scaleContradictions(cells: readonly NotebookCell[], status: PageStatus | null = pageScale(cells)): ScaleStatement[] {
  const all = cells.flatMap((c) => scaleStatements(renderedText(c)));
  if (!status) return all.filter((s) => s.says !== 'coverage');
  return all.filter((s) => (s.says === 'coverage' ? s.value !== status.coverage : s.says !== status.scale));
}
