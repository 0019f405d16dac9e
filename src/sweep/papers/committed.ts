/**
 * Committed paper-scale results: each notebook's finished sweep is published
 * into the repository as `results/<notebook>/<sweep>.jsonl.gz` (latest record
 * per cell, in enumeration order) with `provenance.json` beside it (sweep
 * version and fingerprint, code commit and source digest, command, machine,
 * wall time, counts, and the SHA-256, size and record count of the file).
 *
 * Nothing in the pair is trusted unchecked: before a record is read, the file
 * must have the size and digest its provenance records, every record must
 * carry the provenance's sweep version and fingerprint, and the counts must
 * agree. A damaged pair is reported naming the file and what is wrong, and a
 * notebook then runs at quick scale. A code change that alters results must
 * bump the sweep's version; the committed file is then reported stale. A
 * notebook also re-runs a seeded sample of cells live; `--verify all` re-runs
 * every cell and tells a wrong record from a code change by the source digest.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { canonicalJson, Json, sweepCellKeys, SweepDefinition } from '../grid';
import { loadCellFunction, resolveCellModule, toJsonResult, TOOLKIT_ROOT } from '../cellmodule';
import { latestRecords, lockResults, readResultsFile, ResultRecord, ResultsReader, serializeRecord, unlockResults } from '../store';
import { PaperExperiment, paperResultsFile, PaperScale } from './common';
import { checkDigest, committedPair, finishPublication, gitCommit, provenanceOf, Provenance, readProvenance, sourceDigest, sourceDigestAt, writePair } from './seal';
import { InputError, OutputError } from '../../util/errors';
import { createRng } from '../../util/random';
import { readCached, throughCache, writeCached } from '../../util/cache';

export { Provenance } from './seal';

/** Where published results live: `<schedlab>/results`, committed to the repository. */
export function committedRoot(): string {
  return path.join(TOOLKIT_ROOT, 'results');
}

function gzPath(notebook: string, sweep: SweepDefinition, root: string): string {
  return paperResultsFile(notebook, sweep, null, root) + '.gz';
}

/** Run `fn` holding the lock of a committed pair (`provenance.json.lock`): one publication at a time. */
function withPairLock<T>(gz: string, fn: () => T, breakLock?: boolean): T {
  const lockOn = provenanceOf(gz);
  fs.mkdirSync(path.dirname(gz), { recursive: true });
  lockResults(lockOn, { breakLock });
  try {
    return fn();
  } finally {
    unlockResults(lockOn);
  }
}

/**
 * Publish a notebook's working results file (`results/<notebook>/<sweep>.jsonl`,
 * written by `schedlab paper`) as the committed, compressed copy with its
 * provenance, both in one atomic step. Partial results are published too: the
 * provenance counts what is missing, and notebooks show the coverage.
 */
export function publishPaperResults(
  experiment: PaperExperiment,
  options: { scale?: PaperScale; resultsRoot?: string; committedRoot?: string; command?: string; breakLock?: boolean } = {},
): Provenance {
  const scale = options.scale ?? 'paper';
  const sweep = experiment.sweep(scale);
  const src = paperResultsFile(experiment.notebook, sweep, null, options.resultsRoot);
  if (!fs.existsSync(src)) throw new InputError(`no results to publish: ${src} does not exist (run \`schedlab paper ${experiment.notebook}\` first)`, { source: src });
  const mine = latestRecords(readResultsFile(src).records.filter((r) => r.definition === sweep.fingerprint));
  const byKey = new Map(mine.map((r) => [r.key, r]));
  const cells = sweepCellKeys(sweep);
  const ordered: ResultRecord[] = [];
  for (const key of cells) {
    const r = byKey.get(key);
    if (r) ordered.push(r);
  }
  // Level 9 and a fixed header (no name, no time): same records, same bytes.
  const body = zlib.gzipSync(Buffer.from(ordered.map((r) => serializeRecord(r)).join(''), 'utf8'), { level: 9 });
  const provenance: Provenance = {
    notebook: experiment.notebook,
    sweep: sweep.name,
    sweepVersion: sweep.version,
    definition: sweep.fingerprint,
    commit: gitCommit(),
    command: options.command ?? `schedlab paper ${experiment.notebook}${scale === 'paper' ? '' : ` --scale ${scale}`}`,
    machine: { cores: os.availableParallelism(), cpu: os.cpus()[0]?.model ?? 'unknown', platform: `${os.platform()} ${os.arch()}`, node: process.version },
    cellTimeMs: Math.round(ordered.reduce((s, r) => s + r.run.durationMs, 0)),
    wallTimeMs: runSpanMs(ordered),
    cells: cells.length,
    ok: ordered.filter((r) => r.status === 'ok').length,
    failed: ordered.filter((r) => r.status === 'failed').length,
    missing: cells.length - ordered.length,
    publishedAt: new Date().toISOString(),
    ...seal(body, ordered.length, sourceDigest()),
  };
  const out = gzPath(experiment.notebook, sweep, options.committedRoot ?? committedRoot());
  withPairLock(out, () => writePair(out, body, provenance), options.breakLock);
  return provenance;
}

