/**
 * BlockProfile: the step function of ProcessorProfile (same breakpoints, same
 * answers) for deep profiles, e.g. conservative backfilling on a queue of
 * thousands of jobs. The array profile costs O(size) per reservation and per
 * earliest-start search; here the segments are cut into blocks of at most
 * twice `blockSize`, each with a pending add, its minimum and maximum, and (per
 * threshold) where its first and last short segment lie and its longest run
 * of segments that are not short. A reservation touches two blocks and adds
 * to the ones in between; a search skips a whole block in O(log blockSize).
 *
 * Above the blocks, a tree (at most 8 children a node, blocks as leaves, all
 * at the same depth) keeps the same summary for each run of blocks: minimum,
 * maximum and, per threshold, the first short segment, the end of the last
 * one and the longest run between two short segments (see `Summary`; its
 * size is the number of distinct free counts that matter, at most the
 * capacity + 1). A search climbs from the block where it starts and skips
 * each subtree in which no run is long enough, so where the summaries are up
 * to date it visits O(fanout × depth) nodes, not every block after its start.
 * A change marks the path from its block to the root out of date (O(depth));
 * a summary is recomputed from its children's (O(fanout × summary size)) when
 * a search finds it out of date for the third time since it last changed, and
 * until then searches descend into it.
 *
 * Same results as ProcessorProfile for integer processor counts (the batch
 * family's). earliestStart jumps straight to the end of a run only when every
 * time involved is an integer of magnitude at most 2^52, where the array
 * profile's `start + (end - start)` is exact; otherwise it repeats that
 * arithmetic step by step.
 */
import { checkProfileArgs, checkProfileChange, checkProfileStep, checkProfileTime, type ProfileSegment } from './profile';

const EXACT = 2 ** 52;
/** Children of a tree node before it is split in two. */
const FANOUT = 8;

/**
 * What a search needs to know of a run of segments, per threshold q (a
 * segment is short when its free processors are below q). The thresholds
 * fall into ranks: rank k holds the q with exactly k of the m breakpoints
 * below them (the first breakpoint is the minimum, so rank 0 is "nothing
 * short"). Per rank k: F, the time of the first short segment (Infinity if
 * none); L, the time the last short segment ends (−Infinity if none, NaN when
 * it is the last segment of the run, whose end is the next run's start); B,
 * the longest run of segments that are not short between two short ones, at
 * this threshold or any higher one (−1 if none). All in one array `s`:
 * breakpoints s[0, m), F at s[m + k], L at s[2m + 1 + k], B at s[3m + 2 + k].
 */
interface Summary {
  s: Float64Array;
  m: number;
}

/** Nothing short at any threshold (shared: never written into). */
const NONE = Float64Array.of(Infinity, -Infinity, -1);

interface Block extends Summary {
  /** Breakpoint times. */
  t: number[];
  /** Free processors minus `add`. */
  f: number[];
  add: number;
  /** Bounds of f, valid when `bounded` (counted on first need after a change). */
  min: number;
  max: number;
  bounded: boolean;
  /** Summary (in f's terms: without `add`) out of date. */
  dirty: boolean;
  /** Searches that scanned the block since it last changed. */
  scans: number;
  parent: TreeNode;
}

/** A node of the tree over blocks: a run of consecutive blocks, its summary in free processors (no pending add). */
interface TreeNode extends Summary {
  /** Children in time order: blocks when `leaf`, nodes otherwise. */
  kids: (TreeNode | Block)[];
  leaf: boolean;
  parent: TreeNode | null;
  /** Summary out of date (then so are the ancestors'). */
  dirty: boolean;
  /** Searches that descended into it since it last changed. */
  scans: number;
  /** Start time, minimum and maximum free processors (valid when clean). */
  t0: number;
  min: number;
  max: number;
}

function newNode(leaf: boolean, kids: (TreeNode | Block)[], parent: TreeNode | null): TreeNode {
  const n: TreeNode = { kids, leaf, parent, dirty: true, scans: 0, t0: 0, min: 0, max: 0, s: NONE, m: 0 };
  for (const c of kids) c.parent = n;
  return n;
}

