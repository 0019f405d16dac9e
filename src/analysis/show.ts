/**
 * `show(figure)`: one notebook output holding the chart as plotly's own MIME
 * type (`application/vnd.plotly.v1+json`) plus one static PNG (none with
 * SCHEDLAB_IMAGES=off: ./images.ts).
 *
 * The plotly MIME type needs no notebook trust: JupyterLab and VS Code render
 * it themselves, and in the classic notebook the `schedlab-plotly` extension
 * (installed by the set-up and `schedlab init`, see ./jupyter.ts) renders it
 * from the local plotly bundle. Viewers without JavaScript (GitHub, nbviewer
 * without scripts, PDF export) fall back to the PNG. No script and no plotly
 * bundle is stored in the notebook, which keeps executed notebooks small.
 */
import * as path from 'path';
import type { Figure } from './charts';
import type { Row } from './frame';
import { display, displayUnavailableReason } from './display';
import { exportFigure, renderFigure } from './render';
import { figureSpec, imagesMode } from './images';
import { figuresDir, outputStem } from './paths';
import { toHtml, toMarkdown, TableOptions } from './table';

/** plotly's own MIME type, which `show` sends with every chart (rendered by JupyterLab, VS Code and the schedlab-plotly extension). */
export const PLOTLY_MIME = 'application/vnd.plotly.v1+json';

function titleOf(fig: Figure): string {
  return String((fig.layout.title as { text?: string } | undefined)?.text ?? 'chart');
}

/** The MIME bundle `show` sends for a figure (exported for tests and custom displays); without a PNG (images off) the spec and text only. */
export function figureBundle(fig: Figure, pngBase64?: string): { data: Record<string, unknown>; metadata: Record<string, unknown> } {
  const text = `<Figure: ${titleOf(fig)}>`;
  if (pngBase64 === undefined) return { data: { [PLOTLY_MIME]: figureSpec(fig), 'text/plain': text }, metadata: {} };
  return {
    data: { [PLOTLY_MIME]: figureSpec(fig), 'image/png': pngBase64, 'text/plain': text },
    metadata: { 'image/png': { width: fig.width, height: fig.height } },
  };
}

/**
 * A danfojs DataFrame or Series, as `show` reads it (its columns, values and
 * index), so that displaying one does not load danfojs.
 */
export interface FrameLike {
  columns: string[];
  values: unknown[] | unknown[][];
  index: (string | number)[];
  ndim?: number;
}

/** How `show` displays a frame: `rows` rows (default 20) starting at row `from` (default: first and last halves). */
export interface FrameShowOptions extends Pick<TableOptions, 'digits' | 'title'> {
  /** Rows shown at most (default 20): the first and last halves of the frame, or `rows` rows from `from`. */
  rows?: number;
  /** First row shown (0-based): pages through a large frame, `rows` at a time. */
  from?: number;
}

function isFigure(x: unknown): x is Figure {
  return typeof x === 'object' && x !== null && 'layout' in x && Array.isArray((x as Figure).data);
}

/** True for a danfojs DataFrame or Series (anything with `columns`, `values` and `index` arrays), as `show` tells them from figures. */
export function isFrameLike(x: unknown): x is FrameLike {
  if (typeof x !== 'object' || x === null) return false;
  const f = x as FrameLike;
  return Array.isArray(f.columns) && Array.isArray(f.values) && Array.isArray(f.index);
}

/**
 * The MIME bundle `show` sends for a frame: an HTML table and its Markdown
 * text, with the index as first column, at most `rows` rows and a line
 * saying how many rows are hidden and how to see them.
 */
