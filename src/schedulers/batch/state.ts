/**
 * The batch family's state: the waiting queue in queue order, the running
 * jobs sorted by estimated end, the free processors, the EASY backfill index,
 * the processor profile and the invariant bookkeeping. It is the context a
 * policy sees (policies.ts); the engine loop (simulate.ts) drives it.
 *
 * Jobs are numbers: their index in the input. The running list, the index and
 * the profile are built the first time a policy asks for them, so a policy that
 * does not use them does not pay for them.
 */
import { BlockProfile } from '../../engine/block-profile';
import { enlarged } from '../../util/arrays';
import { InvariantError } from '../../util/invariants';
import { WorkloadJob } from '../../workloads/job';
import type { BatchContext, BatchJobInfo, BatchSchedulingPolicy, BatchVariant } from './policies';

/** A queue order as simulate.ts accepts it (see BatchQueueOrder there). */
export type QueueOrderSpec = string | ((job: WorkloadJob, now: number, estimate: number) => number);

/** Priority (highest first) of a job under a built-in order other than 'fcfs'. */
function orderScore(order: string, wait: number, est: number, procs: number): number {
  switch (order) {
    case 'sjf': return -est;
    case 'ljf': return est;
    case 'smallest': return -procs;
    case 'wfp3': return (wait / Math.max(est, 1)) ** 3 * procs;
    default: return wait / (Math.log2(Math.max(procs, 2)) * Math.max(est, 1)); // 'unicef'
  }
}

/** The jobs as the state sees them: how many, each one's id, and its object (for user queue orders). */
export interface JobList {
  readonly length: number;
  id(i: number): number;
  job(i: number): WorkloadJob;
}

export class BatchState implements BatchContext {
  now = 0;
  free: number;
  readonly queueInArrivalOrder: boolean;
  /** Start time per job (NaN until started). */
  readonly start: Float64Array;
  /** Processor names per job (assignProcessors). */
  readonly used: number[][] | undefined;
  /** Earliest wake-up the policy asked for in this pass (Infinity: none). */
  wakeTime = Infinity;
  /** Jobs that completed before their estimated end since the last pass. */
  endedEarly = 0;

  // Waiting jobs: queue[qh..] in queue order; jobs started out of order stay as
  // started entries (`dead`) until compacted, so a pass never shifts a deep queue.
  private readonly queue: number[] = [];
  private qh = 0;
  private dead = 0;
  // Running jobs sorted by estimated end (ties: start order), in typed arrays grown on demand,
  // kept from the first query on (FCFS never asks, and keeping it costs FCFS a fifth of its time).
  // Slots runBase … runTop − 1 hold them with each slot's estimated end. A completed job leaves a
  // hole (−1) where it was: a completion costs a binary search, not a shift of the list behind it
  // (7.9 M moves a run on HPC2N). Queries read from the front (the earliest ends, a few a pass):
  // running(k) closes the holes in front of its slot by moving the jobs before each one step
  // back, and slots runBase … runClean − 1 have none. Holes are dropped at once when they are half
  // the list.
  private runTracked = false;
  private runBase = 0;
  private runClean = 0;
  private runTop = 0;
  private runHoles = 0;
  private runJob = new Int32Array(0);
  private runEnd = new Float64Array(0);
  // Start order and completions, for building the list on the first query: written only until
  // then, so the pages of these arrays are touched only for the jobs before it.
  private readonly startSeq: Int32Array;
  private started = 0;
  private readonly ended: Uint8Array;
  // Arrival rank of each job (undefined: the input is in arrival order, rank = index).
  private readonly rankOf: Int32Array | undefined;
  private readonly score: Float64Array;
  // EASY backfill index over arrival ranks (built on first use): each subtree
  // holds the fewest processors and the shortest estimate among its waiting jobs.
  // Only inner nodes from the second level above the leaves up are stored (a leaf is
  // read from its job, a node above two leaves from both): fresh memory was a sixth of
  // a run. No job: NO_PROCS processors (more than any job has) and an infinite
  // estimate. segProcs holds NO_PROCS − the fewest processors, so that zeroed
  // memory reads as "no job" and needs no fill: pages over ranks where no job ever
  // waited are never touched (a fresh page costs about as much as a thousand node updates).
  private size = 0;
  // Ranks whose leaf may be out of date (arrived or started since the index was last read): most jobs
  // start at arrival, before any search, and then need no update at all.
  // Kept at its largest size (staleCount in use): emptying and regrowing it each pass was garbage.
  private stale = new Int32Array(64);
  private staleCount = 0;
  private segProcs = new Uint32Array(0);
  // Per rank: 1 while the inner nodes count its job as waiting (a job that arrives and starts
  // between two reads of the index then costs nothing there).
  private counted = new Uint8Array(0);
  // The shortest estimate as the largest 32-bit float not above it: a lower bound only prunes
  // less (a leaf is always read exactly from its job), in half the memory.
  private segEst = new Float32Array(0);
  // Deep queues: the two minima may come from different jobs, so a search can
  // descend far and find nothing. Once searches get costly, each node with at
  // least 16 leaves (v < lvTop) also keeps, per level l < lvCount, the
  // shortest estimate among its jobs of at most lvProcs[l] processors.
  private visits = 0;
  private lvCount = 0;
  private lvProcs: number[] = [];
  private lvTop = 0;
  private lv = new Float64Array(0);
  // What the backfill test "ends by the shadow time" measures: the estimate, or (CQSim) the run time.
  private readonly fitLen: Float64Array;
  // Processor profile (built on first use) and each job's latest reservation.
  private prof: BlockProfile | undefined;
  // Each job's latest reservation: in a Map while few jobs have one (EASY reserves only its
  // heads: about 6,000 of HPC2N's 202,871 jobs), in an array once many do (conservative reserves
  // every job). An array of every job, filled, cost its pages in every run.
  private resMap: Map<number, number> | undefined = new Map();
  private resAt: Float64Array | undefined;
  private readonly promised: Float64Array | undefined;
  private readonly names: ProcessorNames | undefined;

