/**
 * `schedlab convert IN OUT`: a workload from one format to another.
 *
 *   schedlab convert IN OUT [--from swf|sacct|batsim] [--to swf|batsim]
 *                    [--machine-size P] [--unit cpus|nodes] [--lenient]
 *
 * Inputs: SWF (plain or gzip, read streaming with the SWF reader's checks),
 * Slurm sacct logs (`sacct --parsable2`, streaming) and Batsim JSON
 * workloads (read whole: one JSON document). Outputs: SWF and Batsim JSON,
 * written as a stream through a temporary file. Formats come from the
 * extensions (`.swf`, `.swf.gz`; `.json`, `.json.gz`; `.sacct`, `.txt`,
 * `.psv`, `.log`) unless given. Field mappings: docs/formats.md.
 */
import * as path from 'path';
import { readSwf, headerMachineSize, swfLines, SwfHeader } from '../workloads/swf';
import { readSacct } from '../workloads/sacct';
import { readBatsimWorkload, batsimWorkloadJson } from '../workloads/batsim';
import { WorkloadJob } from '../workloads/job';
import { InputError, OutputError, UsageError as BaseUsageError, writeFileSafely } from '../util/errors';

export const CONVERT_USAGE = `usage: schedlab convert IN OUT [options]
  IN, OUT               files; formats from the extensions: .swf[.gz] (SWF), .json[.gz] (Batsim
                        JSON workload), .sacct/.txt/.psv/.log (Slurm sacct --parsable2 log, input only)
  --from F              input format: swf | sacct | batsim
  --to F                output format: swf | batsim
  --machine-size P      processors (or nodes) of the machine: checks every job against it, and is
                        the SWF MaxProcs / Batsim nb_res (default: the input's, if it has one)
  --unit U              sacct: count a job's cpus (default) or nodes
  --lenient             skip and count malformed lines instead of failing
  --help                show this help
Details: docs/formats.md`;

export type WorkloadFormat = 'swf' | 'sacct' | 'batsim';
const INPUTS: readonly WorkloadFormat[] = ['swf', 'sacct', 'batsim'];
const OUTPUTS: readonly WorkloadFormat[] = ['swf', 'batsim'];

/** A bad flag or argument of `schedlab convert`. */
class UsageError extends BaseUsageError {
  constructor(message: string, flag?: string) {
    super(message, { source: 'schedlab convert', ...(flag !== undefined ? { field: flag } : {}) });
  }
}

/** The workload format a file name implies, if any. */
export function workloadFormatOf(file: string): WorkloadFormat | undefined {
  const f = file.toLowerCase().replace(/\.gz$/, '');
  if (f.endsWith('.swf')) return 'swf';
  if (f.endsWith('.json')) return 'batsim';
  if (/\.(sacct|txt|psv|log)$/.test(f)) return 'sacct';
  return undefined;
}

const VALUE_FLAGS = new Set(['from', 'to', 'machine-size', 'unit']);
const BOOL_FLAGS = new Set(['lenient', 'help']);

function parseArgs(argv: readonly string[]): { files: string[]; flags: Map<string, string> } {
  const files: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      files.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.slice(2, eq < 0 ? undefined : eq);
    if (flags.has(name)) throw new UsageError(`option --${name} given twice`, `--${name}`);
    if (BOOL_FLAGS.has(name)) {
      if (eq >= 0) throw new UsageError(`option --${name} takes no value`, `--${name}`);
      flags.set(name, 'true');
    } else if (VALUE_FLAGS.has(name)) {
      const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined || v === '' || (eq < 0 && v.startsWith('--'))) throw new UsageError(`option --${name} needs a value`, `--${name}`);
      flags.set(name, v);
    } else throw new UsageError(`unknown option --${name}`, `--${name}`);
  }
  return { files, flags };
}

/** What a converter reads: jobs, ids to keep, the machine, header notes. */
interface Loaded {
  jobs: WorkloadJob[];
  ids?: string[];
  machineSize?: number;
  notes: string[];
  /** SWF input: its header comments, kept in an SWF output (the counts and MaxProcs rewritten). */
  comments?: string[];
  unixStartTime?: number;
  dropped: Record<string, number>;
}

async function load(file: string, format: WorkloadFormat, flags: Map<string, string>, machineSize: number | undefined): Promise<Loaded> {
  const lenient = flags.has('lenient');
  if (format === 'swf') {
    const r = await readSwf(file, { lenient, ...(machineSize !== undefined ? { machineSize } : {}) });
    const comments = r.header.comments.filter((c) => !/^\s*(MaxJobs|MaxRecords|MaxProcs)\s*:/.test(c));
    return { jobs: r.jobs, machineSize: machineSize ?? headerMachineSize(r.header), notes: [`from SWF ${path.basename(file)}: ${r.report.read} job lines, ${r.report.kept} kept`], comments, dropped: r.report.dropped };
  }
  if (format === 'sacct') {
    const unit = (flags.get('unit') ?? 'cpus') as 'cpus' | 'nodes';
    const r = await readSacct(file, { lenient, unit, ...(machineSize !== undefined ? { machineSize } : {}) });
    const notes = [
      `from Slurm sacct log ${path.basename(file)}: ${r.report.read} lines, ${r.report.steps} job steps skipped, ${r.report.kept} jobs kept; sizes in ${unit}`,
      'job numbers are Slurm JobIDRaw (or 1, 2, ... without it); users, groups and partitions numbered by first appearance',
    ];
    if (r.partitions.length) notes.push(`queues (Slurm partitions): ${r.partitions.map((p, i) => `${i + 1} ${p}`).join(', ')}`);
    const out: Loaded = { jobs: r.jobs, ids: r.slurmIds, notes, dropped: r.report.dropped };
    if (machineSize !== undefined) out.machineSize = machineSize;
    if (r.startTime !== undefined) out.unixStartTime = r.startTime;
    return out;
  }
  const r = readBatsimWorkload(file);
  if (machineSize !== undefined) {
    const big = r.jobs.findIndex((j) => j.procs > machineSize);
    if (big >= 0) throw new InputError(`${file}: job ${r.batsimIds[big]} needs ${r.jobs[big].procs} resources on a machine of ${machineSize}`, { source: file, field: 'res' });
  }
  return { jobs: r.jobs, ids: r.batsimIds, machineSize: machineSize ?? r.machineSize, notes: [`from Batsim workload ${path.basename(file)}: ${r.jobs.length} jobs, delay profiles`], dropped: {} };
}

