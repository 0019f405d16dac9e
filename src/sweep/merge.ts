/**
 * Merging results files (e.g. one per Slurm array task) into one, refusing
 * inputs that do not belong together.
 */
import * as fs from 'fs';
import * as path from 'path';
import { canonicalJson, SweepDefinition, sweepCells } from './grid';
import { InputError, makeFolder, OutputError } from '../util/errors';
import { latestRecords, readResultsFile, recordContent, ResultRecord, serializeRecord, withResultsLock } from './store';

/** Options of `mergeResults`: the sweep to check against, force, and a log callback. */
export interface MergeOptions {
  /** Overwrite `out` when it exists and is not one of the inputs. */
  force?: boolean;
  /** Check the inputs against this definition and count missing cells. */
  sweep?: SweepDefinition;
  /** Warnings (torn lines in inputs); default writes to stderr. */
  log?: (message: string) => void;
  /** Take over the target's lock even when its holder looks alive (`--break-lock`). */
  breakLock?: boolean;
}

/** What a merge did: output and inputs, records ok and failed, duplicates, missing cells and warnings. */
export interface MergeSummary {
  out: string;
  inputs: string[];
  /** Records written (one per cell). */
  records: number;
  ok: number;
  failed: number;
  /** Records seen more than once across inputs (identical, so merged). */
  duplicates: number;
  /** Cells of `options.sweep` with no record (null without `sweep`). */
  missing: number | null;
  warnings: string[];
}

const IDENTITY: { field: keyof ResultRecord; what: string; advice: string }[] = [
  { field: 'sweep', what: 'sweep', advice: 'only shards of one sweep can be merged' },
  { field: 'sweepVersion', what: 'sweep version', advice: 'rerun the older shards with the current version' },
  {
    field: 'definition',
    what: 'sweep definition (fingerprint)',
    advice: 'the grid, fixed values, replications or cell export differ; rerun all shards from one definition',
  },
  { field: 'toolkit', what: 'schedlab version', advice: 'rerun all shards with one toolkit version' },
];

/**
 * Combine results files into `out` (one record per cell, sorted by key).
 * Refuses, with a message naming both files, records of different sweeps,
 * sweep versions, definitions or toolkit versions, and a cell whose results
 * differ between inputs. `out` may be one of the inputs (incremental merge).
 */
export function mergeResults(out: string, inputs: readonly string[], options: MergeOptions = {}): MergeSummary {
  // The target's lock is held from before the inputs are read (the target may
  // be one of them) until it is replaced: a run appending to it meanwhile
  // would otherwise lose every record written after the read.
  return withResultsLock(path.resolve(out), () => mergeLocked(out, inputs, options), { breakLock: options.breakLock });
}

function mergeLocked(out: string, inputs: readonly string[], options: MergeOptions): MergeSummary {
  const log = options.log ?? ((m: string) => process.stderr.write(`warning: ${m}\n`));
  if (inputs.length === 0) throw new InputError('merge: no input files given', { source: 'merge', field: 'inputs' });
  const outAbs = path.resolve(out);
  const inAbs = inputs.map((f) => path.resolve(f));
  for (const f of inAbs) if (!fs.existsSync(f)) throw new InputError(`merge: input file not found: ${f}`, { source: f });
  if (fs.existsSync(outAbs) && !inAbs.includes(outAbs) && !options.force) {
    throw new InputError(`merge: ${out} already exists; pass it as an input too to add to it, or use --force to overwrite`, { source: out, field: 'out' });
  }
  const warnings: string[] = [];
  let ref: { record: ResultRecord; file: string } | null = null;
  if (options.sweep) {
    const s = options.sweep;
    ref = {
      file: 'the sweep definition',
      record: { sweep: s.name, sweepVersion: s.version, definition: s.fingerprint } as ResultRecord,
    };
  }
  const all: { record: ResultRecord; file: string }[] = [];
  for (const file of new Set(inAbs)) {
    const report = readResultsFile(file);
    for (const w of report.warnings) {
      warnings.push(w);
      log(w);
    }
    for (const record of report.records) {
      if (!ref) ref = { record, file };
      for (const { field, what, advice } of IDENTITY) {
        if (ref.record[field] === undefined) continue;
        if (record[field] !== ref.record[field]) {
          throw new InputError(
            `merge refused: ${file} has ${what} ${JSON.stringify(record[field])} but ${ref.file} has ` +
              `${JSON.stringify(ref.record[field])}; ${advice}.`,
            { source: file, field },
          );
        }
      }
      all.push({ record, file });
    }
  }
  // Same cell in several inputs: identical content merges; different results are refused.
  const okSeen = new Map<string, { content: string; file: string }>();
  let duplicates = 0;
  for (const { record, file } of all) {
    if (record.status !== 'ok') continue;
    const content = canonicalJson(recordContent(record));
    const prev = okSeen.get(record.key);
    if (!prev) okSeen.set(record.key, { content, file });
    else if (prev.content !== content) {
      throw new InputError(
        `merge refused: cell ${record.key} has different results in ${prev.file} and ${file}; ` +
          `the cell is not deterministic or the files come from different code.`,
        { source: file, field: record.key },
      );
    } else duplicates++;
  }
  const merged = latestRecords(all.map((x) => x.record));
  // Without a definition to count against, the shard labels the records carry still tell a shard is missing.
  if (!options.sweep) {
    const counts = new Set<number>();
    const seen = new Set<number>();
    for (const { record } of all) {
      const m = /^(\d+)\/(\d+)$/.exec(record.run?.shard ?? '');
      if (m) {
        seen.add(Number(m[1]));
        counts.add(Number(m[2]));
      }
    }
    for (const n of counts) {
      const absent = Array.from({ length: n }, (_, i) => i).filter((i) => !seen.has(i));
      if (absent.length > 0) {
        const w = `merge: no records of shard${absent.length > 1 ? 's' : ''} ${absent.map((i) => `${i}/${n}`).join(', ')} among the inputs (records carry shards of ${n}); pass --sweep to count the missing cells`;
        warnings.push(w);
        log(w);
      }
    }
  }
  let missing: number | null = null;
  if (options.sweep) {
    const have = new Set(merged.map((r) => r.key));
    missing = sweepCells(options.sweep).filter((c) => !have.has(c.key)).length;
  }
  // Written to a temporary file and renamed, so a full disk never leaves `out` half written
  // (an existing `out`, possibly one of the inputs, stays as it was).
  try {
    makeFolder(path.dirname(outAbs));
  } catch (e) {
    throw new OutputError('create the folder of', outAbs, (e as OutputError).cause ?? e);
  }
  const tmp = `${outAbs}.merge-${process.pid}.tmp`;
  try {
    // Record by record: the whole file as one string could exceed the 512 MiB a string may hold.
    const fd = fs.openSync(tmp, 'w');
    try {
      for (const r of merged) fs.writeSync(fd, serializeRecord(r));
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, outAbs);
  } catch (e) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      /* nothing was created */
    }
    throw new OutputError('write merged results to', outAbs, e);
  }
  return {
    out: outAbs,
    inputs: [...new Set(inAbs)],
    records: merged.length,
    ok: merged.filter((r) => r.status === 'ok').length,
    failed: merged.filter((r) => r.status === 'failed').length,
    duplicates,
    missing,
    warnings,
  };
}
