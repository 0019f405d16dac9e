/**
 * Typed errors of the toolkit. Everything schedlab throws on purpose is a
 * {@link SchedlabError}, so callers can tell "the input or the environment is
 * wrong" (catch and report) from a bug (let it crash):
 *
 *   SchedlabError
 *   ├── InputError      bad input: file, parameter, name, flag — says where (source, line, field)
 *   │   ├── SwfError    a malformed SWF line (workloads/swf.ts)
 *   │   └── UsageError  a bad command-line flag (cli/)
 *   ├── OutputError     results could not be written (full disk, unwritable folder); names the path
 *   ├── SolverError     an LP solver failed, timed out, or returned a solution that does not check
 *   ├── PolicyError     a user policy threw, or overran its time budget (util/policy-guard.ts)
 *   └── InvariantError  a scheduler broke one of its invariants (util/invariants.ts; a bug)
 *
 * Messages always start with the place (`file:line: field: …`, or the
 * function / option name) so they can be read without a stack trace.
 *
 * {@link writeFileSafely} writes an output file so that a failure (full
 * disk, unwritable folder) is an OutputError and never leaves a half-written
 * file behind.
 */
import * as fs from 'fs';
import * as nodePath from 'path';

/** Base class of every error the toolkit throws on purpose. */
export class SchedlabError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Where a piece of bad input is. */
export interface InputLocation {
  /** File path, function name (`generateLublin`), command (`schedlab simulate`) or definition name. */
  source: string;
  /** 1-based line number in `source`, when it is a file. */
  line?: number;
  /** Field, parameter or flag that is wrong (`field 4 (run time)`, `machineSize`, `--policy`). */
  field?: string;
}

/**
 * Bad input: the message names what is wrong and where. `source`, `line` and
 * `field` carry the same information for programs.
 */
export class InputError extends SchedlabError {
  readonly source: string;
  readonly line?: number;
  readonly field?: string;

  /** `message` is the whole text; the source is put in front unless the message already starts with it. */
  constructor(message: string, where: InputLocation) {
    super(message.startsWith(where.source) ? message : `${where.source}: ${message}`);
    this.source = where.source;
    if (where.line !== undefined) this.line = where.line;
    if (where.field !== undefined) this.field = where.field;
  }
}

/** A bad command-line flag or argument. `field` is the flag (`--policy`). */
export class UsageError extends InputError {
  constructor(message: string, where: Partial<InputLocation> = {}) {
    super(message, { source: where.source ?? '', ...(where.field !== undefined ? { field: where.field } : {}) });
    // The CLI prints its own prefix (`schedlab simulate: …`), so the message is kept as given.
    this.message = message;
  }
}

/**
 * Results could not be written. `path` is the file or folder, `code` the
 * system error code (ENOSPC, ENOTDIR, EACCES, EROFS, …) when there is one.
 * Whatever had been written completely before the error is left in place.
 */
export class OutputError extends SchedlabError {
  readonly path: string;
  readonly code?: string;
  readonly operation: string;

  /**
   * @param operation what was attempted, e.g. `append a result to`
   * @param cause the system error (its code is kept in `code`)
   * @param hint what the user can do, appended to the message
   */
  constructor(operation: string, path: string, cause: unknown, hint?: string) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    super(`cannot ${operation} ${path}: ${explainFsError(cause)}${hint ? `; ${hint}` : ''}`);
    this.path = path;
    this.operation = operation;
    this.cause = cause;
    if (code !== undefined) this.code = code;
  }
}

/** What went wrong in a solver call. */
export type SolverFailure = 'failure' | 'timeout' | 'unbounded' | 'inconsistent' | 'too-large';

/** A solver failed, exceeded its time budget, or returned a result that does not check out. */
export class SolverError extends SchedlabError {
  readonly solver: string;
  readonly kind: SolverFailure;

  constructor(solver: string, kind: SolverFailure, detail: string) {
    super(`${solver}: ${kind}: ${detail}`);
    this.solver = solver;
    this.kind = kind;
  }
}

/** How a policy call failed: it threw, it returned after its time budget, or it did not return (stopped by a watchdog). */
export type PolicyFailure = 'threw' | 'over-budget' | 'no-return';

/** Which policy call: the policy, where it was loaded from, the decision it was making and the simulated time. */
export interface PolicyCall {
  policy: string;
  /** `FILE#EXPORT`, or `portable` for a policy given as source text (absent for an object passed directly). */
  module?: string;
  /** The method called: `schedule`, `onJobSubmitted`, `map`, `score`, … */
  decision: string;
  /** Simulated time of the decision. */
  time: number;
}

/**
 * A user policy failed during a decision: it threw (`cause` is what it
 * threw), or it took longer than the decision time budget. The message names
 * the policy, its module, the decision and the simulated time.
 */