function seal(body: Buffer, records: number, digest: string | null): Pick<Provenance, 'sha256' | 'bytes' | 'records' | 'sourceDigest'> {
  return { sha256: createHash('sha256').update(body).digest('hex'), bytes: body.length, records, sourceDigest: digest };
}

/**
 * Record the digest, size and record count of a committed file published
 * before provenance carried them, after checking every record against the
 * provenance (sweep, version, fingerprint, counts, checksums); the `.gz` is
 * not touched. The source digest is computed from git at the provenance's
 * commit. Refuses a file whose provenance already has a digest it does not match.
 */
export function resealCommittedResults(experiment: PaperExperiment, options: { scale?: PaperScale; committedRoot?: string; breakLock?: boolean } = {}): Provenance {
  const sweep = experiment.sweep(options.scale ?? 'paper');
  const gz = gzPath(experiment.notebook, sweep, options.committedRoot ?? committedRoot());
  return withPairLock(
    gz,
    () => {
      finishPublication(gz);
      const provFile = provenanceOf(gz);
      if (!fs.existsSync(gz)) throw new InputError(`no committed results to reseal`, { source: gz });
      const old = readProvenance(provFile, { unsealed: true });
      // Read once: the digest is checked on the bytes that are then decompressed (an unsealed pair has none).
      const body = old.sha256 !== undefined ? checkDigest(gz, old, provFile) : fs.readFileSync(gz);
      const records = checkRecords(gz, body, old, sweep, sweepCellKeys(sweep));
      const { sha256: _s, bytes: _b, records: _r, sourceDigest: _d, ...fields } = old;
      const commit = old.commit && !old.commit.endsWith('+modified-src') ? old.commit : null;
      const digest = old.sourceDigest !== undefined ? old.sourceDigest : commit ? sourceDigestAt(commit) : null;
      const provenance: Provenance = { ...fields, ...seal(body, records.length, digest) };
      writePair(gz, null, provenance);
      return provenance;
    },
    options.breakLock,
  );
}

/** Milliseconds from the first cell's start to the last cell's end, 0 when none (a loop: Math.max(...xs) overflows the stack on ~10^5 records). */
export function runSpanMs(records: readonly { run: { startedAt: string; durationMs: number } }[]): number {
  let first = Infinity;
  let last = -Infinity;
  for (const r of records) {
    const t = Date.parse(r.run.startedAt);
    first = Math.min(first, t);
    last = Math.max(last, t + r.run.durationMs);
  }
  return records.length ? Math.round(last - first) : 0;
}

/** A notebook's published results: the results file, its provenance and how many cells they cover. */
export interface CommittedResults {
  notebook: string;
  file: string;
  provenance: Provenance | null;
  /** Records of the current sweep definition, in enumeration order. */
  records: ResultRecord[];
  cells: number;
  missing: number;
  /** Records computed for another definition (an older version): not used. */
  stale: number;
  /** Why the committed pair was not used although it is there (the file, and what is wrong with it); null when it was read. */
  damaged: string | null;
  /** One line for the top of the notebook: coverage, or why nothing is shown. */
  status: string;
}

/** Bytes of inflated text decoded and parsed at a time. */
const PIECE_BYTES = 16 << 20;

/**
 * The inflated bytes of a `.gz`, in one buffer sized by the size its trailer
 * records (modulo 2^32; never above deflate's 1032:1 ratio), so that zlib
 * fills one buffer instead of 16 KiB pieces copied into one at the end.
 */
