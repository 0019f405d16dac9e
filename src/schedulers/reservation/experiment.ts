/**
 * The three experiments of Li et al. section 6.2: the sweep cell (one record
 * per setting, policy and replication) and the summaries of its records:
 *
 *  - 'uMed'          job size/duration: UMed 5 … 9, arrival factor 1, {artime, deadline} = {3, 3}
 *  - 'arrivalFactor' system load: 0.5 … 1.5, UMed 7, {3, 3}
 *  - 'flexibility'   {artime, deadline} factor pairs {1,1} … {5,5}, UMed 7, arrival factor 1
 *
 * Every policy sees the same requests in a replication, and (for the Lublin
 * source) the same underlying jobs at every setting of a sweep, so the
 * comparison between policies and settings uses common random numbers.
 */
import { Seed } from '../../util/random';
import { WorkloadJob } from '../../workloads/job';
import { confidenceInterval95, reservationMetrics } from '../../metrics/reservation';
import { summarize } from '../../analysis/summarize';
import { loadTraceSync } from '../../workloads/traces';
import { RESERVATION_POLICIES, ReservationPolicy, checkReservationPolicy } from './policies';
import { ReservationRequest, simulateReservations } from './simulate';
import { ReservationRules } from './availability';
import { LANL_CM5_PES, RuntimeClassMap, calibrateRuntimeClasses, lublinReservationRequests, runtimeClassShares, traceReservationRequests } from './workload';

/** Which parameter an advance-reservation experiment varies: mean duration, arrival factor or flexibility. */
export type ReservationExperiment = 'uMed' | 'arrivalFactor' | 'flexibility';

/** Sweep values of the paper. */
export const RESERVATION_SWEEPS: Readonly<Record<ReservationExperiment, readonly number[]>> = Object.freeze({
  uMed: [5, 6, 7, 8, 9],
  arrivalFactor: [0.5, 0.75, 1, 1.25, 1.5],
  flexibility: [1, 2, 3, 4, 5],
});

/** One setting of the workload parameters. */
export interface ReservationSetting {
  uMed: number;
  arrivalFactor: number;
  artimeFactor: number;
  deadlineFactor: number;
}

/** Defaults of section 6.2: UMed 7, arrival factor 1, {artime, deadline} = {3, 3}. */
export const RESERVATION_DEFAULTS: Readonly<ReservationSetting> = Object.freeze({ uMed: 7, arrivalFactor: 1, artimeFactor: 3, deadlineFactor: 3 });

/** The setting of `experiment` at sweep value x. */
export function reservationSetting(experiment: ReservationExperiment, x: number): ReservationSetting {
  switch (experiment) {
    case 'uMed':
      return { ...RESERVATION_DEFAULTS, uMed: x };
    case 'arrivalFactor':
      return { ...RESERVATION_DEFAULTS, arrivalFactor: x };
    case 'flexibility':
      return { ...RESERVATION_DEFAULTS, artimeFactor: x, deadlineFactor: x };
    default:
      throw new RangeError(`unknown reservation experiment '${String(experiment)}'; expected uMed, arrivalFactor or flexibility`);
  }
}

/** One (setting, policy, replication) result (a type alias so it is a plain table row). */
export type ReservationRunRecord = {
  experiment: ReservationExperiment;
  x: number;
  policy: ReservationPolicy;
  replication: number;
  source: string;
  requests: number;
  accepted: number;
  /** Percent of requests accepted. */
  acceptanceRate: number;
  averageSlowdown: number;
  /** Percent. */
  utilization: number;
};

/** Where the requests of a run come from. */
export interface ReservationSource {
  /** Requests per run (the paper: 10,000). */
  jobs: number;
  seed: Seed;
  /** 'lublin' (default) or the jobs of a trace (LANL-CM5): replication r uses trace jobs [r·jobs, (r+1)·jobs). */
  source?: 'lublin' | readonly WorkloadJob[];
  /** Run-time class map for the Lublin source (see calibrateRuntimeClasses). */
  classMap?: RuntimeClassMap;
}

