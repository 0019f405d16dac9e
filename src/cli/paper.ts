/**
 * `schedlab paper <notebook>`: run a paper notebook's full-scale experiment
 * through the sweep engine into `results/<notebook>/` (all cores, resumable,
 * progress), one shard of it (`--shard i/n`), or write a Slurm job array for
 * it (`--slurm N`). The notebook at SCHEDLAB_SCALE=paper then reads the
 * results (and runs whatever is still missing through the same sweep).
 */
import * as fs from 'fs';
import * as path from 'path';
import { TOOLKIT_ROOT } from '../sweep/cellmodule';
import { filterCells, parseShard, parseWhere, shardCells, sweepCells } from '../sweep/grid';
import { ProgressMode } from '../sweep/run';
import { slurmPaths, slurmScript } from '../sweep/slurm';
import { latestRecords, readResultsFile } from '../sweep/store';
import {
  findPaperExperiment,
  PAPER_EXPERIMENTS,
  paperResultsDir,
  paperResultsFile,
  PaperScale,
  runPaperSweep,
  shardFiles,
  loadCommittedResults,
  publishPaperResults,
  resealCommittedResults,
  verifyCommittedSample,
} from '../sweep/papers';

const USAGE = `usage: schedlab paper <notebook> [--workers N] [--shard i/n] [--where NAME=V1,V2]... [--scale quick|paper]
                      [--progress auto|bar|lines|none] [--retries N] [--retry-failed] [--break-lock]
       schedlab paper <notebook> --status [--scale quick|paper]
       schedlab paper <notebook> --verify N|all
       schedlab paper <notebook> [run options] --publish
       schedlab paper <notebook> --reseal
       schedlab paper <notebook> --slurm N [--cpus-per-task C] [--time HH:MM:SS] [--mem M] [--partition P]
                      [--account A] [--setup CMD]... [--sbatch OPT]... [--script FILE] [--scale quick|paper]
       schedlab paper list
Runs the notebook's full-scale sweep into results/<notebook>/ (default --scale paper).
Rerunning resumes: finished cells are skipped; shard files in that folder are merged in first.
--publish then writes the committed copy results/<notebook>/<sweep>.jsonl.gz with provenance.json
(partial results too), both in one atomic step; provenance.json records the file's SHA-256, size and
record count, checked before the committed copy is read. A run with no results file yet starts from it.
--verify N|all re-runs a seeded random sample of N committed cells (or all of them) and fails if any
result differs, saying whether the record differs from a re-run of the code it was published with or
the code changed since. --reseal records the digest of a committed copy published without one (the
.gz is not touched; every record is checked first). --break-lock takes over the lock of a run that is no longer active.
--where part=period runs only the cells with those parameter values (repeat for several names;
values are read as JSON when they parse: load=0.5,0.9, trace_index=3).
<notebook> is a notebook name (e.g. 03-evolving-applications) or a unique prefix (03).`;

const BOOLEAN = new Set(['status', 'help', 'retry-failed', 'publish', 'reseal', 'break-lock']);
const REPEATED = new Set(['setup', 'sbatch', 'where']);
const ALLOWED = new Set([
  'workers', 'shard', 'where', 'scale', 'progress', 'retries', 'retry-failed', 'status', 'help', 'publish', 'verify', 'reseal', 'break-lock',
  'slurm', 'cpus-per-task', 'time', 'mem', 'partition', 'account', 'setup', 'sbatch', 'script', 'max-concurrent', 'node',
]);

class UsageError extends Error {}

function parse(argv: readonly string[]): { positional: string[]; flags: Map<string, string[]> } {
  const positional: string[] = [];
  const flags = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (!ALLOWED.has(name)) throw new UsageError(`unknown option --${name}`);
    let value: string;
    if (eq > 0) value = a.slice(eq + 1);
    else if (BOOLEAN.has(name)) value = 'true';
    else if (i + 1 < argv.length) value = argv[++i];
    else throw new UsageError(`option --${name} needs a value`);
    const list = flags.get(name) ?? [];
    if (list.length > 0 && !REPEATED.has(name)) throw new UsageError(`option --${name} given more than once`);
    list.push(value);
    flags.set(name, list);
  }
  return { positional, flags };
}

