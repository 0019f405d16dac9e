/**
 * Notebook 01 (DFRS vs batch scheduling) at paper scale: 182 HPC2N weeks,
 * 100 unscaled synthetic traces and 100 base traces scaled to 9 loads
 * (1,182 traces, 1,000 jobs per synthetic trace). Three parts, one per
 * analysis of the notebook:
 *
 *   table2    1,182 traces × 20 algorithms (FCFS, EASY, Table 2's 18 DFRS rows)    23,640 cells
 *   appendix  1,182 traces × the 98 other DFRS variants                            115,836 cells
 *   period    1,182 traces × GreedyPM * /per/opt=min/minvt=600 × 11 periods ≠ 600   13,002 cells
 *                                                                                   152,478 cells
 *
 * The scaled synthetic Table 2 alone is 900 × 20 = 18,000 cells. The batch
 * rows as the paper's own simulator ran them ('FCFS (as published)', 'EASY
 * (as published)') on the same 1,182 traces are a sweep of their own
 * (`publishedBatchExperiment`, 2,364 cells), so that adding them leaves the
 * committed cells above and their fingerprint as they are. One cell =
 * one `dfrs.runDfrsCell` on a trace built by `dfrs.dfrsTrace` from plain
 * parameters; a trace's Theorem 1 bound is computed by the first cell of
 * that trace a worker runs and kept for the next ones (records carry it).
 */
import { defineSweep, Grid, SweepDefinition } from '../grid';
import { SweepSummary } from '../run';
import { isNullField, ResultRecord } from '../store';
import { DfrsCellRecord, dfrsBound, dfrsTrace, dfrsTraceLabels, DfrsTraceSpec, PreparedDfrsTrace, prepareDfrsTrace, runDfrsCell } from '../../schedulers/dfrs/experiment';
import { allAlgorithmNames, PUBLISHED_BATCH_ALGORITHMS, TABLE2_DFRS_ALGORITHMS } from '../../schedulers/dfrs/names';
import { loadLpEngine } from '../../schedulers/vcsched/lpsolver';
import { DFRS_PAPER_COUNTS, DfrsJob, offeredLoad } from '../../workloads/dfrs';
import { completeResults, orderKeys, PaperExperiment, PaperScale } from './common';
import { createRng } from '../../util/random';

export const NOTEBOOK = '01-dfrs-vs-batch';

/** The notebook's parameters, per scale. `hpc2nMaxJobs: null` = whole weeks (the notebook's undefined). */
export const DFRS_PAPER_GRID = {
  paper: {
    penalty: 300,
    period: 600,
    baseSeed: 1,
    jobsPerTrace: 1000,
    nUnscaled: 100,
    nScaledBase: 100,
    loads: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
    hpc2nWeeks: 182,
    hpc2nMaxJobs: null as number | null,
    appendixAllTraces: true,
    periods: [600, 900, 1200, 1800, 2400, 3600, 4800, 6000, 7200, 9000, 10800, 12000],
  },
  quick: {
    penalty: 300,
    period: 600,
    baseSeed: 1,
    jobsPerTrace: 150,
    nUnscaled: 2,
    nScaledBase: 1,
    loads: [0.1, 0.3, 0.5, 0.7, 0.9],
    hpc2nWeeks: 2,
    hpc2nMaxJobs: 200 as number | null,
    appendixAllTraces: false,
    periods: [600, 1200, 3000, 6000, 12000],
  },
};

/** The notebook's best algorithm (Figures 3-4 sweep its period). */
export const DFRS_BEST = 'GreedyPM */per/opt=min/minvt=600';
/** FCFS, EASY and Table 2's 18 DFRS algorithms, in the paper's order. */
export const DFRS_TABLE2_ALGORITHMS: readonly string[] = ['FCFS', 'EASY', ...TABLE2_DFRS_ALGORITHMS];
/** The algorithm whose MCB8 call lists the notebook keeps (Section 6.2). */
export const DFRS_MCB_CALLS_ALGORITHM = 'MCB8 */opt=min';

