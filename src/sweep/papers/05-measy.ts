/**
 * Notebook 05 (MEASY) at paper scale: 320 processors, FWload (200,000 jobs)
 * and JWload (100,000 jobs) at ten loads, and the CTC-SP2 log as a real-data
 * check. Five parts, one per notebook grid:
 *
 *   main    2 workloads × 10 loads × {easy, keasy, reasy, measy}        80 cells (Figures 6-8)
 *   noInfo  2 × 10 × {keasy, measy}, no CPU-usage information          40 cells (Figures 9-10)
 *   full    2 × 10 × {easy, keasy, measy}, 100% CPU usage               60 cells (Figures 11-12)
 *   costs   2 workloads at load 0.8: keasy + measy × 10 migration costs 22 cells (Figures 13-14)
 *   ctc     CTC-SP2 (77,222 jobs) × 4 loads × 4 policies                16 cells
 *                                                                       218 cells
 *
 * One cell = one `twotier.runMeasyCell`. Every policy of a (workload, load)
 * sees the same jobs: the workload seed is a parameter (the notebook's SEED),
 * not the cell seed.
 */
import { defineSweep, Grid, SweepDefinition } from '../grid';
import { SweepSummary } from '../run';
import { measyWorkload, MeasyCellRecord, MeasyEstimateModel, MeasyWorkloadSpec, runMeasyCell, MeasyWorkloadName } from '../../schedulers/twotier/experiment';
import type { BackgroundProgressModel } from '../../schedulers/twotier/progress';
import type { ReasyReservation } from '../../schedulers/twotier/policies';
import { TwoTierJob, TwoTierPolicy } from '../../schedulers/twotier/simulator';
import { completeResults, nullsToNaN, PaperExperiment, PaperScale } from './common';

export const NOTEBOOK = '05-measy';

/** The notebook's parameters, per scale. */
export const MEASY_PAPER_GRID = {
  paper: {
    seed: 1,
    machine: 320,
    batches: 10,
    jobs: { feitelson: 200000, jann: 100000 },
    loads: [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95],
    costLoad: 0.8,
    costs: [0, 20, 60, 120, 240, 480, 720, 900, 1200, 1500],
    ctcJobs: 77222,
    ctcLoads: [0.6, 0.7, 0.8, 0.9],
  },
  // Quick: every policy, part, figure and table, small enough for the test suite's two quick executions of this
  // page (the 112 cells and the ablations' 50, about 25 CPU s together).
  quick: {
    seed: 1,
    machine: 320,
    batches: 10,
    jobs: { feitelson: 5000, jann: 4000 },
    loads: [0.5, 0.6, 0.7, 0.8, 0.9],
    costLoad: 0.8,
    costs: [0, 20, 240, 480, 900, 1500],
    ctcJobs: 5000,
    ctcLoads: [0.7, 0.9],
  },
};

export type MeasyPart = 'main' | 'noInfo' | 'full' | 'costs' | 'ctc';
export const MEASY_PARTS: readonly MeasyPart[] = ['main', 'noInfo', 'full', 'costs', 'ctc'];

export interface MeasyCellParams {
  part: MeasyPart;
  workload: MeasyWorkloadName;
  jobs: number;
  load: number;
  policy: TwoTierPolicy;
  cpuUsage: 'paper' | 'full';
  cpuInfo: 'exact' | 'none';
  migrationCost: number;
  machineSize: number;
  batches: number;
  /** The workload seed (the notebook's SEED), shared by every cell. */
  workloadSeed: number;
  /** Switches of the ablations (absent: the defaults, as in the notebook's own sweep). */
  estimateModel?: MeasyEstimateModel;
  backgroundModel?: BackgroundProgressModel;
  reasyReservation?: ReasyReservation;
}

/**
 * Workloads built by this worker, most recent last. Building 200,000 jobs
 * takes seconds and several cells in a row share one; the cache never
 * changes a result (a workload is a pure function of its spec).
 */
