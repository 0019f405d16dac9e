/**
 * Standard Workload Format (SWF) reader and writer.
 *
 * SWF (Parallel Workloads Archive): `;` lines are header comments (with
 * `Key: value` pairs), every other non-blank line is one job with 18
 * whitespace-separated numeric fields, `-1` meaning missing.
 *
 * Reading rules (documented choices):
 *  - Lines end at LF, CRLF or a lone CR, in any mix; the last line needs no
 *    line break. A UTF-8 byte-order mark at the start is skipped. Every
 *    reader (parseSwf, readSwfSync, readSwf, loadTrace) runs the same byte
 *    scanner ({@link SwfParser}), so they return the same result for the same
 *    bytes, however a stream cuts them into chunks.
 *  - Fields are separated by ASCII spaces and tabs (other Unicode spaces are
 *    not separators, so a job line holding one is malformed).
 *  - A malformed job line throws {@link SwfError} naming file, line and field:
 *    wrong field count, a non-numeric field (only decimal numbers are
 *    numbers: `0x10`, `Infinity` or `NaN` are not), a negative run time,
 *    submit time or processor count other than the missing marker -1, a
 *    processor count that is not a whole number, or more processors than the
 *    machine. In lenient mode (`lenient: true`) such lines are skipped and
 *    counted in `report.dropped` under the reason instead.
 *  - Values must be representable exactly ({@link SWF_LIMITS}): any field
 *    beyond ±(2^53 − 1) (`value too large`; ids 2^53 and 2^53 + 1 would be
 *    one number), a time field (submit, wait, run, average CPU, requested and
 *    think time) beyond ±2^40 s (`time too large`: ~34,800 years, so a time
 *    plus many run times stays below 2^44, where doubles still resolve a
 *    millisecond; at 1e300 s a 100 s job would end when it starts), and a
 *    processor count (fields 5 and 8) above 2^31 − 1 (`too many processors`:
 *    the simulators hold processor counts in 32-bit integers) are malformed.
 *  - A job whose run time, processor count or submit time is missing (-1), or
 *    whose processor count is 0, is not malformed but cannot be simulated: it
 *    is always dropped and counted (`missing run time`, `missing processors`,
 *    `missing submit time`, `zero processors`). SDSC-BLUE, for instance, has
 *    thousands of cancelled jobs with run time -1.
 *  - The machine size is `options.machineSize`, else the header's MaxProcs,
 *    else MaxNodes, else unchecked. A header value of 0 or -1 is read as
 *    unknown, not as a machine without processors. MaxProcs and MaxNodes are
 *    parsed strictly: the first word of the value must be a whole number of
 *    digits up to 2^31 − 1 (`338 (batch partition; 512 total)` is 338;
 *    `1,024`, `1e3` or `1024.5` are errors naming the line). Each may be
 *    given more than once only with the same number, and not for the first
 *    time after the first job line: the jobs are checked against the machine
 *    size in force when they are read, so a conflicting redefinition (or a
 *    late one) is an error naming both lines. Header errors are errors in
 *    lenient mode too (lenient mode skips job lines, not the machine).
 *  - Limits on what is kept: a line longer than 1 MiB (`maxLineBytes`) is an
 *    error (`line too long`, also in lenient mode) raised as soon as the
 *    reader has seen that much of it, so a file without line breaks is never
 *    held in memory. Header comments are kept up to 1,000 lines and 1 MiB of
 *    text; later comments are counted in `header.omitted`, except that
 *    MaxProcs and MaxNodes are always read. The in-memory readers
 *    (parseSwf's callers readSwfSync and loadTrace) refuse files whose
 *    uncompressed size exceeds 1 GiB (`maxInMemoryBytes`); the streaming
 *    readSwf has no size limit.
 *  - A file that cannot be read (missing, a folder, a damaged gzip stream)
 *    is an {@link InputError} naming the file; a gzip stream cut short after
 *    some complete lines is damaged too: no partial workload is returned.
 *  - Optional fields that are -1 are left undefined on the job.
 *  - Job order is the file order (SWF files are sorted by submit time).
 */
