/**
 * Standard Workload Format (SWF) reader and writer.
 *
 * SWF (Parallel Workloads Archive): `;` lines are header comments (with
 * `Key: value` pairs), every other non-blank line is one job with 18
 * whitespace-separated numeric fields, `-1` meaning missing.
 *
 * Reading rules (documented choices):
 *  - A malformed job line throws {@link SwfError} naming file, line and field:
 *    wrong field count, a non-numeric field (only decimal numbers are
 *    numbers: `0x10`, `Infinity` or `NaN` are not), a negative run time,
 *    submit time or processor count other than the missing marker -1, a
 *    processor count that is not a whole number, or more processors than the
 *    machine. In lenient mode (`lenient: true`) such lines are skipped and
 *    counted in `report.dropped` under the reason instead.
 *  - A job whose run time, processor count or submit time is missing (-1), or
 *    whose processor count is 0, is not malformed but cannot be simulated: it
 *    is always dropped and counted (`missing run time`, `missing processors`,
 *    `missing submit time`, `zero processors`). SDSC-BLUE, for instance, has
 *    thousands of cancelled jobs with run time -1.
 *  - The machine size is `options.machineSize`, else the header's MaxProcs
 *    (leading integer), else MaxNodes, else unchecked. A header value of 0 is
 *    read as unknown (as -1 is), not as a machine without processors.
 *  - A file that cannot be read (missing, a folder, a damaged gzip stream)
 *    is an {@link InputError} naming the file; a gzip stream cut short after
 *    some complete lines is damaged too: no partial workload is returned.
 *  - Optional fields that are -1 are left undefined on the job.
 *  - Job order is the file order (SWF files are sorted by submit time).
 */
import * as fs from 'fs';
import * as readline from 'readline';
import * as zlib from 'zlib';
import { WorkloadJob } from './job';
import { InputError, explainFsError } from '../util/errors';

/** Names of the 18 SWF fields, in order (used in error messages). */
export const SWF_FIELDS = [
  'job number',
  'submit time',
  'wait time',
  'run time',
  'allocated processors',
  'average CPU time',
  'used memory',
  'requested processors',
  'requested time',
  'requested memory',
  'status',
  'user id',
  'group id',
  'executable number',
  'queue number',
  'partition number',
  'preceding job',
  'think time',
] as const;

export interface SwfHeader {
  /** Every header comment line, without the leading `;`, in file order. */
  comments: string[];
  /** Parsed `Key: value` pairs (last one wins for repeated keys such as Note). */
  fields: Record<string, string>;
}

export interface SwfReport {
  /** Job lines read (comments and blank lines not counted). */
  read: number;
  /** Jobs kept. */
  kept: number;
  /** Dropped job lines by reason. */
  dropped: Record<string, number>;
}

export interface SwfReadResult {
  header: SwfHeader;
  jobs: WorkloadJob[];
  report: SwfReport;
}

export interface SwfReadOptions {
  /** Skip and count malformed lines instead of throwing (default false). */
  lenient?: boolean;
  /** Processors in the machine; jobs with more are malformed. Default: header MaxProcs/MaxNodes. */
  machineSize?: number;
  /** Name used in error messages (parseSwf only; readSwf uses the path). */
  fileName?: string;
}

/**
 * A malformed SWF line: names the file, the 1-based line number and the
 * field. An {@link InputError} whose `source` is the file.
 */
export class SwfError extends InputError {
  readonly file: string;
  override readonly line: number;
  override readonly field: string;
  readonly reason: string;

  constructor(file: string, line: number, field: string, reason: string, detail: string) {
    super(`${file}:${line}: ${field}: ${detail}`, { source: file, line, field });
    this.file = file;
    this.line = line;
    this.field = field;
    this.reason = reason;
  }
}

/** Leading integer of a header value ("338 (batch partition; 512 total)" -> 338). */
export function headerInt(header: SwfHeader, key: string): number | undefined {
  const v = header.fields[key];
  if (v === undefined) return undefined;
  const m = /^\s*(\d+)/.exec(v);
  return m ? Number(m[1]) : undefined;
}

/** Machine size (processors) declared in the header: MaxProcs, else MaxNodes (0 counts as unknown). */
export function headerMachineSize(header: SwfHeader): number | undefined {
  const positive = (v: number | undefined) => (v !== undefined && v > 0 ? v : undefined);
  return positive(headerInt(header, 'MaxProcs')) ?? positive(headerInt(header, 'MaxNodes'));
}

