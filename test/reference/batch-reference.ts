/**
 * A second, deliberately plain implementation of FCFS, EASY and conservative
 * backfilling, written from the textbook definitions (Mu'alem & Feitelson
 * 2001) to check src/schedulers/batch job by job. It shares nothing with the
 * fast simulator but the job type and the estimate rule (batchEstimate); it
 * uses no event heap, no sorted running list and no ProcessorProfile: a
 * loop over event times, plain arrays, and a profile rebuilt as a list of
 * (time, free) points whenever it is needed. Slow on purpose — clarity over speed.
 *
 * Definitions:
 *  - At each instant every completion is applied, then every arrival, then
 *    the scheduler runs once. A job that starts and ends at the same instant
 *    (zero run time) frees its processors at that instant too: the instant is
 *    repeated until no job ends at it.
 *  - FCFS: start jobs from the queue head while the head fits.
 *  - EASY: after FCFS, the head is reserved at the shadow time, the first
 *    estimated end at which the processors free now plus those of every
 *    running job estimated to end by then cover the head; "extra" is
 *    everything free at the shadow time beyond the head's need. A later job
 *    starts if it fits now and either ends (by its estimate) by the shadow
 *    time or fits in the extra processors (which it then uses up).
 *  - Conservative: each arriving job (arrival order) is reserved at the
 *    earliest time the profile (running jobs until their estimated ends plus
 *    every reservation) has room for it for its whole estimate. When jobs end
 *    before their estimates, the reservations are compressed once per
 *    instant: each queued job in queue order gives its reservation back and
 *    takes the earliest one available (never later than before). A job
 *    starts when its reservation time comes. A zero-length reservation holds
 *    nothing but needs its processors at its start instant.
 *  - Queue order: a priority function (smaller first), ties by arrival
 *    (submit time, then input order). The default (constant priority) is
 *    first-come first-served. The priority is static: computed once per job.
 *
 * EASY variants (docs/batch-variants.md), each one rule away from the above:
 *  - 'published': a later job starts only if it fits now and in the extra
 *    processors (never by ending before the shadow time).
 *  - 'cqsim': "ends by the shadow time" uses the job's run time; the scheduler
 *    runs after each completion (in start order, those of jobs started at
 *    the instant included) and after each arrival, instead of once.
 *  - 'accasim': the first job that does not fit becomes the blocked head, with
 *    a time: its shadow time then. Each instant, once: the blocked head starts
 *    if the time has come and it fits; with no blocked head, FCFS and a new
 *    blocked head; then every other queued job that fits starts, in queue
 *    order. Jobs that start and end at one instant free their processors at
 *    the next instant (at the last one, the instant is repeated); when nothing
 *    runs, the blocked head's time is an instant.
 */
import { BatchEstimates, BatchJobResult, BatchPolicy, BatchVariant, batchEstimate } from '../../src/schedulers/batch';
import { WorkloadJob } from '../../src/workloads/job';

export interface ReferenceOptions {
  machineSize: number;
  policy: BatchPolicy;
  estimates?: BatchEstimates;
  /** Queue priority (smaller runs first; ties by arrival). Default: 0 for every job (FCFS order). */
  priority?: (job: WorkloadJob, estimate: number) => number;
  /**
   * Conservative: when several jobs end early at one instant, compress once
   * after all of them ('instant', the definition above) or after each one in
   * the order they started ('completion'; the result then depends on that
   * order). Default 'instant'.
   */
  compress?: 'instant' | 'completion';
  /** EASY variant (default 'textbook'). */
  variant?: BatchVariant;
}

/** Free processors over time: free[k] on [time[k], time[k+1]); the last point lasts forever. */
class PointProfile {
  time: number[] = [];
  free: number[] = [];

  /** Build from intervals [s, e) each taking p processors, seen from `now` on. */
  constructor(machineSize: number, now: number, intervals: { s: number; e: number; p: number }[]) {
    // The times at which the number of free processors may change, in order, once each.
    const at = new Float64Array(2 * intervals.length + 1);
    let n = 0;
    at[n++] = now;
    for (const { s, e } of intervals) {
      if (e <= s) continue;
      at[n++] = Math.max(s, now);
      at[n++] = e;
    }
    const sorted = at.subarray(0, n).sort();
    for (let k = 0; k < n; k++) if (k === 0 || sorted[k] !== sorted[k - 1]) this.time.push(sorted[k]);
    // The change of free processors at each of them (whole numbers: the order of the sum does not matter).
    const change = new Array<number>(this.time.length).fill(0);
    const index = (t: number) => {
      let lo = 0;
      let hi = this.time.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.time[mid] < t) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    for (const { s, e, p } of intervals) {
      if (e <= s) continue;
      change[index(Math.max(s, now))] -= p;
      change[index(e)] += p;
    }
    let free = machineSize;
    for (const c of change) {
      free += c;
      this.free.push(free);
    }
  }

