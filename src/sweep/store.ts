/**
 * Results store: one append-only JSON-lines file per experiment.
 *
 * Each record is one line `{"key":…,"crc":…,…}` written with a single write
 * call; `crc` is a CRC-32 of the canonical JSON of everything else. A crash
 * (even kill -9) can at worst leave a torn last line, which readers skip and
 * report and the next run cuts off before appending. Reruns skip finished
 * cells, so a resumed run loses nothing and duplicates nothing.
 */
import { isAscii } from 'buffer';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { canonicalJson, CellParams, Json } from './grid';
import { InputError, makeFolder, OutputError } from '../util/errors';

/** Fields that describe one execution (when, where, how long), not the result. */
export interface RunInfo {
  startedAt: string;
  durationMs: number;
  attempts: number;
  host: string;
  pid: number;
  worker: number;
  shard?: string;
  /** Stack trace of a failure (machine-specific, so kept out of the content). */
  stack?: string;
}

/** One line of a results file: the cell's key and parameters, its result or error, and run metadata. */
export interface ResultRecord {
  /** Canonical JSON of `params`. */
  key: string;
  /** CRC-32 (8 hex digits) of the canonical JSON of the record without `crc`. */
  crc: string;
  sweep: string;
  sweepVersion: string | null;
  /** Fingerprint of the sweep definition (see `SweepDefinition.fingerprint`). */
  definition: string;
  /** schedlab version (package.json) that produced the record. */
  toolkit: string;
  params: CellParams;
  seed: number;
  status: 'ok' | 'failed';
  result?: Json;
  error?: { name: string; message: string };
  run: RunInfo;
}

let crcTable: Uint32Array | undefined;

