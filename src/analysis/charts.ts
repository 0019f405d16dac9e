/**
 * A small chart vocabulary for scheduling research, as plain plotly figure
 * objects (data in, data out): load curves and sensitivity curves, grouped
 * bars, CDFs, scatter plots and Gantt-style schedules. Figures are rendered by
 * `show` (notebooks) and `exportFigure` (SVG/PNG/PDF files).
 */
import type { Row } from './frame';

/** A plotly trace or layout: plain JSON. */
export type PlotlyObject = Record<string, unknown>;

/** A chart as plain plotly JSON (`data` traces and `layout`) with its size: shown by `show`, written by `exportFigure`/`saveFigure`. */
export interface Figure {
  data: PlotlyObject[];
  layout: PlotlyObject;
  /** Size in CSS pixels (also the exported size). */
  width: number;
  height: number;
}

/**
 * Publication-friendly colours, 20 distinct ones: Okabe–Ito (colour-blind
 * safe, without its yellow, too light on white) first, then Tableau 10 and
 * darker tones. Series also differ by dash and marker, so curves stay apart in
 * greyscale print and beyond 20 series.
 */
export const PALETTE = [
  '#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000',
  '#4e79a7', '#e15759', '#76b7b2', '#59a14f', '#b07aa1', '#9c755f', '#ff9da7',
  '#edc948', '#bab0ac', '#1b3a6b', '#8c1c13', '#2f5d2f', '#6b4c9a',
];
/** Dash per series (plotly names), cycling with a period prime to the markers'. */
export const DASHES = ['solid', 'dash', 'dot', 'dashdot', 'longdash', 'longdashdot', '5px,2px,1px,2px'];
/** Marker symbol per series. */
export const MARKERS = ['circle', 'square', 'diamond', 'triangle-up', 'x', 'cross', 'triangle-down', 'star', 'pentagon', 'hexagon', 'triangle-left'];

const assigned = new Map<string, string>();
const order = new Map<string, number>();

function indexOf(name: string): number {
  let k = order.get(name);
  if (k === undefined) order.set(name, (k = order.size));
  return k;
}

/**
 * The colour of a series (e.g. an algorithm). A name keeps its colour for the
 * whole session, so the same algorithm looks the same in every figure.
 */
export function seriesColor(name: string): string {
  let c = assigned.get(name);
  if (!c) {
    // The first colour no other series holds (fixed colours may have taken some).
    const used = new Set(assigned.values());
    c = PALETTE.find((p) => !used.has(p)) ?? PALETTE[assigned.size % PALETTE.length];
    assigned.set(name, c);
  }
  return c;
}

/** Colour, dash and marker of a series: all three fixed per name for the session. */
export function seriesStyle(name: string): { color: string; dash: string; symbol: string } {
  const k = indexOf(name);
  return { color: seriesColor(name), dash: DASHES[k % DASHES.length], symbol: MARKERS[k % MARKERS.length] };
}

/** Fix colours for some series names (e.g. {EASY: '#000000'}). */
export function setSeriesColors(colors: Record<string, string>): void {
  for (const [k, v] of Object.entries(colors)) {
    assigned.set(k, v);
    indexOf(k);
  }
}

/** Forget all colour assignments. */
export function resetSeriesColors(): void {
  assigned.clear();
  order.clear();
}

/** How internal names (policy ids, workload keys) read in figures and tables. */
const DISPLAY_NAMES: Record<string, string> = {
  fcfs: 'FCFS',
  easy: 'EASY',
  conservative: 'Conservative',
  keasy: 'KEASY',
  'keasy (no migration)': 'KEASY (no migration)',
  reasy: 'REASY',
  measy: 'MEASY',
  feitelson: 'Feitelson 1996',
  jann: 'Jann 1997',
  ctc: 'CTC-SP2',
  lublin: 'Lublin 2003',
};

/** Add or change display names (e.g. {greedy: 'Greedy'}). */
export function setDisplayNames(names: Record<string, string>): void {
  Object.assign(DISPLAY_NAMES, names);
}

/** The display name of an internal name (the name itself when none is set). */
export function displayName(name: string): string {
  return Object.prototype.hasOwnProperty.call(DISPLAY_NAMES, name) ? DISPLAY_NAMES[name] : name;
}

/** Font and sizes shared by every figure. */
export const FIGURE_STYLE = {
  font: { family: 'DejaVu Sans, Liberation Sans, Arial, sans-serif', size: 13, color: '#222' },
  width: 640,
  height: 400,
};

