/**
 * The experiment of section 5: many seeded synthetic tests, each scheduled by
 * rigid and by the five Algorithm 1 variants, with system-centric records per
 * (test, algorithm) and user-centric records per (test, algorithm, app).
 */
import { performance } from 'perf_hooks';
import { Seed } from '../../util/random';
import { EvolvingApp, EvolvingSchedule, EVOLVING_VARIANTS, scheduleVariant } from './list';
import { scheduleRigid } from './rigid';
import { EvolvingTestOptions, evolvingTestCase } from './workload';
import { appMetrics, systemMetrics, EvolvingAppMetrics, EvolvingSystemMetrics } from '../../metrics/evolving';
import { InputError } from '../../util/errors';

/** rigid followed by the five variants, in the paper's order. */
export const EVOLVING_ALGORITHMS: readonly string[] = ['rigid', ...Object.keys(EVOLVING_VARIANTS)];

/** Schedule a test with one algorithm name (rigid, noX, 2X, 2X+c, infX, infX+c). */
export function scheduleByName(apps: readonly EvolvingApp[], nodes: number, algorithm: string): EvolvingSchedule {
  return algorithm === 'rigid' ? scheduleRigid(apps, nodes) : scheduleVariant(apps, nodes, algorithm);
}

export interface EvolvingExperimentOptions extends EvolvingTestOptions {
  /** Number of tests (default 1000, as in the paper). */
  tests?: number;
  /** Cluster size in nodes (default 75; see the notebook for the choice). */
  clusterNodes?: number;
  /** Master seed (default 'evolving'). Test i uses the fork `evolving-test-i`. */
  seed?: Seed;
  /** Algorithms to run (default EVOLVING_ALGORITHMS). */
  algorithms?: readonly string[];
  /** Called after each test (progress reporting). */
  onTest?: (index: number) => void;
}

export interface EvolvingSystemRecord extends EvolvingSystemMetrics {
  test: number;
  apps: number;
}

export interface EvolvingAppRecord extends EvolvingAppMetrics {
  test: number;
}

export interface EvolvingExperimentResult {
  clusterNodes: number;
  tests: number;
  system: EvolvingSystemRecord[];
  apps: EvolvingAppRecord[];
}

/** Run the experiment; every number except schedulingTime is a pure function of the options. */
export function runEvolvingExperiment(options: EvolvingExperimentOptions = {}): EvolvingExperimentResult {
  const tests = options.tests ?? 1000;
  const nodes = options.clusterNodes ?? 75;
  const seed = options.seed ?? 'evolving';
  const algorithms = options.algorithms ?? EVOLVING_ALGORITHMS;
  if (!Number.isInteger(tests) || tests < 1) throw new InputError(`runEvolvingExperiment: tests must be a positive integer, got ${tests}`, { source: 'runEvolvingExperiment', field: 'tests' });
  const maxNodes = (options.nodes ?? [1, 75])[1];
  if (nodes < maxNodes) throw new InputError(`runEvolvingExperiment: clusterNodes (${nodes}) must be at least the largest step node count (${maxNodes})`, { source: 'runEvolvingExperiment', field: 'clusterNodes' });
  const system: EvolvingSystemRecord[] = [];
  const apps: EvolvingAppRecord[] = [];
  for (let t = 0; t < tests; t++) {
    const testApps = evolvingTestCase(seed, t, options);
    for (const algorithm of algorithms) {
      const t0 = performance.now();
      const schedule = scheduleByName(testApps, nodes, algorithm);
      const elapsed = performance.now() - t0;
      system.push({ test: t, apps: testApps.length, ...systemMetrics(schedule, elapsed) });
      for (const m of appMetrics(schedule)) apps.push({ test: t, ...m });
    }
    options.onTest?.(t);
  }
  return { clusterNodes: nodes, tests, system, apps };
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
