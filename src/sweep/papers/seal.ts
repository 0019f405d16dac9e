/**
 * The committed pair `results/<notebook>/<sweep>.jsonl.gz` + `provenance.json`:
 * how it is written (both files as one atomic step) and how it is checked
 * before anything in it is trusted (digest, size, record count, fields).
 *
 * Atomic pair, by a redo record: a publication writes `<gz>.next`, then
 * `provenance.json.next` (each complete, flushed, then renamed into place),
 * and only then renames both over the published files. `provenance.json.next`
 * is the commit point: while it exists, it and `<gz>.next` (or `<gz>` once
 * renamed) are the published pair; before it exists the old pair is. So a
 * kill at any moment leaves the old pair or the new one, never a mix: readers
 * resolve the pair that way without writing, and the next publication (or
 * `--reseal`) finishes the renames first.
 */
import { createHash } from 'crypto';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { TOOLKIT_ROOT } from '../cellmodule';
import { InputError, OutputError } from '../../util/errors';

/** Where published results came from: notebook, sweep fingerprint and version, commit, digest and counts of the results file. */
export interface Provenance {
  notebook: string;
  sweep: string;
  sweepVersion: string | null;
  /** Fingerprint of the sweep definition the records were computed for. */
  definition: string;
  commit: string | null;
  command: string;
  machine: { cores: number; cpu: string; platform: string; node: string };
  /** Sum of the cells' run times (ms) and the span from the first cell's start to the last cell's end. */
  cellTimeMs: number;
  wallTimeMs: number;
  cells: number;
  ok: number;
  failed: number;
  missing: number;
  publishedAt: string;
  /** SHA-256 (hex) of the committed `.jsonl.gz` file's bytes (`sha256sum` prints the same). */
  sha256: string;
  /** Size of the `.jsonl.gz` file in bytes. */
  bytes: number;
  /** Records (lines) in the file: one per finished cell. */
  records: number;
  /** SHA-256 of the toolkit's sources (`src/**.ts`) the records were computed with; null when unknown. */
  sourceDigest: string | null;
}

export const PROVENANCE = 'provenance.json';

/**
 * The provenance file of a committed results file: `provenance.json` for a
 * notebook's sweep (`<notebook>/<notebook>.jsonl.gz`), `<stem>.provenance.json`
 * for another sweep committed beside it (one lock and one pair per sweep).
 */
export function provenanceOf(gz: string): string {
  const dir = path.dirname(gz);
  const stem = path.basename(gz).replace(/\.jsonl\.gz$/, '');
  return path.join(dir, stem === path.basename(dir) ? PROVENANCE : `${stem}.${PROVENANCE}`);
}
const NEXT = '.next';

export { sha256File } from '../../util/cache';

/** The files of a sweep's committed pair as readers must take them (a committed but unfinished publication counts). */
export function committedPair(gz: string): { provenance: string; data: string; pending: boolean } {
  const prov = provenanceOf(gz);
  if (fs.existsSync(prov + NEXT)) return { provenance: prov + NEXT, data: fs.existsSync(gz + NEXT) ? gz + NEXT : gz, pending: true };
  return { provenance: prov, data: gz, pending: false };
}

