/**
 * Metrics of advance-reservation admission (Li et al., section 6.1):
 * acceptance rate, average slowdown of accepted jobs, utilization, and 95%
 * confidence intervals over seeded replications.
 */
import { InputError } from '../util/errors';
import { mean, sampleStandardDeviation } from 'simple-statistics';
import { tCritical } from '../analysis/summarize';

/** The fields these metrics read from a reservation outcome. */
export interface ReservationOutcomeLike {
  id: number;
  arrival: number;
  ready: number;
  duration: number;
  pes: number;
  accepted: boolean;
  start?: number;
  end?: number;
}

/** Fraction (0–1) of requests accepted. NaN for no requests. */
export function acceptanceRate(outcomes: readonly ReservationOutcomeLike[]): number {
  if (outcomes.length === 0) return NaN;
  let a = 0;
  for (const o of outcomes) if (o.accepted) a++;
  return a / outcomes.length;
}

/** Slowdown of one accepted job: (start − ready + duration) / duration. */
export function reservationSlowdown(o: ReservationOutcomeLike): number {
  if (!o.accepted || o.start === undefined) throw new InputError(`reservationSlowdown: job ${o.id} was not accepted`, { source: 'reservationSlowdown', field: 'accepted' });
  return (o.start - o.ready + o.duration) / o.duration;
}

/** Mean slowdown of the accepted jobs (the waiting time counts from the ready time). NaN when none was accepted. */
export function averageSlowdown(outcomes: readonly ReservationOutcomeLike[]): number {
  let sum = 0;
  let n = 0;
  for (const o of outcomes) {
    if (!o.accepted) continue;
    sum += reservationSlowdown(o);
    n++;
  }
  return n === 0 ? NaN : sum / n;
}

/**
 * Utilization: reserved PE-seconds of accepted jobs divided by
 * machineSize × (last reservation end − first arrival). NaN when nothing was accepted.
 */
export function reservationUtilization(outcomes: readonly ReservationOutcomeLike[], machineSize: number): number {
  if (!(machineSize > 0)) throw new InputError(`reservationUtilization: machineSize must be > 0, got ${machineSize}`, { source: 'reservationUtilization', field: 'machineSize' });
  let work = 0;
  let first = Infinity;
  let last = -Infinity;
  for (const o of outcomes) {
    first = Math.min(first, o.arrival);
    if (!o.accepted || o.end === undefined) continue;
    work += o.pes * o.duration;
    last = Math.max(last, o.end);
  }
  if (!(last > first)) return NaN;
  return work / (machineSize * (last - first));
}

/** All three metrics of one run. */
export interface ReservationMetrics {
  requests: number;
  accepted: number;
  acceptanceRate: number;
  averageSlowdown: number;
  utilization: number;
}

/** Acceptance rate, mean slowdown and utilization of an advance-reservation run on `machineSize` processors. */
export function reservationMetrics(outcomes: readonly ReservationOutcomeLike[], machineSize: number): ReservationMetrics {
  return {
    requests: outcomes.length,
    accepted: outcomes.filter((o) => o.accepted).length,
    acceptanceRate: acceptanceRate(outcomes),
    averageSlowdown: averageSlowdown(outcomes),
    utilization: reservationUtilization(outcomes, machineSize),
  };
}

/** A mean with its 95% confidence interval (Student t over replications). */
export interface ConfidenceInterval {
  n: number;
  mean: number;
  /** Half-width of the interval (0 for a single replication). */
  halfWidth: number;
  low: number;
  high: number;
}

/**
 * 95% confidence interval of the mean of independent replications
 * (sample standard deviation, Student t with n − 1 degrees of freedom).
 */
export function confidenceInterval95(values: readonly number[]): ConfidenceInterval {
  if (values.length === 0) throw new InputError('confidenceInterval95: no values', { source: 'confidenceInterval95', field: 'values' });
  if (values.some((v) => !Number.isFinite(v))) throw new InputError(`confidenceInterval95: non-finite value in ${values.join(', ')}`, { source: 'confidenceInterval95', field: 'values' });
  const m = mean(values as number[]);
  const hw = values.length < 2 ? 0 : (tCritical(values.length - 1) * sampleStandardDeviation(values as number[])) / Math.sqrt(values.length);
  return { n: values.length, mean: m, halfWidth: hw, low: m - hw, high: m + hw };
}
