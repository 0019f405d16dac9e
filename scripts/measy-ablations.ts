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
import { publishPaperResults, runPaperSweep } from '../src/sweep/papers';
import { ablationExperiment } from '../src/sweep/papers/05-measy';
import type { CellFilter } from '../src/sweep/grid';

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

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const scale = (value('--scale') ?? 'paper') as 'quick' | 'paper';
  const workers = value('--workers') === undefined ? undefined : Number(value('--workers'));
  if (args.includes('--no-run')) return publish(scale, args);
  let summary = await runPaperSweep(ablationExperiment, { scale, workers, source: 'run', progress: 'lines', where: scale === 'paper' ? PRIORITY[0] : {} });
  for (const where of scale === 'paper' ? PRIORITY.slice(1) : []) summary = await runPaperSweep(ablationExperiment, { scale, workers, source: 'run', progress: 'lines', where });
  console.log(`${summary.sweep}: ${summary.records.length} cells (${summary.ok} run now, ${summary.skipped} already done, ${summary.failed} failed, ${summary.missing} missing) in ${(summary.elapsedMs / 1000).toFixed(1)} s`);
  if (args.includes('--publish')) publish(scale, args);
}

function publish(scale: 'quick' | 'paper', args: string[]): void {
  const p = publishPaperResults(ablationExperiment, { scale, command: `npx ts-node --transpile-only scripts/measy-ablations.ts ${args.join(' ')}` });
  console.log(`published ${p.ok} of ${p.cells} cells (${p.missing} missing, ${p.failed} failed); cell time ${(p.cellTimeMs / 1000).toFixed(1)} s`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
