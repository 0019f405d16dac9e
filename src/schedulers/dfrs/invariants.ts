/**
 * Invariants every DFRS allocation and every finished DFRS run must satisfy.
 *
 * `simulateDfrs` checks them when invariant checks are on: its
 * `checkInvariants` option, which defaults to the toolkit-wide switch
 * (`invariantChecksEnabled()`, util/invariants.ts; SCHEDLAB_CHECK_INVARIANTS=1).
 * A violation throws an {@link InvariantError} naming the invariant
 * (`dfrs/memory`, `dfrs/cpu`, …) and the job, node and time.
 */
import { InvariantError } from '../../util/invariants';

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
 *  - memory used on every node ≤ 100% (`dfrs/memory`; memory is never over-committed);
 *  - CPU allocated on every node ≤ 100% (`dfrs/cpu`; CPU needs may over-commit a node, allocations may not);
 *  - no task gets more CPU than its need, nor a negative share (`dfrs/need`);
 *  - all tasks of a job get the same CPU fraction and have the same need and memory (`dfrs/equal-share`);
 *  - every task sits on an existing node (`dfrs/node`);
 *  - each job in `expectedTasks` has exactly that many tasks placed, and no other job holds resources (`dfrs/tasks`).
 * @param where text put in front of the detail (algorithm, time)
 * @param time simulation time, reported in the error
 * @throws InvariantError for the first violation
 */
export function checkAllocation(
  tasks: readonly TaskAllocation[],
  nodeCount: number,
  where = 'allocation',
  expectedTasks?: ReadonlyMap<number, number>,
  time?: number,
): void {
  const at = (job?: number, node?: number) => ({
    ...(job !== undefined ? { job } : {}),
    ...(node !== undefined ? { node } : {}),
    ...(time !== undefined ? { time } : {}),
  });
  const mem = new Float64Array(nodeCount);
  const cpu = new Float64Array(nodeCount);
  const first = new Map<number, TaskAllocation>();
  const count = new Map<number, number>();
  for (const t of tasks) {
    if (!(t.node >= 0 && t.node < nodeCount) || !Number.isInteger(t.node)) {
      throw new InvariantError('dfrs/node', `${where}: job ${t.job} has a task on node ${t.node}, outside 0..${nodeCount - 1}`, at(t.job));
    }
    if (!(t.cpu >= -INVARIANT_EPSILON)) throw new InvariantError('dfrs/need', `${where}: job ${t.job} has a negative CPU allocation ${t.cpu}`, at(t.job, t.node));
    if (t.cpu > t.need + INVARIANT_EPSILON) {
      throw new InvariantError('dfrs/need', `${where}: a task of job ${t.job} on node ${t.node} gets CPU ${t.cpu}, more than its need ${t.need}`, at(t.job, t.node));
    }
    mem[t.node] += t.mem;
    cpu[t.node] += t.cpu;
    const f = first.get(t.job);
    if (!f) first.set(t.job, t);
    else if (Math.abs(f.cpu - t.cpu) > INVARIANT_EPSILON || f.need !== t.need || f.mem !== t.mem) {
      throw new InvariantError(
        'dfrs/equal-share',
        `${where}: tasks of job ${t.job} differ (node ${f.node}: cpu ${f.cpu}, need ${f.need}, mem ${f.mem}; node ${t.node}: cpu ${t.cpu}, need ${t.need}, mem ${t.mem})`,
        at(t.job, t.node),
      );
    }
    count.set(t.job, (count.get(t.job) ?? 0) + 1);
  }
  for (let i = 0; i < nodeCount; i++) {
    if (mem[i] > 1 + INVARIANT_EPSILON) throw new InvariantError('dfrs/memory', `${where}: node ${i} memory at ${(mem[i] * 100).toFixed(6)}% (> 100%)`, at(undefined, i));
    if (cpu[i] > 1 + INVARIANT_EPSILON) throw new InvariantError('dfrs/cpu', `${where}: node ${i} CPU allocated at ${(cpu[i] * 100).toFixed(6)}% (> 100%)`, at(undefined, i));
  }
  if (expectedTasks) {
    for (const [job, n] of expectedTasks) {
      const got = count.get(job) ?? 0;
      if (got !== n) throw new InvariantError('dfrs/tasks', `${where}: job ${job} runs ${got} tasks, expected ${n}`, at(job));
    }
    for (const job of count.keys()) {
      if (!expectedTasks.has(job)) throw new InvariantError('dfrs/tasks', `${where}: job ${job} holds resources but is not running`, at(job));
    }
  }
}

/** What {@link verifyDfrsRun} reads from a job and its outcome. */
export interface DfrsRunJob {
  id: number;
  submit: number;
  runtime: number;
  tasks: number;
  cpuNeed: number;
  start: number;
  completion: number;
}

/** Slack on times: relative to the time's magnitude, plus an absolute part for times near 0. */
function timeSlack(t: number): number {
  return 1e-9 * Math.abs(t) + 1e-6;
}

/**
 * Check a finished DFRS run from its outcomes alone:
 *  - every job started and completed (`dfrs/completed`);
 *  - no job started before its submission (`dfrs/release`);
 *  - stretch ≥ 1: a job cannot complete sooner than its run time after its
 *    submission, since its yield never exceeds 1 (`dfrs/stretch`);
 *  - work conserved: the useful CPU of the run (node-seconds outside
 *    penalties) equals the total work Σ runtime × tasks × cpuNeed, so no job
 *    received less or more than its work (`dfrs/work`). The simulator checks
 *    the same per job as each one completes.
 */
export function verifyDfrsRun(jobs: readonly DfrsRunJob[], usefulCpuSeconds: number): void {
  let work = 0;
  let slack = 0;
  for (const j of jobs) {
    if (!Number.isFinite(j.start) || !Number.isFinite(j.completion)) {
      throw new InvariantError('dfrs/completed', `start ${j.start}, completion ${j.completion}: the job never ran to completion`, { job: j.id });
    }
    if (j.start < j.submit) throw new InvariantError('dfrs/release', `started at ${j.start}, before its submission at ${j.submit}`, { job: j.id, time: j.start });
    const flow = j.completion - j.submit;
    if (flow < j.runtime - timeSlack(j.completion)) {
      throw new InvariantError('dfrs/stretch', `completed ${flow} s after its submission, less than its run time ${j.runtime} s (stretch < 1)`, {
        job: j.id,
        time: j.completion,
      });
    }
    work += j.runtime * j.tasks * j.cpuNeed;
    // the simulator completes a job within 1e-6 s (+ 1e-9 relative) of work at yield 1
    slack += (2e-6 + 2e-9 * j.runtime) * j.tasks * j.cpuNeed;
  }
  if (!(Math.abs(usefulCpuSeconds - work) <= slack + 1e-9 * work)) {
    throw new InvariantError('dfrs/work', `useful CPU ${usefulCpuSeconds} node-seconds differs from the total work ${work} node-seconds`);
  }
}
