/**
 * Multi-capacity (two-dimensional: CPU, memory) vector bin packing, after
 * Leinberger, Karypis & Kumar (ICPP 1999), in the eight variants MCB1..MCB8
 * described by Stillwell et al. ("Resource Allocation using Virtual Clusters",
 * section 3.4) and reused by DFRS ("Dynamic Fractional Resource Scheduling versus
 * Batch Scheduling", section 4.3).
 *
 * Bins (hosts, nodes) all have capacity 1 in both dimensions; item sizes are
 * fractions of a bin. The packing is next-fit over bins and "balance-seeking"
 * within a bin:
 *  1. Items are split into a CPU-intensive list (cpu > mem) and a
 *     memory-intensive list (mem >= cpu), each sorted by the variant's key.
 *  2. Bins are filled one after the other. For the current bin we scan the list
 *     that goes against the bin's current imbalance (more CPU than memory left:
 *     the CPU-intensive list; otherwise the memory-intensive list) for the first
 *     item that fits, falling back to the other list; when no item of either list
 *     fits, we move on to the next bin and never come back.
 *  3. The packing fails when items remain after the last bin.
 */

import { invariantChecksEnabled } from '../../util/invariants';
import { InputError } from '../../util/errors';
import { verifyPacking } from './invariants';

/** One of the eight sort orders MCB1..MCB8. */
export type McbVariant = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

/** A two-dimensional item; both sizes are fractions of a bin's capacity. */
export interface VectorItem {
  cpu: number;
  mem: number;
}

/** Slack used in every capacity comparison so that sums of floats that are exactly 1 fit. */
export const CAPACITY_EPSILON = 1e-9;

/** Human-readable description of each variant's key and order (paper, section 3.4). */
export const MCB_VARIANTS: Record<McbVariant, { key: string; order: 'ascending' | 'descending' }> = {
  1: { key: 'mem + cpu', order: 'ascending' },
  2: { key: 'max - min', order: 'ascending' },
  3: { key: 'max / min', order: 'ascending' },
  4: { key: 'max', order: 'ascending' },
  5: { key: 'mem + cpu', order: 'descending' },
  6: { key: 'max - min', order: 'descending' },
  7: { key: 'max / min', order: 'descending' },
  8: { key: 'max', order: 'descending' },
};

/**
 * The sort key of an item for a variant, oriented so that the list is sorted by
 * *ascending* returned value (descending variants return the negated key).
 * For MCB3/MCB7 the ratio max/min is +Infinity when min is 0 (and 1 when both are 0).
 */
export function mcbSortKey(variant: McbVariant, cpu: number, mem: number): number {
  const hi = cpu > mem ? cpu : mem;
  const lo = cpu > mem ? mem : cpu;
  let key: number;
  switch (variant) {
    case 1:
    case 5:
      key = cpu + mem;
      break;
    case 2:
    case 6:
      key = hi - lo;
      break;
    case 3:
    case 7:
      key = lo > 0 ? hi / lo : hi > 0 ? Infinity : 1;
      break;
    case 4:
    case 8:
      key = hi;
      break;
    default:
      throw new InputError(`mcbSortKey: MCB variant must be an integer in 1..8, got ${variant}`, { source: 'mcbSortKey', field: 'variant' });
  }
  return variant >= 5 ? -key : key;
}

/** Options of the MCB packers: the MCB variant and preloaded bins. */
export interface PackOptions {
  /** Sort order MCB1..MCB8 (default 8). */
  variant?: McbVariant;
  /**
   * Capacity already used in each bin before packing (e.g. tasks pinned to a
   * node). Arrays of length binCount; default all zero.
   */
  preload?: { cpu: ArrayLike<number>; mem: ArrayLike<number> };
}

