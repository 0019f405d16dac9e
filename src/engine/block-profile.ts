/**
 * BlockProfile: the step function of ProcessorProfile (same breakpoints, same
 * answers) for deep profiles, e.g. conservative backfilling on a queue of
 * thousands of jobs. The array profile costs O(size) per reservation and per
 * earliest-start search; here the segments are cut into blocks of at most
 * twice `blockSize`, each with a pending add, its minimum and maximum, and (per
 * threshold) where its first and last short segment lie and its longest run
 * of segments that are not short. A reservation touches two blocks and adds
 * to the ones in between; a search skips whole blocks in O(log blockSize).
 *
 * Same results as ProcessorProfile for integer processor counts (the batch
 * family's). earliestStart jumps straight to the end of a run only when every
 * time involved is an integer of magnitude at most 2^52, where the array
 * profile's `start + (end - start)` is exact; otherwise it repeats that
 * arithmetic step by step.
 */
import { checkProfileArgs, checkProfileChange, checkProfileStep, checkProfileTime, type ProfileSegment } from './profile';

const EXACT = 2 ** 52;

interface Block {
  /** Breakpoint times. */
  t: number[];
  /** Free processors minus `add`. */
  f: number[];
  add: number;
  /** Bounds of f, valid when `bounded` (counted on first need after a change). */
  min: number;
  max: number;
  bounded: boolean;
  /** Tables below out of date. */
  dirty: boolean;
  /** Searches that scanned the block since it last changed. */
  scans: number;
  /** Distinct values of f, ascending; threshold rank k = number of them below the threshold. */
  vals: Float64Array;
  /**
   * Per rank k: first and last short segment, and an upper bound on the
   * longest run of non-short segments bounded by short ones inside the block
   * (−1: none; exact for runs whose neighbours are short at every lower threshold).
   */
  pre: Int32Array;
  suf: Int32Array;
  best: Float64Array;
}

function newBlock(t: number[], f: number[], add: number): Block {
  const b: Block = { t, f, add, min: 0, max: 0, bounded: false, dirty: true, scans: 0, vals: new Float64Array(0), pre: new Int32Array(0), suf: new Int32Array(0), best: new Float64Array(0) };
  bounds(b);
  return b;
}

/** The block changed in a way that may move its bounds. */
function bounds(b: Block): void {
  b.bounded = false;
  b.dirty = true;
  b.scans = 0;
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

function tables(b: Block): void {
  const { t, f } = b;
  const len = f.length;
  const sorted = Float64Array.from(f).sort();
  let m = 0;
  for (let j = 0; j < len; j++) if (j === 0 || sorted[j] !== sorted[j - 1]) sorted[m++] = sorted[j];
  const vals = sorted.slice(0, m);
  const rank = new Int32Array(len);
  const first = new Int32Array(m).fill(len);
  const last = new Int32Array(m).fill(-1);
  for (let j = 0; j < len; j++) {
    let lo = 0;
    let hi = m - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (vals[mid] < f[j]) lo = mid + 1;
      else hi = mid;
    }
    rank[j] = lo;
    if (first[lo] === len) first[lo] = j;
    last[lo] = j;
  }
  const pre = new Int32Array(m + 1);
  const suf = new Int32Array(m + 1);
  pre[0] = len;
  suf[0] = -1;
  for (let k = 1; k <= m; k++) {
    pre[k] = Math.min(pre[k - 1], first[k - 1]);
    suf[k] = Math.max(suf[k - 1], last[k - 1]);
  }
  // Segment j is the minimum of the run between its nearest strictly smaller
  // neighbours. Counting that run at every threshold up to f[j] overestimates
  // when the run at a lower threshold reaches the block's edge, which only
  // costs a scan of the block.
  const left = new Int32Array(len);
  const stack = new Int32Array(len);
  let sp = 0;
  for (let j = 0; j < len; j++) {
    while (sp > 0 && rank[stack[sp - 1]] >= rank[j]) sp--;
    left[j] = sp > 0 ? stack[sp - 1] : -1;
    stack[sp++] = j;
  }
  const best = new Float64Array(m + 1).fill(-1);
  sp = 0;
  for (let j = len - 1; j >= 0; j--) {
    while (sp > 0 && rank[stack[sp - 1]] >= rank[j]) sp--;
    const right = sp > 0 ? stack[sp - 1] : len;
    stack[sp++] = j;
    if (left[j] >= 0 && right < len) {
      const run = t[right] - t[left[j] + 1];
      if (run > best[rank[j]]) best[rank[j]] = run;
    }
  }
  for (let k = m - 1; k >= 0; k--) if (best[k + 1] > best[k]) best[k] = best[k + 1];
  b.vals = vals;
  b.pre = pre;
  b.suf = suf;
  b.best = best;
  b.dirty = false;
}