  constructor(
    readonly jobs: JobList,
    readonly machineSize: number,
    private readonly submitT: Float64Array,
    private readonly runtimeT: Float64Array,
    private readonly est: Float64Array,
    private readonly procsN: Int32Array,
    /** Input indices in arrival order (submit, then input order); undefined when that is the input order. */
    private readonly order: Int32Array | undefined,
    private readonly queueOrder: QueueOrderSpec,
    readonly policy: BatchSchedulingPolicy,
    /** Check release, single start, reservations (capacity is always checked). */
    readonly checks: boolean,
    assignProcessors: boolean,
    private readonly hook: ((r: { id: number; time: number; reservedStart: number }) => void) | undefined,
    readonly variant: BatchVariant = 'textbook',
  ) {
    const n = jobs.length;
    this.free = machineSize;
    this.queueInArrivalOrder = queueOrder === 'fcfs';
    this.start = new Float64Array(n).fill(NaN);
    this.promised = checks ? new Float64Array(n).fill(Infinity) : undefined;
    this.startSeq = new Int32Array(n);
    this.ended = new Uint8Array(n);
    if (order) {
      this.rankOf = new Int32Array(n);
      for (let r = 0; r < n; r++) this.rankOf[order[r]] = r;
    }
    this.score = this.queueInArrivalOrder ? new Float64Array(0) : new Float64Array(n);
    this.names = assignProcessors ? new ProcessorNames(machineSize) : undefined;
    this.used = assignProcessors ? new Array(n) : undefined;
    this.fitLen = variant === 'cqsim' ? runtimeT : est;
  }

  /** An InvariantError naming the policy, the job and the time. */
  fail(invariant: string, detail: string, job?: number): InvariantError {
    return new InvariantError(invariant, `policy ${this.policy.name}: ${detail}`, { job: job === undefined ? undefined : this.jobs.id(job), time: this.now });
  }

  // ---- queries (BatchContext) ----

