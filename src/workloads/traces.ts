/**
 * Real traces by name. Traces are data, not code: `data/traces.json` (the
 * manifest) names each trace, its archive URL, the sha256 of the
 * uncompressed SWF, its job-line count and machine size; the files live in a
 * trace directory that is not committed.
 *
 * Lookup order: `options.dir` (one or several), else `$SCHEDLAB_TRACE_DIR`,
 * else `<repo>/data/traces/`, then `<repo>/../shared/data/traces/` when it
 * exists. `<repo>` is found from this file's location, not the working
 * directory, so notebooks and the CLI agree. The checksum is verified on
 * every load and after every download.
 */
import type * as Crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as zlib from 'zlib';
import { isGzip, parseSwfBytes, readUncompressedSync, SwfReadOptions, SwfReadResult } from './swf';
import { InputError } from '../util/errors';

/** A trace of the manifest: name, file, archive URL, checksum and machine size. */
export interface TraceInfo {
  /** Short name, e.g. "KTH-SP2". */
  name: string;
  /** File name in the trace directory, e.g. "KTH-SP2-1996-2.1-cln.swf.gz". */
  file: string;
  archiveUrl: string;
  /** sha256 (hex) of the uncompressed SWF text. */
  sha256: string;
  /** Number of job lines in the file. */
  jobs: number;
  /** Processors in the machine (header MaxProcs). */
  machineSize: number;
}

/** Options of `loadTrace`: the SWF read options, where to look for the file and whether to verify its checksum. */
export interface TraceLoadOptions extends Omit<SwfReadOptions, 'fileName'> {
  /** Trace directory or directories to search instead of the defaults. */
  dir?: string | string[];
  /** Verify the sha256 (default true). */
  verify?: boolean;
}

/** A loaded trace: the SWF read result and its manifest entry. */
export interface TraceLoadResult extends SwfReadResult {
  info: TraceInfo;
  /** File the trace was read from. */
  path: string;
}

import { repoRoot } from '../util/repo';

export { repoRoot };

/** The trace manifest (data/traces.json). */
export function traceManifest(): TraceInfo[] {
  const file = path.join(repoRoot(), 'data', 'traces.json');
  if (!fs.existsSync(file)) throw new InputError(`trace manifest not found: ${file}`, { source: file });
  let traces: unknown;
  try {
    traces = JSON.parse(fs.readFileSync(file, 'utf8')).traces;
  } catch (e) {
    throw new InputError(`${file}: not a valid trace manifest: ${(e as Error).message}`, { source: file });
  }
  if (!Array.isArray(traces)) throw new InputError(`${file}: "traces" must be a list`, { source: file, field: 'traces' });
  return traces as TraceInfo[];
}

/** Manifest entry by short name or file name (case-insensitive; ".swf"/".gz" optional). */
export function traceInfo(name: string): TraceInfo {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new InputError(`trace name must be a non-empty string, got ${JSON.stringify(name)}`, { source: 'trace name', field: 'name' });
  }
  const key = name.toLowerCase().replace(/\.gz$/, '').replace(/\.swf$/, '');
  const all = traceManifest();
  const hit = all.find((t) => t.name.toLowerCase() === key || t.file.toLowerCase().replace(/\.swf\.gz$/, '') === key);
  if (!hit) throw new InputError(`unknown trace '${name}'; known traces: ${all.map((t) => t.name).join(', ')}`, { source: 'trace name', field: name });
  return hit;
}

/** Directories searched for trace files, in order. */
export function traceDirs(dir?: string | string[]): string[] {
  if (dir !== undefined) return Array.isArray(dir) ? dir : [dir];
  if (process.env.SCHEDLAB_TRACE_DIR) return [process.env.SCHEDLAB_TRACE_DIR];
  const root = repoRoot();
  const dirs = [path.join(root, 'data', 'traces')];
  const shared = path.resolve(root, '..', 'shared', 'data', 'traces');
  if (fs.existsSync(shared)) dirs.push(shared);
  return dirs;
}

/** Path of a trace file, or undefined when it is in none of the directories. */
export function findTrace(name: string, options: { dir?: string | string[] } = {}): string | undefined {
  const info = traceInfo(name);
  const candidates = [info.file, info.file.replace(/\.gz$/, '')];
  for (const d of traceDirs(options.dir)) {
    for (const c of candidates) {
      const p = path.join(d, c);
      if (fs.existsSync(p)) return p;
    }
  }
  return undefined;
}

