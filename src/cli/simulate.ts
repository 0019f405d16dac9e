/**
 * `schedlab simulate`: run a batch scheduler on a trace or a Lublin workload,
 * print a summary and optionally write per-job results as CSV.
 *
 *   schedlab simulate (--trace FILE|NAME | --lublin N [--seed S]) [--policy fcfs|easy|conservative|FILE#EXPORT]
 *                     [--variant textbook|cqsim|accasim|published]
 *                     [--order fcfs|sjf|ljf|smallest|wfp3|unicef] [--machine-size P] [--estimates exact|requested] [--load L]
 *                     [--threshold SECONDS] [--lenient] [--out FILE [--format csv|swf|batsim]] [--policy-budget SECONDS]
 */
import * as fs from 'fs';
import * as path from 'path';
import { headerMachineSize, readSwfColumns } from '../workloads/swf';
import { columnsOfferedLoad, columnsScaledToLoad, JobColumns, toColumns } from '../workloads/columns';
import { loadTrace, traceManifest } from '../workloads/traces';
import { simulateBatchColumns, BatchEstimates, BatchQueueOrder, BATCH_QUEUE_ORDERS } from '../schedulers/batch/simulate';
import { BATCH_POLICIES, BATCH_VARIANTS, BatchPolicy, BatchPolicySpec, BatchVariant } from '../schedulers/batch/policies';
import { jobMetrics, summarizeRun, BOUNDED_SLOWDOWN_THRESHOLD, RunSummary } from '../metrics/jobs';
import { readSwf } from '../workloads/swf';
import { WorkloadJob } from '../workloads/job';
import { simulateBatch } from '../schedulers/batch/simulate';
import { scheduleFormatOf, scheduleText, ScheduleFormat, SCHEDULE_FORMATS, ScheduledWorkloadJob } from '../analysis/schedule-files';
import { InputError, OutputError, UsageError as BaseUsageError, writeFileSafely } from '../util/errors';
import { DEFAULT_POLICY_BUDGET, policyBudget } from '../util/policy-guard';

export const SIMULATE_USAGE = `usage: schedlab simulate (--trace FILE|NAME | --lublin N [--seed S]) [options]
  --trace FILE|NAME     SWF file (.swf or .swf.gz) or a trace name from data/traces.json
                        (${'{names}'})
  --lublin N            generate N jobs with the Lublin-Feitelson 2003 model
  --seed S              seed for --lublin (default 1)
  --policy P            fcfs | easy | conservative (default easy), or FILE.js#EXPORT: a policy
                        object exported by a module (docs/policies.md), always run with checks on,
                        in a worker thread that is stopped when one decision overruns --policy-budget
  --variant V           EASY as other simulators run it: ${'{variants}'} (default textbook;
                        docs/batch-variants.md); only with --policy easy
  --policy-budget S     seconds one decision of a FILE#EXPORT policy may take (default ${DEFAULT_POLICY_BUDGET},
                        or SCHEDLAB_POLICY_BUDGET); 0 = no limit
  --order O             queue order: fcfs | sjf | ljf | smallest | wfp3 | unicef (default fcfs)
  --machine-size P      processors (default: trace header MaxProcs; 128 for --lublin)
  --estimates E         exact | requested (default exact)
  --load L              rescale inter-arrival times to offered load L first
  --threshold SECONDS   bounded-slowdown threshold (default ${BOUNDED_SLOWDOWN_THRESHOLD})
  --lenient             skip and count malformed SWF lines instead of failing
  --out FILE            write the schedule (per-job results) to FILE
  --format F            csv (schedlab's per-job CSV) | swf (the schedule as SWF, wait times filled)
                        | batsim (Batsim's out_jobs.csv, with the processors each job ran on);
                        default: swf for a .swf FILE, else csv (docs/formats.md)
  --help                show this help`;

/** --policy: a built-in name, or FILE#EXPORT naming a policy object (loaded and checked by simulateBatch). */
function policySpec(value: string | undefined): BatchPolicySpec {
  const v = value ?? 'easy';
  if ((BATCH_POLICIES as readonly string[]).includes(v)) return v as BatchPolicy;
  const hash = v.lastIndexOf('#');
  if (hash <= 0 || hash === v.length - 1) {
    throw new UsageError(`--policy must be fcfs, easy, conservative or FILE.js#EXPORT (a module exporting a policy object), got '${v}'`, '--policy');
  }
  const module = path.resolve(v.slice(0, hash));
  if (!fs.existsSync(module)) throw new UsageError(`--policy: module not found: ${module}`, '--policy');
  return { module, export: v.slice(hash + 1) };
}

