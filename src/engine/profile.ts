/**
 * ProcessorProfile: free processors (or nodes) over time, as a step function.
 *
 * This is the data structure behind backfilling (every reservation is a
 * rectangle cut out of the profile), advance reservations (a rectangle in the
 * future) and evolving applications (a staircase of rectangles, one per
 * step). It counts processors only; which processor runs what is the
 * platform's business.
 *
 * Representation: breakpoints `times[0] < times[1] < …` with `free[i]`
 * processors free on [times[i], times[i+1]); the last segment lasts forever.
 * Adjacent equal segments are merged, so the size stays proportional to the
 * number of distinct reservation edges.
 */

/** One step of a resource shape: `procs` processors for `duration` seconds. */
export interface ProfileStep {
  duration: number;
  procs: number;
}

/** One segment of the profile: `free` processors from `time` until the next segment. */
export interface ProfileSegment {
  time: number;
  free: number;
}

/** What `checkProfileChange` asks of a profile. */
export interface ProfileChangeTarget {
  readonly capacity: number;
  readonly origin: number;
  minFree(start: number, end: number): number;
  overCapacityAt(start: number, end: number, delta: number): number;
}

/** Throw unless `capacity` and `origin` can start a profile. */
export function checkProfileArgs(capacity: number, origin: number): void {
  if (!(capacity >= 0) || !Number.isFinite(capacity)) throw new RangeError(`ProcessorProfile: capacity must be a finite number >= 0, got ${capacity}`);
  if (!Number.isFinite(origin)) throw new RangeError(`ProcessorProfile: origin must be finite, got ${origin}`);
}

/** Throw unless `t` is finite and not before the profile's origin (`what` names it in the message). */
export function checkProfileTime(origin: number, t: number, what: string): void {
  if (!Number.isFinite(t)) throw new RangeError(`ProcessorProfile: ${what} must be finite, got ${t}`);
  if (t < origin) throw new RangeError(`ProcessorProfile: ${what} ${t} is before the profile origin ${origin}`);
}

/** Throw unless a step of a search (`duration` seconds on `procs` processors) is valid. */
export function checkProfileStep(duration: number, procs: number): void {
  if (!(duration >= 0) || !Number.isFinite(duration)) throw new RangeError(`ProcessorProfile: step duration must be finite and >= 0, got ${duration}`);
  if (!(procs >= 0)) throw new RangeError(`ProcessorProfile: step processors must be >= 0, got ${procs}`);
}

/**
 * Validate adding `delta` processors on [start, end) to `p` (negative to
 * reserve) before anything changes: finite times from the origin on, end ≥
 * start, a finite count, enough processors free to reserve, and no release
 * above the capacity. Returns false when the change is empty (end = start or
 * delta = 0), true when it is to be applied. Every profile class calls it, so
 * their errors agree word for word.
 */
export function checkProfileChange(p: ProfileChangeTarget, start: number, end: number, delta: number): boolean {
  checkProfileTime(p.origin, start, 'start');
  if (!Number.isFinite(end) || !(end >= start)) throw new RangeError(`ProcessorProfile: end ${end} must be finite and >= start ${start}`);
  if (!Number.isFinite(delta)) throw new RangeError(`ProcessorProfile: processor count must be finite, got ${-delta}`);
  if (end === start || delta === 0) return false;
  if (delta < 0) {
    const m = p.minFree(start, end);
    if (m + delta < -1e-9) throw new RangeError(`ProcessorProfile: cannot reserve ${-delta} processors on [${start}, ${end}): only ${m} free`);
  } else {
    const at = p.overCapacityAt(start, end, delta);
    if (!Number.isNaN(at)) throw new RangeError(`ProcessorProfile: releasing ${delta} processors on [${start}, ${end}) exceeds the capacity ${p.capacity} at time ${at}`);
  }
  return true;
}

/** Free processors over future time as a step function: reserve, release and find the earliest window that fits a job. */
export class ProcessorProfile {
  private times: number[];
  private free: number[];

  /**
   * @param capacity processors in the machine
   * @param origin earliest time the profile describes (default 0)
   */
  constructor(
    readonly capacity: number,
    origin = 0,
  ) {
    checkProfileArgs(capacity, origin);
    this.times = [origin];
    this.free = [capacity];
  }

  /** Earliest time described. */
  get origin(): number {
    return this.times[0];
  }

  /** Number of segments (for tests and diagnostics). */
  get size(): number {
    return this.times.length;
  }