/** Validate the variant option once, with a clear message. */
export function checkVariant(variant: unknown): McbVariant {
  if (typeof variant !== 'number' || !Number.isInteger(variant) || variant < 1 || variant > 8) {
    throw new InputError(`options.variant must be an integer in 1..8, got ${String(variant)}`, { source: 'options.variant', field: 'variant' });
  }
  return variant as McbVariant;
}

/**
 * Low-level packer on parallel arrays (no allocation of item objects).
 * `cpu[i]`, `mem[i]` are item sizes; returns the bin of each item or null
 * when the heuristic fails.
 */
export function packArrays(
  cpu: ArrayLike<number>,
  mem: ArrayLike<number>,
  binCount: number,
  variant: McbVariant = 8,
  preload?: { cpu: ArrayLike<number>; mem: ArrayLike<number> },
): Int32Array | null {
  const n = cpu.length;
  const gCpu: number[] = [];
  const gMem: number[] = [];
  const gCount: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i > 0 && cpu[i] === cpu[i - 1] && mem[i] === mem[i - 1]) gCount[gCount.length - 1]++;
    else {
      gCpu.push(cpu[i]);
      gMem.push(mem[i]);
      gCount.push(1);
    }
  }
  return packGroups(gCpu, gMem, gCount, binCount, variant, preload);
}

/** packGroups' working arrays, reused from call to call (it calls no user code, so it is never re-entered). */
interface PackWorkspace {
  start: Int32Array;
  keys: Float64Array;
  cpuList: Int32Array;
  memList: Int32Array;
  next: Int32Array;
  nextItem: Int32Array;
  patGroup: Int32Array;
  patUse: Int32Array;
}
let packWorkspace: PackWorkspace | undefined;

function workspace(groups: number): PackWorkspace {
  if (packWorkspace === undefined || packWorkspace.start.length < groups + 1) {
    const size = Math.max(groups + 1, 2 * (packWorkspace?.start.length ?? 32));
    packWorkspace = {
      start: new Int32Array(size),
      keys: new Float64Array(size),
      cpuList: new Int32Array(size),
      memList: new Int32Array(size),
      next: new Int32Array(size),
      nextItem: new Int32Array(size),
      patGroup: new Int32Array(size),
      patUse: new Int32Array(size),
    };
  }
  return packWorkspace;
}

/**
 * Sort `list[0 .. length-1]` (group indices) by ascending key, ties by
 * index. Keys are never NaN and equal infinities tie, so this is a strict
 * total order and every correct sort gives the same list: insertion sort
 * for short lists, Array.prototype.sort otherwise.
 */
function sortByKey(list: Int32Array, length: number, keys: Float64Array): void {
  const before = (a: number, b: number) => (keys[a] - keys[b] || a - b) < 0;
  if (length <= 32) {
    for (let i = 1; i < length; i++) {
      const g = list[i];
      let k = i - 1;
      while (k >= 0 && before(g, list[k])) {
        list[k + 1] = list[k];
        k--;
      }
      list[k + 1] = g;
    }
    return;
  }
  const sorted = Array.from(list.subarray(0, length)).sort((a, b) => keys[a] - keys[b] || a - b);
  list.set(sorted);
}

/**
 * The packer on groups of equal items: group g is `count[g]` items of size
 * (`cpu[g]`, `mem[g]`), items numbered group after group. Returns the bin of
 * each item, or null when the heuristic fails.
 *
 * Same bins as packing the items one by one (`packArrays`): equal
 * consecutive items sit next to each other in the stable sorted lists and
 * are interchangeable, so "the first item that fits" is the next item of the
 * first group that fits. And since a bin's free capacity only shrinks, a
 * group that did not fit stays rejected until the next bin, so each scan
 * resumes after the last rejection. A packing costs O(bins × groups), not
 * O(items² × bins); groups need not be maximal (a job's tasks are one).
 *
 * A bin that starts with the same free capacity as the one before it, when
 * no group ran out in that bin and none runs out in this one, is packed
 * exactly as that bin was (the lists, their heads and the free capacities
 * go through the same states), so it is filled by repeating the previous
 * bin's items without scanning the lists again.
 *
 * `out`, when given with room for every item, receives the placement (the
 * result is `out` or its start): a caller running many packings can reuse
 * its buffers. Its contents are undefined when the packing fails.
 */
