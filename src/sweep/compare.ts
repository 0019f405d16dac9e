/**
 * Comparing policies — built-in or a user's — swept over offered load, with
 * replications for confidence intervals, as one sweep (all cores, resumable,
 * cached): batch policies on real traces and Lublin–Feitelson workloads, and
 * DFRS algorithms on the DFRS paper's synthetic traces.
 *
 * Replications: a real trace has one history, so its replications are
 * `segments` windows of `jobs` consecutive jobs spread evenly over the trace
 * (each rebased to start at 0); a Lublin workload's replications are seeds.
 * Each window is then scaled to every offered load (inter-arrival times
 * stretched or compressed, `scaleToLoad`), so that the curves compare
 * policies on the same jobs at every load.
 */
import * as path from 'path';
import { defineSweep, Grid, SweepDefinition } from './grid';
import { runSweep, RunOptions } from './run';
import { codeHash } from './papers/common';
import { simulateBatch, BatchEstimates, BatchQueueOrder, BatchVariant, BATCH_VARIANTS } from '../schedulers/batch';
import { summarizeRun } from '../metrics/jobs';
import { rebase, scaleToLoad } from '../workloads/filters';
import { generateLublin } from '../workloads/lublin';
import { loadTraceSync } from '../workloads/traces';
import { WorkloadJob } from '../workloads/job';
import { dfrsBound, dfrsTrace, runDfrsCell } from '../schedulers/dfrs/experiment';
import { InputError } from '../util/errors';
import { isPolicyRef, loadPolicyRef, PolicyRef } from '../util/modules';
import { fromPortable, isPortableRef, PortableRef } from '../util/portable';

/** A workload of the comparison: windows of a real trace, or seeded Lublin workloads. */
export type ComparisonWorkload =
  | { trace: string; jobs: number; segments: number }
  | { lublin: { jobs: number; machineSize: number }; seeds: number };

/**
 * A policy of the comparison: a built-in name, a reference, or a label with a
 * policy, a queue order and (for 'easy') an EASY variant (docs/batch-variants.md).
 */
export type ComparisonPolicy =
  | string
  | PolicyRef
  | { label: string; policy: string | PolicyRef; order?: string | PortableRef; variant?: BatchVariant };

/** Options of `compareBatchPolicies`: workloads, policies (built-in or user), loads, replications and estimates. */
export interface BatchComparisonOptions {
  /** Names the sweep and its results file. */
  name: string;
  workloads: ComparisonWorkload[];
  /** Offered loads to scale every window to. */
  loads: number[];
  policies: ComparisonPolicy[];
  /** Default 'requested'. */
  estimates?: BatchEstimates;
  /** Bounded-slowdown threshold in seconds (default 10). */
  threshold?: number;
  /** Bump when your policy's code changes and old results must not be reused. */
  version?: number | string;
}

/** One cell's row: the run summary of one policy on one window at one load. */
export type ComparisonRow = {
  workload: string;
  replication: number;
  load: number;
  policy: string;
  jobs: number;
  meanBsld: number;
  maxBsld: number;
  meanWait: number;
  meanResponse: number;
  utilization: number;
};

const workloadLabel = (w: ComparisonWorkload) => ('trace' in w ? w.trace : `Lublin-${w.lublin.machineSize}`);

function checkWorkload(w: ComparisonWorkload, i: number): void {
  const bad = (field: string, what: string) => new InputError(`compareBatchPolicies: workloads[${i}].${field} ${what}`, { source: 'compareBatchPolicies', field: `workloads[${i}].${field}` });
  const posInt = (x: unknown) => Number.isInteger(x) && (x as number) > 0;
  if ('trace' in w) {
    if (typeof w.trace !== 'string') throw bad('trace', 'must be a trace name');
    if (!posInt(w.jobs)) throw bad('jobs', 'must be a positive integer');
    if (!posInt(w.segments)) throw bad('segments', 'must be a positive integer');
  } else if ('lublin' in w) {
    if (!posInt(w.lublin?.jobs)) throw bad('lublin.jobs', 'must be a positive integer');
    if (!posInt(w.lublin?.machineSize)) throw bad('lublin.machineSize', 'must be a positive integer');
    if (!posInt(w.seeds)) throw bad('seeds', 'must be a positive integer');
  } else throw bad('', 'must have `trace` or `lublin`');
}

