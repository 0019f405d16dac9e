/**
 * Notebook 00 (batch baselines) at paper scale: FCFS, EASY and conservative
 * backfilling on five whole real traces and a 20,000-job Lublin–Feitelson
 * workload. Two parts, one per table of the notebook:
 *
 *   summary  6 workloads × 3 policies × {exact, requested} estimates, own load    36 cells
 *   curves   6 workloads × 6 offered loads × 3 policies, exact estimates         108 cells
 *                                                                               144 cells
 *
 * One cell = one `simulateBatch` + `summarizeRun` on a prepared workload,
 * giving one row of the notebook's tables.
 */
import { defineSweep, Grid, SweepDefinition } from '../grid';
import { SweepSummary } from '../run';
import { simulateBatch } from '../../schedulers/batch';
import { summarizeRun } from '../../metrics/jobs';
import { rebase, scaleToLoad } from '../../workloads/filters';
import { generateLublin } from '../../workloads/lublin';
import { loadTraceSync } from '../../workloads/traces';
import { WorkloadJob } from '../../workloads/job';
import { completeResults, nullsToNaN, orderKeys, PaperExperiment, PaperScale } from './common';

export const NOTEBOOK = '00-batch-baselines';

/** The notebook's parameters, per scale. `jobsPerTrace: null` = the whole trace (the notebook's Infinity). */
export const BATCH_PAPER_GRID = {
  paper: {
    traces: ['KTH-SP2', 'CTC-SP2', 'HPC2N', 'LANL-CM5', 'SDSC-BLUE'],
    jobsPerTrace: null as number | null,
    loads: [0.5, 0.6, 0.7, 0.8, 0.9, 0.95],
    policies: ['fcfs', 'easy', 'conservative'],
    lublinJobs: 20000,
    lublinMachine: 128,
    lublinSeed: 'batch-baselines',
    bsldThreshold: 10,
  },
  quick: {
    traces: ['KTH-SP2', 'CTC-SP2', 'HPC2N', 'LANL-CM5', 'SDSC-BLUE'],
    jobsPerTrace: 3000 as number | null,
    loads: [0.5, 0.7, 0.9],
    policies: ['fcfs', 'easy', 'conservative'],
    lublinJobs: 3000,
    lublinMachine: 128,
    lublinSeed: 'batch-baselines',
    bsldThreshold: 10,
  },
};

export interface BatchCellParams {
  part: 'summary' | 'curves';
  /** A trace name or 'Lublin'. */
  workload: string;
  policy: 'fcfs' | 'easy' | 'conservative';
  estimates: 'exact' | 'requested';
  /** Target offered load (curves); null keeps the workload's own load (summary). */
  load: number | null;
  /** Consecutive jobs from the middle of each trace; null: the whole trace. */
  jobsPerTrace: number | null;
  lublin: { jobs: number; machineSize: number; seed: string };
  bsldThreshold: number;
}

/** A type alias (not an interface), so rows are plain `Record<string, unknown>` for tables. */
export type BatchSummaryRow = {
  workload: string;
  policy: string;
  estimates: string;
  meanWait: number;
  maxWait: number;
  meanResponse: number;
  meanBsld: number;
  maxBsld: number;
  utilization: number;
  makespanDays: number;
};

export type BatchCurveRow = {
  workload: string;
  policy: string;
  load: number;
  meanBsld: number;
  meanWait: number;
  utilization: number;
};

/** Prepared workloads of this worker (a trace is parsed once, not once per cell); results never depend on it. */
const workloadCache: { key: string; value: { machineSize: number; jobs: WorkloadJob[] } }[] = [];

/** The notebook's workload: the middle `jobsPerTrace` jobs of a trace, rebased, or the Lublin workload. */
export function batchWorkload(p: Pick<BatchCellParams, 'workload' | 'jobsPerTrace' | 'lublin'>): { machineSize: number; jobs: WorkloadJob[] } {
  const key = JSON.stringify([p.workload, p.jobsPerTrace, p.lublin]);
  const hit = workloadCache.find((e) => e.key === key);
  if (hit) return hit.value;
  let value: { machineSize: number; jobs: WorkloadJob[] };
  if (p.workload === 'Lublin') {
    value = { machineSize: p.lublin.machineSize, jobs: generateLublin({ jobs: p.lublin.jobs, seed: p.lublin.seed, machineSize: p.lublin.machineSize }) };
  } else {
    const t = loadTraceSync(p.workload);
    const n = Math.min(p.jobsPerTrace ?? Infinity, t.jobs.length);
    const from = Math.floor((t.jobs.length - n) / 2);
    value = { machineSize: t.info.machineSize, jobs: rebase(t.jobs.slice(from, from + n)) };
  }
  workloadCache.push({ key, value });
  if (workloadCache.length > 2) workloadCache.shift();
  return value;
}

