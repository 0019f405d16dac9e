/**
 * Slurm accounting logs: the output of
 *
 *   TZ=UTC sacct --allusers --parsable2 --starttime … --endtime … \
 *     --format JobID,JobIDRaw,Partition,User,Group,Submit,Start,End,ElapsedRaw,TimelimitRaw,AllocCPUS,ReqCPUS,AllocNodes,ReqNodes,State
 *
 * read as jobs (docs/formats.md has the full mapping). The first non-blank
 * line must be sacct's header (field names separated by `|`); fields are
 * found by name, in any order, and unknown fields are ignored. Required:
 * JobID, Submit, Start, End, State, and the size field (AllocCPUS or NCPUS;
 * with `unit: 'nodes'`, AllocNodes or NNodes). Output of `--parsable`
 * (a trailing `|`) is read too.
 *
 * Rules (documented choices):
 *  - Job steps (`123.batch`, `123.extern`, `123.0`, `123+1.0`) are skipped and
 *    counted: the job's own line carries its allocation.
 *  - Array tasks (`123_4`) are jobs of their own. Components of a
 *    heterogeneous job (`123+0`, `123+1`) are folded into one job: they are
 *    allocated together, so the job's size is the sum of theirs, its submit
 *    and start the earliest, its end the latest.
 *  - A job that never started (no Start, no processors or no nodes
 *    allocated: PENDING, or CANCELLED while pending, which some Slurm
 *    versions list with Start = End) is dropped and counted (`not started`,
 *    `cancelled before start`); one that started but has not ended (RUNNING,
 *    SUSPENDED, …: End is Unknown) is dropped and counted (`still running`):
 *    its run time is not known. A REQUEUED record is an earlier attempt of a
 *    job whose last record follows (with `--duplicates`): dropped and counted
 *    (`requeued`).
 *  - Run time = End − Start (wall time; a suspended job's suspension counts).
 *    Processors: AllocCPUS (or the nodes). Requested: ReqCPUS / ReqNodes;
 *    requested time: TimelimitRaw (minutes) or Timelimit (`[D-]HH:MM:SS`,
 *    `MM:SS`); `UNLIMITED`, `Partition_Limit` and empty are "none".
 *  - Times (`YYYY-MM-DDTHH:MM:SS`) carry no time zone: they are read as UTC,
 *    so a log written with the default local time zone is shifted by a
 *    constant and keeps its intervals, except across a daylight-saving
 *    change (record with `TZ=UTC`). Submit times are made relative to the
 *    earliest kept submit time (`startTime`, Unix seconds), and the jobs are
 *    sorted by submit time (ties: file order).
 *  - Status (SWF field 11): COMPLETED 1; CANCELLED 5; FAILED, TIMEOUT,
 *    NODE_FAIL, OUT_OF_MEMORY, BOOT_FAIL, DEADLINE, PREEMPTED 0.
 *  - Job numbers: JobIDRaw when the column is there (unique integers, also
 *    for array tasks; a heterogeneous job takes its first component's), else
 *    1, 2, 3 … in submit order. `slurmIds` keeps each job's JobID as written.
 *  - User, Group and Partition names become numbers 1, 2, … in order of first
 *    appearance (`userId`, `groupId`, `queue`); the names are in `users`,
 *    `groups` and `partitions`.
 *  - Anything else is an {@link InputError} naming file, line and field: a
 *    line with the wrong number of fields, an unreadable time, duration,
 *    number, job id or state, End before Start, a duplicate job id or
 *    JobIDRaw, more
 *    processors than `machineSize`. In lenient mode such lines are skipped
 *    and counted in `report.dropped` instead (a missing header or a missing
 *    required field is an error in lenient mode too).
 */
import { WorkloadJob } from './job';
import { InputError } from '../util/errors';
import { NumberedLine, readLines, splitLines } from './lines';

/** Options of the sacct reader (lenient mode and the rest, each documented below). */
export interface SacctReadOptions {
  /** Skip and count malformed lines instead of throwing (default false). */
  lenient?: boolean;
  /** What a job's size counts: 'cpus' (AllocCPUS; default) or 'nodes' (AllocNodes). */
  unit?: 'cpus' | 'nodes';
  /** Processors (or nodes) in the machine; larger jobs are malformed. */
  machineSize?: number;
  /** Name used in error messages (parseSacct only; readSacct uses the path). */
  fileName?: string;
}