export type DfrsPart = 'table2' | 'appendix' | 'period';

export interface DfrsCellParams {
  part: DfrsPart;
  trace_set: 'hpc2n' | 'unscaled' | 'scaled';
  trace_index: number;
  /** Scaled set only (null otherwise). */
  load: number | null;
  /** Synthetic sets only (null for HPC2N). */
  jobs_per_trace: number | null;
  base_seed: number | null;
  /** HPC2N only: keep the first n jobs of the week (null: all). */
  max_jobs: number | null;
  algorithm: string;
  period: number;
  penalty: number;
  /** HPC2N ablation only (absent elsewhere): jobs crossing a week's end and how processors become tasks. */
  spanning?: 'keep' | 'drop' | 'carry-over';
  tasks?: 'paper' | 'per-processor';
  /** Maxima ablation only (absent elsewhere): the simulator's `penaltyMinAge` and `limitProtects`, the metric's bounded-stretch threshold. */
  penalty_min_age?: number;
  limit_protects?: 'migration' | 'preemption';
  stretch_threshold?: number;
  /** Maxima ablation only: why the trace is in it ('worst', 'sample-1', 'sample-2'; the run's priority passes). */
  trace_pick?: string;
}

function traceSpec(p: DfrsCellParams): DfrsTraceSpec {
  return p.trace_set === 'hpc2n'
    ? {
        trace_set: 'hpc2n', trace_index: p.trace_index, ...(p.max_jobs !== null ? { max_jobs: p.max_jobs } : {}),
        ...(p.spanning !== undefined ? { spanning: p.spanning } : {}), ...(p.tasks !== undefined ? { tasks: p.tasks } : {}),
      }
    : {
        trace_set: p.trace_set,
        trace_index: p.trace_index,
        ...(p.load !== null ? { load: p.load } : {}),
        jobs_per_trace: p.jobs_per_trace ?? undefined,
        base_seed: p.base_seed ?? undefined,
      };
}

/**
 * Traces this worker built, most recent last, and the bound of every trace it
 * has seen. Cells are dispatched in the grid's order: a trace's Table 2 and
 * appendix cells come one after the other, but its 11 period cells are 1,182
 * cells apart, so a trace comes back long after it left the few traces kept
 * (a trace takes milliseconds to build, so those are rebuilt). Its bound
 * (0.02-2.7 s: 0.17 s on average for an HPC2N week, 0.03 s for a synthetic
 * trace) is kept for the whole run: a number per trace.
 */
const traceCache: { key: string; trace: { jobs: DfrsJob[]; nodes: number; cores: number; name: string } }[] = [];
const boundCache = new Map<string, number>();

function cachedTrace(spec: DfrsTraceSpec, stretchThreshold?: number) {
  const key = JSON.stringify([spec, stretchThreshold ?? null]);
  const i = traceCache.findIndex((e) => e.key === key);
  const entry = i >= 0 ? traceCache.splice(i, 1)[0] : { key, trace: dfrsTrace(spec) };
  traceCache.push(entry);
  if (traceCache.length > 4) traceCache.shift();
  let bound = boundCache.get(key);
  if (bound === undefined) boundCache.set(key, (bound = dfrsBound(entry.trace.jobs, entry.trace.nodes, stretchThreshold)));
  return { trace: entry.trace, bound };
}