  /** Index of the segment containing t (t >= origin). */
  private indexAt(t: number): number {
    const ts = this.times;
    let lo = 0;
    let hi = ts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ts[mid] <= t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private checkTime(t: number, what: string): void {
    checkProfileTime(this.times[0], t, what);
  }

  /** Make t a breakpoint; return its index. */
  private split(t: number): number {
    const i = this.indexAt(t);
    if (this.times[i] === t) return i;
    this.times.splice(i + 1, 0, t);
    this.free.splice(i + 1, 0, this.free[i]);
    return i + 1;
  }

  /** Merge equal neighbours in the index range [from-1, to+1]. */
  private coalesce(from = 0, to = this.times.length - 1): void {
    const lo = Math.max(1, from);
    const hi = Math.min(this.times.length - 1, to + 1);
    for (let i = hi; i >= lo; i--) {
      if (this.free[i] === this.free[i - 1]) {
        this.times.splice(i, 1);
        this.free.splice(i, 1);
      }
    }
  }

  /** Free processors at time t. */
  freeAt(t: number): number {
    this.checkTime(t, 'time');
    return this.free[this.indexAt(t)];
  }

  /** Minimum free processors over [start, end) (capacity if the interval is empty). */
  minFree(start: number, end: number): number {
    this.checkTime(start, 'start');
    if (!(end > start)) return this.free[this.indexAt(start)];
    let i = this.indexAt(start);
    let m = Infinity;
    while (i < this.times.length && this.times[i] < end) {
      if (this.free[i] < m) m = this.free[i];
      i++;
    }
    return m;
  }

  /**
   * Time of the first segment overlapping [start, end) where `delta` more
   * free processors would exceed the capacity, or NaN if there is none.
   */
  overCapacityAt(start: number, end: number, delta: number): number {
    this.checkTime(start, 'start');
    for (let i = this.indexAt(start); i < this.times.length && this.times[i] < end; i++) {
      if (this.free[i] + delta > this.capacity + 1e-9) return this.times[i];
    }
    return NaN;
  }

  /** Add `delta` processors on [start, end) (negative to reserve); validates before changing anything. */
  private add(start: number, end: number, delta: number): void {
    if (!checkProfileChange(this, start, end, delta)) return;
    const a = this.split(start);
    const b = this.split(end);
    for (let i = a; i < b; i++) this.free[i] += delta;
    this.coalesce(a, b);
  }

  /** Take `procs` processors on [start, end). Throws if they are not free. */
  reserve(start: number, end: number, procs: number): void {
    this.add(start, end, -procs);
  }

  /** Give back `procs` processors on [start, end) (e.g. a job ended before its estimate). */
  release(start: number, end: number, procs: number): void {
    this.add(start, end, procs);
  }

  /** Reserve a staircase of steps starting at `start`. Returns the end time. */
  reserveShape(start: number, steps: readonly ProfileStep[]): number {
    if (!this.fitsShape(start, steps)) throw new RangeError(`ProcessorProfile: shape does not fit at ${start}`);
    let t = start;
    for (const s of steps) {
      this.reserve(t, t + s.duration, s.procs);
      t += s.duration;
    }
    return t;
  }

  /** Release a staircase previously reserved at `start`. */
  releaseShape(start: number, steps: readonly ProfileStep[]): void {
    let t = start;
    for (const s of steps) {
      this.release(t, t + s.duration, s.procs);
      t += s.duration;
    }
  }

  /** Whether `procs` processors are free during [start, start + duration). */
  fits(start: number, duration: number, procs: number): boolean {
    return this.minFree(start, start + duration) >= procs;
  }

  /** Whether a staircase fits when started at `start`. */
  fitsShape(start: number, steps: readonly ProfileStep[]): boolean {
    let t = start;
    for (const s of steps) {
      if (this.minFree(t, t + s.duration) < s.procs) return false;
      t += s.duration;
    }
    return true;
  }

  /**
   * Earliest time >= notBefore at which `procs` processors are free for
   * `duration` seconds, or Infinity if `procs` exceeds what is ever free.
   */
  earliestStart(procs: number, duration: number, notBefore = this.origin): number {
    return this.earliestStartShape([{ duration, procs }], notBefore);
  }

  /**
   * Earliest start >= notBefore for a staircase of steps (no expansion of
   * steps), or Infinity when it never fits.
   */
  earliestStartShape(steps: readonly ProfileStep[], notBefore = this.origin): number {
    for (const s of steps) checkProfileStep(s.duration, s.procs);
    let start = Math.max(notBefore, this.origin);
    const n = this.times.length;
    // Each failure moves `start` past a breakpoint, so this loop ends.
    for (let guard = 0; guard <= (steps.length + 1) * (n + 1) + 8; guard++) {
      let t = start;
      let moved = false;
      for (const s of steps) {
        const end = t + s.duration;
        if (s.procs > 0) {
          // A zero-length step still needs its processors at its start instant.
          const first = this.indexAt(t);
          for (let i = first; i < n && (i === first || this.times[i] < end); i++) {
            if (this.free[i] < s.procs) {
              if (i + 1 >= n) return Infinity; // short forever
              // Shift so that this step starts no earlier than the end of the shortage.
              start += this.times[i + 1] - t;
              moved = true;
              break;
            }
          }
        }
        if (moved) break;
        t = end;
      }
      if (!moved) return start;
    }
    throw new Error('ProcessorProfile.earliestStartShape: did not converge');
  }

  /** Forget everything before `t` (the profile then starts at t). */
  trim(t: number): void {
    if (t <= this.times[0]) return;
    const i = this.indexAt(t);
    this.times.splice(0, i);
    this.free.splice(0, i);
    this.times[0] = t;
  }

  /** The segments, in time order. */
  segments(): ProfileSegment[] {
    return this.times.map((time, i) => ({ time, free: this.free[i] }));
  }

  /** A deep copy. */
  clone(): ProcessorProfile {
    const p = new ProcessorProfile(this.capacity, this.times[0]);
    p.times = this.times.slice();
    p.free = this.free.slice();
    return p;
  }
}
