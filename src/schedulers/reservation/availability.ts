/**
 * The slot-based availability structure of Li et al. (section 4): a list of
 * records {time, PEs busy from that time on} kept sorted by time — the
 * paper's AvailRectList together with its TimeSet index — and the three
 * operations addAllocation, deleteAllocation and findAllocation.
 *
 * Container. The paper describes a linked list plus a sorted set of times.
 * Here the records live in one sorted sequence split into blocks of at most
 * 128 records (RecordList): a lookup by time is a binary search over the
 * blocks and then within one block, an insert or removal shifts one block,
 * and range scans walk arrays. With 10,000 live reservations (~15,000
 * records) a flat sorted array spent about as long shifting elements as
 * searching; bench/reservation.ts measures both (blockSize Infinity is the
 * flat array).
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
  peTakeRandom,
  peUnionInto,
  peWords,
} from './pe-set';
import {
  AvailabilityRectangle,
  AvailabilityView,
  BUILTIN_RESERVATION_POLICIES,
  RectangleContext,
  ReservationPolicy,
  ReservationPolicyObject,
  checkReservationPolicy,
  chooseByScore,
  isBuiltinReservationPolicy,
} from './policies';
import { Cursor, Rec, RecordList } from './record-list';
import { InputError } from '../../util/errors';
import { Rng, Seed } from '../../util/random';
import { InvariantError } from '../../util/invariants';
import { PolicyGuard } from '../../util/policy-guard';

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

/** Options of an `AvailabilityProfile`: the current time and the block size of its sorted container. */
export interface AvailabilityOptions {
  /** Current time; nothing before it is kept or searched (default −Infinity: keep everything). */
  now?: number;
  /** Records per block of the sorted container (default 128; Infinity: one flat sorted array). */
  blockSize?: number;
}

/**
 * Two choices the paper leaves open, as switches (section 4.2 names neither).
 * The defaults are this toolkit's reading; the alternatives are what notebook
 * 04's ablation runs against the published likeness of the policies.
 */
export interface ReservationRules {
  /**
   * End of a rectangle whose free PEs no later reservation takes:
   * 'infinity' (default: they stay free for ever) or 'last-slot' (the last
   * time slot of the list, the latest reservation end, never before the
   * candidate's own end: the paper's example names rectangles by their
   * "beginning slot and ending slot").
   */
  openRectangleEnd?: 'infinity' | 'last-slot';
  /**
   * Which PEs of the chosen rectangle the job gets: 'lowest' (default, the
   * lowest-numbered free ones) or 'random' (drawn uniformly, seeded by `peSeed`).
   */
  peSelection?: 'lowest' | 'random';
  /** Seed of the 'random' PE selection (default 1). */
  peSeed?: Seed;
}

/** Throw an InputError unless `rules` holds known switch values. */
export function checkReservationRules(rules: ReservationRules, source = 'reservation rules'): Required<Omit<ReservationRules, 'peSeed'>> & { peSeed: Seed } {
  const openRectangleEnd = rules.openRectangleEnd ?? 'infinity';
  const peSelection = rules.peSelection ?? 'lowest';
  if (openRectangleEnd !== 'infinity' && openRectangleEnd !== 'last-slot') {
    throw new InputError(`${source}: openRectangleEnd must be 'infinity' or 'last-slot', got ${JSON.stringify(openRectangleEnd)}`, { source, field: 'openRectangleEnd' });
  }
  if (peSelection !== 'lowest' && peSelection !== 'random') {
    throw new InputError(`${source}: peSelection must be 'lowest' or 'random', got ${JSON.stringify(peSelection)}`, { source, field: 'peSelection' });
  }
  return { openRectangleEnd, peSelection, peSeed: rules.peSeed ?? 1 };
}

/** Free processing elements over time for advance reservations: find, add and delete allocations. */
export class AvailabilityProfile {
  readonly machineSize: number;
  private readonly words: number;
  private readonly allPes: PeSet;
  /** The records, sorted by time (AvailRectList and TimeSet in one structure). */
  private readonly list: RecordList;
  private _now: number;

  private readonly lastSlotEnds: boolean;
  /** The PE draws of the 'random' selection (undefined: lowest-numbered). */
  private readonly peRng: Rng | undefined;