/**
 * A decimal number as SWF writes them (`12`, `-1`, `3.5`, `1e3`). Number()
 * alone would also take `0x1f`, `0b1`, `0o7`, `Infinity` and surrounding
 * junk that trimming removed, which are never SWF.
 */
function isDecimal(token: string): boolean {
  for (let k = 0; k < token.length; k++) {
    const c = token.charCodeAt(k);
    // digits, + - . e E
    if (!((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46 || c === 101 || c === 69)) return false;
  }
  return true;
}


/** Incremental line parser shared by the streaming and in-memory readers. */
class SwfParser {
  readonly header: SwfHeader = { comments: [], fields: {} };
  readonly jobs: WorkloadJob[] = [];
  readonly report: SwfReport = { read: 0, kept: 0, dropped: {} };
  private machineSize: number | undefined;
  private sawJob = false;
  private readonly values = new Array<number>(18);

  constructor(
    private readonly file: string,
    private readonly options: SwfReadOptions,
  ) {
    this.machineSize = options.machineSize;
    if (this.machineSize !== undefined && !(Number.isInteger(this.machineSize) && this.machineSize > 0)) {
      throw new InputError(`readSwf: machineSize must be a positive integer, got ${this.machineSize}`, { source: 'readSwf', field: 'machineSize' });
    }
  }

  private drop(reason: string): void {
    this.report.dropped[reason] = (this.report.dropped[reason] ?? 0) + 1;
  }

  /** Malformed line: throw, or count in lenient mode. */
  private bad(lineNo: number, fieldIndex: number, reason: string, detail: string): void {
    if (this.options.lenient) {
      this.drop(reason);
      return;
    }
    const field = fieldIndex < 0 ? 'line' : `field ${fieldIndex + 1} (${SWF_FIELDS[fieldIndex]})`;
    throw new SwfError(this.file, lineNo, field, reason, detail);
  }

  line(raw: string, lineNo: number): void {
    const text = raw.trim();
    if (text === '') return;
    if (text.charCodeAt(0) === 59 /* ; */) {
      const body = raw.slice(raw.indexOf(';') + 1).replace(/\r$/, '');
      this.header.comments.push(body);
      const m = /^\s*([A-Za-z][\w-]*)\s*:\s*(.*?)\s*$/.exec(body);
      if (m) this.header.fields[m[1]] = m[2];
      return;
    }
    if (!this.sawJob) {
      this.sawJob = true;
      if (this.machineSize === undefined) this.machineSize = headerMachineSize(this.header);
    }
    this.report.read++;
    const tokens = text.split(/\s+/);
    if (tokens.length !== 18) {
      this.bad(lineNo, -1, 'wrong field count', `expected 18 fields, found ${tokens.length}`);
      return;
    }
    const v = this.values;
    for (let i = 0; i < 18; i++) {
      const x = Number(tokens[i]);
      if (!Number.isFinite(x) || !isDecimal(tokens[i])) {
        this.bad(lineNo, i, 'non-numeric field', `'${tokens[i]}' is not a number`);
        return;
      }
      v[i] = x;
    }
    // Negative values other than the missing marker -1 are malformed.
    for (const [i, reason] of [
      [1, 'negative submit time'],
      [3, 'negative run time'],
      [4, 'negative processors'],
    ] as const) {
      if (v[i] < 0 && v[i] !== -1) {
        this.bad(lineNo, i, reason, `${tokens[i]} is negative (only -1, meaning missing, is allowed)`);
        return;
      }
    }
    if (!Number.isInteger(v[4])) {
      this.bad(lineNo, 4, 'non-integer processors', `${tokens[4]} is not a whole number of processors`);
      return;
    }
    if (this.machineSize !== undefined && v[4] > this.machineSize) {
      this.bad(lineNo, 4, 'more processors than machine', `${tokens[4]} processors on a machine of ${this.machineSize}`);
      return;
    }
    if (v[1] === -1) return this.drop('missing submit time');
    if (v[3] === -1) return this.drop('missing run time');
    if (v[4] === -1) return this.drop('missing processors');
    if (v[4] === 0) return this.drop('zero processors');
    const job: WorkloadJob = { id: v[0], submit: v[1], runtime: v[3], procs: v[4] };
    if (v[5] !== -1) job.avgCpuTime = v[5];
    if (v[6] !== -1) job.usedMemory = v[6];
    if (v[7] !== -1) job.requestedProcs = v[7];
    if (v[8] !== -1) job.requestedTime = v[8];
    if (v[9] !== -1) job.requestedMemory = v[9];
    if (v[10] !== -1) job.status = v[10];
    if (v[11] !== -1) job.userId = v[11];
    if (v[14] !== -1) job.queue = v[14];
    this.jobs.push(job);
    this.report.kept++;
  }

  result(): SwfReadResult {
    return { header: this.header, jobs: this.jobs, report: this.report };
  }
}

/** Parse SWF text held in memory. */
export function parseSwf(text: string, options: SwfReadOptions = {}): SwfReadResult {
  const parser = new SwfParser(options.fileName ?? '<swf>', options);
  let lineNo = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lineNo++;
    parser.line(text.slice(start, end), lineNo);
    start = end + 1;
  }
  return parser.result();
}

