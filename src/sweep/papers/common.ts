/**
 * Shared plumbing of the paper-scale experiments: where their results live,
 * how a notebook's sweep is run (resuming, merging Slurm shard files first),
 * and how stored records become the plain records the notebooks analyse.
 *
 * Each notebook module (`./<notebook>.ts`) exports a `PaperExperiment`: the
 * notebook name, its sweep at each scale (one grid definition, built from the
 * families' cell functions) and how its records regroup for the notebook.
 * A notebook gets them with `records(experiment, scale)` at either scale. The
 * command line (`schedlab paper <notebook>`) and the notebook at paper scale
 * both go through `runPaperSweep`, so a results file written by one is read
 * (and completed) by the other.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { outBase } from '../../analysis/paths';
import { CellFilter, SweepDefinition } from '../grid';
import { InputError } from '../../util/errors';
import { TOOLKIT_ROOT } from '../cellmodule';
import { mergeResults } from '../merge';
import { ProgressMode, runSweep, SweepSummary } from '../run';
import { copyField, lockResults, ResultRecord, ResultRow, toolkitVersion, toRows, unlockResults } from '../store';
import { CommittedResults, loadCommittedResults, rotatingSample, seedFromCommitted, verifyCommittedSample, VerifiedCell } from './committed';

/** The scale a paper notebook runs at: quick (small, live) or paper (full, from committed results). */
export type PaperScale = 'quick' | 'paper';

/** One notebook's experiment at paper (and quick) scale; `R` is what the notebook analyses. */
export interface PaperExperiment<R = unknown> {
  /** Notebook name without `.ipynb`, e.g. `03-evolving-applications`. */
  notebook: string;
  /** One line: what the sweep computes. */
  summary: string;
  /** The sweep at a scale (`paper`: the published grid; `quick`: the notebook's quick sizes). */
  sweep(scale: PaperScale): SweepDefinition;
  /** Name of the module export holding each scale's sweep (for `schedlab sweep run file.js#name`, Slurm). */
  exports: Record<PaperScale, string>;
  /** Result fields that are wall-clock measurements, left out when re-verified results are compared. */
  timingFields?: readonly string[];
  /** Result fields parsed only when read, in records read from the committed file (large lists few pages read: DFRS's per-call MCB8 times). */
  deferredFields?: readonly string[];
  /** Parameter whose every value the re-verified sample must include (e.g. the algorithm). */
  stratifyBy?: string;
  /** The notebook's view of a finished sweep: its records regrouped (per part, NaN restored, keys in table order). */
  results(summary: SweepSummary): R;
}

/** Options of a paper-scale run: scale, workers, shard, retries, progress, verification sample and results folder. */
export interface PaperRunOptions {
  /** Default 'paper'. */
  scale?: PaperScale;
  /** Worker threads (default: all cores); 0 runs in this thread. */
  workers?: number;
  /** Run one slice `i/n` into its own shard file (for Slurm array tasks). */
  shard?: string;
  /** Run only the cells whose parameters take these values (e.g. `{ part: ['period'] }`). */
  where?: CellFilter;
  progress?: ProgressMode;
  /** Root of the results folders (default `<schedlab>/results`). */
  resultsRoot?: string;
  /** Extra attempts for a cell that throws. */
  retries?: number;
  /** Rerun cells recorded as failed by earlier runs (default: they are skipped). */
  retryFailed?: boolean;
  signal?: AbortSignal;
  resumeHint?: string;
  log?: (message: string) => void;
  /**
   * Where paper-scale records come from: `committed` reads the results
   * published in the repository (`results/<notebook>/*.jsonl.gz`) and re-runs
   * a sample of them live; `run` runs (or resumes) the sweep; `auto` (default,
   * or SCHEDLAB_PAPER_SOURCE) uses the committed results when there are any.
   */
  source?: 'auto' | 'committed' | 'run';
  /** Cells re-run live to verify committed results (default 20, or SCHEDLAB_VERIFY_SAMPLE). */
  verifySample?: number;
  /** Root of the committed results (default `<schedlab>/results`). */
  committedRoot?: string;
  /** Take over the results file's lock even when its holder looks alive (`--break-lock`). */
  breakLock?: boolean;
}

