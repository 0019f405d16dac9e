/**
 * Workloads for DFRS experiments (dynamic fractional resource scheduling,
 * Stillwell, Vivien & Casanova): jobs made of identical tasks, each with a CPU
 * need and a memory requirement expressed as fractions of one node.
 */
import * as fs from 'fs';
import { Rng, Seed } from '../util/random';
import { memoizeByArray } from '../util/memo';
import { segmentsOf } from './filters';
import { WorkloadJob } from './job';
import { generateLublin } from './lublin';
import { readSwfSync } from './swf';
import { InputError } from '../util/errors';

/** One job of a DFRS workload. All tasks of a job are identical. */
export interface DfrsJob {
  /** Job number, unique within a trace. */
  id: number;
  /** Submit (release) time, seconds. */
  submit: number;
  /** Number of tasks; each task runs in its own VM on one node. */
  tasks: number;
  /** CPU need of one task, as a fraction of a node's CPU resource, in (0, 1]. */
  cpuNeed: number;
  /** Memory requirement of one task, as a fraction of a node's memory, in (0, 1]. */
  mem: number;
  /** Processing time at yield 1 (dedicated resources), seconds. */
  runtime: number;
  /** User runtime estimate, seconds, for batch schedulers that backfill. */
  estimate?: number;
}

// ---------------------------------------------------------------------------
// Work and offered load

/** CPU work of a job in node-seconds: runtime · tasks · cpuNeed. */
export function dfrsWork(job: DfrsJob): number {
  return job.runtime * job.tasks * job.cpuNeed;
}

/**
 * Offered load of a trace on `nodes` nodes.
 *
 * The paper scales inter-arrival times to reach an "offered load [3]"
 * (Batat & Feitelson) without writing the formula. We use the usual one:
 * demanded work over available capacity during the arrival span,
 *   load = Σ_j p_j · c_j · |T_j|  /  (|P| · (r_last − r_first)),
 * with work measured in CPU demand (node-units, the sum of CPU needs, as in
 * the paper's bound and its underutilization metric), so a sequential task
 * on a quad-core node counts as 0.25 node. Multiplying all inter-arrival
 * times by k divides this load by exactly k. Other readings:
 * {@link offeredLoadAs}.
 */
export function offeredLoad(jobs: readonly DfrsJob[], nodes: number): number {
  return offeredLoadAs(jobs, nodes, OFFERED_LOAD_OURS);
}

/**
 * What an offered load counts per task and second of run time (readings of
 * the paper's unstated formula): 'cpu' the task's CPU need (ours: a sequential
 * task on a quad-core node is capped at 0.25 node); 'tasks' a whole node per
 * task (no CPU need: the batch view, and on the synthetic traces the same as
 * dropping the sequential-job cap, since every other task needs 1.0);
 * 'memory' the task's memory fraction; 'dominant' the larger of CPU need and
 * memory (the bottleneck of the two resources the paper packs).
 */
export type OfferedLoadWork = 'cpu' | 'tasks' | 'memory' | 'dominant';
/**
 * Over which time the capacity is counted: 'submissions' from the first to
 * the last submission (the paper's "time between the submission of the first
 * job and the submission of the last job"); 'completions' from the first
 * submission to the last completion if every job ran at once at full speed
 * (max r_j + p_j: no simulation needed).
 */
export type OfferedLoadSpan = 'submissions' | 'completions';
/** One reading of "offered load": work counted per task, over which span. */
export interface OfferedLoadDefinition {
  work: OfferedLoadWork;
  span: OfferedLoadSpan;
}
/** Our reading ({@link offeredLoad}): CPU need over the submission span. */
export const OFFERED_LOAD_OURS: OfferedLoadDefinition = Object.freeze({ work: 'cpu', span: 'submissions' });
/** Every reading {@link offeredLoadAs} knows, ours first. */
export const OFFERED_LOAD_DEFINITIONS: readonly OfferedLoadDefinition[] = Object.freeze(
  (['cpu', 'tasks', 'memory', 'dominant'] as const).flatMap((work) => (['submissions', 'completions'] as const).map((span) => Object.freeze({ work, span }))),
);
/** A reading's short name, e.g. "cpu / submissions". */
export const offeredLoadName = (d: OfferedLoadDefinition): string => `${d.work} / ${d.span}`;