export function packGroups(
  cpu: ArrayLike<number>,
  mem: ArrayLike<number>,
  count: ArrayLike<number>,
  binCount: number,
  variant: McbVariant = 8,
  preload?: { cpu: ArrayLike<number>; mem: ArrayLike<number> },
  out?: Int32Array,
): Int32Array | null {
  const groups = cpu.length;
  const w = workspace(groups);
  // start[g]: first item of group g; start[groups]: number of items.
  const start = w.start;
  start[0] = 0;
  for (let g = 0; g < groups; g++) start[g + 1] = start[g] + count[g];
  const n = start[groups];
  // Only returned when every item is placed, so every entry is written.
  const placement = out === undefined || out.length < n ? new Int32Array(n) : out.length === n ? out : out.subarray(0, n);
  if (n === 0) return placement;
  if (binCount <= 0) return null;
  const eps = CAPACITY_EPSILON;

  // Quick rejection: an item larger than an empty bin can never be placed.
  for (let g = 0; g < groups; g++) if (count[g] > 0 && (cpu[g] > 1 + eps || mem[g] > 1 + eps)) return null;

  // Build and sort the two lists (ties keep input order, so identical tasks
  // of one job stay together, as in DFRS's job lists).
  const keys = w.keys;
  const cpuList = w.cpuList;
  const memList = w.memList;
  let cpuCount = 0;
  let memCount = 0;
  for (let g = 0; g < groups; g++) {
    if (count[g] === 0) continue;
    keys[g] = mcbSortKey(variant, cpu[g], mem[g]);
    // Ties cpu == mem go to the memory-intensive list (memory is the hard constraint).
    if (cpu[g] > mem[g]) cpuList[cpuCount++] = g;
    else memList[memCount++] = g;
  }
  sortByKey(cpuList, cpuCount, keys);
  sortByKey(memList, memCount, keys);

  // Singly linked lists over groups so that removal during a scan is O(1).
  // next[g] = following group in g's list, -1 at the end. Heads: headC, headM.
  const next = w.next;
  next.fill(-1, 0, groups);
  for (let k = 0; k + 1 < cpuCount; k++) next[cpuList[k]] = cpuList[k + 1];
  for (let k = 0; k + 1 < memCount; k++) next[memList[k]] = memList[k + 1];
  let headC = cpuCount > 0 ? cpuList[0] : -1;
  let headM = memCount > 0 ? memList[0] : -1;
  // Next unplaced item of each group.
  const nextItem = w.nextItem;
  nextItem.set(start.subarray(0, groups));
  let remaining = n;
  // The previous bin's items: groups patGroup[0 .. patLen-1] in the order first
  // used, patUse[g] items of group g; repeatable when no group ran out in it.
  const patGroup = w.patGroup;
  const patUse = w.patUse;
  patUse.fill(0, 0, groups);
  let patLen = 0;
  let patRepeatable = false;
  let patFreeCpu = NaN;
  let patFreeMem = NaN;
  // Smallest CPU and memory sizes in each list (not above them: a group's
  // removal may leave them smaller than the true minimum until recomputed).
  // When one of them exceeds the bin's free capacity, no group of that list
  // fits: a scan would reject them all, so the list is done for this bin.
  const listMin = (head: number): [number, number] => {
    let c = Infinity;
    let m = Infinity;
    for (let g = head; g >= 0; g = next[g]) {
      if (cpu[g] < c) c = cpu[g];
      if (mem[g] < m) m = mem[g];
    }
    return [c, m];
  };
  let [minCpuC, minMemC] = listMin(headC);
  let [minCpuM, minMemM] = listMin(headM);

  for (let bin = 0; bin < binCount && remaining > 0; bin++) {
    let freeCpu = 1 - (preload ? preload.cpu[bin] : 0);
    let freeMem = 1 - (preload ? preload.mem[bin] : 0);
    if (patRepeatable && freeCpu === patFreeCpu && freeMem === patFreeMem) {
      // Same start as the previous bin: it is packed the same way if no group runs out here.
      let repeat = true;
      for (let k = 0; k < patLen; k++) {
        const g = patGroup[k];
        if (start[g + 1] - nextItem[g] <= patUse[g]) {
          repeat = false;
          break;
        }
      }
      if (repeat) {
        // So are the bins after it, as long as no group runs out (group g can
        // fill floor((left - 1) / use) bins with some left over) and they start
        // like it too.
        let times = binCount - bin;
        for (let k = 0; k < patLen; k++) {
          const g = patGroup[k];
          times = Math.min(times, Math.floor((start[g + 1] - nextItem[g] - 1) / patUse[g]));
        }
        if (preload) {
          let t = 1;
          while (t < times && 1 - preload.cpu[bin + t] === patFreeCpu && 1 - preload.mem[bin + t] === patFreeMem) t++;
          times = t;
        }
        for (let k = 0; k < patLen; k++) {
          const g = patGroup[k];
          const use = patUse[g];
          let i = nextItem[g];
          for (let t = 0; t < times; t++) for (const to = i + use; i < to; i++) placement[i] = bin + t;
          nextItem[g] = i;
          remaining -= use * times;
        }
        bin += times - 1;
        continue;
      }
    }
    for (let k = 0; k < patLen; k++) patUse[patGroup[k]] = 0;
    patLen = 0;
    patRepeatable = true;
    patFreeCpu = freeCpu;
    patFreeMem = freeMem;
    // Last group of each list found not to fit this bin (-1: none yet), and
    // whether the whole list is known not to fit what is left of it.
    let rejectedC = -1;
    let rejectedM = -1;
    let doneC = false;
    let doneM = false;
    for (;;) {
      // Which list to scan first: the one that goes against the imbalance. On a
      // tie (e.g. an empty bin) take the list whose head comes first in the
      // global sort order, i.e. for descending variants the largest item.
      let cpuFirst: boolean;
      if (freeCpu > freeMem) cpuFirst = true;
      else if (freeMem > freeCpu) cpuFirst = false;
      else if (headC < 0) cpuFirst = false;
      else if (headM < 0) cpuFirst = true;
      else cpuFirst = keys[headC] < keys[headM] || (keys[headC] === keys[headM] && headC < headM);

      let found = -1;
      for (let pass = 0; pass < 2 && found < 0; pass++) {
        const useCpu = pass === 0 ? cpuFirst : !cpuFirst;
        if (useCpu ? doneC : doneM) continue;
        if (useCpu ? minCpuC > freeCpu + eps || minMemC > freeMem + eps : minCpuM > freeCpu + eps || minMemM > freeMem + eps) {
          if (useCpu) doneC = true;
          else doneM = true;
          continue;
        }
        let prev = useCpu ? rejectedC : rejectedM;
        let g = prev < 0 ? (useCpu ? headC : headM) : next[prev];
        while (g >= 0) {
          if (cpu[g] <= freeCpu + eps && mem[g] <= freeMem + eps) {
            found = g;
            break;
          }
          prev = g;
          g = next[g];
        }
        if (useCpu) rejectedC = prev;
        else rejectedM = prev;
        if (found >= 0 && nextItem[found] + 1 === start[found + 1]) {
          // Last item of the group: unlink it.
          patRepeatable = false;
          if (prev < 0) {
            if (useCpu) headC = next[found];
            else headM = next[found];
          } else next[prev] = next[found];
          // The minima change only when the group that ran out held one of them.
          if (useCpu) {
            if (cpu[found] === minCpuC || mem[found] === minMemC) [minCpuC, minMemC] = listMin(headC);
          } else if (cpu[found] === minCpuM || mem[found] === minMemM) [minCpuM, minMemM] = listMin(headM);
        }
      }
      if (found < 0) break;
      if (patUse[found]++ === 0) patGroup[patLen++] = found;
      placement[nextItem[found]++] = bin;
      freeCpu -= cpu[found];
      freeMem -= mem[found];
      remaining--;
      if (remaining === 0) break;
    }
  }
  return remaining === 0 ? placement : null;
}