/** Entry point: `argv` after `convert`. Returns the exit code. */
export async function convertMain(argv: readonly string[], out: (s: string) => void = (s) => process.stdout.write(s + '\n')): Promise<number> {
  let files: string[];
  let flags: Map<string, string>;
  let from: WorkloadFormat;
  let to: WorkloadFormat;
  let machineSize: number | undefined;
  try {
    ({ files, flags } = parseArgs(argv));
    if (flags.has('help')) {
      out(CONVERT_USAGE);
      return 0;
    }
    if (files.length !== 2) throw new UsageError(`give an input and an output file, got ${files.length} file name${files.length === 1 ? '' : 's'}`);
    const f = flags.get('from') ?? workloadFormatOf(files[0]);
    if (f === undefined) throw new UsageError(`cannot tell the format of ${files[0]} from its extension: give --from swf|sacct|batsim`, '--from');
    if (!INPUTS.includes(f as WorkloadFormat)) throw new UsageError(`--from must be ${INPUTS.join(', ')}, got '${f}'`, '--from');
    const t = flags.get('to') ?? workloadFormatOf(files[1]);
    if (t === undefined) throw new UsageError(`cannot tell the format of ${files[1]} from its extension: give --to swf|batsim`, '--to');
    if (!OUTPUTS.includes(t as WorkloadFormat)) throw new UsageError(`--to must be ${OUTPUTS.join(' or ')}, got '${t}'${t === 'sacct' ? ' (sacct logs are read, not written)' : ''}`, '--to');
    from = f as WorkloadFormat;
    to = t as WorkloadFormat;
    const ms = flags.get('machine-size');
    if (ms !== undefined) {
      if (!/^\d+$/.test(ms) || Number(ms) < 1 || Number(ms) > 2 ** 31 - 1) throw new UsageError(`--machine-size must be a positive integer, got '${ms}'`, '--machine-size');
      machineSize = Number(ms);
    }
    const unit = flags.get('unit');
    if (unit !== undefined && unit !== 'cpus' && unit !== 'nodes') throw new UsageError(`--unit must be cpus or nodes, got '${unit}'`, '--unit');
    if (unit !== undefined && from !== 'sacct') throw new UsageError('--unit only applies to sacct input', '--unit');
    if (path.resolve(files[0]) === path.resolve(files[1])) throw new UsageError('the output file is the input file');
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`schedlab convert: ${e.message}\n${CONVERT_USAGE}\n`);
      return 2;
    }
    throw e;
  }

  let loaded: Loaded;
  try {
    loaded = await load(files[0], from, flags, machineSize);
    if (loaded.jobs.length === 0) throw new InputError(`no jobs to convert in ${files[0]}${dropText(loaded.dropped)}`, { source: files[0] });
    if (to === 'batsim' && loaded.machineSize === undefined) {
      throw new UsageError(`${files[0]} does not say how large the machine is (Batsim needs nb_res): give --machine-size`, '--machine-size');
    }
  } catch (e) {
    process.stderr.write(`schedlab convert: ${(e as Error).message}\n`);
    return e instanceof InputError ? 2 : 1;
  }

  const { jobs } = loaded;
  let pieces: Iterable<string>;
  if (to === 'batsim') {
    pieces = batsimWorkloadJson(jobs, { machineSize: loaded.machineSize as number, ...(loaded.ids ? { ids: loaded.ids } : {}), description: `converted by schedlab: ${loaded.notes[0]}` });
  } else {
    const comments = [...(loaded.comments ?? [' Version: 2.2']), ...loaded.notes.map((n) => ` Note: converted by schedlab ${n}`), ` MaxJobs: ${jobs.length}`, ` MaxRecords: ${jobs.length}`];
    if (loaded.unixStartTime !== undefined) comments.push(` UnixStartTime: ${loaded.unixStartTime}`, ' TimeZoneString: UTC');
    if (loaded.machineSize !== undefined) comments.push(` MaxProcs: ${loaded.machineSize}`);
    pieces = swfLines(jobs, { comments } as Partial<SwfHeader>);
  }
  try {
    writeFileSafely(files[1], pieces);
  } catch (e) {
    process.stderr.write(`schedlab convert: ${(e as Error).message}\n`);
    if (!(e instanceof OutputError)) throw e;
    return 1;
  }
  out(`converted ${jobs.length} jobs: ${files[0]} (${from}) -> ${files[1]} (${to})${dropText(loaded.dropped)}`);
  return 0;
}

function dropText(dropped: Record<string, number>): string {
  const parts = Object.entries(dropped).map(([k, v]) => `${v} ${k}`);
  return parts.length ? `; dropped: ${parts.join(', ')}` : '';
}
