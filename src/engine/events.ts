/**
 * The discrete-event core: a clock and a priority queue of timed callbacks.
 * It knows nothing about jobs or schedulers; everything else builds on it.
 *
 * Events at the same time run by `priority` (lower first), then in the order
 * they were scheduled (stable tie-break), so a run is fully deterministic.
 */
import { BinaryHeap } from './heap';

export type EventHandler = (sim: Simulation) => void;

export interface ScheduledEvent {
  readonly time: number;
  readonly priority: number;
  readonly seq: number;
  readonly kind: string;
  readonly handler: EventHandler;
  cancelled: boolean;
}

export interface SimulationOptions {
  /** Start time of the clock (default 0). */
  startTime?: number;
  /** Stop after this many events (guard against runaway models; default Infinity). */
  maxEvents?: number;
}

export class Simulation {
  private readonly queue = new BinaryHeap<ScheduledEvent>((a, b) =>
    a.time !== b.time ? a.time < b.time : a.priority !== b.priority ? a.priority < b.priority : a.seq < b.seq,
  );
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

  /** Number of pending (possibly cancelled) events. */
  get pending(): number {
    return this.queue.size;
  }

  /** Schedule `handler` at absolute time `time`. Returns a handle that can be cancelled. */
  at(time: number, handler: EventHandler, options: { priority?: number; kind?: string } = {}): ScheduledEvent {
    if (!Number.isFinite(time)) throw new RangeError(`event time must be finite, got ${time}`);
    if (time < this._now) throw new RangeError(`cannot schedule an event in the past (${time} < now ${this._now})`);
    const ev: ScheduledEvent = {
      time,
      priority: options.priority ?? 0,
      seq: this.seq++,
      kind: options.kind ?? 'event',
      handler,
      cancelled: false,
    };
    this.queue.push(ev);
    return ev;
  }

  /** Schedule `handler` after `delay` seconds. */
  after(delay: number, handler: EventHandler, options: { priority?: number; kind?: string } = {}): ScheduledEvent {
    return this.at(this._now + delay, handler, options);
  }

  /** Cancel a pending event (lazy deletion: it is skipped when reached). */
  cancel(ev: ScheduledEvent | undefined): void {
    if (ev) ev.cancelled = true;
  }

  /** Time of the next live event, or undefined when the queue is empty. */
  nextTime(): number | undefined {
    this.dropCancelled();
    return this.queue.peek()?.time;
  }

  /** Stop the run after the current event. */
  stop(): void {
    this.stopped = true;
  }

  /** Process one event; false when nothing is left. */
  step(): boolean {
    this.dropCancelled();
    const ev = this.queue.pop();
    if (!ev) return false;
    this._now = ev.time;
    this._processed++;
    ev.handler(this);
    return true;
  }

  /** Run until the queue is empty, `until` is reached, or `stop()` is called. */
  run(until = Infinity): void {
    this.stopped = false;
    while (!this.stopped) {
      const t = this.nextTime();
      if (t === undefined || t > until) break;
      if (this._processed >= this.maxEvents) throw new Error(`simulation exceeded ${this.maxEvents} events at t=${this._now}`);
      this.step();
    }
    if (until !== Infinity && !this.stopped && this._now < until) this._now = until;
  }

  private dropCancelled(): void {
    while (this.queue.size > 0 && (this.queue.peek() as ScheduledEvent).cancelled) this.queue.pop();
  }
}
