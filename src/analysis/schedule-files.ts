/**
 * Simulated schedules written in the formats other tools read
 * (docs/formats.md has the field mappings):
 *
 *  - 'batsim': Batsim's jobs output (`out_jobs.csv`), which Evalys
 *    (`JobSet.from_csv`) and Batsim's analysis scripts read: one row per job
 *    with the 17 documented columns, `allocated_resources` as an interval set
 *    of processor ids (`0-3 7`).
 *  - 'swf': the schedule as a Standard Workload Format file: wait time
 *    (field 3) filled in, the workload's other fields kept, header comments
 *    naming the policy, machine and source.
 *  - 'csv': schedlab's per-job CSV (times and per-job metrics).
 *
 * Each writer is a generator of text pieces, so millions of jobs never make
 * one string; {@link writeSchedule} writes one to a file through a
 * temporary file (an OutputError leaves no half-written file).
 */
import * as nodePath from 'path';
import { WorkloadJob } from '../workloads/job';
import { delayProfile } from '../workloads/batsim';
import { jobMetrics, BOUNDED_SLOWDOWN_THRESHOLD } from '../metrics/jobs';
import { InputError, writeFileSafely } from '../util/errors';
import { ScheduledJob } from './timeline';
import { TextBlock } from '../util/text-block';

/** File formats a schedule is written in: Batsim's jobs output, an SWF schedule, or schedlab's per-job CSV. */
export type ScheduleFormat = 'batsim' | 'swf' | 'csv';
/** Every ScheduleFormat, for checking flags. */
export const SCHEDULE_FORMATS: readonly ScheduleFormat[] = ['batsim', 'swf', 'csv'];

/**
 * One job of a schedule: when it was submitted, started and ended on how
 * many processors, and, where the simulator names them, which. The
 * workload's other fields (requested time, status, user …) are optional.
 * `simulateBatch` results are such rows.
 */
export interface ScheduledWorkloadJob extends ScheduledJob, Partial<Omit<WorkloadJob, 'id' | 'submit' | 'runtime' | 'procs'>> {
  id: number;
  runtime: number;
  /** Processor (or node) ids the job ran on (`simulateBatch(…, { assignProcessors: true })`). */
  processors?: readonly number[];
}

/** The columns of Batsim's jobs output, in order (Batsim documentation, "Jobs" output). */
export const BATSIM_JOBS_COLUMNS = [
  'job_id',
  'workload_name',
  'profile',
  'submission_time',
  'requested_number_of_resources',
  'requested_time',
  'success',
  'final_state',
  'starting_time',
  'execution_time',
  'finish_time',
  'waiting_time',
  'turnaround_time',
  'stretch',
  'allocated_resources',
  'consumed_energy',
  'metadata',
] as const;

/** Options of `writeSchedule`: format, the workload it ran, machine size, and the policy and source named in the header. */
export interface ScheduleWriteOptions {
  /** Default: from the extension (`.swf` → swf, otherwise csv). */
  format?: ScheduleFormat;
  /** The workload the schedule ran, aligned with it: requested times, status, users … come from here. */
  jobs?: readonly WorkloadJob[];
  /** Processors in the machine (SWF MaxProcs). */
  machineSize?: number;
  /** Policy, for the SWF header (e.g. `easy (estimates: requested)`). */
  policy?: string;
  /** Where the jobs came from (trace name, generator), for the SWF header; Batsim's `workload_name` is its first word. */
  source?: string;
  /** Batsim `workload_name` (default: `source`'s first word, else `w0`). */
  workloadName?: string;
  /** Batsim job ids, aligned with the schedule (default: the job numbers). */
  ids?: readonly string[];
  /** Bounded-slowdown threshold of the 'csv' format, seconds (default 10). */
  threshold?: number;
}

/**
 * An interval set of ids as Batsim writes it (its canonical form): ascending,
 * maximal runs `a-b`, single ids `a`, separated by spaces: `[0,1,2,3,7]` →
 * `0-3 7`. The ids need not be sorted; duplicates are an error.
 */
export function intervalSet(ids: readonly number[]): string {
  const s = [...ids].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < s.length; ) {
    if (!Number.isInteger(s[i]) || s[i] < 0) throw new InputError(`intervalSet: ${s[i]} is not a resource id (a whole number ≥ 0)`, { source: 'intervalSet', field: 'ids' });
    if (i + 1 < s.length && s[i + 1] === s[i]) throw new InputError(`intervalSet: id ${s[i]} given twice`, { source: 'intervalSet', field: 'ids' });
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j] + 1) j++;
    parts.push(i === j ? `${s[i]}` : `${s[i]}-${s[j]}`);
    i = j + 1;
  }
  return parts.join(' ');
}

