/**
 * The paper notebooks' experiments, one module per notebook: each defines the
 * notebook's grid at quick and paper scale from its family's cell function,
 * and how the records regroup for the notebook, which reads them with
 * `records(experiment, scale)` (see ./common.ts).
 *
 * Command line: `schedlab paper <notebook> [--workers n] [--shard i/n] [--scale quick|paper] [--slurm N]`.
 */
import { PaperExperiment } from './common';
import * as batchBaselines from './00-batch-baselines';
import * as dfrsVsBatch from './01-dfrs-vs-batch';
import * as virtualClusters from './02-virtual-clusters';
import * as evolvingApplications from './03-evolving-applications';
import * as advanceReservation from './04-advance-reservation';
import * as measy from './05-measy';

export * from './common';
export * from './committed';
export { batchBaselines, dfrsVsBatch, virtualClusters, evolvingApplications, advanceReservation, measy };

/** Every notebook with a paper-scale sweep, in notebook order. */
export const PAPER_EXPERIMENTS: readonly PaperExperiment[] = [batchBaselines.experiment, dfrsVsBatch.experiment, virtualClusters.experiment, evolvingApplications.experiment, advanceReservation.experiment, measy.experiment];

/**
 * The experiment of a notebook, by full name (`03-evolving-applications`),
 * with or without `.ipynb` or a folder, or by a unique prefix (`03`).
 */
export function findPaperExperiment(name: string): PaperExperiment {
  const base = name.replace(/^.*[\\/]/, '').replace(/\.ipynb$/, '');
  const exact = PAPER_EXPERIMENTS.find((e) => e.notebook === base);
  if (exact) return exact;
  const prefixed = base === '' ? [] : PAPER_EXPERIMENTS.filter((e) => e.notebook.startsWith(base));
  if (prefixed.length === 1) return prefixed[0];
  const known = PAPER_EXPERIMENTS.map((e) => e.notebook).join(', ');
  throw new Error(
    prefixed.length > 1
      ? `notebook name ${JSON.stringify(name)} is ambiguous: it matches ${prefixed.map((e) => e.notebook).join(', ')}`
      : `no paper-scale experiment for notebook ${JSON.stringify(name)}; known notebooks: ${known}`,
  );
}
