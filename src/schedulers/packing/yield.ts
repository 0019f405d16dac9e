/**
 * Maximising the minimum yield with a vector-packing heuristic and a binary
 * search on the yield (VCSched paper section 3.4; DFRS paper section 4.3).
 *
 * A task has a CPU *need* (fraction of a host it would use alone) and a memory
 * requirement. Fixing a yield y turns every need into a CPU *requirement*
 * y * cpuNeed, and the question "can every task get yield y?" becomes a
 * two-dimensional vector packing problem, answered heuristically by MCB.
 */
import { CAPACITY_EPSILON, McbVariant, checkVariant, packGroups } from './mcb';
import { invariantChecksEnabled } from '../../util/invariants';
import { verifyYieldPlacement } from './invariants';
import { InputError } from '../../util/errors';
import { grownFloat, grownInt } from '../../util/arrays';

/** A task to place: identical tasks of one parallel job share `job`, `cpuNeed` and `mem`. */
export interface YieldTask {
  job: number;
  cpuNeed: number;
  mem: number;
}

/** Options of the yield search: packing variant, tolerance, upper-bound probe and a fixed host. */
export interface YieldSearchOptions {
  /** MCB variant 1..8 (default 8). */
  variant?: McbVariant;
  /** Stop the binary search when the bracket [feasible, infeasible] is this narrow (default 0.01, as in both papers). */
  tolerance?: number;
  /**
   * Try the upper bound min(1, hosts / total need) before bisecting (default true).
   * The paper starts bisecting at half the upper bound; probing the bound first
   * costs one packing and returns the exact bound whenever it is packable.
   */
  probeUpperBound?: boolean;
  /**
   * Optional host per task that must be kept (e.g. DFRS's minvt rule: recently
   * started tasks keep their node). Entries that are null/undefined/-1 are free.
   */
  fixedHost?: ArrayLike<number | null | undefined>;
}

/** The best yield found by the binary search and the packing that achieves it. */
export interface YieldSearchResult {
  /**
   * Minimum yield achieved by `placement` when every task gets the same yield:
   * min(1, 1 / max host CPU load), the load being the sum of CPU needs on a host.
   * It is >= `searchedYield` and it is itself packable, so it is the value to use.
   */
  yield: number;
  /** Largest yield value for which the binary search found a packing. */
  searchedYield: number;
  /** Host index per task (same order as the input). */
  placement: number[];
  /** Number of packing attempts made (cost measure). */
  packings: number;
}

/** Largest yield any placement can reach: min(1, hosts / sum of CPU needs). */
export function yieldUpperBound(tasks: readonly YieldTask[], hosts: number): number {
  let total = 0;
  for (const t of tasks) total += t.cpuNeed;
  return total <= hosts ? 1 : hosts / total;
}

/**
 * CPU load (sum of CPU needs) per host for a placement.
 */
export function hostCpuLoads(tasks: readonly YieldTask[], placement: ArrayLike<number>, hosts: number): number[] {
  const load = new Array<number>(hosts).fill(0);
  for (let i = 0; i < tasks.length; i++) load[placement[i]] += tasks[i].cpuNeed;
  return load;
}

/** The minimum yield of a placement when all tasks get equal yields: min(1, 1 / max load). */
export function placementMinYield(tasks: readonly YieldTask[], placement: ArrayLike<number>, hosts: number): number {
  let maxLoad = 0;
  for (const l of hostCpuLoads(tasks, placement, hosts)) if (l > maxLoad) maxLoad = l;
  return maxLoad <= 1 ? 1 : 1 / maxLoad;
}

function checkTasks(tasks: readonly YieldTask[], where: string): void {
  for (let i = 0; i < tasks.length; i++) {
    const t = tasks[i];
    if (!(t.cpuNeed >= 0 && Number.isFinite(t.cpuNeed)) || !(t.mem >= 0 && Number.isFinite(t.mem))) {
      throw new InputError(`${where}: tasks[${i}] needs finite cpuNeed >= 0 and mem >= 0, got cpuNeed=${t.cpuNeed}, mem=${t.mem}`, { source: where, field: `tasks[${i}]` });
    }
  }
}

