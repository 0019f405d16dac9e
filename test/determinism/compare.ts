/**
 * Compare two runs of the main job (two output folders, each holding
 * <name>/tables/*.csv and the executed notebook <name>/<name>.ipynb) and
 * report every difference that is not a run time.
 *
 * The rule (also in docs/hardening-papers.md):
 *  - Tables: the same CSV files in both runs, each with the same header and
 *    the same number of rows, every cell byte-identical except in run-time
 *    columns. A column is a run-time column when its header, once aggregate
 *    suffixes (`_avg`, `_max`, ` max`, …) are removed, names a wall-clock
 *    measurement: it ends in `_ms`, `_seconds` (or after a space), in `_s`
 *    after a statistic or time word (`mean_s`, `max_s`, `time_s`,
 *    `runtime_s`), in a camel-case unit (`runTimeMs`, `milpMeanSeconds`), or
 *    is a measured time by name (`schedulingTime`, `wallTime`, `elapsed`,
 *    `sched. time avg (ms)`, any `(ms)` header). Simulated quantities stay
 *    compared: job run times (`meanRuntime`, `runtime`), durations
 *    (`duration_s`), makespans. In long-format tables (`quantity, ours,
 *    published`) a row whose first cell names a measured time (`run time`,
 *    `solve time`, `run-time ratio`, a `(ms)` unit) is a run-time row: its
 *    label is compared, its values are not.
 *  - Notebooks: the same code cells (sources) with the same outputs, in
 *    order. Each text output (stream, text/plain, text/markdown, and
 *    text/html without a chart) is normalized and must be identical:
 *    in Markdown tables the run-time columns are blanked (same rule), and in
 *    running text a number followed by a time unit (`12 s`, `3.4 ms`, `2s`,
 *    `5 min`) or a rate (`120 cells/s`) counts as a timing and is blanked.
 *    The output folders' own paths are replaced by `<out>` first. Images
 *    are not compared (the second run of the test suite draws none:
 *    SCHEDLAB_IMAGES=off); a chart's plotly spec (`show`'s
 *    application/vnd.plotly.v1+json, data and layout) is, as text under the
 *    same timing rule, except in a chart of run times: one with an axis
 *    titled by a measured time (`run time (ms, log)`, `seconds per call`).
 *    There the values along that axis, its range and the notes that depend
 *    on them (`identical to …`, cut error bars) are not compared; trace
 *    names, types, the other axis's values and the titles are.
 *
 * CLI: `ts-node test/determinism/compare.ts <run1> <run2> [name ...]` prints
 * the report and exits 1 when the runs differ.
 */
import * as fs from 'fs';
import * as path from 'path';
import { firstDifference } from '../support/figure-bytes';

/** Aggregate suffixes stripped before the run-time test. */
const AGGREGATE_SUFFIX = /([ _](avg|mean|max|min|std|sd|ci95|median))+$/i;

/** Whether a table column holds run times (wall-clock measurements), by its header. */
export function isRunTimeColumn(header: string): boolean {
  const base = header.trim().replace(AGGREGATE_SUFFIX, '');
  // a unit that is only ever used for measured durations here: `_ms`, ` seconds`
  if (/(^|[_\s])(ms|msec|millis|milliseconds|secs|seconds)$/i.test(base)) return true;
  // `_s` after a statistic or a time word: `mean_s`, `max_s`, `time_s`, `runtime_s` (not `duration_s`, a simulated value)
  if (/(^|[_\s])(mean|max|min|avg|total|time|runtime|run_time|wall|elapsed|cpu|solve)[_\s]s$/i.test(base)) return true;
  // camel case: `runTimeMs`, `exactMeanMs`, `milpMeanSeconds`
  if (/[a-z0-9](Ms|Millis|Secs|Seconds)$/.test(base)) return true;
  // by name
  if (/^(wall|elapsed|seconds|ms)$/i.test(base)) return true;
  if (/(^|[_\s])?(scheduling|wall|elapsed|cpu|solve)[_\s]?time$/i.test(base)) return true;
  // a header with a unit in parentheses: `(ms)` always; `(s)` after a measured-time word (`sched. time avg (ms)`, `run time (s)`)
  if (/\((ms|msec|milliseconds)\)\s*$/i.test(header.trim())) return true;
  if (TIMING_WORDS.test(header) && /\((s|sec|secs|seconds)\)\s*$/i.test(header.trim())) return true;
  return false;
}

