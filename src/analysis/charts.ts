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
 * Publication-friendly colours, 20 of them, chosen so that no two are closer
 * than 25 in CIELAB ΔE (no near-identical pair): Okabe–Ito (colour-blind
 * safe, without its yellow, too light on white) first, then the candidates
 * farthest from those already taken. Series also differ by dash and marker,
 * so curves stay apart in greyscale print and beyond 20 series.
 */
export const PALETTE = [
  '#000000', '#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#4b0082', '#ff1493', '#6b6b00',
  '#a50026', '#7f7f7f', '#2ca02c', '#004d40', '#bcbd22', '#8b4513', '#6b4c9a', '#00ced1', '#882255', '#8c564b',
];
/** Dash per series (plotly names). */
export const DASHES = ['solid', 'dash', 'dot', 'dashdot', 'longdash', 'longdashdot', '5px,2px,1px,2px'];
/** Marker symbol per series. */
export const MARKERS = ['circle', 'square', 'diamond', 'triangle-up', 'x', 'cross', 'triangle-down', 'star', 'pentagon', 'hexagon', 'triangle-left'];

/** How a series is drawn: colour, line dash and marker symbol. */
export interface SeriesStyle {
  color: string;
  dash: string;
  symbol: string;
}

/**
 * Policies drawn in several notebooks, keyed by lower-case display name
 * ('easy' and 'EASY' are one policy): the same look in every chart of every
 * notebook, whatever else a chart holds.
 */
export const POLICY_STYLES: Readonly<Record<string, SeriesStyle>> = {
  easy: { color: '#000000', dash: 'solid', symbol: 'circle' },
  fcfs: { color: '#7f7f7f', dash: 'dot', symbol: 'square' },
  conservative: { color: '#0072B2', dash: 'dash', symbol: 'diamond' },
  'easy-sjbf': { color: '#009E73', dash: 'dashdot', symbol: 'triangle-up' },
  keasy: { color: '#E69F00', dash: 'dash', symbol: 'triangle-down' },
  'keasy (no migration)': { color: '#8b4513', dash: 'longdash', symbol: 'triangle-down' },
  reasy: { color: '#56B4E9', dash: 'dot', symbol: 'x' },
  measy: { color: '#D55E00', dash: 'solid', symbol: 'star' },
};

/** Colours a notebook fixed with setSeriesColors, by canonical name. */
const pinned = new Map<string, string>();

/** One key per series however it is spelt: the lower-case display name. */
function canonical(name: string): string {
  return displayName(name).toLowerCase();
}

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Colours no hashed series takes: those of the fixed policies and of pinned names. */
function reservedColors(): Set<string> {
  return new Set([...Object.values(POLICY_STYLES).map((s) => s.color), ...pinned.values()].map((c) => c.toLowerCase()));
}

function fixedStyle(name: string): SeriesStyle | undefined {
  const key = canonical(name);
  const fixed = POLICY_STYLES[key];
  const color = pinned.get(key);
  if (color) return { ...(fixed ?? hashedStyle(key)), color };
  return fixed;
}

function hashedStyle(key: string): SeriesStyle {
  const h = hash(key);
  const reserved = reservedColors();
  const free = PALETTE.filter((c) => !reserved.has(c.toLowerCase()));
  const colors = free.length ? free : PALETTE;
  return { color: colors[h % colors.length], dash: DASHES[(h >>> 8) % DASHES.length], symbol: MARKERS[(h >>> 16) % MARKERS.length] };
}

/**
 * Colour, dash and marker of a series (e.g. an algorithm), from its name
 * alone: a fixed style for the policies of POLICY_STYLES, a pinned colour
 * (setSeriesColors), else one picked by a hash of the name. So a name looks
 * the same in every figure, notebook and session, in whatever order charts
 * are drawn. Within one chart, `chartStyles` moves a hashed series whose
 * colour is too close to another's.
 */
export function seriesStyle(name: string): SeriesStyle {
  return fixedStyle(name) ?? hashedStyle(canonical(name));
}

/** The colour of a series: see seriesStyle. */
export function seriesColor(name: string): string {
  return seriesStyle(name).color;
}