/** Mark n and its ancestors out of date. */
function touch(n: TreeNode | null): void {
  for (; n !== null; n = n.parent) {
    n.dirty = true;
    n.scans = 0;
  }
}

function newBlock(t: number[], f: number[], add: number, parent: TreeNode): Block {
  return { t, f, add, min: 0, max: 0, bounded: false, dirty: true, scans: 0, s: NONE, m: 0, parent };
}

/** The block's values changed in a way that may move its bounds. */
function bounds(b: Block): void {
  b.bounded = false;
  changed(b);
}

/** The block's values changed (its bounds did not move). */
function changed(b: Block): void {
  b.dirty = true;
  b.scans = 0;
  touch(b.parent);
}

function bound(b: Block): Block {
  if (b.bounded) return b;
  let mn = Infinity;
  let mx = -Infinity;
  for (const v of b.f) {
    if (v < mn) mn = v;
    if (v > mx) mx = v;
  }
  b.min = mn;
  b.max = mx;
  b.bounded = true;
  return b;
}

// Scratch space of tables() and summarise(), grown on demand. A summary
// being built lies in scratchF at o with stride cap: breakpoints at o, F at
// o + cap, L at o + 2cap, B at o + 3cap.
let scratchF = new Float64Array(64);
let scratchI = new Int32Array(64);
function scratch(n: number): void {
  if (scratchF.length >= n) return;
  const size = Math.max(n, 2 * scratchF.length);
  scratchF = new Float64Array(size);
  scratchI = new Int32Array(size);
}

/** Copy the summary built at o (m breakpoints) into x.s, reusing its array when large enough. */
function store(x: Summary, o: number, cap: number, m: number): void {
  const need = 4 * m + 3;
  let s = x.s;
  if (s === NONE || s.length < need) s = x.s = new Float64Array(need + (m >> 1) + 4);
  const buf = scratchF;
  s.set(buf.subarray(o, o + m), 0);
  s.set(buf.subarray(o + cap, o + cap + m + 1), m);
  s.set(buf.subarray(o + 2 * cap, o + 2 * cap + m + 1), 2 * m + 1);
  s.set(buf.subarray(o + 3 * cap, o + 3 * cap + m + 1), 3 * m + 2);
  x.m = m;
}

function integral(f: number[]): boolean {
  for (let j = 0; j < f.length; j++) if (!Number.isInteger(f[j])) return false;
  return true;
}