/** A sweep summary read from committed results: `partial` when cells are missing. */
export type PaperSummary = SweepSummary & { partial?: boolean; status?: string; verified?: VerifiedCell[] };

/** `<schedlab>/results` (git-ignored), or `SCHEDLAB_RESULTS` when set. */
export function resultsRoot(): string {
  return process.env.SCHEDLAB_RESULTS ? path.resolve(process.env.SCHEDLAB_RESULTS) : path.join(TOOLKIT_ROOT, 'results');
}

/** `results/<notebook>/`, the folder of a notebook's results files. */
export function paperResultsDir(notebook: string, root = resultsRoot()): string {
  return path.join(root, notebook);
}

function stem(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_');
}

/** The results file of a sweep (or of one shard of it). */
export function paperResultsFile(notebook: string, sweep: SweepDefinition, shard?: string | null, root?: string): string {
  const dir = paperResultsDir(notebook, root);
  if (!shard) return path.join(dir, `${stem(sweep.name)}.jsonl`);
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(shard);
  if (!m) throw new Error(`shard must look like "i/n" (e.g. "0/4"), got ${JSON.stringify(shard)}`);
  return path.join(dir, `${stem(sweep.name)}.shard-${Number(m[1])}-of-${Number(m[2])}.jsonl`);
}