/** A job read from sacct: a WorkloadJob with the group too. */
export interface SacctJob extends WorkloadJob {
  /** Group number (SWF field 13), by first appearance of the group name. */
  groupId?: number;
}

/** What the sacct reader skipped or dropped, counted by reason (job steps, jobs that never started, running jobs …). */
export interface SacctReport {
  /** Data lines read (header and blank lines not counted). */
  read: number;
  /** Jobs kept (a heterogeneous job counts once). */
  kept: number;
  /** Job step lines skipped. */
  steps: number;
  /** Lines (or jobs) dropped, by reason. */
  dropped: Record<string, number>;
}

/** A sacct log read as jobs, with its report. */
export interface SacctReadResult {
  jobs: SacctJob[];
  /** JobID of each job as sacct wrote it (`123`, `123_4`, `123+0`), aligned with `jobs`. */
  slurmIds: string[];
  /** Unix time (s) of submit time 0: the earliest kept submit time; undefined without jobs. */
  startTime?: number;
  /** Names behind userId 1, 2, …; groupId; queue (partition). */
  users: string[];
  groups: string[];
  partitions: string[];
  report: SacctReport;
}

/** Slurm job states (sacct's State, first word). */
const STATUS: Record<string, number | undefined> = {
  COMPLETED: 1,
  CANCELLED: 5,
  FAILED: 0,
  TIMEOUT: 0,
  NODE_FAIL: 0,
  OUT_OF_MEMORY: 0,
  BOOT_FAIL: 0,
  DEADLINE: 0,
  PREEMPTED: 0,
  PENDING: undefined,
  RUNNING: undefined,
  SUSPENDED: undefined,
  REQUEUED: undefined,
  REQUEUE_FED: undefined,
  REQUEUE_HOLD: undefined,
  RESIZING: undefined,
  REVOKED: undefined,
  SPECIAL_EXIT: undefined,
};

/** JobID: base, then array task (`_4` or `_[5-9%2]`), het offset (`+1`), step (`.batch`). */
const JOB_ID = /^(\d+)(?:_(\d+|\[[^\]]*\]))?(?:\+(\d+))?(?:\.(.+))?$/;
const TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;
const DURATION = /^(?:(\d+)-)?(?:(\d+):)?(\d+):(\d+)(?:\.\d+)?$/;

/** A malformed sacct line, as an InputError naming file, line and field. */
function sacctError(file: string, line: number, field: string, detail: string): InputError {
  return new InputError(`${file}:${line}: ${field}: ${detail}`, { source: file, line, field });
}

interface Component {
  line: number;
  slurmId: string;
  /** Job key: base id and array task; het components share it. */
  key: string;
  raw?: number;
  submit: number;
  start?: number;
  end?: number;
  state: string;
  procs: number;
  /** AllocNodes was 0: nothing was ever allocated (whatever Start says). */
  noNodes?: boolean;
  requestedProcs?: number;
  requestedTime?: number;
  user?: string;
  group?: string;
  partition?: string;
}

/** Line-by-line sacct parser: {@link push} each line, then {@link end}. */
export class SacctParser {
  private header: string[] | undefined;
  private col = new Map<string, number>();
  private parsable = false;
  private readonly components = new Map<string, Component[]>();
  private readonly seen = new Map<string, number>();
  private readonly rawSeen = new Map<number, number>();
  readonly report: SacctReport = { read: 0, kept: 0, steps: 0, dropped: {} };

  constructor(
    private readonly file: string,
    private readonly options: SacctReadOptions = {},
  ) {
    const m = options.machineSize;
    if (m !== undefined && !(Number.isInteger(m) && m > 0)) throw new InputError(`readSacct: machineSize must be a positive integer, got ${m}`, { source: 'readSacct', field: 'machineSize' });
    if (options.unit !== undefined && options.unit !== 'cpus' && options.unit !== 'nodes') {
      throw new InputError(`readSacct: unit must be 'cpus' or 'nodes', got '${options.unit}'`, { source: 'readSacct', field: 'unit' });
    }
  }

