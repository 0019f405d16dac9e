/**
 * Figures of one evolving schedule: node count over time per application
 * (stacked steps) and a Gantt view of steps with their expansions. They
 * return plain plotly figures for `show` / `exportFigure`.
 */
import { Figure, FIGURE_STYLE, PALETTE, PlotlyObject } from '../../analysis/charts';
import { EvolvingSchedule } from './list';
import { stepStarts, valueAt, delay } from './profile';

/** One record per (application, step): when the work ran and how long the step was expanded. */
export interface StepSegment {
  id: number;
  step: number;
  nodes: number;
  /** Start of the step (absolute, s). */
  start: number;
  /** End of the requested duration. */
  workEnd: number;
  /** End of the scheduled (possibly expanded) step. */
  end: number;
}

/**
 * Steps of every application. For rigid schedules the allocation is one
 * block, reported as one step of peak nodes.
 */
export function stepSegments(schedule: EvolvingSchedule): StepSegment[] {
  const out: StepSegment[] = [];
  for (const a of schedule.apps) {
    const starts = stepStarts(a.allocation);
    const sameSteps = a.allocation.length === a.requested.length;
    a.allocation.forEach((s, k) => {
      const start = a.start + starts[k];
      const work = sameSteps ? a.requested[k].duration : s.duration;
      out.push({ id: a.id, step: k, nodes: s.nodes, start, workEnd: start + work, end: start + s.duration });
    });
  }
  return out;
}

/** Breakpoints of all allocations (sorted, unique), from 0 to the makespan. */
function breakpoints(schedule: EvolvingSchedule): number[] {
  const set = new Set<number>([0]);
  for (const a of schedule.apps) {
    let t = a.start;
    set.add(t);
    for (const s of a.allocation) set.add((t += s.duration));
  }
  return [...set].sort((x, y) => x - y);
}

/** Node count of every application at every breakpoint: records {id, time, nodes}. */
export function occupancyRecords(schedule: EvolvingSchedule): { id: number; time: number; nodes: number }[] {
  const times = breakpoints(schedule);
  const out: { id: number; time: number; nodes: number }[] = [];
  for (const a of schedule.apps) {
    const ep = delay(a.allocation, a.start);
    for (const t of times) out.push({ id: a.id, time: t, nodes: valueAt(ep, t) });
  }
  return out;
}

/**
 * Stacked step chart of the nodes each application holds over time (hours on
 * the x axis), with the cluster size as a dashed line.
 */
export function scheduleOccupancyChart(schedule: EvolvingSchedule, options: { title?: string; width?: number; height?: number } = {}): Figure {
  const times = breakpoints(schedule);
  const hours = times.map((t) => t / 3600);
  const data: PlotlyObject[] = schedule.apps.map((a, k) => {
    const ep = delay(a.allocation, a.start);
    return {
      type: 'scatter',
      mode: 'lines',
      name: `app ${a.id}`,
      x: hours,
      y: times.map((t) => valueAt(ep, t)),
      stackgroup: 'apps',
      line: { shape: 'hv', width: 0.5, color: PALETTE[k % PALETTE.length] },
      fillcolor: PALETTE[k % PALETTE.length],
    };
  });
  const end = hours[hours.length - 1] ?? 0;
  data.push({ type: 'scatter', mode: 'lines', name: `cluster (${schedule.nodes} nodes)`, x: [0, end], y: [schedule.nodes, schedule.nodes], line: { color: '#000', dash: 'dash', width: 1.5 } });
  const axis = (title: string): PlotlyObject => ({ title: { text: title }, showline: true, linecolor: '#444', ticks: 'outside', gridcolor: '#e5e5e5', zeroline: false, automargin: true });
  return {
    data,
    layout: {
      title: options.title ? { text: options.title, x: 0.02, xanchor: 'left', font: { size: 15 } } : undefined,
      font: FIGURE_STYLE.font,
      paper_bgcolor: '#ffffff',
      plot_bgcolor: '#ffffff',
      margin: { l: 70, r: 20, t: options.title ? 50 : 20, b: 60 },
      xaxis: axis('time (h)'),
      yaxis: { ...axis('nodes allocated'), range: [0, schedule.nodes * 1.05] },
      showlegend: false,
    },
    width: options.width ?? FIGURE_STYLE.width,
    height: options.height ?? FIGURE_STYLE.height,
  };
}