  id(job: number): number { return this.jobs.id(job); }
  submit(job: number): number { return this.submitT[job]; }
  procs(job: number): number { return this.procsN[job]; }
  estimate(job: number): number { return this.est[job]; }
  rank(job: number): number { return this.rankOf ? this.rankOf[job] : job; }
  /** The job of arrival rank r (the engine loop reads arrivals through it too). */
  arrival(r: number): number { return this.order ? this.order[r] : r; }
  wait(job: number): number { return this.now - this.submitT[job]; }
  isRunning(job: number): boolean { return !Number.isNaN(this.start[job]); }
  estimatedEnd(job: number): number { return this.start[job] + this.est[job]; }
  reservation(job: number): number {
    if (this.resAt) return this.resAt[job];
    const t = (this.resMap as Map<number, number>).get(job);
    return t === undefined ? NaN : t;
  }
  backfillLength(job: number): number { return this.fitLen[job]; }
  job(job: number): BatchJobInfo {
    return { job, id: this.jobs.id(job), submit: this.submitT[job], procs: this.procsN[job], estimate: this.est[job], wait: this.now - this.submitT[job] };
  }

  get queueLength(): number { return this.queue.length - this.qh - this.dead; }

  /** First waiting job in queue order, −1 when none. */
  head(): number {
    const q = this.queue;
    while (this.qh < q.length && !Number.isNaN(this.start[q[this.qh]])) {
      this.qh++;
      this.dead--;
    }
    return this.qh < q.length ? q[this.qh] : -1;
  }

  /** The waiting jobs in queue order; jobs started later stay in the array (test isRunning). */
  waiting(): readonly number[] {
    if (this.qh > 0 || this.dead > 0) this.compact();
    if (this.checks && this.queueInArrivalOrder) this.checkQueueOrder();
    return this.queue;
  }

  /**
   * The queue is the engine's: in arrival order it must stay in arrival
   * order. A policy handed it (the built-ins are) and reordering it is caught
   * here, the next time it is asked for, with checks on.
   */
  private checkQueueOrder(): void {
    const queue = this.queue;
    for (let k = 1; k < queue.length; k++) {
      if (!(this.rank(queue[k - 1]) < this.rank(queue[k]))) throw this.fail('batch/queue', `the queue is out of arrival order: job ${this.jobs.id(queue[k - 1])} before it`, queue[k]);
    }
  }

  get runningCount(): number {
    if (!this.runTracked) this.trackRunning();
    return this.runTop - this.runBase - this.runHoles;
  }
  running(k: number): number {
    if (!this.runTracked) this.trackRunning();
    // Closing a hole moves runBase, and with it the slot of the k-th job.
    while (this.runClean <= this.runBase + k && this.runClean < this.runTop) {
      if (this.runJob[this.runClean] < 0) {
        this.closeRunningSlot(this.runClean);
        this.runHoles--;
      }
      this.runClean++;
    }
    return this.runJob[this.runBase + k];
  }

  minWaitingProcs(): number {
    if (this.size === 0) this.buildIndex();
    else if (this.staleCount > 0) this.refreshIndex();
    const p = this.nodeProcs(1);
    return p === NO_PROCS ? Infinity : p;
  }

  backfillCandidate(after: number, shadow: number, extra: number): number {
    if (this.size === 0) this.buildIndex();
    else if (this.staleCount > 0) this.refreshIndex();
    let level = 0;
    while (level < this.lvCount && this.lvProcs[level] < this.free) level++;
    const r = this.nextBackfill(after < 0 ? 0 : this.rank(after) + 1, shadow, extra, level);
    if (this.lvCount === 0 && this.visits > 64 * this.jobs.length + 100000) this.buildLevels();
    return r < 0 ? -1 : this.arrival(r);
  }

  get profile(): BlockProfile {
    if (!this.prof) this.buildProfile();
    const p = this.prof as BlockProfile;
    p.trim(this.now);
    return p;
  }

  earliestStart(job: number): number {
    const p = this.profile;
    const old = this.reservation(job);
    const held = this.isBooked(job);
    if (held) p.release(old, old + this.est[job], this.procsN[job]);
    const t = p.earliestStart(this.procsN[job], this.est[job], this.now);
    if (held) p.reserve(old, old + this.est[job], this.procsN[job]);
    return t;
  }

  // ---- actions (BatchContext) ----

