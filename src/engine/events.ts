/**
 * The discrete-event core: a clock and a priority queue of timed callbacks.
 * It knows nothing about jobs or schedulers; everything else builds on it.
 *
 * Events at the same time run by `priority` (lower first), then in the order
 * they were scheduled (stable tie-break), so a run is fully deterministic.
 *
 * The queue is a binary heap of slots whose fields live in typed arrays, so
 * scheduling an event allocates nothing: a trace of a million jobs makes two
 * million events, and one object each (plus a closure to carry the job) was
 * half of a batch simulation's time, mostly in the garbage collector. A
 * handler gets an optional argument (`at(time, handler, options, arg)`), so
 * one handler serves every job. Cancelling removes the event at once.
 */
import { enlarged } from '../util/arrays';

/** An event's callback; `arg` is the value given to `at`/`after`. */
export type EventHandler<A = undefined> = (sim: Simulation, arg: A) => void;

/** A pending event's handle, for `cancel` (a number; stale handles are ignored). */
export type EventId = number;

/** Options of one scheduled event: its priority among events at the same time, and its kind. */
export interface EventOptions {
  /** Order among events at the same time: lower first (default 0). */
  priority?: number;
  /** A label for the event (shown when a run exceeds `maxEvents`). */
  kind?: string;
}

/** Options of a `Simulation`: start time and the event limit that stops a run-away simulation. */
export interface SimulationOptions {
  /** Start time of the clock (default 0). */
  startTime?: number;
  /** Stop after this many events (guard against runaway models; default Infinity). */
  maxEvents?: number;
}

// A handle is slot + SLOTS × (generation + 1), never 0 and below 2^53; a slot's generation grows
// each time it is freed, so a handle kept after its event ran or was cancelled no longer matches.
// A slot at MAX_GEN is retired instead of reused (after 2^27 reuses: one slot of memory).
const SLOTS = 2 ** 26;
const MAX_GEN = 2 ** 27 - 2;
const NO_OPTIONS: EventOptions = {};

/** The discrete-event core: a clock and a binary-heap event queue with a stable tie-break; `step()` and `run()`. */
export class Simulation {
  // Per slot made so far (`slots`): time, priority, sequence number, generation, heap position
  // (−1: free), handler, argument, label.
  private time = new Float64Array(64);
  private prio = new Float64Array(64);
  private seqOf = new Float64Array(64);
  private gen = new Float64Array(64);
  private pos = new Int32Array(64);
  private fn: (EventHandler<any> | undefined)[] = [];
  private arg: unknown[] = [];
  private kind: (string | undefined)[] = [];
  // The heap: slots ordered by (time, priority, seq).
  private heap = new Int32Array(64);
  private size = 0;
  private slots = 0;
  private freeSlots: number[] = [];
  private seq = 0;
  private _now: number;
  private _processed = 0;
  private stopped = false;
  private readonly maxEvents: number;

  constructor(options: SimulationOptions = {}) {
    this._now = options.startTime ?? 0;
    this.maxEvents = options.maxEvents ?? Infinity;
  }

  /** Current simulated time (seconds). */
  get now(): number {
    return this._now;
  }

  /** Number of events processed so far. */
  get processed(): number {
    return this._processed;
  }

  /** Number of pending events. */
  get pending(): number {
    return this.size;
  }

  /** Schedule `handler` at absolute time `time`, called with `arg`. Returns a handle for `cancel`. */
  at<A = undefined>(time: number, handler: EventHandler<A>, options: EventOptions = NO_OPTIONS, arg?: A): EventId {
    if (!Number.isFinite(time)) throw new RangeError(`event time must be finite, got ${time}`);
    if (time < this._now) throw new RangeError(`cannot schedule an event in the past (${time} < now ${this._now})`);
    const s = this.freeSlots.length > 0 ? (this.freeSlots.pop() as number) : this.newSlot();
    this.time[s] = time;
    this.prio[s] = options.priority ?? 0;
    this.seqOf[s] = this.seq++;
    this.fn[s] = handler;
    this.arg[s] = arg;
    this.kind[s] = options.kind;
    this.siftUp(this.size++, s);
    return s + SLOTS * (this.gen[s] + 1);
  }

