/**
 * The command line shared by the scripts that run a notebook's side sweep
 * (an ablation or another reading, committed beside the notebook's own
 * results with a provenance of its own): run it through the sweep engine
 * (resumable), then publish it.
 *
 *   [--workers N] [--scale quick|paper] [--publish] [--no-run]
 *   --no-run: publish what a run, perhaps still going, has finished, without running cells
 *
 * `priority` (paper scale): cell filters run one after another, so that an
 * interrupted run has answered the first questions; rerunning resumes.
 */
import { publishPaperResults, runPaperSweep } from '../../src/sweep/papers';
import type { PaperExperiment } from '../../src/sweep/papers/common';
import type { CellFilter } from '../../src/sweep/grid';

export function runSideSweep<T>(experiment: PaperExperiment<T>, script: string, args: string[], options: { priority?: CellFilter[] } = {}): void {
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const scale = (value('--scale') ?? 'paper') as 'quick' | 'paper';
  const workers = value('--workers') === undefined ? undefined : Number(value('--workers'));
  const publish = () => {
    const p = publishPaperResults(experiment, { scale, command: `npx ts-node --transpile-only ${script} ${args.join(' ')}` });
    console.log(`published ${p.ok} of ${p.cells} cells (${p.missing} missing, ${p.failed} failed); cell time ${(p.cellTimeMs / 1000).toFixed(1)} s`);
  };
  const run = async () => {
    if (args.includes('--no-run')) return publish();
    const passes = scale === 'paper' && options.priority ? options.priority : [{}];
    let summary = await runPaperSweep(experiment, { scale, workers, source: 'run', progress: 'lines', where: passes[0] });
    for (const where of passes.slice(1)) summary = await runPaperSweep(experiment, { scale, workers, source: 'run', progress: 'lines', where });
    console.log(`${summary.sweep}: ${summary.records.length} cells (${summary.ok} run now, ${summary.skipped} already done, ${summary.failed} failed, ${summary.missing} missing) in ${(summary.elapsedMs / 1000).toFixed(1)} s`);
    if (args.includes('--publish')) publish();
  };
  run().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
