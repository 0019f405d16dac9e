/**
 * Notebook 04 (advance reservation) at paper scale: the three sweeps of
 * section 6.2 on the Lublin model (10,000 requests, 5 replications) and two
 * of them on the LANL-CM5 log (10,000 consecutive jobs per replication).
 * Five parts, one per table of the notebook:
 *
 *   uMed, arrivalFactor, flexibility             5 values × 5 replications × 7 policies   3 × 175 cells
 *   arrivalFactor-trace, flexibility-trace       5 values × 5 replications × 7 policies   2 × 175 cells
 *                                                                                          875 cells
 *
 * One cell = one (setting, replication, policy): `reservation.reservationCell`.
 * Quick scale runs the same five sweeps with fewer requests and replications.
 */
import { defineSweep, Grid, SweepDefinition } from '../grid';
import { SweepSummary } from '../run';
import { RESERVATION_SWEEPS, ReservationExperiment, ReservationRunRecord } from '../../schedulers/reservation/experiment';
import { RESERVATION_POLICIES } from '../../schedulers/reservation/policies';
import { completeResults, nullsToNaN, orderKeys, PaperExperiment, PaperScale } from './common';

// The cell is the family's; exported here too, so the sweep's cell module stays this file.
export { reservationCell } from '../../schedulers/reservation/experiment';
export type { ReservationCellParams } from '../../schedulers/reservation/experiment';

export const NOTEBOOK = '04-advance-reservation';

/** The notebook's parameters, per scale. */
export const RESERVATION_PAPER_GRID = {
  paper: { seed: 'advance-reservation', jobs: 10000, replications: 5, traceJobs: 10000, traceReplications: 5 },
  // Quick: every policy, value and figure, small enough for the test suite's two quick executions of this page
  // (350 cells and the ablation's 280, about 25 CPU s together); two replications still give a CI.
  quick: { seed: 'advance-reservation', jobs: 1500, replications: 2, traceJobs: 1000, traceReplications: 2 },
};

export type ReservationPart = 'uMed' | 'arrivalFactor' | 'flexibility' | 'arrivalFactor-trace' | 'flexibility-trace';
export const RESERVATION_PARTS: readonly ReservationPart[] = ['uMed', 'arrivalFactor', 'flexibility', 'arrivalFactor-trace', 'flexibility-trace'];

export function reservationGrids(scale: PaperScale): Grid[] {
  const g = RESERVATION_PAPER_GRID[scale];
  const grid = (experiment: ReservationExperiment, trace: boolean): Grid => ({
    experiment: [experiment],
    source: [trace ? 'LANL-CM5' : 'lublin'],
    jobs: [trace ? g.traceJobs : g.jobs],
    x: [...RESERVATION_SWEEPS[experiment]],
    rep: Array.from({ length: trace ? g.traceReplications : g.replications }, (_, i) => i),
    policy: [...RESERVATION_POLICIES],
  });
  return [grid('uMed', false), grid('arrivalFactor', false), grid('flexibility', false), grid('arrivalFactor', true), grid('flexibility', true)];
}

function makeSweep(scale: PaperScale): SweepDefinition {
  return defineSweep({
    name: scale === 'paper' ? NOTEBOOK : `${NOTEBOOK}-quick`,
    version: 1,
    description: 'advance reservation: 7 policies over the uMed, arrival-factor and flexibility sweeps (Lublin model and LANL-CM5 log)',
    cell: { module: __filename, export: 'reservationCell' },
    grid: reservationGrids(scale),
    fixed: { seed: RESERVATION_PAPER_GRID[scale].seed },
  });
}

export const paperSweep = makeSweep('paper');
export const quickSweep = makeSweep('quick');

const RECORD_KEYS = ['experiment', 'x', 'policy', 'replication', 'source', 'requests', 'accepted', 'acceptanceRate', 'averageSlowdown', 'utilization'];

/** The records of each part, in (value, replication, policy) order. */
export function reservationResultsFrom(summary: SweepSummary): Record<ReservationPart, ReservationRunRecord[]> {
  const results = orderKeys(nullsToNaN(completeResults<ReservationRunRecord>(summary)), RECORD_KEYS);
  const out = Object.fromEntries(RESERVATION_PARTS.map((p) => [p, [] as ReservationRunRecord[]])) as Record<ReservationPart, ReservationRunRecord[]>;
  summary.records.forEach((rec, i) => {
    const part = `${rec.params.experiment}${rec.params.source === 'lublin' ? '' : '-trace'}` as ReservationPart;
    out[part].push(results[i]);
  });
  return out;
}