/** Options every chart takes: title, axis labels, log axes and size in pixels. */
export interface CommonOptions {
  title?: string;
  xLabel?: string;
  yLabel?: string;
  logX?: boolean;
  logY?: boolean;
  width?: number;
  height?: number;
}

function baseLayout(o: CommonOptions, extra: PlotlyObject = {}): PlotlyObject {
  const axis = (label: string | undefined, log: boolean | undefined): PlotlyObject => ({
    title: { text: label ?? '' },
    type: log ? 'log' : 'linear',
    // Log axes get plain-number ticks; logTicks() below picks their density from the data.
    ...(log ? { tickformat: '~g' } : {}),
    showline: true,
    linecolor: '#444',
    ticks: 'outside',
    gridcolor: '#e5e5e5',
    zeroline: false,
    automargin: true,
  });
  return {
    title: o.title ? { text: o.title, x: 0.02, xanchor: 'left', font: { size: 15 } } : undefined,
    font: FIGURE_STYLE.font,
    paper_bgcolor: '#ffffff',
    plot_bgcolor: '#ffffff',
    margin: { l: 70, r: 20, t: o.title ? 50 : 20, b: 60 },
    xaxis: axis(o.xLabel, o.logX),
    yaxis: axis(o.yLabel, o.logY),
    legend: { bgcolor: 'rgba(255,255,255,0.8)' },
    ...extra,
  };
}

/**
 * Hover values of axes holding fractions: 5 significant digits with thousands
 * separators (1,385.8 rather than plotly's raw 1385.8474033893926).
 */
export const HOVER_FORMAT = ',.5~r';

/** True when a trace drawn on axis `xy`+`id` (x, x2, …) has a non-integer number on it. */
function hasFractions(data: readonly PlotlyObject[], xy: 'x' | 'y', id: string): boolean {
  return data.some((t) => {
    if (String(t[`${xy}axis`] ?? xy) !== `${xy}${id === '1' ? '' : id}`) return false;
    const values = t[xy];
    return Array.isArray(values) && values.some((v) => typeof v === 'number' && Number.isFinite(v) && !Number.isInteger(v));
  });
}

function figure(data: PlotlyObject[], o: CommonOptions, extra: PlotlyObject = {}): Figure {
  // Long series names (e.g. DFRS algorithm names) squeeze the plot when the
  // legend sits on the right: put it under the plot instead.
  const names = data.filter((t) => t.showlegend !== false).map((t) => String(t.name ?? ''));
  const below = names.length > 0 && Math.max(...names.map((n) => n.length)) > 18;
  const rows = below ? Math.ceil(names.length / 2) : 0;
  const height = (o.height ?? FIGURE_STYLE.height) + rows * 20;
  const legend = below
    ? { legend: { orientation: 'h', x: 0, xanchor: 'left', y: -0.18 - (rows * 20) / height, yanchor: 'top', bgcolor: 'rgba(255,255,255,0.8)' } }
    : {};
  const layout = baseLayout(o, { ...extra, ...legend });
  for (const key of Object.keys(layout)) {
    const m = /^([xy])axis(\d*)$/.exec(key);
    const a = layout[key] as PlotlyObject;
    if (m && a.type === 'log') Object.assign(a, logTicks(data, m[1] as 'x' | 'y'));
    if (m && a.type !== 'category' && a.hoverformat === undefined && hasFractions(data, m[1] as 'x' | 'y', m[2])) a.hoverformat = HOVER_FORMAT;
  }
  if (below) layout.margin = { ...(layout.margin as PlotlyObject), b: 70 + rows * 20 };
  return { data, layout, width: o.width ?? FIGURE_STYLE.width, height };
}

/**
 * Tick density of a log axis: 1-2-5 per decade over a short range, one tick
 * per decade over a long one (so labels never run into each other), and a
 * tick every few decades beyond that.
 */
export function logTicks(data: PlotlyObject[], axis: 'x' | 'y'): PlotlyObject {
  let lo = Infinity;
  let hi = -Infinity;
  for (const t of data) {
    const values = t[axis];
    if (!Array.isArray(values)) continue;
    for (const v of values) {
      if (typeof v === 'number' && v > 0) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
  }
  if (!(hi > lo)) return { dtick: 'D2' };
  const decades = Math.log10(hi / lo);
  if (decades <= 2.5) return { dtick: 'D2' };
  if (decades <= 7) return { dtick: 1 };
  return { dtick: Math.ceil(decades / 6), exponentformat: 'power' };
}

function groupBy(data: readonly Row[], series: string | undefined): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const r of data) {
    const key = series === undefined ? '' : String(r[series]);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(r);
  }
  return groups;
}