  startJob(i: number): void {
    this.checkJob(i, 'start');
    const now = this.now;
    if (this.procsN[i] > this.free) throw this.fail('batch/capacity', `needs ${this.procsN[i]} processors, only ${this.free} free`, i);
    if (!Number.isNaN(this.start[i])) throw this.fail('batch/once', `started twice (first at ${this.start[i]})`, i);
    if (this.promised) {
      if (now < this.submitT[i] || this.rank(i) >= this.arrived) throw this.fail('batch/release', `started before its submit time ${this.submitT[i]}`, i);
      if (now > this.promised[i]) throw this.fail('batch/reservation', `started after its reservation at ${this.promised[i]}`, i);
    }
    if (this.prof) {
      const p = this.profile;
      const e = this.est[i];
      const booked = this.isBooked(i);
      // Started at its booking: the booked rectangle becomes the running job's.
      const held = this.reservation(i);
      if (!booked || held !== now) {
        if (booked) p.release(held, held + e, this.procsN[i]);
        if (now + e > now) {
          this.book(i, now, 'starting it now overlaps reservations in the profile');
        }
      }
    }
    this.start[i] = now;
    this.free -= this.procsN[i];
    if (this.used && this.names) this.used[i] = this.names.take(this.procsN[i]);
    if (this.qh < this.queue.length && this.queue[this.qh] === i) this.qh++;
    else this.dead++;
    if (this.runTracked) this.insertRunning(i, now + this.est[i]);
    else this.startSeq[i] = this.started++;
    if (this.size > 0) this.markStale(this.rank(i));
    this.onStart(i);
  }

  reserve(i: number, time: number): void {
    this.checkJob(i, 'reserve');
    if (!Number.isNaN(this.start[i])) throw this.fail('batch/reservation', 'reserved after it started', i);
    if (!(time >= this.now) || !Number.isFinite(time)) throw this.fail('batch/reservation', `reserved at ${time}, which is not a finite time from now on`, i);
    const e = this.est[i];
    // Moving a promise later must be explicit (cancelReservation first).
    if (this.promised && time > this.promised[i]) throw this.fail('batch/reservation', `reservation moved later, from ${this.promised[i]} to ${time}, without cancelReservation`, i);
    if (this.prof) {
      const p = this.profile;
      if (this.isBooked(i)) {
        const held = this.reservation(i);
        p.release(held, held + e, this.procsN[i]);
      }
      if (time + e > time) {
        this.book(i, time, `reserved at ${time}, where the profile has fewer than ${this.procsN[i]} processors free`);
      }
    }
    this.setReservation(i, time);
    // With the profile in use a zero-length reservation books nothing, so it is no guarantee.
    if (this.promised) this.promised[i] = this.prof && !(time + e > time) ? Infinity : time;
    this.hook?.({ id: this.jobs.id(i), time: this.now, reservedStart: time });
  }

  cancelReservation(i: number): void {
    this.checkJob(i, 'cancelReservation');
    if (this.isBooked(i) && Number.isNaN(this.start[i])) {
      const held = this.reservation(i);
      this.profile.release(held, held + this.est[i], this.procsN[i]);
    }
    this.setReservation(i, NaN);
    if (this.promised) this.promised[i] = Infinity;
  }

  wakeUpAt(time: number): void {
    if (!(time > this.now) || !Number.isFinite(time)) throw this.fail('batch/policy', `wake-up at ${time}: it must be a finite time after now`);
    if (time < this.wakeTime) this.wakeTime = time;
  }

  // ---- engine side ----

  /** Number of jobs arrived so far (arrival ranks below it have been submitted). */
  arrived = 0;
  /** Set by the engine: called after a job starts (schedules its completion). */
  onStart: (i: number) => void = () => undefined;

  arrive(i: number): void {
    this.arrived++;
    this.queue.push(i);
    if (this.size > 0) this.markStale(this.rank(i));
  }

