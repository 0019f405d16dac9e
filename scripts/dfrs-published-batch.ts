/**
 * Notebook 01's batch rows as the DFRS paper's own simulator ran them
 * ('FCFS (as published)', 'EASY (as published)') on Table 2's 1,182 traces,
 * through the sweep engine (resumable), then published as
 * results/01-dfrs-vs-batch/01-dfrs-vs-batch-published-batch.jsonl.gz with
 * 01-dfrs-vs-batch-published-batch.provenance.json. A sweep of its own: Table 2's committed
 * cells and their fingerprint are not touched.
 *
 * Run: npx ts-node --transpile-only scripts/dfrs-published-batch.ts [--workers N] [--scale quick|paper] [--publish]
 */
import { publishedBatchExperiment } from '../src/sweep/papers/01-dfrs-vs-batch';
import { runSideSweep } from './lib/side-sweep';

runSideSweep(publishedBatchExperiment, 'scripts/dfrs-published-batch.ts', process.argv.slice(2));