/**
 * Find (heuristically) the largest yield y in [0, 1] such that the items
 * (y * cpuNeed, mem) can be packed on `hosts` unit hosts by MCB`variant`, by
 * binary search with the given tolerance.
 *
 * Semantics, following both papers:
 *  - every task is an independent item for packing; tasks of the same job are
 *    identical and MAY share a host (the memory constraints of the parallel-job
 *    MILP, eq. 12-21, and DFRS's packing both sum over tasks on a host; nothing
 *    forbids co-location);
 *  - all tasks receive the same yield in this phase, so a job's tasks progress
 *    at the same rate;
 *  - `job` is not used for packing; list the tasks of a job consecutively (in
 *    priority order of jobs) so that ties keep them together as DFRS does.
 *
 * Search: test the upper bound min(1, hosts / total need) first (optional);
 * otherwise bisect (0, ub) - the first probe is ub/2 as in the paper - keeping
 * the best packing found. If no probe succeeded, y = 0 (memory only) is tried.
 *
 * @returns null when even y = 0 does not pack, i.e. memory does not fit (as far
 *   as the heuristic can tell).
 */
export function maximizeMinYield(
  tasks: readonly YieldTask[],
  hosts: number,
  options: YieldSearchOptions = {},
): YieldSearchResult | null {
  const variant = checkVariant(options.variant ?? 8);
  const tolerance = options.tolerance ?? 0.01;
  const src = 'maximizeMinYield';
  if (!(tolerance > 0 && tolerance < 1)) throw new InputError(`${src}: tolerance must be in (0, 1), got ${tolerance}`, { source: src, field: 'tolerance' });
  if (!Number.isInteger(hosts) || hosts < 0) throw new InputError(`${src}: hosts must be a non-negative integer, got ${hosts}`, { source: src, field: 'hosts' });
  checkTasks(tasks, 'maximizeMinYield');

  const n = tasks.length;
  if (n === 0) return { yield: 1, searchedYield: 1, placement: [], packings: 0 };
  if (hosts === 0) return null;

  // Split free and pinned tasks.
  const fixed = options.fixedHost;
  if (fixed && fixed.length !== n) {
    throw new InputError(`${src}: fixedHost needs one entry per task (${n}), got ${fixed.length}`, { source: src, field: 'fixedHost' });
  }
  const free: number[] = [];
  const pinnedNeed = new Float64Array(hosts);
  const pinnedMem = new Float64Array(hosts);
  for (let i = 0; i < n; i++) {
    const h = fixed ? fixed[i] : undefined;
    if (h === null || h === undefined || h === -1) {
      free.push(i);
      continue;
    }
    if (!Number.isInteger(h) || h < 0 || h >= hosts) {
      throw new InputError(`${src}: fixedHost[${i}] must be a host index in 0..${hosts - 1}, got ${h}`, { source: src, field: `fixedHost[${i}]` });
    }
    pinnedNeed[h] += tasks[i].cpuNeed;
    pinnedMem[h] += tasks[i].mem;
  }
  for (let h = 0; h < hosts; h++) if (pinnedMem[h] > 1 + CAPACITY_EPSILON) return null;

  // Free tasks as groups of equal consecutive tasks (a job's tasks): a probe
  // then costs O(groups), not O(tasks), to set up.
  const gNeed: number[] = [];
  const gMem: number[] = [];
  const gCount: number[] = [];
  for (let k = 0; k < free.length; k++) {
    const t = tasks[free[k]];
    const g = gCount.length - 1;
    if (g >= 0 && t.cpuNeed === gNeed[g] && t.mem === gMem[g]) gCount[g]++;
    else {
      gNeed.push(t.cpuNeed);
      gMem.push(t.mem);
      gCount.push(1);
    }
  }
  const found = searchYield({ gNeed, gMem, gCount, freeTasks: free.length, pinnedNeed, pinnedMem, hosts, ub: yieldUpperBound(tasks, hosts) }, variant, tolerance, options.probeUpperBound ?? true);
  if (!found) return null;
  const { best, bestY, packings } = found;

  const placement = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const h = fixed ? fixed[i] : undefined;
    if (h !== null && h !== undefined && h !== -1) placement[i] = h;
  }
  for (let k = 0; k < free.length; k++) placement[free[k]] = best[k];
  const result = { yield: placementMinYield(tasks, placement, hosts), searchedYield: bestY, placement, packings };
  if (invariantChecksEnabled()) {
    // Both the yield searched and the (higher) yield reported must fit the placement.
    verifyYieldPlacement(tasks, placement, hosts, bestY);
    verifyYieldPlacement(tasks, placement, hosts, result.yield);
  }
  return result;
}