/** Cell adapter: the notebook's loop body for one (workload, policy, estimates | load). */
export function batchCell(p: BatchCellParams): BatchSummaryRow | BatchCurveRow {
  const w = batchWorkload(p);
  const jobs = p.load === null ? w.jobs : scaleToLoad(w.jobs, w.machineSize, p.load);
  const r = simulateBatch(jobs, { machineSize: w.machineSize, policy: p.policy, estimates: p.estimates });
  const s = summarizeRun(r, { machineSize: w.machineSize, threshold: p.bsldThreshold });
  if (p.part === 'curves') {
    return { workload: p.workload, policy: p.policy, load: p.load as number, meanBsld: s.meanBoundedSlowdown, meanWait: s.meanWait, utilization: s.utilization };
  }
  return {
    workload: p.workload, policy: p.policy, estimates: p.estimates,
    meanWait: s.meanWait, maxWait: s.maxWait, meanResponse: s.meanResponse,
    meanBsld: s.meanBoundedSlowdown, maxBsld: s.maxBoundedSlowdown,
    utilization: s.utilization, makespanDays: s.makespan / 86400,
  };
}

export function batchGrids(scale: PaperScale): Grid[] {
  const g = BATCH_PAPER_GRID[scale];
  const workloads = [...g.traces, 'Lublin'];
  return [
    { part: ['summary'], workload: workloads, policy: g.policies, estimates: ['exact', 'requested'], load: [null] },
    { part: ['curves'], workload: workloads, load: g.loads, policy: g.policies, estimates: ['exact'] },
  ];
}

function makeSweep(scale: PaperScale): SweepDefinition {
  const g = BATCH_PAPER_GRID[scale];
  return defineSweep({
    name: scale === 'paper' ? NOTEBOOK : `${NOTEBOOK}-quick`,
    version: 3,
    description: 'FCFS / EASY / conservative backfilling on real traces and a Lublin workload',
    cell: { module: __filename, export: 'batchCell' },
    grid: batchGrids(scale),
    fixed: {
      jobsPerTrace: g.jobsPerTrace,
      lublin: { jobs: g.lublinJobs, machineSize: g.lublinMachine, seed: g.lublinSeed },
      bsldThreshold: g.bsldThreshold,
    },
  });
}

export const paperSweep = makeSweep('paper');
export const quickSweep = makeSweep('quick');

export const experiment: PaperExperiment<{ summary: BatchSummaryRow[]; curves: BatchCurveRow[] }> = {
  notebook: NOTEBOOK,
  summary: 'batch baselines: FCFS/EASY/conservative on 5 whole traces + 20k Lublin jobs (own load x 2 estimates, 6 loads)',
  sweep: (scale) => (scale === 'paper' ? paperSweep : quickSweep),
  exports: { paper: 'paperSweep', quick: 'quickSweep' },
  stratifyBy: 'policy',
  results: (summary) => batchResultsFrom(summary),
};

export function batchResultsFrom(summary: SweepSummary): { summary: BatchSummaryRow[]; curves: BatchCurveRow[] } {
  const results = nullsToNaN(completeResults<Record<string, unknown>>(summary));
  const out = { summary: [] as BatchSummaryRow[], curves: [] as BatchCurveRow[] };
  summary.records.forEach((rec, i) => {
    if (rec.params.part === 'curves') out.curves.push(results[i] as unknown as BatchCurveRow);
    else out.summary.push(results[i] as unknown as BatchSummaryRow);
  });
  return {
    summary: orderKeys(out.summary, ['workload', 'policy', 'estimates', 'meanWait', 'maxWait', 'meanResponse', 'meanBsld', 'maxBsld', 'utilization', 'makespanDays']),
    curves: orderKeys(out.curves, ['workload', 'policy', 'load', 'meanBsld', 'meanWait', 'utilization']),
  };
}