export function frameBundle(frame: FrameLike, options: FrameShowOptions = {}): { 'text/html': string; 'text/plain': string } {
  const max = options.rows ?? 20;
  if (!(Number.isInteger(max) && max > 0)) throw new RangeError(`show: rows must be a positive integer, got ${max}`);
  const n = frame.index.length;
  const series = frame.ndim === 1 || !frame.values.every((v) => Array.isArray(v));
  const cols = frame.columns.map(String);
  const row = (i: number): Row => {
    const r: Row = { '': frame.index[i] };
    const values = series ? [frame.values[i]] : (frame.values[i] as unknown[]);
    cols.forEach((c, j) => (r[c] = values[j]));
    return r;
  };
  const gap = '…';
  let shown: Row[];
  let note: string;
  if (options.from !== undefined) {
    if (!(Number.isInteger(options.from) && options.from >= 0)) throw new RangeError(`show: from must be an integer >= 0, got ${options.from}`);
    const end = Math.min(n, options.from + max);
    shown = [];
    for (let i = options.from; i < end; i++) shown.push(row(i));
    note = `rows ${options.from}–${end - 1} of ${n}` + (n > end - options.from ? `; ${n - (end - options.from)} rows hidden (show(frame, { from, rows }) pages)` : '');
  } else if (n > max) {
    const head = Math.ceil(max / 2);
    const tail = max - head;
    shown = [];
    for (let i = 0; i < head; i++) shown.push(row(i));
    shown.push({ '': gap, ...Object.fromEntries(cols.map((c) => [c, gap])) });
    for (let i = n - tail; i < n; i++) shown.push(row(i));
    note = `${n} rows × ${cols.length} columns; ${n - max} rows hidden (show(frame, { from, rows }) pages)`;
  } else {
    shown = [];
    for (let i = 0; i < n; i++) shown.push(row(i));
    note = `${n} rows × ${cols.length} columns`;
  }
  const table = { columns: ['', ...cols], digits: options.digits ?? 3, ...(options.title ? { title: options.title } : {}) };
  return {
    'text/html': `${toHtml(shown, table)}<div style="font-size:11px;color:#666;padding:2px 0">${note}</div>`,
    'text/plain': `${toMarkdown(shown, table)}\n${note}`,
  };
}

/**
 * Display a figure inline (interactive chart + static image), or a danfojs
 * DataFrame or Series as a table (at most 20 rows: the first and last ten,
 * saying how many are hidden; `{ from, rows }` pages). Outside a notebook a
 * figure prints why it cannot display, and a frame prints as text.
 *
 * @example
 * const run = simulateBatch(generateLublin({ jobs: 500, seed: 1, machineSize: 128 }), { machineSize: 128, policy: 'easy' });
 * const df = toFrame(run.map((j) => ({ id: j.id, procs: j.procs, wait: j.wait })));
 * show(df);                          // first and last 10 rows
 * show(df, { from: 100, rows: 50 }); // rows 100–149
 */
export function show(frame: FrameLike, options?: FrameShowOptions): void;
export function show(fig: Figure): Promise<void>;
export function show(x: Figure | FrameLike, options: FrameShowOptions = {}): Promise<void> | void {
  if (isFigure(x)) return showFigure(x);
  if (!isFrameLike(x)) throw new TypeError('show: expects a figure (lineChart, barChart, …) or a danfojs DataFrame or Series');
  display(frameBundle(x, options));
}

async function showFigure(fig: Figure): Promise<void> {
  const reason = displayUnavailableReason();
  if (reason !== undefined) {
    const writes = imagesMode() === 'off' ? 'its plotly JSON (SCHEDLAB_IMAGES=off)' : 'SVG/PNG/PDF';
    console.log(`[figure "${titleOf(fig)}" (${fig.data.length} traces) not displayed: ${reason}; exportFigure(fig, path) writes it to ${writes}]`);
    return;
  }
  // Scale 1.5: sharp on high-density screens, still ~50-100 kB per chart.
  const png = imagesMode() === 'off' ? undefined : (await renderFigure(fig, 'png', { scale: 1.5 })).toString('base64');
  const { data, metadata } = figureBundle(fig, png);
  display(data, metadata);
  shown.add(fig);
}

/** Figures `show` displayed, so that `saveFigure` after `show` does not draw the chart twice. */
const shown = new WeakSet<Figure>();

/**
 * Show a figure and write it as SVG, PNG and PDF to
 * `figuresDir(notebook)/<stem>.*` (with SCHEDLAB_IMAGES=off its plotly spec,
 * `<stem>.json`, drawn by nothing): one call does both. The stem follows
 * `outputStem`: `fig<NN>-…` when the slug or the figure's title starts with
 * the paper's figure number ("Figure 3 — …"), `extra-<slug>` otherwise. A figure that
 * `show` already displayed is not displayed a second time. Returns nothing,
 * so a cell ending with it shows no value (the files are listed in the
 * figures folder).
 *
 * @example
 * const rows = [0.5, 0.9].flatMap((load) => ['easy', 'fcfs'].map((policy) => ({ load, policy, meanBsld: policy === 'easy' ? 2 * load : 4 * load })));
 * const fig = lineChart({ data: rows, x: 'load', y: 'meanBsld', series: 'policy' });
 * await saveFigure(fig, 'my-study', 'bsld-vs-load'); // shown, and out/my-study/figures/extra-bsld-vs-load.{svg,png,pdf}
 */
export async function saveFigure(fig: Figure, notebook: string, slug: string): Promise<void> {
  if (!shown.has(fig)) await show(fig);
  await exportFigure(fig, path.join(figuresDir(notebook), outputStem(slug, titleOf(fig))));
}