  push({ text, line }: NumberedLine): void {
    if (text.trim() === '') return;
    if (!this.header) return this.readHeader(text, line);
    this.report.read++;
    try {
      this.readJob(text, line);
    } catch (e) {
      if (!this.options.lenient || !(e instanceof InputError)) throw e;
      this.drop(`malformed ${e.field ?? 'line'}`);
    }
  }

  private drop(reason: string, n = 1): void {
    this.report.dropped[reason] = (this.report.dropped[reason] ?? 0) + n;
  }

  private readHeader(text: string, line: number): void {
    if (!text.includes('|')) {
      throw sacctError(this.file, line, 'header', `expected sacct's header line of field names separated by '|' (sacct --parsable2 without --noheader), found '${clip(text)}'`);
    }
    let names = text.split('|').map((s) => s.trim());
    if (names[names.length - 1] === '') {
      this.parsable = true;
      names = names.slice(0, -1);
    }
    names.forEach((n, i) => {
      const k = n.toLowerCase();
      if (!this.col.has(k)) this.col.set(k, i);
    });
    const size = this.options.unit === 'nodes' ? ['allocnodes', 'nnodes'] : ['alloccpus', 'ncpus'];
    const missing = ['JobID', 'Submit', 'Start', 'End', 'State'].filter((k) => !this.col.has(k.toLowerCase()));
    if (!size.some((k) => this.col.has(k))) missing.push(this.options.unit === 'nodes' ? 'AllocNodes' : 'AllocCPUS');
    if (missing.length > 0) {
      const known = /^\d/.test(names[0]) ? ' (this looks like a data line: run sacct without --noheader)' : '';
      throw sacctError(this.file, line, 'header', `missing field${missing.length > 1 ? 's' : ''} ${missing.join(', ')}${known}; give sacct --format JobID,JobIDRaw,Submit,Start,End,State,AllocCPUS,…`);
    }
    this.header = names;
  }

  private readJob(text: string, line: number): void {
    const header = this.header as string[];
    let v = text.split('|');
    if (this.parsable && v[v.length - 1] === '') v = v.slice(0, -1);
    if (v.length !== header.length) throw sacctError(this.file, line, 'line', `expected ${header.length} fields separated by '|' as in the header, found ${v.length}`);
    const get = (k: string): string | undefined => {
      const i = this.col.get(k);
      return i === undefined ? undefined : v[i].trim();
    };
    const err = (k: string, detail: string) => sacctError(this.file, line, header[this.col.get(k) as number] ?? k, detail);

    const slurmId = get('jobid') as string;
    const m = JOB_ID.exec(slurmId);
    if (!m) throw err('jobid', `'${slurmId}' is not a Slurm job id (123, 123_4, 123+0, 123.batch)`);
    if (m[4] !== undefined) {
      this.report.steps++;
      return;
    }
    const stateText = get('state') as string;
    const state = stateText.split(/\s/, 1)[0];
    if (!(state in STATUS)) throw err('state', `unknown job state '${stateText}'`);

    const time = (k: string): number | undefined => {
      const s = get(k) as string;
      if (s === 'Unknown' || s === 'None' || s === '') return undefined;
      const t = TIME.exec(s);
      if (!t) throw err(k, `'${s}' is not a time (YYYY-MM-DDTHH:MM:SS, Unknown or None)`);
      const [, y, mo, d, h, mi, se] = t.map(Number);
      const x = Date.UTC(y, mo - 1, d, h, mi, se) / 1000;
      if (!Number.isFinite(x) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60) throw err(k, `'${s}' is not a valid time`);
      return x;
    };
    const count = (keys: readonly string[]): number | undefined => {
      const k = keys.find((c) => this.col.has(c));
      if (k === undefined) return undefined;
      const s = get(k) as string;
      if (s === '') return undefined;
      const x = countValue(s);
      if (x === undefined) throw err(k, `'${s}' is not a whole number`);
      if (x > 2 ** 31 - 1) throw err(k, `${s} is more than the limit of 2^31 − 1`);
      return x;
    };
    const submit = time('submit');
    if (submit === undefined) throw err('submit', `no submit time ('${get('submit')}')`);
    const start = time('start');
    const end = time('end');
    const nodes = this.options.unit === 'nodes';
    const procs = count(nodes ? ['allocnodes', 'nnodes'] : ['alloccpus', 'ncpus']) ?? 0;
    const requestedProcs = count(nodes ? ['reqnodes'] : ['reqcpus']);
    const requestedTime = this.limit(get, err);
    if (start !== undefined && end !== undefined && end < start) throw err('end', `${get('end')} is before Start ${get('start')}`);
    const machine = this.options.machineSize;
    if (machine !== undefined && procs > machine) throw err(nodes ? 'allocnodes' : 'alloccpus', `${procs} ${nodes ? 'nodes' : 'processors'} on a machine of ${machine}`);
    let raw: number | undefined;
    const rawText = get('jobidraw');
    if (rawText !== undefined) {
      const r = JOB_ID.exec(rawText);
      if (!r || r[2] !== undefined || r[3] !== undefined || r[4] !== undefined) throw err('jobidraw', `'${rawText}' is not a job number`);
      raw = Number(r[1]);
    }
    const key = m[2] === undefined ? m[1] : `${m[1]}_${m[2]}`;
    const unique = `${key}+${m[3] ?? ''}`;
    const first = this.seen.get(unique);
    if (state === 'REQUEUED') return this.drop('requeued');
    if (first !== undefined) throw err('jobid', `job ${slurmId} also on line ${first} (each job once; with --duplicates only REQUEUED records may repeat it)`);
    this.seen.set(unique, line);
    if (raw !== undefined) {
      const other = this.rawSeen.get(raw);
      if (other !== undefined) throw err('jobidraw', `job number ${raw} also on line ${other}`);
      this.rawSeen.set(raw, line);
    }
    const c: Component = { line, slurmId, key, submit, state, procs };
    if (count(['allocnodes']) === 0) c.noNodes = true;
    if (raw !== undefined) c.raw = raw;
    if (start !== undefined) c.start = start;
    if (end !== undefined) c.end = end;
    if (requestedProcs !== undefined) c.requestedProcs = requestedProcs;
    if (requestedTime !== undefined) c.requestedTime = requestedTime;
    const user = get('user');
    const group = get('group');
    const partition = get('partition');
    if (user) c.user = user;
    if (group) c.group = group;
    if (partition) c.partition = partition;
    const list = this.components.get(key);
    if (list) list.push(c);
    else this.components.set(key, [c]);
  }

