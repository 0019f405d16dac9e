/**
 * Notebook 02's ablation: instances whose CPU needs and memory are clipped to
 * [0, 1] instead of redrawn (small set: every algorithm and the exact search;
 * large set: MCB1-8 and SG), and RRND/RRNZ under rounding variants (RRNZ's ε,
 * a stream shared with RRND) on two optimal vertices of the relaxation (HiGHS
 * dual simplex, ours; interior point with crossover), through the sweep engine
 * (resumable), then published as
 * results/02-virtual-clusters/02-virtual-clusters-ablation.jsonl.gz with
 * 02-virtual-clusters-ablation.provenance.json.
 *
 * Run: npx ts-node --transpile-only scripts/vcsched-ablation.ts [--workers N] [--scale quick|paper] [--publish]
 */
import { ablationExperiment } from '../src/sweep/papers/02-virtual-clusters';
import { runSideSweep } from './lib/side-sweep';

runSideSweep(ablationExperiment, 'scripts/vcsched-ablation.ts', process.argv.slice(2));