/** Whether a buffer starts with the gzip magic bytes. */
export function isGzip(buf: Uint8Array): boolean {
  return buf.length >= 2 && buf[0] === 0x1f && buf[1] === 0x8b;
}

/**
 * Read an SWF file (plain or gzip, detected from the content), streaming line
 * by line so a 200,000-job trace never sits in memory as text.
 */
export async function readSwf(path: string, options: SwfReadOptions = {}): Promise<SwfReadResult> {
  checkReadable(path, 'readSwf');
  const parser = new SwfParser(path, options);
  const magic = Buffer.alloc(2);
  try {
    const fd = fs.openSync(path, 'r');
    try {
      fs.readSync(fd, magic, 0, 2, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    throw new InputError(`readSwf: cannot read ${path}: ${explainFsError(e)}`, { source: path });
  }
  const gzip = isGzip(magic);
  const raw = fs.createReadStream(path);
  const input = gzip ? raw.pipe(zlib.createGunzip()) : raw;
  // pipe() does not forward errors: a read error on `raw` must end the loop too.
  if (gzip) raw.on('error', (e) => input.destroy(e));
  const rl = readline.createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  try {
    for await (const line of rl) parser.line(line, ++lineNo);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`readSwf: cannot read ${path}${gzip ? ' (damaged or truncated gzip data)' : ''} after line ${lineNo}: ${explainFsError(e)}`, { source: path, line: lineNo + 1 });
  } finally {
    rl.close();
    raw.destroy();
  }
  return parser.result();
}

/** Read an SWF file synchronously (whole file in memory; gzip detected from content). */
export function readSwfSync(path: string, options: SwfReadOptions = {}): SwfReadResult {
  checkReadable(path, 'readSwfSync');
  let buf: Buffer;
  try {
    buf = fs.readFileSync(path);
  } catch (e) {
    throw new InputError(`readSwfSync: cannot read ${path}: ${explainFsError(e)}`, { source: path });
  }
  if (isGzip(buf)) {
    try {
      buf = zlib.gunzipSync(buf);
    } catch (e) {
      throw new InputError(`readSwfSync: ${path}: damaged or truncated gzip data: ${(e as Error).message}`, { source: path });
    }
  }
  return parseSwf(buf.toString('utf8'), { ...options, fileName: path });
}

/** Throw an InputError unless `path` is an existing regular file. */
function checkReadable(path: string, fn: string): void {
  let st: fs.Stats;
  try {
    st = fs.statSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new InputError(`${fn}: file not found: ${path}`, { source: path });
    throw new InputError(`${fn}: cannot read ${path}: ${explainFsError(e)}`, { source: path });
  }
  if (!st.isFile()) throw new InputError(`${fn}: ${path} is not a regular file`, { source: path });
}

const fmt = (v: number | undefined): string => (v === undefined || v === null ? '-1' : String(v));

/**
 * Write jobs as SWF text. Header comments are written first (each as `;` +
 * comment); with only `fields`, one `; Key: value` line per field. Fields
 * that WorkloadJob does not model (wait, group, executable, partition,
 * preceding job, think time) are written as -1.
 */
export function writeSwf(jobs: readonly WorkloadJob[], header?: Partial<SwfHeader>): string {
  const out: string[] = [];
  if (header?.comments && header.comments.length > 0) {
    for (const c of header.comments) out.push(`;${c}`);
  } else if (header?.fields) {
    for (const [k, v] of Object.entries(header.fields)) out.push(`; ${k}: ${v}`);
  }
  for (const j of jobs) {
    out.push(
      [
        j.id,
        j.submit,
        -1,
        j.runtime,
        j.procs,
        fmt(j.avgCpuTime),
        fmt(j.usedMemory),
        fmt(j.requestedProcs),
        fmt(j.requestedTime),
        fmt(j.requestedMemory),
        fmt(j.status),
        fmt(j.userId),
        -1,
        -1,
        fmt(j.queue),
        -1,
        -1,
        -1,
      ].join(' '),
    );
  }
  return out.length > 0 ? out.join('\n') + '\n' : '';
}