const perTaskSecond: Record<OfferedLoadWork, (j: DfrsJob) => number> = {
  cpu: (j) => j.cpuNeed,
  tasks: () => 1,
  memory: (j) => j.mem,
  dominant: (j) => Math.max(j.cpuNeed, j.mem),
};

/** Offered load of a trace on `nodes` nodes under one reading (see {@link OfferedLoadDefinition}). */
export function offeredLoadAs(jobs: readonly DfrsJob[], nodes: number, definition: OfferedLoadDefinition): number {
  if (!(nodes > 0)) throw new InputError(`offeredLoad: nodes must be > 0, got ${nodes}`, { source: 'offeredLoad' });
  if (jobs.length < 2) throw new InputError(`offeredLoad: needs at least 2 jobs, got ${jobs.length}`, { source: 'offeredLoad' });
  const weight = perTaskSecond[definition.work];
  if (!weight || (definition.span !== 'submissions' && definition.span !== 'completions')) {
    throw new InputError(`offeredLoad: unknown definition ${JSON.stringify(definition)} (work: ${Object.keys(perTaskSecond).join('|')}; span: submissions|completions)`, { source: 'offeredLoad' });
  }
  let first = Infinity;
  let last = -Infinity;
  let work = 0;
  for (const j of jobs) {
    first = Math.min(first, j.submit);
    last = Math.max(last, definition.span === 'submissions' ? j.submit : j.submit + j.runtime);
    work += j.runtime * j.tasks * weight(j);
  }
  if (!(last > first)) throw new InputError('offeredLoad: all jobs are submitted at the same time (zero arrival span)', { source: 'offeredLoad' });
  return work / (nodes * (last - first));
}

/**
 * The same trace with every inter-arrival time multiplied by one constant so
 * that its offered load (see {@link offeredLoad}) equals `load`. Job mix,
 * order and the first submit time are unchanged; only later submit times move.
 * Input must be sorted by submit time.
 */
export function scaleToLoad(jobs: readonly DfrsJob[], load: number, nodes: number): DfrsJob[] {
  if (!(load > 0) || !Number.isFinite(load)) throw new InputError(`scaleToLoad: load must be a finite number > 0, got ${load}`, { source: 'scaleToLoad' });
  for (let i = 1; i < jobs.length; i++) {
    if (jobs[i].submit < jobs[i - 1].submit) {
      throw new InputError(`scaleToLoad: jobs must be sorted by submit time (index ${i}, id ${jobs[i].id})`, { source: 'scaleToLoad' });
    }
  }
  const factor = offeredLoad(jobs, nodes) / load;
  const origin = jobs[0].submit;
  return jobs.map((j) => ({ ...j, submit: origin + (j.submit - origin) * factor }));
}

/** The nine offered loads of the paper's scaled synthetic traces (0.1 to 0.9). */
export const DFRS_LOADS: readonly number[] = Object.freeze([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]);

// ---------------------------------------------------------------------------
// Synthetic traces (Section 5.3.2)

/** A synthetic DFRS trace: jobs, nodes, cores and seed. */
export interface SyntheticDfrsOptions {
  seed: Seed;
  /** Number of jobs (default 1000, as in the paper). */
  jobs?: number;
  /** Nodes in the cluster (default 128): the Lublin model's machine size. */
  nodes?: number;
  /** Cores per node (default 4, "quad-core"): a sequential task needs 1/cores of a node. */
  cores?: number;
}

