/**
 * Slurm batch scripts for sweeps: a job array whose task i runs shard i/n of
 * the sweep into its own results file; `schedlab sweep merge` joins them.
 */
import * as path from 'path';
import { TOOLKIT_ROOT } from './cellmodule';
import { InputError } from '../util/errors';

/** Options of the generated Slurm array script: sweep, shards, output folder, job name, partition, account, time and resources. */
export interface SlurmOptions {
  /** The sweep as given to `sweep run`: a JSON file or `module.js[#export]`. */
  sweepFile: string;
  /** Sweep name (job name and file names). */
  sweepName: string;
  /** Number of array tasks = shards. */
  shards: number;
  /** Folder for shard files and logs (default `out/sweeps/<name>`). */
  outDir?: string;
  jobName?: string;
  partition?: string;
  account?: string;
  /** Wall-clock limit per task, e.g. `02:00:00`. */
  time?: string;
  /** CPUs per task = worker threads per shard (default 1). */
  cpusPerTask?: number;
  /** Memory per task, e.g. `4G`. */
  mem?: string;
  /** At most this many tasks at once (`--array=0-(n-1)%max`). */
  maxConcurrent?: number;
  /** Shell lines run before the sweep (e.g. `module load nodejs/20`). */
  setup?: string[];
  /** Further `#SBATCH` options, e.g. `--qos=short`. */
  sbatch?: string[];
  /** Node executable (default `node`). */
  node?: string;
  /** The sweep CLI script (default this toolkit's `dist/cli/sweep.js`). */
  cli?: string;
  /** Working directory of the tasks (default: the current one). */
  workdir?: string;
  /** `--retries` for each task. */
  retries?: number;
}

/** Quote a word for bash (only when needed). */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function fileStem(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_');
}

/** Shard file written by array task `i` (a glob when `index` is '*'). */
export function slurmShardFile(outDir: string, sweepName: string, index: number | string, count: number): string {
  return path.join(outDir, `${fileStem(sweepName)}.shard-${index}-of-${count}.jsonl`);
}

/** Paths the script uses (absolute). */
export function slurmPaths(o: SlurmOptions): { outDir: string; logDir: string; merged: string; cli: string; workdir: string } {
  const workdir = path.resolve(o.workdir ?? process.cwd());
  const outDir = path.resolve(workdir, o.outDir ?? path.join('out', 'sweeps', fileStem(o.sweepName)));
  return {
    workdir,
    outDir,
    logDir: path.join(outDir, 'logs'),
    merged: path.join(outDir, `${fileStem(o.sweepName)}.jsonl`),
    cli: path.resolve(o.cli ?? path.join(TOOLKIT_ROOT, 'dist', 'cli', 'sweep.js')),
  };
}

/** A ready-to-submit `sbatch` script (text). The log folder must exist before submission. */
export function slurmScript(o: SlurmOptions): string {
  if (!Number.isInteger(o.shards) || o.shards < 1) throw new InputError(`shards must be an integer ≥ 1, got ${o.shards}`, { source: 'slurmScript', field: 'shards' });
  const cpus = o.cpusPerTask ?? 1;
  if (!Number.isInteger(cpus) || cpus < 1) throw new InputError(`cpus-per-task must be an integer ≥ 1, got ${o.cpusPerTask}`, { source: 'slurmScript', field: 'cpusPerTask' });
  const p = slurmPaths(o);
  const node = o.node ?? 'node';
  const stem = fileStem(o.sweepName);
  const q = shellQuote;
  const sweepArg = path.resolve(p.workdir, o.sweepFile);
  const shardOut = `${q(p.outDir)}/${stem}.shard-\${SLURM_ARRAY_TASK_ID}-of-${o.shards}.jsonl`;
  const mergeCmd = `${node} ${q(p.cli)} merge ${q(p.merged)} ${q(p.outDir)}/${stem}.shard-*-of-${o.shards}.jsonl`;
  const array = `0-${o.shards - 1}${o.maxConcurrent ? `%${o.maxConcurrent}` : ''}`;
  const lines = [
    '#!/bin/bash',
    `#SBATCH --job-name=${q(o.jobName ?? stem)}`,
    `#SBATCH --array=${array}`,
    '#SBATCH --ntasks=1',
    `#SBATCH --cpus-per-task=${cpus}`,
    ...(o.time ? [`#SBATCH --time=${o.time}`] : []),
    ...(o.mem ? [`#SBATCH --mem=${o.mem}`] : []),
    ...(o.partition ? [`#SBATCH --partition=${o.partition}`] : []),
    ...(o.account ? [`#SBATCH --account=${o.account}`] : []),
    `#SBATCH --output=${p.logDir}/%x-%A_%a.out`,
    ...(o.sbatch ?? []).map((s) => `#SBATCH ${s}`),
    '#',
    `# Sweep "${o.sweepName}" split into ${o.shards} shards, one per array task.`,
    `# Submit:  mkdir -p ${q(p.logDir)} && sbatch <this file>`,
    '# A task that dies can simply be resubmitted (sbatch --array=<ids> <this file>):',
    '# cells already in its shard file are skipped.',
    '# When all tasks are done, merge the shards:',
    `#   ${mergeCmd}`,
    '# or chain it: sbatch --dependency=afterok:<jobid> --wrap "<the merge command>"',
    '',
    'set -euo pipefail',
    `cd ${q(p.workdir)}`,
    ...(o.setup ?? []),
    `mkdir -p ${q(p.outDir)}`,
    `exec ${node} ${q(p.cli)} run ${q(sweepArg)} \\`,
    `  --shard "\${SLURM_ARRAY_TASK_ID}/${o.shards}" \\`,
    `  --out "${shardOut}" \\`,
    `  --workers "\${SLURM_CPUS_PER_TASK:-${cpus}}" \\`,
    ...(o.retries ? [`  --retries ${o.retries} \\`] : []),
    '  --progress lines',
    '',
  ];
  return lines.join('\n');
}