  /** Requested time in seconds from TimelimitRaw (minutes) or Timelimit; undefined for none. */
  private limit(get: (k: string) => string | undefined, err: (k: string, d: string) => InputError): number | undefined {
    const none = (s: string) => s === '' || s === 'UNLIMITED' || s === 'Partition_Limit' || s === 'INVALID' || s === 'NONE';
    const raw = get('timelimitraw');
    if (raw !== undefined) {
      if (none(raw)) return undefined;
      const x = countValue(raw);
      if (x === undefined) throw err('timelimitraw', `'${raw}' is not a number of minutes, UNLIMITED or Partition_Limit`);
      return x * 60;
    }
    const s = get('timelimit');
    if (s === undefined || none(s)) return undefined;
    const x = durationSeconds(s);
    if (x === undefined) throw err('timelimit', `'${s}' is not a time limit ([D-]HH:MM:SS, MM:SS, UNLIMITED or Partition_Limit)`);
    return x;
  }

  /** No more lines: fold heterogeneous jobs, apply the rules, number and sort the jobs. */
  end(): SacctReadResult {
    if (!this.header) throw new InputError(`${this.file}: no sacct header line (an empty file?)`, { source: this.file, field: 'header' });
    const kept: { c: Component; order: number }[] = [];
    let order = 0;
    for (const list of this.components.values()) {
      const job = fold(list);
      const reason = dropReason(job);
      if (reason) this.drop(reason);
      else kept.push({ c: job, order: order++ });
    }
    kept.sort((a, b) => a.c.submit - b.c.submit || a.order - b.order);
    const startTime = kept.length > 0 ? kept[0].c.submit : undefined;
    const names = { users: new Map<string, number>(), groups: new Map<string, number>(), partitions: new Map<string, number>() };
    const number = (map: Map<string, number>, name: string | undefined) => {
      if (name === undefined) return undefined;
      let n = map.get(name);
      if (n === undefined) map.set(name, (n = map.size + 1));
      return n;
    };
    const useRaw = this.col.has('jobidraw');
    const jobs: SacctJob[] = [];
    const slurmIds: string[] = [];
    kept.forEach(({ c }, i) => {
      const job: SacctJob = {
        id: useRaw && c.raw !== undefined ? c.raw : i + 1,
        submit: c.submit - (startTime as number),
        runtime: (c.end as number) - (c.start as number),
        procs: c.procs,
      };
      if (c.requestedTime !== undefined) job.requestedTime = c.requestedTime;
      if (c.requestedProcs !== undefined) job.requestedProcs = c.requestedProcs;
      const status = STATUS[c.state];
      if (status !== undefined) job.status = status;
      const u = number(names.users, c.user);
      const g = number(names.groups, c.group);
      const q = number(names.partitions, c.partition);
      if (u !== undefined) job.userId = u;
      if (g !== undefined) job.groupId = g;
      if (q !== undefined) job.queue = q;
      jobs.push(job);
      slurmIds.push(c.slurmId);
    });
    this.report.kept = jobs.length;
    const result: SacctReadResult = { jobs, slurmIds, users: [...names.users.keys()], groups: [...names.groups.keys()], partitions: [...names.partitions.keys()], report: this.report };
    if (startTime !== undefined) result.startTime = startTime;
    return result;
  }
}