/** Cell adapter: `runDfrsCell` for one (trace, algorithm, period), with the notebook's labels, bound, batch unit and call lists. */
export async function dfrsCell(p: DfrsCellParams): Promise<DfrsCellRecord> {
  // opt=avg LPs fall back to HiGHS when javascript-lp-solver's answer fails its check.
  if (p.algorithm.includes('opt=avg')) await loadLpEngine('highs');
  const spec = traceSpec(p);
  const stretchThreshold = p.stretch_threshold ?? undefined;
  const { trace, bound } = cachedTrace(spec, stretchThreshold);
  return runDfrsCell({
    jobs: trace.jobs,
    nodes: trace.nodes,
    cores: trace.cores,
    algorithm: p.algorithm,
    bound,
    period: p.period,
    penalty: p.penalty,
    batchUnit: p.trace_set === 'hpc2n' ? 'core' : 'node',
    // as the notebook: MCB8 call lists are kept for the appendix runs of MCB8 * only
    keepMcbCalls: p.part === 'appendix' && p.algorithm === DFRS_MCB_CALLS_ALGORITHM,
    stretchThreshold,
    simulation: {
      ...(p.penalty_min_age !== undefined ? { penaltyMinAge: p.penalty_min_age } : {}),
      ...(p.limit_protects !== undefined ? { limitProtects: p.limit_protects } : {}),
    },
    labels: { trace_set: p.trace_set, trace: trace.name, load: spec.load ?? null },
  });
}

/** The notebook's traces of a scale, as grids over trace parameters (hpc2n, unscaled, scaled), in its order. */
function traceGrids(scale: PaperScale, appendix: boolean): Grid[] {
  const g = DFRS_PAPER_GRID[scale];
  const weekIndex = (i: number) => Math.floor((i * DFRS_PAPER_COUNTS.hpc2n) / g.hpc2nWeeks);
  const subset = appendix && !g.appendixAllTraces;
  const synthetic = { jobs_per_trace: [g.jobsPerTrace], base_seed: [g.baseSeed], max_jobs: [null] };
  const grids: Grid[] = [
    // quick appendix: only the first trace of each set, plus scaled loads >= 0.7 (the notebook's subset)
    { trace_set: ['hpc2n'], trace_index: subset ? [weekIndex(0)] : Array.from({ length: g.hpc2nWeeks }, (_, i) => weekIndex(i)), load: [null], jobs_per_trace: [null], base_seed: [null], max_jobs: [g.hpc2nMaxJobs] },
    { trace_set: ['unscaled'], trace_index: subset ? [0] : Array.from({ length: g.nUnscaled }, (_, i) => i), load: [null], ...synthetic },
  ];
  if (!subset) {
    grids.push({ trace_set: ['scaled'], trace_index: Array.from({ length: g.nScaledBase }, (_, i) => i), load: g.loads, ...synthetic });
  } else {
    // the first scaled trace is (base 0, first load); then base traces at loads >= 0.7, in the notebook's order
    for (let i = 0; i < g.nScaledBase; i++) {
      const loads = g.loads.filter((l) => (i === 0 && l === g.loads[0]) || l >= 0.7);
      grids.push({ trace_set: ['scaled'], trace_index: [i], load: loads, ...synthetic });
    }
  }
  return grids;
}

export function dfrsGrids(scale: PaperScale): Grid[] {
  const g = DFRS_PAPER_GRID[scale];
  const extra = allAlgorithmNames().filter((a) => !DFRS_TABLE2_ALGORITHMS.includes(a));
  const withCells = (part: DfrsPart, appendix: boolean, cells: Grid) => traceGrids(scale, appendix).map((t) => ({ part: [part], ...t, ...cells }));
  return [
    ...withCells('table2', false, { algorithm: [...DFRS_TABLE2_ALGORITHMS], period: [g.period] }),
    ...withCells('appendix', true, { algorithm: extra, period: [g.period] }),
    ...g.periods.filter((p) => p !== g.period).flatMap((period) => withCells('period', false, { algorithm: [DFRS_BEST], period: [period] })),
  ];
}

function makeSweep(scale: PaperScale): SweepDefinition {
  return defineSweep({
    name: scale === 'paper' ? NOTEBOOK : `${NOTEBOOK}-quick`,
    // Bump when the DFRS simulator's defaults change what a cell computes, so old results are refused,
    // not mixed (2: virtual time integrates the yield during a rescheduling penalty).
    version: 4,
    description: 'DFRS vs batch: Table 2, the appendix variants and the period sweep on HPC2N weeks and synthetic traces',
    cell: { module: __filename, export: 'dfrsCell' },
    grid: dfrsGrids(scale),
    fixed: { penalty: DFRS_PAPER_GRID[scale].penalty },
  });
}

