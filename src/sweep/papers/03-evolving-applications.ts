/**
 * Notebook 03 (evolving applications) at paper scale: 1000 synthetic tests,
 * each scheduled by rigid and the five Algorithm 1 variants, on the
 * notebook's 75-node cluster and on its 150-node sensitivity cluster.
 *
 * One cell = one (cluster size, test, algorithm): 2 × 1000 × 6 = 12,000 cells.
 */
import { defineSweep, SweepDefinition } from '../grid';
import { SweepSummary } from '../run';
import { EVOLVING_ALGORITHMS, EvolvingCellResult, EvolvingExperimentResult } from '../../schedulers/evolving/experiment';
import { completeResults, PaperExperiment, PaperScale } from './common';

// The cell is the family's; exported here too, so the sweep's cell module stays this file.
export { evolvingCell } from '../../schedulers/evolving/experiment';
export type { EvolvingCellParams, EvolvingCellResult } from '../../schedulers/evolving/experiment';

export const NOTEBOOK = '03-evolving-applications';

/** The notebook's grid, per scale. */
export const EVOLVING_PAPER_GRID = {
  paper: { tests: 1000, clusterNodes: [75, 150] },
  quick: { tests: 100, clusterNodes: [75, 150] },
} as const;

/** The notebook's master seed (test i is generated from it with `evolvingTestCase(seed, i)`). */
export const EVOLVING_SEED = 'evolving-applications';

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

export const experiment: PaperExperiment<Map<number, EvolvingExperimentResult>> = {
  notebook: NOTEBOOK,
  summary: 'evolving applications: 1000 tests x 6 algorithms on 75 and 150 nodes (Tables 1-2, sensitivity)',
  sweep: (scale) => (scale === 'paper' ? paperSweep : quickSweep),
  exports: { paper: 'paperSweep', quick: 'quickSweep' },
  timingFields: ['schedulingTime'],
  stratifyBy: 'algorithm',
  results: (summary) => evolvingResultsFrom(summary),
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