/** What the binary search packs: the free tasks as groups of equal tasks, and the pinned load per host. */
interface YieldSearchInput {
  gNeed: ArrayLike<number>;
  gMem: ArrayLike<number>;
  gCount: ArrayLike<number>;
  /** Number of free tasks (the sum of gCount). */
  freeTasks: number;
  /** CPU need and memory of the pinned tasks on each host. */
  pinnedNeed: Float64Array;
  pinnedMem: Float64Array;
  hosts: number;
  /** The search's upper bound (yieldUpperBound of all tasks). */
  ub: number;
}

/**
 * Working arrays of the yield search, reused from call to call (the search
 * calls no user code, so it is never re-entered): typed arrays of a few
 * hundred entries cost more to allocate than a packing of them.
 */
const work: Record<'cpu' | 'preCpu' | 'pinnedNeed' | 'pinnedMem' | 'load', Float64Array> & Record<'placementA' | 'placementB' | 'pinnedHosts', Int32Array> = {
  cpu: new Float64Array(0),
  preCpu: new Float64Array(0),
  placementA: new Int32Array(0),
  placementB: new Int32Array(0),
  pinnedHosts: new Int32Array(0),
  pinnedNeed: new Float64Array(0),
  pinnedMem: new Float64Array(0),
  load: new Float64Array(0),
};

/**
 * The binary search of `maximizeMinYield`: the best packing of the free
 * tasks' groups (the bin of each free task, in order; a working array, valid
 * until the next search), the yield it was found at and the number of
 * packings tried; null when even y = 0 does not pack. `pinnedNeed` and
 * `pinnedMem` may be longer than `hosts`.
 */
function searchYield(input: YieldSearchInput, variant: McbVariant, tolerance: number, probeUpperBound: boolean): { best: Int32Array; bestY: number; packings: number } | null {
  const { gNeed, gMem, gCount, pinnedNeed, pinnedMem, hosts, ub } = input;
  let maxPinnedNeed = 0;
  // Hosts with pinned tasks: a probe rescales only theirs (the others' preload is y × 0 = 0 at every y ≥ 0).
  const pinnedHosts = (work.pinnedHosts = grownInt(work.pinnedHosts, hosts));
  let pinnedCount = 0;
  for (let h = 0; h < hosts; h++) {
    if (pinnedNeed[h] > maxPinnedNeed) maxPinnedNeed = pinnedNeed[h];
    if (pinnedNeed[h] !== 0) pinnedHosts[pinnedCount++] = h;
  }
  // packGroups takes the number of groups from the length of its CPU sizes.
  const cpu = (work.cpu = grownFloat(work.cpu, gNeed.length)).subarray(0, gNeed.length);
  const preCpu = (work.preCpu = grownFloat(work.preCpu, hosts));
  preCpu.fill(0, 0, hosts);
  const preload = { cpu: preCpu, mem: pinnedMem };
  let packings = 0;
  // Two placement buffers: a probe writes into `scratch`; when it succeeds,
  // that buffer holds the best packing so far and the other one becomes scratch.
  let scratch = (work.placementA = grownInt(work.placementA, input.freeTasks));
  let spare = (work.placementB = grownInt(work.placementB, input.freeTasks));

  const tryYield = (y: number): Int32Array | null => {
    if (y * maxPinnedNeed > 1 + CAPACITY_EPSILON) return null;
    for (let g = 0; g < gNeed.length; g++) cpu[g] = y * gNeed[g];
    for (let k = 0; k < pinnedCount; k++) preCpu[pinnedHosts[k]] = y * pinnedNeed[pinnedHosts[k]];
    packings++;
    const p = packGroups(cpu, gMem, gCount, hosts, variant, preload, scratch);
    if (p) [scratch, spare] = [spare, scratch];
    return p;
  };

  let best: Int32Array | null = null;
  let bestY = 0;
  if (probeUpperBound) {
    best = tryYield(ub);
    if (best) bestY = ub;
  }
  if (!best) {
    let lo = 0;
    let hi = ub;
    while (hi - lo > tolerance) {
      const mid = (lo + hi) / 2;
      const p = tryYield(mid);
      if (p) {
        best = p;
        bestY = mid;
        lo = mid;
      } else hi = mid;
    }
    if (!best) {
      best = tryYield(0);
      if (!best) return null;
      bestY = 0;
    }
  }
  return { best, bestY, packings };
}