/** The block's summary (in f's terms). */
function tables(b: Block): void {
  const { t, f } = b;
  const len = f.length;
  // scratchI: rank [0, len), first [len, 2len), last [2len, 3len), left, stack (m ≤ len).
  const RANK = 0;
  const FIRST = len;
  const LAST = 2 * len;
  const LEFT = 3 * len;
  const STACK = 4 * len;
  // The distinct values, ascending, in scratchF[0, m), and each segment's
  // rank among them: by counting when the values are integers in a short
  // range (processor counts), else by sorting.
  bound(b);
  const lo = b.min;
  const span = b.max - lo;
  let m = 0;
  if (span <= 4 * len && Number.isInteger(lo) && Number.isInteger(span) && integral(f)) {
    scratch(Math.max(5 * len + span + 8, 4 * len + 8));
    const si = scratchI;
    const seen = 5 * len;
    si.fill(0, seen, seen + span + 1);
    for (let j = 0; j < len; j++) si[seen + f[j] - lo] = 1;
    for (let x = 0; x <= span; x++) {
      if (si[seen + x] === 0) continue;
      scratchF[m] = lo + x;
      si[seen + x] = m++;
    }
    for (let j = 0; j < len; j++) si[RANK + j] = si[seen + f[j] - lo];
  } else {
    scratch(5 * len + 8);
    const sorted = scratchF.subarray(0, len);
    for (let j = 0; j < len; j++) sorted[j] = f[j];
    sorted.sort();
    for (let j = 0; j < len; j++) if (j === 0 || sorted[j] !== sorted[j - 1]) sorted[m++] = sorted[j];
    for (let j = 0; j < len; j++) scratchI[RANK + j] = rankOf(scratchF, m, f[j]);
  }
  const si = scratchI;
  const out = scratchF;
  for (let k = 0; k < m; k++) {
    si[FIRST + k] = len;
    si[LAST + k] = -1;
  }
  for (let j = 0; j < len; j++) {
    const r = si[RANK + j];
    if (si[FIRST + r] === len) si[FIRST + r] = j;
    si[LAST + r] = j;
  }
  // Per rank k (the values below v[k-1] and v[k-1] itself are short):
  // first and last short segment, and the longest run between two short ones.
  const cap = m + 1;
  const F = cap;
  const L = 2 * cap;
  const B = 3 * cap;
  let first = len;
  let last = -1;
  out[F] = Infinity;
  out[L] = -Infinity;
  for (let k = 1; k <= m; k++) {
    if (si[FIRST + k - 1] < first) first = si[FIRST + k - 1];
    if (si[LAST + k - 1] > last) last = si[LAST + k - 1];
    out[F + k] = t[first];
    out[L + k] = last + 1 < len ? t[last + 1] : NaN;
  }
  // Segment j is the minimum of the run between its nearest strictly smaller
  // neighbours: at threshold f[j] that run is bounded by short segments when
  // both neighbours lie in the block.
  let sp = 0;
  for (let j = 0; j < len; j++) {
    const r = si[RANK + j];
    while (sp > 0 && si[RANK + si[STACK + sp - 1]] >= r) sp--;
    si[LEFT + j] = sp > 0 ? si[STACK + sp - 1] : -1;
    si[STACK + sp++] = j;
  }
  out.fill(-1, B, B + cap);
  sp = 0;
  for (let j = len - 1; j >= 0; j--) {
    const r = si[RANK + j];
    while (sp > 0 && si[RANK + si[STACK + sp - 1]] >= r) sp--;
    const right = sp > 0 ? si[STACK + sp - 1] : len;
    si[STACK + sp++] = j;
    const left = si[LEFT + j];
    if (left >= 0 && right < len) {
      const run = t[right] - t[left + 1];
      if (run > out[B + r]) out[B + r] = run;
    }
  }
  store(b, 0, cap, compact(out, cap, 0, m + 1));
  b.dirty = false;
}

/**
 * Merge the summary X (built at xo; mx breakpoints) with the summary of the
 * run Y that follows it (values shifted by ay, starting at ty0) into a summary
 * built at oo; returns its number of breakpoints.
 */
function mergeInto(buf: Float64Array, cap: number, xo: number, mx: number, y: Summary, ay: number, ty0: number, oo: number): number {
  const ys = y.s;
  const my = y.m;
  const YF = my;
  const YL = 2 * my + 1;
  const YB = 3 * my + 2;
  const XF = xo + cap;
  const XL = xo + 2 * cap;
  const XB = xo + 3 * cap;
  const OF = oo + cap;
  const OL = oo + 2 * cap;
  const OB = oo + 3 * cap;
  let i = 0;
  let j = 0;
  let r = 0;
  for (;;) {
    // This rank: the first short segment is X's if any, the last Y's if any;
    // a run between two short ones lies in X, in Y, or from X's last to Y's first.
    const bx = buf[XB + i];
    const by = ys[YB + j];
    let best = bx > by ? bx : by;
    let first = Infinity;
    let last = -Infinity;
    if (i > 0) {
      first = buf[XF + i];
      const lx = buf[XL + i];
      last = lx === lx ? lx : ty0;
      if (j > 0) {
        const cross = ys[YF + j] - last;
        if (cross > 0 && cross > best) best = cross;
      }
    } else if (j > 0) first = ys[YF + j];
    if (j > 0) last = ys[YL + j];
    buf[OF + r] = first;
    buf[OL + r] = last;
    buf[OB + r] = best;
    r++;
    const a = i < mx ? buf[xo + i] : Infinity;
    const b = j < my ? ys[j] + ay : Infinity;
    if (a === Infinity && b === Infinity) break;
    if (a <= b) {
      buf[oo + r - 1] = a;
      i++;
      if (a === b) j++;
    } else {
      buf[oo + r - 1] = b;
      j++;
    }
  }
  return compact(buf, cap, oo, r);
}