function inflate(body: Buffer): Buffer {
  const recorded = body.length >= 18 ? Math.min(body.readUInt32LE(body.length - 4), 1032 * body.length) : 0;
  return zlib.gunzipSync(body, { chunkSize: Math.min(Math.max(recorded + 1, zlib.constants.Z_DEFAULT_CHUNK), 1 << 30) });
}

/**
 * Every record of a committed `.gz` (bytes already checked against the
 * digest), checked against its provenance: valid lines, one per cell, each of
 * the provenance's sweep, version and fingerprint, counts as recorded.
 */
function checkRecords(file: string, body: Buffer, provenance: Omit<Provenance, 'records'> & { records?: number }, sweep: SweepDefinition, cells: readonly string[], deferred: readonly string[] = []): ResultRecord[] {
  let text: Buffer;
  try {
    text = inflate(body);
  } catch (e) {
    throw new InputError(`not a readable gzip file (${(e as Error).message})`, { source: file });
  }
  // The bytes matched the provenance's SHA-256 (checkDigest): a record's own CRC can tell nothing more.
  // Parsed a piece at a time: the text can exceed what one string may hold.
  const reader = new ResultsReader(file, false, deferred);
  for (let from = 0; from < text.length; from += PIECE_BYTES) reader.push(text.subarray(from, from + PIECE_BYTES));
  const report = reader.finish();
  const at = (line: number) => `${file}:${line}`;
  if (report.invalid.length) throw new InputError(`${at(report.invalid[0].line)}: ${report.invalid[0].reason} (${report.invalid.length} invalid record(s) in all); the committed file is damaged`, { source: file, line: report.invalid[0].line });
  if (report.tornTail) throw new InputError(`${at(report.tornTail.line)}: torn last line; the committed file is damaged`, { source: file, line: report.tornTail.line });
  const keys = new Set<string>();
  let ok = 0;
  report.records.forEach((r, i) => {
    for (const field of ['sweep', 'sweepVersion', 'definition'] as const) {
      const want = field === 'sweep' ? provenance.sweep : provenance[field];
      if (r[field] !== want) {
        throw new InputError(
          `${at(i + 1)}: record ${r.key} has ${field} ${JSON.stringify(r[field])}, but provenance.json says ${JSON.stringify(want)}: ` +
            `the file mixes records of different sweeps or versions; republish it with \`schedlab paper ${provenance.notebook} --publish\``,
          { source: file, line: i + 1, field },
        );
      }
    }
    if (keys.has(r.key)) throw new InputError(`${at(i + 1)}: cell ${r.key} appears twice`, { source: file, line: i + 1, field: 'key' });
    keys.add(r.key);
    if (r.status === 'ok') ok++;
  });
  const n = report.records.length;
  if (provenance.records !== undefined && n !== provenance.records) throw new InputError(`${n} records, but provenance.json says ${provenance.records}`, { source: file, field: 'records' });
  if (ok !== provenance.ok || n - ok !== provenance.failed) {
    throw new InputError(`${ok} ok and ${n - ok} failed records, but provenance.json says ${provenance.ok} and ${provenance.failed}`, { source: file, field: 'ok' });
  }
  if (provenance.definition === sweep.fingerprint) {
    const cellKeys = new Set(cells);
    const i = report.records.findIndex((r) => !cellKeys.has(r.key));
    if (i >= 0) throw new InputError(`${at(i + 1)}: ${report.records[i].key} is not a cell of sweep ${sweep.name} version ${sweep.version}`, { source: file, line: i + 1, field: 'key' });
    if (provenance.cells !== cellKeys.size || provenance.missing !== cellKeys.size - n) {
      throw new InputError(`provenance.json counts ${provenance.cells} cells (${provenance.missing} missing), but the sweep has ${cellKeys.size} (${cellKeys.size - n} missing)`, { source: file, field: 'cells' });
    }
  }
  return report.records;
}

/**
 * Read a committed pair and check it completely (provenance fields, commit,
 * size, digest, records); throws an InputError naming the file and what is
 * wrong. A pair being replaced while it is read is read again. `cells`: the
 * sweep's cell keys (`sweepCellKeys`); `deferred`: fields of the records'
 * results parsed on first read (`PaperExperiment.deferredFields`).
 */
