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

/**
 * The statements of a rendered notebook that contradict its status line (every statement, when it has none).
 * `sideCoverages`: the coverage of the notebook's side sweeps (ablations committed beside its results with
 * their own provenance, e.g. "complete 2364"), which their own status lines state.
 */
export function scaleContradictions(cells: readonly NotebookCell[], status: PageStatus | null = pageScale(cells), sideCoverages: readonly string[] = []): ScaleStatement[] {
  const all = cells.flatMap((c) => scaleStatements(renderedText(c)));
  if (!status) return all.filter((s) => s.says !== 'coverage');
  return all.filter((s) => (s.says === 'coverage' ? s.value !== status.coverage && !sideCoverages.includes(s.value ?? '') : s.says !== status.scale));
}

/**
 * The rule for numbers in source markdown (test/notebooks/prose.test.ts): a notebook's
 * markdown may state only the numbers listed here for it, each under a label saying why —
 * a parameter of the paper's setup or of our reconstruction ("setup"), or a value the paper
 * publishes and the prose labels as published ("published"). Our results never qualify.
 */
/** Per notebook: label → the numbers its markdown may state under that label (space-separated, no thousands commas). */
export const ALLOWED: Record<string, Record<string, string>> = {
  '00-batch-baselines': {
    'setup: the numbered steps and sections of the page': '1 2 3 4 5 6',
    'setup: machine sizes from the traces\' headers (CTC-SP2, SDSC-BLUE)': '338 1152',
    'setup: SWF field number, bounded-slowdown threshold (s), time origin, wide-job fraction 1/8': '0 1 8 9 10',
    'setup: quick-scale window (jobs)': '3000',
  },
  '00-quickstart': { 'setup: the numbered sections of the page': '1 2 3 4 5 6', 'setup: the time origin of each week': '0' },
  '01-dfrs-vs-batch': {
    'setup: the paper\'s trace sets (182 HPC2N weeks, 100 traces of 1,000 jobs on 128 quad-core nodes, loads 0.1-0.9, load >= 0.7 for Table 3)': '182 100 1000 128 0.1 0.9 0.7',
    'setup: the paper\'s algorithms (20 in Table 2, 18 DFRS, 116 variants, 98 outside Table 2, 3 greedy and 11 MCB8 combinations, 3 trace sets)': '20 18 116 98 3 11',
    'setup: the paper\'s 5-minute (300 s) penalty, 600 s period, periods up to 12,000 s (2x-20x the penalty), 8 GB per node, 240 HPC2N processors': '5 300 600 12000 2 8 240',
    'setup: the paper\'s workload model (CPU need 0.25 or 1.0, memory 10% for 55% of jobs, else 10x% for x in 2..10)': '0.25 1.0 10 55',
    'setup: our reading (MCB8 tolerance 0.01, yields in [0, 1], bounded stretch threshold 10 s)': '0 0.01 1',
    'setup: quick scale and the fidelity check (150-job traces, 200-job weeks, 5 loads, 8 and 6 traces, loads 0.5 and 0.9)': '150 200 6 0.5',
    'published: the paper\'s machine for MCB8 timings (3.2 GHz Xeon)': '3.2',
    'setup: the paper\'s dual-core task rule (less than 50 % memory per processor); our ablations (12 HPC2N weeks, a 60 s threshold reading)': '50 12 60',
    'published: Figure 1\'s breakdown above offered load 0.3 and the crossover "larger than 900 s" (Section 6.4)': '0.3 900',
  },
  '02-virtual-clusters': {
    'setup: the paper\'s instance sets (4 hosts, 6-12 tasks, 1,440 instances; 64 hosts, 100-500 tasks, 10,800 instances; parallel jobs of 1..64 tasks)': '4 6 12 1440 64 100 500 10800',
    'setup: the paper\'s instance model (capacity 1, needs ~ N(0.5, ...), CV 0.25 or 0.75, slack from 0.1)': '0 1 0.5 0.25 0.75 0.1',
    'setup: our solver settings (bisection 0.01, RRNZ epsilon 0.01, 50,000 / 500,000 attempts, 100,000 nodes, 600 s backstop)': '0.01 50000 500000 100000 600',
    'published: GLPK times (about 650 s per 500-task LP, 28.7 s per small MILP) and the paper\'s 3.2 GHz Xeon': '650 28.7 3.2',
    'setup: the ablation (numbered items 1-3; the large set at slack 0.3 and below, MCB1-8, 5 instances per spec; the paper\'s slack thresholds 0.2 and 0.4)': '2 3 0.3 8 5 0.2 0.4',
    'published: the gaps to the bound read off Figure 15 (37 % and 8 %)': '37',
  },
  '03-evolving-applications': {
    'setup: the paper\'s tests (1,000 tests of 15-20 applications, 1-10 steps of 500-3,600 s on 1-75 nodes; expand limits 1, 2)': '1000 15 20 1 10 500 3600 75 2',
    'setup: quick scale (100 tests) and the sensitivity cluster (150 nodes); time origin 0; the 1% and 10% most-wasting applications': '100 150 0',
  },
  '04-advance-reservation': {
    'setup: the paper\'s machine and sweeps (1,024 PEs, UMed 5-9, arrival factor 0.5-1.5 by 0.25, factors 1-5, 10,000 jobs, defaults UMed 7 and {3, 3})': '1024 5 9 0.5 1.5 0.25 10000 1 3 7',
    'setup: the paper\'s run-time classes (60, 300, 900, 1,800, 3,600, 10,800 s)': '60 300 900 1800 3600 10800',
    'setup: our calibration (steps (1)-(3), a 50,000-job sample, Lublin ULow 4.5, UHi 10, UProb 0.82, blocks of 128)': '2 50000 4.5 10 0.82 128',
    'setup: the paper\'s worked example (t_k = 10 k, a 16-PE machine, groups n1-n3 of PEs 0-11, n = 4) and LANL-CM5 groups of 32 PEs': '16 0 4 8 11 32',
    'setup: the 21 pairs of the seven policies': '21',
  },
  '05-measy': {
    'setup: the paper\'s machine and workloads (320 processors, 200,000 and 100,000 jobs, 20 s migrations, costs 0-1,500 s, 100% CPU usage, the 96% rule, 10 batches)': '320 200000 100000 20 0 1500 100 96 10',
    'setup: the paper\'s figure numbers in the overview (Figures 9-14)': '9 11 12 13 14',
    'setup: the paper\'s processor model (speed 1, loss U(0.5%, 4%), e U(0.80, 0.92), range 19.8%-76.6% as mean 48.2% +- 3 sigma 9.47%, usage U(40%, 100%))': '1 0.5 4 0.80 0.92 19.8 76.6 3 48.2 9.47 40',
    'published: the statistics the workloads are calibrated to (parallelism 23.4 / 10.5, runtime 2606.6 / 11267.0 s, serial share < 18.0% / 40.8%)': '23.4 10.5 2606.6 11267.0 18.0 40.8',
    'published: the migration-cost thresholds of Section 3.5.3 (900 s / 480 s, 1,500 s / 900 s)': '900 480',
    'setup: our reconstruction (serial share 17.5%, 70.2% powers of two and CV 1.62 from CTC, repeats k^-2.5 up to 20, harmonic order near 1 not 1.5, Jann size ranges 1, 2, 3-4, ..., 257-320, 77 days of CTC, 300-processor jobs)': '17.5 70.2 1.62 2.5 1.5 2 257 77 300',
  },
  '06-your-own-scheduler': {
    'setup: the numbered sections of the page, a policy of about 20 lines, a 128-processor machine, 5 loads': '1 2 3 4 5 20 128',
  },
};

const cellText = (c: NotebookCell) => (Array.isArray(c.source) ? c.source.join('') : c.source);

/** Numbers a notebook's markdown states that its ALLOWED entry does not list, with the line they are on. */
export function unlistedNumbers(name: string, cells: readonly NotebookCell[]): string[] {
  const allowed = new Set(Object.values(ALLOWED[name] ?? {}).flatMap((s) => s.split(/\s+/)));
  const out: string[] = [];
  cells.forEach((c, i) => {
    if (c.cell_type !== 'markdown') return;
    for (const line of cellText(c).split('\n')) for (const n of numbersInProse(line)) if (!allowed.has(n)) out.push(`cell ${i}: ${n} in "${line.trim().slice(0, 120)}"`);
  });
  return out;
}