/** The ids of an interval set such as `0-3 7` (reads any of Batsim's forms; throws on anything else). */
export function parseIntervalSet(text: string): number[] {
  const ids: number[] = [];
  for (const part of text.trim() === '' ? [] : text.trim().split(/ +/)) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m || (m[2] !== undefined && Number(m[2]) < Number(m[1]))) throw new InputError(`parseIntervalSet: '${part}' is not an interval (a or a-b, a ≤ b)`, { source: 'parseIntervalSet', field: 'text' });
    for (let k = Number(m[1]); k <= Number(m[2] ?? m[1]); k++) ids.push(k);
  }
  return [...new Set(ids)].sort((a, b) => a - b);
}

/** What {@link reservationSchedule} reads of an advance-reservation outcome (`reservation.simulateReservations`). */
export interface ReservationOutcomeLike {
  id: number;
  arrival: number;
  duration: number;
  pes: number;
  accepted: boolean;
  start?: number;
  end?: number;
  /** Reserved PEs (`0-31,64-95`), present when run with `recordPes: true`. */
  allocatedPes?: string;
}

/**
 * The accepted requests of an advance-reservation run as schedule rows:
 * submitted at their arrival, run for their duration from their reserved
 * start on their PEs (named when the run had `recordPes: true`). Rejected
 * requests never ran and are left out.
 */
export function reservationSchedule(outcomes: readonly ReservationOutcomeLike[]): ScheduledWorkloadJob[] {
  const rows: ScheduledWorkloadJob[] = [];
  for (const o of outcomes) {
    if (!o.accepted) continue;
    const start = o.start as number;
    const row: ScheduledWorkloadJob = { id: o.id, submit: o.arrival, start, end: o.end ?? start + o.duration, runtime: o.duration, procs: o.pes };
    if (o.allocatedPes !== undefined) row.processors = parseIntervalSet(o.allocatedPes.replace(/,/g, ' '));
    rows.push(row);
  }
  return rows;
}

/** Merge each row with its workload job (the extra fields the formats carry). */
function withWorkload(rows: Iterable<ScheduledWorkloadJob>, jobs: readonly WorkloadJob[] | undefined): Iterable<ScheduledWorkloadJob> {
  if (!jobs) return rows;
  return (function* () {
    let i = 0;
    for (const r of rows) {
      const j = jobs[i++];
      if (!j) throw new InputError(`writeSchedule: the schedule has more jobs than the ${jobs.length} of options.jobs`, { source: 'writeSchedule', field: 'jobs' });
      if (j.id !== r.id) throw new InputError(`writeSchedule: schedule row ${i - 1} is job ${r.id} but options.jobs[${i - 1}] is job ${j.id} (give the workload in the schedule's order)`, { source: 'writeSchedule', field: 'jobs' });
      yield { ...j, ...r };
    }
  })();
}

const num = (x: number): string => (Number.isNaN(x) ? 'nan' : x === Infinity ? 'inf' : String(x));

/** Batsim's walltime for a job: its requested time raised to its run time (as schedlab's 'requested' estimates), -1 for none. */
const walltime = (r: ScheduledWorkloadJob): number => (r.requestedTime !== undefined && r.requestedTime > 0 ? Math.max(r.requestedTime, r.runtime) : -1);

/**
 * Batsim's jobs output (`out_jobs.csv`), one line at a time. Every job
 * completed (success 1, COMPLETED_SUCCESSFULLY): schedlab's simulators run
 * each job for its run time. `consumed_energy` is -1 (no energy model, as
 * Batsim writes without one), `metadata` empty, `profile` the delay profile
 * the Batsim workload writer gives the job, `allocated_resources` empty when
 * the schedule names no processors.
 */
