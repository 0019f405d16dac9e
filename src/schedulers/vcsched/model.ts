/**
 * The VCSched problem (Stillwell, Schanzenbach, Vivien, Casanova, "Resource
 * Allocation using Virtual Clusters", sections 2.3 and 5.1).
 *
 * - `hosts` identical hosts, each with CPU capacity 1 and memory capacity 1.
 * - Jobs; a sequential job has one task, a parallel job has `tasks` identical
 *   tasks. Every task of job j has CPU need c_j (fraction of a host it uses when
 *   alone) and memory requirement m_j (fraction of a host's memory), both in [0, 1].
 * - An allocation maps every task to exactly one host and gives it a CPU
 *   fraction alpha <= c_j. Per host, CPU fractions sum to <= 1 and memory
 *   requirements sum to <= 1. Tasks of one job may share a host.
 * - Task yield = alpha / c_j. All tasks of a job must get the same CPU fraction
 *   (section 5.1), so the job yield is the per-job yield "total CPU allocation
 *   divided by total CPU requirement", equal to each task's yield.
 * - Objective: maximise the minimum job yield; second phase: maximise the
 *   average job yield (per job, not per task, for parallel jobs) without moving tasks.
 */
import { YieldTask } from '../packing/yield';
import { InputError } from '../../util/errors';

/** One job: all its tasks have the same CPU need and memory requirement. */
export interface VcJob {
  /** CPU need in [0, 1]. */
  cpuNeed: number;
  /** Memory requirement in [0, 1]. */
  mem: number;
  /** Number of identical tasks (default 1: a sequential job). */
  tasks?: number;
}

/** A VCSched instance: hosts with CPU and memory, jobs of tasks with CPU needs and memory. */
export interface VcInstance {
  hosts: number;
  jobs: VcJob[];
}

/** A task of an instance, in job order (job 0's tasks first, ...). */
export interface VcTask extends YieldTask {
  /** Index of the task within its job. */
  index: number;
}

/** Host and CPU fraction per task (task order of {@link instanceTasks}). */
export interface VcAllocation {
  host: number[];
  cpu: number[];
}

/** A placement's yields: per job and the minimum, with capacity violations if any. */
export interface VcEvaluation {
  feasible: boolean;
  /** Human-readable violated constraints (empty when feasible). */
  violations: string[];
  /** Minimum job yield. */
  minYield: number;
  /** Average job yield (per job: total CPU allocation / total CPU need). */
  avgYield: number;
  /** Yield of every job. */
  jobYields: number[];
}

/** Tolerance used when checking capacities and equalities. */
export const FEASIBILITY_TOLERANCE = 1e-6;

/**
 * Validate an instance; throws an InputError whose `source` is `where` and
 * whose `field` is the offending field (`jobs[3].mem`).
 */
export function checkInstance(inst: VcInstance, where = 'VcInstance'): void {
  const bad = (field: string, message: string) => new InputError(`${where}.${field} ${message}`, { source: where, field });
  if (inst === null || typeof inst !== 'object') throw new InputError(`${where}: instance must be an object, got ${String(inst)}`, { source: where });
  if (!Number.isInteger(inst.hosts) || inst.hosts < 1) throw bad('hosts', `must be a positive integer, got ${inst.hosts}`);
  if (!Array.isArray(inst.jobs)) throw bad('jobs', 'must be an array');
  inst.jobs.forEach((j, i) => {
    if (j === null || typeof j !== 'object') throw bad(`jobs[${i}]`, `must be an object, got ${String(j)}`);
    if (!(j.cpuNeed >= 0 && j.cpuNeed <= 1)) throw bad(`jobs[${i}].cpuNeed`, `must be in [0, 1], got ${j.cpuNeed}`);
    if (!(j.mem >= 0 && j.mem <= 1)) throw bad(`jobs[${i}].mem`, `must be in [0, 1], got ${j.mem}`);
    const t = j.tasks ?? 1;
    if (!Number.isInteger(t) || t < 1) throw bad(`jobs[${i}].tasks`, `must be a positive integer, got ${j.tasks}`);
  });
}

/** Expand jobs into tasks, jobs in order and each job's tasks consecutive. */
export function instanceTasks(inst: VcInstance): VcTask[] {
  const out: VcTask[] = [];
  inst.jobs.forEach((j, job) => {
    const n = j.tasks ?? 1;
    for (let index = 0; index < n; index++) out.push({ job, index, cpuNeed: j.cpuNeed, mem: j.mem });
  });
  return out;
}