export const paperSweep = makeSweep('paper');
export const quickSweep = makeSweep('quick');

/** Table 2's traces × the two batch rows as the paper's simulator ran them. */
function makePublishedBatchSweep(scale: PaperScale): SweepDefinition {
  const g = DFRS_PAPER_GRID[scale];
  return defineSweep({
    name: scale === 'paper' ? `${NOTEBOOK}-published-batch` : `${NOTEBOOK}-published-batch-quick`,
    version: 1,
    description: "DFRS vs batch: FCFS and EASY as the paper's simulator ran them (whole-node tasks, no shadow-time rule) on Table 2's traces",
    cell: { module: __filename, export: 'dfrsCell' },
    grid: traceGrids(scale, false).map((t) => ({ part: ['table2'], ...t, algorithm: [...PUBLISHED_BATCH_ALGORITHMS], period: [g.period] })),
    fixed: { penalty: g.penalty },
  });
}

export const publishedBatchPaperSweep = makePublishedBatchSweep('paper');
export const publishedBatchQuickSweep = makePublishedBatchSweep('quick');

/** What every DFRS experiment of notebook 01 shares: its notebook, the cell fields that are timings (not compared on re-verification), and the sample stratified by algorithm. */
// mcb_call_list: about half of the committed text, in 1,182 records, read by one figure of the notebook.
const DFRS_CELLS = { notebook: NOTEBOOK, timingFields: ['wall_ms', 'mcb_mean_ms', 'mcb_max_ms', 'ms'], stratifyBy: 'algorithm', deferredFields: ['mcb_call_list'] } as const;

export const experiment: PaperExperiment<Record<DfrsPart, DfrsCellRecord[]>> = {
  ...DFRS_CELLS,
  summary: 'DFRS: 1,182 traces x (20 Table 2 algorithms + 98 appendix variants + 11 periods of the best one)',
  sweep: (scale) => (scale === 'paper' ? paperSweep : quickSweep),
  exports: { paper: 'paperSweep', quick: 'quickSweep' },
  results: (summary) => dfrsResultsFrom(summary),
};

/**
 * The '(as published)' batch rows on Table 2's traces, committed as
 * `results/01-dfrs-vs-batch/01-dfrs-vs-batch-published-batch.jsonl.gz` with
 * `01-dfrs-vs-batch-published-batch.provenance.json`. Not in PAPER_EXPERIMENTS (one per
 * notebook); run with `npx ts-node --transpile-only scripts/dfrs-published-batch.ts`.
 */
export const publishedBatchExperiment: PaperExperiment<DfrsCellRecord[]> = {
  ...DFRS_CELLS,
  summary: "DFRS: 1,182 traces x FCFS and EASY as the paper's simulator ran them",
  sweep: (scale) => (scale === 'paper' ? publishedBatchPaperSweep : publishedBatchQuickSweep),
  exports: { paper: 'publishedBatchPaperSweep', quick: 'publishedBatchQuickSweep' },
  results: (summary) => dfrsResultsFrom(summary).table2,
};

/**
 * Issue 25's HPC2N ablation: the week cut and the task count as switches
 * (`hpc2nWeeks` option `spanning`, `hpc2nJob` option `tasks`), one changed at
 * a time, each on 12 HPC2N weeks evenly spread over the 182 (weeks 7, 22, …,
 * 172: a few CPU-minutes on a shared machine) under EASY as published (the
 * batch row at ×0.8 of the paper) and the best DFRS algorithm. Each
 * variant's traces get their own bound. The default variant ('keep',
 * 'paper') repeats Table 2's cells on the same weeks.
 */
