/**
 * A content-addressed cache of values computed from files (e.g. the claims
 * evaluated on a notebook's committed paper-scale results), so that a second
 * kernel does not decode the same records to print the same first screen.
 *
 * Nothing in it is trusted unchecked. An entry is found by a key that holds
 * the digest of the code that is running (every file of the compiled package,
 * or of src/ under ts-node), the versions of its installed dependencies, the
 * Node version and the caller's key; it names the files the computation read
 * with their SHA-256 (or that they did not exist), and is used only if each
 * still has that digest. The entry is sealed
 * by the SHA-256 of its text: a truncated or corrupt entry is ignored and
 * recomputed. Entries are written whole (temporary file, then rename), so two
 * kernels racing on one entry each see a whole one.
 *
 * Where: `SCHEDLAB_CACHE` (a folder; `off` disables the cache), by default
 * `<schedlab>/.cache` (ignored by git): an entry names this clone's files, so
 * it is of no use to another clone, and it goes with the clone.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/** Bump when the entry layout changes: older entries then miss. */
const FORMAT = 1;
/** Entries kept per (kind, name): older ones (code or results that changed since) are removed on write. */
const KEEP = 4;

/** The package root (`<schedlab>`): this file is `<root>/src/util/cache.ts` or `<root>/dist/util/cache.js`. */
const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');
/** The code that is running: `dist/` when compiled, `src/` under ts-node. */
const CODE_ROOT = path.resolve(__dirname, '..');

/** SHA-256 (hex) of a file's bytes, read in chunks. */
export function sha256File(file: string): string {
  const h = createHash('sha256');
  const buf = Buffer.alloc(1 << 20);
  const fd = fs.openSync(file, 'r');
  try {
    for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0; ) h.update(buf.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return h.digest('hex');
}

/** SHA-256 of a file, null when it does not exist (hashed every time: a file rewritten within a timestamp's granularity is still seen). */
function digestOrNull(file: string): string | null {
  try {
    return sha256File(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

const codeDigests = new Map<string, string>();

/**
 * SHA-256 over every file under `root` (default: the running package's code),
 * with their relative names: any change to the code that computed an entry
 * makes it miss. Computed once per process and root.
 */
export function codeDigest(root: string = CODE_ROOT): string {
  const known = codeDigests.get(root);
  if (known) return known;
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) files.push(p);
    }
  };
  walk(root);
  const h = createHash('sha256');
  for (const f of files.sort()) {
    const bytes = fs.readFileSync(f);
    h.update(`${path.relative(root, f).split(path.sep).join('/')}\0${bytes.length}\0`).update(bytes);
  }
  const digest = h.digest('hex');
  codeDigests.set(root, digest);
  return digest;
}

/** The cache folder, null when `SCHEDLAB_CACHE=off`. */
export function cacheRoot(): string | null {
  const env = process.env.SCHEDLAB_CACHE;
  if (env === 'off') return null;
  return env ? path.resolve(env) : path.join(PACKAGE_ROOT, '.cache');
}

/** Which entry: what is computed (`kind`, e.g. 'claims'), for what (`name`, e.g. the notebook) and anything else the value depends on (`key`, JSON). */
export interface CacheKey {
  kind: string;
  name: string;
  key?: unknown;
  /** The code the value depends on (default: the running package's). */
  codeRoot?: string;
}

/** A file a cached value was computed from, with its SHA-256 then (null: it did not exist). */
export interface CacheInput {
  file: string;
  sha256: string | null;
}

const dependencyLists = new Map<string, string[]>();

/**
 * `name@version` of each dependency in the package.json of `root` (default:
 * the running package), as Node would resolve it from there ("name@-" when
 * not installed): upgrading a library the cached value was computed with makes
 * it miss. Read once per process and root.
 */
export function dependencyVersions(root: string = PACKAGE_ROOT): string[] {
  const known = dependencyLists.get(root);
  if (known) return known;
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const list = Object.keys(pkg.dependencies ?? {})
    .sort()
    .map((dep) => {
      // The node_modules folders Node searches from root, nearest first (a package's exports may hide its package.json from require.resolve).
      for (let dir = root; ; dir = path.dirname(dir)) {
        const file = path.join(dir, 'node_modules', dep, 'package.json');
        if (fs.existsSync(file)) return `${dep}@${(JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: string }).version ?? '?'}`;
        if (path.dirname(dir) === dir) return `${dep}@-`;
      }
    });
  dependencyLists.set(root, list);
  return list;
}

function keyDigest(k: CacheKey): string {
  return createHash('sha256')
    .update(JSON.stringify([FORMAT, k.kind, k.name, codeDigest(k.codeRoot), dependencyVersions(), process.version, k.key ?? null]))
    .digest('hex');
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_');
}

/** The entry file of a key (null when the cache is off). */
export function cacheEntryFile(k: CacheKey): string | null {
  const root = cacheRoot();
  return root === null ? null : path.join(root, safeName(k.kind), `${safeName(k.name)}-${keyDigest(k).slice(0, 32)}.json`);
}

/**
 * JSON with the numbers JSON cannot hold (NaN, ±Infinity, -0) kept, as
 * `{"$number": "NaN"}`: a value read back equals the value written.
 */
function encode(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, k: string, v: unknown) {
    const raw = this[k];
    return typeof raw === 'number' && (!Number.isFinite(raw) || Object.is(raw, -0)) ? { $number: Object.is(raw, -0) ? '-0' : String(raw) } : v;
  });
}

