/**
 * Notebook 04's ablation of the two choices the paper leaves open (the end of
 * an open availability rectangle; which PEs a job gets): the notebook's UMed
 * and flexibility model sweeps under 'last-slot' and under 'random-pes' (ReservationRules), through
 * the sweep engine (resumable), then published as
 * results/04-advance-reservation/04-advance-reservation-ablation.jsonl.gz with
 * 04-advance-reservation-ablation.provenance.json. A sweep of its own: the
 * committed sweep and its fingerprint are not touched.
 *
 * Run: npx ts-node --transpile-only scripts/reservation-ablation.ts [--workers N] [--scale quick|paper] [--publish]
 */
import { publishPaperResults, runPaperSweep } from '../src/sweep/papers';
import { ablationExperiment } from '../src/sweep/papers/04-advance-reservation';

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
    const p = publishPaperResults(ablationExperiment, { scale, command: `npx ts-node --transpile-only scripts/reservation-ablation.ts ${args.join(' ')}` });
    console.log(`published ${p.ok} of ${p.cells} cells (${p.missing} missing, ${p.failed} failed); cell time ${(p.cellTimeMs / 1000).toFixed(1)} s`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