import * as fs from 'fs';
import * as zlib from 'zlib';
import { WorkloadJob } from './job';
import { JobColumns, JobColumnsBuilder, SwfJobSink } from './columns';
import { InputError, explainFsError } from '../util/errors';

/**
 * Optional job properties and their 0-based SWF fields; a field that is -1
 * leaves the property out of the job object.
 */
const OPTIONAL: readonly (readonly [keyof WorkloadJob, number])[] = [
  ['avgCpuTime', 5],
  ['usedMemory', 6],
  ['requestedProcs', 7],
  ['requestedTime', 8],
  ['requestedMemory', 9],
  ['status', 10],
  ['userId', 11],
  ['queue', 14],
];

type JobMaker = (v: readonly number[]) => WorkloadJob;
/** Job constructors by the set of optional fields present (bit q: OPTIONAL[q]). */
const jobMakers: (JobMaker | undefined)[] = new Array(1 << OPTIONAL.length);

/**
 * A constructor for jobs with exactly the optional properties in `present`,
 * as one object literal: adding the properties one by one gave every job an
 * extra, growing property store, and building 200,000 of them was most of the
 * cost of loading a trace. Generated once per combination (a trace uses a few).
 */
function jobMaker(present: number): JobMaker {
  const props = ['id: v[0]', 'submit: v[1]', 'runtime: v[3]', 'procs: v[4]'];
  OPTIONAL.forEach(([name, i], q) => {
    if (present & (1 << q)) props.push(`${name}: v[${i}]`);
  });
  return (jobMakers[present] = new Function('v', `return { ${props.join(', ')} };`) as JobMaker);
}

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

/** Limits of the reader (see the module comment for why each is what it is). */
export const SWF_LIMITS = {
  /** Longest line, in bytes, without its line break. */
  maxLineBytes: 1 << 20,
  /** Header comment lines kept in `header.comments`. */
  maxHeaderComments: 1000,
  /** Characters of header comment text kept. */
  maxHeaderChars: 1 << 20,
  /** Largest magnitude of any field: beyond it neighbouring integers share one double. */
  maxValue: Number.MAX_SAFE_INTEGER,
  /** Largest magnitude of a time field, seconds (2^40 s, about 34,800 years). */
  maxTime: 2 ** 40,
  /** Largest processor count (fields 5 and 8, header MaxProcs/MaxNodes). */
  maxProcessors: 2 ** 31 - 1,
  /** Largest uncompressed size the in-memory readers accept, bytes. */
  maxInMemoryBytes: 1 << 30,
} as const;

/** 0-based indices of the time fields (seconds). */
const TIME_FIELDS = [1, 2, 3, 5, 8, 17];
/** 0-based indices of the processor-count fields. */
const PROC_FIELDS = [4, 7];
/** Header keys that set the machine size, in order of preference. */
const MACHINE_KEYS = ['MaxProcs', 'MaxNodes'] as const;

/** Header comments of an SWF file as fields (`MaxProcs`, `MaxNodes`, …) and free lines. */
export interface SwfHeader {
  /** Header comment lines, without the leading `;`, in file order (the first {@link SWF_LIMITS}.maxHeaderComments). */
  comments: string[];
  /** Parsed `Key: value` pairs (last one wins for repeated keys such as Note). */
  fields: Record<string, string>;
  /** Comment lines not kept in `comments` (over the limits); absent when none. */
  omitted?: number;
}

/** What an SWF read kept and dropped, by reason. */
export interface SwfReport {
  /** Job lines read (comments and blank lines not counted). */
  read: number;
  /** Jobs kept. */
  kept: number;
  /** Dropped job lines by reason. */
  dropped: Record<string, number>;
}

