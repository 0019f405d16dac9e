/**
 * Workloads for DFRS experiments (dynamic fractional resource scheduling,
 * Stillwell, Vivien & Casanova): jobs made of identical tasks, each with a CPU
 * need and a memory requirement expressed as fractions of one node.
 */

/** One job of a DFRS workload. All tasks of a job are identical. */
export interface DfrsJob {
  /** Job number, unique within a trace. */
  id: number;
  /** Submit (release) time, seconds. */
  submit: number;
  /** Number of tasks; each task runs in its own VM on one node. */
  tasks: number;
  /** CPU need of one task, as a fraction of a node's CPU resource, in (0, 1]. */
  cpuNeed: number;
  /** Memory requirement of one task, as a fraction of a node's memory, in (0, 1]. */
  mem: number;
  /** Processing time at yield 1 (dedicated resources), seconds. */
  runtime: number;
  /** User runtime estimate, seconds, for batch schedulers that backfill. */
  estimate?: number;
}