function int(flags: Map<string, string[]>, name: string, min: number): number | undefined {
  const v = flags.get(name)?.[0];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got ${JSON.stringify(v)}`);
  return n;
}

function resumeHint(): string {
  const argv = process.argv.slice(1).map((a) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`));
  return `\`${['node', ...argv].join(' ')}\``;
}

/** Entry point: `argv` after `paper`. Resolves to the exit code (0 ok, 1 error, 2 failed cells, 130 interrupted). */
export async function paperMain(argv: readonly string[], out: (s: string) => void = (s) => process.stdout.write(s + '\n')): Promise<number> {
  try {
    const { positional, flags } = parse(argv);
    if (flags.has('help') || positional.length === 0) {
      out(USAGE);
      return positional.length === 0 && !flags.has('help') ? 1 : 0;
    }
    if (positional.length !== 1) throw new UsageError(`expected one notebook name, got ${positional.length}: ${positional.join(' ')}`);
    if (positional[0] === 'list') {
      for (const e of PAPER_EXPERIMENTS) {
        out(`${e.notebook}: ${e.summary} — ${sweepCells(e.sweep('paper')).length} cells (quick: ${sweepCells(e.sweep('quick')).length})`);
      }
      return 0;
    }
    const experiment = findPaperExperiment(positional[0]);
    const scale = (flags.get('scale')?.[0] ?? 'paper') as PaperScale;
    if (scale !== 'paper' && scale !== 'quick') throw new UsageError(`--scale must be quick or paper, got ${JSON.stringify(scale)}`);
    const sweep = experiment.sweep(scale);
    const shard = flags.get('shard')?.[0];
    if (shard !== undefined) parseShard(shard);
    const where = flags.has('where') ? parseWhere(flags.get('where')!) : undefined;

    if (flags.has('status')) {
      const sliced = shard ? shardCells(sweepCells(sweep), parseShard(shard)) : sweepCells(sweep);
      const cells = where ? filterCells(sliced, where) : sliced;
      const files = [paperResultsFile(experiment.notebook, sweep, shard ?? null), ...(shard ? [] : shardFiles(experiment.notebook, sweep))];
      const done = new Map<string, string>();
      for (const f of files) {
        for (const r of latestRecords(readResultsFile(f).records.filter((r) => r.definition === sweep.fingerprint))) {
          if (done.get(r.key) !== 'ok') done.set(r.key, r.status);
        }
      }
      const ok = cells.filter((c) => done.get(c.key) === 'ok').length;
      const failed = cells.filter((c) => done.get(c.key) === 'failed').length;
      out(`${sweep.name}${shard ? ` shard ${shard}` : ''}${where ? ` where ${Object.entries(where).map(([k, v]) => `${k}=${v.join(',')}`).join(' ')}` : ''}: ${cells.length} cells, ${ok} ok, ${failed} failed, ${cells.length - ok - failed} to run (${files.filter((f) => fs.existsSync(f)).join(', ') || 'not started'})`);
      return 0;
    }

    const slurm = int(flags, 'slurm', 1);
    if (slurm !== undefined) {
      const cli = path.join(TOOLKIT_ROOT, 'dist', 'cli', 'sweep.js');
      const moduleFile = path.join(TOOLKIT_ROOT, 'dist', 'sweep', 'papers', `${experiment.notebook}.js`);
      const options = {
        sweepFile: `${moduleFile}#${experiment.exports[scale]}`,
        sweepName: sweep.name,
        shards: slurm,
        outDir: paperResultsDir(experiment.notebook),
        cpusPerTask: int(flags, 'cpus-per-task', 1),
        time: flags.get('time')?.[0],
        mem: flags.get('mem')?.[0],
        partition: flags.get('partition')?.[0],
        account: flags.get('account')?.[0],
        maxConcurrent: int(flags, 'max-concurrent', 1),
        setup: flags.get('setup'),
        sbatch: flags.get('sbatch'),
        node: flags.get('node')?.[0],
        cli,
        workdir: TOOLKIT_ROOT,
      };
      const text =
        slurmScript(options).trimEnd() +
        `\n# After the array: \`node ${path.join(TOOLKIT_ROOT, 'dist', 'bin', 'schedlab.js')} paper ${experiment.notebook}${scale === 'quick' ? ' --scale quick' : ''}\`` +
        `\n# merges the shard files into ${paperResultsFile(experiment.notebook, sweep)} and runs any cell still missing.\n`;
      fs.mkdirSync(slurmPaths(options).logDir, { recursive: true });
      const script = flags.get('script')?.[0];
      if (script) {
        fs.writeFileSync(script, text, { mode: 0o755 });
        out(`wrote ${script}: ${slurm} array tasks over ${sweepCells(sweep).length} cells; submit with: sbatch ${script}`);
      } else out(text.trimEnd());
      if (!fs.existsSync(moduleFile)) process.stderr.write(`warning: ${moduleFile} does not exist yet; build with \`npx tsc -p tsconfig.json\` before submitting\n`);
      return 0;
    }

    const breakLock = flags.has('break-lock');
    if (flags.has('reseal')) {
      const p = resealCommittedResults(experiment, { scale, breakLock });
      out(`${experiment.notebook}: ${p.records} records checked; provenance.json now records sha256 ${p.sha256}, ${p.bytes} bytes, source digest ${p.sourceDigest ?? 'unknown'}`);
      return 0;
    }

    if (flags.has('verify')) {
      const v = flags.get('verify')![0];
      const verify = v === 'all' ? 'all' : int(flags, 'verify', 1)!;
      const committed = loadCommittedResults(experiment, { scale });
      out(committed.status);
      if (committed.records.length === 0) return 1;
      const cells = await verifyCommittedSample(experiment, committed, { sample: verify, scale });
      out(`${experiment.notebook}: ${cells.length} ${verify === 'all' ? '' : 'sampled '}cells re-run, every result identical to the committed one (${(cells.reduce((a, c) => a + c.ms, 0) / 1000).toFixed(1)} s)`);
      return 0;
    }

    const progress = (flags.get('progress')?.[0] ?? 'auto') as ProgressMode;
    if (!['auto', 'bar', 'lines', 'none'].includes(progress)) throw new UsageError('--progress must be auto, bar, lines or none');
    const summary = await runPaperSweep(experiment, {
      scale,
      workers: int(flags, 'workers', 0),
      shard,
      ...(where ? { where } : {}),
      progress,
      retries: int(flags, 'retries', 0),
      retryFailed: flags.has('retry-failed'),
      resumeHint: resumeHint(),
      source: 'run',
      breakLock,
    });
    out(
      `${summary.sweep}${summary.shard ? ` shard ${summary.shard}` : ''}: ${summary.total} cells, ${summary.skipped} already done, ` +
        `${summary.ok} ok and ${summary.failed} failed now, ${summary.missing} missing, ${(summary.elapsedMs / 1000).toFixed(1)} s → ${summary.out}`,
    );
    if (summary.interrupted) return 130;
    if (flags.has('publish') && !shard) {
      const p = publishPaperResults(experiment, { scale, breakLock });
      out(`published ${p.records} of ${p.cells} cells (${p.missing} missing) → results/${experiment.notebook}/ (provenance.json: sha256 ${p.sha256.slice(0, 12)}, ${p.bytes} bytes)`);
    }
    return summary.records.some((r) => r.status === 'failed') ? 2 : 0;
  } catch (e) {
    process.stderr.write(`schedlab paper: ${(e as Error).message}\n`);
    if (e instanceof UsageError) process.stderr.write(USAGE + '\n');
    return 1;
  }
}

if (require.main === module) {
  paperMain(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