export function readCommittedPair(gz: string, sweep: SweepDefinition, notebook: string, cells: readonly string[] = sweepCellKeys(sweep), deferred: readonly string[] = []): { provenance: Provenance; records: ResultRecord[] } {
  for (let attempt = 0; ; attempt++) {
    const pair = committedPair(gz);
    try {
      if (!fs.existsSync(pair.provenance)) throw new InputError(`has no ${path.basename(provenanceOf(gz))} beside it: committed results are read only with their provenance (digest, record count)`, { source: pair.data });
      const provenance = readProvenance(pair.provenance, { reseal: `schedlab paper ${notebook} --reseal` });
      if (provenance.notebook !== notebook || provenance.sweep !== sweep.name) {
        throw new InputError(`describes ${provenance.notebook} / sweep ${provenance.sweep}, not ${notebook} / sweep ${sweep.name}`, { source: pair.provenance, field: provenance.notebook !== notebook ? 'notebook' : 'sweep' });
      }
      const body = checkDigest(pair.data, provenance, pair.provenance);
      return { provenance, records: checkRecords(pair.data, body, provenance, sweep, cells, deferred) };
    } catch (e) {
      // A publication renamed files under us: the pair it left is complete, read it again.
      const moved = committedPair(gz);
      if (attempt < 3 && (moved.pending !== pair.pending || moved.data !== pair.data || (pair.pending && !fs.existsSync(pair.provenance)))) continue;
      throw e;
    }
  }
}

/**
 * Read a notebook's committed results, checked (see `readCommittedPair`).
 * Never throws for a damaged or stale pair: the records are then empty and
 * `status` (and `damaged`) say which file is wrong and how, so a notebook
 * falls back to quick scale with that message. `strict` throws instead.
 */
export function loadCommittedResults(experiment: PaperExperiment, options: { scale?: PaperScale; committedRoot?: string; strict?: boolean } = {}): CommittedResults {
  const sweep = experiment.sweep(options.scale ?? 'paper');
  const file = gzPath(experiment.notebook, sweep, options.committedRoot ?? committedRoot());
  // A notebook asks twice (its scale, then its records): the second read of an unchanged pair is free.
  const signature = pairSignature(file);
  for (const log of readLogs) log.set(file, signature);
  const key = `${file}\0${sweep.fingerprint}\0${options.strict === true}\0${signature}`;
  const cached = loadedPairs.get(key);
  if (cached) return cached;
  const loaded = readAndCheck(experiment, sweep, file, options.strict === true);
  if (loadedPairs.size >= 4) loadedPairs.delete(loadedPairs.keys().next().value as string);
  loadedPairs.set(key, loaded);
  return loaded;
}

/** Open `committedFilesRead` calls: each maps the committed files loaded inside it to their pair's signature then. */
const readLogs = new Set<Map<string, string>>();

/** The files a committed pair's reading depends on: the data and provenance, and the unfinished publication's that would replace them. */
function pairInputs(gz: string): string[] {
  const prov = provenanceOf(gz);
  return [gz, prov, `${gz}.next`, `${prov}.next`];
}

/**
 * Compute a value from committed results and keep it in the content-addressed
 * cache (src/util/cache.ts): `kind`/`name`/`key` name it; it is recomputed
 * unless every committed pair `compute` loaded (through loadCommittedResults)
 * is byte for byte the same, and the code too. A pair replaced while `compute`
 * ran is not cached.
 */
export function cachedFromCommitted<T>(kind: string, name: string, key: unknown, compute: () => T): T {
  const id = { kind, name, key };
  const hit = readCached<T>(id);
  if (hit !== undefined) return hit;
  const log = new Map<string, string>();
  readLogs.add(log);
  let value: T;
  try {
    value = compute();
  } finally {
    readLogs.delete(log);
  }
  const files = [...log.keys()];
  writeCached(id, files.flatMap(pairInputs), value, () => files.every((f) => pairSignature(f) === log.get(f)));
  // What a warm cache would return: the same value, whichever kernel computed it.
  return throughCache(value);
}

/**
 * The status line of a notebook's committed results (`loadCommittedResults(experiment).status`),
 * without decoding the records again when the same pair was already checked by the same code.
 */