function numberField(r: Row, field: string, chart: string): number {
  const v = r[field];
  if (typeof v !== 'number') throw new TypeError(`${chart}: field "${field}" must be a number, got ${JSON.stringify(v)}`);
  return v;
}

/** Options of `lineChart`: the records, x and y columns, series and panel columns, error bars and markers. */
export interface LineChartOptions extends CommonOptions {
  data: readonly Row[];
  x: string;
  y: string;
  /** One curve per distinct value of this field (e.g. 'algorithm'). */
  series?: string;
  /** Field holding the error-bar half-width (e.g. 'ci95'). */
  error?: string;
  /**
   * Range the plotted quantity can take, e.g. [0, 100] for a percentage; error
   * bars are cut there. Default: [0, 100] when the y label mentions '%'. On a
   * log axis the lower end of a bar never reaches 0 (see errorBars).
   */
  yBounds?: [number, number];
  /** Draw markers at the points (default true). */
  markers?: boolean;
  /** 'linear' (default) or 'hv' for step functions. */
  shape?: 'linear' | 'hv';
  /** Dashed horizontal reference lines, e.g. a published value or a flat baseline. */
  referenceLines?: { y: number; label: string }[];
  /** Small multiples: one panel per distinct value of this field, side by side, sharing the y axis. */
  facet?: string;
}

function yBoundsOf(o: { yBounds?: [number, number]; yLabel?: string }): [number, number] {
  if (o.yBounds) return o.yBounds;
  return /%/.test(o.yLabel ?? '') ? [0, 100] : [-Infinity, Infinity];
}

/**
 * Asymmetric error bars cut to what the axis can show: inside `bounds`, and
 * on a log axis never down to 0 or below (an interval from the normal
 * approximation can cross 0 for a positive quantity): there the lower end is
 * clamped at half the smallest plotted value, and the clamp is visible as a
 * shorter lower bar.
 */
export function errorBars(ys: readonly number[], es: readonly number[], bounds: [number, number], log: boolean, color: string): PlotlyObject {
  const positive = ys.filter((v) => v > 0);
  const floor = log && positive.length ? Math.min(...positive) / 2 : bounds[0];
  const lo = Math.max(bounds[0], log ? floor : -Infinity);
  return {
    type: 'data',
    symmetric: false,
    array: ys.map((y, i) => (y + es[i] > bounds[1] ? Math.max(0, bounds[1] - y) : es[i])),
    arrayminus: ys.map((y, i) => (y - es[i] < lo ? Math.max(0, y - Math.min(lo, y)) : es[i])),
    visible: true,
    color,
    thickness: 1.2,
    width: 3,
  };
}

function lineTraces(o: LineChartOptions, rowsIn: readonly Row[], axes: PlotlyObject, seen: Set<string>): PlotlyObject[] {
  const traces: PlotlyObject[] = [];
  const bounds = yBoundsOf(o);
  for (const [name, rows] of groupBy(rowsIn, o.series)) {
    const pts = rows
      .map((r) => ({ x: r[o.x] as number | string, y: numberField(r, o.y, 'lineChart'), e: o.error ? numberField(r, o.error, 'lineChart') : 0 }))
      .sort((a, b) => (typeof a.x === 'number' && typeof b.x === 'number' ? a.x - b.x : 0));
    const key = name || o.y;
    const st = seriesStyle(key);
    const ys = pts.map((p) => p.y);
    traces.push({
      type: 'scatter',
      mode: o.markers === false ? 'lines' : 'lines+markers',
      name: displayName(key),
      legendgroup: key,
      x: pts.map((p) => p.x),
      y: ys,
      line: { color: st.color, width: 2, shape: o.shape ?? 'linear', dash: st.dash },
      marker: { color: st.color, size: 6, symbol: st.symbol },
      error_y: o.error ? errorBars(ys, pts.map((p) => p.e), bounds, !!o.logY, st.color) : undefined,
      showlegend: o.series !== undefined && !seen.has(key),
      ...axes,
    });
    seen.add(key);
  }
  return traces;
}