const workloadCache: { key: string; jobs: TwoTierJob[] }[] = [];
const CACHE_SIZE = 3;

function cachedWorkload(spec: MeasyWorkloadSpec): TwoTierJob[] {
  const key = JSON.stringify([spec.workload, spec.jobs, spec.load, spec.cpuUsage, spec.machineSize, spec.seed, spec.estimateModel ?? 'tsafrir']);
  const i = workloadCache.findIndex((e) => e.key === key);
  if (i >= 0) {
    const [hit] = workloadCache.splice(i, 1);
    workloadCache.push(hit);
    return hit.jobs;
  }
  const jobs = measyWorkload(spec);
  workloadCache.push({ key, jobs });
  if (workloadCache.length > CACHE_SIZE) workloadCache.shift();
  return jobs;
}

/** Cell adapter: one `runMeasyCell` with the notebook's workload seed. */
export function measyCell(p: MeasyCellParams): MeasyCellRecord {
  const spec: MeasyWorkloadSpec = { workload: p.workload, jobs: p.jobs, load: p.load, cpuUsage: p.cpuUsage, machineSize: p.machineSize, seed: p.workloadSeed };
  if (p.estimateModel !== undefined) spec.estimateModel = p.estimateModel;
  return runMeasyCell(
    { ...spec, policy: p.policy, migrationCost: p.migrationCost, cpuInfo: p.cpuInfo, batches: p.batches, backgroundModel: p.backgroundModel, reasyReservation: p.reasyReservation },
    cachedWorkload(spec),
  );
}

/** The grids of one scale, in the notebook's order. */
export function measyGrids(scale: PaperScale): Grid[] {
  const g = MEASY_PAPER_GRID[scale];
  const grids: Grid[] = [];
  const synthetic = ['feitelson', 'jann'] as const;
  const add = (part: MeasyPart, workload: MeasyWorkloadName, jobs: number, loads: number[], policies: TwoTierPolicy[], extra: Partial<Record<'cpuUsage' | 'cpuInfo', string>> & { costs?: number[] } = {}) =>
    grids.push({
      part: [part],
      workload: [workload],
      jobs: [jobs],
      cpuUsage: [extra.cpuUsage ?? 'paper'],
      cpuInfo: [extra.cpuInfo ?? 'exact'],
      load: loads,
      policy: policies,
      migrationCost: extra.costs ?? [20],
    });
  for (const w of synthetic) add('main', w, g.jobs[w], g.loads, ['easy', 'keasy', 'reasy', 'measy']);
  for (const w of synthetic) add('noInfo', w, g.jobs[w], g.loads, ['keasy', 'measy'], { cpuInfo: 'none' });
  for (const w of synthetic) add('full', w, g.jobs[w], g.loads, ['easy', 'keasy', 'measy'], { cpuUsage: 'full' });
  for (const w of synthetic) {
    // Non-MEASY policies run once, with the first listed cost (recorded, not used by KEASY).
    add('costs', w, g.jobs[w], [g.costLoad], ['keasy'], { costs: [g.costs[0]] });
    add('costs', w, g.jobs[w], [g.costLoad], ['measy'], { costs: g.costs });
  }
  add('ctc', 'ctc', g.ctcJobs, g.ctcLoads, ['easy', 'keasy', 'reasy', 'measy']);
  return grids;
}

function makeSweep(scale: PaperScale): SweepDefinition {
  const g = MEASY_PAPER_GRID[scale];
  return defineSweep({
    name: scale === 'paper' ? NOTEBOOK : `${NOTEBOOK}-quick`,
    version: 3,
    description: 'MEASY paper Figures 6-14 and the CTC-SP2 check: one twotier.runMeasyCell per cell',
    cell: { module: __filename, export: 'measyCell' },
    grid: measyGrids(scale),
    fixed: { machineSize: g.machine, batches: g.batches, workloadSeed: g.seed },
  });
}

export const paperSweep = makeSweep('paper');
export const quickSweep = makeSweep('quick');