export function committedStatus(experiment: PaperExperiment): string {
  const sweep = experiment.sweep('paper');
  return cachedFromCommitted('status', experiment.notebook, { file: gzPath(experiment.notebook, sweep, committedRoot()), definition: sweep.fingerprint }, () => loadCommittedResults(experiment).status);
}

/** The last few pairs read, by file, sweep and the pair's file signatures. */
const loadedPairs = new Map<string, CommittedResults>();

/** Size, modification time and inode of every file of a committed pair (a publication changes at least one). */
function pairSignature(gz: string): string {
  const pair = committedPair(gz);
  return [pair.data, pair.provenance]
    .map((f) => {
      try {
        const st = fs.statSync(f);
        return `${f}:${st.size}:${st.mtimeMs}:${st.ino}`;
      } catch {
        return `${f}:-`;
      }
    })
    .join('|');
}

function readAndCheck(experiment: PaperExperiment, sweep: SweepDefinition, file: string, strict: boolean): CommittedResults {
  const cells = sweepCellKeys(sweep);
  const empty = (status: string, extra: Partial<CommittedResults> = {}): CommittedResults => ({
    notebook: experiment.notebook, file, provenance: null, records: [], cells: cells.length, missing: cells.length, stale: 0, damaged: null, status, ...extra,
  });
  const pair = committedPair(file);
  if (!fs.existsSync(pair.data) && !fs.existsSync(pair.provenance)) return empty(`${experiment.notebook}: no committed paper-scale results (${file})`);
  let read: ReturnType<typeof readCommittedPair>;
  try {
    read = readCommittedPair(file, sweep, experiment.notebook, cells, experiment.deferredFields);
  } catch (e) {
    if (strict || !(e instanceof InputError)) throw e;
    return empty(`${experiment.notebook}: committed paper-scale results NOT USED — ${e.message}`, { damaged: e.message });
  }
  const { provenance, records: all } = read;
  if (provenance.definition !== sweep.fingerprint) {
    const status = `${experiment.notebook}: the committed results (${all.length} records) were computed for another version of the sweep (version ${provenance.sweepVersion}, now version ${sweep.version}); recompute with \`schedlab paper ${experiment.notebook}\``;
    return empty(status, { provenance, stale: all.length });
  }
  const byKey = new Map(all.map((r) => [r.key, r]));
  const records = cells.map((key) => byKey.get(key)).filter((r): r is ResultRecord => r !== undefined);
  const missing = cells.length - records.length;
  const commit = provenance.commit ? `commit ${provenance.commit.slice(0, 10)}${provenance.commit.endsWith('+modified-src') ? ' with modified sources' : ''}` : 'an unknown commit';
  const when = `, computed at ${commit} on ${provenance.machine.cores} cores (${provenance.machine.cpu}) in ${(provenance.wallTimeMs / 60000).toFixed(1)} min; sha256 ${provenance.sha256.slice(0, 12)} checked`;
  // Rounded down: 11,999 of 12,000 is 99.9%, not 100.0%.
  const percent = (Math.floor((1000 * records.length) / cells.length) / 10).toFixed(1);
  const status =
    missing === 0
      ? `${experiment.notebook}: paper-scale results complete (${records.length} cells${when})`
      : `${experiment.notebook}: paper-scale results INCOMPLETE — ${records.length} of ${cells.length} cells (${percent}%)${when}`;
  return { notebook: experiment.notebook, file, provenance, records, cells: cells.length, missing, stale: 0, damaged: null, status };
}

/** Remove every key named in `fields`, at any depth (timing fields are not results). */
export function withoutFields(value: Json, fields: ReadonlySet<string>): Json {
  if (Array.isArray(value)) return value.map((v) => withoutFields(v, fields));
  if (value && typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) if (!fields.has(k)) out[k] = withoutFields(v, fields);
    return out;
  }
  return value;
}

/** A published cell re-run live: its key and whether the record came out identical. */
export interface VerifiedCell {
  key: string;
  identical: boolean;
  /** First difference, when not identical. */
  difference?: string;
  ms: number;
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 60);
  return `committed …${a.slice(from, i + 60)}… vs live …${b.slice(from, i + 60)}…`;
}

/**
 * Seeded random sample of committed cells, spread over
 * every value of `stratify` (e.g. the algorithm) so every family member is represented.
 */
