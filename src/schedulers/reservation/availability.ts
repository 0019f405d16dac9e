/**
 * The slot-based availability structure of Li et al. (section 4): a list of
 * records {time, PEs busy from that time on} kept sorted by time — the
 * paper's AvailRectList together with its TimeSet index — and the three
 * operations addAllocation, deleteAllocation and findAllocation.
 *
 * Container. The paper describes a linked list plus a sorted set of times.
 * Here the records live in two parallel arrays sorted by time (times and PE
 * bitsets), searched by binary search. Inserting or removing a record moves
 * array slots (a memmove of pointers), which for the ~20,000 records of
 * 10,000 live reservations is a few microseconds, below the cost of the
 * bitset work each operation does anyway; see bench/reservation.ts for the
 * measured throughput. Range scans are index walks with no pointer chasing.
 *
 * Canonical form. After every operation (the paper's "clean possible
 * redundant records"): no record has the same busy set as the record just
 * before it, and the first record is not empty. The busy-over-time step
 * function therefore has exactly one representation, which is why adding
 * then deleting an allocation restores the structure record by record.
 *
 * History. `advanceTo(now)` forgets the past: the records before `now` are
 * folded into one record at `now` holding the PEs busy at `now`. The paper's
 * worked example (step 4) ends with its first record relabelled to the time of
 * the deletion, which is this folding. Operations never look before `now`:
 * an availability rectangle begins at `now` at the earliest.
 */
import {
  PeSet,
  emptyPeSet,
  fullPeSet,
  peContains,
  peCount,
  peEquals,
  peIntersects,
  peIsEmpty,
  peSetToString,
  peSubtractInto,
  peTakeLowest,
  peUnionInto,
  peWords,
} from './pe-set';
import { AvailabilityRectangle, ReservationPolicy, checkReservationPolicy, chooseRectangle } from './policies';

/** One record of the list: from `time` on (until the next record), the PEs in `busy` are taken. */
export interface SlotRecord {
  time: number;
  busy: PeSet;
}

/** What findAllocation returns: the chosen start time, the PEs, and the rectangle that led to it. */
export interface ReservationAllocation {
  start: number;
  end: number;
  /** The PEs reserved for the job (bitset). */
  pes: PeSet;
  /** The chosen maximum availability rectangle. */
  rectangle: AvailabilityRectangle;
}

export interface AvailabilityOptions {
  /** Current time; nothing before it is kept or searched (default −Infinity: keep everything). */
  now?: number;
}

export class AvailabilityProfile {
  readonly machineSize: number;
  private readonly words: number;
  private readonly allPes: PeSet;
  /** Sorted record times (the TimeSet). */
  private times: number[] = [];
  /** Busy PEs of each record, parallel to `times` (the AvailRectList). */
  private sets: PeSet[] = [];
  private _now: number;

  constructor(machineSize: number, options: AvailabilityOptions = {}) {
    this.words = peWords(machineSize);
    this.machineSize = machineSize;
    this.allPes = fullPeSet(machineSize);
    this._now = options.now ?? -Infinity;
    if (Number.isNaN(this._now)) throw new RangeError('AvailabilityProfile: now must be a number');
  }

  /** Current time (see advanceTo). */
  get now(): number {
    return this._now;
  }

  /** Number of records. */
  get size(): number {
    return this.times.length;
  }

  /** Copies of all records, in time order. */
  records(): SlotRecord[] {
    return this.times.map((time, i) => ({ time, busy: this.sets[i].slice() }));
  }

  /** Records as readable text, e.g. "{0: 0-7} {10: 0-3} {30: ø}" (tests, debugging). */
  toString(): string {
    return this.times.map((t, i) => `{${t}: ${peIsEmpty(this.sets[i]) ? 'ø' : peSetToString(this.sets[i])}}`).join(' ');
  }

  /** The PEs busy at time t (a copy). */
  busyAt(time: number): PeSet {
    const i = this.indexAtOrBefore(time);
    return i < 0 ? emptyPeSet(this.machineSize) : this.sets[i].slice();
  }