export function* batsimJobsCsv(schedule: Iterable<ScheduledWorkloadJob>, options: Omit<ScheduleWriteOptions, 'format'> = {}): Generator<string> {
  const workload = options.workloadName ?? options.source?.split(/\s/, 1)[0] ?? 'w0';
  if (!/^[^,"\r\n]+$/.test(workload)) throw new InputError(`batsimJobsCsv: workload name '${workload}' must be non-empty text without commas, quotes or line breaks`, { source: 'batsimJobsCsv', field: 'workloadName' });
  yield BATSIM_JOBS_COLUMNS.join(',') + '\n';
  let i = 0;
  for (const r of withWorkload(schedule, options.jobs)) {
    const id = options.ids ? options.ids[i] : String(r.id);
    if (id === undefined) throw new InputError(`batsimJobsCsv: options.ids has no id for job ${i}`, { source: 'batsimJobsCsv', field: 'ids' });
    if (/[,"\r\n]/.test(id)) throw new InputError(`batsimJobsCsv: job id '${id}' holds a comma, quote or line break`, { source: 'batsimJobsCsv', field: 'ids' });
    i++;
    const exec = r.end - r.start;
    const turnaround = r.end - r.submit;
    const alloc = r.processors ? intervalSet(r.processors) : '';
    yield `${id},${workload},${delayProfile(r.runtime)},${r.submit},${r.procs},${walltime(r)},1,COMPLETED_SUCCESSFULLY,${r.start},${exec},${r.end},${r.start - r.submit},${turnaround},${num(turnaround / exec)},${alloc},-1,\n`;
  }
}

/**
 * The schedule as SWF, one line at a time: field 3 is the wait time, the
 * workload's other fields are kept (-1 where unknown), status 1 where the
 * workload has none. Jobs are written in the schedule's order (the
 * workload's, so sorted by submit time as SWF expects).
 */
export function* swfSchedule(schedule: Iterable<ScheduledWorkloadJob>, options: Omit<ScheduleWriteOptions, 'format'> = {}): Generator<string> {
  const length = (schedule as { length?: number }).length;
  yield '; Version: 2.2\n';
  yield '; Computer: schedlab simulation\n';
  yield '; Note: a simulated schedule written by schedlab: field 3 (wait time) is the simulated wait, field 4 the run time\n';
  if (options.policy) yield `; Note: policy ${oneLine(options.policy)}\n`;
  if (options.machineSize !== undefined) yield `; Note: machine ${options.machineSize} processors\n`;
  if (options.source) yield `; Note: source ${oneLine(options.source)}\n`;
  if (typeof length === 'number') yield `; MaxJobs: ${length}\n; MaxRecords: ${length}\n`;
  if (options.machineSize !== undefined) yield `; MaxProcs: ${options.machineSize}\n`;
  const f = (v: number | undefined) => (v === undefined ? '-1' : String(v));
  for (const r of withWorkload(schedule, options.jobs)) {
    yield `${r.id} ${r.submit} ${r.start - r.submit} ${r.runtime} ${r.procs} ${f(r.avgCpuTime)} ${f(r.usedMemory)} ${f(r.requestedProcs)} ${f(r.requestedTime)} ${f(r.requestedMemory)} ${r.status ?? 1} ${f(r.userId)} ${f((r as { groupId?: number }).groupId)} -1 ${f(r.queue)} -1 -1 -1\n`;
  }
}

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ');

/** schedlab's per-job CSV: times and per-job metrics, one line at a time. */
export function* scheduleCsv(schedule: Iterable<ScheduledWorkloadJob>, options: { threshold?: number } = {}): Generator<string> {
  const metricOptions = { threshold: options.threshold ?? BOUNDED_SLOWDOWN_THRESHOLD };
  // Rows go into bytes and out in blocks of about 1 MB (a string per row was most of the time).
  const out = new TextBlock();
  out.text('id,submit,start,end,runtime,procs,wait,response,stretch,bounded_slowdown\n');
  for (const r of schedule) {
    const m = jobMetrics(r, metricOptions);
    out.num(r.id).char(COMMA).num(r.submit).char(COMMA).num(r.start).char(COMMA).num(r.end).char(COMMA).num(r.runtime).char(COMMA).num(r.procs).char(COMMA);
    out.num(m.wait).char(COMMA).num(m.response).char(COMMA).num(m.stretch).char(COMMA).num(m.boundedSlowdown).char(NEWLINE);
    if (out.full) yield out.take();
  }
  yield out.take();
}

const COMMA = 44;
const NEWLINE = 10;

/** The format a file name implies: `.swf` → swf, anything else csv (Batsim's output is a .csv too: say `format: 'batsim'`). */
export function scheduleFormatOf(path: string): ScheduleFormat {
  return /\.swf$/i.test(path) ? 'swf' : 'csv';
}

/** The text pieces of a schedule in a format. */
export function scheduleText(schedule: Iterable<ScheduledWorkloadJob>, format: ScheduleFormat, options: Omit<ScheduleWriteOptions, 'format'> = {}): Iterable<string> {
  if (format === 'batsim') return batsimJobsCsv(schedule, options);
  if (format === 'swf') return swfSchedule(schedule, options);
  if (format === 'csv') return scheduleCsv(schedule, options);
  throw new InputError(`writeSchedule: format must be ${SCHEDULE_FORMATS.join(', ')}, got '${format as string}'`, { source: 'writeSchedule', field: 'format' });
}

/**
 * Write a schedule (e.g. `simulateBatch` results) to `path` as Batsim jobs
 * output, SWF or schedlab's CSV. For Batsim's `allocated_resources`, run the
 * simulation with `assignProcessors: true`. Returns `path` as given.
 *
 *   const result = simulateBatch(jobs, { machineSize: 128, policy: 'easy', assignProcessors: true });
 *   writeSchedule(result, 'easy_jobs.csv', { format: 'batsim' });
 *   writeSchedule(result, 'easy.swf', { jobs, machineSize: 128, policy: 'easy', source: 'KTH-SP2' });
 */
export function writeSchedule(schedule: Iterable<ScheduledWorkloadJob>, path: string, options: ScheduleWriteOptions = {}): string {
  const format = options.format ?? scheduleFormatOf(path);
  const pieces = scheduleText(schedule, format, options);
  // A bad row found while writing is an InputError, not a failure to write (which writeFileSafely reports).
  let bad: unknown;
  const guarded = (function* () {
    try {
      yield* pieces;
    } catch (e) {
      bad = e;
      throw e;
    }
  })();
  try {
    writeFileSafely(nodePath.resolve(path), guarded);
  } catch (e) {
    if (bad instanceof InputError) throw bad;
    throw e;
  }
  return path;
}
