/**
 * Committed paper-scale results: each notebook's finished sweep is published
 * into the repository as `results/<notebook>/<sweep>.jsonl.gz` (latest record
 * per cell, in enumeration order) with `provenance.json` beside it (sweep
 * version and fingerprint, code commit, command, machine, wall time, counts).
 *
 * A notebook renders from that file, and re-runs a seeded random sample of its
 * cells live: any sampled record whose content differs from the committed one
 * (timing fields aside) fails loudly. A code change that alters results must
 * bump the sweep's version; the committed file then no longer matches the
 * sweep's fingerprint and is reported stale instead of being mixed in.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { canonicalJson, Json, sweepCells, SweepDefinition } from '../grid';
import { loadCellFunction, resolveCellModule, toJsonResult, TOOLKIT_ROOT } from '../cellmodule';
import { latestRecords, readResultsFile, ResultRecord, serializeRecord } from '../store';
import { PaperExperiment, paperResultsFile, PaperScale } from './common';
import { InputError, OutputError } from '../../util/errors';
import { createRng } from '../../util/random';

/** Where published results live: `<schedlab>/results`, committed to the repository. */
export function committedRoot(): string {
  return path.join(TOOLKIT_ROOT, 'results');
}

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
}

function gzPath(notebook: string, sweep: SweepDefinition, root: string): string {
  return paperResultsFile(notebook, sweep, null, root) + '.gz';
}

/** The provenance file beside a committed results file: `provenance.json`, or the experiment's own name when a notebook has a second sweep. */
function provenancePath(experiment: PaperExperiment, file: string): string {
  return path.join(path.dirname(file), experiment.provenanceFile ?? 'provenance.json');
}

function gitCommit(): string | null {
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: TOOLKIT_ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', 'src'], { cwd: TOOLKIT_ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
    return dirty ? `${head}+modified-src` : head;
  } catch {
    return null;
  }
}

/**
 * Publish a notebook's working results file (`results/<notebook>/<sweep>.jsonl`,
 * written by `schedlab paper`) as the committed, compressed copy with its
 * provenance. Partial results are published too: the provenance counts what
 * is missing, and notebooks show the coverage.
 */