/** A labelled policy's variant must be one simulateBatch knows (checked here, before any cell runs). */
function checkPolicy(p: ComparisonPolicy, i: number): void {
  if (typeof p !== 'object' || p === null || !('label' in p) || p.variant === undefined) return;
  if (!BATCH_VARIANTS.includes(p.variant)) {
    throw new InputError(`compareBatchPolicies: policies[${i}].variant: unknown variant '${String(p.variant)}' (use ${BATCH_VARIANTS.join(', ')})`, { source: 'compareBatchPolicies', field: `policies[${i}].variant` });
  }
  if (p.variant !== 'textbook' && p.policy !== 'easy') {
    throw new InputError(`compareBatchPolicies: policies[${i}].variant '${p.variant}' is a variant of EASY; policy must be 'easy'`, { source: 'compareBatchPolicies', field: `policies[${i}].variant` });
  }
}

/** The comparison as a sweep definition (one grid per workload). */
export function batchComparisonSweep(o: BatchComparisonOptions): SweepDefinition {
  o.workloads.forEach(checkWorkload);
  o.policies.forEach(checkPolicy);
  if (o.loads.length === 0 || o.loads.some((l) => !(l > 0))) throw new InputError('compareBatchPolicies: loads must be positive numbers', { source: 'compareBatchPolicies', field: 'loads' });
  const grids: Grid[] = o.workloads.map((w) => ({
    workload: [w as never],
    replication_of: Array.from({ length: 'trace' in w ? w.segments : w.seeds }, (_, r) => r),
    load: o.loads,
    policy: o.policies as never[],
  }));
  return defineSweep({
    name: o.name,
    version: o.version ?? 1,
    cell: { module: __filename, export: 'batchComparisonCell' },
    grid: grids,
    fixed: { estimates: o.estimates ?? 'requested', threshold: o.threshold ?? 10 },
  });
}

/** Prepared windows of this worker, by key (a trace is read once per worker). */
const windows = new Map<string, { machineSize: number; jobs: WorkloadJob[] }>();

/** Replication `r` of a workload: a rebased window of a trace, or a seeded Lublin workload. */
export function comparisonWindow(w: ComparisonWorkload, r: number): { machineSize: number; jobs: WorkloadJob[] } {
  const key = JSON.stringify([w, r]);
  const hit = windows.get(key);
  if (hit) return hit;
  let value: { machineSize: number; jobs: WorkloadJob[] };
  if ('trace' in w) {
    const t = loadTraceSync(w.trace);
    const n = Math.min(w.jobs, t.jobs.length);
    const from = w.segments > 1 ? Math.floor((r * (t.jobs.length - n)) / (w.segments - 1)) : Math.floor((t.jobs.length - n) / 2);
    value = { machineSize: t.info.machineSize, jobs: rebase(t.jobs.slice(from, from + n)) };
  } else {
    value = { machineSize: w.lublin.machineSize, jobs: generateLublin({ jobs: w.lublin.jobs, machineSize: w.lublin.machineSize, seed: `compare-${r}` }) };
  }
  if (windows.size >= 8) windows.delete(windows.keys().next().value as string);
  windows.set(key, value);
  return value;
}

/** The display name of a comparison policy. */
export function comparisonPolicyLabel(p: ComparisonPolicy): string {
  if (typeof p === 'string') return p;
  if (isPolicyRef(p)) return String((loadPolicyRef(p).value as { name?: unknown })?.name ?? 'user policy');
  return p.label;
}