/** The requests of one replication at one setting. */
export function reservationRequestsFor(setting: ReservationSetting, replication: number, options: ReservationSource): ReservationRequest[] {
  const seed = `${String(options.seed)}/rep${replication}`;
  const source = options.source ?? 'lublin';
  if (source === 'lublin') {
    return lublinReservationRequests({ jobs: options.jobs, seed, classMap: options.classMap, ...setting });
  }
  const offset = replication * options.jobs;
  if (offset + options.jobs > source.length) {
    throw new RangeError(`trace source: replication ${replication} needs jobs up to ${offset + options.jobs}, the trace has ${source.length}`);
  }
  return traceReservationRequests(source, { seed, offset, jobs: options.jobs, ...setting });
}

/** One run of section 6.2: a policy on the requests of one (setting, replication). */
export interface ReservationCellParams {
  experiment: ReservationExperiment;
  source: 'lublin' | 'LANL-CM5';
  x: number;
  /** Replication index (named `rep`: `replication` is the sweep engine's own dimension). */
  rep: number;
  policy: ReservationPolicy;
  jobs: number;
  seed: string;
  /** Ablation switches (see ReservationRules); absent = the defaults. */
  openRectangleEnd?: ReservationRules['openRectangleEnd'];
  peSelection?: ReservationRules['peSelection'];
}

/** The LANL-CM5 log and the run-time class map calibrated from it (UMed 7), loaded once per thread. */
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

/**
 * The sweep cell of section 6.2: one policy on the requests of one (setting,
 * replication), on the LANL-CM5 machine. Every policy of a replication sees
 * the same requests, and (Lublin source) every setting the same underlying jobs.
 */
