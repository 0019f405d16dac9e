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
import { ablationExperiment } from '../src/sweep/papers/04-advance-reservation';
import { runSideSweep } from './lib/side-sweep';

runSideSweep(ablationExperiment, 'scripts/reservation-ablation.ts', process.argv.slice(2));