/** An SWF file read: its jobs, header and the report of what was kept and dropped. */
export interface SwfReadResult {
  header: SwfHeader;
  jobs: WorkloadJob[];
  report: SwfReport;
}

/** Options of the SWF readers: lenient mode, machine size and which jobs to keep. */
export interface SwfReadOptions {
  /** Skip and count malformed lines instead of throwing (default false). */
  lenient?: boolean;
  /** Processors in the machine; jobs with more are malformed. Default: header MaxProcs/MaxNodes. */
  machineSize?: number;
  /** Name used in error messages (parseSwf only; readSwf uses the path). */
  fileName?: string;
  /**
   * Hand each kept job's fields to this sink instead of making job objects
   * (`jobs` is then empty): the columnar reader, {@link readSwfColumns}.
   */
  sink?: SwfJobSink;
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

/**
 * The whole number that starts a header value: its first word must be
 * digits only (`"338 (batch partition; 512 total)"` -> 338). `-1`, a missing
 * key and anything else (`1,024`, `1e3`) give undefined; the readers reject
 * the latter for MaxProcs/MaxNodes with the line.
 */
export function headerInt(header: SwfHeader, key: string): number | undefined {
  const v = header.fields[key];
  if (v === undefined) return undefined;
  const word = firstWord(v);
  return /^\d+$/.test(word) ? Number(word) : undefined;
}

const firstWord = (value: string): string => value.trim().split(/\s/, 1)[0];

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

/** Space, tab, vertical tab, form feed: the field separators. */
const isBlank = (c: number): boolean => c === 32 || c === 9 || c === 11 || c === 12;

/**
 * The one SWF scanner behind every reader: feed it bytes in chunks of any
 * size ({@link push}), then call {@link end}. Lines are split on LF, CRLF and
 * lone CR; a line is assembled across chunks before it is parsed, so where a
 * chunk ends never changes the result.
 */
export class SwfParser {
  readonly header: SwfHeader = { comments: [], fields: {} };
  readonly jobs: WorkloadJob[] = [];
  readonly report: SwfReport = { read: 0, kept: 0, dropped: {} };
  private machineSize: number | undefined;
  private sawJob = false;
  private lineNo = 0;
  /** The previous chunk ended with CR: an LF at the start of the next one belongs to it. */
  private afterCR = false;
  /** Pieces of a line that started in an earlier chunk, and their total length. */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private headerChars = 0;
  /** Line where each machine-size key was first given, and its value. */
  private readonly machineDefs = new Map<string, { line: number; value: number }>();
  /**
   * The fields of the current line. A plain array that also held a
   * non-number, so V8 keeps it generic (never a double array): whole numbers
   * then stay small integers in the job objects instead of each becoming a
   * heap-allocated double (half the memory and half the load time of a trace).
   */
  private readonly values = new Array<number | null>(18).fill(null) as number[];
  private readonly starts = new Int32Array(18);
  private readonly ends = new Int32Array(18);

  private readonly sink: SwfJobSink | undefined;

  constructor(
    private readonly file: string,
    private readonly options: SwfReadOptions = {},
  ) {
    this.sink = options.sink;
    this.machineSize = options.machineSize;
    if (this.machineSize !== undefined && !(Number.isInteger(this.machineSize) && this.machineSize > 0)) {
      throw new InputError(`readSwf: machineSize must be a positive integer, got ${this.machineSize}`, { source: 'readSwf', field: 'machineSize' });
    }
  }