/** Fix colours for some series names (e.g. {EASY: '#000000'}), in every chart drawn after. */
export function setSeriesColors(colors: Record<string, string>): void {
  for (const [k, v] of Object.entries(colors)) pinned.set(canonical(k), v);
}

/** Forget the colours fixed by setSeriesColors. */
export function resetSeriesColors(): void {
  pinned.clear();
}

/** CIELAB of a '#rrggbb' colour (D65). */
function lab(hex: string): [number, number, number] {
  const lin = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c > 0.04045 ? ((c + 0.055) / 1.055) ** 2.4 : c / 12.92;
  };
  const [r, g, b] = [lin(1), lin(3), lin(5)];
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const fx = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
  const fy = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
  const fz = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** Perceptual distance of two '#rrggbb' colours (CIELAB ΔE 1976; about 2 is just noticeable). */
export function colorDistance(a: string, b: string): number {
  const [p, q] = [lab(a), lab(b)];
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

/** Colours closer than this are told apart only with effort: one chart never holds two such series. */
export const MIN_COLOR_DISTANCE = 20;

/**
 * The styles of the series of one chart: each its seriesStyle, except that a
 * hashed series whose colour is near one already in the chart takes the next
 * palette colour that is not (and the next dash/marker pair not taken).
 */
export function chartStyles(names: readonly string[]): Map<string, SeriesStyle> {
  const out = new Map<string, SeriesStyle>();
  const keys = [...new Set(names)];
  for (const n of keys) {
    const f = fixedStyle(n);
    if (f) out.set(n, f);
  }
  const near = (c: string) => [...out.values()].some((s) => colorDistance(s.color, c) < MIN_COLOR_DISTANCE);
  const pairTaken = (d: string, m: string) => [...out.values()].some((s) => s.dash === d && s.symbol === m);
  for (const n of keys) {
    if (out.has(n)) continue;
    const s = hashedStyle(canonical(n));
    if (near(s.color)) {
      const k = PALETTE.indexOf(s.color);
      const free = PALETTE.map((_, i) => PALETTE[(k + 1 + i) % PALETTE.length]).find((c) => !near(c));
      if (free) s.color = free;
    }
    for (let i = 0; pairTaken(s.dash, s.symbol) && i < DASHES.length * MARKERS.length; i++) {
      s.dash = DASHES[(DASHES.indexOf(s.dash) + 1) % DASHES.length];
      if (i % DASHES.length === DASHES.length - 1) s.symbol = MARKERS[(MARKERS.indexOf(s.symbol) + 1) % MARKERS.length];
    }
    out.set(n, s);
  }
  return out;
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
    // Aligned with the plot area, not the figure: a long vertical y-axis title then never runs into it.
    title: o.title ? { text: o.title, xref: 'paper', x: 0, xanchor: 'left', font: { size: 15 } } : undefined,
    font: FIGURE_STYLE.font,
    paper_bgcolor: '#ffffff',
    plot_bgcolor: '#ffffff',
    // A title with a subtitle line (<br>) needs the room of two lines above the plot.
    margin: { l: 70, r: 20, t: o.title ? (o.title.includes('<br>') ? 80 : 50) : 20, b: 60 },
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

/**
 * Widest figure: what a notebook cell shows without a horizontal scroll bar
 * (the classic notebook's output area is about 900 px wide on a laptop
 * screen); wider charts lose their right-hand panels and legend.
 */
export const MAX_FIGURE_WIDTH = 880;

function figure(data: PlotlyObject[], o: CommonOptions & { legendBelow?: boolean }, extra: PlotlyObject = {}): Figure {
  // Long series names (e.g. DFRS algorithm names) squeeze the plot when the
  // legend sits on the right: put it under the plot instead (so do panels,
  // which need the whole width).
  const names = data.filter((t) => t.showlegend !== false && t.name !== undefined).map((t) => String(t.name ?? ''));
  const below = names.length > 0 && (o.legendBelow || Math.max(...names.map((n) => n.length)) > 18);
  const width = Math.min(o.width ?? FIGURE_STYLE.width, MAX_FIGURE_WIDTH);
  const perRow = Math.max(1, Math.floor(width / Math.max(120, 9 * Math.max(...names.map((n) => n.length), 0) + 50)));
  const rows = below ? Math.ceil(names.length / perRow) : 0;
  const notes = (extra.annotations as PlotlyObject[] | undefined)?.filter((a) => a.name === 'note').length ?? 0;
  const height = (o.height ?? FIGURE_STYLE.height) + rows * 20 + notes * 18;
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
  const bottom = 60 + (below ? 10 + rows * 20 : 0) + notes * 18;
  layout.margin = { ...(layout.margin as PlotlyObject), b: bottom };
  // Notes sit under everything else, one line each.
  let k = 0;
  for (const a of (layout.annotations as PlotlyObject[] | undefined) ?? []) {
    if (a.name !== 'note') continue;
    const plotHeight = height - bottom - Number((layout.margin as { t: number }).t);
    const below = bottom - 18 * (notes - k) + 2; // px under the plot area: the notes fill the bottom of the margin
    Object.assign(a, { xref: 'paper', yref: 'paper', x: 0, xanchor: 'left', y: -below / plotHeight, yanchor: 'top', showarrow: false, align: 'left', font: { size: 11, color: '#555' } });
    k++;
  }
  return { data, layout, width, height };
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

/** The lowest value an error bar can reach: `bounds[0]`, and on a log axis half the smallest plotted value (never 0 or below). */
function errorFloor(ys: readonly number[], bounds: [number, number], log: boolean): number {
  const positive = ys.filter((v) => v > 0);
  const floor = log && positive.length ? Math.min(...positive) / 2 : bounds[0];
  return Math.max(bounds[0], log ? floor : -Infinity);
}

/**
 * Asymmetric error bars cut to what the axis can show: inside `bounds`, and
 * on a log axis never down to 0 or below (an interval from the normal
 * approximation can cross 0 for a positive quantity): there the lower end is
 * clamped at half the smallest plotted value. `lineChart` marks each cut end
 * and says so in a note under the chart.
 */
export function errorBars(ys: readonly number[], es: readonly number[], bounds: [number, number], log: boolean, color: string): PlotlyObject {
  const lo = errorFloor(ys, bounds, log);
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

/** Points whose error bar was cut: where it ends, and whether at the bottom. */
function clippedEnds(xs: readonly unknown[], ys: readonly number[], es: readonly number[], bounds: [number, number], log: boolean): { x: unknown[]; y: number[]; below: boolean[] } {
  const lo = errorFloor(ys, bounds, log);
  const out = { x: [] as unknown[], y: [] as number[], below: [] as boolean[] };
  ys.forEach((y, i) => {
    if (!(es[i] > 0)) return;
    if (y - es[i] < lo && y > lo) out.x.push(xs[i]), out.y.push(lo), out.below.push(true);
    if (y + es[i] > bounds[1] && y < bounds[1]) out.x.push(xs[i]), out.y.push(bounds[1]), out.below.push(false);
  });
  return out;
}

/** True when two traces draw the same points (within 1e-9 relative). */
function samePoints(a: PlotlyObject, b: PlotlyObject): boolean {
  const [ax, ay, bx, by] = [a.x, a.y, b.x, b.y] as unknown[][];
  if (ax.length === 0 || ax.length !== bx.length) return false;
  const eq = (u: unknown, v: unknown) => u === v || (typeof u === 'number' && typeof v === 'number' && Math.abs(u - v) <= 1e-9 * Math.max(Math.abs(u), Math.abs(v)));
  return ax.every((x, i) => eq(x, bx[i]) && eq(ay[i], by[i]));
}

interface LineState {
  seen: Set<string>;
  styles: Map<string, SeriesStyle>;
  /** Per series key: the series it coincides with, and in which panels. */
  identical: Map<string, { to: string; panels: string[] }>;
  panels: Map<string, number>;
  clipped: number;
}

function lineTraces(o: LineChartOptions, rowsIn: readonly Row[], axes: PlotlyObject, state: LineState, panel: string): PlotlyObject[] {
  const traces: PlotlyObject[] = [];
  const bounds = yBoundsOf(o);
  for (const [name, rows] of groupBy(rowsIn, o.series)) {
    const pts = rows
      .map((r) => ({ x: r[o.x] as number | string, y: numberField(r, o.y, 'lineChart'), e: o.error ? numberField(r, o.error, 'lineChart') : 0 }))
      .sort((a, b) => (typeof a.x === 'number' && typeof b.x === 'number' ? a.x - b.x : 0));
    const key = name || o.y;
    const st = state.styles.get(key) ?? seriesStyle(key);
    const ys = pts.map((p) => p.y);
    const trace: PlotlyObject = {
      type: 'scatter',
      mode: o.markers === false ? 'lines' : 'lines+markers',
      name: displayName(key),
      legendgroup: key,
      x: pts.map((p) => p.x),
      y: ys,
      line: { color: st.color, width: 2, shape: o.shape ?? 'linear', dash: st.dash },
      marker: { color: st.color, size: 6, symbol: st.symbol },
      error_y: o.error ? errorBars(ys, pts.map((p) => p.e), bounds, !!o.logY, st.color) : undefined,
      showlegend: o.series !== undefined && !state.seen.has(key),
      ...axes,
    };
    // A series drawn exactly over an earlier one would vanish under it: it is
    // drawn as a thinner line with large open markers around the other's, and
    // the legend says which one it coincides with.
    const twin = traces.find((t) => t.type === 'scatter' && t.legendgroup !== undefined && samePoints(t, trace));
    if (twin) {
      const to = String(twin.legendgroup);
      const seen = state.identical.get(key);
      if (!seen || seen.to === to) state.identical.set(key, { to, panels: [...(seen?.panels ?? []), panel] });
      trace.mode = 'lines+markers';
      trace.line = { ...(trace.line as PlotlyObject), width: 1.2 };
      trace.marker = { color: st.color, size: 12, symbol: `${st.symbol.replace(/-open$/, '')}-open`, line: { width: 1.5, color: st.color } };
    }
    state.panels.set(key, (state.panels.get(key) ?? 0) + 1);
    traces.push(trace);
    if (o.error) {
      const cut = clippedEnds(trace.x as unknown[], ys, pts.map((p) => p.e), bounds, !!o.logY);
      if (cut.x.length) {
        state.clipped += cut.x.length;
        traces.push({
          type: 'scatter',
          mode: 'markers',
          x: cut.x,
          y: cut.y,
          marker: { color: st.color, size: 8, symbol: cut.below.map((b) => (b ? 'triangle-down-open' : 'triangle-up-open')) },
          hovertext: cut.below.map((b) => (b ? '95% CI continues below the axis' : '95% CI continues above the axis')),
          hoverinfo: 'text',
          showlegend: false,
          legendgroup: undefined,
          ...axes,
        });
      }
    }
    state.seen.add(key);
  }
  return traces;
}

/**
 * One curve per series over a swept parameter (load curves, sensitivity curves); `facet` splits into panels.
 * Series that coincide stay visible (open markers around the other's, a legend
 * note "identical to …"); error bars cut at the axis are marked ▽/△ and noted
 * under the chart.
 *
 * @example
 * const rows = [0.5, 0.7, 0.9].flatMap((load) => ['easy', 'fcfs'].map((policy) => ({ load, policy, meanBsld: policy === 'easy' ? load * 3 : load * 5 })));
 * await show(lineChart({ data: rows, x: 'load', y: 'meanBsld', series: 'policy', xLabel: 'offered load', yLabel: 'mean bounded slowdown' }));
 */
export function lineChart(o: LineChartOptions): Figure {
  const state: LineState = {
    seen: new Set(),
    styles: chartStyles(o.series === undefined ? [] : o.data.map((r) => String(r[o.series as string]))),
    identical: new Map(),
    panels: new Map(),
    clipped: 0,
  };
  const traces: PlotlyObject[] = [];
  const panels = o.facet === undefined ? [['', o.data] as const] : [...groupBy(o.data, o.facet)];
  const n = panels.length;
  const extra: PlotlyObject = {};
  const annotations: PlotlyObject[] = [];
  panels.forEach(([label, rows], i) => {
    const id = i === 0 ? '' : String(i + 1);
    traces.push(...lineTraces(o, rows, i === 0 ? {} : { xaxis: `x${id}`, yaxis: `y${id}` }, state, label));
    if (o.facet === undefined) return;
    const gap = 0.04;
    const base = baseLayout(o);
    extra[`xaxis${id}`] = { ...(base.xaxis as PlotlyObject), domain: [i / n + (i ? gap : 0), (i + 1) / n - (i < n - 1 ? gap : 0)], anchor: `y${id}` };
    extra[`yaxis${id}`] = { ...(base.yaxis as PlotlyObject), anchor: `x${id}`, ...(i ? { matches: 'y', showticklabels: false, title: { text: '' } } : {}) };
    annotations.push({ text: `<b>${displayName(label)}</b>`, xref: 'paper', yref: 'paper', x: (i + 0.5) / n, y: 1.0, xanchor: 'center', yanchor: 'bottom', showarrow: false, font: { size: 13 } });
  });
  for (const [key, { to, panels: where }] of state.identical) {
    const everywhere = where.length === state.panels.get(key);
    const note = `identical to ${displayName(to)}${everywhere || o.facet === undefined ? '' : ` in ${where.map(displayName).join(', ')}`}`;
    const legend = traces.find((t) => t.legendgroup === key && t.showlegend);
    if (legend) legend.name = `${legend.name} (${note})`;
  }
  if (state.clipped > 0) {
    annotations.push({ name: 'note', text: `▽/△: ${state.clipped} error bar${state.clipped > 1 ? 's' : ''} cut at the ${o.logY ? 'log axis (a 95% CI reaching 0 or below)' : 'range of the quantity'}; hover for the point` });
  }
  if (annotations.length) extra.annotations = annotations;
  for (const ref of o.referenceLines ?? []) {
    const xs = o.data.map((r) => r[o.x] as number);
    const st = state.styles.get(ref.label) ?? seriesStyle(ref.label);
    traces.push({
      type: 'scatter',
      mode: 'lines',
      name: ref.label,
      x: [Math.min(...xs), Math.max(...xs)],
      y: [ref.y, ref.y],
      line: { color: st.color, width: 1.5, dash: 'dash' },
    });
  }
  const width = o.width ?? (n > 1 ? Math.min(MAX_FIGURE_WIDTH, 300 * n + 120) : undefined);
  return figure(traces, { ...o, width, legendBelow: n > 1 }, extra);
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
  const groups = groupBy(o.data, o.series);
  const styles = chartStyles([...groups.keys()].map((k) => k || o.y));
  let clipped = 0;
  for (const [name, rows] of groups) {
    const key = name || o.y;
    const color = (styles.get(key) as SeriesStyle).color;
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
    if (o.error) clipped += clippedEnds(ys, ys, rows.map((r) => numberField(r, o.error as string, 'barChart')), bounds, !!o.logY).x.length;
  }
  const base = baseLayout(o);
  const notes = clipped ? { annotations: [{ name: 'note', text: `${clipped} error bar${clipped > 1 ? 's' : ''} cut at the ${o.logY ? 'log axis (a 95% CI reaching 0 or below)' : 'range of the quantity'}` }] } : {};
  return figure(traces, { ...o }, { barmode: o.mode ?? 'group', bargap: 0.2, bargroupgap: 0.05, xaxis: { ...(base.xaxis as PlotlyObject), type: 'category' }, ...notes });
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
  const groups = groupBy(o.data, o.series);
  const styles = chartStyles([...groups.keys()].map((k) => k || o.value));
  for (const [name, rows] of groups) {
    const { x, y } = ecdfPoints(rows.map((r) => numberField(r, o.value, 'cdfChart')), o.maxPoints);
    const st = styles.get(name || o.value) as SeriesStyle;
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
  const groups = groupBy(o.data, o.series);
  const styles = chartStyles([...groups.keys()].map((k) => k || o.y));
  for (const [name, rows] of groups) {
    const st = styles.get(name || o.y) as SeriesStyle;
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
  /** Field naming the row (a node, a PE range, a job). Numeric rows get an ordered numeric axis. */
  row: string;
  start: string;
  end: string;
  /** Colour by this field (e.g. job id or algorithm); default 'job' when the rows have one. */
  series?: string;
  /** Text shown on hover, and on the bars wherever it fits. */
  label?: string;
}

/**
 * Colours of Gantt bars when there are more jobs than a legend can name: 40
 * hues around the colour wheel at alternating lightness (neighbouring hues
 * differ in lightness too), picked per job by a hash of its id, so a job
 * keeps its colour in every chart.
 */
export const GANTT_COLORS: readonly string[] = Array.from({ length: 40 }, (_, i) => {
  const hue = (i * 137.508) % 360; // golden angle: consecutive entries far apart
  const light = [42, 58, 34, 50][i % 4];
  return `hsl(${hue.toFixed(1)},${i % 2 ? 55 : 70}%,${light}%)`;
});

/** Series a Gantt chart names in a legend at most; beyond, bars are coloured by hash and labelled. */
const GANTT_LEGEND_MAX = 20;

/** A status line on stdout (a notebook shows it as plain output, not as an error). */
function status(message: string): void {
  process.stdout.write(`${message}\n`);
}

/**
 * Gantt-style schedule: one horizontal bar per (row, start, end) record,
 * coloured by job (or `series`): up to 20 series with a legend, more by a
 * stable hash over 40 colours with the label on every bar wide enough for it.
 * Rows that are numbers (processors) are an ordered numeric axis 0, 1, 2, …;
 * others keep their natural order. No records: an empty chart saying so, and
 * a warning line.
 */
export function ganttChart(o: GanttChartOptions): Figure {
  const series = o.series ?? (o.data.length > 0 && o.data.every((r) => r.job !== undefined) ? 'job' : undefined);
  const numericRows = o.data.length > 0 && o.data.every((r) => typeof r[o.row] === 'number');
  const rowOf = (r: Row) => (numericRows ? (r[o.row] as number) : String(r[o.row]));
  const groups = groupBy(o.data, series);
  const traces: PlotlyObject[] = [];
  const bar = (rows: readonly Row[]): PlotlyObject => ({
    type: 'bar',
    orientation: 'h',
    y: rows.map(rowOf),
    base: rows.map((r) => numberField(r, o.start, 'ganttChart')),
    x: rows.map((r) => numberField(r, o.end, 'ganttChart') - numberField(r, o.start, 'ganttChart')),
    // Labels on the bars where they fit (uniformtext hides the rest), all of them on hover.
    hovertext: o.label ? rows.map((r) => String(r[o.label as string])) : undefined,
    text: o.label ? rows.map((r) => String(r[o.label as string])) : undefined,
    textposition: o.label ? 'inside' : 'none',
    insidetextanchor: 'middle',
    textfont: { size: 10, color: '#ffffff' },
    constraintext: 'inside',
    hoverinfo: o.label ? 'text+x+y' : 'x+y',
    ...(numericRows ? { width: 0.9 } : {}),
  });
  if (series !== undefined && groups.size > GANTT_LEGEND_MAX) {
    traces.push({
      ...bar(o.data),
      name: displayName(series),
      marker: { color: o.data.map((r) => GANTT_COLORS[hash(String(r[series])) % GANTT_COLORS.length]), line: { color: '#ffffff', width: 0.3 } },
      showlegend: false,
    });
  } else {
    const styles = chartStyles([...groups.keys()].map((k) => k || 'busy'));
    for (const [name, rows] of groups) {
      const color = (styles.get(name || 'busy') as SeriesStyle).color;
      traces.push({ ...bar(rows), name: displayName(name || 'busy'), marker: { color, line: { color: '#ffffff', width: 0.5 } }, showlegend: series !== undefined });
    }
  }
  const extra: PlotlyObject = { barmode: 'overlay', bargap: 0.15, uniformtext: { mode: 'hide', minsize: 6 } };
  const yaxis = baseLayout(o).yaxis as PlotlyObject;
  if (numericRows) {
    extra.yaxis = { ...yaxis, type: 'linear', autorange: 'reversed', tickformat: 'd' };
  } else {
    const order = [...new Set(o.data.map((r) => String(r[o.row])))].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    extra.yaxis = { ...yaxis, type: 'category', categoryorder: 'array', categoryarray: order, autorange: 'reversed' };
  }
  if (o.data.length === 0) {
    status(`warning: ganttChart${o.title ? ` "${o.title}"` : ''}: no bars to draw (no job runs in the chosen window); the chart is empty`);
    extra.annotations = [{ text: 'no job runs in this window', xref: 'paper', yref: 'paper', x: 0.5, y: 0.5, showarrow: false, font: { size: 14, color: '#888' } }];
  }
  return figure(traces, { xLabel: 'time (s)', ...o }, extra);
}