export const HPC2N_ABLATION = {
  weeks: { paper: Array.from({ length: 12 }, (_, i) => 7 + 15 * i), quick: [0, 90] },
  algorithms: ['EASY (as published)', DFRS_BEST],
  /**
   * One task per processor runs under the DFRS algorithm only: EASY as
   * published gives every task a whole node, and 36 of the 182 weeks then
   * hold a job wider than the 120 nodes (212 jobs of 121-240 processors), so
   * the paper's simulator could not have counted tasks that way for its batch
   * rows (version 1 of this sweep failed there).
   */
  variants: [
    { spanning: 'keep', tasks: 'paper', algorithms: ['EASY (as published)', DFRS_BEST] },
    { spanning: 'drop', tasks: 'paper', algorithms: ['EASY (as published)', DFRS_BEST] },
    { spanning: 'carry-over', tasks: 'paper', algorithms: ['EASY (as published)', DFRS_BEST] },
    { spanning: 'keep', tasks: 'per-processor', algorithms: [DFRS_BEST] },
  ] as { spanning: 'keep' | 'drop' | 'carry-over'; tasks: 'paper' | 'per-processor'; algorithms: string[] }[],
};

function makeHpc2nAblationSweep(scale: PaperScale): SweepDefinition {
  const g = DFRS_PAPER_GRID[scale];
  return defineSweep({
    name: scale === 'paper' ? `${NOTEBOOK}-hpc2n-ablation` : `${NOTEBOOK}-hpc2n-ablation-quick`,
    version: 2,
    description: 'DFRS vs batch, HPC2N weeks: jobs crossing a week end and the task count on dual-core nodes as switches',
    cell: { module: __filename, export: 'dfrsCell' },
    grid: HPC2N_ABLATION.variants.map((v) => ({
      part: ['table2'], trace_set: ['hpc2n'], trace_index: HPC2N_ABLATION.weeks[scale], load: [null], jobs_per_trace: [null], base_seed: [null],
      max_jobs: [g.hpc2nMaxJobs], spanning: [v.spanning], tasks: [v.tasks], algorithm: v.algorithms, period: [g.period],
    })),
    fixed: { penalty: g.penalty },
  });
}

export const hpc2nAblationPaperSweep = makeHpc2nAblationSweep('paper');
export const hpc2nAblationQuickSweep = makeHpc2nAblationSweep('quick');

/** The HPC2N ablation's records, each with its `spanning` and `tasks` switch; run with `scripts/dfrs-ablation.ts hpc2n`. */
export const hpc2nAblationExperiment: PaperExperiment<(DfrsCellRecord & { spanning: string; tasks: string })[]> = {
  ...DFRS_CELLS,
  summary: 'DFRS: 12 HPC2N weeks x 4 week-cut and task-count variants x EASY as published and the best DFRS algorithm',
  sweep: (scale) => (scale === 'paper' ? hpc2nAblationPaperSweep : hpc2nAblationQuickSweep),
  exports: { paper: 'hpc2nAblationPaperSweep', quick: 'hpc2nAblationQuickSweep' },
  results: (summary) => {
    const records = dfrsResultsFrom(summary).table2;
    return records.map((r, i) => ({ ...r, spanning: summary.records[i].params.spanning as string, tasks: summary.records[i].params.tasks as string }));
  },
};

/**
 * Issue 25's maxima ablation: on the synthetic sets our maxima of the minvt=600
 * and MCB8 rows are several times the published ones, and each worst trace's
 * maximum is one very short job paused seconds after its start that pays the
 * 300 s penalty at its resume. Three candidate rules, each a switch changed
 * alone (none is the paper's: it charges the penalty "whatever the job's
 * characteristics", lets minvt jobs "be paused", and sets the threshold "to
 * 10 seconds"):
 *
 *   penalty_min_age=600         no penalty for a job with less than 600 s of virtual time (the rows' minvt bound)
 *   limit_protects=preemption   minvt=600 keeps a young job running (MCB8, GreedyP and GreedyPM)
 *   stretch_threshold=60        bounded stretch (and its bound) with a 60 s threshold
 *
 * The default variant is Table 2's own cells (not run again). Traces: the two
 * holding each row's largest degradations in Table 2's results (version 4),
 * then a seeded sample of the rest covering every load, in two halves (the
 * run's priority passes: an interrupted run has answered the first ones).
 */