export const experiment: PaperExperiment<Record<MeasyPart, MeasyCellRecord[]>> = {
  notebook: NOTEBOOK,
  summary: 'MEASY: FWload 200k / JWload 100k jobs x 10 loads x policies, no-CPU-info, 100% CPU, migration costs, CTC-SP2',
  sweep: (scale) => (scale === 'paper' ? paperSweep : quickSweep),
  exports: { paper: 'paperSweep', quick: 'quickSweep' },
  timingFields: ['seconds'],
  stratifyBy: 'policy',
  results: (summary) => measyResultsFrom(summary),
};

/** The records of each part, in grid order (workload, load, policy, migration cost). */
export function measyResultsFrom(summary: SweepSummary): Record<MeasyPart, MeasyCellRecord[]> {
  const results = nullsToNaN(completeResults<MeasyCellRecord>(summary));
  const out = { main: [], noInfo: [], full: [], costs: [], ctc: [] } as Record<MeasyPart, MeasyCellRecord[]>;
  summary.records.forEach((rec, i) => out[rec.params.part as MeasyPart].push(results[i]));
  return out;
}

/**
 * The ablations of issue 25 §3: each switch that could explain a published
 * result we do not reproduce, run at paper scale on the part of the grid
 * that answers it (the defaults are the notebook's own committed cells).
 *
 *   reasy      reasyReservation 'algorithm': JWload reasy, 5 loads           5 cells
 *   costLoad   the migration-cost sweep at two more loads (JWload; KEASY
 *              and MEASY at 5 of the 10 costs, both sides of 480 and 900 s) 12 cells
 *   costEst    the same at the notebook's cost load, 'ctc-ratio' estimates   6 cells
 *   estimates  estimateModel 'ctc-ratio' and 'exact': FWload easy, measy and
 *              noInfo keasy, measy; JWload easy, reasy, measy; 2 loads     28 cells
 *   progress   backgroundModel 'product': FWload measy + noInfo keasy,
 *              measy; JWload keasy, reasy, measy; 2 loads                  12 cells
 *                                                                          63 cells
 * The machine is shared, so the grid is kept to what answers each question
 * (about 15 CPU minutes from the main sweep's cell times).
 * One cell = one `measyCell`; a record's params carry its switch.
 */
export type MeasyAblation = 'estimates' | 'reasy' | 'progress' | 'costLoad' | 'costEst';
export const MEASY_ABLATIONS: readonly MeasyAblation[] = ['estimates', 'reasy', 'progress', 'costLoad', 'costEst'];

export const MEASY_ABLATION_GRID = {
  paper: { loads: [0.6, 0.9], reasyLoads: [0.5, 0.6, 0.7, 0.8, 0.9], costLoads: [0.6, 0.95], costs: [20, 240, 480, 900, 1500] },
  quick: { loads: [0.6, 0.9], reasyLoads: [0.6, 0.9], costLoads: [0.6], costs: [20, 480, 1500] },
};