  /** Index of the point at time t, inserting one if needed. */
  private point(t: number): number {
    let k = 0;
    while (k + 1 < this.time.length && this.time[k + 1] <= t) k++;
    if (this.time[k] === t) return k;
    this.time.splice(k + 1, 0, t);
    this.free.splice(k + 1, 0, this.free[k]);
    return k + 1;
  }

  add(s: number, e: number, delta: number): void {
    s = Math.max(s, this.time[0]);
    if (e <= s) return;
    const a = this.point(s);
    const b = this.point(e);
    for (let k = a; k < b; k++) this.free[k] += delta;
  }

  /**
   * Whether p processors are free for d seconds from point k on (at that
   * instant when d = 0): -1 if so, else the index of the first point short of them.
   */
  private shortage(k: number, d: number, p: number): number {
    const end = this.time[k] + d;
    for (let m = k; m < this.time.length && (m === k || this.time[m] < end); m++) if (this.free[m] < p) return m;
    return -1;
  }

  /** Earliest point in time (from the first one on) at which p processors are free for d seconds. */
  earliest(p: number, d: number): number {
    // A start before a shortage's end overlaps it, so try the next point after it.
    for (let k = 0; k < this.time.length; ) {
      const m = this.shortage(k, d, p);
      if (m < 0) return this.time[k];
      k = m + 1;
    }
    throw new Error(`reference profile: ${p} processors never free`);
  }
}

