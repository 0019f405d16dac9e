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

/**
 * State after all events at each distinct time. Ends are applied before
 * starts at the same instant, as in the simulators, so utilization never
 * exceeds 100% for a valid schedule (checked: a schedule that oversubscribes
 * the machine is an error, naming the time).
 */
export function occupancyTimeline(jobs: readonly ScheduledJob[], machineSize: number): TimelineRow[] {
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
  return rows.sort((a, b) => a.processor - b.processor || a.start - b.start);
}