/**
 * One curve per series over a swept parameter (load curves, sensitivity curves); `facet` splits into panels.
 *
 * @example
 * const rows = [0.5, 0.7, 0.9].flatMap((load) => ['easy', 'fcfs'].map((policy) => ({ load, policy, meanBsld: policy === 'easy' ? load * 3 : load * 5 })));
 * await show(lineChart({ data: rows, x: 'load', y: 'meanBsld', series: 'policy', xLabel: 'offered load', yLabel: 'mean bounded slowdown' }));
 */
export function lineChart(o: LineChartOptions): Figure {
  const seen = new Set<string>();
  const traces: PlotlyObject[] = [];
  const panels = o.facet === undefined ? [['', o.data] as const] : [...groupBy(o.data, o.facet)];
  const n = panels.length;
  const extra: PlotlyObject = {};
  panels.forEach(([label, rows], i) => {
    const id = i === 0 ? '' : String(i + 1);
    traces.push(...lineTraces(o, rows, i === 0 ? {} : { xaxis: `x${id}`, yaxis: `y${id}` }, seen));
    if (o.facet === undefined) return;
    const gap = 0.04;
    const base = baseLayout(o);
    extra[`xaxis${id}`] = { ...(base.xaxis as PlotlyObject), domain: [i / n + (i ? gap : 0), (i + 1) / n - (i < n - 1 ? gap : 0)], anchor: `y${id}` };
    extra[`yaxis${id}`] = { ...(base.yaxis as PlotlyObject), anchor: `x${id}`, ...(i ? { matches: 'y', showticklabels: false, title: { text: '' } } : {}) };
    const annotations = (extra.annotations as PlotlyObject[] | undefined) ?? [];
    annotations.push({ text: `<b>${displayName(label)}</b>`, xref: 'paper', yref: 'paper', x: (i + 0.5) / n, y: 1.0, xanchor: 'center', yanchor: 'bottom', showarrow: false, font: { size: 13 } });
    extra.annotations = annotations;
  });
  for (const ref of o.referenceLines ?? []) {
    const xs = o.data.map((r) => r[o.x] as number);
    const st = seriesStyle(ref.label);
    traces.push({
      type: 'scatter',
      mode: 'lines',
      name: ref.label,
      x: [Math.min(...xs), Math.max(...xs)],
      y: [ref.y, ref.y],
      line: { color: st.color, width: 1.5, dash: 'dash' },
    });
  }
  const width = o.width ?? (n > 1 ? Math.min(1200, 380 * n + 120) : undefined);
  return figure(traces, { ...o, width }, extra);
}

/** Options of `barChart`: the records, the category and value columns, and how bars of a series are laid out. */
export interface BarChartOptions extends CommonOptions {
  data: readonly Row[];
  x: string;
  y: string;
  series?: string;
  error?: string;
  /** Range of the quantity, as in LineChartOptions.yBounds. */
  yBounds?: [number, number];
  /** 'group' (default) or 'stack'. */
  mode?: 'group' | 'stack';
}

/** Grouped (or stacked) bars: one bar colour per series. */
export function barChart(o: BarChartOptions): Figure {
  const traces: PlotlyObject[] = [];
  const bounds = yBoundsOf(o);
  for (const [name, rows] of groupBy(o.data, o.series)) {
    const key = name || o.y;
    const color = seriesColor(key);
    const ys = rows.map((r) => numberField(r, o.y, 'barChart'));
    traces.push({
      type: 'bar',
      name: displayName(key),
      // Categories as text, so numeric x values (loads) are dodged side by side, not stacked on a number line.
      x: rows.map((r) => String(r[o.x])),
      y: ys,
      marker: { color, line: { color: '#333', width: 0.5 } },
      error_y: o.error ? errorBars(ys, rows.map((r) => numberField(r, o.error as string, 'barChart')), bounds, !!o.logY, '#333') : undefined,
      showlegend: o.series !== undefined,
    });
  }
  const base = baseLayout(o);
  return figure(traces, { ...o }, { barmode: o.mode ?? 'group', bargap: 0.2, bargroupgap: 0.05, xaxis: { ...(base.xaxis as PlotlyObject), type: 'category' } });
}

/** Options of `cdfChart`: the records, the value column and the series column. */
export interface CdfChartOptions extends CommonOptions {
  data: readonly Row[];
  value: string;
  series?: string;
  /** Most points drawn per series (default 2000): keeps notebooks small on paper-scale data. */
  maxPoints?: number;
}

/**
 * The points of an empirical CDF: one per distinct value (its fraction ≤ x),
 * thinned to about `maxPoints` evenly spaced ranks when there are more; every
 * kept point is exact, and the step curve through them is off by less than
 * 1/maxPoints in y.
 */
