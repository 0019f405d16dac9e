/**
 * Notebook 03 (evolving applications) at paper scale: 1000 synthetic tests,
 * each scheduled by rigid and the five Algorithm 1 variants, on the
 * notebook's 75-node cluster and on its 150-node sensitivity cluster.
 *
 * One cell = one (cluster size, test, algorithm): 2 × 1000 × 6 = 12,000 cells.
 */
import { performance } from 'perf_hooks';
import { defineSweep, SweepDefinition } from '../grid';
import { SweepSummary } from '../run';
import {
  EVOLVING_ALGORITHMS,
  EvolvingAppRecord,
  EvolvingExperimentResult,
  EvolvingSystemRecord,
  scheduleByName,
} from '../../schedulers/evolving/experiment';
import { evolvingTestCase } from '../../schedulers/evolving/workload';
import { appMetrics, systemMetrics } from '../../metrics/evolving';
import { completeResults, PaperExperiment, PaperRunOptions, PaperScale, runPaperSweep } from './common';

export const NOTEBOOK = '03-evolving-applications';

/** The grid of each scale; mirrors the notebook's parameter cell. */
export const EVOLVING_PAPER_GRID = {
  paper: { tests: 1000, clusterNodes: [75, 150] },
  quick: { tests: 100, clusterNodes: [75, 150] },
} as const;

/** The notebook's master seed (test i is generated from it with `evolvingTestCase(seed, i)`, as in runEvolvingExperiment). */
export const EVOLVING_SEED = 'evolving-applications';

export interface EvolvingCellParams {
  masterSeed: string;
  clusterNodes: number;
  test: number;
  algorithm: string;
}

export interface EvolvingCellResult {
  system: EvolvingSystemRecord;
  apps: EvolvingAppRecord[];
}

/**
 * One test scheduled by one algorithm: the loop body of the family's
 * `runEvolvingExperiment`, for one (test, algorithm). The sweep's cell seed is
 * not used: the test's applications come from (masterSeed, test) exactly as
 * in the in-process runner, so both give the same numbers (schedulingTime,
 * a wall-clock measurement, aside).
 */
export function evolvingCell(params: EvolvingCellParams): EvolvingCellResult {
  const apps = evolvingTestCase(params.masterSeed, params.test);
  const t0 = performance.now();
  const schedule = scheduleByName(apps, params.clusterNodes, params.algorithm);
  const elapsed = performance.now() - t0;
  return {
    system: { test: params.test, apps: apps.length, ...systemMetrics(schedule, elapsed) },
    apps: appMetrics(schedule).map((m) => ({ test: params.test, ...m })),
  };
}

function makeSweep(scale: PaperScale): SweepDefinition {
  const g = EVOLVING_PAPER_GRID[scale];
  return defineSweep({
    name: scale === 'paper' ? NOTEBOOK : `${NOTEBOOK}-quick`,
    version: 2,
    description: `evolving applications: ${g.tests} tests x ${EVOLVING_ALGORITHMS.length} algorithms on ${g.clusterNodes.join(' and ')} nodes`,
    cell: { module: __filename, export: 'evolvingCell' },
    grid: {
      clusterNodes: [...g.clusterNodes],
      test: Array.from({ length: g.tests }, (_, i) => i),
      algorithm: [...EVOLVING_ALGORITHMS],
    },
    fixed: { masterSeed: EVOLVING_SEED },
  });
}

export const paperSweep = makeSweep('paper');
export const quickSweep = makeSweep('quick');

export const experiment: PaperExperiment = {
  notebook: NOTEBOOK,
  summary: 'evolving applications: 1000 tests x 6 algorithms on 75 and 150 nodes (Tables 1-2, sensitivity)',
  sweep: (scale) => (scale === 'paper' ? paperSweep : quickSweep),
  exports: { paper: 'paperSweep', quick: 'quickSweep' },
  timingFields: ['schedulingTime'],
  stratifyBy: 'algorithm',
};

/** Regroup cell results into one `EvolvingExperimentResult` per cluster size (records in test, algorithm order). */
export function evolvingResultsFrom(summary: SweepSummary): Map<number, EvolvingExperimentResult> {
  const results = completeResults<EvolvingCellResult>(summary);
  const byNodes = new Map<number, EvolvingExperimentResult>();
  summary.records.forEach((rec, i) => {
    const nodes = rec.params.clusterNodes as number;
    let r = byNodes.get(nodes);
    if (!r) byNodes.set(nodes, (r = { clusterNodes: nodes, tests: 0, system: [], apps: [] }));
    r.system.push(results[i].system);
    r.apps.push(...results[i].apps);
    r.tests = Math.max(r.tests, (rec.params.test as number) + 1);
  });
  return byNodes;
}

/**
 * The notebook's experiment through the sweep (runs whatever cells are
 * missing, reads the rest from `results/03-evolving-applications/`).
 * `expect` guards against the notebook and this module drifting apart.
 */
export async function evolvingPaperResults(
  options: PaperRunOptions & { expect?: { tests?: number; clusterNodes?: number[]; seed?: string } } = {},
): Promise<Map<number, EvolvingExperimentResult>> {
  const g = EVOLVING_PAPER_GRID[options.scale ?? 'paper'];
  const e = options.expect ?? {};
  if (e.tests !== undefined && e.tests !== g.tests) throw new Error(`${NOTEBOOK}: the notebook asks for ${e.tests} tests, the sweep has ${g.tests}`);
  for (const n of e.clusterNodes ?? []) {
    if (!(g.clusterNodes as readonly number[]).includes(n)) throw new Error(`${NOTEBOOK}: the sweep has no ${n}-node cluster (it has ${g.clusterNodes.join(', ')})`);
  }
  if (e.seed !== undefined && e.seed !== EVOLVING_SEED) throw new Error(`${NOTEBOOK}: the notebook's seed ${e.seed} differs from the sweep's ${EVOLVING_SEED}`);
  return evolvingResultsFrom(await runPaperSweep(experiment, options));
}