/** A bad flag of `schedlab simulate`; `field` is the flag. */
export class UsageError extends BaseUsageError {
  constructor(message: string, flag?: string) {
    super(message, { source: 'schedlab simulate', ...(flag !== undefined ? { field: flag } : {}) });
  }
}

const VALUE_FLAGS = new Set(['trace', 'lublin', 'seed', 'policy', 'order', 'machine-size', 'estimates', 'load', 'threshold', 'out', 'format', 'policy-budget', 'variant']);
const BOOL_FLAGS = new Set(['lenient', 'help']);

/** Parse `--flag value`, `--flag=value` and boolean flags; unknown or repeated flags are errors. */
export function parseSimulateArgs(argv: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new UsageError(`unexpected argument '${a}'`, a);
    const eq = a.indexOf('=');
    const name = a.slice(2, eq < 0 ? undefined : eq);
    if (out.has(name)) throw new UsageError(`option --${name} given twice`, `--${name}`);
    if (BOOL_FLAGS.has(name)) {
      if (eq >= 0) throw new UsageError(`option --${name} takes no value`, `--${name}`);
      out.set(name, 'true');
    } else if (VALUE_FLAGS.has(name)) {
      let v: string;
      if (eq >= 0) v = a.slice(eq + 1);
      else {
        if (i + 1 >= argv.length || argv[i + 1].startsWith('--')) throw new UsageError(`option --${name} needs a value`, `--${name}`);
        v = argv[++i];
      }
      if (v === '') throw new UsageError(`option --${name} needs a non-empty value`, `--${name}`);
      out.set(name, v);
    } else throw new UsageError(`unknown option --${name}`, `--${name}`);
  }
  return out;
}

function num(flags: Map<string, string>, name: string, check: (x: number) => boolean, what: string): number | undefined {
  const v = flags.get(name);
  if (v === undefined) return undefined;
  const x = Number(v);
  if (v.trim() === '' || !Number.isFinite(x) || !check(x)) throw new UsageError(`--${name} must be ${what}, got '${v}'`, `--${name}`);
  return x;
}

const isPosInt = (x: number) => Number.isInteger(x) && x > 0;

/**
 * The run's jobs one at a time through one reused object: the summary and the
 * output file read them without an object per job (10M jobs fit in memory as
 * columns). With `workload` (objects, for the SWF and Batsim formats) each
 * row carries that job's other fields, and with `results` its processors.
 */
function runJobs(c: JobColumns, start: Float64Array, workload?: readonly WorkloadJob[], results?: readonly { processors?: number[] }[]): Iterable<ScheduledWorkloadJob> & { length: number } {
  return {
    length: c.length,
    *[Symbol.iterator]() {
      let j: ScheduledWorkloadJob = { id: 0, submit: 0, start: 0, end: 0, runtime: 0, procs: 0 };
      for (let i = 0; i < c.length; i++) {
        if (workload) j = { ...workload[i], start: 0, end: 0 };
        j.id = c.id[i];
        j.submit = c.submit[i];
        j.start = start[i];
        j.runtime = c.runtime[i];
        j.end = j.start + j.runtime;
        j.procs = c.procs[i];
        const p = results?.[i].processors;
        if (p) j.processors = p;
        yield j;
      }
    },
  };
}

const fmt = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : String(x));

