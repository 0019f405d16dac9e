/**
 * The engine's job/task model, shared by the schedulers that place tasks on
 * nodes (fractional-allocation, consolidation, virtual-cluster schedulers).
 * A job has `tasks` identical tasks; each task needs `cpuNeed` of a node's
 * CPU to run at full speed and holds `memory` of a node's memory while it is
 * placed. `work` is the processing time at full speed (yield 1); a task
 * allocated a CPU share c progresses at yield min(1, c / cpuNeed).
 * Batch schedulers only look at `tasks` (processors) and `estimate`.
 */
import { WorkloadJob } from '../workloads/job';

/** A job inside a simulation: its request (tasks, CPU and memory needs) and its state as the simulator advances it. */
export interface SimJob {
  id: number;
  /** Submit (release) time, seconds. */
  submit: number;
  /** Number of tasks (processors or nodes, depending on the model). */
  tasks: number;
  /** CPU a task needs to run at full speed, in node CPU units (0, capacity]. */
  cpuNeed: number;
  /** Memory a task holds, in node memory units. */
  memory: number;
  /** Processing time at yield 1, seconds. */
  work: number;
  /** User runtime estimate, seconds (batch schedulers). */
  estimate?: number;
}

/** Yield of a task given its allocated CPU share: allocation / need, at most 1. */
export function yieldOf(cpuAllocated: number, cpuNeed: number): number {
  if (!(cpuNeed > 0)) throw new RangeError(`yieldOf: cpuNeed must be > 0, got ${cpuNeed}`);
  return Math.min(1, Math.max(0, cpuAllocated / cpuNeed));
}

/** Throw a RangeError naming the field if a job is not usable (optionally on a node of the given capacities). */
export function validateSimJob(job: SimJob, node: { cpu?: number; memory?: number } = {}): void {
  const where = `job ${job.id}`;
  if (!Number.isFinite(job.submit) || job.submit < 0) throw new RangeError(`${where}: submit must be finite and >= 0, got ${job.submit}`);
  if (!Number.isInteger(job.tasks) || job.tasks < 1) throw new RangeError(`${where}: tasks must be a positive integer, got ${job.tasks}`);
  if (!(job.cpuNeed > 0) || job.cpuNeed > (node.cpu ?? Infinity)) throw new RangeError(`${where}: cpuNeed must be in (0, ${node.cpu ?? 'inf'}], got ${job.cpuNeed}`);
  if (!(job.memory >= 0) || job.memory > (node.memory ?? Infinity)) throw new RangeError(`${where}: memory must be in [0, ${node.memory ?? 'inf'}], got ${job.memory}`);
  if (!(job.work >= 0) || !Number.isFinite(job.work)) throw new RangeError(`${where}: work must be finite and >= 0, got ${job.work}`);
  if (job.estimate !== undefined && !(job.estimate >= 0)) throw new RangeError(`${where}: estimate must be >= 0, got ${job.estimate}`);
}

/**
 * A SimJob from a workload job: one task per processor, the given CPU need and
 * memory per task (defaults 1 and 0), work = runtime, estimate = requested
 * time when known.
 */
export function simJobFromWorkload(job: WorkloadJob, options: { cpuNeed?: number; memory?: number } = {}): SimJob {
  const out: SimJob = {
    id: job.id,
    submit: job.submit,
    tasks: job.procs,
    cpuNeed: options.cpuNeed ?? 1,
    memory: options.memory ?? 0,
    work: job.runtime,
  };
  if (job.requestedTime !== undefined) out.estimate = job.requestedTime;
  return out;
}
