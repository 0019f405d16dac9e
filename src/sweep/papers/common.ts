/**
 * Shared plumbing of the paper-scale experiments: where their results live,
 * how a notebook's sweep is run (resuming, merging Slurm shard files first),
 * and how stored records become the plain records the notebooks analyse.
 *
 * Each notebook module (`./<notebook>.ts`) exports a `PaperExperiment`: the
 * notebook name and its sweep at a given scale, built from the families' cell
 * functions. The command line (`schedlab paper <notebook>`) and the notebook
 * (at SCHEDLAB_SCALE=paper) both go through `runPaperSweep`, so a results file
 * written by one is read (and completed) by the other.
 */
import * as fs from 'fs';
import * as path from 'path';
import { SweepDefinition } from '../grid';
import { TOOLKIT_ROOT } from '../cellmodule';
import { mergeResults } from '../merge';
import { ProgressMode, runSweep, SweepSummary } from '../run';
import { ResultRecord } from '../store';

export type PaperScale = 'quick' | 'paper';

/** One notebook's experiment at paper (and quick) scale. */
export interface PaperExperiment {
  /** Notebook name without `.ipynb`, e.g. `03-evolving-applications`. */
  notebook: string;
  /** One line: what the sweep computes. */
  summary: string;
  /** The sweep at a scale (`paper`: the published grid; `quick`: the notebook's quick sizes). */
  sweep(scale: PaperScale): SweepDefinition;
  /** Name of the module export holding each scale's sweep (for `schedlab sweep run file.js#name`, Slurm). */
  exports: Record<PaperScale, string>;
}

export interface PaperRunOptions {
  /** Default 'paper'. */
  scale?: PaperScale;
  /** Worker threads (default: all cores); 0 runs in this thread. */
  workers?: number;
  /** Run one slice `i/n` into its own shard file (for Slurm array tasks). */
  shard?: string;
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
}

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
export async function runPaperSweep(experiment: PaperExperiment, options: PaperRunOptions = {}): Promise<SweepSummary> {
  const scale = options.scale ?? 'paper';
  const sweep = experiment.sweep(scale);
  const out = paperResultsFile(experiment.notebook, sweep, options.shard ?? null, options.resultsRoot);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  if (!options.shard) {
    // Shard files not newer than the results file were merged into it already.
    const outTime = fs.existsSync(out) ? fs.statSync(out).mtimeMs : -Infinity;
    const shards = shardFiles(experiment.notebook, sweep, options.resultsRoot);
    if (shards.some((f) => fs.statSync(f).mtimeMs >= outTime)) {
      const inputs = fs.existsSync(out) ? [out, ...shards] : shards;
      const m = mergeResults(out, inputs, { sweep, log: options.log });
      (options.log ?? ((s: string) => process.stderr.write(s + '\n')))(
        `${sweep.name}: merged ${shards.length} shard file(s) into ${out} (${m.records} cells, ${m.missing ?? '?'} missing)`,
      );
    }
  }
  return runSweep(sweep, {
    out,
    workers: options.workers,
    shard: options.shard,
    progress: options.progress,
    retries: options.retries,
    retryFailed: options.retryFailed,
    signal: options.signal,
    resumeHint: options.resumeHint,
    log: options.log,
  });
}

/**
 * The cell results of a finished run, in the sweep's enumeration order.
 * Refuses (naming the cells) when cells failed or are missing, since a
 * paper table over a partial grid would silently mean something else.
 */
export function completeResults<T>(summary: SweepSummary): T[] {
  const failed = summary.records.filter((r) => r.status === 'failed');
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

/**
 * JSON stores NaN and ±Infinity as null. Put NaN back in the named numeric
 * fields so analyses see the same values as an in-process run.
 */
export function restoreNaN<T extends object>(records: T[], fields: readonly string[]): T[] {
  for (const r of records as Record<string, unknown>[]) {
    for (const f of fields) if (r[f] === null) r[f] = NaN;
  }
  return records;
}

/**
 * Guard against a notebook and its papers module drifting apart: every value
 * the notebook passes in `expected` must equal the sweep's (compared as JSON).
 */
export function checkExpected(notebook: string, expected: Record<string, unknown> | undefined, actual: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(expected ?? {})) {
    if (v === undefined) continue;
    if (!(k in actual)) throw new Error(`${notebook}: the paper-scale sweep has no parameter "${k}" (it has ${Object.keys(actual).join(', ')})`);
    if (JSON.stringify(v) !== JSON.stringify(actual[k])) {
      throw new Error(
        `${notebook}: the notebook's ${k} = ${JSON.stringify(v)} differs from the paper-scale sweep's ${JSON.stringify(actual[k])} ` +
          `(src/sweep/papers/${notebook}.ts); change both together`,
      );
    }
  }
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
    for (const k of keys) if (k in r) out[k] = (r as Record<string, unknown>)[k];
    for (const [k, v] of Object.entries(r)) if (!(k in out)) out[k] = v;
    return out as T;
  });
}
