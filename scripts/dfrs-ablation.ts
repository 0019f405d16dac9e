/**
 * Issue 25's ablations of notebook 01, each a sweep of its own (resumable)
 * published as results/01-dfrs-vs-batch/<sweep>.jsonl.gz with its
 * <sweep>.provenance.json:
 *
 *   hpc2n   jobs crossing a week end and the task count on dual-core nodes, as switches,
 *           on 12 HPC2N weeks spread over the 182 (hpc2nAblationExperiment)
 *
 * Run: npx ts-node --transpile-only scripts/dfrs-ablation.ts hpc2n [--workers N] [--scale quick|paper] [--publish]
 */
import { publishPaperResults, runPaperSweep } from '../src/sweep/papers';
import { hpc2nAblationExperiment } from '../src/sweep/papers/01-dfrs-vs-batch';
import type { PaperExperiment } from '../src/sweep/papers/common';

const ABLATIONS: Record<string, PaperExperiment<unknown>> = { hpc2n: hpc2nAblationExperiment as PaperExperiment<unknown> };

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const experiment = ABLATIONS[args[0]];
  if (!experiment) throw new Error(`usage: scripts/dfrs-ablation.ts ${Object.keys(ABLATIONS).join('|')} [--workers N] [--scale quick|paper] [--publish]`);
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const scale = (value('--scale') ?? 'paper') as 'quick' | 'paper';
  const workers = value('--workers') === undefined ? undefined : Number(value('--workers'));
  const summary = await runPaperSweep(experiment, { scale, workers, source: 'run', progress: 'lines' });
  console.log(`${summary.sweep}: ${summary.records.length} cells (${summary.ok} run now, ${summary.skipped} already done, ${summary.failed} failed, ${summary.missing} missing) in ${(summary.elapsedMs / 1000).toFixed(1)} s`);
  if (args.includes('--publish')) {
    const p = publishPaperResults(experiment, { scale, command: `npx ts-node --transpile-only scripts/dfrs-ablation.ts ${args.join(' ')}` });
    console.log(`published ${p.ok} of ${p.cells} cells (${p.missing} missing, ${p.failed} failed); cell time ${(p.cellTimeMs / 1000).toFixed(1)} s`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