/** Run the reference scheduler. Returns one result per job, in input order. */
export function referenceBatch(jobs: readonly WorkloadJob[], opts: ReferenceOptions): BatchJobResult[] {
  const M = opts.machineSize;
  const n = jobs.length;
  const est = jobs.map((j) => batchEstimate(j, opts.estimates ?? 'exact'));
  const prio = jobs.map((j, i) => (opts.priority ? opts.priority(j, est[i]) : 0));
  const arrivals = jobs.map((_, i) => i).sort((a, b) => jobs[a].submit - jobs[b].submit || a - b);
  const rank = new Array<number>(n);
  arrivals.forEach((i, r) => (rank[i] = r));
  const before = (a: number, b: number) => prio[a] - prio[b] || rank[a] - rank[b];

  const start = new Array<number>(n).fill(NaN);
  const started = new Array<number>(n).fill(-1); // start order, for 'completion' compression
  const reservation = new Array<number>(n).fill(NaN);
  let running: number[] = [];
  let queue: number[] = [];
  let free = M;
  let nextArrival = 0;
  let starts = 0;

  const run = (i: number, now: number) => {
    start[i] = now;
    started[i] = starts++;
    free -= jobs[i].procs;
    running.push(i);
  };
  const profileAt = (now: number) =>
    new PointProfile(M, now, [
      ...running.map((i) => ({ s: now, e: start[i] + est[i], p: jobs[i].procs })),
      ...queue.map((i) => ({ s: reservation[i], e: reservation[i] + est[i], p: jobs[i].procs })),
    ]);
  const reserve = (profile: PointProfile, i: number) => {
    reservation[i] = profile.earliest(jobs[i].procs, est[i]);
    profile.add(reservation[i], reservation[i] + est[i], -jobs[i].procs);
  };
  // Keep the queue in priority order as jobs arrive.
  const enqueue = (i: number) => {
    let k = queue.length;
    while (k > 0 && before(i, queue[k - 1]) < 0) k--;
    queue.splice(k, 0, i);
  };

  const compress = (now: number) => {
    if (opts.policy !== 'conservative') return;
    const profile = profileAt(now);
    for (const i of queue) {
      const old = reservation[i];
      profile.add(old, old + est[i], jobs[i].procs);
      reserve(profile, i);
      if (reservation[i] > old && est[i] > 0) throw new Error(`reference: job ${jobs[i].id} moved later at ${now}`);
    }
  };

  const variant = opts.variant ?? 'textbook';
  const cqsim = variant === 'cqsim';
  const accasim = variant === 'accasim';
  // Shadow time of a job needing `need` processors, and the extra processors then.
  const shadowOf = (need: number): { shadow: number; extra: number } => {
    const ends = [...new Set(running.map((i) => start[i] + est[i]))].sort((a, b) => a - b);
    for (const e of ends) {
      const avail = free + running.filter((i) => start[i] + est[i] <= e).reduce((s, i) => s + jobs[i].procs, 0);
      if (avail >= need) return { shadow: e, extra: avail - need };
    }
    return { shadow: Infinity, extra: 0 };
  };
  let blocked = -1; // AccaSim's blocked head
  let blockedAt = NaN;
  let wake = Infinity;

  const schedule = (now: number) => {
    if (opts.policy === 'conservative') {
      queue = queue.filter((i) => {
        if (reservation[i] <= now && jobs[i].procs <= free) {
          run(i, now);
          return false;
        }
        return true;
      });
      return;
    }
    if (accasim) {
      if (blocked >= 0 && now >= blockedAt && jobs[blocked].procs <= free) {
        run(blocked, now);
        queue = queue.filter((i) => i !== blocked);
        blocked = -1;
      }
      if (blocked < 0) {
        let h = 0;
        while (h < queue.length && jobs[queue[h]].procs <= free) run(queue[h++], now);
        queue = queue.slice(h);
        if (queue.length > 0) {
          blocked = queue[0];
          blockedAt = shadowOf(jobs[blocked].procs).shadow;
        }
      }
      queue = queue.filter((i) => {
        if (i === blocked || jobs[i].procs > free) return true;
        run(i, now);
        return false;
      });
      return;
    }
    let h = 0;
    while (h < queue.length && jobs[queue[h]].procs <= free) run(queue[h++], now);
    queue = queue.slice(h);
    if (opts.policy !== 'easy' || queue.length === 0) return;
    const head = queue[0];
    let { shadow, extra } = shadowOf(jobs[head].procs);
    if (variant === 'published') shadow = -Infinity;
    queue = queue.filter((i, k) => {
      if (k === 0 || jobs[i].procs > free) return true;
      if (now + (cqsim ? jobs[i].runtime : est[i]) <= shadow) {
        run(i, now);
        return false;
      }
      if (jobs[i].procs <= extra) {
        extra -= jobs[i].procs;
        run(i, now);
        return false;
      }
      return true;
    });
  };

  let now = -Infinity;
  while (nextArrival < n || queue.length > 0 || running.length > 0) {
    // The next instant: an arrival, a completion or (conservative) a reservation coming due.
    let t = Infinity;
    if (nextArrival < n) t = jobs[arrivals[nextArrival]].submit;
    // AccaSim: jobs that ended at the last instant are seen at the next one.
    for (const i of running) if (!accasim || start[i] + jobs[i].runtime > now) t = Math.min(t, start[i] + jobs[i].runtime);
    if (opts.policy === 'conservative') for (const i of queue) if (reservation[i] > now) t = Math.min(t, reservation[i]);
    t = Math.min(t, wake);
    if (t === Infinity && accasim && (queue.length > 0 || running.length > 0)) t = now; // no next instant: this one again
    if (t === Infinity) throw new Error(`reference: ${queue.length} jobs can never start`);
    const queued = queue.length;
    const repeated = t === now;
    now = t;

    for (;;) {
      // 1. Completions; conservative: compress the reservations in queue order
      // once after them all (or after each early one, in start order). CQSim: the
      // scheduler after each, until no job ends now.
      for (;;) {
        const done = running.filter((i) => start[i] + jobs[i].runtime <= now).sort((a, b) => started[a] - started[b]);
        let early = false;
        for (const d of done) {
          running = running.filter((i) => i !== d);
          free += jobs[d].procs;
          if (start[d] + est[d] > now) early = true;
          if (early && (opts.compress === 'completion' || d === done[done.length - 1])) {
            compress(now);
            early = false;
          }
          if (cqsim) schedule(now);
        }
        if (!cqsim || done.length === 0) break;
      }
      // 2. Arrivals (conservative: reserved in arrival order).
      let profile: PointProfile | undefined; // built at the first arrival (nothing changes it before)
      while (nextArrival < n && jobs[arrivals[nextArrival]].submit <= now) {
        const i = arrivals[nextArrival++];
        if (opts.policy === 'conservative') reserve((profile ??= profileAt(now)), i);
        enqueue(i);
        if (cqsim) schedule(now);
      }
      // 3. Schedule.
      if (!cqsim) schedule(now);
      wake = accasim && running.length === 0 && blocked >= 0 && blockedAt > now ? blockedAt : Infinity;
      if (accasim) break;
      // A job that started now and ends now frees its processors now: repeat the instant.
      if (!running.some((i) => start[i] + jobs[i].runtime <= now)) break;
    }
    if (accasim && repeated && queue.length > 0 && queue.length === queued && running.length === 0 && wake === Infinity) throw new Error(`reference: ${queue.length} jobs can never start`);
  }
  return jobs.map((j, i) => ({ id: j.id, submit: j.submit, start: start[i], end: start[i] + j.runtime, runtime: j.runtime, procs: j.procs, wait: start[i] - j.submit }));
}
