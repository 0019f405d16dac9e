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
import { publishPaperResults, runPaperSweep } from '../src/sweep/papers';
import { publishedBatchExperiment } from '../src/sweep/papers/01-dfrs-vs-batch';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const scale = (value('--scale') ?? 'paper') as 'quick' | 'paper';
  const workers = value('--workers') === undefined ? undefined : Number(value('--workers'));
  const summary = await runPaperSweep(publishedBatchExperiment, { scale, workers, source: 'run', progress: 'lines' });
  console.log(`${summary.sweep}: ${summary.records.length} cells (${summary.ok} run now, ${summary.skipped} already done, ${summary.failed} failed, ${summary.missing} missing) in ${(summary.elapsedMs / 1000).toFixed(1)} s`);
  if (args.includes('--publish')) {
    const p = publishPaperResults(publishedBatchExperiment, { scale, command: `npx ts-node --transpile-only scripts/dfrs-published-batch.ts ${args.join(' ')}` });
    console.log(`published ${p.ok} of ${p.cells} cells (${p.missing} missing, ${p.failed} failed); cell time ${(p.cellTimeMs / 1000).toFixed(1)} s`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