  constructor(machineSize: number, options: AvailabilityOptions & ReservationRules = {}) {
    const rules = checkReservationRules(options, 'AvailabilityProfile');
    this.lastSlotEnds = rules.openRectangleEnd === 'last-slot';
    this.peRng = rules.peSelection === 'random' ? new Rng(rules.peSeed) : undefined;
    this.words = peWords(machineSize);
    this.machineSize = machineSize;
    this.allPes = fullPeSet(machineSize);
    this._now = options.now ?? -Infinity;
    if (Number.isNaN(this._now)) throw new InputError('AvailabilityProfile: now must be a number', { source: 'AvailabilityProfile', field: 'now' });
    this.list = new RecordList(options.blockSize ?? 128);
  }

  /** Current time (see advanceTo). */
  get now(): number {
    return this._now;
  }

  /** Number of records. */
  get size(): number {
    return this.list.size;
  }

  /** Copies of all records, in time order. */
  records(): SlotRecord[] {
    return this.list.toArray().map((r) => ({ time: r.time, busy: r.busy.slice() }));
  }

  /** Records as readable text, e.g. "{0: 0-7} {10: 0-3} {30: ø}" (tests, debugging). */
  toString(): string {
    return this.list
      .toArray()
      .map((r) => `{${r.time}: ${peIsEmpty(r.busy) ? 'ø' : peSetToString(r.busy)}}`)
      .join(' ');
  }

  /** The PEs busy at time t (a copy). */
  busyAt(time: number): PeSet {
    const c = this.list.atOrBefore(time);
    return c.index < 0 ? emptyPeSet(this.machineSize) : this.list.get(c).busy.slice();
  }

  /** Cursor of the record in force at t, or of the first record when t precedes them all. */
  private overlapStart(t: number): Cursor {
    const c = this.list.atOrBefore(t);
    return c.index < 0 ? this.list.first() : c;
  }

  private checkPes(pes: PeSet, where: string): void {
    if (!(pes instanceof Uint32Array) || pes.length !== this.words) {
      throw new InputError(`${where}: PE set must be a Uint32Array of ${this.words} words for ${this.machineSize} PEs`, { source: where, field: 'pes' });
    }
    if (!peContains(this.allPes, pes)) throw new InputError(`${where}: PE set names PEs at or above the machine size ${this.machineSize}`, { source: where, field: 'pes' });
    if (peIsEmpty(pes)) throw new InputError(`${where}: PE set is empty`, { source: where, field: 'pes' });
  }

  private checkInterval(start: number, end: number, where: string): void {
    if (!Number.isFinite(start) || !Number.isFinite(end) || !(start < end)) {
      throw new InputError(`${where}: need finite start < end, got [${start}, ${end})`, { source: where, field: 'interval' });
    }
  }

  /** Make sure a record exists exactly at time t; returns it. */
  private splitAt(t: number): Rec {
    const c = this.list.atOrBefore(t);
    if (c.index >= 0 && this.list.get(c).time === t) return this.list.get(c);
    const prev = c.index >= 0 ? this.list.get(c) : undefined;
    const rec: Rec = { time: t, busy: prev ? prev.busy.slice() : emptyPeSet(this.machineSize), count: prev ? prev.count : 0 };
    this.list.insertAfter(c, rec);
    return rec;
  }

  /** Remove `rec` if it repeats its predecessor or is an empty first record. */
  private clean(rec: Rec): void {
    const c = this.list.atOrBefore(rec.time);
    if (c.index < 0 || this.list.get(c) !== rec) return;
    const prev = this.list.before(c);
    const redundant = prev ? peEquals(prev.busy, rec.busy) : peIsEmpty(rec.busy);
    if (redundant) this.list.remove(c);
  }