/** Sweep cell: one policy on one window at one load. */
export function batchComparisonCell(p: { workload: ComparisonWorkload; replication_of: number; load: number; policy: ComparisonPolicy; estimates: BatchEstimates; threshold: number }): ComparisonRow {
  const w = comparisonWindow(p.workload, p.replication_of);
  const jobs = scaleToLoad(w.jobs, w.machineSize, p.load);
  const spec = typeof p.policy === 'object' && p.policy !== null && 'label' in p.policy ? p.policy : { policy: p.policy as string | PolicyRef, order: undefined, variant: undefined };
  const order = spec.order === undefined ? undefined : isPortableRef(spec.order) ? (fromPortable(spec.order) as BatchQueueOrder) : (spec.order as BatchQueueOrder);
  const run = simulateBatch(jobs, { machineSize: w.machineSize, policy: spec.policy as never, estimates: p.estimates, ...(order !== undefined ? { order } : {}), ...(spec.variant !== undefined ? { variant: spec.variant } : {}) });
  const s = summarizeRun(run, { machineSize: w.machineSize, threshold: p.threshold });
  return {
    workload: workloadLabel(p.workload),
    replication: p.replication_of,
    load: p.load,
    policy: comparisonPolicyLabel(p.policy),
    jobs: s.jobs,
    meanBsld: s.meanBoundedSlowdown,
    maxBsld: s.maxBoundedSlowdown,
    meanWait: s.meanWait,
    meanResponse: s.meanResponse,
    utilization: s.utilization,
  };
}

/** Where a comparison's results go and how it runs: `cacheDir` (default `out/sweeps`) or an explicit `out` file. */
export type ComparisonRunOptions = RunOptions & { cacheDir?: string };

/**
 * Results file of a comparison: its name, the sweep's fingerprint (grid,
 * policies' source text, version) and a hash of the toolkit's code, so that a
 * rerun reads back exactly the results of the same definition and code.
 */
function comparisonFile(sweep: SweepDefinition, run: ComparisonRunOptions): string {
  return run.out ?? path.join(run.cacheDir ?? path.join('out', 'sweeps'), `${sweep.name}.${sweep.fingerprint.slice(0, 16)}-${codeHash()}.jsonl`);
}

/**
 * Run (or resume) a comparison on all cores and return its rows; a rerun of
 * the same definition on the same code reads them back instead of simulating.
 *
 * @example
 * const rows = await compareBatchPolicies({
 *   name: 'easy-vs-fcfs',
 *   workloads: [{ lublin: { jobs: 2000, machineSize: 128 }, seeds: 3 }],
 *   loads: [0.7, 0.9],
 *   policies: ['fcfs', 'easy'],
 * });
 * showTable(rows);
 */
export async function compareBatchPolicies(o: BatchComparisonOptions, run: ComparisonRunOptions = {}): Promise<ComparisonRow[]> {
  const sweep = batchComparisonSweep(o);
  const summary = await runSweep(sweep, { progress: 'auto', ...run, out: comparisonFile(sweep, run) });
  return completeRows<ComparisonRow>(summary, o.name);
}

/**
 * A DFRS algorithm of a comparison: a name in the paper's syntax (`FCFS`,
 * `EASY`, `Greedy/opt=min`, … as in Table 1), or a user policy with the
 * algorithm name that supplies the parts it leaves out.
 */
export type DfrsComparisonAlgorithm = string | { label: string; algorithm: string; policy: PolicyRef };

/** Options of `compareDfrsPolicies`: traces, algorithms or user mappers, and replications. */
export interface DfrsComparisonOptions {
  /** Names the sweep and its results file. */
  name: string;
  /** Synthetic traces (the paper's Lublin-based model, 128 nodes × 4 cores), one per replication. */
  traces: number;
  /** Jobs per synthetic trace (the paper: 1,000). */
  jobsPerTrace: number;
  /** Offered loads to scale every trace to. */
  loads: number[];
  algorithms: DfrsComparisonAlgorithm[];
  /** Base seed of the traces (default 1, the paper's sweep). */
  baseSeed?: number;
  version?: number | string;
}

/** One cell's row: one algorithm on one trace at one load. */
export type DfrsComparisonRow = {
  trace: number;
  load: number;
  algorithm: string;
  maxStretch: number;
  bound: number;
  degradation: number;
  preemptionsPerJob: number;
  migrationsPerJob: number;
};