/**
 * One "unscaled" synthetic DFRS trace (Section 5.3.2).
 *
 * - Arrivals, sizes and runtimes: the Lublin–Feitelson model
 *   ({@link generateLublin}, batch and interactive streams) with machine size
 *   = `nodes`; the model's job size (node count) is taken as the number of
 *   tasks.
 * - CPU need: the task of a one-task job is sequential, 1/cores of a node
 *   (0.25 on quad-core nodes); tasks of all other jobs are multi-threaded and
 *   CPU-bound, need 1.0.
 * - Memory per task: 10% for 55% of jobs, otherwise 10·x% with x uniform in
 *   {2, ..., 10} (drawn per job, independent of size and runtime).
 * - estimate = runtime: the paper gives EASY perfect runtime knowledge.
 * Same options => identical output.
 */
export function syntheticDfrsTrace(options: SyntheticDfrsOptions): DfrsJob[] {
  const count = options.jobs ?? 1000;
  const nodes = options.nodes ?? 128;
  const cores = options.cores ?? 4;
  if (!(Number.isInteger(nodes) && nodes >= 1)) throw new InputError(`syntheticDfrsTrace: nodes must be a positive integer, got ${nodes}`, { source: 'syntheticDfrsTrace' });
  if (!(Number.isInteger(cores) && cores >= 1)) throw new InputError(`syntheticDfrsTrace: cores must be a positive integer, got ${cores}`, { source: 'syntheticDfrsTrace' });
  const base = generateLublin({ jobs: count, seed: options.seed, machineSize: nodes });
  const memoryRng = new Rng(options.seed).fork('dfrs/memory');
  return base.map((job) => {
    const mem = memoryRng.bernoulli(0.55) ? 0.1 : memoryRng.int(2, 10) / 10;
    return {
      id: job.id,
      submit: job.submit,
      tasks: job.procs,
      cpuNeed: job.procs === 1 ? 1 / cores : 1,
      mem,
      runtime: job.runtime,
      estimate: job.runtime,
    };
  });
}

// ---------------------------------------------------------------------------
// HPC2N real-world trace (Section 5.3.1)

/** Where the cleaned HPC2N log lives on this machine. */
export const HPC2N_TRACE_PATH = '/work/shared/data/traces/HPC2N-2002-2.2-cln.swf.gz';
/** The HPC2N "Seth" cluster: 120 dual-core nodes (240 processors). */
export const HPC2N_NODES = 120;
/** Cores per node of the HPC2N cluster. */
export const HPC2N_CORES = 2;
/** Node memory used to turn KB into a fraction: 2 GB (the paper's "system memory of 2GB"), in KB. */
export const HPC2N_NODE_MEMORY_KB = 2 * 1024 * 1024;
/** Seconds in a week. */
export const WEEK_SECONDS = 7 * 24 * 3600;

/** How HPC2N jobs become DFRS jobs: node memory, memory floor and which estimate. */
export interface Hpc2nOptions {
  /** Node memory in KB (default 2 GB = 2,097,152 KB; SWF memory fields are KB). */
  nodeMemoryKB?: number;
  /** Lowest per-processor memory fraction (default 0.1). */
  memoryFloor?: number;
  /**
   * Runtime estimate given to batch schedulers: 'exact' (default; the paper
   * gives EASY perfect knowledge) or 'requested' (SWF requested time, falling
   * back to the runtime when missing or smaller than it).
   */
  estimate?: 'exact' | 'requested';
  /**
   * How processors become tasks (issue 25's HPC2N ablation): 'paper' (default,
   * Section 5.3.1's rule below), or 'per-processor': every processor one
   * one-core task (CPU need 0.5, per-processor memory), whatever its memory.
   */
  tasks?: 'paper' | 'per-processor';
}