export function publishPaperResults(
  experiment: PaperExperiment,
  options: { scale?: PaperScale; resultsRoot?: string; committedRoot?: string; command?: string } = {},
): Provenance {
  const scale = options.scale ?? 'paper';
  const sweep = experiment.sweep(scale);
  const src = paperResultsFile(experiment.notebook, sweep, null, options.resultsRoot);
  if (!fs.existsSync(src)) throw new InputError(`no results to publish: ${src} does not exist (run \`schedlab paper ${experiment.notebook}\` first)`, { source: src });
  const mine = latestRecords(readResultsFile(src).records.filter((r) => r.definition === sweep.fingerprint));
  const byKey = new Map(mine.map((r) => [r.key, r]));
  const cells = sweepCells(sweep);
  const ordered: ResultRecord[] = [];
  for (const c of cells) {
    const r = byKey.get(c.key);
    if (r) ordered.push(r);
  }
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
  };
  const root = options.committedRoot ?? committedRoot();
  const out = gzPath(experiment.notebook, sweep, root);
  const dir = path.dirname(out);
  fs.mkdirSync(dir, { recursive: true });
  // Level 9 and a fixed header (no name, no time): same records, same bytes.
  const body = zlib.gzipSync(Buffer.from(ordered.map((r) => serializeRecord(r)).join(''), 'utf8'), { level: 9 });
  const tmp = `${out}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, body);
    fs.renameSync(tmp, out);
    fs.writeFileSync(provenancePath(experiment, out), JSON.stringify(provenance, null, 2) + '\n');
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw new OutputError('write the committed results', out, e);
  }
  return provenance;
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
  /** One line for the top of the notebook: coverage, or why nothing is shown. */
  status: string;
}

/** Read a notebook's committed results (empty, with a status line, when there are none or they are stale). */
export function loadCommittedResults(experiment: PaperExperiment, options: { scale?: PaperScale; committedRoot?: string } = {}): CommittedResults {
  const sweep = experiment.sweep(options.scale ?? 'paper');
  const root = options.committedRoot ?? committedRoot();
  const file = gzPath(experiment.notebook, sweep, root);
  const provFile = provenancePath(experiment, file);
  const provenance = fs.existsSync(provFile) ? (JSON.parse(fs.readFileSync(provFile, 'utf8')) as Provenance) : null;
  const cells = sweepCells(sweep);
  const empty = (status: string, stale = 0): CommittedResults => ({ notebook: experiment.notebook, file, provenance, records: [], cells: cells.length, missing: cells.length, stale, status });
  if (!fs.existsSync(file)) return empty(`${experiment.notebook}: no committed paper-scale results (${file})`);
  const tmp = path.join(os.tmpdir(), `schedlab-committed-${process.pid}-${path.basename(file, '.gz')}`);
  let all: ResultRecord[];
  try {
    fs.writeFileSync(tmp, zlib.gunzipSync(fs.readFileSync(file)));
    const report = readResultsFile(tmp);
    if (report.invalid.length || report.tornTail) throw new InputError(`${file}: ${report.invalid.length} invalid record(s)${report.tornTail ? ' and a torn last line' : ''}; the committed file is damaged`, { source: file, line: report.invalid[0]?.line });
    all = report.records;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  const mine = all.filter((r) => r.definition === sweep.fingerprint);
  const stale = all.length - mine.length;
  if (mine.length === 0) {
    return empty(`${experiment.notebook}: the committed results (${all.length} records) were computed for another version of the sweep (now version ${sweep.version}); recompute with \`schedlab paper ${experiment.notebook}\``, stale);
  }
  const byKey = new Map(latestRecords(mine).map((r) => [r.key, r]));
  const records = cells.map((c) => byKey.get(c.key)).filter((r): r is ResultRecord => r !== undefined);
  const missing = cells.length - records.length;
  const when = provenance ? `, computed at commit ${provenance.commit?.slice(0, 10) ?? '?'} on ${provenance.machine.cores} cores (${provenance.machine.cpu}) in ${(provenance.wallTimeMs / 60000).toFixed(1)} min` : '';
  const status =
    missing === 0
      ? `${experiment.notebook}: paper-scale results complete (${records.length} cells${when})`
      : `${experiment.notebook}: paper-scale results INCOMPLETE — ${records.length} of ${cells.length} cells (${((100 * records.length) / cells.length).toFixed(1)}%)${when}`;
  return { notebook: experiment.notebook, file, provenance, records, cells: cells.length, missing, stale, status };
}

/** Remove every key named in `fields`, at any depth (timing fields are not results). */
function withoutFields(value: Json, fields: ReadonlySet<string>): Json {
  if (Array.isArray(value)) return value.map((v) => withoutFields(v, fields));
  if (value && typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) if (!fields.has(k)) out[k] = withoutFields(v, fields);
    return out;
  }
  return value;
}

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

/**
 * Re-run a seeded random sample of committed cells in this process and
 * compare each result with the committed one (timing fields aside). Throws,
 * naming the cells, when any differs.
 */
export async function verifyCommittedSample(
  experiment: PaperExperiment,
  committed: CommittedResults,
  options: { sample?: number; seed?: number; scale?: PaperScale; onCell?: (done: number, total: number) => void } = {},
): Promise<VerifiedCell[]> {
  const sweep = experiment.sweep(options.scale ?? 'paper');
  const fn = loadCellFunction(resolveCellModule(sweep), sweep.cell.export);
  const timing = new Set(experiment.timingFields ?? []);
  const ok = committed.records.filter((r) => r.status === 'ok');
  const picked = sampleCells(ok, options.sample ?? 20, options.seed ?? 1, experiment.stratifyBy);
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
    throw new Error(
      `${experiment.notebook}: ${bad.length} of ${out.length} re-run cells differ from the committed results — the code changed results without a sweep version bump. ` +
        `First: ${bad[0].key}: ${bad[0].difference}`,
    );
  }
  return out;
}

/** Start a working results file from the committed records of the current sweep version (if any). */
export function seedFromCommitted(experiment: PaperExperiment, scale: PaperScale, out: string, root?: string): number {
  const committed = loadCommittedResults(experiment, { scale, committedRoot: root });
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