/**
 * Finish a summary built at o with `ranks` ranks: B at a threshold covers
 * every higher one, and the breakpoints between equal ranks go. Returns the
 * breakpoints left.
 */
function compact(buf: Float64Array, cap: number, o: number, ranks: number): number {
  const F = o + cap;
  const L = o + 2 * cap;
  const B = o + 3 * cap;
  for (let k = ranks - 2; k >= 0; k--) if (buf[B + k + 1] > buf[B + k]) buf[B + k] = buf[B + k + 1];
  let r = 1;
  for (let k = 1; k < ranks; k++) {
    const lk = buf[L + k];
    const lr = buf[L + r - 1];
    if (buf[F + k] === buf[F + r - 1] && (lk === lr || (lk !== lk && lr !== lr)) && buf[B + k] === buf[B + r - 1]) continue;
    buf[o + r - 1] = buf[o + k - 1];
    buf[F + r] = buf[F + k];
    buf[L + r] = lk;
    buf[B + r] = buf[B + k];
    r++;
  }
  return r - 1;
}

/** Recompute n's summary from its children's (cleaning those first), merging them left to right. */
function summarise(n: TreeNode): void {
  const kids = n.kids;
  const g = kids.length;
  let mn = Infinity;
  let mx = -Infinity;
  let cap = 1;
  for (let i = 0; i < g; i++) {
    if (n.leaf) {
      const b = bound(kids[i] as Block);
      if (b.dirty) tables(b);
      if (b.min + b.add < mn) mn = b.min + b.add;
      if (b.max + b.add > mx) mx = b.max + b.add;
      cap += b.m;
    } else {
      const c = kids[i] as TreeNode;
      if (c.dirty) summarise(c);
      if (c.min < mn) mn = c.min;
      if (c.max > mx) mx = c.max;
      cap += c.m;
    }
  }
  scratch(8 * cap);
  const buf = scratchF;
  // The first child, shifted, at 0; each next one merged into the other half.
  const k0 = kids[0];
  const a0 = n.leaf ? (k0 as Block).add : 0;
  const s0 = k0.s;
  let m = k0.m;
  for (let k = 0; k < m; k++) buf[k] = s0[k] + a0;
  buf.set(s0.subarray(m, 2 * m + 1), cap);
  buf.set(s0.subarray(2 * m + 1, 3 * m + 2), 2 * cap);
  buf.set(s0.subarray(3 * m + 2, 4 * m + 3), 3 * cap);
  let o = 0;
  for (let i = 1; i < g; i++) {
    const c = kids[i];
    const t0 = n.leaf ? (c as Block).t[0] : (c as TreeNode).t0;
    m = mergeInto(buf, cap, o, m, c, n.leaf ? (c as Block).add : 0, t0, 4 * cap - o);
    o = 4 * cap - o;
  }
  store(n, o, cap, m);
  n.t0 = n.leaf ? (k0 as Block).t[0] : (k0 as TreeNode).t0;
  n.min = mn;
  n.max = mx;
  n.dirty = false;
}

export class BlockProfile {
  private blocks: Block[];
  /** Root of the tree over the blocks. */
  private root: TreeNode;
  private count = 1;
  /** Every breakpoint time is an integer of magnitude ≤ 2^52. */
  private exact: boolean;
  // Result of locate().
  private lk = 0;
  private li = 0;
  // State of firstRun: the request, and the start of the current run of non-short segments (NaN: none).
  private qProcs = 0;
  private qDuration = 0;
  private run = NaN;

  /**
   * @param capacity processors in the machine
   * @param origin earliest time the profile describes (default 0)
   * @param blockSize segments per block before a block is split in two (tests use tiny ones)
   */
  constructor(
    readonly capacity: number,
    origin = 0,
    private readonly blockSize = 128,
  ) {
    checkProfileArgs(capacity, origin);
    this.root = newNode(true, [], null);
    const b = newBlock([origin], [capacity], 0, this.root);
    this.root.kids.push(b);
    this.blocks = [b];
    this.exact = isExact(origin);
  }