function fsyncPath(p: string): void {
  const fd = fs.openSync(p, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Write `file` complete and flushed, then rename it into place: it exists whole or not at all. */
function writeWhole(file: string, data: Buffer | string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const fd = fs.openSync(tmp, 'w');
    try {
      const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      for (let off = 0; off < buf.length; ) off += fs.writeSync(fd, buf, off, buf.length - off);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Finish a publication that was committed (`provenance.json.next` exists) but
 * interrupted before its renames, and drop one that was not (a lone `<gz>.next`).
 * Call with the pair's lock held.
 */
export function finishPublication(gz: string): void {
  const dir = path.dirname(gz);
  const prov = provenanceOf(gz);
  try {
    if (fs.existsSync(prov + NEXT)) {
      if (fs.existsSync(gz + NEXT)) fs.renameSync(gz + NEXT, gz);
      fs.renameSync(prov + NEXT, prov);
      fsyncPath(dir);
    } else fs.rmSync(gz + NEXT, { force: true });
  } catch (e) {
    throw new OutputError('finish the interrupted publication in', dir, e);
  }
}

/**
 * Replace the committed pair by `data` (the new `.gz` bytes; null keeps the
 * file as it is) and `provenance`, as one atomic step (see the file comment).
 * Call with the pair's lock held.
 */
export function writePair(gz: string, data: Buffer | null, provenance: Provenance): void {
  const dir = path.dirname(gz);
  finishPublication(gz);
  try {
    if (data) writeWhole(gz + NEXT, data);
    writeWhole(provenanceOf(gz) + NEXT, JSON.stringify(provenance, null, 2) + '\n');
    fsyncPath(dir);
  } catch (e) {
    fs.rmSync(gz + NEXT, { force: true });
    throw new OutputError('write the committed results', gz, e);
  }
  finishPublication(gz);
}

let digestCache: string | null | undefined;

/**
 * SHA-256 over the toolkit's TypeScript sources (`src/**.ts`, path and bytes
 * in path order): what a committed record was computed with. Null when the
 * sources are not there (an installed package).
 */
export function sourceDigest(): string | null {
  if (digestCache !== undefined) return digestCache;
  const src = path.join(TOOLKIT_ROOT, 'src');
  if (!fs.existsSync(src)) return (digestCache = null);
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) files.push(path.relative(TOOLKIT_ROOT, p).split(path.sep).join('/'));
    }
  };
  walk(src);
  return (digestCache = digestOf(files.sort().map((f) => [f, fs.readFileSync(path.join(TOOLKIT_ROOT, f))])));
}

function digestOf(files: [string, Buffer][]): string {
  const h = createHash('sha256');
  for (const [name, bytes] of files) h.update(`${name}\0${bytes.length}\0`).update(bytes);
  return h.digest('hex');
}

function git(args: string[], input?: string): Buffer {
  return execFileSync('git', args, { cwd: TOOLKIT_ROOT, input, stdio: ['pipe', 'pipe', 'ignore'], maxBuffer: 1 << 30 });
}

/** `sourceDigest()` of the sources at a git commit (for provenance written before digests were recorded); null without git. */
export function sourceDigestAt(commit: string): string | null {
  try {
    const names = git(['ls-tree', '-r', '--name-only', commit, '--', 'src'])
      .toString('utf8')
      .split('\n')
      .filter((f) => f.endsWith('.ts'))
      .sort();
    const out = git(['cat-file', '--batch'], names.map((f) => `${commit}:${f}\n`).join(''));
    const files: [string, Buffer][] = [];
    let at = 0;
    for (const name of names) {
      const nl = out.indexOf(0x0a, at);
      const size = Number(out.subarray(at, nl).toString('utf8').split(' ')[2]);
      files.push([name, out.subarray(nl + 1, nl + 1 + size)]);
      at = nl + 1 + size + 1;
    }
    return digestOf(files);
  } catch {
    return null;
  }
}

/** The current commit (`<sha>+modified-src` when src/ has uncommitted changes), null without git. */
export function gitCommit(): string | null {
  try {
    const head = git(['rev-parse', 'HEAD']).toString().trim();
    const dirty = git(['status', '--porcelain', '--untracked-files=no', 'src']).toString().trim();
    return dirty ? `${head}+modified-src` : head;
  } catch {
    return null;
  }
}

const commitSeen = new Map<string, boolean | null>();

/** Whether a commit exists in the toolkit's repository: null when that cannot be told (no git, or a shallow clone). */
export function commitKnown(commit: string): boolean | null {
  const sha = commit.replace(/\+modified-src$/, '');
  if (!commitSeen.has(sha)) {
    let known: boolean | null;
    try {
      known = git(['rev-parse', '--is-shallow-repository']).toString().trim() === 'true' ? null : true;
    } catch {
      known = null;
    }
    if (known) {
      try {
        git(['cat-file', '-e', `${sha}^{commit}`]);
      } catch {
        known = false;
      }
    }
    commitSeen.set(sha, known);
  }
  return commitSeen.get(sha)!;
}

const FIELDS: [keyof Provenance, (v: unknown) => boolean, string][] = [
  ['notebook', (v) => typeof v === 'string', 'a string'],
  ['sweep', (v) => typeof v === 'string', 'a string'],
  ['sweepVersion', (v) => v === null || typeof v === 'string', 'a string or null'],
  ['definition', (v) => typeof v === 'string' && /^[0-9a-f]+$/.test(v), 'a hex fingerprint'],
  ['commit', (v) => v === null || (typeof v === 'string' && /^[0-9a-f]{40}(\+modified-src)?$/.test(v)), 'a 40-digit commit or null'],
  ['cells', (v) => Number.isInteger(v) && (v as number) >= 0, 'a whole number'],
  ['ok', (v) => Number.isInteger(v) && (v as number) >= 0, 'a whole number'],
  ['failed', (v) => Number.isInteger(v) && (v as number) >= 0, 'a whole number'],
  ['missing', (v) => Number.isInteger(v) && (v as number) >= 0, 'a whole number'],
  ['sha256', (v) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v), '64 hex digits'],
  ['bytes', (v) => Number.isInteger(v) && (v as number) >= 0, 'a whole number'],
  ['records', (v) => Number.isInteger(v) && (v as number) >= 0, 'a whole number'],
  ['sourceDigest', (v) => v === null || (typeof v === 'string' && /^[0-9a-f]{64}$/.test(v)), '64 hex digits or null'],
];