/**
 * Turn one HPC2N SWF job into a DFRS job, as Section 5.3.1 says:
 * 1. per-processor memory = max(requested, used memory) / 2 GB, at least 10%;
 *    jobs with neither field get the 10% floor;
 * 2. an even processor count with per-processor memory < 50%: procs/2
 *    multi-threaded tasks, CPU need 1.0 (both cores of a dual-core node),
 *    memory doubled; otherwise (odd count, or >= 50% memory) one task per
 *    processor, CPU need 0.5 (one core).
 * Choices: memory above the node (> 100%) would be capped at 100% (none occurs
 * in the cleaned log); every job is kept whatever its SWF status (the paper
 * removes none), submit time and runtime are taken as they are.
 */
export function hpc2nJob(job: WorkloadJob, options: Hpc2nOptions = {}): DfrsJob {
  const nodeMemory = options.nodeMemoryKB ?? HPC2N_NODE_MEMORY_KB;
  const floor = options.memoryFloor ?? 0.1;
  const kb = Math.max(job.requestedMemory ?? -1, job.usedMemory ?? -1);
  const perProc = Math.min(1, Math.max(floor, kb > 0 ? kb / nodeMemory : 0));
  if (!(Number.isInteger(job.procs) && job.procs >= 1)) {
    throw new InputError(`hpc2nJob: job ${job.id}: processors must be a positive integer, got ${job.procs}`, { source: 'hpc2nJob' });
  }
  if (options.tasks !== undefined && options.tasks !== 'paper' && options.tasks !== 'per-processor') {
    throw new InputError(`hpc2nJob: tasks must be 'paper' or 'per-processor', got '${options.tasks as string}'`, { source: 'hpc2nJob', field: 'tasks' });
  }
  const multiThreaded = options.tasks !== 'per-processor' && job.procs % 2 === 0 && perProc < 0.5;
  const estimate =
    options.estimate === 'requested' && job.requestedTime !== undefined ? Math.max(job.requestedTime, job.runtime) : job.runtime;
  return {
    id: job.id,
    submit: job.submit,
    tasks: multiThreaded ? job.procs / 2 : job.procs,
    cpuNeed: multiThreaded ? 1 : 0.5,
    mem: multiThreaded ? 2 * perProc : perProc,
    runtime: job.runtime,
    estimate,
  };
}

/** Options of the HPC2N week traces: the HPC2N options plus which weeks. */
export interface Hpc2nWeeksOptions extends Hpc2nOptions {
  /** Segment length in seconds (default one week). */
  segmentSeconds?: number;
  /**
   * Time at which segment 0 starts, in the log's clock (default 0, the log's
   * StartTime). Segment k holds the jobs submitted in
   * [origin + k·segment, origin + (k+1)·segment).
   */
  origin?: number;
  /** Shift each segment's submit times so that the segment starts at 0 (default true). */
  rebase?: boolean;
  /**
   * Jobs that cross a segment's end (issue 25's HPC2N ablation; judged as if
   * each job started on submission, since the log's start times are not
   * read): 'keep' (default) a job stays in the segment it is submitted in
   * with its whole run time; 'drop' only jobs that end inside their segment
   * are kept; 'carry-over' the segment also holds the remainder of every
   * earlier job still running at its start, submitted at the start.
   */
  spanning?: 'keep' | 'drop' | 'carry-over';
}

/**
 * Preprocess an HPC2N job list ({@link hpc2nJob}) and cut it into week-long
 * segments by submit time. Choices (the paper only says "week-long
 * segments, 182 scenarios"): weeks are aligned on the log start; a job
 * belongs to the week it is submitted in and keeps its full runtime, even when
 * it runs past the week's end; weeks with no job are dropped (there are none
 * in the cleaned log, which spans 181.2 weeks and so gives 182 segments);
 * submit times are rebased to the week start unless `rebase: false`.
 */
