/**
 * `schedlab sweep …`: run, inspect, merge and distribute sweeps.
 *
 *   schedlab sweep run <sweep> [--out F] [--workers N] [--shard i/n] [--where NAME=V1,V2]... [--retries N] [--retry-failed]
 *                              [--timeout S] [--progress auto|bar|lines|none] [--break-lock]
 *   schedlab sweep status <sweep> [--out F] [--shard i/n]      (or: status <results.jsonl>)
 *   schedlab sweep merge <out.jsonl> <in.jsonl>... [--sweep <sweep>] [--force] [--break-lock]
 *   schedlab sweep slurm <sweep> --shards N [--out-dir D] [--cpus-per-task C] [--time T] [--mem M]
 *                        [--partition P] [--account A] [--max-concurrent K] [--setup CMD]...
 *                        [--sbatch OPT]... [--node PATH] [--script FILE]
 *
 * <sweep> is a JSON file with the SweepSpec fields or a module exporting a
 * sweep (`file.js`, `file.js#exportName`).
 */
import * as fs from 'fs';
import { loadSweepFile } from '../sweep/load';
import { defaultOutFile, runSweep, ProgressMode } from '../sweep/run';
import { formatShard, parseShard, parseWhere, shardCells, sweepCells } from '../sweep/grid';
import { latestRecords, readResultsFile } from '../sweep/store';
import { mergeResults } from '../sweep/merge';
import { slurmPaths, slurmScript } from '../sweep/slurm';
import { InputError, makeFolder, OutputError, UsageError as BaseUsageError } from '../util/errors';

const USAGE = `usage: schedlab sweep <command> ...
  run <sweep> [--out FILE] [--workers N] [--shard i/n] [--where NAME=V1,V2]... [--retries N]
              [--retry-failed] [--timeout SECONDS] [--progress auto|bar|lines|none] [--break-lock]
  status <sweep> [--out FILE] [--shard i/n]   |   status <results.jsonl>
  merge <out.jsonl> <in.jsonl>... [--sweep <sweep>] [--force] [--break-lock]
  slurm <sweep> --shards N [--out-dir DIR] [--cpus-per-task C] [--time HH:MM:SS] [--mem M]
        [--partition P] [--account A] [--max-concurrent K] [--setup CMD]... [--sbatch OPT]...
        [--node PATH] [--retries N] [--script FILE]
<sweep> is a JSON file (name, version?, cell {module, export?}, grid, replications?, fixed?)
or a JS/TS module exporting a sweep made with defineSweep (file.js or file.js#exportName).`;

const BOOLEAN = new Set(['retry-failed', 'break-lock', 'force', 'help']);
const REPEATED = new Set(['setup', 'sbatch', 'where']);

interface Args {
  positional: string[];
  flags: Map<string, string[]>;
}

/** Parse `--name value`, `--name=value` and boolean `--flag`. */
export function parseArgs(argv: readonly string[]): Args {
  const args: Args = { positional: [], flags: new Map() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      args.positional.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      let value: string;
      if (eq > 0) value = a.slice(eq + 1);
      else if (BOOLEAN.has(name)) value = 'true';
      else {
        if (i + 1 >= argv.length) throw new UsageError(`option --${name} needs a value`, `--${name}`);
        value = argv[++i];
      }
      const list = args.flags.get(name) ?? [];
      list.push(value);
      args.flags.set(name, list);
    } else args.positional.push(a);
  }
  return args;
}

/** A bad flag or argument of `schedlab sweep`; `field` is the flag. */
class UsageError extends BaseUsageError {
  constructor(message: string, flag?: string) {
    super(message, { source: 'schedlab sweep', ...(flag !== undefined ? { field: flag } : {}) });
  }
}

function flag(args: Args, name: string): string | undefined {
  const v = args.flags.get(name);
  if (v && v.length > 1 && !REPEATED.has(name)) throw new UsageError(`option --${name} given more than once`, `--${name}`);
  return v?.[v.length - 1];
}

function intFlag(args: Args, name: string, min: number): number | undefined {
  const v = flag(args, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got ${JSON.stringify(v)}`, `--${name}`);
  return n;
}

function checkFlags(args: Args, allowed: string[]): void {
  for (const name of args.flags.keys()) {
    if (!allowed.includes(name)) throw new UsageError(`unknown option --${name}`, `--${name}`);
  }
}

/** The command line that resumes this run (shown after Ctrl-C). */
function resumeHint(): string {
  const argv = process.argv.slice(1).map((a) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`));
  return `\`${['node', ...argv].join(' ')}\``;
}