/** One job from its components (one, or several for a heterogeneous job). */
function fold(list: Component[]): Component {
  if (list.length === 1) return list[0];
  const sorted = [...list].sort((a, b) => a.slurmId.localeCompare(b.slurmId, 'en', { numeric: true }));
  const job: Component = { ...sorted[0], procs: 0 };
  delete job.requestedProcs;
  for (const c of sorted) {
    job.submit = Math.min(job.submit, c.submit);
    job.procs += c.procs;
    if (c.requestedProcs !== undefined) job.requestedProcs = (job.requestedProcs ?? 0) + c.requestedProcs;
    if (c.requestedTime !== undefined) job.requestedTime = Math.max(job.requestedTime ?? 0, c.requestedTime);
    // The job has started when every component has, and ended when every one has.
    job.start = job.start === undefined || c.start === undefined ? undefined : Math.min(job.start, c.start);
    job.end = job.end === undefined || c.end === undefined ? undefined : Math.max(job.end, c.end);
    if (c.state !== 'COMPLETED' && job.state === 'COMPLETED') job.state = c.state;
    if (c.noNodes) job.noNodes = true;
  }
  return job;
}

/** Why a job is not kept, or undefined to keep it. */
function dropReason(c: Component): string | undefined {
  const started = c.start !== undefined && c.procs > 0 && !c.noNodes;
  if (!started) return c.state === 'CANCELLED' ? 'cancelled before start' : 'not started';
  if (c.end === undefined) return 'still running';
  if (STATUS[c.state] === undefined) return 'still running';
  return undefined;
}

/** A whole number written as digits (sacct also writes `2K`-style counts for nodes: not accepted). */
function countValue(s: string): number | undefined {
  return /^\d+$/.test(s) ? Number(s) : undefined;
}

/** Seconds of a Slurm duration: `[D-]HH:MM:SS`, `MM:SS` (fractions of a second ignored). */
export function durationSeconds(s: string): number | undefined {
  const m = DURATION.exec(s);
  if (!m) return undefined;
  const [d, h, mi, se] = [m[1], m[2], m[3], m[4]].map((x) => (x === undefined ? 0 : Number(x)));
  if (m[2] !== undefined && (mi > 59 || se > 59)) return undefined;
  if (m[2] === undefined && m[1] !== undefined) return undefined;
  return ((d * 24 + h) * 60 + mi) * 60 + se;
}

const clip = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}...` : s);

/** Parse sacct text held in memory. */
export function parseSacct(text: string, options: SacctReadOptions = {}): SacctReadResult {
  const file = options.fileName ?? '<sacct>';
  const parser = new SacctParser(file, options);
  for (const l of splitLines(text, file)) parser.push(l);
  return parser.end();
}

/** Read a sacct log (plain or gzip), streaming line by line. */
export async function readSacct(path: string, options: Omit<SacctReadOptions, 'fileName'> = {}): Promise<SacctReadResult> {
  const parser = new SacctParser(path, options);
  for await (const l of readLines(path, 'readSacct')) parser.push(l);
  return parser.end();
}
