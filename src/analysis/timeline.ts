/**
 * Machine state over time from a finished schedule: utilization, running
 * jobs and queue length after every event, as step-function records for
 * `lineChart({ shape: 'hv' })`.
 */
import { InputError } from '../util/errors';

/** A job as the timeline helpers read it: submit, start and end times and processors. */
export interface ScheduledJob {
  submit: number;
  start: number;
  end: number;
  procs: number;
}

/** One instant of a timeline: from `time` on, the utilization and the running and queued jobs. */
export interface TimelineRow {
  [key: string]: unknown;
  time: number;
  /** Busy processors / machine size, in percent. */
  utilization: number;
  running: number;
  /** Jobs submitted and not yet started. */
  queued: number;
}

/** How finely `occupancyTimeline` reports: every event (0), a period in seconds, or 'auto'. */
export interface TimelineOptions {
  /**
   * Seconds per row: each row holds the time-weighted means over one period
   * (utilization, running and queued jobs). 'auto' (default): every event
   * over at most 2 days, hourly means up to 8 days, daily means beyond, so a
   * chart over weeks shows a readable curve instead of thousands of steps.
   */
  period?: number | 'auto';
}

/** The period 'auto' picks for a timeline spanning `seconds`: 0 (every event), an hour or a day. */
export function timelinePeriod(seconds: number): number {
  if (seconds <= 2 * 86400) return 0;
  return seconds <= 8 * 86400 ? 3600 : 86400;
}

/**
 * State after all events at each distinct time, or its time-weighted means
 * per period (see TimelineOptions). Ends are applied before starts at the
 * same instant, as in the simulators, so utilization never exceeds 100% for
 * a valid schedule (checked: a schedule that oversubscribes the machine is an
 * error, naming the time).
 */
export function occupancyTimeline(jobs: readonly ScheduledJob[], machineSize: number, options: TimelineOptions = {}): TimelineRow[] {
  const rows = eventTimeline(jobs, machineSize);
  if (rows.length < 2) return rows;
  const period = options.period === undefined || options.period === 'auto' ? timelinePeriod(rows[rows.length - 1].time - rows[0].time) : options.period;
  if (!(period >= 0)) throw new InputError(`occupancyTimeline: period must be 'auto' or seconds >= 0, got ${options.period}`, { source: 'occupancyTimeline', field: 'period' });
  return period > 0 ? periodMeans(rows, period) : rows;
}

/** Time-weighted means of a step timeline over consecutive periods, each row at its period's start. */
function periodMeans(rows: readonly TimelineRow[], period: number): TimelineRow[] {
  const first = Math.floor(rows[0].time / period) * period;
  const last = rows[rows.length - 1].time;
  const out: TimelineRow[] = [];
  let i = 0;
  for (let t0 = first; t0 < last; t0 += period) {
    const t1 = Math.min(t0 + period, last);
    const sum = { utilization: 0, running: 0, queued: 0 };
    // The state in force at t0 is that of the last row at or before it.
    while (i + 1 < rows.length && rows[i + 1].time <= t0) i++;
    for (let k = i; k < rows.length && rows[k].time < t1; k++) {
      const from = Math.max(rows[k].time, t0);
      const to = Math.min(k + 1 < rows.length ? rows[k + 1].time : t1, t1);
      if (to <= from) continue;
      sum.utilization += rows[k].utilization * (to - from);
      sum.running += rows[k].running * (to - from);
      sum.queued += rows[k].queued * (to - from);
    }
    const span = t1 - Math.max(t0, rows[0].time);
    if (span > 0) out.push({ time: t0, utilization: sum.utilization / span, running: sum.running / span, queued: sum.queued / span });
  }
  return out;
}

function eventTimeline(jobs: readonly ScheduledJob[], machineSize: number): TimelineRow[] {
  if (!(machineSize > 0)) throw new InputError(`occupancyTimeline: machineSize must be > 0, got ${machineSize}`, { source: 'occupancyTimeline', field: 'machineSize' });
  // [time, order at equal times (end, submit, start), Δbusy, Δrunning, Δqueued]
  const events: [number, number, number, number, number][] = [];
  for (const j of jobs) {
    events.push([j.submit, 1, 0, 0, 1], [j.start, 2, j.procs, 1, -1], [j.end, 0, -j.procs, -1, 0]);
  }
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const rows: TimelineRow[] = [];
  let busy = 0;
  let running = 0;
  let queued = 0;
  for (let i = 0; i < events.length; i++) {
    const [t, , db, dr, dq] = events[i];
    busy += db;
    running += dr;
    queued += dq;
    if (i + 1 < events.length && events[i + 1][0] === t) continue;
    if (busy > machineSize) throw new InputError(`occupancyTimeline: ${busy} processors busy at time ${t} on a ${machineSize}-processor machine`, { source: 'occupancyTimeline', field: 'procs' });
    rows.push({ time: t, utilization: (100 * busy) / machineSize, running, queued });
  }
  return rows;
}

/** One bar of a processor-level Gantt chart: a job on a processor from start to end. */
export interface ProcessorGanttRow {
  [key: string]: unknown;
  processor: number;
  job: number;
  start: number;
  end: number;
}

/**
 * One bar per (processor, job) of a schedule whose jobs name their processors
 * (`simulateBatch(…, { assignProcessors: true })`), for jobs running within
 * [from, to): the rows of a processor-level `ganttChart({ row: 'processor', … })`.
 */
export function processorGanttRows(
  jobs: readonly { id: number; start: number; end: number; processors?: readonly number[] }[],
  options: { from?: number; to?: number } = {},
): ProcessorGanttRow[] {
  const from = options.from ?? -Infinity;
  const to = options.to ?? Infinity;
  const rows: ProcessorGanttRow[] = [];
  for (const j of jobs) {
    if (!j.processors) throw new InputError(`processorGanttRows: job ${j.id} names no processors (simulate with assignProcessors: true)`, { source: 'processorGanttRows', field: 'processors' });
    if (j.end <= from || j.start >= to) continue;
    for (const p of j.processors) rows.push({ processor: p, job: j.id, start: Math.max(j.start, from), end: Math.min(j.end, to) });
  }
  if (rows.length === 0 && jobs.length > 0) {
    // A status line, not an error: the window may simply be idle, but a chart of it would be blank without saying why.
    const first = jobs.reduce((m, j) => Math.min(m, j.start), Infinity);
    const last = jobs.reduce((m, j) => Math.max(m, j.end), -Infinity);
    process.stdout.write(`warning: processorGanttRows: no job of ${jobs.length} runs in [${from}, ${to}) (the schedule spans ${first} to ${last}); the chart will be empty\n`);
  }
  return rows.sort((a, b) => a.processor - b.processor || a.start - b.start);
}