  /** Feed the next bytes of the file. */
  push(chunk: Uint8Array): void {
    const n = chunk.length;
    let start = 0;
    if (this.afterCR && n > 0) {
      this.afterCR = false;
      if (chunk[0] === 10) start = 1;
    }
    for (let j = start; ; j++) {
      // Find the end of the line (the hot loop), looking no further than the longest line allowed.
      const limit = Math.min(n, start + SWF_LIMITS.maxLineBytes + 1);
      while (j < limit) {
        const c = chunk[j];
        if (c === 10 || c === 13) break;
        j++;
      }
      if (j === limit) {
        this.keep(chunk.subarray(start, j));
        if (j === n) return;
      }
      if (this.pendingBytes > 0) {
        this.keep(chunk.subarray(start, j));
        this.flushPending();
      } else this.parseLine(chunk, start, j);
      if (chunk[j] === 13) {
        if (j + 1 < n) {
          if (chunk[j + 1] === 10) j++;
        } else this.afterCR = true;
      }
      start = j + 1;
    }
  }

  /** Lines seen so far. */
  get lines(): number {
    return this.lineNo;
  }

  /** No more bytes: parse the last line (which needs no line break) and return the result. */
  end(): SwfReadResult {
    if (this.pendingBytes > 0) this.flushPending();
    return { header: this.header, jobs: this.jobs, report: this.report };
  }

  /** Keep the start of a line that goes on in the next chunk (a copy: the caller may reuse its buffer). */
  private keep(piece: Uint8Array): void {
    if (piece.length === 0) return;
    this.checkLength(this.pendingBytes + piece.length);
    this.pending.push(Uint8Array.prototype.slice.call(piece));
    this.pendingBytes += piece.length;
  }

  private flushPending(): void {
    const line = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    this.parseLine(line, 0, line.length);
  }

  private checkLength(bytes: number): void {
    if (bytes > SWF_LIMITS.maxLineBytes) {
      throw new SwfError(this.file, this.lineNo + 1, 'line', 'line too long', `longer than ${SWF_LIMITS.maxLineBytes} bytes (1 MiB) without a line break; not an SWF line`);
    }
  }

  private drop(reason: string): void {
    this.report.dropped[reason] = (this.report.dropped[reason] ?? 0) + 1;
  }

  /** Malformed line: throw, or count in lenient mode. */
  private bad(fieldIndex: number, reason: string, detail: string): void {
    if (this.options.lenient) {
      this.drop(reason);
      return;
    }
    const field = fieldIndex < 0 ? 'line' : `field ${fieldIndex + 1} (${SWF_FIELDS[fieldIndex]})`;
    throw new SwfError(this.file, this.lineNo, field, reason, detail);
  }

