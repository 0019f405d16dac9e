/**
 * A sorted sequence of slot records split into blocks (a one-level B-tree,
 * in the manner of Python's sortedcontainers): records are found by binary
 * search over the blocks' first times and then inside one block, and an
 * insertion or removal shifts only the records of one block.
 *
 * Why blocks: with 10,000 live reservations the list holds ~15,000 records;
 * shifting a flat array of that length on every insert/remove cost about as
 * much as the whole search (bench/reservation.ts). A block size of Infinity
 * gives back the flat sorted array (kept for that comparison).
 *
 * Positions are cursors {block, index}; a cursor is valid until the next
 * insert or remove. Callers that modify while walking hold on to record
 * objects and look positions up again by time.
 */
import { InputError } from '../../util/errors';
import { PeSet } from './pe-set';

/** One slot record: from `time` on, the PEs in `busy` (count of them: `count`) are taken. */
export interface Rec {
  time: number;
  busy: PeSet;
  count: number;
}

/** A position in the list; index −1 in block 0 means "before the first record". */
export interface Cursor {
  block: number;
  index: number;
}

export class RecordList {
  private blocks: Rec[][] = [];
  /** First time of each block (blocks are never empty). */
  private firsts: number[] = [];
  private _size = 0;
  readonly maxBlock: number;

  constructor(maxBlock = 128) {
    if (!(maxBlock >= 4)) throw new InputError(`RecordList: maxBlock must be >= 4, got ${maxBlock}`, { source: 'RecordList', field: 'maxBlock' });
    this.maxBlock = maxBlock;
  }

  get size(): number {
    return this._size;
  }

  /** Cursor of the last record with time ≤ t; {block: 0, index: −1} when there is none. */
  atOrBefore(t: number): Cursor {
    const firsts = this.firsts;
    let lo = 0;
    let hi = firsts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (firsts[mid] <= t) lo = mid + 1;
      else hi = mid;
    }
    const b = lo - 1;
    if (b < 0) return { block: 0, index: -1 };
    const blk = this.blocks[b];
    let l = 0;
    let h = blk.length;
    while (l < h) {
      const mid = (l + h) >>> 1;
      if (blk[mid].time <= t) l = mid + 1;
      else h = mid;
    }
    return { block: b, index: l - 1 };
  }

  /** Cursor of the first record with time ≥ t (invalid — see `valid` — when none). */
  firstAtOrAfter(t: number): Cursor {
    const c = this.atOrBefore(t);
    if (c.index >= 0 && this.get(c).time === t) return c;
    this.next(c);
    return c;
  }

  /** The first record's cursor (invalid when empty). */
  first(): Cursor {
    return { block: 0, index: 0 };
  }

  valid(c: Cursor): boolean {
    return c.block >= 0 && c.block < this.blocks.length && c.index >= 0 && c.index < this.blocks[c.block].length;
  }

  get(c: Cursor): Rec {
    return this.blocks[c.block][c.index];
  }

  /** Move to the next record (in place); the cursor becomes invalid past the end. */
  next(c: Cursor): Cursor {
    if (c.index + 1 < (this.blocks[c.block]?.length ?? 0)) c.index++;
    else {
      c.block++;
      c.index = 0;
    }
    return c;
  }

  /** Move to the previous record (in place); index −1 before the first. */
  prev(c: Cursor): Cursor {
    if (c.index > 0) c.index--;
    else if (c.block > 0) {
      c.block--;
      c.index = this.blocks[c.block].length - 1;
    } else c.index = -1;
    return c;
  }

  /** The record just before `c`, or undefined. */
  before(c: Cursor): Rec | undefined {
    if (c.index > 0) return this.blocks[c.block][c.index - 1];
    if (c.block > 0) {
      const b = this.blocks[c.block - 1];
      return b[b.length - 1];
    }
    return undefined;
  }

  /** Insert right after cursor `c` (index −1: at the front). The caller keeps times sorted. */
  insertAfter(c: Cursor, rec: Rec): void {
    this._size++;
    if (this.blocks.length === 0) {
      this.blocks.push([rec]);
      this.firsts.push(rec.time);
      return;
    }
    const b = c.block;
    const i = c.index + 1;
    const blk = this.blocks[b];
    blk.splice(i, 0, rec);
    if (i === 0) this.firsts[b] = rec.time;
    if (blk.length > this.maxBlock) {
      const tail = blk.splice(blk.length >>> 1);
      this.blocks.splice(b + 1, 0, tail);
      this.firsts.splice(b + 1, 0, tail[0].time);
    }
  }

  /** Remove the record at `c`. */
  remove(c: Cursor): void {
    const blk = this.blocks[c.block];
    blk.splice(c.index, 1);
    this._size--;
    if (blk.length === 0) {
      this.blocks.splice(c.block, 1);
      this.firsts.splice(c.block, 1);
      return;
    }
    if (c.index === 0) this.firsts[c.block] = blk[0].time;
    // Merge a small block into its successor so blocks do not fragment.
    const nextBlk = this.blocks[c.block + 1];
    if (nextBlk && blk.length + nextBlk.length <= this.maxBlock >>> 1) {
      blk.push(...nextBlk);
      this.blocks.splice(c.block + 1, 1);
      this.firsts.splice(c.block + 1, 1);
    }
  }

  /** Remove the first `n` records. */
  removeFirst(n: number): void {
    let left = Math.min(n, this._size);
    this._size -= left;
    while (left > 0) {
      const blk = this.blocks[0];
      if (blk.length <= left) {
        left -= blk.length;
        this.blocks.shift();
        this.firsts.shift();
      } else {
        blk.splice(0, left);
        this.firsts[0] = blk[0].time;
        left = 0;
      }
    }
  }

  /** Change the time of the first record (the caller keeps order). */
  setFirstTime(t: number): void {
    this.blocks[0][0].time = t;
    this.firsts[0] = t;
  }

  /** Index (0-based rank) of a cursor: sum of earlier block sizes + index. */
  rank(c: Cursor): number {
    let r = c.index;
    for (let b = 0; b < c.block; b++) r += this.blocks[b].length;
    return r;
  }

  /** All records in order (the objects themselves). */
  toArray(): Rec[] {
    const out: Rec[] = [];
    for (const b of this.blocks) for (const r of b) out.push(r);
    return out;
  }
}