export function sampleCells(records: readonly ResultRecord[], size: number, seed: number, stratify?: string): ResultRecord[] {
  const shuffled = createRng(seed).shuffle(records);
  if (!stratify) return shuffled.slice(0, size);
  const picked: ResultRecord[] = [];
  const seen = new Set<string>();
  for (const r of shuffled) {
    const v = canonicalJson(r.params[stratify] ?? null);
    if (!seen.has(v)) {
      seen.add(v);
      picked.push(r);
    }
  }
  for (const r of shuffled) {
    if (picked.length >= Math.max(size, seen.size)) break;
    if (!picked.includes(r)) picked.push(r);
  }
  return picked;
}

/** Which cells a rotating sample re-runs, and how much of the strata it covers. */
export interface RotatingSample {
  cells: ResultRecord[];
  /** This run's block of strata (0-based) and the number of blocks: every stratum is re-run once every `blocks` rotations. */
  block: number;
  blocks: number;
  strata: number;
  /** The strata this run covers (values of `stratify`, as JSON). */
  covered: string[];
}

/**
 * The sample a notebook re-runs each time it renders committed results: `size`
 * cells, one per stratum, from a block of strata that changes with `rotation`
 * (default: the UTC day number), so that every stratum (e.g. every algorithm of
 * 01's 118) is re-run once every ceil(strata / size) renders, whatever `size` is.
 * Within a stratum the cell is drawn (seeded) among those whose recorded run
 * time is at most the stratum's median: cheap cells, still spread over traces
 * and parameters. With fewer strata than `size`, more cheap cells fill it up
 * while their recorded run times stay within `budgetMs` (default 20 s).
 */
export function rotatingSample(records: readonly ResultRecord[], size: number, options: { stratify?: string; rotation?: number; seed?: number; budgetMs?: number } = {}): RotatingSample {
  const rotation = options.rotation ?? Math.floor(Date.now() / 86_400_000);
  const rng = createRng(options.seed ?? 1);
  const groups = new Map<string, ResultRecord[]>();
  for (const r of records) {
    const v = options.stratify ? canonicalJson(r.params[options.stratify] ?? null) : '*';
    let g = groups.get(v);
    if (!g) groups.set(v, (g = []));
    g.push(r);
  }
  // Each stratum's cheap half, in a seeded order; strata in a seeded order, cut into blocks of `size`.
  const cheap = new Map<string, ResultRecord[]>();
  for (const [v, g] of [...groups].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const ms = g.map((r) => r.run.durationMs).sort((a, b) => a - b);
    const median = ms[(ms.length - 1) >> 1];
    cheap.set(v, rng.shuffle(g.filter((r) => r.run.durationMs <= median)));
  }
  const strata = rng.shuffle([...cheap.keys()]);
  const perBlock = Math.max(1, Math.min(size, strata.length));
  const blocks = Math.max(1, Math.ceil(strata.length / perBlock));
  const block = ((rotation % blocks) + blocks) % blocks;
  const covered = strata.slice(block * perBlock, (block + 1) * perBlock);
  const cells = covered.map((v) => (cheap.get(v) as ResultRecord[])[0]).filter((r) => r !== undefined);
  // Fewer strata than cells asked for: more cheap cells, round-robin over the strata, within the budget;
  // each stratum's others (its first is already in) in an order that starts further on each rotation.
  const budget = options.budgetMs ?? 20_000;
  let spent = cells.reduce((a, r) => a + r.run.durationMs, 0);
  for (let k = 1; cells.length < size && k < records.length; k++) {
    let added = false;
    for (const v of covered) {
      const g = cheap.get(v) as ResultRecord[];
      if (g.length <= k || cells.length >= size) continue;
      const others = g.length - 1;
      const r = g[1 + ((((k - 1 + rotation) % others) + others) % others)];
      if (spent + r.run.durationMs > budget) continue;
      cells.push(r);
      spent += r.run.durationMs;
      added = true;
    }
    if (!added) break;
  }
  return { cells, block, blocks, strata: strata.length, covered };
}

/** Why re-run cells differ from the committed records: `record` (same sources as at publishing: the records are wrong), `code` (the sources changed since), `unknown` (no source digest to tell). */
export type MismatchReason = 'record' | 'code' | 'unknown';

