/**
 * Task mapping for DFRS (paper sections 4.1-4.3, 4.7): job priorities, the
 * greedy mappers (Greedy, GreedyP, GreedyPM) and the global vector-packing
 * mappers (MCB8, MCB8-stretch).
 *
 * MCB8 itself (the packing heuristic and the binary search on the yield) is
 * the shared implementation in src/schedulers/packing; this file only decides
 * which jobs are offered to it, which tasks keep their node (minvt/minft) and
 * which jobs are dropped when nothing fits.
 */
import { CAPACITY_EPSILON, McbVariant, maximizeMinYieldOfJobs, packGroups, packsMemoryOnly, YieldJob, YieldJobsResult } from '../packing';
import { yieldForInverseStretch } from './allocation';
import { grownFloat, grownInt } from '../../util/arrays';
import { InputError } from '../../util/errors';
import { InvariantError } from '../../util/invariants';

/** What the mappers know about a job in the system at a decision time. */
export interface ActiveJob {
  /** Submission order (0-based); breaks priority ties, earlier first. */
  order: number;
  tasks: number;
  /** CPU need of one task (fraction of a node). */
  need: number;
  /** Memory requirement of one task (fraction of a node). */
  mem: number;
  /** Flow time: time since submission, seconds. */
  flowTime: number;
  /** Virtual time: integral of the job's yield since submission, seconds. */
  virtualTime: number;
  /** Node of each task when running, null when waiting (never started or paused). */
  nodes: Int32Array | null;
  /** Priority at this decision, set by the simulator from its policy (default: `jobPriority`). */
  priority?: number;
}

/** Memory used and CPU load (sum of CPU needs) per node. */
export interface NodeUsage {
  mem: Float64Array;
  load: Float64Array;
}

const EPS = CAPACITY_EPSILON;

/**
 * Job priority (section 4.1): flow time / virtual time². A job that has never
 * received CPU (virtual time 0) has infinite priority.
 */
export function jobPriority(flowTime: number, virtualTime: number): number {
  return virtualTime > 0 ? flowTime / (virtualTime * virtualTime) : Infinity;
}

/** Comparator: higher priority first, ties by submission order (earlier first). */
export function byPriority(a: ActiveJob, b: ActiveJob): number {
  const pa = a.priority ?? jobPriority(a.flowTime, a.virtualTime);
  const pb = b.priority ?? jobPriority(b.flowTime, b.virtualTime);
  if (pa !== pb) return pa > pb ? -1 : 1;
  return a.order - b.order;
}

/** sortedByPriority's keys and marks, reused from call to call, and its last answer. */
let priorityKeys: Float64Array = new Float64Array(0);
let priorityOrder: Float64Array = new Float64Array(0);
let positionOf: Int32Array = new Int32Array(0);
let previousSorted: readonly ActiveJob[] = [];

/**
 * The jobs sorted by `byPriority` (a new array). With every priority a number
 * (not NaN) that order is strict and total, so any sort gives it: the
 * priorities are read once and the sort compares numbers, not jobs, starting
 * from the last call's order (the jobs still there, then the new ones).
 * Priorities change little from one decision to the next, so that start is
 * nearly sorted and the (adaptive) sort makes about one pass instead of
 * n log n comparisons. A policy's NaN priority: sorted by `byPriority` itself.
 */