function decode<T>(text: string): T {
  return JSON.parse(text, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 && typeof v.$number === 'string' ? Number(v.$number) : v)) as T;
}

/** A value as it reads back from an entry (what a cold and a warm cache both return). */
export function throughCache<T>(value: T): T {
  return decode<T>(encode(value));
}

/** The text of an entry: its SHA-256, a newline, then the body. */
export function sealEntry(body: { key: string; inputs: CacheInput[]; value: unknown }): string {
  const text = JSON.stringify({ format: FORMAT, key: body.key, inputs: body.inputs, value: encode(body.value) });
  return `${createHash('sha256').update(text).digest('hex')}\n${text}`;
}

/** The body of an entry's text when its seal holds, else null. */
export function openEntry(text: string): { format: number; key: string; inputs: CacheInput[]; value: string } | null {
  const nl = text.indexOf('\n');
  if (nl !== 64) return null;
  const body = text.slice(nl + 1);
  if (createHash('sha256').update(body).digest('hex') !== text.slice(0, nl)) return null;
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}

/** The cached value of a key, when its entry is whole and every file it was computed from is unchanged; else undefined. */
export function readCached<T>(k: CacheKey): T | undefined {
  const file = cacheEntryFile(k);
  if (file === null) return undefined;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const entry = openEntry(text);
  if (!entry || entry.format !== FORMAT || entry.key !== keyDigest(k) || !Array.isArray(entry.inputs)) return undefined;
  try {
    for (const input of entry.inputs) if (digestOrNull(input.file) !== input.sha256) return undefined;
    return decode<T>(entry.value);
  } catch {
    return undefined; // an input that cannot be read: the computation says why
  }
}

/**
 * Write a key's entry: `value` computed from `inputs` (files, existing or
 * not). `unchanged` is asked after the inputs are hashed: false (a file was
 * replaced while the value was computed) writes nothing. A cache that cannot
 * be written is skipped: the value is still right, only not kept.
 */
export function writeCached(k: CacheKey, inputs: readonly string[], value: unknown, unchanged: () => boolean = () => true): void {
  const file = cacheEntryFile(k);
  if (file === null) return;
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    const recorded = [...new Set(inputs)].sort().map((f) => ({ file: f, sha256: digestOrNull(f) }));
    if (!unchanged()) return;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(tmp, sealEntry({ key: keyDigest(k), inputs: recorded, value }));
    fs.renameSync(tmp, file);
    prune(file, `${safeName(k.name)}-`);
  } catch {
    fs.rmSync(tmp, { force: true });
  }
}

/** Keep the newest KEEP entries of one (kind, name) beside `file`. */
function prune(file: string, prefix: string): void {
  const dir = path.dirname(file);
  const entries = fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && /^[0-9a-f]{32}\.json$/.test(f.slice(prefix.length)))
    .map((f) => path.join(dir, f))
    .filter((f) => f !== file)
    .map((f) => ({ f, t: fs.statSync(f, { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.t - a.t);
  for (const { f } of entries.slice(KEEP - 1)) fs.rmSync(f, { force: true });
}