  /** Schedule `handler` after `delay` seconds. */
  after<A = undefined>(delay: number, handler: EventHandler<A>, options: EventOptions = NO_OPTIONS, arg?: A): EventId {
    return this.at(this._now + delay, handler, options, arg);
  }

  /** Cancel a pending event; a handle whose event already ran or was cancelled is ignored. */
  cancel(id: EventId | undefined): void {
    if (id === undefined || !Number.isSafeInteger(id) || id < SLOTS) return;
    const s = id % SLOTS;
    if (s >= this.slots || this.pos[s] < 0 || (id - s) / SLOTS !== this.gen[s] + 1) return;
    const p = this.pos[s];
    this.release(s);
    const last = this.heap[--this.size];
    if (p === this.size) return;
    // The last slot fills the hole, moving up or down from there.
    if (p > 0 && this.less(last, this.heap[(p - 1) >> 1])) this.siftUp(p, last);
    else this.siftDown(p, last);
  }

  /** Time of the next event, or undefined when the queue is empty. */
  nextTime(): number | undefined {
    return this.size > 0 ? this.time[this.heap[0]] : undefined;
  }

  /** Stop the run after the current event. */
  stop(): void {
    this.stopped = true;
  }

  /** Process one event; false when nothing is left. */
  step(): boolean {
    if (this.size === 0) return false;
    const s = this.heap[0];
    const handler = this.fn[s] as EventHandler<unknown>;
    const arg = this.arg[s];
    this._now = this.time[s];
    this.release(s);
    const last = this.heap[--this.size];
    if (this.size > 0) this.siftDown(0, last);
    this._processed++;
    handler(this, arg);
    return true;
  }

  /** Run until the queue is empty, `until` is reached, or `stop()` is called. */
  run(until = Infinity): void {
    this.stopped = false;
    while (!this.stopped && this.size > 0) {
      const s = this.heap[0];
      if (this.time[s] > until) break;
      if (this._processed >= this.maxEvents) throw new Error(`simulation exceeded ${this.maxEvents} events at t=${this._now} (next: ${this.kind[s] ?? 'event'} at t=${this.time[s]})`);
      this.step();
    }
    if (until !== Infinity && !this.stopped && this._now < until) this._now = until;
  }

  /** a before b: earlier time, then lower priority, then scheduled first. */
  private less(a: number, b: number): boolean {
    const t = this.time;
    if (t[a] !== t[b]) return t[a] < t[b];
    const p = this.prio;
    return p[a] !== p[b] ? p[a] < p[b] : this.seqOf[a] < this.seqOf[b];
  }

  /** Put slot s at heap position i or above (moving parents into the hole). */
  private siftUp(i: number, s: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(s, h[p])) break;
      h[i] = h[p];
      this.pos[h[i]] = i;
      i = p;
    }
    h[i] = s;
    this.pos[s] = i;
  }

  /** Put slot s at heap position i or below. */
  private siftDown(i: number, s: number): void {
    const h = this.heap;
    const n = this.size;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const m = l + 1 < n && this.less(h[l + 1], h[l]) ? l + 1 : l;
      if (!this.less(h[m], s)) break;
      h[i] = h[m];
      this.pos[h[i]] = i;
      i = m;
    }
    h[i] = s;
    this.pos[s] = i;
  }

  /** Free slot s: its handle goes stale and its handler and argument can be collected. */
  private release(s: number): void {
    this.pos[s] = -1;
    this.fn[s] = undefined;
    this.arg[s] = undefined;
    if (this.gen[s] < MAX_GEN) {
      this.gen[s]++;
      this.freeSlots.push(s);
    }
  }

  private newSlot(): number {
    const s = this.slots++;
    if (s >= SLOTS) throw new RangeError(`more than ${SLOTS} pending events`);
    this.time = enlarged(this.time, s + 1);
    this.prio = enlarged(this.prio, s + 1);
    this.seqOf = enlarged(this.seqOf, s + 1);
    this.gen = enlarged(this.gen, s + 1);
    this.pos = enlarged(this.pos, s + 1);
    this.heap = enlarged(this.heap, s + 1);
    return s;
  }
}