/** CRC-32 (IEEE) of a string's UTF-8 bytes, as 8 hex digits. */
export function crc32(text: string): string {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  const bytes = Buffer.from(text, 'utf8');
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = crcTable[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return ((crc ^ 0xffffffff) >>> 0).toString(16).padStart(8, '0');
}

/** Checksum of a record's content (everything but `crc`). */
export function recordCrc(record: Omit<ResultRecord, 'crc'> & { crc?: string }): string {
  const { crc: _ignored, ...body } = record;
  return crc32(canonicalJson(body));
}

/** One line of text (with its newline) for a record; `crc` is (re)computed. */
export function serializeRecord(record: Omit<ResultRecord, 'crc'> & { crc?: string }): string {
  const { crc: _ignored, key, ...rest } = record;
  const crc = recordCrc(record);
  const tail = canonicalJson(rest);
  return `{"key":${JSON.stringify(key)},"crc":"${crc}"${tail === '{}' ? '}' : ',' + tail.slice(1)}\n`;
}

/** The record without what changes from one execution to the next (`run`, `crc`). */
export function recordContent(record: ResultRecord): Omit<ResultRecord, 'crc' | 'run'> {
  const { crc: _c, run: _r, ...content } = record;
  return content;
}

/** Problems found while reading a results file (each names file and line). */
export interface ReadReport {
  records: ResultRecord[];
  /** Invalid lines (bad JSON, wrong checksum, missing fields), with reasons. */
  invalid: { line: number; reason: string }[];
  /** The last line had no newline: a write cut short by a crash. */
  tornTail: { line: number; bytes: number } | null;
  /** Byte length of the file up to and including the last newline. */
  validLength: number;
  warnings: string[];
}

function checkShape(obj: any): string | null {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return 'not an object';
  if (typeof obj.key !== 'string') return 'missing "key"';
  if (typeof obj.crc !== 'string') return 'missing "crc"';
  if (obj.status !== 'ok' && obj.status !== 'failed') return 'bad "status"';
  if (typeof obj.sweep !== 'string' || typeof obj.definition !== 'string' || typeof obj.toolkit !== 'string') {
    return 'missing sweep/definition/toolkit';
  }
  if (obj.params === null || typeof obj.params !== 'object') return 'missing "params"';
  if (obj.run === null || typeof obj.run !== 'object') return 'missing "run"';
  return null;
}

/** UTF-8 text of bytes; plain ASCII (most results) is copied as Latin-1, the same text without decoding. */
function decode(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/**
 * Records parsed from bytes fed in pieces of any size (a file read in chunks,
 * inflated `.gz` bytes), each line as `readResultsFile` reads it. The complete
 * lines of a piece are decoded as one string and cut at its newlines (a byte
 * 0x0a is never inside a UTF-8 sequence): one Buffer-to-string per piece,
 * not one per line.
 */
export class ResultsReader {
  private readonly report: ReadReport = { records: [], invalid: [], tornTail: null, validLength: 0, warnings: [] };
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private bytes = 0;
  private lineNo = 0;

  /**
   * `file` names the source in warnings; `checksums: false` skips each record's CRC (for a caller that has checked the whole file's digest).
   * `deferred`: fields of `result` parsed on first read (see `deferField`); only without checksums, which would read them all.
   */
  constructor(private readonly file: string, private readonly checksums = true, private readonly deferred: readonly string[] = []) {
    if (checksums && deferred.length) throw new Error('ResultsReader: deferred fields need checksums off');
  }

  /** The next bytes; what is kept of them (an unfinished last line) is copied. */
  push(piece: Buffer): void {
    let from = 0;
    if (this.pendingBytes > 0) {
      // The line begun in earlier pieces: joined on its own, not by copying the whole piece.
      const nl = piece.indexOf(0x0a);
      if (nl >= 0) {
        this.parseLine(decode(Buffer.concat([...this.pending, piece.subarray(0, nl)])));
        this.pending = [];
        this.pendingBytes = 0;
        this.report.validLength = this.bytes + nl + 1;
        from = nl + 1;
      } else from = piece.length;
    }
    const last = piece.lastIndexOf(0x0a);
    if (last >= from) {
      const text = decode(piece.subarray(from, last + 1));
      for (let at = 0, nl = text.indexOf('\n'); nl >= 0; at = nl + 1, nl = text.indexOf('\n', at)) this.parseLine(text.slice(at, nl));
      this.report.validLength = this.bytes + last + 1;
    }
    const rest = this.pendingBytes > 0 ? 0 : Math.max(from, last + 1);
    if (rest < piece.length) {
      this.pending.push(Buffer.from(piece.subarray(rest)));
      this.pendingBytes += piece.length - rest;
    }
    this.bytes += piece.length;
  }

  /** The report, once every byte has been pushed: a last line without a newline is a torn tail. */
  finish(): ReadReport {
    const report = this.report;
    if (this.pendingBytes > 0) {
      report.tornTail = { line: this.lineNo + 1, bytes: this.pendingBytes };
      report.warnings.push(`${this.file}:${this.lineNo + 1}: ignored a torn last line (${this.pendingBytes} bytes, no newline) left by an interrupted write`);
    }
    for (const bad of report.invalid) report.warnings.push(`${this.file}:${bad.line}: ignored invalid record (${bad.reason})`);
    return report;
  }

  private parseLine(line: string): void {
    const lineNo = ++this.lineNo;
    if (line.trim() === '') return;
    let obj: any;
    try {
      obj = this.deferred.length ? this.parseDeferring(line, lineNo) : JSON.parse(line);
    } catch {
      this.report.invalid.push({ line: lineNo, reason: 'not valid JSON' });
      return;
    }
    const shape = checkShape(obj);
    if (shape) {
      this.report.invalid.push({ line: lineNo, reason: shape });
      return;
    }
    if (this.checksums && recordCrc(obj) !== obj.crc) {
      this.report.invalid.push({ line: lineNo, reason: 'checksum mismatch' });
      return;
    }
    this.report.records.push(obj as ResultRecord);
  }

  /**
   * A line parsed with each deferred field's array text cut out (a placeholder
   * in its place, so the key keeps its position) and put back as a field parsed
   * on first read. A line where a cut field is not exactly one array-valued
   * field of `result` is parsed whole, as usual.
   */
  private parseDeferring(line: string, lineNo: number): any {
    let text = line;
    const cut: [string, string][] = [];
    for (const field of this.deferred) {
      const name = `"${field}":[`;
      const at = text.indexOf(name);
      if (at < 0) continue;
      const from = at + name.length - 1;
      const to = arrayEnd(text, from);
      if (to < 0 || text.indexOf(name, to) >= 0) return JSON.parse(line);
      cut.push([field, text.slice(from, to)]);
      text = text.slice(0, from) + '0' + text.slice(to);
    }
    const obj = JSON.parse(text);
    const result = obj?.result;
    if (cut.length && (result === null || typeof result !== 'object' || cut.some(([field]) => result[field] !== 0))) return JSON.parse(line);
    for (const [field, arrayText] of cut) deferField(result, field, arrayText, { source: this.file, line: lineNo });
    return obj;
  }
}

/** A JSON array without arrays inside (objects and strings may be): what a deferred field holds. */
const FLAT_ARRAY = /\[(?:[^[\]"]|"(?:[^"\\]|\\.)*")*\]/y;

/** Index just past the flat array that opens at `text[from]` ('['), or -1 when there is none there (the line is then parsed whole). */
function arrayEnd(text: string, from: number): number {
  FLAT_ARRAY.lastIndex = from;
  return FLAT_ARRAY.test(text) ? FLAT_ARRAY.lastIndex : -1;
}

/** Objects holding a field not parsed yet (see `deferField`). */
const deferredHolders = new WeakSet<object>();

/**
 * Make `holder[field]` (already there, so its key keeps its position) a field
 * that parses `json` on its first read and is then a plain field holding that
 * value; assigning it first replaces it. The text is kept as bytes of its own,
 * not as a slice of the (much larger) text it came from. Text that turns out
 * not to be JSON throws on that read, naming the file, line and field.
 */
export function deferField(holder: Record<string, unknown>, field: string, json: string, where: { source: string; line: number }): void {
  let bytes: Buffer | undefined = Buffer.from(json, 'utf8');
  let value: unknown;
  const settle = (target: object, v: unknown) => Object.defineProperty(target, field, { value: v, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(holder, field, {
    enumerable: true,
    configurable: true,
    get(this: object) {
      if (bytes) {
        try {
          value = JSON.parse(bytes.toString('utf8'));
        } catch (e) {
          throw new InputError(`${where.source}:${where.line}: field ${field} is not valid JSON (${(e as Error).message})`, { ...where, field });
        }
        bytes = undefined;
      }
      settle(this, value);
      return value;
    },
    set(this: object, v: unknown) {
      settle(this, v);
    },
  });
  deferredHolders.add(holder);
}

/**
 * Copy `from[key]` to `to[key]` as `to[key] = from[key]` does, except that a
 * field not parsed yet stays unparsed (both parse the same text once, to the
 * same value).
 */
export function copyField(from: object, to: Record<string, unknown>, key: string): void {
  const d = deferredHolders.has(from) ? Object.getOwnPropertyDescriptor(from, key) : undefined;
  if (d?.get) {
    Object.defineProperty(to, key, d);
    deferredHolders.add(to);
  } else to[key] = (from as Record<string, unknown>)[key];
}

/** Whether `holder[key]` is a plain field holding null (a deferred field is never null and is not parsed to tell). */
export function isNullField(holder: object, key: string): boolean {
  const d = Object.getOwnPropertyDescriptor(holder, key);
  return d !== undefined && !d.get && d.value === null;
}

/**
 * Read every valid record of a results file, in file order (duplicates kept).
 * A missing file reads as empty. Nothing is thrown for bad lines: they are
 * listed in `invalid` / `tornTail` and described in `warnings`.
 */
export function readResultsFile(file: string, options: { chunkBytes?: number; checksums?: boolean } = {}): ReadReport {
  // Each record's CRC is a third of the reading time; a caller that has checked the whole file's digest may skip it.
  const reader = new ResultsReader(file, options.checksums ?? true);
  if (!fs.existsSync(file)) return reader.finish();
  // A device (e.g. /dev/zero) or a pipe could be read for ever.
  if (!fs.statSync(file).isFile()) throw new InputError(`results file ${file} is not a regular file`, { source: file });
  // Read in chunks, line by line: a file of any size (a string is capped at 512 MiB) in bounded extra memory.
  const chunk = Buffer.alloc(options.chunkBytes ?? 16 << 20);
  const fd = fs.openSync(file, 'r');
  try {
    for (let offset = 0, got; (got = fs.readSync(fd, chunk, 0, chunk.length, offset)) > 0; offset += got) reader.push(chunk.subarray(0, got));
  } finally {
    fs.closeSync(fd);
  }
  return reader.finish();
}

/**
 * Keep one record per key: an `ok` record beats a `failed` one; otherwise the
 * later one wins. Result sorted by key, so the order never depends on which
 * worker finished first.
 */
export function latestRecords(records: readonly ResultRecord[]): ResultRecord[] {
  const byKey = new Map<string, ResultRecord>();
  for (const r of records) {
    const prev = byKey.get(r.key);
    if (!prev || !(prev.status === 'ok' && r.status === 'failed')) byKey.set(r.key, r);
  }
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Options of `loadResults`: whether failed cells are returned, and a warning callback. */
export interface LoadOptions {
  /** Include failed cells (default true). */
  failed?: boolean;
  /** Called with each warning (torn/invalid lines); default prints to stderr. */
  onWarning?: (message: string) => void;
}

/**
 * Records of a results file, one per cell (see `latestRecords`), sorted by key.
 * Torn or invalid lines are skipped and reported through `onWarning`.
 */
export function loadResults(file: string, options: LoadOptions = {}): ResultRecord[] {
  if (!fs.existsSync(file)) throw new InputError(`results file not found: ${file}`, { source: file });
  const report = readResultsFile(file);
  const warn = options.onWarning ?? ((m: string) => process.stderr.write(`warning: ${m}\n`));
  report.warnings.forEach(warn);
  const records = latestRecords(report.records);
  return options.failed === false ? records.filter((r) => r.status === 'ok') : records;
}

/** A flat row for analysis: parameters, seed, then the result's fields. */
export type ResultRow = Record<string, Json>;

/**
 * Flatten successful records into rows `{...params, seed, ...result}`.
 * A result that is not an object goes into `value`. A result field that
 * clashes with a parameter of a different value is kept as `result.<name>`.
 */
export function toRows(records: readonly ResultRecord[]): ResultRow[] {
  const rows: ResultRow[] = [];
  for (const r of records) {
    if (r.status !== 'ok') continue;
    const row: ResultRow = { ...r.params, seed: r.seed };
    const res = r.result;
    if (res !== null && typeof res === 'object' && !Array.isArray(res)) {
      for (const [k, v] of Object.entries(res)) {
        if (k in row && row[k] !== v && canonicalJson(row[k]) !== canonicalJson(v)) row[`result.${k}`] = v;
        else row[k] = v;
      }
    } else {
      row.value = res ?? null;
    }
    rows.push(row);
  }
  return rows;
}

/** `toRows(loadResults(file, {failed: false}))`. */
export function loadRows(file: string, options: Omit<LoadOptions, 'failed'> = {}): ResultRow[] {
  return toRows(loadResults(file, { ...options, failed: false }));
}

/** Successful results as a danfojs DataFrame (one row per cell). */
export function loadResultsFrame(file: string, options: Omit<LoadOptions, 'failed'> = {}): any {
  // Loaded lazily: danfojs is heavy and only notebooks need it.
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const dfd = require('danfojs');
  const rows = loadRows(file, options);
  if (rows.length === 0) throw new Error(`no successful results in ${file}`);
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const flat = rows.map((r) => {
    const o: Record<string, unknown> = {};
    for (const c of columns) {
      const v = r[c];
      o[c] = v !== null && typeof v === 'object' ? JSON.stringify(v) : v ?? null;
    }
    return o;
  });
  return new dfd.DataFrame(flat, { columns });
}

/**
 * Append-only writer of a results file. Opening it cuts off a torn last line
 * (never valid data) so the next record starts on its own line, and takes a
 * lock file so two runs never write the same file at once.
 */
export class ResultsWriter {
  readonly file: string;
  readonly lockFile: string;
  private fd: number | null;
  /** Bytes in the file: where the next record starts. */
  private size = 0;
  private readonly releaseOnExit: () => void;

  /**
   * Opens `file` for appending; see `openResults`. A folder that cannot be
   * created or a file that cannot be opened is an OutputError naming the path.
   */
  constructor(file: string, options: { breakLock?: boolean } = {}) {
    this.file = path.resolve(file);
    this.lockFile = this.file + '.lock';
    this.fd = null;
    try {
      makeFolder(path.dirname(this.file));
    } catch (e) {
      throw new OutputError('create the results folder for', this.file, (e as OutputError).cause ?? e);
    }
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(this.file);
    } catch {
      st = undefined;
    }
    if (st && !st.isFile()) throw new OutputError('write results to', this.file, Object.assign(new Error('not a regular file'), { code: st.isDirectory() ? 'EISDIR' : undefined }));
    lockResults(this.file, options);
    this.releaseOnExit = () => this.close();
    process.once('exit', this.releaseOnExit);
    try {
      this.fd = fs.openSync(this.file, 'a');
      this.size = fs.fstatSync(this.fd).size;
    } catch (e) {
      this.close();
      throw new OutputError('open the results file', this.file, e);
    }
  }

  /** Cut the file to `length` bytes (used to drop a torn last line). */
  truncateTo(length: number): void {
    if (this.fd === null) throw new Error(`${this.file} is closed`);
    try {
      fs.ftruncateSync(this.fd, length);
    } catch (e) {
      throw new OutputError('truncate', this.file, e);
    }
    this.size = length;
  }

  /**
   * Append one record as one line, in one write call. If the write fails
   * (e.g. no space left), whatever part of the line was written is cut off
   * again, so the file keeps only complete records; the error is an
   * OutputError. (Should the cut fail too, readers skip the torn line.)
   */
  append(record: Omit<ResultRecord, 'crc'>): ResultRecord {
    if (this.fd === null) throw new Error(`${this.file} is closed`);
    const line = serializeRecord(record);
    const buf = Buffer.from(line, 'utf8');
    let off = 0;
    try {
      while (off < buf.length) off += fs.writeSync(this.fd, buf, off, buf.length - off);
    } catch (e) {
      // Cut off whatever part of the line reached the file (also a part written by a failing call).
      try {
        fs.ftruncateSync(this.fd, this.size);
      } catch {
        /* the torn line stays; readers skip it and the next run cuts it off */
      }
      throw new OutputError('append a result to', this.file, e);
    }
    this.size += buf.length;
    return JSON.parse(line) as ResultRecord;
  }

  close(): void {
    const open = this.fd !== null || process.listeners('exit').includes(this.releaseOnExit);
    if (this.fd !== null) {
      fs.closeSync(this.fd);
      this.fd = null;
    }
    process.removeListener('exit', this.releaseOnExit);
    if (open) unlockResults(this.file);
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When a process started, in clock ticks since boot (field 22 of
 * /proc/<pid>/stat), or undefined where /proc is not readable. A lock records
 * it so that a pid reused after a crash is not taken for the lock's holder.
 */
export function processStartTicks(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

/** The content of a lock taken by this process (and its Slurm job, inside one). */
function lockContent(): string {
  const slurmJob = process.env.SLURM_JOB_ID || undefined;
  const slurmRestart = slurmJob ? slurmRestartCount() : undefined;
  return JSON.stringify({ pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString(), pidStart: processStartTicks(process.pid), slurmJob, slurmRestart });
}

/** How many times Slurm has restarted (requeued) this job: 0 on its first run. */
function slurmRestartCount(): number {
  return Number(process.env.SLURM_RESTART_COUNT ?? 0) || 0;
}

/** Job states in which a Slurm job's processes may still run (and write). */
const SLURM_LIVE_STATES = new Set(['RUNNING', 'COMPLETING', 'CONFIGURING', 'SUSPENDED', 'STOPPED', 'SIGNALING', 'STAGE_OUT', 'RESIZING']);

/**
 * Whether the Slurm job that took a lock on another node is over, so the lock
 * is stale: e.g. an array task resubmitted after its node died lands on
 * another node. Our own job id with a lower restart count means an earlier
 * run of this very job (Slurm requeued it), which cannot be running beside
 * us. Otherwise `squeue` tells; when it cannot (not found, controller down)
 * the lock is kept.
 */
function slurmJobOver(job: string, restart: number): boolean {
  if (job === process.env.SLURM_JOB_ID) return restart < slurmRestartCount();
  const q = spawnSync('squeue', ['--noheader', '--states=all', '--jobs', job, '--format=%T'], { encoding: 'utf8', timeout: 30_000 });
  if (q.error) return false;
  if (q.status !== 0) return /invalid job id/i.test(q.stderr ?? ''); // purged from the controller: long over
  const states = q.stdout.split('\n').map((s) => s.trim()).filter(Boolean);
  return !states.some((s) => SLURM_LIVE_STATES.has(s));
}

/**
 * Locks held by this process (results file → nesting depth): a process that
 * already holds a file's lock (e.g. `schedlab paper` around its shard merge
 * and run) may take it again.
 */
const heldLocks = new Map<string, number>();

/**
 * Take the lock of a results file (`<file>.lock`, holding pid, host and start
 * time) before reading it for a rewrite or writing it; throws naming the
 * holder when another live process has it.
 *
 * Why it is atomic: the lock's content is written to a private file first and
 * link()ed into place, which creates the lock with its content or fails when
 * it exists — no one ever reads a half-written lock and takes it for stale.
 * A stale lock (its process is dead on this host, its Slurm job on another
 * node is over, or `breakLock`) is removed
 * only while holding a second lock `<file>.lock.break` (also link()ed), after
 * reading the lock again under it: two processes can never both remove a
 * lock, and nobody removes a lock created after it was judged stale (the
 * stale one still blocks every creation until it is removed).
 */
export function lockResults(file: string, options: { breakLock?: boolean } = {}): void {
  const abs = path.resolve(file);
  const depth = heldLocks.get(abs);
  if (depth !== undefined) {
    heldLocks.set(abs, depth + 1);
    return;
  }
  const lockFile = abs + '.lock';
  const me = lockContent();
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      if (linkNew(lockFile, me)) {
        heldLocks.set(abs, 1);
        return;
      }
      const holder = readLock(lockFile);
      if (holder === undefined) continue; // released meanwhile
      if (!isStale(holder, options.breakLock ?? false)) {
        const job = holder.slurmJob !== undefined ? ` (Slurm job ${holder.slurmJob})` : '';
        const busy = Object.assign(new Error(`it is being written by process ${holder.pid} on ${holder.host}${job} since ${holder.startedAt ?? '?'}`), { code: 'ELOCKED' });
        throw new OutputError('lock', abs, busy, `if no run is active any more, delete ${lockFile} or pass --break-lock`);
      }
      removeStaleLock(lockFile, holder);
      sleepMs(5 * (attempt + 1)); // another process may be breaking or re-taking it
    }
  } catch (e) {
    if (e instanceof OutputError) throw e;
    if ((e as NodeJS.ErrnoException).code !== undefined) throw new OutputError('create the lock file', lockFile, e);
    throw e;
  }
  throw new OutputError('lock', abs, Object.assign(new Error('the lock keeps changing hands'), { code: 'ELOCKED' }));
}

/** Give back a lock taken with `lockResults` (the file is removed at the outermost release). */
export function unlockResults(file: string): void {
  const abs = path.resolve(file);
  const depth = heldLocks.get(abs);
  if (depth === undefined) return;
  if (depth > 1) {
    heldLocks.set(abs, depth - 1);
    return;
  }
  heldLocks.delete(abs);
  const lock = readLock(abs + '.lock');
  if (lock && lock.pid === process.pid && lock.host === os.hostname()) fs.rmSync(abs + '.lock', { force: true });
}

/** Run `fn` holding the results file's lock. */
export function withResultsLock<T>(file: string, fn: () => T, options: { breakLock?: boolean } = {}): T {
  lockResults(file, options);
  try {
    return fn();
  } finally {
    unlockResults(file);
  }
}

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

type LockContent = { pid?: number; host?: string; startedAt?: string; pidStart?: number; slurmJob?: string; slurmRestart?: number; raw: string };

/** Create `target` holding `content`, atomically; false when it exists. */
function linkNew(target: string, content: string): boolean {
  const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(tmp, content);
  try {
    fs.linkSync(tmp, target);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

function readLock(lockFile: string): LockContent | undefined {
  let raw: string;
  try {
    raw = fs.readFileSync(lockFile, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return { ...JSON.parse(raw), raw };
  } catch {
    return { raw }; // written by hand or by an older version: judged by its age below
  }
}

function isStale(holder: LockContent, breakLock: boolean): boolean {
  if (breakLock) return true;
  if (holder.pid === undefined) return true;
  if (holder.host !== os.hostname()) return holder.slurmJob !== undefined && slurmJobOver(String(holder.slurmJob), Number(holder.slurmRestart ?? 0));
  if (!pidAlive(holder.pid)) return true;
  // Alive, but perhaps another process that got the dead holder's pid.
  const started = processStartTicks(holder.pid);
  return holder.pidStart !== undefined && started !== undefined && started !== holder.pidStart;
}

/** Remove `lockFile` if it still holds `seen`, under the break lock. */
function removeStaleLock(lockFile: string, seen: LockContent): void {
  const breaker = lockFile + '.break';
  const me = lockContent();
  if (!linkNew(breaker, me)) {
    // Another process is breaking the lock. A break lock left by a dead process
    // (it crashed in these few lines) is removed once it is old enough.
    const b = readLock(breaker);
    let age = 0;
    try {
      age = Date.now() - fs.statSync(breaker).mtimeMs;
    } catch {
      return;
    }
    if (b && b.host === os.hostname() && b.pid !== undefined && !pidAlive(b.pid) && age > 10_000) fs.rmSync(breaker, { force: true });
    return;
  }
  try {
    const now = readLock(lockFile);
    if (now && now.raw === seen.raw) fs.rmSync(lockFile, { force: true });
  } finally {
    fs.rmSync(breaker, { force: true });
  }
}

/** schedlab's version, from its package.json. */
export function toolkitVersion(): string {
  const pkg = path.resolve(__dirname, '..', '..', 'package.json');
  try {
    return String(JSON.parse(fs.readFileSync(pkg, 'utf8')).version);
  } catch {
    throw new Error(`cannot read the schedlab version from ${pkg}`);
  }
}
