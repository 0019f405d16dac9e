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

function avgMax(records: readonly Num[], algorithms: readonly string[], metrics: readonly string[], scaleBy: Record<string, number>): Num[] {
  const rows: Num[] = [];
  for (const algorithm of algorithms) {
    const rs = records.filter((r) => r.algorithm === algorithm);
    if (rs.length === 0) continue;
    const row: Num = { algorithm };
    for (const m of metrics) {
      const f = scaleBy[m] ?? 1;
      const vs = rs.map((r) => (r[m] as number) * f);
      row[`${m}_avg`] = vs.reduce((a, b) => a + b, 0) / vs.length;
      row[`${m}_max`] = vs.reduce((a, b) => Math.max(a, b), -Infinity);
    }
    rows.push(row);
  }
  return rows;
}

/**
 * Table 1 (system-centric): per algorithm, average and maximum over tests of
 * utilisation (%), effective utilisation (%), makespan (h), waste (node·h)
 * and scheduling time (ms).
 */
export function evolvingSystemTable(result: EvolvingExperimentResult, algorithms: readonly string[] = EVOLVING_ALGORITHMS): Num[] {
  return avgMax(result.system as unknown as Num[], algorithms, ['resourceUtilization', 'effectiveUtilization', 'makespan', 'resourceWaste', 'schedulingTime'], {
    resourceUtilization: 100,
    effectiveUtilization: 100,
    makespan: 1 / 3600,
    resourceWaste: 1 / 3600,
  });
}

/**
 * Table 2 (user-centric): per algorithm, average and maximum over all
 * applications of all tests of waste (node·h), completion time (h), waiting
 * time (h), expanded steps and expansion (% of requested duration).
 */
export function evolvingUserTable(result: EvolvingExperimentResult, algorithms: readonly string[] = EVOLVING_ALGORITHMS): Num[] {
  return avgMax(result.apps as unknown as Num[], algorithms, ['waste', 'completionTime', 'waitingTime', 'expandedSteps', 'expansion'], {
    waste: 1 / 3600,
    completionTime: 1 / 3600,
    waitingTime: 1 / 3600,
    expansion: 100,
  });
}
