/**
 * Sets of processing elements (PEs) as fixed-size bitsets over Uint32Array.
 *
 * A 1,024-PE machine needs 32 words per set, so union, difference,
 * intersection tests and counts are 32-step loops instead of set-of-number
 * operations: this is what keeps the availability records cheap to update.
 * Functions take the word count from their arguments; all sets of one
 * machine share the same length (`peWords(machineSize)`).
 */
import { InputError } from '../../util/errors';

/** A PE set: bit i of word i >>> 5 is PE i. Bits at or above the machine size stay 0. */
export type PeSet = Uint32Array;

/** Number of 32-bit words needed for `machineSize` PEs. */
export function peWords(machineSize: number): number {
  if (!Number.isInteger(machineSize) || machineSize < 1) {
    throw new InputError(`machineSize must be a positive integer, got ${machineSize}`, { source: 'peWords', field: 'machineSize' });
  }
  return (machineSize + 31) >>> 5;
}

/** The empty set for a machine of `machineSize` PEs. */
export function emptyPeSet(machineSize: number): PeSet {
  return new Uint32Array(peWords(machineSize));
}

/** The set of all PEs 0 … machineSize−1. */
export function fullPeSet(machineSize: number): PeSet {
  const s = emptyPeSet(machineSize);
  const full = machineSize >>> 5;
  for (let w = 0; w < full; w++) s[w] = 0xffffffff;
  const rest = machineSize & 31;
  if (rest) s[full] = (1 << rest) - 1;
  return s;
}

/** A set holding the listed PE ids. */
export function peSetOf(machineSize: number, ids: Iterable<number>): PeSet {
  const s = emptyPeSet(machineSize);
  for (const id of ids) {
    if (!Number.isInteger(id) || id < 0 || id >= machineSize) {
      throw new InputError(`PE id ${id} is outside 0..${machineSize - 1}`, { source: 'peSetOf', field: 'ids' });
    }
    s[id >>> 5] |= 1 << (id & 31);
  }
  return s;
}

/** PE ids in increasing order. */
export function peIds(set: PeSet): number[] {
  const out: number[] = [];
  for (let w = 0; w < set.length; w++) {
    let bits = set[w];
    while (bits !== 0) {
      const low = bits & -bits;
      out.push((w << 5) + (31 - Math.clz32(low)));
      bits ^= low;
    }
  }
  return out;
}

/** Population count of one 32-bit word. */
function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Number of PEs in the set. */
export function peCount(set: PeSet): number {
  let n = 0;
  for (let w = 0; w < set.length; w++) n += popcount32(set[w]);
  return n;
}

/** True when a PE set holds no processing element. */
export function peIsEmpty(set: PeSet): boolean {
  for (let w = 0; w < set.length; w++) if (set[w] !== 0) return false;
  return true;
}

/** True when two PE sets hold the same processing elements. */
export function peEquals(a: PeSet, b: PeSet): boolean {
  for (let w = 0; w < a.length; w++) if (a[w] !== b[w]) return false;
  return true;
}

/** True when the sets share at least one PE. */
export function peIntersects(a: PeSet, b: PeSet): boolean {
  for (let w = 0; w < a.length; w++) if ((a[w] & b[w]) !== 0) return true;
  return false;
}

/** True when every PE of `sub` is in `sup`. */
export function peContains(sup: PeSet, sub: PeSet): boolean {
  for (let w = 0; w < sub.length; w++) if ((sub[w] & ~sup[w]) !== 0) return false;
  return true;
}

/** target ← target ∪ other (in place). */
export function peUnionInto(target: PeSet, other: PeSet): PeSet {
  for (let w = 0; w < target.length; w++) target[w] |= other[w];
  return target;
}

/** target ← target \ other (in place). */
export function peSubtractInto(target: PeSet, other: PeSet): PeSet {
  for (let w = 0; w < target.length; w++) target[w] &= ~other[w];
  return target;
}

/** The PEs of the machine not in `busy`. */
export function peComplement(busy: PeSet, machineSize: number): PeSet {
  const full = fullPeSet(machineSize);
  return peSubtractInto(full, busy);
}

/**
 * The `count` lowest-numbered PEs of `set`, or undefined when it holds fewer.
 * Lowest-numbered first keeps allocations packed at one end of the machine.
 */
export function peTakeLowest(set: PeSet, count: number): PeSet | undefined {
  const out = new Uint32Array(set.length);
  let left = count;
  for (let w = 0; w < set.length && left > 0; w++) {
    let bits = set[w];
    if (bits === 0) continue;
    const have = popcount32(bits);
    if (have <= left) {
      out[w] = bits;
      left -= have;
      continue;
    }
    let take = 0;
    while (left > 0) {
      const low = bits & -bits;
      take |= low;
      bits ^= low;
      left--;
    }
    out[w] = take >>> 0;
  }
  return left === 0 ? out : undefined;
}

/**
 * `count` PEs of `set` drawn uniformly at random (a partial Fisher–Yates
 * shuffle of its ids in ascending order, one `rng.int` per PE taken), or
 * undefined when it holds fewer.
 */
export function peTakeRandom(set: PeSet, count: number, rng: { int(low: number, high: number): number }): PeSet | undefined {
  const ids = peIds(set);
  if (ids.length < count) return undefined;
  const out = new Uint32Array(set.length);
  for (let i = 0; i < count; i++) {
    const j = rng.int(i, ids.length - 1);
    [ids[i], ids[j]] = [ids[j], ids[i]];
    out[ids[i] >>> 5] |= 1 << (ids[i] & 31);
  }
  return out;
}

/** Compact text form, e.g. "0-3,8,10-11" (for tests and tables). */
export function peSetToString(set: PeSet): string {
  const ids = peIds(set);
  const parts: string[] = [];
  for (let i = 0; i < ids.length; ) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === ids[j] + 1) j++;
    parts.push(i === j ? `${ids[i]}` : `${ids[i]}-${ids[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}