export function reservationCell(p: ReservationCellParams): ReservationRunRecord {
  if (p.experiment === 'uMed' && p.source !== 'lublin') throw new RangeError('the uMed experiment needs the Lublin source: a trace has fixed job sizes');
  const { jobs: trace, classMap } = lanl();
  const key = JSON.stringify([p.experiment, p.source, p.x, p.rep, p.jobs, p.seed]);
  if (requestsCache?.key !== key) {
    const source: ReservationSource = { jobs: p.jobs, seed: p.seed, classMap, source: p.source === 'lublin' ? 'lublin' : trace };
    requestsCache = { key, requests: reservationRequestsFor(reservationSetting(p.experiment, p.x), p.rep, source) };
  }
  // Random PE draws are seeded per (setting, replication): every policy of a replication draws from the same stream.
  const rules: ReservationRules = { openRectangleEnd: p.openRectangleEnd, peSelection: p.peSelection, peSeed: `${key}/pes` };
  const m = reservationMetrics(simulateReservations(requestsCache.requests, { machineSize: LANL_CM5_PES, policy: p.policy, ...rules }), LANL_CM5_PES);
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

/** Mean and 95% CI half-width per (experiment, x, policy) of acceptance rate, slowdown and utilization. */
export type ReservationSummaryRow = {
  experiment: ReservationExperiment;
  x: number;
  policy: ReservationPolicy;
  replications: number;
  acceptanceRate: number;
  acceptanceRateCi95: number;
  averageSlowdown: number;
  averageSlowdownCi95: number;
  utilization: number;
  utilizationCi95: number;
};

/**
 * Mean acceptance rate, slowdown and utilization per policy and parameter value
 * over replicated runs: the grouped summary of each metric (a run with no
 * finite slowdown is left out of the slowdown; a non-finite utilization counts as 0).
 */
export function summarizeReservationRuns(records: readonly ReservationRunRecord[]): ReservationSummaryRow[] {
  if (records.length === 0) return [];
  const by = ['experiment', 'x', 'policy'];
  const key = (r: Record<string, unknown>) => `${r.experiment}|${r.x}|${r.policy}`;
  const acc = summarize(records, { by, value: 'acceptanceRate' });
  const finiteSd = records.filter((r) => Number.isFinite(r.averageSlowdown));
  const sd = new Map((finiteSd.length > 0 ? summarize(finiteSd, { by, value: 'averageSlowdown' }) : []).map((g) => [key(g), g]));
  const util = new Map(summarize(records.map((r) => ({ ...r, utilization: Number.isFinite(r.utilization) ? r.utilization : 0 })), { by, value: 'utilization' }).map((g) => [key(g), g]));
  return acc.map((a) => {
    const s = sd.get(key(a));
    const u = util.get(key(a))!;
    return {
      experiment: a.experiment as ReservationExperiment,
      x: a.x as number,
      policy: a.policy as ReservationPolicy,
      replications: a.n,
      acceptanceRate: a.mean,
      acceptanceRateCi95: a.ci95,
      averageSlowdown: s?.mean ?? NaN,
      averageSlowdownCi95: s?.ci95 ?? NaN,
      utilization: u.mean,
      utilizationCi95: u.ci95,
    };
  });
}

/** Mean paired difference policy − baseline per (experiment, x, policy), with its 95% CI. */
export type ReservationDifferenceRow = {
  experiment: ReservationExperiment;
  x: number;
  policy: ReservationPolicy;
  baseline: ReservationPolicy;
  metric: 'acceptanceRate' | 'averageSlowdown' | 'utilization';
  replications: number;
  difference: number;
  differenceCi95: number;
};

/**
 * Paired differences against a baseline policy: within a replication every
 * policy saw the same requests, so the difference per replication removes
 * the workload-to-workload variation that dominates the plain CIs.
 */
export function pairedReservationDifferences(
  records: readonly ReservationRunRecord[],
  options: { baseline?: ReservationPolicy; metric?: 'acceptanceRate' | 'averageSlowdown' | 'utilization' } = {},
): ReservationDifferenceRow[] {
  const baseline = checkReservationPolicy(options.baseline ?? 'FF');
  const metric = options.metric ?? 'acceptanceRate';
  const base = new Map<string, number>();
  for (const r of records) if (r.policy === baseline) base.set(`${r.experiment}|${r.x}|${r.replication}`, r[metric]);
  const groups = new Map<string, { r: ReservationRunRecord; diffs: number[] }>();
  for (const r of records) {
    if (r.policy === baseline) continue;
    const b = base.get(`${r.experiment}|${r.x}|${r.replication}`);
    if (b === undefined) throw new RangeError(`pairedReservationDifferences: no ${baseline} run for ${r.experiment} = ${r.x}, replication ${r.replication}`);
    const key = `${r.experiment}|${r.x}|${r.policy}`;
    const g = groups.get(key) ?? { r, diffs: [] };
    g.diffs.push(r[metric] - b);
    groups.set(key, g);
  }
  return [...groups.values()].map(({ r, diffs }) => {
    const ci = confidenceInterval95(diffs);
    return { experiment: r.experiment, x: r.x, policy: r.policy, baseline, metric, replications: diffs.length, difference: ci.mean, differenceCi95: ci.halfWidth };
  });
}

/** One pair of policies and how alike they are over a set of settings. */
export type PolicyPairLikeness = { pair: string; a: ReservationPolicy; b: ReservationPolicy; meanAbsDiff: number; rank: number };

/**
 * Every pair of the seven policies ranked by likeness: the mean absolute
 * difference of their means of `metric` over the (experiment, x) settings of
 * `rows` (rank 1 = the most alike pair), as the paper's "behave almost
 * identically" is read off its figures.
 */
export function policyPairLikeness(rows: readonly ReservationSummaryRow[], metric: 'acceptanceRate' | 'averageSlowdown' | 'utilization' = 'acceptanceRate'): PolicyPairLikeness[] {
  const settings = new Map<string, Map<string, number>>();
  for (const r of rows) {
    const k = `${r.experiment}|${r.x}`;
    if (!settings.has(k)) settings.set(k, new Map());
    settings.get(k)!.set(r.policy, r[metric]);
  }
  const policies = RESERVATION_POLICIES.filter((p) => [...settings.values()].every((s) => s.has(p)));
  const pairs: Omit<PolicyPairLikeness, 'rank'>[] = [];
  for (let i = 0; i < policies.length; i++) {
    for (let j = i + 1; j < policies.length; j++) {
      const d = [...settings.values()].map((s) => Math.abs(s.get(policies[i])! - s.get(policies[j])!));
      pairs.push({ pair: `${policies[i]} & ${policies[j]}`, a: policies[i], b: policies[j], meanAbsDiff: d.reduce((x, y) => x + y, 0) / d.length });
    }
  }
  return pairs.sort((x, y) => x.meanAbsDiff - y.meanAbsDiff).map((p, i) => ({ ...p, rank: i + 1 }));
}