  /**
   * Reserve `pes` during [start, end) (paper Algorithm 1). Throws when some of
   * the PEs are already taken in that interval, or when start is before now.
   */
  addAllocation(start: number, end: number, pes: PeSet): void {
    this.checkInterval(start, end, 'addAllocation');
    this.checkPes(pes, 'addAllocation');
    if (start < this._now) throw new InputError(`addAllocation: start ${start} is before the current time ${this._now}`, { source: 'addAllocation', field: 'start' });
    // Validate before touching anything, so a failed call leaves no trace.
    // Overlapping records: the one in force at start, and every later one before end.
    const list = this.list;
    for (const c = this.overlapStart(start); list.valid(c) && list.get(c).time < end; list.next(c)) {
      const r = list.get(c);
      if (peIntersects(r.busy, pes)) {
        throw new InputError(`addAllocation: PEs ${peSetToString(pes)} are not all free in [${start}, ${end}); busy from ${r.time}: ${peSetToString(r.busy)}`, { source: 'addAllocation', field: 'pes' });
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
    const list = this.list;
    const c = list.atOrBefore(from);
    if (c.index < 0) throw new InputError(`deleteAllocation: PEs ${peSetToString(pes)} are not reserved at ${from} (no record)`, { source: 'deleteAllocation', field: 'pes' });
    for (; list.valid(c) && list.get(c).time < end; list.next(c)) {
      const r = list.get(c);
      if (!peContains(r.busy, pes)) {
        throw new InputError(`deleteAllocation: PEs ${peSetToString(pes)} are not all reserved in [${from}, ${end}); at ${Math.max(r.time, from)} busy: ${peSetToString(r.busy)}`, { source: 'deleteAllocation', field: 'pes' });
      }
    }
    this.update(from, end, pes, false);
  }

  private update(start: number, end: number, pes: PeSet, add: boolean): void {
    const recStart = this.splitAt(start);
    const recEnd = this.splitAt(end);
    const delta = add ? peCount(pes) : -peCount(pes);
    const list = this.list;
    for (const c = list.atOrBefore(start); list.get(c) !== recEnd; list.next(c)) {
      const r = list.get(c);
      if (add) peUnionInto(r.busy, pes);
      else peSubtractInto(r.busy, pes);
      r.count += delta;
    }
    this.clean(recEnd);
    this.clean(recStart);
  }

  /**
   * Forget everything before `now`: the records at or before it fold into one
   * record at `now` (dropped when empty). Time never goes backwards.
   */
  advanceTo(now: number): void {
    if (!Number.isFinite(now)) throw new InputError(`advanceTo: now must be finite, got ${now}`, { source: 'advanceTo', field: 'now' });
    if (now < this._now) throw new InputError(`advanceTo: time cannot go back from ${this._now} to ${now}`, { source: 'advanceTo', field: 'now' });
    this._now = now;
    const c = this.list.atOrBefore(now);
    if (c.index < 0) return;
    this.list.removeFirst(this.list.rank(c));
    this.list.setFirstTime(now);
    this.clean(this.list.get(this.list.first()));
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
    const list = this.list;
    const out: number[] = [ready];
    const a = list.firstAtOrAfter(ready);
    const b = list.firstAtOrAfter(ready + duration);
    const pushUnique = (t: number): void => {
      if (t > out[out.length - 1]) out.push(t);
    };
    for (;;) {
      const ta = list.valid(a) && list.get(a).time <= latest ? list.get(a).time : Infinity;
      const tb = list.valid(b) && list.get(b).time <= deadline ? list.get(b).time - duration : Infinity;
      if (ta === Infinity && tb === Infinity) break;
      if (ta <= tb) {
        pushUnique(ta);
        list.next(a);
      } else {
        pushUnique(tb);
        list.next(b);
      }
    }
    pushUnique(latest);
    return out;
  }

  /**
   * The maximum availability rectangle of a start time: the PEs free during
   * all of [start, start + duration), and the longest interval [begin, end)
   * around it during which all of those PEs stay free. `begin` is at least
   * `now`; `end` is Infinity when nothing later takes any of them (with the
   * 'last-slot' rule: the last record's time, at least start + duration). Returns
   * undefined when fewer than `minPes` PEs are free (not a feasible start).
   * With `freeOut`, the free set is written there.
   */
  availabilityRectangle(start: number, duration: number, minPes = 1, freeOut?: PeSet): AvailabilityRectangle | undefined {
    const list = this.list;
    const end = start + duration;
    const free = freeOut ?? emptyPeSet(this.machineSize);
    free.set(this.allPes);
    const inForce = list.atOrBefore(start);
    // Quick reject: one record alone already leaves too few PEs.
    const maxBusy = this.machineSize - minPes;
    for (const q = this.overlapStart(start); list.valid(q) && list.get(q).time < end; list.next(q)) {
      if (list.get(q).count > maxBusy) return undefined;
    }
    const c = this.overlapStart(start);
    for (; list.valid(c) && list.get(c).time < end; list.next(c)) peSubtractInto(free, list.get(c).busy);
    const freePes = peCount(free);
    if (freePes < minPes) return undefined;
    // Forward: the first later record that takes one of the free PEs.
    let rectEnd = Infinity;
    for (; list.valid(c); list.next(c)) {
      const r = list.get(c);
      if (peIntersects(r.busy, free)) {
        rectEnd = r.time;
        break;
      }
    }
    if (rectEnd === Infinity && this.lastSlotEnds) {
      const last = list.atOrBefore(Infinity);
      rectEnd = Math.max(end, last.index >= 0 ? list.get(last).time : -Infinity);
    }
    // Backward from the record before the one in force at start.
    let begin = -Infinity;
    if (inForce.index >= 0) {
      let after = list.get(inForce);
      for (const b = list.prev({ ...inForce }); b.index >= 0; list.prev(b)) {
        const r = list.get(b);
        if (peIntersects(r.busy, free)) {
          begin = after.time;
          break;
        }
        after = r;
      }
    }
    return { start, begin: Math.max(begin, this._now), end: rectEnd, freePes };
  }

  /** Every feasible start time of a request with its maximum availability rectangle. */
  availabilityRectangles(ready: number, duration: number, deadline: number, pes: number): AvailabilityRectangle[] {
    this.checkRequest(ready, duration, deadline, pes, 'availabilityRectangles');
    return [...this.candidates(ready, duration, deadline, pes)];
  }

  /** The feasible rectangles, lazily, in increasing start order (a policy may stop early). */
  private candidates(ready: number, duration: number, deadline: number, pes: number): CandidateRectangles {
    return new CandidateRectangles(this, this.candidateStartTimes(ready, duration, deadline), duration, pes);
  }

  private checkRequest(ready: number, duration: number, deadline: number, pes: number, where: string): void {
    if (!Number.isFinite(ready)) throw new InputError(`${where}: ready time must be finite, got ${ready}`, { source: where, field: 'ready' });
    if (!(duration > 0) || !Number.isFinite(duration)) throw new InputError(`${where}: duration must be a positive finite number, got ${duration}`, { source: where, field: 'duration' });
    if (!(deadline >= ready + duration)) throw new InputError(`${where}: deadline ${deadline} is before ready + duration = ${ready + duration}`, { source: where, field: 'deadline' });
    if (!Number.isInteger(pes) || pes < 1 || pes > this.machineSize) {
      throw new InputError(`${where}: PE count must be an integer in 1..${this.machineSize}, got ${pes}`, { source: where, field: 'pes' });
    }
    if (ready < this._now) throw new InputError(`${where}: ready time ${ready} is before the current time ${this._now}`, { source: where, field: 'ready' });
  }

  /**
   * Search a feasible allocation (paper Algorithm 3): a start time in
   * [ready, deadline − duration] chosen by `policy` among the candidate start
   * times, and `pes` PEs free throughout [start, start + duration). The PEs are
   * the lowest-numbered free ones of the chosen rectangle (or random ones, see
   * ReservationRules.peSelection). Returns null when
   * the policy chooses nothing (no candidate has enough free PEs, or a user
   * policy rejects the request). The structure is not changed: call
   * addAllocation with the result to reserve it.
   *
   * A policy's choice is checked (a start inside the window with enough free
   * PEs); a user policy's scores are checked too (no NaN). A violation is an
   * InvariantError (`reservation/policy`) naming the policy, request and time.
   * @param id request id, for error messages
   */
  findAllocation(
    ready: number,
    duration: number,
    deadline: number,
    pes: number,
    policy: ReservationPolicy | ReservationPolicyObject,
    id?: number,
  ): ReservationAllocation | null {
    const p = typeof policy === 'string' ? BUILTIN_RESERVATION_POLICIES[checkReservationPolicy(policy)] : policy;
    this.checkRequest(ready, duration, deadline, pes, 'findAllocation');
    // A user policy sees a read-only view of this profile and runs under a guard (util/policy-guard.ts).
    const guard = isBuiltinReservationPolicy(p) ? undefined : this.guardOf(p);
    const ctx: RectangleContext = { request: { id, ready, duration, deadline, pes }, now: this._now, machineSize: this.machineSize, profile: guard ? this.readOnlyView() : this };
    const candidates = this.candidates(ready, duration, deadline, pes);
    let chosen: AvailabilityRectangle | undefined;
    if (p.score) {
      const score = p.score;
      if (guard) {
        const checkScore = (s: number, r: AvailabilityRectangle) => {
          if (typeof s !== 'number' || Number.isNaN(s)) throw this.wrongChoice(p, id, `score ${String(s)} for the candidate starting at ${r.start} (need a number, not NaN)`);
        };
        chosen = chooseByScore((r, c) => guard.call('score', () => score(r, c)), candidates, ctx, checkScore);
      } else chosen = chooseByScore(score, candidates, ctx);
    } else {
      const choose = p.choose;
      chosen = guard ? guard.call('choose', () => choose(candidates, ctx)) : choose(candidates, ctx);
    }
    if (chosen === undefined || chosen === null) return null;
    const start = chosen.start;
    if (!(start >= ready && start + duration <= deadline)) throw this.wrongChoice(p, id, `chose start ${start}, outside [ready ${ready}, deadline ${deadline} − duration ${duration}]`);
    const free = emptyPeSet(this.machineSize);
    if (!this.availabilityRectangle(start, duration, pes, free)) throw this.wrongChoice(p, id, `chose start ${start}, where fewer than ${pes} PEs are free for ${duration} s`);
    const taken = this.peRng ? peTakeRandom(free, pes, this.peRng) : peTakeLowest(free, pes);
    return { start, end: start + duration, pes: taken as PeSet, rectangle: chosen };
  }

  private guards: WeakMap<ReservationPolicyObject, PolicyGuard> | undefined;
  private view: AvailabilityView | undefined;

  /** One guard per user policy and profile (its label is written to a worker's beacon once). */
  private guardOf(p: ReservationPolicyObject): PolicyGuard {
    const guards = (this.guards ??= new WeakMap());
    let g = guards.get(p);
    if (!g) guards.set(p, (g = new PolicyGuard(p, () => this._now)));
    return g;
  }

  /** What a user policy sees of the profile: its queries, never the profile itself. */
  private readOnlyView(): AvailabilityView {
    if (!this.view) {
      const self = this;
      this.view = Object.freeze({
        machineSize: this.machineSize,
        get now() { return self.now; },
        get size() { return self.size; },
        busyAt: (time: number) => self.busyAt(time),
        availabilityRectangle: (start: number, duration: number, minPes?: number, freeOut?: PeSet) => self.availabilityRectangle(start, duration, minPes, freeOut),
      });
    }
    return this.view;
  }

  private wrongChoice(p: ReservationPolicyObject, id: number | undefined, detail: string): InvariantError {
    return new InvariantError('reservation/policy', `policy ${p.name}: ${detail}`, { job: id, time: this._now });
  }

  /** Check the canonical-form invariants; throws an InvariantError (`reservation/structure`) naming the first broken one. */
  checkInvariants(): void {
    const recs = this.list.toArray();
    for (let i = 0; i < recs.length; i++) {
      if (i > 0 && !(recs[i].time > recs[i - 1].time)) throw new InvariantError('reservation/structure', `records not strictly sorted at index ${i}`);
      if (i === 0 && peIsEmpty(recs[0].busy)) throw new InvariantError('reservation/structure', 'first record is empty');
      if (recs[i].count !== peCount(recs[i].busy)) throw new InvariantError('reservation/structure', `record ${i}: cached PE count ${recs[i].count} is wrong`);
      if (i > 0 && peEquals(recs[i].busy, recs[i - 1].busy)) throw new InvariantError('reservation/structure', `record ${i} (time ${recs[i].time}) repeats its predecessor`);
    }
    if (recs.length > 0 && !peIsEmpty(recs[recs.length - 1].busy)) throw new InvariantError('reservation/structure', 'last record is not empty');
  }
}

/**
 * The feasible rectangles of a request, computed one at a time as a policy
 * walks them (in increasing start order), so that a chooser that stops early
 * (First Fit) does not pay for the rest. Iterate once.
 */
class CandidateRectangles implements IterableIterator<AvailabilityRectangle> {
  private i = 0;
  private readonly scratch: PeSet;

  constructor(
    private readonly profile: AvailabilityProfile,
    private readonly times: readonly number[],
    private readonly duration: number,
    private readonly pes: number,
  ) {
    this.scratch = emptyPeSet(profile.machineSize);
  }

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<AvailabilityRectangle, undefined> {
    while (this.i < this.times.length) {
      const r = this.profile.availabilityRectangle(this.times[this.i++], this.duration, this.pes, this.scratch);
      if (r) return { value: r, done: false };
    }
    return { value: undefined, done: true };
  }
}
