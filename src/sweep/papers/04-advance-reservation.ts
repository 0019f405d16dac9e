/**
 * Notebook 04 (advance reservation) at paper scale: the three sweeps of
 * section 6.2 on the Lublin model (10,000 requests, 5 replications) and two
 * of them on the LANL-CM5 log (10,000 consecutive jobs per replication).
 * Five parts, one per `runSweep` call of the notebook:
 *
 *   uMed, arrivalFactor, flexibility             5 values × 5 replications × 7 policies   3 × 175 cells
 *   arrivalFactor-trace, flexibility-trace       5 values × 5 replications × 7 policies   2 × 175 cells
 *                                                                                          875 cells
 *
 * One cell = one (setting, replication, policy): the loop body of
 * `reservation.runReservationExperiment`, with the same requests
 * (`reservationRequestsFor`) and metrics, so records equal the in-process run's.
 */
import { defineSweep, Grid, SweepDefinition } from '../grid';
import { SweepSummary } from '../run';
import {
  RESERVATION_SWEEPS,
  ReservationExperiment,
  ReservationExperimentOptions,
  ReservationRunRecord,
  reservationRequestsFor,
  reservationSetting,
} from '../../schedulers/reservation/experiment';
import { RESERVATION_POLICIES, ReservationPolicy } from '../../schedulers/reservation/policies';
import { ReservationRequest, simulateReservations } from '../../schedulers/reservation/simulate';
import { calibrateRuntimeClasses, LANL_CM5_PES, RuntimeClassMap, runtimeClassShares } from '../../schedulers/reservation/workload';
import { reservationMetrics } from '../../metrics/reservation';
import { loadTraceSync } from '../../workloads/traces';
import { WorkloadJob } from '../../workloads/job';
import { checkExpected, completeResults, nullsToNaN, orderKeys, PaperExperiment, PaperRunOptions, PaperScale, runPaperSweep } from './common';

export const NOTEBOOK = '04-advance-reservation';

/** The notebook's parameter cell, per scale. */
export const RESERVATION_PAPER_GRID = {
  paper: { seed: 'advance-reservation', jobs: 10000, replications: 5, traceJobs: 10000, traceReplications: 5 },
  quick: { seed: 'advance-reservation', jobs: 3000, replications: 3, traceJobs: 2000, traceReplications: 3 },
};

export type ReservationPart = 'uMed' | 'arrivalFactor' | 'flexibility' | 'arrivalFactor-trace' | 'flexibility-trace';
export const RESERVATION_PARTS: readonly ReservationPart[] = ['uMed', 'arrivalFactor', 'flexibility', 'arrivalFactor-trace', 'flexibility-trace'];

export interface ReservationCellParams {
  experiment: ReservationExperiment;
  source: 'lublin' | 'LANL-CM5';
  x: number;
  /** Replication index (named `rep`: `replication` is the sweep engine's own dimension). */
  rep: number;
  policy: ReservationPolicy;
  jobs: number;
  seed: string;
}

/** The LANL-CM5 log and the run-time class map the notebook calibrates from it (once per worker). */
let lanlCache: { jobs: WorkloadJob[]; classMap: RuntimeClassMap } | undefined;
function lanl(): { jobs: WorkloadJob[]; classMap: RuntimeClassMap } {
  if (!lanlCache) {
    const jobs = loadTraceSync('LANL-CM5').jobs;
    lanlCache = { jobs, classMap: calibrateRuntimeClasses({ shares: runtimeClassShares(jobs), uMed: 7 }) };
  }
  return lanlCache;
}

/** The requests of the last (setting, replication): the seven policies of one replication share them. */
let requestsCache: { key: string; requests: ReservationRequest[] } | undefined;

/** Cell adapter: one policy on the requests of one (setting, replication). */
export function reservationCell(p: ReservationCellParams): ReservationRunRecord {
  const { jobs: trace, classMap } = lanl();
  const options: ReservationExperimentOptions = {
    experiment: p.experiment,
    jobs: p.jobs,
    replications: p.rep + 1,
    seed: p.seed,
    classMap,
    source: p.source === 'lublin' ? 'lublin' : trace,
  };
  const key = JSON.stringify([p.experiment, p.source, p.x, p.rep, p.jobs, p.seed]);
  if (requestsCache?.key !== key) requestsCache = { key, requests: reservationRequestsFor(reservationSetting(p.experiment, p.x), p.rep, options) };
  const m = reservationMetrics(simulateReservations(requestsCache.requests, { machineSize: LANL_CM5_PES, policy: p.policy }), LANL_CM5_PES);
  return {
    experiment: p.experiment,
    x: p.x,
    policy: p.policy,
    replication: p.rep,
    source: p.source === 'lublin' ? 'Lublin (LANL-CM5 parameters)' : 'LANL-CM5 trace',
    requests: m.requests,
    accepted: m.accepted,
    acceptanceRate: 100 * m.acceptanceRate,
    averageSlowdown: m.averageSlowdown,
    utilization: 100 * m.utilization,
  };
}

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

export const experiment: PaperExperiment = {
  notebook: NOTEBOOK,
  summary: 'advance reservation: 7 policies x 5 values x 5 replications, 3 model sweeps + 2 LANL-CM5 log sweeps',
  sweep: (scale) => (scale === 'paper' ? paperSweep : quickSweep),
  exports: { paper: 'paperSweep', quick: 'quickSweep' },
  stratifyBy: 'policy',
};

const RECORD_KEYS = ['experiment', 'x', 'policy', 'replication', 'source', 'requests', 'accepted', 'acceptanceRate', 'averageSlowdown', 'utilization'];

/** The records of each part, in `runReservationExperiment` order (value, replication, policy). */
export function reservationResultsFrom(summary: SweepSummary): Record<ReservationPart, ReservationRunRecord[]> {
  const results = orderKeys(nullsToNaN(completeResults<ReservationRunRecord>(summary)), RECORD_KEYS);
  const out = Object.fromEntries(RESERVATION_PARTS.map((p) => [p, [] as ReservationRunRecord[]])) as Record<ReservationPart, ReservationRunRecord[]>;
  summary.records.forEach((rec, i) => {
    const part = `${rec.params.experiment}${rec.params.source === 'lublin' ? '' : '-trace'}` as ReservationPart;
    out[part].push(results[i]);
  });
  return out;
}

/**
 * The notebook's five sweeps through the sweep engine (reads
 * `results/04-advance-reservation/`, runs missing cells). `expect` holds the
 * notebook's parameters.
 */
export async function reservationPaperResults(
  options: PaperRunOptions & { expect?: Partial<(typeof RESERVATION_PAPER_GRID)['paper']> } = {},
): Promise<Record<ReservationPart, ReservationRunRecord[]>> {
  checkExpected(NOTEBOOK, options.expect, RESERVATION_PAPER_GRID[options.scale ?? 'paper']);
  return reservationResultsFrom(await runPaperSweep(experiment, options));
}