export function hpc2nWeeks(jobs: readonly WorkloadJob[], options: Hpc2nWeeksOptions = {}): DfrsJob[][] {
  const weeks = sharedWeeks(jobs, options);
  return Array.from({ length: weeks.length }, (_, i) => copyJobs(weeks.week(i)));
}

/** Week `index` of {@link hpc2nWeeks} alone (fresh copies of its jobs); undefined past the last week. */
export function hpc2nWeek(jobs: readonly WorkloadJob[], index: number, options: Hpc2nWeeksOptions = {}): DfrsJob[] | undefined {
  const weeks = sharedWeeks(jobs, options);
  return Number.isInteger(index) && index >= 0 && index < weeks.length ? copyJobs(weeks.week(index)) : undefined;
}

/** The number of weeks {@link hpc2nWeeks} cuts the log into. */
export function hpc2nWeekCount(jobs: readonly WorkloadJob[], options: Hpc2nWeeksOptions = {}): number {
  return sharedWeeks(jobs, options).length;
}

const copyJobs = (week: readonly DfrsJob[]): DfrsJob[] => week.map((j) => ({ ...j }));

/** A log cut into weeks, each week's jobs converted on its first read. */
interface CutWeeks {
  length: number;
  week(index: number): readonly DfrsJob[];
}

// Every HPC2N trace needs one week of the log: the cut (which log jobs each week holds) is kept per log array and
// options, and a week's jobs are converted when first read (converting the whole log took ~0.5 s per cut and most of
// a sweep worker's garbage); kept weeks are never handed out, callers get copies (and may change their jobs freely).
function sharedWeeks(jobs: readonly WorkloadJob[], options: Hpc2nWeeksOptions): CutWeeks {
  const key = JSON.stringify(Object.entries(options).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1)));
  let cut = cutsByOptions.get(key);
  if (!cut) cutsByOptions.set(key, (cut = memoizeByArray((log: readonly WorkloadJob[]) => cutWeeks(log, options))));
  return cut(jobs);
}

const cutsByOptions = new Map<string, (log: readonly WorkloadJob[]) => CutWeeks>();

function cutWeeks(jobs: readonly WorkloadJob[], options: Hpc2nWeeksOptions): CutWeeks {
  const segment = options.segmentSeconds ?? WEEK_SECONDS;
  if (!(segment > 0)) throw new InputError(`hpc2nWeeks: segmentSeconds must be > 0, got ${segment}`, { source: 'hpc2nWeeks' });
  const origin = options.origin ?? 0;
  const spanning = options.spanning ?? 'keep';
  if (spanning !== 'keep' && spanning !== 'drop' && spanning !== 'carry-over') {
    throw new InputError(`hpc2nWeeks: spanning must be 'keep', 'drop' or 'carry-over', got '${spanning as string}'`, { source: 'hpc2nWeeks', field: 'spanning' });
  }
  let running: WorkloadJob[] = [];
  const cut = segmentsOf(jobs, { length: segment, start: origin, minJobs: 1 }).map(({ start, jobs: week }) => {
    const end = start + segment;
    let kept: WorkloadJob[] = week;
    if (spanning === 'drop') kept = week.filter((j) => j.submit + j.runtime <= end);
    if (spanning === 'carry-over') {
      // earlier jobs still running at this start (their remainder), then this segment's own
      const carried = running.filter((j) => j.submit + j.runtime > start).map((j) => ({ ...j, submit: start, runtime: j.submit + j.runtime - start }));
      running = [...running.filter((j) => j.submit + j.runtime > end), ...week.filter((j) => j.submit + j.runtime > end)];
      kept = [...carried, ...week];
    }
    return { kept, shift: options.rebase ?? true ? start : 0 };
  });
  const converted: (DfrsJob[] | undefined)[] = new Array(cut.length);
  return {
    length: cut.length,
    week: (i) => (converted[i] ??= cut[i].kept.map((job) => hpc2nJob({ ...job, submit: job.submit - cut[i].shift }, options))),
  };
}

