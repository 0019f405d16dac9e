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
import { publishPaperResults, runPaperSweep } from '../src/sweep/papers';
import { ablationExperiment } from '../src/sweep/papers/02-virtual-clusters';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const scale = (value('--scale') ?? 'paper') as 'quick' | 'paper';
  const workers = value('--workers') === undefined ? undefined : Number(value('--workers'));
  const summary = await runPaperSweep(ablationExperiment, { scale, workers, source: 'run', progress: 'lines' });
  console.log(`${summary.sweep}: ${summary.records.length} cells (${summary.ok} run now, ${summary.skipped} already done, ${summary.failed} failed, ${summary.missing} missing) in ${(summary.elapsedMs / 1000).toFixed(1)} s`);
  if (args.includes('--publish')) {
    const p = publishPaperResults(ablationExperiment, { scale, command: `npx ts-node --transpile-only scripts/vcsched-ablation.ts ${args.join(' ')}` });
    console.log(`published ${p.ok} of ${p.cells} cells (${p.missing} missing, ${p.failed} failed); cell time ${(p.cellTimeMs / 1000).toFixed(1)} s`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