/** Re-run cells differ from the committed records; `reason` tells a wrong record from a code change. */
export class CommittedMismatch extends InputError {
  readonly reason: MismatchReason;
  readonly cells: VerifiedCell[];
  constructor(message: string, file: string, reason: MismatchReason, cells: VerifiedCell[]) {
    super(message, { source: file });
    this.reason = reason;
    this.cells = cells;
  }
}

/**
 * Re-run committed cells in this process (a seeded sample of `sample` cells,
 * every value of the experiment's `stratifyBy` represented, or `'all'`) and
 * compare each result with the committed one (timing fields aside). Throws a
 * CommittedMismatch naming the first differing cell and its cause: with the
 * sources unchanged since publishing (same source digest) the committed record
 * differs from what that code computes; otherwise the code changed results
 * without a sweep version bump.
 */
export async function verifyCommittedSample(
  experiment: PaperExperiment,
  committed: CommittedResults,
  options: { sample?: number | 'all'; seed?: number; scale?: PaperScale; cells?: readonly ResultRecord[]; onCell?: (done: number, total: number) => void } = {},
): Promise<VerifiedCell[]> {
  const sweep = experiment.sweep(options.scale ?? 'paper');
  const fn = loadCellFunction(resolveCellModule(sweep), sweep.cell.export);
  const timing = new Set(experiment.timingFields ?? []);
  const ok = committed.records.filter((r) => r.status === 'ok');
  const picked = options.cells ?? (options.sample === 'all' ? ok : sampleCells(ok, options.sample ?? 20, options.seed ?? 1, experiment.stratifyBy));
  const out: VerifiedCell[] = [];
  for (const r of picked) {
    const t0 = performance.now();
    const live = JSON.parse(toJsonResult(await fn({ ...r.params }, r.seed))) as Json;
    const a = canonicalJson(withoutFields(r.result as Json, timing));
    const b = canonicalJson(withoutFields(live, timing));
    out.push({ key: r.key, identical: a === b, difference: a === b ? undefined : firstDifference(a, b), ms: performance.now() - t0 });
    options.onCell?.(out.length, picked.length);
  }
  const bad = out.filter((c) => !c.identical);
  if (bad.length) {
    const published = committed.provenance?.sourceDigest ?? null;
    const now = sourceDigest();
    const cause: MismatchReason = published === null || now === null ? 'unknown' : published === now ? 'record' : 'code';
    const head = `${experiment.notebook}: ${bad.length} of ${out.length} re-run cells differ from the committed results in ${committed.file}`;
    const first = `First: ${bad[0].key}: ${bad[0].difference}`;
    const why = {
      record: `RECORD DIFFERS FROM A RE-RUN: the sources are those the records were published with (source digest ${now?.slice(0, 12)}), so the committed record is wrong (edited, or not computed by this code); restore the file with \`git checkout -- ${committed.file}\` or republish it`,
      code: `CODE CHANGED SINCE PUBLISH: the sources differ from those of commit ${committed.provenance?.commit ?? '?'} (source digest ${published?.slice(0, 12)}, now ${now?.slice(0, 12)}; \`git diff ${committed.provenance?.commit?.replace(/\+modified-src$/, '') ?? 'HEAD'} -- src\` shows how): a change that alters results must bump the sweep's version, then republish`,
      unknown: `cannot tell a wrong record from a code change: ${now === null ? 'the sources are not here' : 'the provenance has no source digest'}`,
    }[cause];
    throw new CommittedMismatch(`${head} — ${why}. ${first}`, committed.file, cause, out);
  }
  return out;
}

/** Start a working results file from the committed records of the current sweep version (if any). */
export function seedFromCommitted(experiment: PaperExperiment, scale: PaperScale, out: string, root?: string): number {
  const committed = loadCommittedResults(experiment, { scale, committedRoot: root });
  if (committed.damaged) process.stderr.write(`warning: ${committed.status}; starting from an empty results file\n`);
  if (committed.records.length === 0) return 0;
  const tmp = `${out}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, committed.records.map((r) => serializeRecord(r)).join(''));
    // link() never replaces: a results file another run created meanwhile wins.
    fs.linkSync(tmp, out);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return 0;
    throw new OutputError('start the results file from the committed results', out, e);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return committed.records.length;
}
