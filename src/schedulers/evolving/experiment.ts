/**
 * The experiment of section 5: many seeded synthetic tests, each scheduled by
 * rigid and by the five Algorithm 1 variants (one sweep cell per test and
 * algorithm), with system-centric records per (test, algorithm) and
 * user-centric records per (test, algorithm, app).
 */
import { performance } from 'perf_hooks';
import { EvolvingApp, EvolvingSchedule, EVOLVING_VARIANTS, scheduleVariant } from './list';
import { scheduleRigid } from './rigid';
import { evolvingTestCase } from './workload';
import { appMetrics, systemMetrics, EvolvingAppMetrics, EvolvingSystemMetrics } from '../../metrics/evolving';
import { summarize } from '../../analysis/summarize';

/** rigid followed by the five variants, in the paper's order. */
export const EVOLVING_ALGORITHMS: readonly string[] = ['rigid', ...Object.keys(EVOLVING_VARIANTS)];

/** Schedule a test with one algorithm name (rigid, noX, 2X, 2X+c, infX, infX+c). */
export function scheduleByName(apps: readonly EvolvingApp[], nodes: number, algorithm: string): EvolvingSchedule {
  return algorithm === 'rigid' ? scheduleRigid(apps, nodes) : scheduleVariant(apps, nodes, algorithm);
}

/** A test's system metrics (utilization, makespan) with its parameters. */
export interface EvolvingSystemRecord extends EvolvingSystemMetrics {
  test: number;
  apps: number;
}

/** One application's metrics in an evolving-applications test, with the test's parameters. */
export interface EvolvingAppRecord extends EvolvingAppMetrics {
  test: number;
}

/** Records of every test on one cluster size (the input of Tables 1 and 2). */
export interface EvolvingExperimentResult {
  clusterNodes: number;
  tests: number;
  system: EvolvingSystemRecord[];
  apps: EvolvingAppRecord[];
}

/** One evolving-applications sweep cell: the test options and the scheduling strategy. */
export interface EvolvingCellParams {
  masterSeed: string;
  clusterNodes: number;
  test: number;
  algorithm: string;
}

/** Result of one evolving-applications cell: per-application and system records. */
export interface EvolvingCellResult {
  system: EvolvingSystemRecord;
  apps: EvolvingAppRecord[];
}

/**
 * The sweep cell of section 5: test `test` (generated from the master seed,
 * `evolvingTestCase(masterSeed, test)`) scheduled by one algorithm. Every
 * number is a pure function of the parameters except schedulingTime, a
 * wall-clock measurement.
 */
export function evolvingCell(params: EvolvingCellParams): EvolvingCellResult {
  const apps = evolvingTestCase(params.masterSeed, params.test);
  const t0 = performance.now();
  const schedule = scheduleByName(apps, params.clusterNodes, params.algorithm);
  const elapsed = performance.now() - t0;
  return {
    system: { test: params.test, apps: apps.length, ...systemMetrics(schedule, elapsed) },
    apps: appMetrics(schedule).map((m) => ({ test: params.test, ...m })),
  };
}

type Num = Record<string, unknown>;

/** Table 1's metrics (system-centric, one record per test) and the factor to the table's unit: utilisation (%), makespan (h), waste (node·h), scheduling time (ms). */
export const EVOLVING_SYSTEM_UNITS: Readonly<Record<string, number>> = { resourceUtilization: 100, effectiveUtilization: 100, makespan: 1 / 3600, resourceWaste: 1 / 3600, schedulingTime: 1 };
/** Table 2's metrics (user-centric, one record per application) and the factor to the table's unit: waste (node·h), completion and waiting time (h), expanded steps, expansion (% of requested duration). */
export const EVOLVING_USER_UNITS: Readonly<Record<string, number>> = { waste: 1 / 3600, completionTime: 1 / 3600, waitingTime: 1 / 3600, expandedSteps: 1, expansion: 100 };

/** Records with their algorithm and each metric of `units` in the table's unit (the rows the tables summarise). */
export function inTableUnits(records: readonly { algorithm: string }[], units: Readonly<Record<string, number>>): Num[] {
  return records.map((r) => ({ algorithm: r.algorithm, ...Object.fromEntries(Object.entries(units).map(([m, f]) => [m, ((r as unknown as Num)[m] as number) * f])) }));
}

/** Per algorithm present, in the order of `algorithms`: `<metric>_avg` and `<metric>_max` of each metric (the grouped summary, pivoted to one row per algorithm). */
function avgMax(records: readonly Num[], algorithms: readonly string[], metrics: readonly string[]): Num[] {
  const chosen = records.filter((r) => algorithms.includes(r.algorithm as string));
  if (chosen.length === 0) return [];
  const summaries = metrics.map((m) => summarize(chosen, { by: ['algorithm'], value: m }));
  return algorithms
    .filter((a) => summaries[0].some((g) => g.algorithm === a))
    .map((algorithm) => ({
      algorithm,
      ...Object.fromEntries(metrics.flatMap((m, k) => {
        const g = summaries[k].find((r) => r.algorithm === algorithm)!;
        return [[`${m}_avg`, g.mean], [`${m}_max`, g.max]];
      })),
    }));
}

/**
 * Table 1 (system-centric): per algorithm, average and maximum over tests of
 * utilisation (%), effective utilisation (%), makespan (h), waste (node·h)
 * and scheduling time (ms).
 */
export function evolvingSystemTable(result: EvolvingExperimentResult, algorithms: readonly string[] = EVOLVING_ALGORITHMS): Num[] {
  return avgMax(inTableUnits(result.system, EVOLVING_SYSTEM_UNITS), algorithms, Object.keys(EVOLVING_SYSTEM_UNITS));
}

/**
 * Table 2 (user-centric): per algorithm, average and maximum over all
 * applications of all tests of waste (node·h), completion time (h), waiting
 * time (h), expanded steps and expansion (% of requested duration).
 */
export function evolvingUserTable(result: EvolvingExperimentResult, algorithms: readonly string[] = EVOLVING_ALGORITHMS): Num[] {
  return avgMax(inTableUnits(result.apps, EVOLVING_USER_UNITS), algorithms, Object.keys(EVOLVING_USER_UNITS));
}