/** A job for `maximizeMinYieldOfJobs`: `tasks` identical tasks, pinned to `hosts` (one per task) or free (null). */
export interface YieldJob {
  tasks: number;
  cpuNeed: number;
  mem: number;
  hosts: ArrayLike<number> | null;
}

/** `maximizeMinYield`'s answer for jobs: the host of every task, jobs after one another. */
export interface YieldJobsResult {
  yield: number;
  searchedYield: number;
  placement: Int32Array;
  packings: number;
}

/**
 * `maximizeMinYield` on jobs of identical tasks (a job's tasks all pinned or
 * all free) without listing the tasks one by one: the same answer, bit for
 * bit, as `maximizeMinYield` on the jobs' tasks listed job after job, with
 * `fixedHost` giving each pinned task its host (the same sums in the same
 * order, the same groups of equal free tasks, the same probes). DFRS's MCB8
 * calls it at every decision.
 */
export function maximizeMinYieldOfJobs(jobs: readonly YieldJob[], hosts: number, options: Omit<YieldSearchOptions, 'fixedHost'> = {}): YieldJobsResult | null {
  const variant = checkVariant(options.variant ?? 8);
  const tolerance = options.tolerance ?? 0.01;
  const src = 'maximizeMinYieldOfJobs';
  if (!(tolerance > 0 && tolerance < 1)) throw new InputError(`${src}: tolerance must be in (0, 1), got ${tolerance}`, { source: src, field: 'tolerance' });
  if (!Number.isInteger(hosts) || hosts < 0) throw new InputError(`${src}: hosts must be a non-negative integer, got ${hosts}`, { source: src, field: 'hosts' });
  let n = 0;
  for (let i = 0; i < jobs.length; i++) {
    const j = jobs[i];
    if (!(j.cpuNeed >= 0 && Number.isFinite(j.cpuNeed)) || !(j.mem >= 0 && Number.isFinite(j.mem)) || !(Number.isInteger(j.tasks) && j.tasks >= 0)) {
      throw new InputError(`${src}: jobs[${i}] needs finite cpuNeed >= 0, mem >= 0 and an integer tasks >= 0, got cpuNeed=${j.cpuNeed}, mem=${j.mem}, tasks=${j.tasks}`, { source: src, field: `jobs[${i}]` });
    }
    if (j.hosts && j.hosts.length !== j.tasks) throw new InputError(`${src}: jobs[${i}].hosts needs one entry per task (${j.tasks}), got ${j.hosts.length}`, { source: src, field: `jobs[${i}].hosts` });
    n += j.tasks;
  }
  if (n === 0) return { yield: 1, searchedYield: 1, placement: new Int32Array(0), packings: 0 };
  if (hosts === 0) return null;

  // Pinned load per host and the upper bound, summed task by task in task order;
  // free tasks as groups of equal consecutive tasks.
  const pinnedNeed = (work.pinnedNeed = grownFloat(work.pinnedNeed, hosts));
  const pinnedMem = (work.pinnedMem = grownFloat(work.pinnedMem, hosts));
  pinnedNeed.fill(0, 0, hosts);
  pinnedMem.fill(0, 0, hosts);
  const gNeed: number[] = [];
  const gMem: number[] = [];
  const gCount: number[] = [];
  let total = 0;
  let freeTasks = 0;
  for (let i = 0; i < jobs.length; i++) {
    const { tasks, cpuNeed, mem, hosts: on } = jobs[i];
    if (tasks === 0) continue;
    for (let k = 0; k < tasks; k++) total += cpuNeed;
    if (on) {
      for (let k = 0; k < tasks; k++) {
        const h = on[k];
        if (!Number.isInteger(h) || h < 0 || h >= hosts) {
          throw new InputError(`${src}: jobs[${i}].hosts[${k}] must be a host index in 0..${hosts - 1}, got ${h}`, { source: src, field: `jobs[${i}].hosts[${k}]` });
        }
        pinnedNeed[h] += cpuNeed;
        pinnedMem[h] += mem;
      }
      continue;
    }
    const g = gCount.length - 1;
    if (g >= 0 && cpuNeed === gNeed[g] && mem === gMem[g]) gCount[g] += tasks;
    else {
      gNeed.push(cpuNeed);
      gMem.push(mem);
      gCount.push(tasks);
    }
    freeTasks += tasks;
  }
  for (let h = 0; h < hosts; h++) if (pinnedMem[h] > 1 + CAPACITY_EPSILON) return null;
  const ub = total <= hosts ? 1 : hosts / total;
  const found = searchYield({ gNeed, gMem, gCount, freeTasks, pinnedNeed, pinnedMem, hosts, ub }, variant, tolerance, options.probeUpperBound ?? true);
  if (!found) return null;
  const { best, bestY, packings } = found;

  // Every task's host, and the load per host summed in task order (placementMinYield).
  const placement = new Int32Array(n);
  const load = (work.load = grownFloat(work.load, hosts));
  load.fill(0, 0, hosts);
  let maxLoad = 0;
  for (let i = 0, t = 0, f = 0; i < jobs.length; i++) {
    const { tasks, cpuNeed, hosts: on } = jobs[i];
    for (let k = 0; k < tasks; k++, t++) {
      const h = on ? on[k] : best[f++];
      placement[t] = h;
      load[h] += cpuNeed;
    }
  }
  for (let h = 0; h < hosts; h++) if (load[h] > maxLoad) maxLoad = load[h];
  const result = { yield: maxLoad <= 1 ? 1 : 1 / maxLoad, searchedYield: bestY, placement, packings };
  if (invariantChecksEnabled()) {
    const tasks = tasksOfJobs(jobs.map((j) => ({ cpuNeed: j.cpuNeed, mem: j.mem, tasks: j.tasks })).filter((j) => j.tasks > 0));
    verifyYieldPlacement(tasks, placement, hosts, bestY);
    verifyYieldPlacement(tasks, placement, hosts, result.yield);
  }
  return result;
}

/** Expand jobs {cpuNeed, mem, tasks} into one YieldTask per task, jobs kept in order. */
export function tasksOfJobs(jobs: readonly { cpuNeed: number; mem: number; tasks: number }[]): YieldTask[] {
  const out: YieldTask[] = [];
  jobs.forEach((j, jobIndex) => {
    if (!Number.isInteger(j.tasks) || j.tasks < 1) {
      throw new InputError(`tasksOfJobs: jobs[${jobIndex}].tasks must be a positive integer, got ${j.tasks}`, { source: 'tasksOfJobs', field: `jobs[${jobIndex}].tasks` });
    }
    for (let k = 0; k < j.tasks; k++) out.push({ job: jobIndex, cpuNeed: j.cpuNeed, mem: j.mem });
  });
  return out;
}