/** Entry point: `argv` after `simulate`. Returns the exit code. */
export async function simulateMain(argv: readonly string[], out: (s: string) => void = (s) => process.stdout.write(s + '\n')): Promise<number> {
  const usage = () => SIMULATE_USAGE.replace('{names}', traceManifest().map((t) => t.name).join(', ')).replace('{variants}', BATCH_VARIANTS.join(' | '));
  let flags: Map<string, string>;
  // Read and checked once, before any work (a usage error exits with 2 and the usage text).
  let policy: BatchPolicySpec;
  let order: BatchQueueOrder;
  let estimates: BatchEstimates;
  let variant: BatchVariant;
  let threshold: number;
  let machineSize: number | undefined;
  let format: ScheduleFormat;
  let budget: number;
  try {
    flags = parseSimulateArgs(argv);
    if (flags.has('help')) {
      out(usage());
      return 0;
    }
    if (flags.has('trace') === flags.has('lublin')) throw new UsageError('give exactly one of --trace or --lublin', '--trace');
    if (flags.has('seed') && !flags.has('lublin')) throw new UsageError('--seed only applies to --lublin', '--seed');
    policy = policySpec(flags.get('policy'));
    order = (flags.get('order') ?? 'fcfs') as BatchQueueOrder;
    if (!BATCH_QUEUE_ORDERS.includes(order as string)) throw new UsageError(`--order must be ${BATCH_QUEUE_ORDERS.join(', ')}, got '${order}'`, '--order');
    variant = (flags.get('variant') ?? 'textbook') as BatchVariant;
    if (!BATCH_VARIANTS.includes(variant)) throw new UsageError(`--variant must be ${BATCH_VARIANTS.join(', ')}, got '${variant}'`, '--variant');
    if (variant !== 'textbook' && policy !== 'easy') throw new UsageError(`--variant ${variant} is a variant of EASY: give --policy easy (or leave --policy out)`, '--variant');
    if (variant === 'accasim' && order !== 'fcfs') throw new UsageError(`--variant accasim keeps its blocked head in submission order: --order must be fcfs`, '--variant');
    estimates = (flags.get('estimates') ?? 'exact') as BatchEstimates;
    if (!['exact', 'requested'].includes(estimates)) throw new UsageError(`--estimates must be exact or requested, got '${estimates}'`, '--estimates');
    num(flags, 'lublin', isPosInt, 'a positive integer');
    machineSize = num(flags, 'machine-size', isPosInt, 'a positive integer');
    num(flags, 'load', (x) => x > 0, 'a positive number');
    threshold = num(flags, 'threshold', (x) => x > 0, 'a positive number') ?? BOUNDED_SLOWDOWN_THRESHOLD;
    if (flags.has('format') && !flags.has('out')) throw new UsageError('--format applies to --out: give --out FILE', '--format');
    format = (flags.get('format') ?? scheduleFormatOf(flags.get('out') ?? '')) as ScheduleFormat;
    if (!SCHEDULE_FORMATS.includes(format)) throw new UsageError(`--format must be ${SCHEDULE_FORMATS.join(', ')}, got '${format}'`, '--format');
    budget = num(flags, 'policy-budget', (x) => x >= 0, 'a number of seconds >= 0 (0: no limit)') ?? policyBudget();
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`schedlab simulate: ${e.message}\n${usage()}\n`);
      return 2;
    }
    throw e;
  }

  let jobs: JobColumns;
  // The SWF and Batsim formats carry every workload field: keep the job objects for them.
  let objects: WorkloadJob[] | undefined;
  const keepObjects = flags.has('out') && format !== 'csv';
  let source: string;
  try {
    if (flags.has('lublin')) {
      const count = Number(flags.get('lublin'));
      const seedText = flags.get('seed') ?? '1';
      const seed = /^\d+$/.test(seedText) ? Number(seedText) : seedText;
      machineSize = machineSize ?? 128;
      // The generator and the worker thread of user policies are loaded when used (start-up time).
      const { generateLublin } = await import('../workloads/lublin');
      objects = generateLublin({ jobs: count, seed, machineSize });
      jobs = toColumns(objects);
      source = `Lublin-Feitelson 2003, ${count} jobs, seed ${seedText}`;
    } else {
      const trace = flags.get('trace') as string;
      const lenient = flags.has('lenient');
      if (fs.existsSync(trace)) {
        const r = keepObjects ? await readSwf(trace, { lenient, machineSize }) : await readSwfColumns(trace, { lenient, machineSize });
        machineSize = machineSize ?? headerMachineSize(r.header);
        if (machineSize === undefined) throw new UsageError(`${trace} has no MaxProcs/MaxNodes header: give --machine-size`, '--machine-size');
        if ('columns' in r) jobs = r.columns;
        else jobs = toColumns((objects = r.jobs));
        source = `${path.basename(trace)} (${r.report.read} job lines, ${r.report.kept} kept${dropText(r.report.dropped)})`;
      } else if (/[/\\]|\.swf/.test(trace)) {
        throw new UsageError(`trace file not found: ${trace}`, '--trace');
      } else {
        const r = await loadTrace(trace, { lenient, machineSize });
        machineSize = machineSize ?? r.info.machineSize;
        objects = r.jobs;
        jobs = toColumns(r.jobs);
        source = `${r.info.name} (${r.report.read} job lines, ${r.report.kept} kept${dropText(r.report.dropped)}, sha256 verified)`;
      }
    }
    // Every line dropped (or none at all): nothing to simulate, a problem of the input.
    if (jobs.length === 0) throw new InputError(`no jobs to simulate in ${source}`, { source: flags.get('trace') as string, field: '--trace' });
    const load = num(flags, 'load', (x) => x > 0, 'a positive number');
    if (load !== undefined) jobs = columnsScaledToLoad(jobs, machineSize, load);
  } catch (e) {
    process.stderr.write(`schedlab simulate: ${(e as Error).message}\n`);
    return e instanceof InputError ? 2 : 1;
  }

  let start: Float64Array;
  let results: { processors?: number[] }[] | undefined;
  try {
    if (typeof policy !== 'string') {
      // A user's module: in a worker thread, so that a decision that never returns can be stopped and named.
      const { simulateInWorker } = await import('./simulate-worker');
      const r = await simulateInWorker(jobs, { machineSize, policy, estimates, order }, budget);
      if (!r.ok) {
        process.stderr.write(`schedlab simulate: ${r.message}\n`);
        return r.input ? 2 : 1;
      }
      start = r.start;
    } else start = simulateBatchColumns(jobs, { machineSize, policy, estimates, order, variant });
    if (format === 'batsim' && flags.has('out')) {
      // Batsim's allocated_resources: the processors each job ran on (the object path names them). A user
      // policy runs here a second time, in this thread: the worker run above has shown that it terminates.
      const r = simulateBatch(jobs, { machineSize, policy, estimates, order, variant, assignProcessors: true });
      start = Float64Array.from(r, (x) => x.start);
      results = r;
    }
  } catch (e) {
    process.stderr.write(`schedlab simulate: ${(e as Error).message}\n`);
    return e instanceof InputError ? 2 : 1;
  }
  const s = summarizeRun(runJobs(jobs, start), { machineSize, threshold });
  out(`workload      ${source}`);
  const offered = columnsOfferedLoad(jobs, machineSize);
  out(`machine       ${machineSize} processors; offered load ${offered === undefined ? 'n/a' : fmt(offered, 3)}`);
  const policyText = `${flags.get('policy') ?? 'easy'} (${variant !== 'textbook' ? `variant: ${variant}, ` : ''}estimates: ${estimates}${order !== 'fcfs' ? `, order: ${order}` : ''})`;
  out(`policy        ${policyText}`);
  out(`jobs          ${s.jobs}`);
  out(`wait          mean ${fmt(s.meanWait, 1)} s, max ${fmt(s.maxWait, 0)} s`);
  out(`response      mean ${fmt(s.meanResponse, 1)} s, max ${fmt(s.maxResponse, 0)} s`);
  out(`bounded sld   mean ${fmt(s.meanBoundedSlowdown, 2)}, max ${fmt(s.maxBoundedSlowdown, 1)} (threshold ${threshold} s)`);
  out(`stretch       ${stretchText(s)}`);
  out(`utilization   ${fmt(s.utilization, 3)} over makespan ${fmt(s.makespan, 0)} s`);
  const outFile = flags.get('out');
  if (outFile) {
    try {
      // Temporary file + rename: a full disk or an unwritable folder never leaves a half-written CSV.
      const schedule = runJobs(jobs, start, keepObjects ? objects : undefined, results);
      writeFileSafely(outFile, scheduleText(schedule, format, { threshold, machineSize, policy: policyText, source, workloadName: workloadName(flags) }));
    } catch (e) {
      process.stderr.write(`schedlab simulate: ${(e as Error).message}\n`);
      if (!(e instanceof OutputError)) throw e;
      return 1;
    }
    out(`${format === 'csv' ? 'per-job CSV ' : format === 'swf' ? 'SWF schedule' : 'Batsim jobs '}  ${outFile}`);
  }
  return 0;
}

/** Batsim's workload_name: the trace's name or file name, or `lublin`. */
function workloadName(flags: Map<string, string>): string {
  if (flags.has('lublin')) return 'lublin';
  const base = path.basename(flags.get('trace') as string).replace(/\.gz$/, '').replace(/\.swf$/, '');
  return base.replace(/[,"\s]/g, '_') || 'w0';
}

/** Stretch over the jobs where it is finite, saying how many were left out (zero run time, waited). */
function stretchText(s: RunSummary): string {
  const left = s.jobs - s.stretchJobs;
  if (s.stretchJobs === 0) return `undefined: all ${s.jobs} jobs have zero run time and waited (see bounded sld)`;
  return `mean ${fmt(s.meanStretch, 2)}, max ${fmt(s.maxStretch, 1)}${left > 0 ? ` (over ${s.stretchJobs} jobs; ${left} of zero run time that waited left out: infinite stretch)` : ''}`;
}

function dropText(dropped: Record<string, number>): string {
  const parts = Object.entries(dropped).map(([k, v]) => `${v} ${k}`);
  return parts.length ? `; dropped: ${parts.join(', ')}` : '';
}