export const MAXIMA_ABLATION = {
  algorithms: ['GreedyP */per/opt=min/minvt=600', 'GreedyPM */per/opt=min/minvt=600', 'MCB8 */opt=min/minvt=600', 'MCB8/per/opt=min/minvt=600', 'MCB8 */per/opt=min/minvt=600'],
  variants: [{ penalty_min_age: 600 }, { limit_protects: 'preemption' }, { stretch_threshold: 60 }] as Pick<DfrsCellParams, 'penalty_min_age' | 'limit_protects' | 'stretch_threshold'>[],
  /** The switches' values in Table 2's own runs. */
  defaults: { penalty_min_age: '0', limit_protects: 'migration', stretch_threshold: '10' } as Record<string, string>,
  worst: {
    unscaled: [10, 12, 37, 55, 89, 90],
    scaled: [[90, 0.6], [28, 0.9], [37, 0.8], [8, 0.9], [10, 0.9], [10, 0.8], [55, 0.8], [55, 0.7]] as [number, number][],
  },
  /** Seeded sample: per half, this many unscaled traces and base traces per load. */
  sample: { seed: '01-dfrs-vs-batch/maxima-ablation', unscaled: 20, scaledPerLoad: 4 },
};

type AblationTrace = { trace_set: 'unscaled' | 'scaled'; trace_index: number; load: number | null };
/** Names of the maxima ablation's trace picks, in the run's order. */
export const MAXIMA_PICKS = ['worst', 'sample-1', 'sample-2'] as const;

/** The maxima ablation's traces as (set, index, load), per pick: the worst traces, then each half of the sample. */
export function maximaAblationTraces(scale: PaperScale): Record<(typeof MAXIMA_PICKS)[number], AblationTrace[]> {
  const g = DFRS_PAPER_GRID[scale];
  const a = MAXIMA_ABLATION;
  const inRange = (i: number, n: number) => i < n;
  const worst = [
    ...a.worst.unscaled.filter((i) => inRange(i, g.nUnscaled)).map((i) => ({ trace_set: 'unscaled' as const, trace_index: i, load: null })),
    ...a.worst.scaled.filter(([i, l]) => inRange(i, g.nScaledBase) && g.loads.includes(l)).map(([i, l]) => ({ trace_set: 'scaled' as const, trace_index: i, load: l })),
  ];
  const taken = new Set(worst.map((t) => `${t.trace_set}/${t.trace_index}/${t.load}`));
  const rng = createRng(a.sample.seed);
  const unscaled = rng.shuffle(Array.from({ length: g.nUnscaled }, (_, i) => i)).filter((i) => !taken.has(`unscaled/${i}/null`));
  const scaledByLoad = g.loads.map((l) => rng.shuffle(Array.from({ length: g.nScaledBase }, (_, i) => i)).filter((i) => !taken.has(`scaled/${i}/${l}`)));
  const half = (h: number) => [
    ...unscaled.slice(h * a.sample.unscaled, (h + 1) * a.sample.unscaled).map((i) => ({ trace_set: 'unscaled' as const, trace_index: i, load: null })),
    ...g.loads.flatMap((l, k) => scaledByLoad[k].slice(h * a.sample.scaledPerLoad, (h + 1) * a.sample.scaledPerLoad).map((i) => ({ trace_set: 'scaled' as const, trace_index: i, load: l }))),
  ];
  return { worst, 'sample-1': half(0), 'sample-2': half(1) };
}