/** The ablation grids of one scale (cheap parts first). */
export function measyAblationGrids(scale: PaperScale): Grid[] {
  const g = MEASY_PAPER_GRID[scale];
  const a = MEASY_ABLATION_GRID[scale];
  const grids: Grid[] = [];
  const add = (ablation: MeasyAblation, part: MeasyPart, workload: MeasyWorkloadName, loads: number[], policies: TwoTierPolicy[], switches: Record<string, unknown[]>, extra: { cpuInfo?: string; costs?: number[] } = {}) =>
    grids.push({
      ablation: [ablation],
      part: [part],
      workload: [workload],
      jobs: [g.jobs[workload as 'feitelson' | 'jann']],
      cpuUsage: ['paper'],
      cpuInfo: [extra.cpuInfo ?? 'exact'],
      load: loads,
      policy: policies,
      migrationCost: extra.costs ?? [20],
      ...switches,
    });
  add('reasy', 'main', 'jann', a.reasyLoads, ['reasy'], { reasyReservation: ['algorithm'] });
  for (const load of a.costLoads) {
    add('costLoad', 'costs', 'jann', [load], ['keasy'], {}, { costs: [g.costs[0]] });
    add('costLoad', 'costs', 'jann', [load], ['measy'], {}, { costs: a.costs });
  }
  add('costEst', 'costs', 'jann', [g.costLoad], ['keasy'], { estimateModel: ['ctc-ratio'] }, { costs: [g.costs[0]] });
  add('costEst', 'costs', 'jann', [g.costLoad], ['measy'], { estimateModel: ['ctc-ratio'] }, { costs: a.costs });
  const models: MeasyEstimateModel[] = ['ctc-ratio', 'exact'];
  add('estimates', 'main', 'feitelson', a.loads, ['easy', 'measy'], { estimateModel: models });
  add('estimates', 'noInfo', 'feitelson', a.loads, ['keasy', 'measy'], { estimateModel: models }, { cpuInfo: 'none' });
  add('estimates', 'main', 'jann', a.loads, ['easy', 'reasy', 'measy'], { estimateModel: models });
  add('progress', 'main', 'jann', a.loads, ['keasy', 'reasy', 'measy'], { backgroundModel: ['product'] });
  add('progress', 'main', 'feitelson', a.loads, ['measy'], { backgroundModel: ['product'] });
  add('progress', 'noInfo', 'feitelson', a.loads, ['keasy', 'measy'], { backgroundModel: ['product'] }, { cpuInfo: 'none' });
  return grids;
}

function makeAblationSweep(scale: PaperScale): SweepDefinition {
  const g = MEASY_PAPER_GRID[scale];
  return defineSweep({
    name: scale === 'paper' ? `${NOTEBOOK}-ablations` : `${NOTEBOOK}-ablations-quick`,
    version: 1,
    description: 'MEASY ablations (issue 25): estimate model, REASY reservation, background progress, load of the migration-cost sweep',
    cell: { module: __filename, export: 'measyCell' },
    grid: measyAblationGrids(scale),
    fixed: { machineSize: g.machine, batches: g.batches, workloadSeed: g.seed },
  });
}

export const ablationPaperSweep = makeAblationSweep('paper');
export const ablationQuickSweep = makeAblationSweep('quick');

/** An ablation record: the cell's record with the switches it ran under (defaults filled in). */
export type MeasyAblationRecord = MeasyCellRecord & {
  ablation: MeasyAblation;
  part: MeasyPart;
  estimateModel: MeasyEstimateModel;
  backgroundModel: BackgroundProgressModel;
  reasyReservation: ReasyReservation;
};

/**
 * The ablations, committed as `results/05-measy/05-measy-ablations.jsonl.gz`
 * with `05-measy-ablations.provenance.json`. Not in PAPER_EXPERIMENTS (one
 * per notebook); run with `npx ts-node --transpile-only scripts/measy-ablations.ts`.
 */
export const ablationExperiment: PaperExperiment<MeasyAblationRecord[]> = {
  notebook: NOTEBOOK,
  summary: 'MEASY ablations: estimate models, REASY reservation reading, background-progress formula, load of the migration-cost sweep',
  sweep: (scale) => (scale === 'paper' ? ablationPaperSweep : ablationQuickSweep),
  exports: { paper: 'ablationPaperSweep', quick: 'ablationQuickSweep' },
  timingFields: ['seconds'],
  stratifyBy: 'ablation',
  results: (summary) => {
    const results = nullsToNaN(completeResults<MeasyCellRecord>(summary));
    return summary.records.map((rec, i) => {
      const p = rec.params as unknown as MeasyCellParams & { ablation: MeasyAblation };
      return {
        ...results[i],
        ablation: p.ablation,
        part: p.part,
        estimateModel: p.estimateModel ?? 'tsafrir',
        backgroundModel: p.backgroundModel ?? 'demand',
        reasyReservation: p.reasyReservation ?? 'text',
      };
    });
  },
};