export function sortedByPriority(jobs: readonly ActiveJob[]): ActiveJob[] {
  const n = jobs.length;
  priorityKeys = grownFloat(priorityKeys, n);
  priorityOrder = grownFloat(priorityOrder, n);
  const key = priorityKeys;
  const order = priorityOrder;
  for (let i = 0; i < n; i++) {
    const j = jobs[i];
    const p = j.priority ?? jobPriority(j.flowTime, j.virtualTime);
    if (Number.isNaN(p)) return (previousSorted = [...jobs].sort(byPriority));
    key[i] = p;
    order[i] = j.order;
  }
  const index = sortByPriorityKeys(startingOrder(jobs), n, key, order);
  const out: ActiveJob[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = jobs[index[i]];
  return (previousSorted = out);
}

let mergeBuffer: Int32Array = new Int32Array(0);

/**
 * Sort `index[0 .. n-1]` by key descending, then order ascending (a strict
 * total order: keys are not NaN, orders distinct): a natural merge sort, so a
 * nearly sorted start (a few long runs) costs about one pass; the comparisons
 * are inline. Returns the sorted array (`index` or the merge buffer).
 */
function sortByPriorityKeys(index: Int32Array, n: number, key: Float64Array, order: Float64Array): Int32Array {
  mergeBuffer = grownInt(mergeBuffer, n);
  let from = index;
  let to = mergeBuffer;
  // Each pass halves the runs: more than 53 passes would mean a broken order.
  for (let pass = 0; pass < 64; pass++) {
    // Merge each pair of consecutive runs of `from` into `to`.
    let runs = 0;
    let i = 0;
    while (i < n) {
      let mid = i + 1;
      while (mid < n && !(key[from[mid]] > key[from[mid - 1]] || (key[from[mid]] === key[from[mid - 1]] && order[from[mid]] < order[from[mid - 1]]))) mid++;
      let end = mid;
      if (end < n) {
        end++;
        while (end < n && !(key[from[end]] > key[from[end - 1]] || (key[from[end]] === key[from[end - 1]] && order[from[end]] < order[from[end - 1]]))) end++;
      }
      runs++;
      let a = i;
      let b = mid;
      let k = i;
      while (a < mid && b < end) {
        const x = from[a];
        const y = from[b];
        // y first when it sorts before x.
        if (key[y] > key[x] || (key[y] === key[x] && order[y] < order[x])) {
          to[k++] = y;
          b++;
        } else {
          to[k++] = x;
          a++;
        }
      }
      while (a < mid) to[k++] = from[a++];
      while (b < end) to[k++] = from[b++];
      i = end;
    }
    const t = from;
    from = to;
    to = t;
    if (runs <= 1) return from;
  }
  throw new InvariantError('dfrs/priority-sort', `the priority order did not settle on ${n} jobs`);
}

let startBuffer: Int32Array = new Int32Array(0);

/**
 * Indices of `jobs` in the last sorted order (those still there), then the
 * others in their order. Jobs are found by their `order` when the list is the
 * engine's (`orderSpan`; else: the list's own order).
 */
function startingOrder(jobs: readonly ActiveJob[]): Int32Array {
  const n = jobs.length;
  const index = (startBuffer = grownInt(startBuffer, n));
  let filled = 0;
  const span = orderSpan(jobs);
  if (span < 0) {
    for (let i = 0; i < n; i++) index[i] = i;
    return index;
  }
  const first = n > 0 ? jobs[0].order : 0;
  if (positionOf.length < span) positionOf = new Int32Array(Math.max(span, 2 * positionOf.length));
  for (let i = 0; i < n; i++) positionOf[jobs[i].order - first] = i + 1;
  for (const j of previousSorted) {
    const at = j.order - first;
    if (!(at >= 0 && at < span)) continue;
    const i = positionOf[at] - 1;
    // The same job (not one of another run with the same order), not taken yet.
    if (i >= 0 && jobs[i] === j) {
      index[filled++] = i;
      positionOf[at] = 0;
    }
  }
  for (let i = 0; i < n; i++) {
    const at = jobs[i].order - first;
    if (positionOf[at] !== 0) {
      index[filled++] = i;
      positionOf[at] = 0;
    }
  }
  return index;
}

/**
 * The span of the jobs' orders (last - first + 1, at most 1e7) when they are
 * listed by increasing integer order, as the engine lists the jobs in the
 * system; -1 otherwise. Then a job's order minus the first one indexes an array.
 */
function orderSpan(jobs: readonly ActiveJob[]): number {
  const n = jobs.length;
  if (n === 0) return 0;
  const first = jobs[0].order;
  const span = jobs[n - 1].order - first + 1;
  if (!Number.isInteger(first) || !(span <= 1e7)) return -1;
  for (let i = 1; i < n; i++) if (!(jobs[i].order > jobs[i - 1].order && Number.isInteger(jobs[i].order))) return -1;
  return span;
}

/** Node usage of a set of running jobs. */
export function usageOf(jobs: Iterable<ActiveJob>, nodeCount: number): NodeUsage {
  const u: NodeUsage = { mem: new Float64Array(nodeCount), load: new Float64Array(nodeCount) };
  for (const j of jobs) if (j.nodes) addTasks(u, j, j.nodes, 1);
  return u;
}

function addTasks(u: NodeUsage, j: ActiveJob, nodes: ArrayLike<number>, sign: 1 | -1): void {
  for (let k = 0; k < nodes.length; k++) {
    u.mem[nodes[k]] += sign * j.mem;
    u.load[nodes[k]] += sign * j.need;
  }
}

/**
 * How many tasks of memory `mem` (> 0) fit in the free memory of the nodes:
 * the count `fitsInMemory` compares with the number of tasks (there it stops
 * once it has enough), so `fitsInMemory(tasks, mem, memUsed)` is
 * `memoryRoom(mem, memUsed) >= tasks`.
 */
export function memoryRoom(mem: number, memUsed: ArrayLike<number>): number {
  let room = 0;
  for (let i = 0; i < memUsed.length; i++) {
    const free = 1 - memUsed[i];
    if (free + EPS >= mem) room += Math.floor((free + EPS) / mem);
  }
  return room;
}

/** Can all tasks of a job fit in memory given the memory already used per node? */
export function fitsInMemory(tasks: number, mem: number, memUsed: ArrayLike<number>): boolean {
  let room = 0;
  for (let i = 0; i < memUsed.length && room < tasks; i++) {
    const free = 1 - memUsed[i];
    if (mem <= 0) return true;
    if (free + EPS >= mem) room += Math.floor((free + EPS) / mem);
  }
  return room >= tasks;
}

/**
 * Greedy (section 4.2): put each task, one at a time, on the node with the
 * lowest CPU load among the nodes with enough free memory (ties: lowest node
 * index). Updates `usage` and returns the nodes when all tasks fit; returns
 * null and leaves `usage` unchanged otherwise.
 */
export function greedyPlace(job: ActiveJob, usage: NodeUsage): Int32Array | null {
  if (!fitsInMemory(job.tasks, job.mem, usage.mem)) return null;
  const n = usage.mem.length;
  if (job.tasks >= 4) return greedyPlaceByHeap(job, usage);
  const nodes = new Int32Array(job.tasks);
  for (let k = 0; k < job.tasks; k++) {
    let best = -1;
    for (let i = 0; i < n; i++) {
      if (usage.mem[i] + job.mem <= 1 + EPS && (best < 0 || usage.load[i] < usage.load[best])) best = i;
    }
    if (best < 0) {
      // Unreachable after fitsInMemory; undo to keep the contract anyway.
      addTasks(usage, job, nodes.subarray(0, k), -1);
      return null;
    }
    nodes[k] = best;
    usage.mem[best] += job.mem;
    usage.load[best] += job.need;
  }
  return nodes;
}

/**
 * greedyPlace for a job of several tasks (after its memory check): the same
 * choices, from a binary heap of the nodes with room for a task, ordered by
 * load then index (the node the scan picks: the first of the least loaded).
 * Placing a task only changes its node, which moves down the heap or leaves
 * it when its memory is full: O(nodes + tasks × log nodes) instead of
 * O(tasks × nodes).
 */
function greedyPlaceByHeap(job: ActiveJob, usage: NodeUsage): Int32Array | null {
  const { mem, load } = usage;
  const n = mem.length;
  const nodes = new Int32Array(job.tasks);
  const heap = new Int32Array(n);
  let size = 0;
  for (let i = 0; i < n; i++) if (mem[i] + job.mem <= 1 + EPS) heap[size++] = i;
  const before = (a: number, b: number) => load[a] < load[b] || (!(load[b] < load[a]) && a < b);
  const down = (p: number) => {
    const x = heap[p];
    for (;;) {
      let c = 2 * p + 1;
      if (c >= size) break;
      if (c + 1 < size && before(heap[c + 1], heap[c])) c++;
      if (!before(heap[c], x)) break;
      heap[p] = heap[c];
      p = c;
    }
    heap[p] = x;
  };
  for (let p = (size >> 1) - 1; p >= 0; p--) down(p);
  for (let k = 0; k < job.tasks; k++) {
    if (size === 0) {
      // Unreachable after fitsInMemory; undo to keep the contract anyway.
      addTasks(usage, job, nodes.subarray(0, k), -1);
      return null;
    }
    const best = heap[0];
    nodes[k] = best;
    mem[best] += job.mem;
    load[best] += job.need;
    if (!(mem[best] + job.mem <= 1 + EPS)) heap[0] = heap[--size];
    down(0);
  }
  return nodes;
}

/** The outcome of GreedyP / GreedyPM for one incoming job. */
export interface PreemptiveGreedyResult {
  /** Nodes of the incoming job, or null when it cannot start even with every running job paused. */
  placed: Int32Array | null;
  /** Running jobs to pause. */
  paused: ActiveJob[];
  /** Running jobs moved elsewhere (GreedyPM), with their new nodes. */
  moved: Map<ActiveJob, Int32Array>;
}

/**
 * GreedyP / GreedyPM (section 4.2) for an incoming job.
 *
 * GreedyP: when Greedy cannot place the job, go through the running jobs by
 * increasing priority, marking them until the job would fit if all marked jobs
 * were paused; then go back through the marked jobs by decreasing priority and
 * un-mark each one that can stay (the job still fits with it running). The
 * remaining marked jobs are paused and the job is placed with Greedy.
 *
 * GreedyPM (`migrate`): the jobs still marked are then, by decreasing
 * priority, re-placed with Greedy on what is left instead of being paused when
 * they fit (a move); the others are paused.
 *
 * `usage` must describe `running` and is updated to the result. Running jobs
 * for which `kept` is true are never marked (they neither pause nor move):
 * minvt/minft protecting young jobs from preemption (`limitProtects`).
 */
export function preemptiveGreedy(
  job: ActiveJob,
  running: readonly ActiveJob[],
  usage: NodeUsage,
  migrate: boolean,
  kept?: (j: ActiveJob) => boolean,
): PreemptiveGreedyResult {
  const direct = greedyPlace(job, usage);
  if (direct) return { placed: direct, paused: [], moved: new Map() };

  const candidates = kept ? running.filter((r) => !kept(r)) : running;
  const ascending = [...candidates].sort(byPriority).reverse(); // lowest priority first
  const mem = Float64Array.from(usage.mem);
  const marked: ActiveJob[] = [];
  for (const r of ascending) {
    if (fitsInMemory(job.tasks, job.mem, mem)) break;
    marked.push(r);
    for (let k = 0; k < r.tasks; k++) mem[(r.nodes as Int32Array)[k]] -= r.mem;
  }
  if (!fitsInMemory(job.tasks, job.mem, mem)) return { placed: null, paused: [], moved: new Map() };

  // Un-mark, by decreasing priority, the jobs that can keep running.
  const stillMarked: ActiveJob[] = [];
  for (let m = marked.length - 1; m >= 0; m--) {
    const r = marked[m];
    const nodes = r.nodes as Int32Array;
    for (let k = 0; k < r.tasks; k++) mem[nodes[k]] += r.mem;
    if (!fitsInMemory(job.tasks, job.mem, mem)) {
      for (let k = 0; k < r.tasks; k++) mem[nodes[k]] -= r.mem;
      stillMarked.push(r); // in decreasing priority order
    }
  }

  for (const r of stillMarked) addTasks(usage, r, r.nodes as Int32Array, -1);
  const placed = greedyPlace(job, usage);
  if (!placed) throw new InvariantError('dfrs/greedy', 'preemptiveGreedy: the job does not fit after pausing the marked jobs');

  const paused: ActiveJob[] = [];
  const moved = new Map<ActiveJob, Int32Array>();
  for (const r of stillMarked) {
    const nodes = migrate ? greedyPlace(r, usage) : null;
    if (nodes) moved.set(r, nodes);
    else paused.push(r);
  }
  return { placed, paused, moved };
}

/** What minvt/minft protects a young running job from (see GlobalMappingOptions.limitProtects). */
export type LimitProtection = 'migration' | 'preemption' | 'both';
/** How MCB8 chooses the jobs left out when not all fit (see GlobalMappingOptions.dropRule). */
export type DropRule = 'lowest-priority' | 'skip';

/** Options of the global mappers. */
export interface GlobalMappingOptions {
  nodeCount: number;
  /** Running jobs below this bound keep their nodes if they keep running (minvt / minft). */
  limit?: { kind: 'minvt' | 'minft'; seconds: number };
  /**
   * What minvt/minft protects a running job under the bound from (default
   * 'migration'). The paper (section 4.3): such jobs "may be paused in order
   * to run higher priority jobs, but, if they continue running, their current
   * node mapping must be maintained" — protection from migration only. The
   * other readings are for sensitivity studies: 'preemption' (never dropped
   * while under the bound, but may move) and 'both'. With either, GreedyP and
   * GreedyPM of the same algorithm do not pause (or move) such a job for an
   * arriving one either (issue 25: the short jobs paused seconds after their
   * start that hold the synthetic maxima).
   */
  limitProtects?: LimitProtection;
  /**
   * Which jobs wait when not all jobs fit in memory (default 'lowest-priority').
   * 'lowest-priority' is the paper's rule (section 4.3): "removes the lowest
   * priority job from consideration and tries again", so a job waits whenever
   * any higher-priority job it cannot share the nodes with is kept, even if it
   * would fit beside all the others. 'skip' (not in the paper, for sensitivity
   * studies): go through the jobs by decreasing priority and keep each one that
   * still fits beside those already kept.
   */
  dropRule?: DropRule;
  /** MCB variant (default 8). */
  variant?: McbVariant;
  /** Binary-search accuracy (default 0.01, as in the paper). */
  tolerance?: number;
}

/** The outcome of MCB8 / MCB8-stretch: the jobs that run and where; all others wait. */
export interface GlobalMappingResult {
  /** Nodes of every job that runs after the decision. */
  mapping: Map<ActiveJob, Int32Array>;
  /** Jobs offered to the packer (all jobs in the system). */
  considered: number;
  /** Jobs dropped (lowest priority first) because nothing fitted. */
  dropped: number;
  /** Yield (MCB8) or inverse stretch (MCB8-stretch) reached by the search. */
  level: number;
}

/** Whether a running job's nodes are `placement[from ..]` (then its array is kept: nothing changes it). */
function sameNodes(nodes: Int32Array | null, placement: Int32Array, from: number): boolean {
  if (!nodes) return false;
  for (let k = 0; k < nodes.length; k++) if (nodes[k] !== placement[from + k]) return false;
  return true;
}

function bySubmission(jobs: ActiveJob[]): ActiveJob[] {
  return jobs.sort((a, b) => a.order - b.order);
}

/** Marks of `keptInOrder`, indexed by order minus the lowest order; a job is marked when its entry equals `markEpoch`. */
let marks = new Int32Array(0);
let markEpoch = 0;

/**
 * The first `keep` jobs of `chosen` (a subset of `all`) by submission order:
 * bySubmission(chosen.slice(0, keep)). When `all` is listed by increasing
 * (integer) order, as the engine lists the jobs in the system, that is `all`
 * filtered to the chosen ones, O(n) instead of a sort; otherwise the sort.
 */
function keptInOrder(all: readonly ActiveJob[], chosen: readonly ActiveJob[], keep: number): ActiveJob[] {
  const n = all.length;
  const span = orderSpan(all);
  if (span < 0) return bySubmission(chosen.slice(0, keep));
  const first = n > 0 ? all[0].order : 0;
  if (marks.length < span) marks = new Int32Array(Math.max(span, 2 * marks.length));
  if (++markEpoch === 2 ** 31 - 1) {
    marks.fill(0);
    markEpoch = 1;
  }
  for (let k = 0; k < keep; k++) marks[chosen[k].order - first] = markEpoch;
  const kept: ActiveJob[] = [];
  for (let i = 0; i < n; i++) if (marks[all[i].order - first] === markEpoch) kept.push(all[i]);
  return kept;
}

/** A running job under the minvt/minft bound. */
export function isYoung(j: ActiveJob, limit: GlobalMappingOptions['limit']): boolean {
  if (!limit || !j.nodes) return false;
  return (limit.kind === 'minvt' ? j.virtualTime : j.flowTime) < limit.seconds;
}

/** What selectJobs returns: the jobs MCB8 tries to run, in priority order unless `byPriority` is false (then all jobs, as listed). */
interface Selection {
  selected: ActiveJob[];
  pinned: (j: ActiveJob) => boolean;
  byPriority: boolean;
}

/** The selection in priority order when fewer than all of it are kept (sorted then, once): the list keptInOrder takes `keep` jobs from. */
function selectionFor(selection: Selection, jobs: readonly ActiveJob[], keep: number): ActiveJob[] {
  if (!selection.byPriority && keep < selection.selected.length) {
    selection.selected = sortedByPriority(jobs);
    selection.byPriority = true;
  }
  return selection.selected;
}

/**
 * The jobs MCB8 tries to run, by decreasing priority (jobs protected from
 * preemption first), and which of them keep their nodes; when every job fits
 * in memory (allFitInMemory), all of them as listed, unsorted (selectionFor
 * sorts them if one must be dropped after all).
 */
function selectJobs(jobs: readonly ActiveJob[], options: GlobalMappingOptions): Selection {
  const protects = options.limitProtects ?? 'migration';
  const dropRule = options.dropRule ?? 'lowest-priority';
  if (protects !== 'migration' && protects !== 'preemption' && protects !== 'both') {
    throw new InputError(`MCB8: limitProtects must be 'migration', 'preemption' or 'both', got ${String(protects)}`, { source: 'MCB8', field: 'limitProtects' });
  }
  if (dropRule !== 'lowest-priority' && dropRule !== 'skip') {
    throw new InputError(`MCB8: dropRule must be 'lowest-priority' or 'skip', got ${String(dropRule)}`, { source: 'MCB8', field: 'dropRule' });
  }
  const young = (j: ActiveJob) => isYoung(j, options.limit);
  const pinned = protects === 'preemption' ? () => false : young;
  // Every job kept: the order only matters if one must be dropped later (mcb8Mapping sorts then).
  if (protects === 'migration' && dropRule === 'lowest-priority' && allFitInMemory(jobs, pinned, options.nodeCount)) return { selected: [...jobs], pinned, byPriority: false };
  let sorted = sortedByPriority(jobs);
  // Jobs protected from preemption are never the ones dropped. They all run
  // now, so they fit together (pinned ones exactly where they are).
  if (protects !== 'migration') sorted = [...sorted.filter(young), ...sorted.filter((j) => !young(j))];
  const keep = longestMemoryFeasiblePrefix(sorted, pinned, options.nodeCount);
  const selected = sorted.slice(0, keep);
  if (dropRule === 'skip') {
    let memory = selected.reduce((a, j) => a + j.tasks * j.mem, 0);
    for (const j of sorted.slice(keep)) {
      const m = j.tasks * j.mem;
      if (memory + m > options.nodeCount + EPS) continue; // cannot fit whatever the packing
      const trial = [...selected, j];
      if (longestMemoryFeasiblePrefix(trial, pinned, options.nodeCount) === trial.length) {
        selected.push(j);
        memory += m;
      }
    }
  }
  return { selected, pinned, byPriority: true };
}

/**
 * Whether longestMemoryFeasiblePrefix keeps every job of the list sorted by
 * priority, found without sorting it. Its answer is every job when the
 * memory summed in priority order stays within the nodes and the memory-only
 * packing of all jobs succeeds. That packing's outcome depends only on the
 * sizes of the free tasks (equal sizes are interchangeable, whatever group
 * they come from) and on the pinned memory per node, summed in priority
 * order: so the pinned jobs alone are sorted. The memory total is taken in
 * list order and must be under the bound by a margin far above what the
 * order of a float sum can change; jobs listed by increasing integer order
 * (as the engine lists them), no NaN priority. Otherwise: false, and the
 * caller sorts.
 */
function allFitInMemory(jobs: readonly ActiveJob[], pinned: (j: ActiveJob) => boolean, nodeCount: number): boolean {
  const n = jobs.length;
  if (n === 0 || orderSpan(jobs) < 0) return false;
  let total = 0;
  const pinnedJobs: ActiveJob[] = [];
  const freeJobs: ActiveJob[] = [];
  for (const j of jobs) {
    if (Number.isNaN(j.priority ?? jobPriority(j.flowTime, j.virtualTime))) return false;
    total += j.tasks * j.mem;
    (pinned(j) ? pinnedJobs : freeJobs).push(j);
  }
  if (!(total <= nodeCount + EPS - 1e-9)) return false;
  // The pinned jobs by priority (their memory summed in that order), then the free ones as listed.
  if (pinnedJobs.length > 1) pinnedJobs.sort(byPriority);
  const isPinned = new Uint8Array(n);
  isPinned.fill(1, 0, pinnedJobs.length);
  return memoryPrefixFits([...pinnedJobs, ...freeJobs], n, isPinned, nodeCount);
}

/** longestMemoryFeasiblePrefix's working arrays, reused from call to call (it calls no user code). */
const prefixWork: Record<'gMem' | 'preMem', Float64Array> & { gCount: Int32Array } = {
  gMem: new Float64Array(0),
  preMem: new Float64Array(0),
  gCount: new Int32Array(0),
};

function prefixWorkspace(jobs: number, nodeCount: number) {
  const w = prefixWork;
  w.gMem = grownFloat(w.gMem, jobs);
  w.gCount = grownInt(w.gCount, jobs);
  w.preMem = grownFloat(w.preMem, nodeCount);
  return w;
}

/**
 * Whether the first k jobs of `list` fit in memory (CPU requirement 0): the
 * pinned ones (isPinned[i]) on their nodes, memory summed in list order, and
 * the free ones packed by MCB8 as groups of equal tasks, as packArrays would
 * form them from the tasks listed one by one (consecutive free jobs with the
 * same memory are one group).
 */
function memoryPrefixFits(list: readonly ActiveJob[], k: number, isPinned: Uint8Array, nodeCount: number): boolean {
  const { gMem, gCount, preMem } = prefixWorkspace(k, nodeCount);
  preMem.fill(0, 0, nodeCount);
  for (let i = 0; i < k; i++) {
    const j = list[i];
    if (isPinned[i]) for (let t = 0; t < j.tasks; t++) preMem[(j.nodes as Int32Array)[t]] += j.mem;
  }
  for (let i = 0; i < nodeCount; i++) if (preMem[i] > 1 + EPS) return false;
  let groups = 0;
  for (let i = 0; i < k; i++) {
    const j = list[i];
    if (isPinned[i] || j.tasks === 0) continue;
    if (groups > 0 && gMem[groups - 1] === j.mem) gCount[groups - 1] += j.tasks;
    else {
      gMem[groups] = j.mem;
      gCount[groups++] = j.tasks;
    }
  }
  return packsMemoryOnly(gMem.subarray(0, groups), gCount.subarray(0, groups), nodeCount, preMem);
}

/**
 * Drop lowest-priority jobs until the memory-only packing (CPU requirement 0,
 * i.e. "some yield") of the remaining prefix succeeds. Returns the prefix length.
 *
 * The paper drops one job at a time. To keep this fast with hundreds of waiting
 * jobs we start from the longest prefix whose total memory fits in the nodes
 * (a necessary condition), gallop (drop 1, 2, 4, ... more jobs) and then bisect
 * between the last failing and the first fitting prefix; this finds the same
 * prefix as one-at-a-time dropping whenever feasibility is monotone in the
 * prefix length (it nearly always is).
 */
function longestMemoryFeasiblePrefix(sorted: readonly ActiveJob[], pinned: (j: ActiveJob) => boolean, nodeCount: number): number {
  const n = sorted.length;
  const isPinned = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (pinned(sorted[i])) isPinned[i] = 1;
  const fits = (k: number): boolean => memoryPrefixFits(sorted, k, isPinned, nodeCount);
  // Necessary condition: total memory of the prefix at most the number of nodes.
  let upper = 0;
  let total = 0;
  while (upper < n && total + sorted[upper].tasks * sorted[upper].mem <= nodeCount + EPS) {
    total += sorted[upper].tasks * sorted[upper].mem;
    upper++;
  }
  if (upper === 0) return 0;
  if (fits(upper)) {
    if (upper === n) return n;
    // Longer prefixes are impossible by the memory total; `upper` is the answer.
    return upper;
  }
  let bad = upper;
  let step = 1;
  let good = -1;
  while (good < 0) {
    const k = Math.max(0, bad - step);
    if (k === 0 || fits(k)) good = k;
    else {
      bad = k;
      step *= 2;
    }
  }
  while (bad - good > 1) {
    const mid = (good + bad) >> 1;
    if (fits(mid)) good = mid;
    else bad = mid;
  }
  return good;
}

/**
 * The last MCB8 search: a copy of its input (per job: tasks, CPU need and
 * memory; the hosts of pinned jobs one after the other) and its answer. The
 * search is a function of its input, which often comes back unchanged (a
 * tick with no submission, completion or job leaving the minvt/minft
 * protection since the last one): then its answer is reused. The answer is
 * only read: the jobs' nodes are views of its placement.
 */
const lastSearch: {
  valid: boolean;
  count: number;
  nodeCount: number;
  variant: McbVariant;
  tolerance: number;
  tasks: Int32Array;
  need: Float64Array;
  mem: Float64Array;
  pinned: Uint8Array;
  hosts: Int32Array;
  result: YieldJobsResult | null;
} = {
  valid: false,
  count: 0,
  nodeCount: 0,
  variant: 8,
  tolerance: 0,
  tasks: new Int32Array(0),
  need: new Float64Array(0),
  mem: new Float64Array(0),
  /** Whether each job was pinned; the pinned jobs' hosts, job after job, in `hosts`. */
  pinned: new Uint8Array(0),
  hosts: new Int32Array(0),
  result: null,
};

function sameSearch(jobs: readonly YieldJob[], nodeCount: number, variant: McbVariant, tolerance: number): boolean {
  const last = lastSearch;
  if (!last.valid || last.nodeCount !== nodeCount || last.variant !== variant || last.tolerance !== tolerance || last.count !== jobs.length) return false;
  let h = 0;
  for (let i = 0; i < jobs.length; i++) {
    const a = jobs[i];
    if (a.tasks !== last.tasks[i] || a.cpuNeed !== last.need[i] || a.mem !== last.mem[i] || (a.hosts !== null) !== (last.pinned[i] === 1)) return false;
    if (a.hosts !== null) for (let k = 0; k < a.tasks; k++) if (a.hosts[k] !== last.hosts[h++]) return false;
  }
  return true;
}

/** maximizeMinYieldOfJobs, or the last search's answer when the input is the same. */
function mcb8Search(jobs: readonly YieldJob[], nodeCount: number, variant: McbVariant, tolerance: number): YieldJobsResult | null {
  const last = lastSearch;
  if (sameSearch(jobs, nodeCount, variant, tolerance)) return last.result;
  const n = jobs.length;
  let pinnedTasks = 0;
  for (const j of jobs) if (j.hosts !== null) pinnedTasks += j.tasks;
  // Invalid while it is rewritten (a search that throws leaves no stale answer).
  last.valid = false;
  last.result = maximizeMinYieldOfJobs(jobs, nodeCount, { variant, tolerance });
  last.tasks = grownInt(last.tasks, n);
  last.need = grownFloat(last.need, n);
  last.mem = grownFloat(last.mem, n);
  if (last.pinned.length < n) last.pinned = new Uint8Array(Math.max(n, 2 * last.pinned.length));
  last.hosts = grownInt(last.hosts, pinnedTasks);
  let h = 0;
  for (let i = 0; i < n; i++) {
    const j = jobs[i];
    last.tasks[i] = j.tasks;
    last.need[i] = j.cpuNeed;
    last.mem[i] = j.mem;
    last.pinned[i] = j.hosts !== null ? 1 : 0;
    if (j.hosts !== null) for (let k = 0; k < j.tasks; k++) last.hosts[h++] = j.hosts[k];
  }
  last.count = n;
  last.nodeCount = nodeCount;
  last.variant = variant;
  last.tolerance = tolerance;
  last.valid = true;
  return last.result;
}

/**
 * MCB8 (section 4.3): map all jobs in the system from scratch by vector
 * packing with a binary search on the common yield (the shared
 * `maximizeMinYield`, in its job-level form `maximizeMinYieldOfJobs`); jobs
 * are listed by decreasing priority and, when no yield fits, the
 * lowest-priority job is dropped and the search repeated.
 * With minvt/minft, running jobs under the bound that stay keep their nodes.
 */
export function mcb8Mapping(jobs: readonly ActiveJob[], options: GlobalMappingOptions): GlobalMappingResult {
  const { nodeCount } = options;
  const selection = selectJobs(jobs, options);
  const { pinned } = selection;
  let keep = selection.selected.length;
  let dropped = jobs.length - keep;
  for (; keep > 0; keep--, dropped++) {
    // Priority decides who is dropped; the packer sees the kept jobs in
    // submission order, so that repacking an unchanged set gives the same
    // mapping (the paper: MCB8 "always considers the tasks and the nodes in
    // the same order"; listing by priority, which changes all the time, would
    // reshuffle equal-sized jobs at every call and cause needless migrations).
    const kept = keptInOrder(jobs, selectionFor(selection, jobs, keep), keep);
    // The jobs' tasks one after the other, a pinned job's on its nodes.
    const yieldJobs: YieldJob[] = kept.map((j) => ({ tasks: j.tasks, cpuNeed: j.need, mem: j.mem, hosts: pinned(j) ? j.nodes : null }));
    const res = mcb8Search(yieldJobs, nodeCount, options.variant ?? 8, options.tolerance ?? 0.01);
    if (!res) continue;
    const mapping = new Map<ActiveJob, Int32Array>();
    const placement = res.placement;
    let t = 0;
    for (const j of kept) {
      // A view: the placement is never written (a repeated search returns it again).
      mapping.set(j, sameNodes(j.nodes, placement, t) ? (j.nodes as Int32Array) : placement.subarray(t, t + j.tasks));
      t += j.tasks;
    }
    return { mapping, considered: jobs.length, dropped, level: res.yield };
  }
  return { mapping: new Map(), considered: jobs.length, dropped: jobs.length, level: 0 };
}

/**
 * MCB8-stretch (section 4.7): like MCB8, but the binary search is on the
 * inverse s of the estimated maximum stretch at the next scheduling event,
 * (ft + T) / (vt + y T); for a target s each job needs yield
 * y_j = ((ft_j + T) s − vt_j) / T (clipped at 0; above 1 the target is infeasible),
 * i.e. CPU requirement y_j × need_j, and the shared MCB8 packer is asked to
 * place those vectors. Lowest-priority jobs are dropped when nothing fits.
 */
export function mcb8StretchMapping(
  jobs: readonly ActiveJob[],
  period: number,
  options: GlobalMappingOptions,
): GlobalMappingResult {
  if (!(period > 0)) throw new InputError(`mcb8StretchMapping: period must be > 0, got ${period}`, { source: 'mcb8StretchMapping', field: 'period' });
  const { nodeCount } = options;
  const tolerance = options.tolerance ?? 0.01;
  const variant = options.variant ?? 8;
  const selection = selectJobs(jobs, options);
  const { pinned } = selection;
  let keep = selection.selected.length;
  let dropped = jobs.length - keep;
  for (; keep > 0; keep--, dropped++) {
    const kept = keptInOrder(jobs, selectionFor(selection, jobs, keep), keep); // see mcb8Mapping
    const free = kept.filter((j) => !pinned(j));
    const fixedJobs = kept.filter(pinned);
    // A free job's tasks are one group of equal items for the packer (the same
    // bins as its tasks listed one by one, as packGroups says), sized per attempt.
    const cpu = new Float64Array(free.length);
    const mem = Float64Array.from(free, (j) => j.mem);
    const count = Int32Array.from(free, (j) => j.tasks);
    const preCpu = new Float64Array(nodeCount);
    const preMem = new Float64Array(nodeCount);
    for (const j of fixedJobs) for (let k = 0; k < j.tasks; k++) preMem[(j.nodes as Int32Array)[k]] += j.mem;
    const attempt = (s: number): Int32Array | null => {
      for (let g = 0; g < free.length; g++) {
        const y = yieldForInverseStretch(s, free[g], period);
        if (y > 1 + EPS) return null;
        cpu[g] = Math.max(0, y) * free[g].need;
      }
      preCpu.fill(0);
      for (const j of fixedJobs) {
        const y = yieldForInverseStretch(s, j, period);
        if (y > 1 + EPS) return null;
        for (let k = 0; k < j.tasks; k++) preCpu[(j.nodes as Int32Array)[k]] += Math.max(0, y) * j.need;
      }
      for (let i = 0; i < nodeCount; i++) if (preCpu[i] > 1 + EPS || preMem[i] > 1 + EPS) return null;
      return packGroups(cpu, mem, count, nodeCount, variant, { cpu: preCpu, mem: preMem });
    };
    let best = attempt(0);
    if (!best) continue;
    let lo = 0;
    const top = attempt(1);
    if (top) {
      best = top;
      lo = 1;
    } else {
      let hi = 1;
      while (hi - lo > tolerance) {
        const mid = (lo + hi) / 2;
        const p = attempt(mid);
        if (p) {
          best = p;
          lo = mid;
        } else hi = mid;
      }
    }
    const mapping = new Map<ActiveJob, Int32Array>();
    let t = 0;
    // Views of the packing (a new array per attempt, never written again); pinned jobs keep their array.
    for (const j of free) {
      mapping.set(j, best.subarray(t, t + j.tasks));
      t += j.tasks;
    }
    for (const j of fixedJobs) mapping.set(j, j.nodes as Int32Array);
    return { mapping, considered: jobs.length, dropped, level: lo };
  }
  return { mapping: new Map(), considered: jobs.length, dropped: jobs.length, level: 0 };
}