export function ecdfPoints(values: readonly number[], maxPoints = 2000): { x: number[]; y: number[] } {
  const v = values.slice().sort((a, b) => a - b);
  const x: number[] = [];
  const y: number[] = [];
  for (let i = 0; i < v.length; i++) {
    if (i + 1 < v.length && v[i + 1] === v[i]) continue;
    x.push(v[i]);
    y.push((i + 1) / v.length);
  }
  if (x.length <= maxPoints) return { x, y };
  const step = x.length / maxPoints;
  const tx: number[] = [];
  const ty: number[] = [];
  for (let k = 0; k < maxPoints; k++) {
    const i = Math.min(x.length - 1, Math.floor(k * step));
    tx.push(x[i]);
    ty.push(y[i]);
  }
  tx.push(x[x.length - 1]);
  ty.push(1);
  return { x: tx, y: ty };
}

/** Empirical cumulative distribution, one step curve per series. */
export function cdfChart(o: CdfChartOptions): Figure {
  const traces: PlotlyObject[] = [];
  for (const [name, rows] of groupBy(o.data, o.series)) {
    const { x, y } = ecdfPoints(rows.map((r) => numberField(r, o.value, 'cdfChart')), o.maxPoints);
    const st = seriesStyle(name || o.value);
    traces.push({
      type: 'scatter',
      mode: 'lines',
      name: displayName(name || o.value),
      x,
      y,
      line: { color: st.color, width: 2, shape: 'hv', dash: st.dash },
      showlegend: o.series !== undefined,
    });
  }
  return figure(traces, { yLabel: 'fraction ≤ x', ...o });
}

/** Options of `scatterChart`: the records, x and y columns and the series column. */
export interface ScatterChartOptions extends CommonOptions {
  data: readonly Row[];
  x: string;
  y: string;
  series?: string;
  /** Marker opacity (default 0.7). */
  opacity?: number;
}

/** Points, one colour per series (e.g. a trade-off between two metrics). */
export function scatterChart(o: ScatterChartOptions): Figure {
  const traces: PlotlyObject[] = [];
  for (const [name, rows] of groupBy(o.data, o.series)) {
    const st = seriesStyle(name || o.y);
    traces.push({
      type: 'scatter',
      mode: 'markers',
      name: displayName(name || o.y),
      x: rows.map((r) => numberField(r, o.x, 'scatterChart')),
      y: rows.map((r) => numberField(r, o.y, 'scatterChart')),
      marker: { color: st.color, size: 6, opacity: o.opacity ?? 0.7, symbol: st.symbol },
      showlegend: o.series !== undefined,
    });
  }
  return figure(traces, o);
}

/** Options of `ganttChart`: the rows (one bar each), their start, end and lane columns, and an optional hover label. */
export interface GanttChartOptions extends CommonOptions {
  data: readonly Row[];
  /** Field naming the row (a node, a PE range, a job). */
  row: string;
  start: string;
  end: string;
  /** Colour by this field (e.g. job id or algorithm). */
  series?: string;
  /** Text shown on hover. */
  label?: string;
}

/** Gantt-style schedule: one horizontal bar per (row, start, end) record. */
export function ganttChart(o: GanttChartOptions): Figure {
  const traces: PlotlyObject[] = [];
  for (const [name, rows] of groupBy(o.data, o.series)) {
    const color = seriesColor(name || 'busy');
    traces.push({
      type: 'bar',
      orientation: 'h',
      name: displayName(name || 'busy'),
      y: rows.map((r) => String(r[o.row])),
      base: rows.map((r) => numberField(r, o.start, 'ganttChart')),
      x: rows.map((r) => numberField(r, o.end, 'ganttChart') - numberField(r, o.start, 'ganttChart')),
      // Labels on hover only: drawn on the bars they collide wherever bars are short or rows dense.
      hovertext: o.label ? rows.map((r) => String(r[o.label as string])) : undefined,
      textposition: 'none',
      hoverinfo: o.label ? 'text+x+y' : 'x+y',
      marker: { color, line: { color: '#ffffff', width: 0.5 } },
      showlegend: o.series !== undefined && groupBy(o.data, o.series).size <= 20,
    });
  }
  return figure(traces, { xLabel: 'time (s)', ...o }, { barmode: 'overlay', bargap: 0.15, yaxis: { ...(baseLayout(o).yaxis as PlotlyObject), type: 'category', autorange: 'reversed' } });
}