/** Shard files of a sweep lying in its results folder (written by `--shard` runs or Slurm tasks). */
export function shardFiles(notebook: string, sweep: SweepDefinition, root?: string): string[] {
  const dir = paperResultsDir(notebook, root);
  if (!fs.existsSync(dir)) return [];
  const re = new RegExp(`^${stem(sweep.name).replace(/[.]/g, '\\.')}\\.shard-\\d+-of-\\d+\\.jsonl$`);
  return fs
    .readdirSync(dir)
    .filter((f) => re.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}

/**
 * Run (or resume, or just read) a notebook's sweep. Without a shard, shard
 * files found next to the results file are merged into it first, then the
 * cells still missing are run. Finished cells are never rerun.
 */
export async function runPaperSweep(experiment: PaperExperiment, options: PaperRunOptions = {}): Promise<PaperSummary> {
  const scale = options.scale ?? 'paper';
  const sweep = experiment.sweep(scale);
  const source = options.source ?? (process.env.SCHEDLAB_PAPER_SOURCE as PaperRunOptions['source']) ?? 'auto';
  if (source !== 'auto' && source !== 'committed' && source !== 'run') throw new Error(`source must be auto, committed or run, got ${JSON.stringify(source)}`);
  if (source !== 'run' && !options.shard && scale === 'paper') {
    const committed = loadCommittedResults(experiment, { scale, committedRoot: options.committedRoot });
    if (committed.records.length > 0) return committedSummary(experiment, committed, options);
    // A damaged committed pair is not silently replaced by hours of recomputing: `source: 'run'` does that on purpose.
    if (committed.damaged) throw new InputError(`${committed.status}; to recompute instead, run \`schedlab paper ${experiment.notebook}\``, { source: committed.file });
    if (source === 'committed') throw new Error(committed.status);
  }
  const out = paperResultsFile(experiment.notebook, sweep, options.shard ?? null, options.resultsRoot);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  // The results file's lock is taken before the shard merge and held through
  // the run: a second run started meanwhile stops here, before touching anything.
  lockResults(out, { breakLock: options.breakLock });
  try {
    // A fresh clone resumes from the committed results instead of starting over.
    if (!options.shard && !fs.existsSync(out)) seedFromCommitted(experiment, scale, out, options.committedRoot);
    if (!options.shard) {
      // Shard files not newer than the results file were merged into it already.
      const outTime = fs.existsSync(out) ? fs.statSync(out).mtimeMs : -Infinity;
      const shards = shardFiles(experiment.notebook, sweep, options.resultsRoot);
      if (shards.some((f) => fs.statSync(f).mtimeMs >= outTime)) {
        const inputs = fs.existsSync(out) ? [out, ...shards] : shards;
        const m = mergeResults(out, inputs, { sweep, log: options.log });
        (options.log ?? ((s: string) => process.stdout.write(s + '\n')))(
          `${sweep.name}: merged ${shards.length} shard file(s) into ${out} (${m.records} cells, ${m.missing ?? '?'} missing)`,
        );
      }
    }
    return await runSweep(sweep, {
      out,
      workers: options.workers,
      shard: options.shard,
      where: options.where,
      progress: options.progress,
      retries: options.retries,
      retryFailed: options.retryFailed,
      signal: options.signal,
      resumeHint: options.resumeHint,
      breakLock: options.breakLock,
      log: options.log,
    });
  } finally {
    unlockResults(out);
  }
}

/**
 * A notebook's records at a scale, always through the sweep engine (all
 * cores, progress, resumable). Paper scale: `runPaperSweep` (the committed
 * results with a live re-verified sample, or the run in `results/<notebook>/`).
 * Quick scale: a cache in `<out>/<notebook>/sweeps/` (git-ignored, SCHEDLAB_OUT
 * honoured) whose file name carries the sweep's fingerprint and a hash of the
 * toolkit's code, so a cache of another grid or another build is never read.
 */
export async function records<R>(experiment: PaperExperiment<R>, scale: PaperScale, options: PaperRunOptions = {}): Promise<R> {
  if (scale === 'paper') return experiment.results(await runPaperSweep(experiment, { ...options, scale }));
  const sweep = experiment.sweep('quick');
  const dir = path.join(outBase(), experiment.notebook, 'sweeps');
  const file = `${stem(sweep.name)}.${sweep.fingerprint}-${codeHash()}.jsonl`;
  fs.mkdirSync(dir, { recursive: true });
  // Caches of an earlier grid or build are never read again.
  for (const f of fs.readdirSync(dir)) if (f.startsWith(`${stem(sweep.name)}.`) && f.endsWith('.jsonl') && f !== file) fs.rmSync(path.join(dir, f), { force: true });
  return experiment.results(
    await runSweep(sweep, { out: path.join(dir, file), workers: options.workers, progress: options.progress, signal: options.signal, log: options.log, retries: options.retries }),
  );
}

let codeHashCache: string | undefined;

/** Hash of the toolkit's code (the .js or .ts files of dist/ or src/, whichever this module runs from) and its version. */
export function codeHash(): string {
  if (codeHashCache) return codeHashCache;
  const root = path.resolve(__dirname, '..', '..');
  const h = createHash('sha256').update(toolkitVersion());
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(js|ts)$/.test(e.name) && !e.name.endsWith('.d.ts')) h.update(path.relative(root, p)).update(fs.readFileSync(p));
    }
  };
  walk(root);
  return (codeHashCache = h.digest('hex').slice(0, 12));
}

/**
 * The cell results of a finished run, in the sweep's enumeration order.
 * Refuses (naming the cells) when cells failed or are missing, since a
 * paper table over a partial grid would silently mean something else.
 */
export function completeResults<T>(summary: PaperSummary): T[] {
  const failed = summary.records.filter((r) => r.status === 'failed');
  if (summary.partial && failed.length === 0) return summary.records.map((r: ResultRecord) => r.result as unknown as T);
  if (summary.missing > 0 || failed.length > 0) {
    const first = failed[0];
    throw new Error(
      `${summary.sweep}: ${summary.missing} cell(s) missing and ${failed.length} failed in ${summary.out}` +
        (first ? ` (first failure ${first.key}: ${first.error?.name}: ${first.error?.message})` : '') +
        `. Rerun \`schedlab paper ${summary.sweep.replace(/-quick$/, '')}\` to complete it (failed cells: add --retry-failed once the cause is fixed).`,
    );
  }
  return summary.records.map((r: ResultRecord) => r.result as unknown as T);
}

/** Turn every null field back into NaN (for flat numeric records in which null never means anything else). */
export function nullsToNaN<T extends object>(records: T[]): T[] {
  for (const r of records as Record<string, unknown>[]) for (const k of Object.keys(r)) if (r[k] === null) r[k] = NaN;
  return records;
}