const hpc2nCache = new Map<string, WorkloadJob[]>();

/** Read the HPC2N SWF log once per process (cached by path). */
export function readHpc2n(path = HPC2N_TRACE_PATH): WorkloadJob[] {
  let jobs = hpc2nCache.get(path);
  if (!jobs) {
    if (!fs.existsSync(path)) throw new InputError(`readHpc2n: trace file not found: ${path}`, { source: 'readHpc2n' });
    jobs = readSwfSync(path).jobs;
    hpc2nCache.set(path, jobs);
  }
  return jobs;
}

// ---------------------------------------------------------------------------
// The three trace sets of the paper's Table 2

/** The DFRS trace sets: unscaled and scaled synthetic traces, and HPC2N weeks. */
export type DfrsTraceSetName = 'unscaled' | 'scaled' | 'hpc2n';

/** One trace of a set, with what is needed to simulate and label it. */
export interface DfrsTrace {
  set: DfrsTraceSetName;
  /** Short unique name inside the set, e.g. "lublin-3", "lublin-3@0.7", "week-12". */
  name: string;
  /**
   * Index of the base synthetic trace in the set, or of the week in the HPC2N
   * log. A synthetic name holds the seed index instead ("lublin-7" used seed
   * `${seed}/7`); the two differ only when spanDays skips seeds.
   */
  index: number;
  /** Offered load the trace was scaled to (scaled set only). */
  load?: number;
  /** Offered load of the trace as it is (see {@link offeredLoad}). */
  offeredLoad: number;
  nodes: number;
  cores: number;
  jobs: DfrsJob[];
}

/** Which traces of a DFRS trace set to build: count, seed, jobs, loads, source path and span. */
export interface DfrsTraceSetOptions {
  /**
   * unscaled: number of synthetic traces (paper: 100). scaled: number of base
   * traces, each at every load (paper: 100, giving 900). hpc2n: number of weeks
   * (paper: all 182); fewer weeks are picked evenly spaced over the log.
   * Default: the paper's count.
   */
  count?: number;
  /** Base seed of the synthetic traces (default 1); trace i uses seed `${seed}/${i}`. */
  seed?: Seed;
  /** Jobs per synthetic trace (default 1000). */
  jobs?: number;
  /** Loads of the scaled set (default 0.1..0.9). */
  loads?: readonly number[];
  /** HPC2N log location. */
  path?: string;
  /**
   * Synthetic sets: keep only base traces whose first-to-last submission span
   * lies in [min, max] days, trying seeds `${seed}/0`, `${seed}/1`, … in turn
   * until `count` qualify (the paper: "on the order of 4-6 days", see
   * {@link DFRS_PAPER_SPAN_DAYS}). Default: no condition, trace i uses seed `${seed}/i`.
   */
  spanDays?: readonly [number, number];
}

/**
 * The paper's span of a synthetic trace, first to last submission: "on the
 * order of 4-6 days". Our reading: [4, 6] days. Unconditioned Lublin traces
 * of 1000 jobs on 128 nodes fall there about half the time (docs/dfrs-workloads.md).
 */
export const DFRS_PAPER_SPAN_DAYS: readonly [number, number] = Object.freeze([4, 6]) as readonly [number, number];

/** Seeds tried per requested trace before a span window is declared too narrow. */
const SPAN_TRIES_PER_TRACE = 50;