export const experiment: PaperExperiment<Record<ReservationPart, ReservationRunRecord[]>> = {
  notebook: NOTEBOOK,
  summary: 'advance reservation: 7 policies x 5 values x 5 replications, 3 model sweeps + 2 LANL-CM5 log sweeps',
  sweep: (scale) => (scale === 'paper' ? paperSweep : quickSweep),
  exports: { paper: 'paperSweep', quick: 'quickSweep' },
  stratifyBy: 'policy',
  results: reservationResultsFrom,
};

/** The two switches of the ablation (ReservationRules), one at a time; the defaults are the committed sweep. */
export const RESERVATION_VARIANTS = {
  'last-slot': { openRectangleEnd: 'last-slot', peSelection: 'lowest' },
  'random-pes': { openRectangleEnd: 'infinity', peSelection: 'random' },
} as const;
export type ReservationVariant = keyof typeof RESERVATION_VARIANTS;

/** A run record with the variant that produced it. */
export type ReservationAblationRecord = ReservationRunRecord & { variant: ReservationVariant };

/**
 * The two model sweeps the contradicted statements are about (UMed, Figure 2:
 * the likeness of the policies; flexibility: the instability at {4, 4}) under
 * each switch; the arrival-factor and log sweeps are left out.
 */
function makeAblationSweep(scale: PaperScale): SweepDefinition {
  const [uMed, , flexibility] = reservationGrids(scale);
  const grids = [uMed, flexibility].flatMap((g) =>
    Object.values(RESERVATION_VARIANTS).map((v) => ({ ...g, openRectangleEnd: [v.openRectangleEnd], peSelection: [v.peSelection] })),
  );
  return defineSweep({
    name: scale === 'paper' ? `${NOTEBOOK}-ablation` : `${NOTEBOOK}-ablation-quick`,
    version: 1,
    description: "advance reservation: the notebook's UMed and flexibility model sweeps with an open rectangle ending at the last slot, and with random PEs",
    cell: { module: __filename, export: 'reservationCell' },
    grid: grids,
    fixed: { seed: RESERVATION_PAPER_GRID[scale].seed },
  });
}

export const ablationPaperSweep = makeAblationSweep('paper');
export const ablationQuickSweep = makeAblationSweep('quick');

/** The ablation's records (in sweep order), each with its variant. */
export function reservationAblationFrom(summary: SweepSummary): ReservationAblationRecord[] {
  const results = orderKeys(nullsToNaN(completeResults<ReservationRunRecord>(summary)), RECORD_KEYS);
  const variants = Object.keys(RESERVATION_VARIANTS) as ReservationVariant[];
  return summary.records.map((rec, i) => {
    const p = rec.params;
    const variant = variants.find((v) => RESERVATION_VARIANTS[v].openRectangleEnd === p.openRectangleEnd && RESERVATION_VARIANTS[v].peSelection === p.peSelection);
    if (!variant) throw new RangeError(`${NOTEBOOK} ablation: cell ${rec.key} has no known variant`);
    return { ...results[i], variant };
  });
}

/**
 * The ablation of the two unstated choices, committed as
 * `results/04-advance-reservation/04-advance-reservation-ablation.jsonl.gz` with its
 * `.provenance.json`. Not in PAPER_EXPERIMENTS (one per notebook); run with
 * `npx ts-node --transpile-only scripts/reservation-ablation.ts`.
 */
export const ablationExperiment: PaperExperiment<ReservationAblationRecord[]> = {
  notebook: NOTEBOOK,
  summary: 'advance reservation: the UMed and flexibility model sweeps with each of the two switches (open-rectangle end, PE selection)',
  sweep: (scale) => (scale === 'paper' ? ablationPaperSweep : ablationQuickSweep),
  exports: { paper: 'ablationPaperSweep', quick: 'ablationQuickSweep' },
  stratifyBy: 'policy',
  results: reservationAblationFrom,
};