export class PolicyError extends SchedlabError {
  readonly policy: string;
  readonly module?: string;
  readonly decision: string;
  readonly time: number;
  readonly kind: PolicyFailure;

  constructor(kind: PolicyFailure, call: PolicyCall, detail: string, cause?: unknown) {
    super(`policy '${call.policy}'${call.module ? ` (${call.module})` : ''}: ${call.decision} at simulated time ${call.time}: ${detail}`);
    this.kind = kind;
    this.policy = call.policy;
    if (call.module !== undefined) this.module = call.module;
    this.decision = call.decision;
    this.time = call.time;
    if (cause !== undefined) this.cause = cause;
  }
}

const FS_CODES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large',
  ENOTDIR: 'a parent of the path is not a folder',
  EISDIR: 'the path is a folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOENT: 'no such file or folder',
  EEXIST: 'already exists',
  EIO: 'input/output error',
};

/** A system error as a short readable text: `no space left on the device (ENOSPC)`. */
export function explainFsError(e: unknown): string {
  const err = e as NodeJS.ErrnoException | undefined;
  const code = err?.code;
  if (code && FS_CODES[code]) return `${FS_CODES[code]} (${code})`;
  if (err instanceof Error) return err.message;
  return String(e);
}

/**
 * Create folder `dir` and its missing parents, one level at a time. Node's
 * `mkdirSync(dir, {recursive: true})` loops for ever when the file system
 * answers ENOENT for a folder that cannot be created (e.g. under /proc);
 * here every failure is an OutputError naming the folder.
 */
export function makeFolder(dir: string): void {
  const target = nodePath.resolve(dir);
  const missing: string[] = [];
  for (let d = target; ; d = nodePath.dirname(d)) {
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(d);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') throw new OutputError('create the folder', target, e);
    }
    if (st) {
      if (!st.isDirectory()) throw new OutputError('create the folder', target, Object.assign(new Error(`${d} is not a folder`), { code: 'ENOTDIR' }));
      break;
    }
    missing.push(d);
    if (nodePath.dirname(d) === d) break;
  }
  for (const d of missing.reverse()) {
    try {
      fs.mkdirSync(d);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST' && fs.statSync(d).isDirectory()) continue; // made meanwhile
      throw new OutputError('create the folder', target, e);
    }
  }
}

/**
 * Write `data` to `file` all or nothing: into a temporary file in the same
 * folder, then renamed over `file`. On any failure (no space, a parent that
 * is not a folder, a read-only file system) the temporary file is removed,
 * an existing `file` is left as it was, and an {@link OutputError} naming the
 * path and the cause is thrown. Missing parent folders are created. A target
 * that exists and is not a regular file (a device such as /dev/null, a pipe)
 * is written directly, since it cannot be replaced by a rename.
 */
/** Write a string, bytes, or a sequence of strings (streamed in ~1 MiB writes, never one big string). */
function writeAll(file: string, data: string | Uint8Array | Iterable<string>): void {
  const fd = fs.openSync(file, 'w');
  try {
    const writeFully = (text: string | Uint8Array) => {
      const buf = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
      for (let off = 0; off < buf.length; ) off += fs.writeSync(fd, buf, off, buf.length - off);
    };
    if (typeof data === 'string' || data instanceof Uint8Array) {
      writeFully(data);
      return;
    }
    let buffered: string[] = [];
    let size = 0;
    for (const piece of data) {
      buffered.push(piece);
      size += piece.length;
      if (size >= 1 << 20) {
        writeFully(buffered.join(''));
        buffered = [];
        size = 0;
      }
    }
    if (buffered.length) writeFully(buffered.join(''));
  } finally {
    fs.closeSync(fd);
  }
}

/** Write a file whole or not at all (temporary file, then rename); an OutputError naming the path on failure. */
export function writeFileSafely(file: string, data: string | Uint8Array | Iterable<string>): void {
  const target = nodePath.resolve(file);
  let existing: fs.Stats | undefined;
  try {
    existing = fs.statSync(target);
  } catch {
    existing = undefined;
  }
  if (existing?.isDirectory()) throw new OutputError('write', target, Object.assign(new Error('is a folder'), { code: 'EISDIR' }));
  if (existing && !existing.isFile()) {
    try {
      writeAll(target, data);
    } catch (e) {
      throw new OutputError('write', target, e);
    }
    return;
  }
  makeFolder(nodePath.dirname(target));
  const tmp = `${target}.tmp-${process.pid}`;
  try {
    writeAll(tmp, data);
    fs.renameSync(tmp, target);
  } catch (e) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      /* never created */
    }
    throw new OutputError('write', target, e);
  }
}