/** sha256 (hex) of a buffer. */
export function sha256(buf: Uint8Array | string): string {
  // Loaded here, not at the top: most runs read a file by path and never check a checksum.
  const crypto = require('crypto') as typeof Crypto; // eslint-disable-line @typescript-eslint/no-var-requires
  return crypto.createHash('sha256').update(buf).digest('hex');
}

function checksumError(info: TraceInfo, file: string, got: string): InputError {
  return new InputError(`${file}: checksum mismatch for trace '${info.name}': sha256 of the uncompressed file is ${got}, manifest says ${info.sha256}`, { source: file, field: 'sha256' });
}

/** Throw unless the uncompressed content has the manifest checksum. */
export function verifyTraceFile(name: string, file: string): void {
  const info = traceInfo(name);
  const got = sha256(readUncompressedSync(file, 'verifyTraceFile'));
  if (got !== info.sha256) throw checksumError(info, file, got);
}

function missingMessage(info: TraceInfo, dirs: string[]): string {
  return (
    `trace '${info.name}' (${info.file}) not found in: ${dirs.join(', ')}. ` +
    `Put the file in one of these directories, or on a machine with internet run ` +
    `downloadTrace('${info.name}') (source: ${info.archiveUrl}).`
  );
}

/**
 * Load a trace by name: find the file, verify its checksum, parse it. The
 * machine size defaults to the manifest's.
 */
export function loadTraceSync(name: string, options: TraceLoadOptions = {}): TraceLoadResult {
  const info = traceInfo(name);
  const file = findTrace(name, options);
  if (!file) throw new InputError(missingMessage(info, traceDirs(options.dir)), { source: `trace '${info.name}'` });
  const bytes = readUncompressedSync(file, 'loadTrace');
  if (options.verify !== false) {
    const got = sha256(bytes);
    if (got !== info.sha256) throw checksumError(info, file, got);
  }
  const res = parseSwfBytes(bytes, {
    fileName: file,
    lenient: options.lenient,
    machineSize: options.machineSize ?? info.machineSize,
  });
  return { ...res, info, path: file };
}

/**
 * Async form of {@link loadTraceSync} (same result).
 *
 * @example
 * const { jobs, info, report } = await loadTrace('KTH-SP2');
 * console.log(info.machineSize, jobs.length, report.kept);
 */
export async function loadTrace(name: string, options: TraceLoadOptions = {}): Promise<TraceLoadResult> {
  return loadTraceSync(name, options);
}

/**
 * Download a trace from its archive URL into `dir` (default `<repo>/data/traces`),
 * verify the checksum, and return the file path. A file that is already
 * present and valid is not downloaded again. Needs internet access.
 */
export async function downloadTrace(name: string, options: { dir?: string; force?: boolean } = {}): Promise<string> {
  const info = traceInfo(name);
  const dir = options.dir ?? path.join(repoRoot(), 'data', 'traces');
  const dest = path.join(dir, info.file);
  if (!options.force && fs.existsSync(dest)) {
    verifyTraceFile(name, dest);
    return dest;
  }
  fs.mkdirSync(dir, { recursive: true });
  let response: Response;
  try {
    response = await fetch(info.archiveUrl);
  } catch (err) {
    throw new Error(`downloadTrace('${info.name}'): cannot fetch ${info.archiveUrl}: ${(err as Error).message}`);
  }
  if (!response.ok) throw new Error(`downloadTrace('${info.name}'): ${info.archiveUrl} answered HTTP ${response.status}`);
  const body = Buffer.from(await response.arrayBuffer());
  const plain = isGzip(body) ? zlib.gunzipSync(body) : body;
  const got = sha256(plain);
  if (got !== info.sha256) {
    throw new Error(
      `downloadTrace('${info.name}'): downloaded file has sha256 ${got}, manifest says ${info.sha256}; ` +
        `the archive may hold a different version. Nothing was written.`,
    );
  }
  const tmp = `${dest}.part`;
  fs.writeFileSync(tmp, isGzip(body) ? body : zlib.gzipSync(body, { level: 9 }));
  fs.renameSync(tmp, dest);
  return dest;
}
