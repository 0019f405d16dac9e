/**
 * Issue 25's ablations of notebook 01, each a sweep of its own (resumable)
 * published as results/01-dfrs-vs-batch/<sweep>.jsonl.gz with its
 * <sweep>.provenance.json:
 *
 *   hpc2n   jobs crossing a week end and the task count on dual-core nodes, as switches,
 *           on 12 HPC2N weeks spread over the 182 (hpc2nAblationExperiment)
 *   maxima  penalty by age, minvt against pauses and the stretch threshold, as switches, on the
 *           synthetic traces holding the minvt=600/MCB8 rows' maxima and a seeded sample over
 *           every load (maximaAblationExperiment; priority passes: worst traces first)
 *
 * Run: npx ts-node --transpile-only scripts/dfrs-ablation.ts hpc2n|maxima [--workers N] [--scale quick|paper] [--publish]
 */
import { hpc2nAblationExperiment, MAXIMA_PICKS, maximaAblationExperiment } from '../src/sweep/papers/01-dfrs-vs-batch';
import type { PaperExperiment } from '../src/sweep/papers/common';
import type { CellFilter } from '../src/sweep/grid';
import { runSideSweep } from './lib/side-sweep';

const ABLATIONS: Record<string, PaperExperiment<unknown>> = {
  hpc2n: hpc2nAblationExperiment as PaperExperiment<unknown>,
  maxima: maximaAblationExperiment as PaperExperiment<unknown>,
};
const PRIORITY: Record<string, CellFilter[]> = { maxima: MAXIMA_PICKS.map((p) => ({ trace_pick: [p] })) };

const args = process.argv.slice(2);
const experiment = ABLATIONS[args[0]];
if (!experiment) {
  console.error(`usage: scripts/dfrs-ablation.ts ${Object.keys(ABLATIONS).join('|')} [--workers N] [--scale quick|paper] [--publish]`);
  process.exit(2);
}
runSideSweep(experiment, 'scripts/dfrs-ablation.ts', args, { priority: PRIORITY[args[0]] });
