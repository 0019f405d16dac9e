/**
 * Notebook 05's ablations (issue 25 §3): the estimate model, REASY's
 * reservation reading, the background-progress formula and the load of the
 * migration-cost sweep, each on the part of the grid that answers it, through
 * the sweep engine (resumable), then published as
 * results/05-measy/05-measy-ablations.jsonl.gz with
 * 05-measy-ablations.provenance.json. A sweep of its own: the notebook's
 * committed cells and their fingerprint are not touched.
 *
 * The cells run in the order of PRIORITY (the questions the issue ranks
 * first), so that an interrupted run has answered those; rerunning resumes.
 *
 * Run: npx ts-node --transpile-only scripts/measy-ablations.ts [--workers N] [--scale quick|paper] [--publish] [--no-run]
 * (--no-run: publish what a run, perhaps still going, has finished, without running cells)
 */
import { ablationExperiment } from '../src/sweep/papers/05-measy';
import type { CellFilter } from '../src/sweep/grid';
import { runSideSweep } from './lib/side-sweep';

const PRIORITY: CellFilter[] = [
  { ablation: ['reasy'] },
  { ablation: ['estimates'], workload: ['feitelson'], estimateModel: ['ctc-ratio'] },
  { ablation: ['estimates'], workload: ['jann'], estimateModel: ['ctc-ratio'] },
  { ablation: ['costLoad'], load: [0.95] },
  { ablation: ['costEst'] },
  { ablation: ['progress'], workload: ['jann'] },
  { ablation: ['progress'], workload: ['feitelson'] },
  { ablation: ['estimates'], estimateModel: ['exact'] },
  {},
];

runSideSweep(ablationExperiment, 'scripts/measy-ablations.ts', process.argv.slice(2), { priority: PRIORITY });