function maximaAblationGrids(scale: PaperScale): Grid[] {
  const g = DFRS_PAPER_GRID[scale];
  const picks = maximaAblationTraces(scale);
  const traces = MAXIMA_PICKS.flatMap((pick) => picks[pick].map((t) => ({ ...t, pick })));
  return MAXIMA_ABLATION.variants.flatMap((v) => traces.map((t) => ({
    part: ['table2'], trace_pick: [t.pick], trace_set: [t.trace_set], trace_index: [t.trace_index], load: [t.load], jobs_per_trace: [g.jobsPerTrace], base_seed: [g.baseSeed], max_jobs: [null],
    ...Object.fromEntries(Object.entries(v).map(([k, x]) => [k, [x]])), algorithm: MAXIMA_ABLATION.algorithms, period: [g.period],
  })));
}

function makeMaximaAblationSweep(scale: PaperScale): SweepDefinition {
  const g = DFRS_PAPER_GRID[scale];
  return defineSweep({
    name: scale === 'paper' ? `${NOTEBOOK}-maxima-ablation` : `${NOTEBOOK}-maxima-ablation-quick`,
    version: 1,
    description: 'DFRS vs batch, synthetic sets: penalty by age, minvt against pauses and the stretch threshold as switches on the minvt=600 and MCB8 rows',
    cell: { module: __filename, export: 'dfrsCell' },
    grid: maximaAblationGrids(scale),
    fixed: { penalty: g.penalty },
  });
}

export const maximaAblationPaperSweep = makeMaximaAblationSweep('paper');
export const maximaAblationQuickSweep = makeMaximaAblationSweep('quick');

/** The switches of a maxima-ablation cell, as strings ('0', 'migration', '10' when not set: Table 2's own runs). */
export function maximaSwitches(params: Record<string, unknown>): Record<'penalty_min_age' | 'limit_protects' | 'stretch_threshold', string> {
  const d = MAXIMA_ABLATION.defaults;
  const of = (k: string) => (params[k] === undefined || params[k] === null ? d[k] : String(params[k]));
  return { penalty_min_age: of('penalty_min_age'), limit_protects: of('limit_protects'), stretch_threshold: of('stretch_threshold') };
}

/** The maxima ablation's records, each with its three switches; run with `scripts/dfrs-ablation.ts maxima`. */
export const maximaAblationExperiment: PaperExperiment<(DfrsCellRecord & Record<'trace_pick' | 'penalty_min_age' | 'limit_protects' | 'stretch_threshold', string>)[]> = {
  ...DFRS_CELLS,
  summary: 'DFRS: synthetic traces (the worst, then a seeded sample over every load) x 5 minvt=600/MCB8 rows x 3 switches',
  sweep: (scale) => (scale === 'paper' ? maximaAblationPaperSweep : maximaAblationQuickSweep),
  exports: { paper: 'maximaAblationPaperSweep', quick: 'maximaAblationQuickSweep' },
  results: (summary) => {
    const records = dfrsResultsFrom(summary).table2;
    return records.map((r, i) => ({ ...r, trace_pick: summary.records[i].params.trace_pick as string, ...maximaSwitches(summary.records[i].params) }));
  },
};

const RECORD_KEYS = [
  'trace_set', 'trace', 'load', 'algorithm', 'nodes', 'jobs', 'period', 'penalty', 'offered_load', 'bound', 'max_stretch', 'degradation',
  'norm_underutilization', 'pmtn_per_hour', 'mig_per_hour', 'pmtn_per_job', 'mig_per_job', 'pmtn_gbps', 'mig_gbps',
  'mcb_calls', 'mcb_mean_ms', 'mcb_max_ms', 'wall_ms', 'mcb_call_list',
];
/** Fields in which JSON's null stands for NaN/±Infinity (`load` is null on purpose for unscaled and HPC2N traces). */
const NUMERIC = RECORD_KEYS.filter((k) => !['trace_set', 'trace', 'load', 'algorithm', 'mcb_call_list'].includes(k));