/** packsMemoryOnly's working arrays, reused from call to call (it calls no user code). */
let memWork: { order: Int32Array; size: Float64Array; left: Int32Array; alive: Int32Array; patPos: Int32Array; patUse: Int32Array } | undefined;

/**
 * Whether MCB8 packs groups of items that use no CPU: the answer of
 * `packGroups(zeros, mem, count, binCount, 8, { cpu: zeros, mem: preMem }) !== null`
 * (DFRS asks it of every prefix it tries: which jobs fit in memory at all).
 * With every CPU size 0, MCB8's two lists are one, sorted by decreasing
 * memory (ties: group order), and each bin takes, again and again, the first
 * group in that order with an item that still fits. As the bin fills, that
 * first group only moves forward, so a bin costs a binary search and a
 * forward scan over the groups not yet used up, instead of a scan from the
 * head of the list. Same comparisons with the same slack, on the same
 * running free memory, so the same answer (tested against packGroups).
 * Sizes must be numbers ≥ 0 (others: packGroups answers).
 */
export function packsMemoryOnly(mem: ArrayLike<number>, count: ArrayLike<number>, binCount: number, preMem?: ArrayLike<number>): boolean {
  const groups = mem.length;
  let n = 0;
  for (let g = 0; g < groups; g++) n += count[g];
  if (n === 0) return true;
  if (binCount <= 0) return false;
  const eps = CAPACITY_EPSILON;
  for (let g = 0; g < groups; g++) {
    if (!(mem[g] >= 0)) return packGroups(new Float64Array(groups), mem, count, binCount, 8, preMem && { cpu: new Float64Array(binCount), mem: preMem }) !== null;
    if (count[g] > 0 && mem[g] > 1 + eps) return false;
  }
  if (memWork === undefined || memWork.order.length < groups + 1) {
    const size = Math.max(groups + 1, 2 * (memWork?.order.length ?? 32));
    memWork = {
      order: new Int32Array(size),
      size: new Float64Array(size),
      left: new Int32Array(size),
      alive: new Int32Array(size),
      patPos: new Int32Array(size),
      patUse: new Int32Array(size),
    };
  }
  const { order, size, left, alive, patPos, patUse } = memWork;
  // The groups with items, by decreasing memory, ties by group: MCB8's order (key -max(0, mem)).
  let m = 0;
  for (let g = 0; g < groups; g++) if (count[g] > 0) order[m++] = g;
  const keys = workspace(groups).keys;
  for (let k = 0; k < m; k++) keys[order[k]] = -mem[order[k]];
  sortByKey(order, m, keys);
  for (let k = 0; k < m; k++) {
    size[k] = mem[order[k]];
    left[k] = count[order[k]];
    alive[k] = k;
  }
  alive[m] = m;
  // alive[k]: a position at or after k whose group may still have items (followed until it points to itself).
  const nextAlive = (k: number): number => {
    let r = k;
    while (alive[r] !== r) r = alive[r];
    while (alive[k] !== r) {
      const up = alive[k];
      alive[k] = r;
      k = up;
    }
    return r;
  };
  patUse.fill(0, 0, m);
  // The first position at or after `from` whose size fits in `free` (sizes decrease along the order).
  const firstFitting = (from: number, free: number): number => {
    let lo = from;
    let hi = m;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (size[mid] <= free + eps) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  let remaining = n;
  // The last bin's items (positions patPos[0 .. patLen-1], patUse[k] items at
  // position k) when no group ran out in it: a bin that starts with the same
  // free memory is then filled the same way (as in packGroups).
  let patLen = 0;
  let patFree = NaN;
  let patRepeatable = false;
  for (let bin = 0; bin < binCount; bin++) {
    let free = 1 - (preMem ? preMem[bin] : 0);
    if (patRepeatable && free === patFree) {
      let times = binCount - bin;
      for (let p = 0; p < patLen; p++) times = Math.min(times, Math.floor((left[patPos[p]] - 1) / patUse[patPos[p]]));
      if (preMem && times > 0) {
        let t = 1;
        while (t < times && 1 - preMem[bin + t] === patFree) t++;
        times = t;
      }
      if (times > 0) {
        for (let p = 0; p < patLen; p++) {
          const use = patUse[patPos[p]] * times;
          left[patPos[p]] -= use;
          remaining -= use;
        }
        bin += times - 1;
        continue;
      }
    }
    for (let p = 0; p < patLen; p++) patUse[patPos[p]] = 0;
    patLen = 0;
    patFree = free;
    patRepeatable = true;
    let k = nextAlive(firstFitting(0, free));
    while (k < m) {
      if (size[k] <= free + eps) {
        free -= size[k];
        if (--remaining === 0) return true;
        if (patUse[k]++ === 0) patPos[patLen++] = k;
        if (--left[k] === 0) {
          patRepeatable = false;
          alive[k] = k + 1;
          k = nextAlive(k + 1);
        }
      } else {
        // This group no longer fits: on to the first later one that does.
        k = nextAlive(firstFitting(k + 1, free));
      }
    }
  }
  return false;
}

/**
 * Pack two-dimensional items into `binCount` unit bins with MCB`variant`.
 *
 * @returns the bin index of every item (same order as `items`), or null when
 *   the heuristic leaves items unplaced (which does not prove that no packing exists).
 */
export function packVectors(items: readonly VectorItem[], binCount: number, options: PackOptions = {}): number[] | null {
  const variant = checkVariant(options.variant ?? 8);
  if (!Number.isInteger(binCount) || binCount < 0) {
    throw new InputError(`packVectors: binCount must be a non-negative integer, got ${binCount}`, { source: 'packVectors', field: 'binCount' });
  }
  const n = items.length;
  const cpu = new Float64Array(n);
  const mem = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const it = items[i];
    if (!(it.cpu >= 0) || !(it.mem >= 0) || !Number.isFinite(it.cpu) || !Number.isFinite(it.mem)) {
      throw new InputError(`packVectors: items[${i}] needs finite cpu >= 0 and mem >= 0, got cpu=${it.cpu}, mem=${it.mem}`, { source: 'packVectors', field: `items[${i}]` });
    }
    cpu[i] = it.cpu;
    mem[i] = it.mem;
  }
  if (options.preload) checkPreload(options.preload, binCount, 'packVectors');
  const p = packArrays(cpu, mem, binCount, variant, options.preload);
  if (p && invariantChecksEnabled()) verifyPacking(cpu, mem, p, binCount, options.preload);
  return p ? Array.from(p) : null;
}

/** Check that preloaded CPU and memory loads are one per bin and within [0, 1]; an InputError naming `where` otherwise. */
export function checkPreload(preload: { cpu: ArrayLike<number>; mem: ArrayLike<number> }, binCount: number, where: string): void {
  if (preload.cpu.length !== binCount || preload.mem.length !== binCount) {
    throw new InputError(`${where}: preload.cpu and preload.mem need length binCount=${binCount}, got ${preload.cpu.length} and ${preload.mem.length}`, {
      source: where,
      field: 'preload',
    });
  }
}