  /** One line: bytes [s, e) of `buf`, without its line break. */
  private parseLine(buf: Uint8Array, s: number, e: number): void {
    const lineNo = ++this.lineNo;
    // UTF-8 byte-order mark at the start of the file.
    if (lineNo === 1 && e - s >= 3 && buf[s] === 0xef && buf[s + 1] === 0xbb && buf[s + 2] === 0xbf) s += 3;
    while (s < e && isBlank(buf[s])) s++;
    if (s === e) return;
    if (buf[s] === 59 /* ; */) return this.comment(buf, s + 1, e);
    if (!this.sawJob) {
      this.sawJob = true;
      if (this.machineSize === undefined) this.machineSize = headerMachineSize(this.header);
      const announced = headerInt(this.header, 'MaxRecords');
      if (announced !== undefined) this.sink?.expect?.(announced);
    }
    this.report.read++;
    // Tokens: record where the first 18 are and read them as they are scanned (plain numbers
    // of up to 15 digits, as number() does; anything else through number() itself), count them all.
    const starts = this.starts;
    const ends = this.ends;
    const v = this.values;
    let count = 0;
    let k = s;
    while (k < e) {
      let c = buf[k];
      while (c === 32 || c === 9 || c === 11 || c === 12) c = ++k < e ? buf[k] : -1;
      if (k === e) break;
      const t = k;
      const neg = c === 45;
      if (neg) c = ++k < e ? buf[k] : -1;
      let x = 0;
      let digits = 0;
      let decimals = -1;
      let plain = true;
      while (k < e && !(c === 32 || c === 9 || c === 11 || c === 12)) {
        if (c >= 48 && c <= 57) {
          x = x * 10 + (c - 48);
          digits++;
          if (decimals >= 0) decimals++;
        } else if (c === 46 && decimals < 0) decimals = 0;
        else plain = false;
        c = ++k < e ? buf[k] : -1;
      }
      if (count < 18) {
        starts[count] = t;
        ends[count] = k;
        if (plain && digits > 0 && digits <= 15) {
          // x and 10^decimals are exact, so one division rounds correctly, as Number() does.
          if (decimals > 0) x /= POW10[decimals];
          v[count] = neg ? -x : x;
        } else v[count] = number(buf, t, k);
      }
      count++;
    }
    if (count !== 18) return this.bad(-1, 'wrong field count', `expected 18 fields, found ${count}`);
    for (let i = 0; i < 18; i++) {
      if (Number.isNaN(v[i])) return this.bad(i, 'non-numeric field', `'${this.token(buf, i)}' is not a number`);
    }
    for (const i of TIME_FIELDS) {
      if (Math.abs(v[i]) > SWF_LIMITS.maxTime) return this.bad(i, 'time too large', `${this.token(buf, i)} s is beyond ±2^40 s (about 34,800 years), where times lose their resolution`);
    }
    for (let i = 0; i < 18; i++) {
      if (Math.abs(v[i]) > SWF_LIMITS.maxValue) return this.bad(i, 'value too large', `${this.token(buf, i)} is beyond ±(2^53 − 1), where whole numbers are no longer exact`);
    }
    // Negative values other than the missing marker -1 are malformed.
    if (v[1] < 0 && v[1] !== -1) return this.bad(1, 'negative submit time', `${this.token(buf, 1)} is negative (only -1, meaning missing, is allowed)`);
    if (v[3] < 0 && v[3] !== -1) return this.bad(3, 'negative run time', `${this.token(buf, 3)} is negative (only -1, meaning missing, is allowed)`);
    if (v[4] < 0 && v[4] !== -1) return this.bad(4, 'negative processors', `${this.token(buf, 4)} is negative (only -1, meaning missing, is allowed)`);
    if (!Number.isInteger(v[4])) return this.bad(4, 'non-integer processors', `${this.token(buf, 4)} is not a whole number of processors`);
    for (const i of PROC_FIELDS) {
      if (v[i] > SWF_LIMITS.maxProcessors) return this.bad(i, 'too many processors', `${this.token(buf, i)} processors is more than the limit of 2^31 − 1`);
    }
    if (this.machineSize !== undefined && v[4] > this.machineSize) {
      return this.bad(4, 'more processors than machine', `${this.token(buf, 4)} processors on a machine of ${this.machineSize}`);
    }
    if (v[1] === -1) return this.drop('missing submit time');
    if (v[3] === -1) return this.drop('missing run time');
    if (v[4] === -1) return this.drop('missing processors');
    if (v[4] === 0) return this.drop('zero processors');
    if (this.sink) this.sink.add(v);
    else {
      let present = 0;
      for (let q = 0; q < OPTIONAL.length; q++) if (v[OPTIONAL[q][1]] !== -1) present |= 1 << q;
      this.jobs.push((jobMakers[present] ?? jobMaker(present))(v));
    }
    this.report.kept++;
  }

  /** Field i of the line just tokenized, as text. */
  private token(buf: Uint8Array, i: number): string {
    return text(buf, this.starts[i], this.ends[i]);
  }