/** Number of tasks over all jobs of an instance. */
export function taskCount(inst: VcInstance): number {
  let n = 0;
  for (const j of inst.jobs) n += j.tasks ?? 1;
  return n;
}

/** Sum of memory requirements over all tasks. */
export function totalMemory(inst: VcInstance): number {
  let s = 0;
  for (const j of inst.jobs) s += j.mem * (j.tasks ?? 1);
  return s;
}

/** Sum of CPU needs over all tasks. */
export function totalCpuNeed(inst: VcInstance): number {
  let s = 0;
  for (const j of inst.jobs) s += j.cpuNeed * (j.tasks ?? 1);
  return s;
}

/** Job yield when the need is 0: such a job is always fully served. */
function ratio(alloc: number, need: number): number {
  return need > 0 ? alloc / need : 1;
}

/**
 * Check every constraint of the problem and compute the yields. The checks:
 * one host per task (in range), memory <= 1 per host, CPU <= 1 per host,
 * 0 <= alpha <= need, identical fractions within a job.
 */
export function evaluateAllocation(inst: VcInstance, alloc: VcAllocation, tol = FEASIBILITY_TOLERANCE): VcEvaluation {
  const tasks = instanceTasks(inst);
  const violations: string[] = [];
  if (alloc.host.length !== tasks.length || alloc.cpu.length !== tasks.length) {
    violations.push(`allocation has ${alloc.host.length} hosts / ${alloc.cpu.length} fractions for ${tasks.length} tasks`);
    return { feasible: false, violations, minYield: 0, avgYield: 0, jobYields: [] };
  }
  const memUse = new Array<number>(inst.hosts).fill(0);
  const cpuUse = new Array<number>(inst.hosts).fill(0);
  const jobAlloc = new Array<number>(inst.jobs.length).fill(0);
  const firstFraction = new Array<number | undefined>(inst.jobs.length).fill(undefined);
  tasks.forEach((t, i) => {
    const h = alloc.host[i];
    const a = alloc.cpu[i];
    if (!Number.isInteger(h) || h < 0 || h >= inst.hosts) {
      violations.push(`task ${i} (job ${t.job}) on invalid host ${h}`);
      return;
    }
    if (!(a >= -tol) || a > t.cpuNeed + tol) violations.push(`task ${i} (job ${t.job}) gets CPU ${a} outside [0, need=${t.cpuNeed}]`);
    memUse[h] += t.mem;
    cpuUse[h] += a;
    jobAlloc[t.job] += a;
    const f = firstFraction[t.job];
    if (f === undefined) firstFraction[t.job] = a;
    else if (Math.abs(f - a) > tol) violations.push(`job ${t.job}: tasks get different CPU fractions (${f} vs ${a})`);
  });
  for (let h = 0; h < inst.hosts; h++) {
    if (memUse[h] > 1 + tol) violations.push(`host ${h}: memory ${memUse[h]} > 1`);
    if (cpuUse[h] > 1 + tol) violations.push(`host ${h}: CPU ${cpuUse[h]} > 1`);
  }
  const jobYields = inst.jobs.map((j, k) => ratio(jobAlloc[k], j.cpuNeed * (j.tasks ?? 1)));
  const minYield = jobYields.length ? Math.min(...jobYields) : 1;
  const avgYield = jobYields.length ? jobYields.reduce((s, y) => s + y, 0) / jobYields.length : 1;
  return { feasible: violations.length === 0, violations, minYield, avgYield, jobYields };
}

/** Memory used per host by a placement (host index per task). */
export function hostMemory(inst: VcInstance, placement: ArrayLike<number>): number[] {
  const tasks = instanceTasks(inst);
  const mem = new Array<number>(inst.hosts).fill(0);
  tasks.forEach((t, i) => (mem[placement[i]] += t.mem));
  return mem;
}

/** True when no host's memory is exceeded by the placement. */
export function placementFitsMemory(inst: VcInstance, placement: ArrayLike<number>, tol = FEASIBILITY_TOLERANCE): boolean {
  return hostMemory(inst, placement).every((m) => m <= 1 + tol);
}
