/**
 * Invariants every DFRS allocation must satisfy (checked after each decision
 * when a run is started with `checkInvariants: true`).
 */

/** One task's share of a node at some instant. */
export interface TaskAllocation {
  job: number;
  node: number;
  /** CPU fraction of the node allocated to the task. */
  cpu: number;
  /** CPU need of the task (most it may get). */
  need: number;
  /** Memory fraction of the node the task holds. */
  mem: number;
}

/** Tolerance for float sums that are exactly 1 in exact arithmetic. */
export const INVARIANT_EPSILON = 1e-7;

/**
 * Check a snapshot of task allocations:
 *  - memory used on every node ≤ 100% (memory is never over-committed);
 *  - CPU allocated on every node ≤ 100% (CPU needs may over-commit a node, allocations may not);
 *  - no task gets more CPU than its need;
 *  - all tasks of a job get the same CPU fraction and have the same need and memory;
 *  - each job in `expectedTasks` has exactly that many tasks placed.
 * @throws Error describing the first violation, prefixed by `where`.
 */
export function checkAllocation(
  tasks: readonly TaskAllocation[],
  nodeCount: number,
  where = 'allocation',
  expectedTasks?: ReadonlyMap<number, number>,
): void {
  const mem = new Float64Array(nodeCount);
  const cpu = new Float64Array(nodeCount);
  const first = new Map<number, TaskAllocation>();
  const count = new Map<number, number>();
  for (const t of tasks) {
    if (!(t.node >= 0 && t.node < nodeCount) || !Number.isInteger(t.node)) {
      throw new Error(`${where}: job ${t.job} has a task on node ${t.node}, outside 0..${nodeCount - 1}`);
    }
    if (!(t.cpu >= -INVARIANT_EPSILON)) throw new Error(`${where}: job ${t.job} has a negative CPU allocation ${t.cpu}`);
    if (t.cpu > t.need + INVARIANT_EPSILON) {
      throw new Error(`${where}: a task of job ${t.job} on node ${t.node} gets CPU ${t.cpu}, more than its need ${t.need}`);
    }
    mem[t.node] += t.mem;
    cpu[t.node] += t.cpu;
    const f = first.get(t.job);
    if (!f) first.set(t.job, t);
    else if (Math.abs(f.cpu - t.cpu) > INVARIANT_EPSILON || f.need !== t.need || f.mem !== t.mem) {
      throw new Error(
        `${where}: tasks of job ${t.job} differ (node ${f.node}: cpu ${f.cpu}, need ${f.need}, mem ${f.mem}; node ${t.node}: cpu ${t.cpu}, need ${t.need}, mem ${t.mem})`,
      );
    }
    count.set(t.job, (count.get(t.job) ?? 0) + 1);
  }
  for (let i = 0; i < nodeCount; i++) {
    if (mem[i] > 1 + INVARIANT_EPSILON) throw new Error(`${where}: node ${i} memory at ${(mem[i] * 100).toFixed(6)}% (> 100%)`);
    if (cpu[i] > 1 + INVARIANT_EPSILON) throw new Error(`${where}: node ${i} CPU allocated at ${(cpu[i] * 100).toFixed(6)}% (> 100%)`);
  }
  if (expectedTasks) {
    for (const [job, n] of expectedTasks) {
      const got = count.get(job) ?? 0;
      if (got !== n) throw new Error(`${where}: job ${job} runs ${got} tasks, expected ${n}`);
    }
    for (const job of count.keys()) {
      if (!expectedTasks.has(job)) throw new Error(`${where}: job ${job} holds resources but is not running`);
    }
  }
}