  complete(i: number): void {
    const now = this.now;
    if (this.checks && now !== this.start[i] + this.runtimeT[i]) {
      throw this.fail('batch/work', `completed at ${now}, started at ${this.start[i]} with run time ${this.runtimeT[i]}`, i);
    }
    this.free += this.procsN[i];
    if (this.used && this.names) this.names.release(this.used[i]);
    if (this.runTracked) this.removeRunning(i);
    else this.ended[i] = 1;
    const estEnd = this.start[i] + this.est[i];
    if (estEnd > now) {
      this.endedEarly++;
      if (this.prof) this.profile.release(now, estEnd, this.procsN[i]);
    }
  }

  /** Before a pass: re-sort the queue when its order is not arrival order. */
  sortQueue(): void {
    if (this.queueInArrivalOrder || this.queue.length - this.qh <= 1) return;
    this.compact();
    const { queue, score, now } = this;
    const order = this.queueOrder;
    for (const i of queue) {
      const v = typeof order === 'function' ? order(this.jobs.job(i), now, this.est[i]) : orderScore(order, now - this.submitT[i], this.est[i], this.procsN[i]);
      if (Number.isNaN(v)) throw new InvariantError('batch/order', 'the queue order gave NaN', { job: this.jobs.id(i), time: now });
      score[i] = v;
    }
    queue.sort((a, b) => score[b] - score[a] || this.rank(a) - this.rank(b));
  }

  /** After a pass: drop started entries now and then (amortised O(1) per job). */
  endPass(): void {
    this.endedEarly = 0;
    if (this.qh >= 1024 && 2 * (this.qh + this.dead) > this.queue.length) this.compact();
  }

  /** Waiting jobs left (for the end-of-run check). */
  leftover(): number[] {
    this.compact();
    return this.queue;
  }

  private setReservation(i: number, t: number): void {
    if (this.resAt) {
      this.resAt[i] = t;
      return;
    }
    const m = this.resMap as Map<number, number>;
    if (Number.isNaN(t)) m.delete(i);
    else m.set(i, t);
    if (m.size > this.jobs.length >> 4) {
      this.resAt = new Float64Array(this.jobs.length).fill(NaN);
      for (const [j, r] of m) this.resAt[j] = r;
      this.resMap = undefined;
    }
  }

  /** Nonzero reservation at or after the profile origin: its rectangle is in the profile. */
  private isBooked(i: number): boolean {
    const t = this.reservation(i);
    return this.prof !== undefined && t + this.est[i] > t;
  }

  /** Book job i's rectangle from t in the profile; `why` names the failure. */
  private book(i: number, t: number, why: string): void {
    try {
      (this.prof as BlockProfile).reserve(t, t + this.est[i], this.procsN[i]);
    } catch (e) {
      if (e instanceof RangeError) throw this.fail('batch/reservation', why, i);
      throw e;
    }
  }

