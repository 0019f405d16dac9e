/**
 * Rate-based job progress: each job has an amount of work (seconds of
 * execution at full speed) and progresses at a rate that the scheduler may
 * change at any time — the job's yield (allocated CPU fraction / CPU need) in
 * fractional-allocation models, 1 or 0 for run/pause, or a slowdown factor
 * for co-located background work.
 *
 * A rescheduling penalty (preemption/migration cost) is modelled as a period
 * during which the job makes no progress whatever its rate.
 *
 * With a Simulation attached, the tracker keeps one completion event per job
 * and moves it whenever the rate changes, calling `onComplete` when the work
 * is done; without one it is a pure calculator driven by explicit times.
 */
import { EventId, Simulation } from './events';

/** The id by which progress is tracked for a job. */
export type JobKey = number | string;

interface Entry {
  work: number;
  /** Work done up to `updated`. */
  done: number;
  rate: number;
  /** Time of the last accounting update. */
  updated: number;
  /** No progress before this time (rescheduling penalty). */
  blockedUntil: number;
  event?: EventId;
}

/** Options of a `ProgressTracker`: the simulation it schedules completions in, the completion callback, its tolerance and event priority. */
export interface ProgressTrackerOptions {
  /** Simulation on which completion events are scheduled. */
  sim?: Simulation;
  /** Called (inside the completion event) when a job's work is done. */
  onComplete?: (job: JobKey, time: number) => void;
  /** Relative tolerance for "done" (default 1e-9 of the work, at least 1e-9 s). */
  epsilon?: number;
  /** Priority of completion events (default 0). */
  priority?: number;
}

/** Work done by each running job under changing CPU shares: exact completion times for time-sharing schedulers. */
export class ProgressTracker {
  private readonly entries = new Map<JobKey, Entry>();
  private readonly sim?: Simulation;
  private readonly onComplete?: (job: JobKey, time: number) => void;
  private readonly epsilon: number;
  private readonly priority: number;

  constructor(options: ProgressTrackerOptions = {}) {
    this.sim = options.sim;
    this.onComplete = options.onComplete;
    this.epsilon = options.epsilon ?? 1e-9;
    this.priority = options.priority ?? 0;
  }

  private entry(job: JobKey): Entry {
    const e = this.entries.get(job);
    if (!e) throw new Error(`ProgressTracker: unknown job ${job}`);
    return e;
  }

  private time(now: number | undefined): number {
    const t = now ?? this.sim?.now;
    if (t === undefined) throw new Error('ProgressTracker: pass `now` (no simulation attached)');
    return t;
  }

  /** Bring the accounting of one entry up to time t. */
  private advance(e: Entry, t: number): void {
    if (t < e.updated) throw new RangeError(`ProgressTracker: time went backwards (${t} < ${e.updated})`);
    const from = Math.max(e.updated, e.blockedUntil);
    if (t > from && e.rate > 0) e.done = Math.min(e.work, e.done + e.rate * (t - from));
    e.updated = t;
  }

  private tolerance(e: Entry): number {
    return Math.max(1e-9, this.epsilon * e.work);
  }

  /** Start tracking a job with `work` seconds of full-speed execution, at `rate` (default 0: not running). */
  add(job: JobKey, work: number, options: { now?: number; rate?: number; done?: number } = {}): void {
    if (this.entries.has(job)) throw new Error(`ProgressTracker: job ${job} is already tracked`);
    if (!(work >= 0) || !Number.isFinite(work)) throw new RangeError(`ProgressTracker: work must be finite and >= 0, got ${work}`);
    const t = this.time(options.now);
    const rate = options.rate ?? 0;
    if (!(rate >= 0) || !Number.isFinite(rate)) throw new RangeError(`ProgressTracker: rate must be finite and >= 0, got ${rate}`);
    const e: Entry = { work, done: Math.min(work, options.done ?? 0), rate, updated: t, blockedUntil: -Infinity };
    this.entries.set(job, e);
    this.reschedule(job, e);
  }

  /** Change a job's rate (yield) from `now` on. */
  setRate(job: JobKey, rate: number, now?: number): void {
    if (!(rate >= 0) || !Number.isFinite(rate)) throw new RangeError(`ProgressTracker: rate must be finite and >= 0, got ${rate}`);
    const e = this.entry(job);
    this.advance(e, this.time(now));
    e.rate = rate;
    this.reschedule(job, e);
  }

  /** Stop progress without forgetting the job (preemption / pause). */
  pause(job: JobKey, now?: number): void {
    this.setRate(job, 0, now);
  }

  /**
   * No progress for `seconds` from `now` (a rescheduling penalty after a
   * migration or resume). Penalties do not stack beyond the latest end.
   */
  penalize(job: JobKey, seconds: number, now?: number): void {
    if (!(seconds >= 0) || !Number.isFinite(seconds)) throw new RangeError(`ProgressTracker: penalty must be finite and >= 0, got ${seconds}`);
    const e = this.entry(job);
    const t = this.time(now);
    this.advance(e, t);
    e.blockedUntil = Math.max(e.blockedUntil, t + seconds);
    this.reschedule(job, e);
  }

  /** Work done so far (seconds at full speed) = integral of the rate: the job's "virtual time". */
  done(job: JobKey, now?: number): number {
    const e = this.entry(job);
    this.advance(e, this.time(now));
    return e.done;
  }

  /** Work left. */
  remaining(job: JobKey, now?: number): number {
    const e = this.entry(job);
    this.advance(e, this.time(now));
    const r = e.work - e.done;
    return r <= this.tolerance(e) ? 0 : r;
  }

  /** Current rate. */
  rate(job: JobKey): number {
    return this.entry(job).rate;
  }

  /** Whether the job's work is done. */
  isComplete(job: JobKey, now?: number): boolean {
    return this.remaining(job, now) === 0;
  }

  /** Time at which the job completes if its rate does not change; Infinity at rate 0. */
  predictedCompletion(job: JobKey, now?: number): number {
    const e = this.entry(job);
    const t = this.time(now);
    this.advance(e, t);
    return this.completionOf(e, t);
  }

  private completionOf(e: Entry, t: number): number {
    const left = e.work - e.done;
    if (left <= this.tolerance(e)) return t;
    if (e.rate <= 0) return Infinity;
    return Math.max(t, e.blockedUntil) + left / e.rate;
  }

  /** Stop tracking a job; returns the work it had done. */
  remove(job: JobKey, now?: number): number {
    const e = this.entry(job);
    if (now !== undefined || this.sim) this.advance(e, this.time(now));
    this.sim?.cancel(e.event);
    this.entries.delete(job);
    return e.done;
  }

  has(job: JobKey): boolean {
    return this.entries.has(job);
  }

  /** Tracked job keys, in insertion order. */
  jobs(): JobKey[] {
    return [...this.entries.keys()];
  }

  private reschedule(job: JobKey, e: Entry): void {
    if (!this.sim) return;
    const sim = this.sim;
    sim.cancel(e.event);
    e.event = undefined;
    const at = this.completionOf(e, e.updated);
    if (at === Infinity) return;
    e.event = sim.at(
      at,
      () => {
        const cur = this.entries.get(job);
        if (cur !== e) return;
        this.advance(e, sim.now);
        // Floating-point: treat the predicted time as completion.
        e.done = e.work;
        e.event = undefined;
        this.entries.delete(job);
        this.onComplete?.(job, sim.now);
      },
      { priority: this.priority, kind: 'completion' },
    );
  }
}