async function cmdRun(args: Args, out: (s: string) => void): Promise<number> {
  checkFlags(args, ['out', 'workers', 'shard', 'where', 'retries', 'retry-failed', 'timeout', 'progress', 'break-lock']);
  if (args.positional.length !== 1) throw new UsageError('run needs exactly one <sweep> file');
  const sweep = loadSweepFile(args.positional[0]);
  const timeout = flag(args, 'timeout');
  const timeoutSeconds = timeout === undefined ? undefined : Number(timeout);
  if (timeoutSeconds !== undefined && (timeout!.trim() === '' || !(timeoutSeconds > 0) || 1000 * timeoutSeconds > 2 ** 31 - 1)) {
    throw new UsageError(`--timeout must be a number of seconds in (0, ${Math.floor((2 ** 31 - 1) / 1000)}], got ${JSON.stringify(timeout)}`, '--timeout');
  }
  const progress = (flag(args, 'progress') ?? 'auto') as ProgressMode;
  if (!['auto', 'bar', 'lines', 'none'].includes(progress)) throw new UsageError(`--progress must be auto, bar, lines or none, got ${JSON.stringify(progress)}`, '--progress');
  const summary = await runSweep(sweep, {
    out: flag(args, 'out'),
    workers: intFlag(args, 'workers', 0),
    shard: flag(args, 'shard'),
    ...(args.flags.has('where') ? { where: parseWhere(args.flags.get('where')!) } : {}),
    retries: intFlag(args, 'retries', 0),
    retryFailed: flag(args, 'retry-failed') === 'true',
    cellTimeoutMs: timeoutSeconds === undefined ? undefined : 1000 * timeoutSeconds,
    progress,
    breakLock: flag(args, 'break-lock') === 'true',
    resumeHint: resumeHint(),
  });
  out(
    `${summary.sweep}${summary.shard ? ` shard ${summary.shard}` : ''}: ${summary.total} cells, ` +
      `${summary.skipped} already done, ${summary.ok} ok and ${summary.failed} failed now, ${summary.missing} missing → ${summary.out}`,
  );
  if (summary.interrupted) return 130;
  return summary.records.some((r) => r.status === 'failed') ? 2 : 0;
}

function cmdStatus(args: Args, out: (s: string) => void): number {
  checkFlags(args, ['out', 'shard']);
  if (args.positional.length !== 1) throw new UsageError('status needs one <sweep> file or one results .jsonl file');
  const target = args.positional[0];
  if (target.endsWith('.jsonl')) {
    if (!fs.existsSync(target)) throw new InputError(`results file not found: ${target}`, { source: target });
    const report = readResultsFile(target);
    report.warnings.forEach((w) => out(`warning: ${w}`));
    const latest = latestRecords(report.records);
    const first = report.records[0];
    out(
      first
        ? `${target}: sweep "${first.sweep}" (definition ${first.definition}, schedlab ${first.toolkit}): ` +
            `${latest.length} cells, ${latest.filter((r) => r.status === 'ok').length} ok, ` +
            `${latest.filter((r) => r.status === 'failed').length} failed`
        : `${target}: no records`,
    );
    return 0;
  }
  const sweep = loadSweepFile(target);
  const shardText = flag(args, 'shard');
  const shard = shardText ? parseShard(shardText) : null;
  const cells = shard ? shardCells(sweepCells(sweep), shard) : sweepCells(sweep);
  const file = flag(args, 'out') ?? defaultOutFile(sweep, shard);
  const report = readResultsFile(file);
  report.warnings.forEach((w) => out(`warning: ${w}`));
  const byKey = new Map(latestRecords(report.records).map((r) => [r.key, r]));
  const foreign = report.records.find((r) => r.definition !== sweep.fingerprint);
  if (foreign) out(`warning: ${file} holds records of another definition (${foreign.definition}, now ${sweep.fingerprint})`);
  let ok = 0;
  let failed = 0;
  for (const c of cells) {
    const r = byKey.get(c.key);
    if (r?.status === 'ok') ok++;
    else if (r?.status === 'failed') failed++;
  }
  const todo = cells.length - ok - failed;
  out(
    `${sweep.name}${shard ? ` shard ${formatShard(shard)}` : ''}: ${cells.length} cells, ${ok} ok, ${failed} failed, ` +
      `${todo} to run (${file}${fs.existsSync(file) ? '' : ', not started'})`,
  );
  const failures = cells.map((c) => byKey.get(c.key)).filter((r) => r?.status === 'failed');
  for (const r of failures.slice(0, 5)) out(`  failed ${r!.key}: ${r!.error?.name}: ${r!.error?.message}`);
  if (failures.length > 5) out(`  … and ${failures.length - 5} more failed (rerun them with --retry-failed)`);
  return 0;
}