  private checkJob(i: number, what: string): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.jobs.length) throw this.fail('batch/policy', `${what}: ${String(i)} is not a job (use the numbers the context gives)`);
  }

  private compact(): void {
    const q = this.queue;
    let w = 0;
    for (let k = this.qh; k < q.length; k++) if (Number.isNaN(this.start[q[k]])) q[w++] = q[k];
    q.length = w;
    this.qh = 0;
    this.dead = 0;
  }

  // A new job usually ends last, so insertion walks from the end.
  private insertRunning(i: number, estEnd: number): void {
    if (this.runTop === this.runJob.length) {
      if (this.runBase + this.runHoles > 0) this.compactRunning();
      if (this.runTop === this.runJob.length) {
        this.runJob = enlarged(this.runJob, Math.max(16, this.runTop + 1));
        this.runEnd = enlarged(this.runEnd, this.runJob.length);
      }
    }
    const { runJob, runEnd } = this;
    let k = this.runTop;
    for (; k > this.runBase && runEnd[k - 1] > estEnd; k--) {
      runJob[k] = runJob[k - 1];
      runEnd[k] = runEnd[k - 1];
    }
    runJob[k] = i;
    runEnd[k] = estEnd;
    this.runTop++;
    if (k < this.runClean) this.runClean++;
  }

  private removeRunning(i: number): void {
    const { runJob, runEnd } = this;
    const e = this.start[i] + this.est[i];
    let lo = this.runBase;
    let hi = this.runTop;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (runEnd[mid] < e) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < this.runTop && runEnd[k] === e; k++) {
      if (runJob[k] !== i) continue;
      if (k < this.runClean) {
        // In the clean front: close the slot now (the few jobs before it move one step back).
        this.closeRunningSlot(k);
      } else {
        runJob[k] = -1;
        this.runHoles++;
        if (this.runHoles > 16 && 2 * this.runHoles > this.runTop - this.runBase) this.compactRunning();
      }
      return;
    }
    throw this.fail('batch/running', 'completed but not in the running list', i);
  }

  /** Drop slot s by moving the slots runBase … s − 1 one step back. */
  private closeRunningSlot(s: number): void {
    const { runJob, runEnd } = this;
    for (let t = s; t > this.runBase; t--) {
      runJob[t] = runJob[t - 1];
      runEnd[t] = runEnd[t - 1];
    }
    this.runBase++;
  }

  private compactRunning(): void {
    const { runJob, runEnd } = this;
    let w = 0;
    for (let k = this.runBase; k < this.runTop; k++) {
      if (runJob[k] < 0) continue;
      runJob[w] = runJob[k];
      runEnd[w] = runEnd[k];
      w++;
    }
    this.runBase = 0;
    this.runTop = w;
    this.runClean = w;
    this.runHoles = 0;
  }

  private trackRunning(): void {
    const ids: number[] = [];
    for (let i = 0; i < this.jobs.length; i++) if (!Number.isNaN(this.start[i]) && !this.ended[i]) ids.push(i);
    const { start, est, startSeq } = this;
    ids.sort((a, b) => start[a] + est[a] - (start[b] + est[b]) || startSeq[a] - startSeq[b]);
    this.runJob = Int32Array.from(ids);
    this.runEnd = Float64Array.from(ids, (i) => start[i] + est[i]);
    this.runBase = 0;
    this.runTop = ids.length;
    this.runClean = ids.length;
    this.runHoles = 0;
    this.runTracked = true;
  }

  private buildIndex(): void {
    let size = 1;
    while (size < this.jobs.length) size *= 2;
    this.size = size;
    this.segProcs = new Uint32Array(size >> 1);
    this.segEst = new Float32Array(size >> 1);
    this.counted = new Uint8Array(size);
    for (let k = this.qh; k < this.queue.length; k++) if (Number.isNaN(this.start[this.queue[k]])) this.counted[this.rank(this.queue[k])] = 1;
    const waiting = this.queue.length - this.qh;
    // A long queue: every inner node from its children; a short one: the paths above its jobs.
    if (waiting > size >> 4) for (let v = (size >> 1) - 1; v >= 1; v--) this.pullUp(v);
    else for (let k = this.qh; k < this.queue.length; k++) this.updateAbove(this.rank(this.queue[k]));
  }

  /** A leaf's processors: its job's while it waits, NO_PROCS otherwise. */
  private leafProcs(rank: number): number {
    const i = this.waitingAt(rank);
    return i < 0 ? NO_PROCS : this.procsN[i];
  }

  /** A leaf's estimate (the backfill length): its job's while it waits, +∞ otherwise. */
  private leafEst(rank: number): number {
    const i = this.waitingAt(rank);
    return i < 0 ? Infinity : this.fitLen[i];
  }

  private nodeProcs(v: number): number {
    if (v >= this.size) return this.leafProcs(v - this.size);
    if (v >= this.size >> 1) return Math.min(this.leafProcs(2 * v - this.size), this.leafProcs(2 * v + 1 - this.size));
    return NO_PROCS - this.segProcs[v];
  }

  private nodeEst(v: number): number {
    if (v >= this.size) return this.leafEst(v - this.size);
    if (v >= this.size >> 1) return Math.min(this.leafEst(2 * v - this.size), this.leafEst(2 * v + 1 - this.size));
    return this.segProcs[v] === 0 ? Infinity : this.segEst[v];
  }

  /** The job of a rank while it waits, −1 otherwise. */
  private waitingAt(rank: number): number {
    if (rank >= this.arrived) return -1;
    const i = this.arrival(rank);
    return Number.isNaN(this.start[i]) ? i : -1;
  }

  /** Stored inner node v (v < size / 2) from its children; false when it did not change. */
  private pullUp(v: number): boolean {
    const l = 2 * v;
    const sp = this.segProcs;
    const se = this.segEst;
    let enc: number;
    let me: number;
    if (l >= this.size >> 1) {
      // The nodes just above the leaves are not stored (half the memory): read the four leaves, each job once.
      let p = NO_PROCS;
      let e = Infinity;
      for (let r = 2 * l - this.size, end = r + 4; r < end; r++) {
        const i = this.waitingAt(r);
        if (i < 0) continue;
        if (this.procsN[i] < p) p = this.procsN[i];
        if (this.fitLen[i] < e) e = this.fitLen[i];
      }
      enc = NO_PROCS - p;
      me = floatBelow(e);
    } else {
      // Stored children (NO_PROCS − processors: the larger holds the fewer; 0 is no job).
      const pl = sp[l];
      const pr = sp[l + 1];
      enc = pl > pr ? pl : pr;
      me = pl === 0 ? (pr === 0 ? Infinity : se[l + 1]) : pr === 0 ? se[l] : Math.min(se[l], se[l + 1]);
    }
    if (enc === sp[v] && (enc === 0 || me === se[v])) return false;
    sp[v] = enc;
    se[v] = me;
    return true;
  }

  private markStale(rank: number): void {
    if (this.staleCount === this.stale.length) this.stale = enlarged(this.stale, this.staleCount + 1);
    this.stale[this.staleCount++] = rank;
  }

  /** Bring the inner nodes of the stale ranks up to date (their jobs arrived or started). */
  private refreshIndex(): void {
    const stale = this.stale;
    for (let k = 0; k < this.staleCount; k++) {
      const r = stale[k];
      const waiting = this.waitingAt(r) >= 0 ? 1 : 0;
      if (this.counted[r] === waiting) continue;
      this.counted[r] = waiting;
      this.updateAbove(r);
    }
    this.staleCount = 0;
  }

  /** The nodes above a leaf whose job arrived or started, up to where nothing changes. */
  private updateAbove(rank: number): void {
    let v = (rank + this.size) >> 2;
    while (v >= 1 && this.pullUp(v)) v >>= 1;
    if (this.lvCount > 0) {
      let u = rank + this.size;
      while (u >= this.lvTop) u >>= 1;
      for (; u >= 1 && this.levelNode(u); u >>= 1);
    }
  }

  private buildLevels(): void {
    // Thresholds about √2 apart, below the machine size.
    const t: number[] = [];
    for (let x = 1; x < this.machineSize; x = Math.max(x + 1, Math.round(x * Math.SQRT2))) t.push(x);
    const count = t.length;
    if (count === 0 || this.size < 32) return;
    this.lvProcs = t;
    this.lvCount = count;
    this.lvTop = this.size >> 3;
    this.lv = new Float64Array(this.lvTop * count).fill(Infinity);
    for (let v = this.lvTop - 1; v >= 1; v--) this.levelNode(v);
  }

  /** Recompute node v's levels (from its leaves at the bottom, else its children); false when nothing changed. */
  private levelNode(v: number): boolean {
    const L = this.lvCount;
    const lv = this.lv;
    let changed = false;
    if (2 * v >= this.lvTop) {
      let lo = v;
      let hi = v;
      while (lo < this.size) {
        lo = 2 * lo;
        hi = 2 * hi + 1;
      }
      for (let l = 0; l < L; l++) {
        let m = Infinity;
        const t = this.lvProcs[l];
        for (let x = lo - this.size; x <= hi - this.size; x++) {
          if (this.leafProcs(x) <= t) {
            const e = this.leafEst(x);
            if (e < m) m = e;
          }
        }
        if (lv[v * L + l] !== m) {
          lv[v * L + l] = m;
          changed = true;
        }
      }
      return changed;
    }
    for (let l = 0; l < L; l++) {
      const m = Math.min(lv[2 * v * L + l], lv[(2 * v + 1) * L + l]);
      if (lv[v * L + l] !== m) {
        lv[v * L + l] = m;
        changed = true;
      }
    }
    return changed;
  }

  /**
   * First arrival rank ≥ `from` whose job fits now and either ends (by its
   * estimate) by the shadow time or uses only extra processors; −1 if none.
   * A subtree is skipped only when no job in it can pass (now + e is
   * monotone in e, so the test on the minima is exact pruning). The search
   * starts at the leaf of `from` and climbs: the candidate is usually close
   * to it, a few levels up rather than a whole root-to-leaf path away.
   */
  private nextBackfill(from: number, shadow: number, extra: number, level: number): number {
    const size = this.size;
    if (from >= size || !this.passes(1, shadow, extra, level)) return -1;
    let v = from + size;
    if (this.passes(v, shadow, extra, level)) return from;
    for (;;) {
      // Up to the first ancestor that is a left child, then to its right sibling, the next subtree in rank order.
      while (v & 1) v >>= 1;
      if (v === 0) return -1;
      v++;
      // Down, leftmost first; a subtree that fails sends the search on from it.
      while (this.passes(v, shadow, extra, level)) {
        if (v >= size) return v - size;
        v <<= 1;
      }
    }
  }

  /** Whether a job of subtree v may pass the backfill test (exact on a leaf). */
  private passes(v: number, shadow: number, extra: number, level: number): boolean {
    this.visits++;
    const p = this.nodeProcs(v);
    if (!(p <= this.free && (this.now + this.nodeEst(v) <= shadow || p <= extra))) return false;
    // With levels: every job of at most `free` processors has at most lvProcs[level], so
    // if the shortest of those cannot end by the shadow time only the extra rule is left.
    return !(v < this.lvTop && level < this.lvCount && !(p <= extra) && !(this.now + this.lv[v * this.lvCount + level] <= shadow));
  }

  /** The profile from running jobs' estimated ends and the reservations made so far. */
  private buildProfile(): void {
    const p = new BlockProfile(this.machineSize, this.now);
    this.prof = p;
    const now = this.now;
    if (!this.runTracked) this.trackRunning();
    for (let k = this.runBase; k < this.runTop; k++) {
      const i = this.runJob[k];
      if (i < 0) continue;
      const end = this.start[i] + this.est[i];
      if (end > now) p.reserve(now, end, this.procsN[i]);
    }
    for (let k = this.qh; k < this.queue.length; k++) {
      const i = this.queue[k];
      const t = this.reservation(i);
      if (!Number.isNaN(this.start[i]) || !(t + this.est[i] > t)) continue;
      if (t < now) throw this.fail('batch/reservation', `its reservation at ${t} lies in the past`, i);
      this.book(i, t, `its reservation at ${t} does not fit in the profile`);
    }
  }
}