/** Words that name a measured (wall-clock) time: `run time`, `run-time`, `solve time`, `sched. time`, `elapsed`, `wall clock`. */
const TIMING_WORDS = /\b(run[ -]?time|running time|solve time|solving time|solver time|scheduling time|sched\. time|compute time|cpu time|wall[ -]?clock|wall time|elapsed)\b/i;

/**
 * Whether a row of a long-format table (`quantity, ours, published`) reports
 * a run time, by its first cell: a measured-time phrase or a `(ms)` unit
 * (`large: MCB8 run time, 500 tasks (ms)`, `small: MILP mean solve time (s, …)`,
 * `MCB8 / SG run-time ratio`). Its other cells are then not compared.
 */
export function isRunTimeRow(label: string): boolean {
  return TIMING_WORDS.test(label) || /\((ms|msec|milliseconds)\b/i.test(label);
}

/** Split one CSV line into cells (RFC 4180 quoting). */
export function csvCells(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

/** Split CSV text into records, keeping line breaks inside quoted cells. */
export function csvRecords(text: string): string[] {
  const records: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    if (!quoted && (c === '\n' || (c === '\r' && text[i + 1] === '\n'))) {
      if (c === '\r') i++;
      records.push(cur);
      cur = '';
    } else cur += c;
  }
  if (cur !== '') records.push(cur);
  return records;
}

export interface TableComparison {
  file: string;
  identical: boolean;
  /** Columns whose cells were not compared (run times). */
  maskedColumns: string[];
  /** Row labels whose values were not compared because they differed and name a run time. */
  maskedRows: string[];
  /** First differences (at most 5), e.g. `row 3, column maxStretch: 1.52 vs 1.53`. */
  differences: string[];
}

/** Compare two CSV texts under the run-time rule. */
export function compareCsv(file: string, a: string, b: string): TableComparison {
  const ra = csvRecords(a);
  const rb = csvRecords(b);
  const header = ra.length > 0 ? csvCells(ra[0]) : [];
  const masked = header.map(isRunTimeColumn);
  const out: TableComparison = { file, identical: true, maskedColumns: header.filter((_, k) => masked[k]), maskedRows: [], differences: [] };
  const differ = (msg: string) => {
    out.identical = false;
    if (out.differences.length < 5) out.differences.push(msg);
  };
  if (rb.length === 0 || ra[0] !== rb[0]) differ(`header differs: "${ra[0] ?? ''}" vs "${rb[0] ?? ''}"`);
  if (ra.length !== rb.length) differ(`${ra.length - 1} rows vs ${rb.length - 1} rows`);
  const n = Math.min(ra.length, rb.length);
  for (let r = 1; r < n; r++) {
    if (ra[r] === rb[r]) continue;
    const ca = csvCells(ra[r]);
    const cb = csvCells(rb[r]);
    if (ca.length !== cb.length) {
      differ(`row ${r}: ${ca.length} cells vs ${cb.length}`);
      continue;
    }
    // the label is compared; a run-time row's values are not
    const timingRow = ca[0] === cb[0] && isRunTimeRow(ca[0]);
    if (timingRow && !out.maskedRows.includes(ca[0])) out.maskedRows.push(ca[0]);
    for (let k = 0; k < ca.length; k++) {
      if (ca[k] !== cb[k] && !masked[k] && !(timingRow && k > 0)) differ(`row ${r}, column ${header[k] ?? k}: ${ca[k]} vs ${cb[k]}`);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Notebook text outputs

/** A number followed by a time unit (`12 s`, `2s`, `3.5 ms`, `4 min`) or a rate (`120 cells/s`). */
const TIMING_IN_TEXT = /(\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?)(\s*)(ms|s|sec|secs|seconds|min|mins|minutes|[A-Za-z-]+\/s)\b/g;

/** Blank the run-time columns of Markdown pipe tables in `text`. */
export function maskMarkdownTables(text: string): string {
  const lines = text.split('\n');
  let masked: boolean[] | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!/^\s*\|.*\|\s*$/.test(line)) {
      masked = null;
      continue;
    }
    const cells = line.trim().slice(1, -1).split('|');
    if (masked === null) {
      // A header row is followed by a |---| separator.
      if (i + 1 < lines.length && /^\s*\|(\s*:?-+:?\s*\|)+\s*$/.test(lines[i + 1])) masked = cells.map((c) => isRunTimeColumn(c));
      continue;
    }
    if (/^\s*\|(\s*:?-+:?\s*\|)+\s*$/.test(line)) continue;
    const timingRow = isRunTimeRow(cells[0] ?? '');
    lines[i] = `|${cells.map((c, k) => (masked![k] || (timingRow && k > 0) ? ' <run time> ' : c)).join('|')}|`;
  }
  return lines.join('\n');
}

/** Text of an HTML output without scripts, styles and tags (tables become rows of `| cells |`). */
export function htmlText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/gi, '')
    .replace(/<style[\s\S]*?<\/style>/gi, '')
    .replace(/<caption[^>]*>([\s\S]*?)<\/caption>/gi, '$1\n')
    .replace(/<tr[^>]*>/gi, '|')
    .replace(/<\/t[hd]>/gi, '|')
    .replace(/<\/tr>/gi, '\n')
    .replace(/<\/thead>/gi, '|---|\n')
    .replace(/<[^>]*>/g, '')
    .replace(/\|\|/g, '|')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Normalize a text output: run-time table columns and timings blanked. */
export function normalizeText(text: string): string {
  return maskMarkdownTables(text).replace(TIMING_IN_TEXT, (_m, _n, space, unit) => `<t>${space}${unit}`);
}

interface NbCell {
  cell_type: string;
  source: string | string[];
  outputs?: NbOutput[];
}
interface NbOutput {
  output_type: string;
  text?: string | string[];
  data?: Record<string, unknown>;
}

const joined = (v: unknown): string => (Array.isArray(v) ? v.join('') : typeof v === 'string' ? v : JSON.stringify(v));

/** The comparable text of one output, or null when it only holds a chart or an image. */
export function outputText(o: NbOutput): string | null {
  if (o.output_type === 'stream') return joined(o.text);
  if (o.output_type === 'error') return `error: ${JSON.stringify(o)}`;
  const data = o.data ?? {};
  const html = data['text/html'] !== undefined ? joined(data['text/html']) : undefined;
  if (html !== undefined && (html.includes('schedlab-fig-') || /<script/i.test(html))) return null; // a chart
  if (data['text/plain'] !== undefined) return joined(data['text/plain']);
  if (data['text/markdown'] !== undefined) return joined(data['text/markdown']);
  if (html !== undefined) return htmlText(html);
  return null;
}

const PLOTLY_MIME = 'application/vnd.plotly.v1+json';

interface PlotlySpec {
  data?: Record<string, unknown>[];
  layout?: Record<string, unknown>;
}

function axisTitle(axis: unknown): string {
  const t = (axis as { title?: unknown } | undefined)?.title;
  return String((t as { text?: unknown } | undefined)?.text ?? (typeof t === 'string' ? t : ''));
}

/** Whether a chart axis shows measured (wall-clock) times, by its title: the run-time rule of tables, plus `seconds per call`. */
export function isRunTimeAxis(title: string): boolean {
  return isRunTimeRow(title) || /\b(seconds|ms|milliseconds)\s+per\s+call\b/i.test(title);
}

/**
 * A chart's plotly spec (data and layout) as comparable text: timings in its
 * text blanked as in text outputs; in a chart of run times, the values of its
 * traces (along the run-time axes and, derived from them, the other axis),
 * those axes' settings but their titles (range, ticks) and the notes derived
 * from the values left out (see the rule above).
 */
export function chartText(spec: PlotlySpec): string {
  const layout = { ...(spec.layout ?? {}) };
  const data = spec.data ?? [];
  // run-time axes, as the traces name them: x, x2, y, y3 …
  const timed = new Set<string>();
  for (const key of Object.keys(layout)) {
    const m = /^([xy])axis(\d*)$/.exec(key);
    if (m && isRunTimeAxis(axisTitle(layout[key]))) timed.add(`${m[1]}${m[2]}`);
  }
  if (timed.size === 0) return normalizeText(JSON.stringify({ data, layout }));
  // A run-time axis keeps its title only: its range and ticks (a log axis' dtick) follow the times.
  for (const a of timed) {
    const key = `${a[0]}axis${a.slice(1)}`;
    layout[key] = { title: (layout[key] as Record<string, unknown>).title };
  }
  delete layout.annotations;
  // A trace on a run-time axis keeps its type and name only: its other axis derives from
  // the times too (a CDF of call times: the fractions and the number of points).
  const traces = data.map((t) => {
    const timedTrace = timed.has(String(t.xaxis ?? 'x')) || timed.has(String(t.yaxis ?? 'y'));
    return {
      type: t.type,
      name: String(t.name ?? '').replace(/ \(identical to [^)]*\)$/, ''),
      ...(timedTrace ? {} : { x: t.x, y: t.y }),
    };
  });
  return normalizeText(JSON.stringify({ data: traces, layout }));
}