  /** A header comment: bytes [s, e) after the `;`. */
  private comment(buf: Uint8Array, s: number, e: number): void {
    const header = this.header;
    const keepIt = header.comments.length < SWF_LIMITS.maxHeaderComments && this.headerChars + (e - s) <= SWF_LIMITS.maxHeaderChars;
    if (!keepIt) {
      header.omitted = (header.omitted ?? 0) + 1;
      // Past the limits only the machine-size keys are read: skip decoding lines that cannot hold one
      // (first character neither M nor non-ASCII, which may be a Unicode space before the key).
      let k = s;
      while (k < e && isBlank(buf[k])) k++;
      if (k < e && buf[k] !== 77 /* M */ && buf[k] < 0x80) return;
    }
    const body = text(buf, s, e);
    if (keepIt) {
      header.comments.push(body);
      this.headerChars += body.length;
    }
    const m = /^\s*([A-Za-z][\w-]*)\s*:\s*(.*?)\s*$/.exec(body);
    if (!m) return;
    const [, key, value] = m;
    if ((MACHINE_KEYS as readonly string[]).includes(key)) this.machineKey(key, value);
    else if (!keepIt) return;
    header.fields[key] = value;
  }

  /** MaxProcs / MaxNodes: a strict whole number, one value per file, given before the jobs. */
  private machineKey(key: string, value: string): void {
    const where = `header ${key}`;
    const word = firstWord(value);
    const n = word === '-1' ? 0 : /^\d+$/.test(word) ? Number(word) : NaN;
    if (Number.isNaN(n)) {
      throw new SwfError(this.file, this.lineNo, where, 'bad header value', `'${value}' does not start with a whole number of processors (digits only, e.g. 1024; -1 or 0 for unknown)`);
    }
    if (n > SWF_LIMITS.maxProcessors) throw new SwfError(this.file, this.lineNo, where, 'bad header value', `${word} processors is more than the limit of 2^31 − 1`);
    const first = this.machineDefs.get(key);
    if (first && first.value !== n) {
      throw new SwfError(this.file, this.lineNo, where, 'conflicting header value', `${key} redefined as ${word}; line ${first.line} gave ${first.value} (one machine size per file)`);
    }
    if (!first && this.sawJob) {
      throw new SwfError(this.file, this.lineNo, where, 'late header value', `${key} first given after the job lines began; the jobs above were checked against ${this.machineSize === undefined ? 'no machine size' : `a machine of ${this.machineSize}`}`);
    }
    if (!first) this.machineDefs.set(key, { line: this.lineNo, value: n });
  }
}

/** Bytes [s, e) as text (UTF-8; what error messages and comments show). */
function text(buf: Uint8Array, s: number, e: number): string {
  return Buffer.from(buf.buffer, buf.byteOffset + s, e - s).toString('utf8');
}

/**
 * The number in bytes [s, e), NaN when it is not a decimal number. Plain
 * numbers of up to 15 digits (`123`, `-1`, `45.25`: almost every SWF field)
 * are accumulated digit by digit, which is exact below 2^53; everything else
 * goes through Number(), so every value is the one Number(token) gives.
 */
function number(buf: Uint8Array, s: number, e: number): number {
  let k = s;
  const neg = buf[k] === 45;
  if (neg) k++;
  if (k < e && e - k <= 16) {
    let v = 0;
    let digits = 0;
    let decimals = -1;
    for (; k < e; k++) {
      const c = buf[k];
      if (c === 46 && decimals < 0) decimals = 0;
      else if (c >= 48 && c <= 57) {
        v = v * 10 + (c - 48);
        digits++;
        if (decimals >= 0) decimals++;
      } else break;
    }
    // v and 10^decimals are exact, so one division rounds correctly, as Number() does.
    if (k === e && digits > 0 && digits <= 15) {
      const x = decimals > 0 ? v / POW10[decimals] : v;
      return neg ? -x : x;
    }
  }
  const token = text(buf, s, e);
  const x = Number(token);
  return Number.isFinite(x) && isDecimal(token) ? x : NaN;
}

const POW10 = Array.from({ length: 16 }, (_, i) => Number(`1e${i}`));

/** Parse SWF text held in memory. */
export function parseSwf(text: string, options: SwfReadOptions = {}): SwfReadResult {
  return parseSwfBytes(Buffer.from(text, 'utf8'), options);
}

/** Parse SWF bytes held in memory (uncompressed). */
export function parseSwfBytes(bytes: Uint8Array, options: SwfReadOptions = {}): SwfReadResult {
  const parser = new SwfParser(options.fileName ?? '<swf>', options);
  parser.push(bytes);
  return parser.end();
}

/** Whether a buffer starts with the gzip magic bytes. */
export function isGzip(buf: Uint8Array): boolean {
  return buf.length >= 2 && buf[0] === 0x1f && buf[1] === 0x8b;
}

/**
 * Read an SWF file (plain or gzip, detected from the content), streaming
 * chunk by chunk so a 200,000-job trace never sits in memory as text.
 */
export async function readSwf(path: string, options: SwfReadOptions = {}): Promise<SwfReadResult> {
  checkReadable(path, 'readSwf');
  return streamFile(path, new SwfParser(path, options));
}

/**
 * Read an SWF file into columns of typed arrays (36 bytes a job), streaming:
 * the way to read traces of millions of jobs. Same checks and report as readSwf.
 */
export async function readSwfColumns(path: string, options: Omit<SwfReadOptions, 'sink'> = {}): Promise<{ header: SwfHeader; columns: JobColumns; report: SwfReport }> {
  const builder = new JobColumnsBuilder(maxJobLines(path, checkReadable(path, 'readSwf')));
  const { header, report } = await streamFile(path, new SwfParser(path, { ...options, sink: builder }));
  return { header, columns: builder.finish(), report };
}

/**
 * The most job lines a file can hold (a job line has at least 36 bytes: 18
 * one-character fields, their separators and a line break), from its size,
 * or for gzip the uncompressed size in its trailer (modulo 2^32: a bound
 * only for files under 4 GiB, and a hint, never trusted for anything else).
 */
function maxJobLines(path: string, st: fs.Stats): number {
  let bytes = st.size;
  try {
    const fd = fs.openSync(path, 'r');
    try {
      const b = Buffer.alloc(4);
      // gzip expands at most about 1032 to 1.
      if (st.size >= 18 && fs.readSync(fd, b, 0, 2, 0) === 2 && isGzip(b) && fs.readSync(fd, b, 0, 4, st.size - 4) === 4) bytes = Math.min(b.readUInt32LE(0), 1032 * st.size);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return 0; // unreadable: the stream that follows says why
  }
  return Math.floor(bytes / 36);
}

/**
 * A plain or gzip file (detected from its content) as a stream of bytes: `raw`
 * the file, `input` what to read (the gunzipped bytes for gzip). `fn` names
 * the caller in messages. Shared by the streaming readers (SWF, sacct).
 */
export function openDecompressed(path: string, fn: string): { raw: fs.ReadStream; input: NodeJS.ReadableStream & { destroy(e?: Error): void }; gzip: boolean } {
  const magic = Buffer.alloc(2);
  try {
    const fd = fs.openSync(path, 'r');
    try {
      fs.readSync(fd, magic, 0, 2, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    throw new InputError(`${fn}: cannot read ${path}: ${explainFsError(e)}`, { source: path });
  }
  const gzip = isGzip(magic);
  // Large pieces: with the defaults (64 KiB read, 16 KiB inflated) the stream's own overhead was
  // three quarters of the time of inflating a trace.
  const raw = fs.createReadStream(path, { highWaterMark: 1 << 20 });
  const input = gzip ? raw.pipe(zlib.createGunzip({ chunkSize: 1 << 18 })) : raw;
  // pipe() does not forward errors: a read error on `raw` must end the loop too.
  if (gzip) raw.on('error', (e) => input.destroy(e));
  return { raw, input, gzip };
}

/** Feed a plain or gzip file (detected from its content) to the parser, chunk by chunk. */
async function streamFile(path: string, parser: SwfParser): Promise<SwfReadResult> {
  const { raw, input, gzip } = openDecompressed(path, 'readSwf');
  try {
    for await (const chunk of input) parser.push(chunk as Buffer);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`readSwf: cannot read ${path}${gzip ? ' (damaged or truncated gzip data)' : ''} after line ${parser.lines}: ${explainFsError(e)}`, { source: path, line: parser.lines + 1 });
  } finally {
    input.destroy();
    raw.destroy();
  }
  return parser.end();
}

/** Read an SWF file synchronously (whole file in memory; gzip detected from content). */
export function readSwfSync(path: string, options: SwfReadOptions = {}): SwfReadResult {
  return parseSwfBytes(readUncompressedSync(path, 'readSwfSync'), { ...options, fileName: path });
}

/**
 * The uncompressed bytes of a plain or gzip file, for the in-memory readers;
 * refuses more than {@link SWF_LIMITS}.maxInMemoryBytes. `fn` names the caller in messages.
 */
export function readUncompressedSync(path: string, fn: string): Buffer {
  const cap = SWF_LIMITS.maxInMemoryBytes;
  const tooBig = () => new InputError(`${fn}: ${path} is larger than ${cap} bytes (1 GiB) uncompressed; read it with the streaming readSwf`, { source: path });
  if (checkReadable(path, fn).size > cap) throw tooBig();
  let buf: Buffer;
  try {
    buf = fs.readFileSync(path);
  } catch (e) {
    throw new InputError(`${fn}: cannot read ${path}: ${explainFsError(e)}`, { source: path });
  }
  if (!isGzip(buf)) return buf;
  try {
    return zlib.gunzipSync(buf, { maxOutputLength: cap });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooBig();
    throw new InputError(`${fn}: ${path}: damaged or truncated gzip data: ${(e as Error).message}`, { source: path });
  }
}

/** Throw an InputError unless `path` is an existing regular file; its stats otherwise. */
/** Throw an InputError naming `fn` unless `path` is an existing regular file; its stats otherwise. */
export function checkReadable(path: string, fn: string): fs.Stats {
  let st: fs.Stats;
  try {
    st = fs.statSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new InputError(`${fn}: file not found: ${path}`, { source: path });
    throw new InputError(`${fn}: cannot read ${path}: ${explainFsError(e)}`, { source: path });
  }
  if (!st.isFile()) throw new InputError(`${fn}: ${path} is not a regular file`, { source: path });
  return st;
}

const fmt = (v: number | undefined): string => (v === undefined || v === null ? '-1' : String(v));

/**
 * Write jobs as SWF text. Header comments are written first (each as `;` +
 * comment); with only `fields`, one `; Key: value` line per field. Fields
 * that WorkloadJob does not model (wait, executable, partition, preceding
 * job, think time) are written as -1; the group (field 13) is written when a
 * job has a `groupId` (jobs read from sacct), else -1.
 */
export function writeSwf(jobs: readonly WorkloadJob[], header?: Partial<SwfHeader>): string {
  return [...swfLines(jobs, header)].join('');
}

/** {@link writeSwf} one line at a time (each with its line break), for writing millions of jobs as a stream. */
export function* swfLines(jobs: Iterable<WorkloadJob>, header?: Partial<SwfHeader>): Generator<string> {
  if (header?.comments && header.comments.length > 0) {
    for (const c of header.comments) yield `;${c}\n`;
  } else if (header?.fields) {
    for (const [k, v] of Object.entries(header.fields)) yield `; ${k}: ${v}\n`;
  }
  for (const j of jobs) {
    const group = (j as { groupId?: number }).groupId;
    yield `${j.id} ${j.submit} -1 ${j.runtime} ${j.procs} ${fmt(j.avgCpuTime)} ${fmt(j.usedMemory)} ${fmt(j.requestedProcs)} ${fmt(j.requestedTime)} ${fmt(j.requestedMemory)} ${fmt(j.status)} ${fmt(j.userId)} ${fmt(group)} -1 ${fmt(j.queue)} -1 -1 -1\n`;
  }
}