  get origin(): number {
    return this.blocks[0].t[0];
  }

  get size(): number {
    return this.count;
  }

  /** Set lk, li to the segment containing t (t >= origin). */
  private locate(t: number): void {
    const bs = this.blocks;
    let lo = 0;
    let hi = bs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (bs[mid].t[0] <= t) lo = mid;
      else hi = mid - 1;
    }
    const ts = bs[lo].t;
    let a = 0;
    let b = ts.length - 1;
    while (a < b) {
      const mid = (a + b + 1) >> 1;
      if (ts[mid] <= t) a = mid;
      else b = mid - 1;
    }
    this.lk = lo;
    this.li = a;
  }

  private checkTime(t: number, what: string): void {
    checkProfileTime(this.origin, t, what);
  }

  /** Put `nb` right after `b` among the blocks' tree leaves, splitting full nodes. */
  private insertAfter(b: Block, nb: Block): void {
    let n = b.parent;
    n.kids.splice(n.kids.indexOf(b) + 1, 0, nb);
    nb.parent = n;
    touch(n);
    while (n.kids.length > FANOUT) {
      const half = n.kids.length >> 1;
      const m = newNode(n.leaf, n.kids.splice(half), null);
      const p = n.parent;
      if (p === null) {
        this.root = newNode(false, [n, m], null);
        break;
      }
      p.kids.splice(p.kids.indexOf(n) + 1, 0, m);
      m.parent = p;
      touch(n);
      n = p;
    }
  }

  /** Take block `b` out of the tree (dropping nodes left empty). */
  private removeLeaf(b: Block): void {
    let c: TreeNode | Block = b;
    let n: TreeNode | null = b.parent;
    while (n !== null) {
      n.kids.splice(n.kids.indexOf(c), 1);
      if (n.kids.length > 0) {
        touch(n);
        break;
      }
      c = n;
      n = n.parent;
    }
    // A root with one child node gives way to it.
    while (!this.root.leaf && this.root.kids.length === 1) {
      this.root = this.root.kids[0] as TreeNode;
      this.root.parent = null;
    }
  }

  /** Make t a breakpoint. */
  private split(t: number): void {
    this.locate(t);
    const b = this.blocks[this.lk];
    const i = this.li;
    if (b.t[i] === t) return;
    b.t.splice(i + 1, 0, t);
    b.f.splice(i + 1, 0, b.f[i]);
    changed(b);
    this.count++;
    if (!isExact(t)) this.exact = false;
    if (b.t.length > 2 * this.blockSize) {
      const h = b.t.length >> 1;
      const nb = newBlock(b.t.splice(h), b.f.splice(h), b.add, b.parent);
      bounds(b);
      this.blocks.splice(this.lk + 1, 0, nb);
      this.insertAfter(b, nb);
    }
  }

  /** Remove the breakpoint at t when its segment equals the one before. */
  private coalesceAt(t: number): void {
    this.locate(t);
    const k = this.lk;
    const i = this.li;
    const b = this.blocks[k];
    if (b.t[i] !== t || (k === 0 && i === 0)) return;
    const p = i > 0 ? b : this.blocks[k - 1];
    const prev = p.f[i > 0 ? i - 1 : p.f.length - 1] + p.add;
    if (b.f[i] + b.add !== prev) return;
    b.t.splice(i, 1);
    b.f.splice(i, 1);
    this.count--;
    // When b's first breakpoint goes, the block before reaches further:
    // the nodes holding both are b's ancestors, marked with it.
    if (b.t.length === 0) {
      this.blocks.splice(k, 1);
      this.removeLeaf(b);
    } else if (i > 0) {
      // Its value is still in the block (the neighbour before it).
      changed(b);
    } else bounds(b);
  }

  freeAt(t: number): number {
    this.checkTime(t, 'time');
    this.locate(t);
    const b = this.blocks[this.lk];
    return b.f[this.li] + b.add;
  }

  minFree(start: number, end: number): number {
    this.checkTime(start, 'start');
    if (!(end > start)) return this.freeAt(start);
    this.locate(start);
    let m = Infinity;
    const bs = this.blocks;
    for (let k = this.lk, i = this.li; k < bs.length; k++, i = 0) {
      const b = bs[k];
      if (i === 0 && b.t[b.t.length - 1] < end) {
        if (bound(b).min + b.add < m) m = b.min + b.add;
        continue;
      }
      for (; i < b.t.length; i++) {
        if (b.t[i] >= end) return m;
        if (b.f[i] + b.add < m) m = b.f[i] + b.add;
      }
    }
    return m;
  }

  /**
   * Time of the first segment overlapping [start, end) where `delta` more
   * free processors would exceed the capacity, or NaN if there is none.
   */
  overCapacityAt(start: number, end: number, delta: number): number {
    this.checkTime(start, 'start');
    const lim = this.capacity + 1e-9;
    this.locate(start);
    const bs = this.blocks;
    for (let k = this.lk, i = this.li; k < bs.length; k++, i = 0) {
      const b = bs[k];
      if (b.t[b.t.length - 1] < end && bound(b).max + b.add + delta <= lim) continue;
      for (; i < b.t.length; i++) {
        if (b.t[i] >= end) return NaN;
        if (b.f[i] + b.add + delta > lim) return b.t[i];
      }
    }
    return NaN;
  }

  private add(start: number, end: number, delta: number): void {
    if (!checkProfileChange(this, start, end, delta)) return;
    this.split(start);
    this.split(end);
    this.locate(start);
    const bs = this.blocks;
    for (let k = this.lk, i = this.li; k < bs.length; k++, i = 0) {
      const b = bs[k];
      if (i === 0 && b.t[b.t.length - 1] < end) {
        b.add += delta;
        touch(b.parent);
        continue;
      }
      // Recount the bounds only when an extreme may have moved inward.
      let lo = Infinity;
      let hi = -Infinity;
      for (; i < b.t.length && b.t[i] < end; i++) {
        const v = b.f[i];
        if (v < lo) lo = v;
        if (v > hi) hi = v;
        b.f[i] = v + delta;
      }
      if (!b.bounded || (delta < 0 ? hi >= b.max : lo <= b.min)) bounds(b);
      else {
        if (delta < 0) b.min = Math.min(b.min, lo + delta);
        else b.max = Math.max(b.max, hi + delta);
        changed(b);
      }
      if (i < b.t.length) break;
    }
    // Only the two edges can have become equal to their neighbour (counts are integers).
    this.coalesceAt(end);
    this.coalesceAt(start);
  }

  reserve(start: number, end: number, procs: number): void {
    this.add(start, end, -procs);
  }

  release(start: number, end: number, procs: number): void {
    this.add(start, end, procs);
  }

  fits(start: number, duration: number, procs: number): boolean {
    return this.minFree(start, start + duration) >= procs;
  }

  /**
   * Earliest time >= notBefore at which `procs` processors are free for
   * `duration` seconds, or Infinity if `procs` exceeds what is ever free.
   */
  earliestStart(procs: number, duration: number, notBefore = this.origin): number {
    checkProfileStep(duration, procs);
    const start = Math.max(notBefore, this.origin);
    if (!(procs > 0)) return start;
    if (this.exact && isExact(start) && Number.isInteger(duration) && duration <= EXACT) return this.firstRun(procs, duration, start);
    return this.stepwise(procs, duration, start);
  }

  /** The array profile's search, step by step (same floating-point arithmetic). */
  private stepwise(procs: number, duration: number, start: number): number {
    const bs = this.blocks;
    for (;;) {
      const t = start;
      const end = t + duration;
      this.locate(t);
      let moved = false;
      let firstSeg = true;
      scan: for (let k = this.lk, i = this.li; k < bs.length; k++, i = 0) {
        const b = bs[k];
        for (; i < b.t.length; i++) {
          if (!firstSeg && b.t[i] >= end) break scan;
          firstSeg = false;
          if (b.f[i] + b.add < procs) {
            const next = i + 1 < b.t.length ? b.t[i + 1] : k + 1 < bs.length ? bs[k + 1].t[0] : NaN;
            if (Number.isNaN(next)) return Infinity;
            start += next - t;
            moved = true;
            break scan;
          }
        }
      }
      if (!moved) return start;
    }
  }

  /**
   * Start of the first run of non-short segments from `start` on that lasts
   * `duration` (all values exact integers, so run lengths compare exactly):
   * the block holding `start`, then, climbing the tree, the subtrees after it.
   */
  private firstRun(procs: number, duration: number, start: number): number {
    this.locate(start);
    const b0 = this.blocks[this.lk];
    this.qProcs = procs;
    this.qDuration = duration;
    // The first segment's run starts at `start`.
    this.run = NaN;
    const from = this.li;
    if (b0.f[from] + b0.add >= procs) this.run = start;
    let r = this.scanBlock(b0, from + 1);
    if (!Number.isNaN(r)) return r;
    let c: TreeNode | Block = b0;
    for (let n: TreeNode | null = b0.parent; n !== null; c = n, n = n.parent) {
      const kids = n.kids;
      for (let i = kids.indexOf(c) + 1; i < kids.length; i++) {
        r = n.leaf ? this.visitBlock(kids[i] as Block) : this.visitNode(kids[i] as TreeNode);
        if (!Number.isNaN(r)) return r;
      }
    }
    // The last segment lasts forever.
    return Number.isNaN(this.run) ? Infinity : this.run;
  }

  /** Segments from index `from` of block b, in order: the run's start if it lasts long enough, else NaN. */
  private scanBlock(b: Block, from: number): number {
    const procs = this.qProcs - b.add;
    const duration = this.qDuration;
    const { t, f } = b;
    let run = this.run;
    for (let i = from; i < t.length; i++) {
      if (f[i] < procs) {
        if (run + duration <= t[i]) return run;
        run = NaN;
      } else if (Number.isNaN(run)) run = t[i];
    }
    this.run = run;
    return NaN;
  }

  /** A whole block, from its summary where it can: as scanBlock. */
  private visitBlock(b: Block): number {
    const p = this.qProcs - b.add;
    const duration = this.qDuration;
    if (bound(b).max < p) {
      if (this.run + duration <= b.t[0]) return this.run;
      this.run = NaN;
      return NaN;
    }
    if (b.min >= p) {
      if (Number.isNaN(this.run)) this.run = b.t[0];
      return NaN;
    }
    if (b.dirty) {
      // A block that keeps changing (reservations moved earlier one by one)
      // is cheaper to scan than to summarise.
      if (++b.scans <= 2) return this.scanBlock(b, 0);
      tables(b);
    }
    const { s, m } = b;
    const k = rankOf(s, m, p);
    const first = s[m + k];
    if (Number.isNaN(this.run) && first > b.t[0]) this.run = b.t[0];
    if (this.run + duration <= first) return this.run;
    if (s[3 * m + 2 + k] >= duration) {
      // A run long enough may lie inside: scan from the first short segment.
      this.run = NaN;
      return this.scanBlock(b, indexOfTime(b.t, first));
    }
    this.run = s[2 * m + 1 + k];
    return NaN;
  }

  /** A whole subtree, from its summary where it can: as scanBlock on each of its blocks in turn. */
  private visitNode(n: TreeNode): number {
    if (n.dirty) {
      // Descend into a subtree that keeps changing; summarise it once searches pass by it unchanged.
      if (++n.scans <= 2) return this.visitKids(n);
      summarise(n);
    }
    const procs = this.qProcs;
    const duration = this.qDuration;
    if (n.max < procs) {
      if (this.run + duration <= n.t0) return this.run;
      this.run = NaN;
      return NaN;
    }
    if (n.min >= procs) {
      if (Number.isNaN(this.run)) this.run = n.t0;
      return NaN;
    }
    const { s, m } = n;
    const k = rankOf(s, m, procs);
    const first = s[m + k];
    if (Number.isNaN(this.run) && first > n.t0) this.run = n.t0;
    if (this.run + duration <= first) return this.run;
    if (s[3 * m + 2 + k] >= duration) return this.visitKids(n);
    this.run = s[2 * m + 1 + k];
    return NaN;
  }

  private visitKids(n: TreeNode): number {
    const kids = n.kids;
    for (let i = 0; i < kids.length; i++) {
      const r = n.leaf ? this.visitBlock(kids[i] as Block) : this.visitNode(kids[i] as TreeNode);
      if (!Number.isNaN(r)) return r;
    }
    return NaN;
  }

  /** Forget everything before `t`. */
  trim(t: number): void {
    if (t <= this.origin) return;
    this.locate(t);
    let removed = 0;
    for (let k = 0; k < this.lk; k++) {
      removed += this.blocks[k].t.length;
      this.removeLeaf(this.blocks[k]);
    }
    if (this.lk > 0) this.blocks.splice(0, this.lk);
    const b = this.blocks[0];
    if (this.li > 0) {
      b.t.splice(0, this.li);
      b.f.splice(0, this.li);
      removed += this.li;
      bounds(b);
    } else changed(b);
    b.t[0] = t;
    this.count -= removed;
    if (!isExact(t)) this.exact = false;
  }

  segments(): ProfileSegment[] {
    const out: ProfileSegment[] = [];
    for (const b of this.blocks) for (let i = 0; i < b.t.length; i++) out.push({ time: b.t[i], free: b.f[i] + b.add });
    return out;
  }

  /**
   * For tests: every tree node, summarised, with the segments it spans
   * (indices into segments(), `to` exclusive) and its answers at threshold q.
   */
  summaries(): { from: number; to: number; depth: number; min: number; max: number; at(q: number): { first: number; lastEnd: number; best: number } }[] {
    const out: ReturnType<BlockProfile['summaries']> = [];
    let seg = 0;
    let leaves = 0;
    const walk = (n: TreeNode, depth: number, parent: TreeNode | null): void => {
      if (n.parent !== parent) throw new Error('BlockProfile: tree parent link broken');
      if (n.kids.length === 0 || n.kids.length > FANOUT) throw new Error(`BlockProfile: tree node with ${n.kids.length} children`);
      if (n.dirty) summarise(n);
      const from = seg;
      for (const c of n.kids) {
        if (n.leaf) {
          const b = c as Block;
          if (b.parent !== n) throw new Error('BlockProfile: block parent link broken');
          if (b !== this.blocks[leaves++]) throw new Error('BlockProfile: tree leaves out of order');
          out.push({ from: seg, to: seg + b.t.length, depth: -1, min: b.min + b.add, max: b.max + b.add, at: () => ({ first: NaN, lastEnd: NaN, best: NaN }) });
          seg += b.t.length;
        } else walk(c as TreeNode, depth + 1, n);
      }
      const { s, m } = n;
      const at = (q: number) => {
        const k = rankOf(s, m, q);
        return { first: s[m + k], lastEnd: s[2 * m + 1 + k], best: s[3 * m + 2 + k] };
      };
      out.push({ from, to: seg, depth, min: n.min, max: n.max, at });
    };
    walk(this.root, 0, null);
    if (leaves !== this.blocks.length) throw new Error(`BlockProfile: the tree has ${leaves} blocks, the profile ${this.blocks.length}`);
    if (seg !== this.count) throw new Error(`BlockProfile: the tree spans ${seg} segments, the profile has ${this.count}`);
    return out.filter((x) => x.depth >= 0);
  }
}

/** Number of the ascending values vals[0, n) below q. */
function rankOf(vals: Float64Array, n: number, q: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (vals[mid] < q) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of time x in the ascending array (x is one of its elements). */
function indexOfTime(t: number[], x: number): number {
  let lo = 0;
  let hi = t.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function isExact(t: number): boolean {
  return Number.isInteger(t) && Math.abs(t) <= EXACT;
}