const F32 = new Float32Array(1);
const F32_BITS = new Int32Array(F32.buffer);
/** The largest 32-bit float ≤ x, for x ≥ 0. */
function floatBelow(x: number): number {
  const f = Math.fround(x);
  if (f <= x) return f;
  F32[0] = f;
  F32_BITS[0]--;
  return F32[0];
}

/** The backfill index's "no job here": more processors than any job has (jobs have at most 2^31 − 1). */
const NO_PROCS = 2 ** 32 - 1;

/** Free processor ids as a min-heap: `take` hands out the lowest ones. */
class ProcessorNames {
  private readonly heap: Int32Array;
  private size: number;
  constructor(machineSize: number) {
    this.heap = new Int32Array(machineSize);
    for (let p = 0; p < machineSize; p++) this.heap[p] = p; // ascending: already a heap
    this.size = machineSize;
  }
  take(count: number): number[] {
    const out: number[] = new Array(count);
    for (let k = 0; k < count; k++) {
      const h = this.heap;
      out[k] = h[0];
      const last = h[--this.size];
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= this.size) break;
        const m = l + 1 < this.size && h[l + 1] < h[l] ? l + 1 : l;
        if (h[m] >= last) break;
        h[i] = h[m];
        i = m;
      }
      h[i] = last;
    }
    return out;
  }
  release(ids: readonly number[]): void {
    for (const id of ids) {
      const h = this.heap;
      let i = this.size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (h[p] <= id) break;
        h[i] = h[p];
        i = p;
      }
      h[i] = id;
    }
  }
}