/**
 * Read and check a provenance file: valid JSON, every field present with its
 * type, counts that add up. `unsealed` accepts one written before digests
 * were recorded (no sha256/bytes/records/sourceDigest), for `--reseal`.
 */
export function readProvenance(file: string, options: { unsealed?: boolean; reseal?: string } = {}): Provenance {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read the provenance: ${(e as Error).message}`, { source: file });
  }
  let obj: Record<string, unknown>;
  try {
    obj = JSON.parse(text);
  } catch (e) {
    throw new InputError(`not valid JSON (${(e as Error).message}; ${text.length} bytes): the file was cut or edited; restore it with \`git checkout -- ${file}\``, { source: file });
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw new InputError('not a JSON object', { source: file });
  const sealFields = new Set<keyof Provenance>(['sha256', 'bytes', 'records', 'sourceDigest']);
  for (const [field, ok, what] of FIELDS) {
    if (!(field in obj)) {
      if (options.unsealed && sealFields.has(field)) continue;
      const hint = sealFields.has(field) ? ` (published before digests were recorded: check the records and run \`${options.reseal ?? 'schedlab paper <notebook> --reseal'}\`)` : '';
      throw new InputError(`field "${field}" is missing${hint}`, { source: file, field });
    }
    if (!ok(obj[field])) throw new InputError(`field "${field}" must be ${what}, got ${JSON.stringify(obj[field])}`, { source: file, field });
  }
  const p = obj as unknown as Provenance;
  if (p.ok + p.failed + p.missing !== p.cells) throw new InputError(`counts do not add up: ok ${p.ok} + failed ${p.failed} + missing ${p.missing} ≠ cells ${p.cells}`, { source: file, field: 'cells' });
  if ('records' in obj && p.records !== p.ok + p.failed) throw new InputError(`records ${p.records} ≠ ok ${p.ok} + failed ${p.failed}`, { source: file, field: 'records' });
  if (p.commit !== null && commitKnown(p.commit) === false) {
    throw new InputError(`commit ${p.commit} is not a commit of this repository: the provenance does not say where the results come from`, { source: file, field: 'commit' });
  }
  return p;
}

/**
 * Check a committed `.gz` against its provenance's size and digest (before it
 * is decompressed), and return the bytes that were checked: every caller
 * decompresses them next, so the file is read once.
 */
export function checkDigest(data: string, provenance: Provenance, provenanceFile: string): Buffer {
  let size: number;
  try {
    const st = fs.statSync(data);
    if (!st.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EISDIR' });
    size = st.size;
  } catch (e) {
    throw new InputError(`${provenanceFile} describes ${data}, which cannot be read: ${(e as Error).message}`, { source: data });
  }
  if (size !== provenance.bytes) {
    throw new InputError(
      `${size < provenance.bytes ? 'truncated' : 'changed since it was published'}: ${size} bytes, but ${provenanceFile} says ${provenance.bytes}; restore it with \`git checkout -- ${data}\``,
      { source: data, field: 'bytes' },
    );
  }
  const bytes = fs.readFileSync(data);
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== provenance.sha256) {
    throw new InputError(
      `content changed since it was published: sha256 ${actual}, but ${provenanceFile} says ${provenance.sha256}; restore it with \`git checkout -- ${data}\``,
      { source: data, field: 'sha256' },
    );
  }
  return bytes;
}