/** The DFRS comparison as a sweep definition. */
export function dfrsComparisonSweep(o: DfrsComparisonOptions): SweepDefinition {
  const posInt = (x: unknown) => Number.isInteger(x) && (x as number) > 0;
  const bad = (field: string, what: string) => new InputError(`compareDfrsPolicies: ${field} ${what}`, { source: 'compareDfrsPolicies', field });
  if (!posInt(o.traces)) throw bad('traces', 'must be a positive integer');
  if (!posInt(o.jobsPerTrace)) throw bad('jobsPerTrace', 'must be a positive integer');
  if (o.loads.length === 0 || o.loads.some((l) => !(l > 0))) throw bad('loads', 'must be positive numbers');
  return defineSweep({
    name: o.name,
    version: o.version ?? 1,
    cell: { module: __filename, export: 'dfrsComparisonCell' },
    grid: { trace: Array.from({ length: o.traces }, (_, i) => i), load: o.loads, algorithm: o.algorithms as never[] },
    fixed: { jobs_per_trace: o.jobsPerTrace, base_seed: o.baseSeed ?? 1 },
  });
}

/** This worker's traces and their bounds (cells of one trace run one after another). */
const dfrsTraces = new Map<string, { trace: ReturnType<typeof dfrsTrace>; bound: number }>();

/** Sweep cell: one DFRS algorithm (or user policy) on one synthetic trace at one load. */
export function dfrsComparisonCell(p: { trace: number; load: number; algorithm: DfrsComparisonAlgorithm; jobs_per_trace: number; base_seed: number }): DfrsComparisonRow {
  const key = JSON.stringify([p.trace, p.load, p.jobs_per_trace, p.base_seed]);
  let hit = dfrsTraces.get(key);
  if (!hit) {
    const trace = dfrsTrace({ trace_set: 'scaled', trace_index: p.trace, load: p.load, jobs_per_trace: p.jobs_per_trace, base_seed: p.base_seed });
    hit = { trace, bound: dfrsBound(trace.jobs, trace.nodes) };
    if (dfrsTraces.size >= 4) dfrsTraces.delete(dfrsTraces.keys().next().value as string);
    dfrsTraces.set(key, hit);
  }
  const a = p.algorithm;
  const user = typeof a === 'object' && a !== null;
  const r = runDfrsCell({
    jobs: hit.trace.jobs,
    nodes: hit.trace.nodes,
    cores: hit.trace.cores,
    algorithm: user ? a.algorithm : a,
    bound: hit.bound,
    ...(user ? { simulation: { policy: a.policy } } : {}),
  });
  return {
    trace: p.trace,
    load: p.load,
    algorithm: user ? a.label : a,
    maxStretch: r.max_stretch,
    bound: r.bound,
    degradation: r.degradation,
    preemptionsPerJob: r.pmtn_per_job,
    migrationsPerJob: r.mig_per_job,
  };
}

/** Run (or resume) a DFRS comparison on all cores and return its rows (see `compareBatchPolicies`). */
export async function compareDfrsPolicies(o: DfrsComparisonOptions, run: ComparisonRunOptions = {}): Promise<DfrsComparisonRow[]> {
  const sweep = dfrsComparisonSweep(o);
  const summary = await runSweep(sweep, { progress: 'auto', ...run, out: comparisonFile(sweep, run) });
  return completeRows<DfrsComparisonRow>(summary, o.name);
}

function completeRows<T>(summary: Awaited<ReturnType<typeof runSweep>>, name: string): T[] {
  if (summary.missing > 0 || summary.failed > 0) {
    const failed = summary.records.find((r) => r.status === 'failed');
    throw new InputError(`${name}: ${summary.failed} cells failed, ${summary.missing} missing` + (failed ? `; first failure: ${failed.error?.message ?? '?'}` : ''), { source: name });
  }
  return summary.records.map((r) => r.result as T);
}