  /** Index of the last record with time ≤ t, or −1. */
  private indexAtOrBefore(t: number): number {
    const times = this.times;
    let lo = 0;
    let hi = times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (times[mid] <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /** Index of the first record with time ≥ t (times.length when none). */
  private lowerBound(t: number): number {
    const times = this.times;
    let lo = 0;
    let hi = times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (times[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private checkPes(pes: PeSet, where: string): void {
    if (!(pes instanceof Uint32Array) || pes.length !== this.words) {
      throw new RangeError(`${where}: PE set must be a Uint32Array of ${this.words} words for ${this.machineSize} PEs`);
    }
    if (!peContains(this.allPes, pes)) throw new RangeError(`${where}: PE set names PEs at or above the machine size ${this.machineSize}`);
    if (peIsEmpty(pes)) throw new RangeError(`${where}: PE set is empty`);
  }

  private checkInterval(start: number, end: number, where: string): void {
    if (!Number.isFinite(start) || !Number.isFinite(end) || !(start < end)) {
      throw new RangeError(`${where}: need finite start < end, got [${start}, ${end})`);
    }
  }

  /** Make sure a record exists exactly at time t; returns its index. */
  private splitAt(t: number): number {
    const i = this.indexAtOrBefore(t);
    if (i >= 0 && this.times[i] === t) return i;
    const copy = i >= 0 ? this.sets[i].slice() : emptyPeSet(this.machineSize);
    this.times.splice(i + 1, 0, t);
    this.sets.splice(i + 1, 0, copy);
    return i + 1;
  }

  /** Remove record i if it repeats its predecessor or is an empty first record. */
  private cleanAt(i: number): void {
    if (i < 0 || i >= this.times.length) return;
    const redundant = i === 0 ? peIsEmpty(this.sets[0]) : peEquals(this.sets[i], this.sets[i - 1]);
    if (redundant) {
      this.times.splice(i, 1);
      this.sets.splice(i, 1);
    }
  }

  /**
   * Reserve `pes` during [start, end) (paper Algorithm 1). Throws when some of
   * the PEs are already taken in that interval, or when start is before now.
   */
  addAllocation(start: number, end: number, pes: PeSet): void {
    this.checkInterval(start, end, 'addAllocation');
    this.checkPes(pes, 'addAllocation');
    if (start < this._now) throw new RangeError(`addAllocation: start ${start} is before the current time ${this._now}`);
    // Validate before touching anything, so a failed call leaves no trace.
    // Overlapping records: the one in force at start, and every later one before end.
    for (let k = Math.max(0, this.indexAtOrBefore(start)); k < this.times.length && this.times[k] < end; k++) {
      if (peIntersects(this.sets[k], pes)) {
        throw new RangeError(
          `addAllocation: PEs ${peSetToString(pes)} are not all free in [${start}, ${end}); busy from ${this.times[k]}: ${peSetToString(this.sets[k])}`,
        );
      }
    }
    this.update(start, end, pes, true);
  }

  /**
   * Release `pes` during [start, end) (paper Algorithm 2). The part before
   * `now` is forgotten history and is skipped; an interval wholly in the past
   * is a no-op. Throws when some PEs are not reserved throughout the interval.
   */
  deleteAllocation(start: number, end: number, pes: PeSet): void {
    this.checkInterval(start, end, 'deleteAllocation');
    this.checkPes(pes, 'deleteAllocation');
    const from = Math.max(start, this._now);
    if (from >= end) return;
    const i0 = this.indexAtOrBefore(from);
    if (i0 < 0) throw new RangeError(`deleteAllocation: PEs ${peSetToString(pes)} are not reserved at ${from} (no record)`);
    for (let k = i0; k < this.times.length && this.times[k] < end; k++) {
      if (!peContains(this.sets[k], pes)) {
        throw new RangeError(
          `deleteAllocation: PEs ${peSetToString(pes)} are not all reserved in [${from}, ${end}); at ${Math.max(this.times[k], from)} busy: ${peSetToString(this.sets[k])}`,
        );
      }
    }
    this.update(from, end, pes, false);
  }

  private update(start: number, end: number, pes: PeSet, add: boolean): void {
    const si = this.splitAt(start);
    const ei = this.splitAt(end);
    for (let k = si; k < ei; k++) {
      if (add) peUnionInto(this.sets[k], pes);
      else peSubtractInto(this.sets[k], pes);
    }
    // End first: removing it does not shift the start's index.
    this.cleanAt(ei);
    this.cleanAt(si);
  }

  /**
   * Forget everything before `now`: the records at or before it fold into one
   * record at `now` (dropped when empty). Time never goes backwards.
   */
  advanceTo(now: number): void {
    if (!Number.isFinite(now)) throw new RangeError(`advanceTo: now must be finite, got ${now}`);
    if (now < this._now) throw new RangeError(`advanceTo: time cannot go back from ${this._now} to ${now}`);
    this._now = now;
    const i = this.indexAtOrBefore(now);
    if (i < 0) return;
    if (i > 0) {
      this.times.splice(0, i);
      this.sets.splice(0, i);
    }
    this.times[0] = now;
    this.cleanAt(0);
  }

  /**
   * Candidate start times for a request (paper section 4.2): the existing
   * record times inside [ready, deadline], together with ready and deadline
   * themselves, and each of those minus the duration; only the ones within
   * [ready, deadline − duration] are kept. Sorted, without repeats.
   *
   * Counting ready and deadline as time slots is what reproduces the paper's
   * worked example (candidates t2, t3, t6, t7 there).
   */
  candidateStartTimes(ready: number, duration: number, deadline: number): number[] {
    const latest = deadline - duration;
    if (!(latest >= ready)) return [];
    // Two sorted streams: slot times s with ready ≤ s ≤ latest, and s − duration
    // for slot times ready + duration ≤ s ≤ deadline. Merge without repeats.
    const times = this.times;
    const out: number[] = [ready];
    let a = this.lowerBound(ready);
    let b = this.lowerBound(ready + duration);
    const pushUnique = (t: number): void => {
      if (t > out[out.length - 1]) out.push(t);
    };
    for (;;) {
      const ta = a < times.length && times[a] <= latest ? times[a] : Infinity;
      const tb = b < times.length && times[b] <= deadline ? times[b] - duration : Infinity;
      if (ta === Infinity && tb === Infinity) break;
      if (ta <= tb) {
        pushUnique(ta);
        a++;
      } else {
        pushUnique(tb);
        b++;
      }
    }
    pushUnique(latest);
    return out;
  }

  /**
   * The maximum availability rectangle of a start time: the PEs free during
   * all of [start, start + duration), and the longest interval [begin, end)
   * around it during which all of those PEs stay free. `begin` is at least
   * `now`; `end` is Infinity when nothing later takes any of them. Returns
   * undefined when fewer than `minPes` PEs are free (not a feasible start).
   * With `freeOut`, the free set is written there.
   */
  availabilityRectangle(start: number, duration: number, minPes = 1, freeOut?: PeSet): AvailabilityRectangle | undefined {
    const times = this.times;
    const sets = this.sets;
    const end = start + duration;
    const free = freeOut ?? emptyPeSet(this.machineSize);
    free.set(this.allPes);
    const i0 = this.indexAtOrBefore(start);
    let k = Math.max(i0, 0);
    for (; k < times.length && times[k] < end; k++) peSubtractInto(free, sets[k]);
    const freePes = peCount(free);
    if (freePes < minPes) return undefined;
    // Forward: the first later record that takes one of the free PEs.
    let rectEnd = Infinity;
    for (; k < times.length; k++) {
      if (peIntersects(sets[k], free)) {
        rectEnd = times[k];
        break;
      }
    }
    // Backward from the record before the one in force at start.
    let begin = -Infinity;
    for (let j = i0 - 1; j >= 0; j--) {
      if (peIntersects(sets[j], free)) {
        begin = times[j + 1];
        break;
      }
    }
    return { start, begin: Math.max(begin, this._now), end: rectEnd, freePes };
  }

  /** Every feasible start time of a request with its maximum availability rectangle. */
  availabilityRectangles(ready: number, duration: number, deadline: number, pes: number): AvailabilityRectangle[] {
    this.checkRequest(ready, duration, deadline, pes, 'availabilityRectangles');
    const out: AvailabilityRectangle[] = [];
    const scratch = emptyPeSet(this.machineSize);
    for (const t of this.candidateStartTimes(ready, duration, deadline)) {
      const r = this.availabilityRectangle(t, duration, pes, scratch);
      if (r) out.push(r);
    }
    return out;
  }

  private checkRequest(ready: number, duration: number, deadline: number, pes: number, where: string): void {
    if (!Number.isFinite(ready)) throw new RangeError(`${where}: ready time must be finite, got ${ready}`);
    if (!(duration > 0) || !Number.isFinite(duration)) throw new RangeError(`${where}: duration must be a positive finite number, got ${duration}`);
    if (!(deadline >= ready + duration)) throw new RangeError(`${where}: deadline ${deadline} is before ready + duration = ${ready + duration}`);
    if (!Number.isInteger(pes) || pes < 1 || pes > this.machineSize) {
      throw new RangeError(`${where}: PE count must be an integer in 1..${this.machineSize}, got ${pes}`);
    }
    if (ready < this._now) throw new RangeError(`${where}: ready time ${ready} is before the current time ${this._now}`);
  }

  /**
   * Search a feasible allocation (paper Algorithm 3): a start time in
   * [ready, deadline − duration] chosen by `policy` among the candidate start
   * times, and `pes` PEs free throughout [start, start + duration). The PEs are
   * the lowest-numbered free ones of the chosen rectangle. Returns null when
   * no candidate has enough free PEs (the request is rejected). The structure
   * is not changed: call addAllocation with the result to reserve it.
   */
  findAllocation(ready: number, duration: number, deadline: number, pes: number, policy: ReservationPolicy): ReservationAllocation | null {
    checkReservationPolicy(policy);
    this.checkRequest(ready, duration, deadline, pes, 'findAllocation');
    if (this.times.length === 0) {
      // Paper line 2–4: an empty list means everything is free from ready on.
      return {
        start: ready,
        end: ready + duration,
        pes: peTakeLowest(this.allPes, pes) as PeSet,
        rectangle: { start: ready, begin: this._now, end: Infinity, freePes: this.machineSize },
      };
    }
    let chosen: AvailabilityRectangle | undefined;
    if (policy === 'FF') {
      // The earliest feasible candidate wins outright: stop at the first one.
      const scratch = emptyPeSet(this.machineSize);
      for (const t of this.candidateStartTimes(ready, duration, deadline)) {
        chosen = this.availabilityRectangle(t, duration, pes, scratch);
        if (chosen) break;
      }
    } else {
      chosen = chooseRectangle(policy, this.availabilityRectangles(ready, duration, deadline, pes));
    }
    if (!chosen) return null;
    const free = emptyPeSet(this.machineSize);
    this.availabilityRectangle(chosen.start, duration, pes, free);
    return { start: chosen.start, end: chosen.start + duration, pes: peTakeLowest(free, pes) as PeSet, rectangle: chosen };
  }

  /** Check the canonical-form invariants; throws naming the first broken one (tests). */
  checkInvariants(): void {
    for (let i = 0; i < this.times.length; i++) {
      if (i > 0 && !(this.times[i] > this.times[i - 1])) throw new Error(`records not strictly sorted at index ${i}`);
      if (i === 0 && peIsEmpty(this.sets[0])) throw new Error('first record is empty');
      if (i > 0 && peEquals(this.sets[i], this.sets[i - 1])) throw new Error(`record ${i} (time ${this.times[i]}) repeats its predecessor`);
    }
    if (this.times.length > 0 && !peIsEmpty(this.sets[this.sets.length - 1])) throw new Error('last record is not empty');
  }
}