export class BlockProfile {
  private blocks: Block[];
  private count = 1;
  /** Every breakpoint time is an integer of magnitude ≤ 2^52. */
  private exact: boolean;
  // Result of locate().
  private lk = 0;
  private li = 0;

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
    this.blocks = [newBlock([origin], [capacity], 0)];
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

  /** Make t a breakpoint. */
  private split(t: number): void {
    this.locate(t);
    const b = this.blocks[this.lk];
    const i = this.li;
    if (b.t[i] === t) return;
    b.t.splice(i + 1, 0, t);
    b.f.splice(i + 1, 0, b.f[i]);
    b.dirty = true;
    b.scans = 0;
    this.count++;
    if (!isExact(t)) this.exact = false;
    if (b.t.length > 2 * this.blockSize) {
      const h = b.t.length >> 1;
      const nb = newBlock(b.t.splice(h), b.f.splice(h), b.add);
      bounds(b);
      this.blocks.splice(this.lk + 1, 0, nb);
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
    if (b.t.length === 0) this.blocks.splice(k, 1);
    else if (i > 0) {
      // Its value is still in the block (the neighbour before it).
      b.dirty = true;
      b.scans = 0;
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
        b.dirty = true;
        b.scans = 0;
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
   * `duration` (all values exact integers, so run lengths compare exactly).
   */
  private firstRun(procs: number, duration: number, start: number): number {
    this.locate(start);
    const bs = this.blocks;
    const k0 = this.lk;
    // run: start of the current run of non-short segments (NaN inside a short stretch).
    let run = NaN;
    const scanBlock = (b: Block, from: number): number => {
      for (let i = from; i < b.t.length; i++) {
        if (b.f[i] + b.add < procs) {
          if (run + duration <= b.t[i]) return run;
          run = NaN;
        } else if (Number.isNaN(run)) {
          run = i === from && b === bs[k0] ? start : b.t[i];
        }
      }
      return NaN;
    };
    let r = scanBlock(bs[k0], this.li);
    if (!Number.isNaN(r)) return r;
    for (let k = k0 + 1; k < bs.length; k++) {
      const b = bs[k];
      const p = procs - b.add;
      if (bound(b).max < p) {
        if (run + duration <= b.t[0]) return run;
        run = NaN;
        continue;
      }
      if (b.min >= p) {
        if (Number.isNaN(run)) run = b.t[0];
        continue;
      }
      if (b.dirty) {
        // A block that keeps changing (reservations moved earlier one by one)
        // is cheaper to scan than to summarise.
        if (++b.scans <= 2) {
          r = scanBlock(b, 0);
          if (!Number.isNaN(r)) return r;
          continue;
        }
        tables(b);
      }
      const vals = b.vals;
      let lo = 0;
      let hi = vals.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (vals[mid] < p) lo = mid + 1;
        else hi = mid;
      }
      const f = b.pre[lo];
      if (Number.isNaN(run) && f > 0) run = b.t[0];
      if (run + duration <= b.t[f]) return run;
      if (b.best[lo] >= duration) {
        // best is an upper bound (see tables): scan the block; the run state carries over.
        run = NaN;
        r = scanBlock(b, f);
        if (!Number.isNaN(r)) return r;
        continue;
      }
      const l = b.suf[lo];
      run = l + 1 < b.t.length ? b.t[l + 1] : NaN;
    }
    // The last segment lasts forever.
    return Number.isNaN(run) ? Infinity : run;
  }

  /** Forget everything before `t`. */
  trim(t: number): void {
    if (t <= this.origin) return;
    this.locate(t);
    let removed = 0;
    for (let k = 0; k < this.lk; k++) removed += this.blocks[k].t.length;
    if (this.lk > 0) this.blocks.splice(0, this.lk);
    const b = this.blocks[0];
    if (this.li > 0) {
      b.t.splice(0, this.li);
      b.f.splice(0, this.li);
      removed += this.li;
      bounds(b);
    }
    b.t[0] = t;
    b.dirty = true;
    b.scans = 0;
    this.count -= removed;
    if (!isExact(t)) this.exact = false;
  }

  segments(): ProfileSegment[] {
    const out: ProfileSegment[] = [];
    for (const b of this.blocks) for (let i = 0; i < b.t.length; i++) out.push({ time: b.t[i], free: b.f[i] + b.add });
    return out;
  }
}

function isExact(t: number): boolean {
  return Number.isInteger(t) && Math.abs(t) <= EXACT;
}
