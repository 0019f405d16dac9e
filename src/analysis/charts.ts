/**
 * A small chart vocabulary for scheduling research, as plain plotly figure
 * objects (data in, data out): load curves and sensitivity curves, grouped
 * bars, CDFs, scatter plots and Gantt-style schedules. Figures are rendered by
 * `show` (notebooks) and `exportFigure` (SVG/PNG/PDF files).
 */
import type { Row } from './frame';

/** A plotly trace or layout: plain JSON. */
export type PlotlyObject = Record<string, unknown>;

export interface Figure {
  data: PlotlyObject[];
  layout: PlotlyObject;
  /** Size in CSS pixels (also the exported size). */
  width: number;
  height: number;
}

/** Publication-friendly colours (Okabe–Ito first, then Tableau 10). */
export const PALETTE = [
  '#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442',
  '#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac',
];

const assigned = new Map<string, string>();

/**
 * The colour of a series (e.g. an algorithm). A name keeps its colour for the
 * whole session, so the same algorithm looks the same in every figure.
 */
export function seriesColor(name: string): string {
  let c = assigned.get(name);
  if (!c) {
    c = PALETTE[assigned.size % PALETTE.length];
    assigned.set(name, c);
  }
  return c;
}

/** Fix colours for some series names (e.g. {EASY: '#000000'}). */
export function setSeriesColors(colors: Record<string, string>): void {
  for (const [k, v] of Object.entries(colors)) assigned.set(k, v);
}

/** Forget all colour assignments. */
export function resetSeriesColors(): void {
  assigned.clear();
}

/** Font and sizes shared by every figure. */
export const FIGURE_STYLE = {
  font: { family: 'DejaVu Sans, Liberation Sans, Arial, sans-serif', size: 13, color: '#222' },
  width: 640,
  height: 400,
};

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
  for (const axis of ['x', 'y'] as const) {
    const a = layout[`${axis}axis`] as PlotlyObject;
    if (a.type === 'log') Object.assign(a, logTicks(data, axis));
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

export interface LineChartOptions extends CommonOptions {
  data: readonly Row[];
  x: string;
  y: string;
  /** One curve per distinct value of this field (e.g. 'algorithm'). */
  series?: string;
  /** Field holding the error-bar half-width (e.g. 'ci95'). */
  error?: string;
  /** Draw markers at the points (default true). */
  markers?: boolean;
  /** 'linear' (default) or 'hv' for step functions. */
  shape?: 'linear' | 'hv';
  /** Dashed horizontal reference lines, e.g. a published value or a flat baseline. */
  referenceLines?: { y: number; label: string }[];
}

/** One curve per series over a swept parameter (load curves, sensitivity curves). */
export function lineChart(o: LineChartOptions): Figure {
  const traces: PlotlyObject[] = [];
  for (const [name, rows] of groupBy(o.data, o.series)) {
    const pts = rows
      .map((r) => ({ x: r[o.x] as number | string, y: numberField(r, o.y, 'lineChart'), e: o.error ? numberField(r, o.error, 'lineChart') : 0 }))
      .sort((a, b) => (typeof a.x === 'number' && typeof b.x === 'number' ? a.x - b.x : 0));
    const color = seriesColor(name || o.y);
    traces.push({
      type: 'scatter',
      mode: o.markers === false ? 'lines' : 'lines+markers',
      name: name || o.y,
      x: pts.map((p) => p.x),
      y: pts.map((p) => p.y),
      line: { color, width: 2, shape: o.shape ?? 'linear' },
      marker: { color, size: 6 },
      error_y: o.error ? { type: 'data', array: pts.map((p) => p.e), visible: true, color, thickness: 1.2, width: 3 } : undefined,
      showlegend: o.series !== undefined,
    });
  }
  for (const ref of o.referenceLines ?? []) {
    const xs = o.data.map((r) => r[o.x] as number);
    const color = seriesColor(ref.label);
    traces.push({
      type: 'scatter',
      mode: 'lines',
      name: ref.label,
      x: [Math.min(...xs), Math.max(...xs)],
      y: [ref.y, ref.y],
      line: { color, width: 1.5, dash: 'dash' },
    });
  }
  return figure(traces, o);
}

export interface BarChartOptions extends CommonOptions {
  data: readonly Row[];
  x: string;
  y: string;
  series?: string;
  error?: string;
  /** 'group' (default) or 'stack'. */
  mode?: 'group' | 'stack';
}

/** Grouped (or stacked) bars: one bar colour per series. */
export function barChart(o: BarChartOptions): Figure {
  const traces: PlotlyObject[] = [];
  for (const [name, rows] of groupBy(o.data, o.series)) {
    const color = seriesColor(name || o.y);
    traces.push({
      type: 'bar',
      name: name || o.y,
      x: rows.map((r) => r[o.x]),
      y: rows.map((r) => numberField(r, o.y, 'barChart')),
      marker: { color },
      error_y: o.error ? { type: 'data', array: rows.map((r) => numberField(r, o.error as string, 'barChart')), visible: true, color: '#333' } : undefined,
      showlegend: o.series !== undefined,
    });
  }
  return figure(traces, { ...o }, { barmode: o.mode ?? 'group' });
}

export interface CdfChartOptions extends CommonOptions {
  data: readonly Row[];
  value: string;
  series?: string;
}

/** Empirical cumulative distribution, one step curve per series. */
export function cdfChart(o: CdfChartOptions): Figure {
  const traces: PlotlyObject[] = [];
  for (const [name, rows] of groupBy(o.data, o.series)) {
    const v = rows.map((r) => numberField(r, o.value, 'cdfChart')).sort((a, b) => a - b);
    const color = seriesColor(name || o.value);
    traces.push({
      type: 'scatter',
      mode: 'lines',
      name: name || o.value,
      x: v,
      y: v.map((_, i) => (i + 1) / v.length),
      line: { color, width: 2, shape: 'hv' },
      showlegend: o.series !== undefined,
    });
  }
  return figure(traces, { yLabel: 'fraction ≤ x', ...o });
}

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
    const color = seriesColor(name || o.y);
    traces.push({
      type: 'scatter',
      mode: 'markers',
      name: name || o.y,
      x: rows.map((r) => numberField(r, o.x, 'scatterChart')),
      y: rows.map((r) => numberField(r, o.y, 'scatterChart')),
      marker: { color, size: 6, opacity: o.opacity ?? 0.7 },
      showlegend: o.series !== undefined,
    });
  }
  return figure(traces, o);
}

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
      name: name || 'busy',
      y: rows.map((r) => String(r[o.row])),
      base: rows.map((r) => numberField(r, o.start, 'ganttChart')),
      x: rows.map((r) => numberField(r, o.end, 'ganttChart') - numberField(r, o.start, 'ganttChart')),
      text: o.label ? rows.map((r) => String(r[o.label as string])) : undefined,
      hoverinfo: 'text+x+y',
      marker: { color, line: { color: '#ffffff', width: 0.5 } },
      showlegend: o.series !== undefined && groupBy(o.data, o.series).size <= 20,
    });
  }
  return figure(traces, { xLabel: 'time (s)', ...o }, { barmode: 'overlay', bargap: 0.15, yaxis: { ...(baseLayout(o).yaxis as PlotlyObject), type: 'category', autorange: 'reversed' } });
}