/**
 * Each part's records, computed once per set of stored records: a render reads the same committed records
 * through the claims (first screen) and through `records` (its tables). The key is the stored records
 * themselves, compared one by one, so other or changed records are regrouped; callers get arrays of their own.
 */
const partsCache = new WeakMap<ResultRecord, { records: readonly ResultRecord[]; parts: Record<DfrsPart, DfrsCellRecord[]> }>();

/** The records of each part (traces outer, algorithms inner; periods outermost). */
export function dfrsResultsFrom(summary: SweepSummary): Record<DfrsPart, DfrsCellRecord[]> {
  const stored = summary.records;
  const hit = stored.length > 0 ? partsCache.get(stored[0]) : undefined;
  let parts = hit && hit.records.length === stored.length && hit.records.every((r, i) => r === stored[i]) ? hit.parts : undefined;
  if (!parts) {
    parts = regroup(summary); // throws on failed or missing cells, whatever is cached
    if (stored.length > 0) partsCache.set(stored[0], { records: [...stored], parts });
  }
  return { table2: [...parts.table2], appendix: [...parts.appendix], period: [...parts.period] };
}

function regroup(summary: SweepSummary): Record<DfrsPart, DfrsCellRecord[]> {
  const results = orderKeys(completeResults<DfrsCellRecord>(summary), RECORD_KEYS);
  const out: Record<DfrsPart, DfrsCellRecord[]> = { table2: [], appendix: [], period: [] };
  summary.records.forEach((rec, i) => {
    const r = results[i] as Record<string, unknown>;
    for (const k of NUMERIC) if (r[k] === null) r[k] = NaN;
    if (isNullField(r, 'mcb_call_list')) delete r.mcb_call_list;
    out[rec.params.part as DfrsPart].push(results[i]);
  });
  return out;
}

/**
 * A trace whose jobs (with its nodes, cores and bound) are built on first use:
 * a render from committed results needs the jobs of a few traces only (the
 * records carry each trace's size, load and bound), and building all 1,182
 * (one million jobs, the HPC2N log cut 182 times) took most of a minute.
 */
export function lazyDfrsTrace(spec: DfrsTraceSpec): PreparedDfrsTrace {
  let built: PreparedDfrsTrace | undefined;
  const trace = () => (built ??= prepareDfrsTrace(spec));
  return {
    labels: dfrsTraceLabels(spec),
    get jobs() { return trace().jobs; },
    get nodes() { return trace().nodes; },
    get cores() { return trace().cores; },
    get bound() { return trace().bound; },
    batchUnit: spec.trace_set === 'hpc2n' ? 'core' : 'node',
  };
}

/** One row of notebook 01's traces table. */
export type DfrsTraceRow = {
  set: string;
  trace: string;
  jobs: number;
  nodes: number;
  offered_load: number;
  bound: number;
};

/**
 * The traces table (jobs, nodes, offered load, Theorem 1 bound): read from a
 * record of each trace, since every cell's record carries them, and computed
 * from the trace's jobs only for a trace no record covers (or of fewer than
 * two jobs, whose record's offered load is 0 by convention).
 */
export function dfrsTraceRows(traces: readonly PreparedDfrsTrace[], records: readonly DfrsCellRecord[]): DfrsTraceRow[] {
  const recordOf = new Map<string, DfrsCellRecord>();
  for (const r of records) {
    const k = `${r.trace_set as string}|${r.trace as string}`;
    if (!recordOf.has(k)) recordOf.set(k, r);
  }
  return traces.map((t) => {
    const { trace_set: set, trace } = t.labels;
    const r = recordOf.get(`${set}|${trace}`);
    if (r && r.jobs >= 2) return { set, trace, jobs: r.jobs, nodes: r.nodes, offered_load: r.offered_load, bound: r.bound };
    return { set, trace, jobs: t.jobs.length, nodes: t.nodes, offered_load: offeredLoad(t.jobs, t.nodes), bound: r?.bound ?? t.bound };
  });
}