/** Base synthetic traces of a set: seed index and jobs, optionally conditioned on their span. */
function baseSyntheticTraces(count: number, options: DfrsTraceSetOptions, nodes: number, cores: number): { seedIndex: number; jobs: DfrsJob[] }[] {
  const seed = options.seed ?? 1;
  const make = (k: number) => syntheticDfrsTrace({ seed: `${seed}/${k}`, jobs: options.jobs ?? 1000, nodes, cores });
  const window = options.spanDays;
  if (window === undefined) return Array.from({ length: count }, (_, k) => ({ seedIndex: k, jobs: make(k) }));
  const [lo, hi] = window;
  if (!(Number.isFinite(lo) && Number.isFinite(hi) && lo >= 0 && hi >= lo)) {
    throw new InputError(`dfrsTraceSet: spanDays must be [min, max] days with 0 <= min <= max, got [${lo}, ${hi}]`, { source: 'dfrsTraceSet', field: 'spanDays' });
  }
  const out: { seedIndex: number; jobs: DfrsJob[] }[] = [];
  for (let k = 0; out.length < count; k++) {
    if (k >= SPAN_TRIES_PER_TRACE * count) {
      throw new InputError(`dfrsTraceSet: only ${out.length} of ${k} traces span [${lo}, ${hi}] days; widen spanDays`, { source: 'dfrsTraceSet', field: 'spanDays' });
    }
    const jobs = make(k);
    const days = jobs.length > 0 ? (jobs[jobs.length - 1].submit - jobs[0].submit) / 86400 : 0;
    if (days >= lo && days <= hi) out.push({ seedIndex: k, jobs });
  }
  return out;
}

/** Number of traces the paper used for each set, and the default `count`. */
export const DFRS_PAPER_COUNTS: Readonly<Record<DfrsTraceSetName, number>> = Object.freeze({ unscaled: 100, scaled: 100, hpc2n: 182 });

/**
 * The traces of one of the paper's three sets (Table 2). Synthetic sets use
 * 128 quad-core nodes; the scaled set rescales the *same* base traces as the
 * unscaled set (base trace i, then each load), as the paper does. The HPC2N set
 * uses 120 dual-core nodes.
 */
export function dfrsTraceSet(name: DfrsTraceSetName, options: DfrsTraceSetOptions = {}): DfrsTrace[] {
  if (name !== 'unscaled' && name !== 'scaled' && name !== 'hpc2n') {
    throw new InputError(`dfrsTraceSet: unknown set '${name as string}' (expected 'unscaled', 'scaled' or 'hpc2n')`, { source: 'dfrsTraceSet' });
  }
  const count = options.count ?? DFRS_PAPER_COUNTS[name];
  if (!(Number.isInteger(count) && count >= 0)) throw new InputError(`dfrsTraceSet: count must be a non-negative integer, got ${count}`, { source: 'dfrsTraceSet' });
  if (name === 'hpc2n') {
    const weeks = hpc2nWeeks(readHpc2n(options.path));
    if (count > weeks.length) throw new InputError(`dfrsTraceSet: count ${count} exceeds the ${weeks.length} HPC2N weeks`, { source: 'dfrsTraceSet' });
    const picked = Array.from({ length: count }, (_, i) => Math.floor((i * weeks.length) / count));
    return picked.map((w) => ({
      set: name,
      name: `week-${w}`,
      index: w,
      offeredLoad: weeks[w].length >= 2 ? offeredLoad(weeks[w], HPC2N_NODES) : 0,
      nodes: HPC2N_NODES,
      cores: HPC2N_CORES,
      jobs: weeks[w],
    }));
  }
  const nodes = 128;
  const cores = 4;
  const loads = options.loads ?? DFRS_LOADS;
  const out: DfrsTrace[] = [];
  baseSyntheticTraces(count, options, nodes, cores).forEach(({ seedIndex: k, jobs }, i) => {
    if (name === 'unscaled') {
      out.push({ set: name, name: `lublin-${k}`, index: i, offeredLoad: offeredLoad(jobs, nodes), nodes, cores, jobs });
    } else {
      for (const load of loads) {
        const scaled = scaleToLoad(jobs, load, nodes);
        out.push({ set: name, name: `lublin-${k}@${load}`, index: i, load, offeredLoad: offeredLoad(scaled, nodes), nodes, cores, jobs: scaled });
      }
    }
  });
  return out;
}