function cmdMerge(args: Args, out: (s: string) => void): number {
  checkFlags(args, ['sweep', 'force', 'break-lock']);
  if (args.positional.length < 2) throw new UsageError('merge needs <out.jsonl> and at least one input file');
  const [target, ...inputs] = args.positional;
  const sweepFile = flag(args, 'sweep');
  const s = mergeResults(target, inputs, {
    force: flag(args, 'force') === 'true',
    sweep: sweepFile ? loadSweepFile(sweepFile) : undefined,
    breakLock: flag(args, 'break-lock') === 'true',
  });
  out(
    `merged ${s.inputs.length} file(s) into ${s.out}: ${s.records} cells (${s.ok} ok, ${s.failed} failed)` +
      (s.duplicates ? `, ${s.duplicates} identical duplicates dropped` : '') +
      (s.missing !== null ? `, ${s.missing} cells of the sweep missing` : ''),
  );
  return 0;
}

function cmdSlurm(args: Args, out: (s: string) => void): number {
  checkFlags(args, [
    'shards', 'out-dir', 'cpus-per-task', 'time', 'mem', 'partition', 'account', 'max-concurrent',
    'setup', 'sbatch', 'node', 'retries', 'script', 'job-name',
  ]);
  if (args.positional.length !== 1) throw new UsageError('slurm needs exactly one <sweep> file');
  const shards = intFlag(args, 'shards', 1);
  if (shards === undefined) throw new UsageError('slurm needs --shards N (the number of array tasks)');
  const sweepFile = args.positional[0];
  const sweep = loadSweepFile(sweepFile);
  const options = {
    sweepFile,
    sweepName: sweep.name,
    shards,
    outDir: flag(args, 'out-dir'),
    jobName: flag(args, 'job-name'),
    cpusPerTask: intFlag(args, 'cpus-per-task', 1),
    time: flag(args, 'time'),
    mem: flag(args, 'mem'),
    partition: flag(args, 'partition'),
    account: flag(args, 'account'),
    maxConcurrent: intFlag(args, 'max-concurrent', 1),
    setup: args.flags.get('setup'),
    sbatch: args.flags.get('sbatch'),
    node: flag(args, 'node'),
    retries: intFlag(args, 'retries', 0),
  };
  const text = slurmScript(options);
  const paths = slurmPaths(options);
  // Slurm opens the log file before the script runs, so its folder must exist.
  makeFolder(paths.logDir);
  const script = flag(args, 'script');
  if (script) {
    try {
      fs.writeFileSync(script, text, { mode: 0o755 });
    } catch (e) {
      throw new OutputError('write the Slurm script', script, e);
    }
    out(`wrote ${script}: ${shards} array tasks over ${sweepCells(sweep).length} cells; submit with: sbatch ${script}`);
  } else out(text.trimEnd());
  if (!fs.existsSync(paths.cli)) {
    process.stderr.write(`warning: ${paths.cli} does not exist yet; build with \`npx tsc -p tsconfig.json\` before submitting\n`);
  }
  return 0;
}

/**
 * Entry point: `argv` after `sweep` (e.g. `['run', 'sweep.json']`).
 * Resolves to the exit code (0 ok, 1 error, 2 some cells failed, 130 interrupted).
 */
export async function sweepMain(argv: readonly string[], out: (s: string) => void = (s) => process.stdout.write(s + '\n')): Promise<number> {
  try {
    const [command, ...rest] = argv;
    const args = parseArgs(rest);
    if (!command || command === 'help' || command === '--help' || args.flags.has('help')) {
      out(USAGE);
      return command ? 0 : 1;
    }
    switch (command) {
      case 'run':
        return await cmdRun(args, out);
      case 'status':
        return cmdStatus(args, out);
      case 'merge':
        return cmdMerge(args, out);
      case 'slurm':
        return cmdSlurm(args, out);
      default:
        throw new UsageError(`unknown sweep command ${JSON.stringify(command)}`, command);
    }
  } catch (e) {
    process.stderr.write(`schedlab sweep: ${(e as Error).message}\n`);
    if (e instanceof UsageError) process.stderr.write(USAGE + '\n');
    return 1;
  }
}

if (require.main === module) {
  sweepMain(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