/** The plotly spec of a chart output, or null. */
function chartSpec(o: NbOutput): PlotlySpec | null {
  const spec = o.data?.[PLOTLY_MIME];
  return spec && typeof spec === 'object' ? (spec as PlotlySpec) : null;
}

export interface NotebookComparison {
  name: string;
  outputsCompared: number;
  /** Charts whose plotly specs were compared (data and layout; see chartText). */
  chartsCompared: number;
  /** Outputs that held only a chart or image (not compared). */
  chartsSkipped: number;
  identical: boolean;
  /** Cell sources differ: the notebook was edited between the runs (the comparison is then inconclusive). */
  sourcesChanged: boolean;
  differences: string[];
}

/** First line where two texts differ, for the report. */
function firstLineDifference(a: string, b: string): string {
  const la = a.split('\n');
  const lb = b.split('\n');
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) return `line ${i + 1}: "${(la[i] ?? '').slice(0, 160)}" vs "${(lb[i] ?? '').slice(0, 160)}"`;
  }
  return 'texts differ';
}

/**
 * Replace every occurrence of `root` (an output folder) by `<out>`: the runs
 * write to different folders. For the default folder (…/out) also its
 * repository-relative form `out/`, which notebooks print.
 */
function withoutRoot(text: string, root: string | undefined): string {
  if (!root) return text;
  let t = text.split(root).join('<out>');
  if (path.basename(root) === 'out') t = t.replace(/(^|[\s'"(=])out\//gm, '$1<out>/');
  return t;
}

/**
 * Compare the code cells and text outputs of two executed notebooks.
 * `roots`: the two output folders, replaced by `<out>` in the texts.
 */
export function compareNotebooks(name: string, a: { cells: NbCell[] }, b: { cells: NbCell[] }, roots: [string, string] | [] = []): NotebookComparison {
  const out: NotebookComparison = { name, outputsCompared: 0, chartsCompared: 0, chartsSkipped: 0, identical: true, sourcesChanged: false, differences: [] };
  const differ = (msg: string) => {
    out.identical = false;
    if (out.differences.length < 8) out.differences.push(msg);
  };
  const code = (nb: { cells: NbCell[] }) => nb.cells.filter((c) => c.cell_type === 'code');
  const ca = code(a);
  const cb = code(b);
  if (ca.length !== cb.length || ca.some((c, k) => joined(c.source) !== joined(cb[k].source))) {
    out.sourcesChanged = true;
    differ('the code cells differ between the runs (notebook edited in between?)');
    return out;
  }
  ca.forEach((cell, k) => {
    const oa = (cell.outputs ?? []).map(outputText);
    const ob = (cb[k].outputs ?? []).map(outputText);
    if (oa.length !== ob.length) {
      differ(`code cell ${k + 1}: ${oa.length} outputs vs ${ob.length}`);
      return;
    }
    oa.forEach((ta, m) => {
      const tb = ob[m];
      if (ta === null && tb === null) {
        out.chartsSkipped++;
        return;
      }
      out.outputsCompared++;
      if (ta === null || tb === null) {
        differ(`code cell ${k + 1}, output ${m + 1}: a chart in one run, text in the other`);
        return;
      }
      const na = normalizeText(withoutRoot(ta, roots[0]));
      const nb = normalizeText(withoutRoot(tb, roots[1]));
      if (na !== nb) differ(`code cell ${k + 1}, output ${m + 1}: ${firstLineDifference(na, nb)}`);
    });
    const sa = (cell.outputs ?? []).map(chartSpec);
    const sb = (cb[k].outputs ?? []).map(chartSpec);
    sa.forEach((specA, m) => {
      const specB = sb[m];
      if (specA === null && specB === null) return;
      out.chartsCompared++;
      if (specA === null || specB === null) {
        differ(`code cell ${k + 1}, output ${m + 1}: a chart in one run only`);
        return;
      }
      const ja = chartText(JSON.parse(withoutRoot(JSON.stringify(specA), roots[0])));
      const jb = chartText(JSON.parse(withoutRoot(JSON.stringify(specB), roots[1])));
      if (ja !== jb) differ(`code cell ${k + 1}, output ${m + 1} (chart): ${firstDifference(ja, jb)}`);
    });
  });
  return out;
}

// ---------------------------------------------------------------------------
// Whole runs

export interface RunComparison {
  identical: boolean;
  tables: TableComparison[];
  notebooks: NotebookComparison[];
  /** Problems with the runs themselves: missing notebooks, tables present in one run only. */
  problems: string[];
}

function csvFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.csv')) out.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * Compare two runs for the given notebook names (default: every folder of
 * run1 with an executed notebook in it). `tablesOnly` skips the notebooks.
 */
export function compareRuns(run1: string, run2: string, names?: readonly string[], options: { tablesOnly?: boolean } = {}): RunComparison {
  const list =
    names && names.length > 0
      ? [...names]
      : fs
          .readdirSync(run1)
          .filter((n) => fs.existsSync(path.join(run1, n, `${n}.ipynb`)))
          .sort();
  const res: RunComparison = { identical: true, tables: [], notebooks: [], problems: [] };
  for (const name of list) {
    const da = path.join(run1, name);
    const db = path.join(run2, name);
    const fa = csvFiles(da);
    const fb = csvFiles(db);
    for (const f of fa.filter((x) => !fb.includes(x))) res.problems.push(`${name}/${f}: only in the first run`);
    for (const f of fb.filter((x) => !fa.includes(x))) res.problems.push(`${name}/${f}: only in the second run`);
    for (const f of fa.filter((x) => fb.includes(x))) {
      res.tables.push(compareCsv(`${name}/${f}`, fs.readFileSync(path.join(da, f), 'utf8'), fs.readFileSync(path.join(db, f), 'utf8')));
    }
    if (options.tablesOnly) continue;
    const na = path.join(da, `${name}.ipynb`);
    const nb = path.join(db, `${name}.ipynb`);
    if (!fs.existsSync(na) || !fs.existsSync(nb)) {
      res.problems.push(`${name}: executed notebook missing in ${fs.existsSync(na) ? 'the second' : 'the first'} run`);
      continue;
    }
    const roots: [string, string] = [path.resolve(run1), path.resolve(run2)];
    res.notebooks.push(compareNotebooks(name, JSON.parse(fs.readFileSync(na, 'utf8')), JSON.parse(fs.readFileSync(nb, 'utf8')), roots));
  }
  res.identical = res.problems.length === 0 && res.tables.every((t) => t.identical) && res.notebooks.every((n) => n.identical);
  return res;
}

/** The comparison as readable text. */
export function formatComparison(r: RunComparison): string {
  const lines: string[] = [];
  const same = r.tables.filter((t) => t.identical).length;
  const masked = new Set(r.tables.flatMap((t) => t.maskedColumns));
  lines.push(`tables: ${same} of ${r.tables.length} identical (run-time columns not compared: ${[...masked].sort().join(', ') || 'none'})`);
  const rows = r.tables.flatMap((t) => t.maskedRows.map((row) => `${t.file}: "${row}"`));
  if (rows.length > 0) lines.push(`  run-time rows whose values differed (not compared): ${rows.join('; ')}`);
  for (const t of r.tables) if (!t.identical) lines.push(`  DIFFERS ${t.file}: ${t.differences.join('; ')}`);
  const outputs = r.notebooks.reduce((s, n) => s + n.outputsCompared, 0);
  const charts = r.notebooks.reduce((s, n) => s + n.chartsSkipped, 0);
  const specs = r.notebooks.reduce((s, n) => s + n.chartsCompared, 0);
  lines.push(`notebooks: ${r.notebooks.filter((n) => n.identical).length} of ${r.notebooks.length} identical (${outputs} text outputs and ${specs} charts' plotly specs compared, ${charts} outputs with only an image not compared)`);
  for (const n of r.notebooks) for (const d of n.differences) lines.push(`  DIFFERS ${n.name}: ${d}`);
  for (const p of r.problems) lines.push(`  PROBLEM ${p}`);
  lines.push(r.identical ? 'the two runs are identical (run times aside)' : 'the two runs DIFFER');
  return lines.join('\n');
}

if (require.main === module) {
  const [run1, run2, ...names] = process.argv.slice(2);
  if (!run1 || !run2) {
    process.stderr.write('usage: compare.ts <run1> <run2> [notebook-name ...]\n');
    process.exit(2);
  }
  const r = compareRuns(run1, run2, names);
  process.stdout.write(`${formatComparison(r)}\n`);
  process.exit(r.identical ? 0 : 1);
}