/**
 * Stored records come back with their keys sorted (canonical JSON). Put the
 * listed keys first, in this order, so tables built from the records without
 * an explicit column list look as they do after an in-process run.
 */
export function orderKeys<T extends object>(records: T[], keys: readonly string[]): T[] {
  return records.map((r) => {
    const out: Record<string, unknown> = {};
    for (const k of keys) if (k in r) copyField(r, out, k);
    for (const k of Object.keys(r)) if (!(k in out)) copyField(r, out, k);
    return out as T;
  });
}

/**
 * The scale a notebook runs at: SCHEDLAB_SCALE when set, otherwise `paper`
 * when committed paper-scale results of the current sweep version exist and
 * check out, and `quick` (everything live, small) when they do not.
 */
export function notebookScale(experiment: PaperExperiment, options: { committedRoot?: string } = {}): PaperScale {
  const env = process.env.SCHEDLAB_SCALE;
  if (env === 'paper' || env === 'quick') return env;
  if (env) throw new Error(`SCHEDLAB_SCALE must be paper or quick, got ${JSON.stringify(env)}`);
  // A damaged committed pair reads as none (its status line says why): the notebook still renders, at quick scale.
  return loadCommittedResults(experiment, options).records.length > 0 ? 'paper' : 'quick';
}

async function committedSummary(experiment: PaperExperiment, committed: CommittedResults, options: PaperRunOptions): Promise<PaperSummary> {
  // On stdout: these are status lines of a rendered notebook, not warnings.
  const log = options.log ?? ((s: string) => process.stdout.write(s + '\n'));
  const t0 = Date.now();
  log(committed.status);
  const envSample = process.env.SCHEDLAB_VERIFY_SAMPLE;
  const sample = options.verifySample ?? (envSample !== undefined ? Number(envSample) : 20);
  if (!(Number.isInteger(sample) && sample >= 0)) throw new Error(`verify sample must be a whole number ≥ 0, got ${JSON.stringify(envSample ?? sample)}`);
  const envRotation = process.env.SCHEDLAB_VERIFY_ROTATION;
  const rotation = envRotation !== undefined ? Number(envRotation) : undefined;
  if (rotation !== undefined && !Number.isInteger(rotation)) throw new Error(`SCHEDLAB_VERIFY_ROTATION must be a whole number, got ${JSON.stringify(envRotation)}`);
  const ok = committed.records.filter((r) => r.status === 'ok');
  const picked = rotatingSample(ok, sample, { stratify: experiment.stratifyBy, rotation });
  const verified = sample > 0 ? await verifyCommittedSample(experiment, committed, { cells: picked.cells }) : [];
  if (verified.length) {
    const s = verified.reduce((a, c) => a + c.ms, 0) / 1000;
    const by = experiment.stratifyBy ?? 'cell';
    const rotationText = picked.blocks > 1 ? `; ${by} block ${picked.block + 1} of ${picked.blocks}: each of the ${picked.strata} values of ${by} is re-run once every ${picked.blocks} renders (SCHEDLAB_VERIFY_ROTATION picks the block)` : `, every value of ${by} represented`;
    log(`${experiment.notebook}: re-ran ${verified.length} sampled cells live (${s.toFixed(1)} s${rotationText}): every result identical to the committed one${experiment.timingFields?.length ? ` (timing fields ${experiment.timingFields.join(', ')} aside)` : ''}`);
  }
  // Flattened on first use: a notebook reads the records, and 152k rows cost seconds it never uses.
  let rows: ResultRow[] | undefined;
  return {
    sweep: experiment.sweep('paper').name,
    out: committed.file,
    shard: null,
    total: committed.cells,
    skipped: committed.records.length,
    ok: 0,
    failed: 0,
    missing: committed.missing,
    interrupted: false,
    elapsedMs: Date.now() - t0,
    records: committed.records,
    get rows() {
      return (rows ??= toRows(committed.records));
    },
    warnings: [],
    partial: committed.missing > 0,
    status: committed.status,
    verified,
  };
}
