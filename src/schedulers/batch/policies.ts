/**
 * Batch start/backfill policies: the open interface and the three built-ins
 * (FCFS, EASY, conservative) written on it.
 *
 * A policy is an object with a name and a few event methods, in the manner
 * of pybatsim: `onJobSubmitted` and `onJobCompleted` (optional) and
 * `schedule`, called once per instant after all arrivals and completions of
 * that instant. `schedule` starts jobs with `ctx.startJob(job)` (at once, so
 * the next query sees the new state) or returns the jobs to start, which are
 * started in order after it returns. `ctx.reserve(job, time)` promises a job
 * a start no later than `time`, until replaced or withdrawn
 * (`cancelReservation`); the engine checks the promise is kept.
 *
 * Jobs are numbers (their index in the input); the context answers questions
 * about them. A policy other than the three built-ins always runs with the
 * invariant checks on. Errors are InvariantErrors whose message starts with
 * `policy <name>:` and which name the job and the time.
 */
import { eventPolicyObject, PolicyRef } from '../../util/modules';
import { InputError } from '../../util/errors';
import { InvariantError } from '../../util/invariants';
import type { ProcessorProfile } from '../../engine/profile';

/** A built-in batch policy: FCFS, EASY or conservative backfilling. */
export type BatchPolicy = 'fcfs' | 'easy' | 'conservative';
/** Names of the built-in batch policies, as the CLI and `simulateBatch` accept them. */
export const BATCH_POLICIES: readonly BatchPolicy[] = ['fcfs', 'easy', 'conservative'];

/**
 * EASY as other simulators run it (docs/batch-variants.md sets them beside the textbook rule):
 *  - 'textbook': Mu'alem & Feitelson 2001 (default);
 *  - 'cqsim': the test "ends by the shadow time" uses the job's actual run time instead of its
 *    estimate, and the scheduler runs after every single arrival and completion;
 *  - 'accasim': the head's reservation is not protected (every queued job that fits starts), a
 *    blocked head is retried only from the reservation time computed when it became head, and
 *    processors freed by zero-run-time jobs are reused only at the next event;
 *  - 'published': the DFRS paper's EASY (Stillwell, Vivien & Casanova) as its simulator ran it:
 *    never the shadow-time rule, a job is backfilled only onto processors outside the head's
 *    reservation.
 */
export type BatchVariant = 'textbook' | 'cqsim' | 'accasim' | 'published';
/** Every EASY variant `simulateBatch` accepts as `variant` (docs/batch-variants.md). */
export const BATCH_VARIANTS: readonly BatchVariant[] = ['textbook', 'cqsim', 'accasim', 'published'];

/** A job as `ctx.job(j)` describes it (a fresh object). */
export interface BatchJobInfo {
  /** The job's number (index in the input). */
  job: number;
  id: number;
  submit: number;
  procs: number;
  /** The run time the scheduler believes (see batchEstimate). */
  estimate: number;
  /** now − submit. */
  wait: number;
}

/** The profile's queries (the object is the engine's: never change it). */
export type ReadonlyProcessorProfile = Pick<ProcessorProfile, 'capacity' | 'origin' | 'size' | 'freeAt' | 'minFree' | 'fits' | 'earliestStart' | 'segments'>;

/** What a batch policy sees, and its two ways to act (startJob, reserve) plus wakeUpAt. */
export interface BatchContext {
  readonly now: number;
  readonly machineSize: number;
  /** Processors free now. */
  readonly free: number;
  /** Jobs that completed before their estimated end since the previous pass. */
  readonly endedEarly: number;
  /** True when the queue order is arrival order (option `order: 'fcfs'`). */
  readonly queueInArrivalOrder: boolean;
  /** The EASY variant of the run (option `variant`; 'textbook' by default). */
  readonly variant: BatchVariant;

  id(job: number): number;
  submit(job: number): number;
  procs(job: number): number;
  estimate(job: number): number;
  /** now − submit. */
  wait(job: number): number;
  /** Position in arrival order (submit, then input order). */
  rank(job: number): number;
  job(job: number): BatchJobInfo;
  isRunning(job: number): boolean;
  /** start + estimate of a running job. */
  estimatedEnd(job: number): number;
  /** The length EASY's test "ends by the shadow time" uses: the estimate (the actual run time under variant 'cqsim'). */
  backfillLength(job: number): number;
  /** The job's latest reservation (NaN if none). */
  reservation(job: number): number;

  /** Waiting jobs. */
  readonly queueLength: number;
  /** First waiting job in queue order, −1 when none. O(1) amortised. */
  head(): number;
  /** Waiting jobs in queue order. Jobs started after the call stay in the array: test isRunning. Valid until the next call. O(queue). */
  waiting(): readonly number[];
  readonly runningCount: number;
  /** The k-th running job by estimated end (ties: start order), 0 ≤ k < runningCount. */
  running(k: number): number;

  /** Fewest processors of any waiting job (Infinity when none). O(1) after the first call. */
  minWaitingProcs(): number;
  /**
   * First waiting job in arrival order after job `after` (−1: from the first)
   * that fits in the free processors and either ends by `shadow` (now +
   * backfillLength ≤ shadow) or needs at most `extra` processors; −1 when none.
   * O(log n) per answer (a segment tree over arrival ranks, built on first use).
   */
  backfillCandidate(after: number, shadow: number, extra: number): number;
  /**
   * Free processors over time from running jobs' estimated ends and the
   * reservations made with `reserve` (built on first use; from then on every
   * reservation books its rectangle in it and must fit).
   */
  readonly profile: ReadonlyProcessorProfile;
  /** Earliest start ≥ now of the job in the profile, ignoring its own reservation. */
  earliestStart(job: number): number;

  /** Start a waiting job now. */
  startJob(job: number): void;
  /** Promise the job a start no later than `time` (≥ now); replaces its previous reservation. */
  reserve(job: number, time: number): void;
  /** Withdraw the job's reservation (e.g. an EASY head that lost its place to a job of higher priority). */
  cancelReservation(job: number): void;
  /** Call schedule again at `time` (> now), even if nothing arrives or completes then. The earliest request of a pass wins. */
  wakeUpAt(time: number): void;
}

/** A batch scheduling policy (built-in or user-supplied). */
export interface BatchSchedulingPolicy {
  readonly name: string;
  onJobSubmitted?(job: number, ctx: BatchContext): void;
  onJobCompleted?(job: number, ctx: BatchContext): void;
  schedule(ctx: BatchContext): readonly number[] | void;
}

/** A built-in's name, a policy object, or `{ module, export }` naming one (sweep cells in worker threads). */
export type BatchPolicySpec = BatchPolicy | BatchSchedulingPolicy | PolicyRef;

/** FCFS: start from the head of the queue while it fits. */
const fcfs: BatchSchedulingPolicy = {
  name: 'fcfs',
  schedule(ctx) {
    for (let h = ctx.head(); h >= 0 && ctx.procs(h) <= ctx.free; h = ctx.head()) ctx.startJob(h);
  },
};

/** The `extra` of the last shadowTime call: processors free at the shadow time beyond the head's need. */
let shadowExtra = 0;

/** The head's shadow time: the first estimated end at which enough processors are expected free (sets shadowExtra). */
function shadowTime(ctx: BatchContext, head: number): number {
  const need = ctx.procs(head);
  let avail = ctx.free;
  const n = ctx.runningCount;
  for (let k = 0; k < n; k++) {
    avail += ctx.procs(ctx.running(k));
    if (avail >= need) {
      const end = ctx.estimatedEnd(ctx.running(k));
      // Every job with the same estimated end is free at the shadow time too.
      while (k + 1 < n && ctx.estimatedEnd(ctx.running(k + 1)) === end) avail += ctx.procs(ctx.running(++k));
      shadowExtra = avail - need;
      return Math.max(ctx.now, end);
    }
  }
  throw new InvariantError('batch/reservation', `policy ${ctx.variant === 'textbook' ? 'easy' : `easy (${ctx.variant})`}: the queue head can never start`, { job: ctx.id(head), time: ctx.now });
}

/**
 * EASY (Lifka 1995; Mu'alem & Feitelson 2001): FCFS, then the head gets a
 * reservation at the shadow time (when enough processors are expected free),
 * and a later job may start now if it fits and either ends by the shadow
 * time or uses only processors the head will not need ("extra"). The
 * variants (BatchVariant) change one rule each here: 'cqsim' the length in
 * the shadow test, 'published' drops that test, 'accasim' is its own pass.
 */
const easy: BatchSchedulingPolicy = {
  name: 'easy',
  schedule(ctx) {
    const variant = ctx.variant;
    if (variant === 'accasim') return accasimPass(ctx);
    if (!ctx.queueInArrivalOrder) {
      // The queue was re-sorted: a former head behind the first job has lost its reservation.
      const q = ctx.waiting();
      for (let k = 1; k < q.length; k++) if (!Number.isNaN(ctx.reservation(q[k]))) ctx.cancelReservation(q[k]);
    }
    let head = ctx.head();
    for (; head >= 0 && ctx.procs(head) <= ctx.free; head = ctx.head()) ctx.startJob(head);
    if (head < 0 || ctx.free === 0 || ctx.free < ctx.minWaitingProcs()) return;
    const now = ctx.now;
    const shadow = shadowTime(ctx, head);
    let extra = shadowExtra;
    // CQSim: a job backfilled by its run time may hold processors past the shadow time by its
    // estimate, so the next shadow time can be later: the head's promise is renewed, not kept.
    if (variant === 'cqsim' && shadow > ctx.reservation(head)) ctx.cancelReservation(head);
    ctx.reserve(head, shadow);
    // The DFRS paper's simulator never lets a job end by the shadow time: only the extra rule is left.
    const by = variant === 'published' ? -Infinity : shadow;
    if (!ctx.queueInArrivalOrder) {
      // Backfill in queue order: scan it.
      const q = ctx.waiting();
      for (let k = 1; k < q.length && ctx.free > 0; k++) {
        const i = q[k];
        if (ctx.isRunning(i) || ctx.procs(i) > ctx.free) continue;
        const endsBefore = now + ctx.backfillLength(i) <= by;
        if (!endsBefore && ctx.procs(i) > extra) continue;
        if (!endsBefore) extra -= ctx.procs(i);
        ctx.startJob(i);
      }
      return;
    }
    // Queue order is arrival order: the backfill index finds each candidate in O(log n).
    for (let i = ctx.backfillCandidate(head, by, extra); i >= 0 && ctx.free > 0; i = ctx.backfillCandidate(i, by, extra)) {
      if (!(now + ctx.backfillLength(i) <= by)) extra -= ctx.procs(i);
      ctx.startJob(i);
    }
  },
};

/** AccaSim's EASY state for one run: the blocked head and the reservation time computed when it became head. */
interface AccasimRun {
  blocked: number;
  at: number;
}
const accasimRuns = new WeakMap<BatchContext, AccasimRun>();

/**
 * AccaSim's EASY pass (queue in arrival order): a blocked head is retried
 * only once the clock has reached the reservation time computed when it
 * became head; otherwise FCFS from the head, and the first job that does not
 * fit becomes the blocked head. Then every later job that fits now starts,
 * in queue order: the head's reservation is not protected.
 */
function accasimPass(ctx: BatchContext): void {
  let run = accasimRuns.get(ctx);
  if (!run) {
    run = { blocked: -1, at: NaN };
    accasimRuns.set(ctx, run);
  }
  const now = ctx.now;
  if (run.blocked >= 0 && now >= run.at && ctx.procs(run.blocked) <= ctx.free) {
    ctx.startJob(run.blocked);
    run.blocked = -1;
  }
  if (run.blocked < 0) {
    let head = ctx.head();
    for (; head >= 0 && ctx.procs(head) <= ctx.free; head = ctx.head()) ctx.startJob(head);
    if (head < 0) return;
    run.blocked = head;
    run.at = shadowTime(ctx, head);
  }
  if (ctx.free > 0 && ctx.free >= ctx.minWaitingProcs()) {
    for (let i = ctx.backfillCandidate(run.blocked, -Infinity, ctx.free); i >= 0 && ctx.free > 0; i = ctx.backfillCandidate(i, -Infinity, ctx.free)) ctx.startJob(i);
  }
  // Nothing runs, so no event would bring the clock to the head's time: wake up then
  // (AccaSim would wait for the next arrival; the run would end with the head waiting).
  if (ctx.runningCount === 0 && run.at > now) ctx.wakeUpAt(run.at);
}

/**
 * Conservative's bookkeeping for one run (the policy object is shared, so it
 * lives beside the context): the jobs submitted since the last pass, and the
 * reservations as a min-heap by time, so that a pass touches only the jobs
 * that arrive or are due rather than the whole queue. Entries go stale when a
 * job starts or is reserved again; they are dropped when they surface.
 */
interface ConservativeRun {
  fresh: number[];
  heapTime: number[];
  heapJob: number[];
  /** Jobs due (reservation ≤ now) that could not start yet (zero-length reservations). */
  late: number[];
}
const conservativeRuns = new WeakMap<BatchContext, ConservativeRun>();

function conservativeRun(ctx: BatchContext): ConservativeRun {
  let r = conservativeRuns.get(ctx);
  if (!r) {
    r = { fresh: [], heapTime: [], heapJob: [], late: [] };
    conservativeRuns.set(ctx, r);
  }
  return r;
}

function heapPush(r: ConservativeRun, time: number, job: number): void {
  const { heapTime: ht, heapJob: hj } = r;
  let i = ht.length;
  ht.push(time);
  hj.push(job);
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (ht[p] <= time) break;
    ht[i] = ht[p];
    hj[i] = hj[p];
    i = p;
  }
  ht[i] = time;
  hj[i] = job;
}

function heapPop(r: ConservativeRun): void {
  const { heapTime: ht, heapJob: hj } = r;
  const t = ht.pop() as number;
  const j = hj.pop() as number;
  const n = ht.length;
  if (n === 0) return;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) break;
    const m = l + 1 < n && ht[l + 1] < ht[l] ? l + 1 : l;
    if (ht[m] >= t) break;
    ht[i] = ht[m];
    hj[i] = hj[m];
    i = m;
  }
  ht[i] = t;
  hj[i] = j;
}

/** Reserve job i at time t and remember it in the heap. */
function conservativeReserve(ctx: BatchContext, r: ConservativeRun, i: number, t: number): void {
  ctx.reserve(i, t);
  heapPush(r, t, i);
}

/** Move the heap's entries due by now (still current) to `late`, drop stale ones; the next reservation after now. */
function conservativeSettle(ctx: BatchContext, r: ConservativeRun): number {
  const now = ctx.now;
  while (r.heapTime.length > 0) {
    const t = r.heapTime[0];
    const j = r.heapJob[0];
    const current = !ctx.isRunning(j) && ctx.reservation(j) === t;
    if (current && t > now) return t;
    heapPop(r);
    if (current) r.late.push(j);
  }
  return Infinity;
}

/**
 * Conservative backfilling: every waiting job holds a reservation in the
 * profile, made in queue order at the earliest time that delays no earlier
 * one. When jobs end before their estimate, the reservations are recomputed
 * in queue order (each can only move earlier). A job starts at its reservation.
 */
const conservative: BatchSchedulingPolicy = {
  name: 'conservative',
  onJobSubmitted(job, ctx) {
    conservativeRun(ctx).fresh.push(job);
  },
  schedule(ctx) {
    const now = ctx.now;
    const run = conservativeRun(ctx);
    if (ctx.endedEarly > 0) {
      for (const i of ctx.waiting()) {
        const old = ctx.reservation(i);
        if (Number.isNaN(old)) continue; // arrived at this instant: reserved below
        const t = ctx.earliestStart(i);
        // A zero-length reservation holds nothing (and may lie in the past when its job could not start on time).
        if (t > old && old + ctx.estimate(i) > old) throw new InvariantError('batch/reservation', `policy conservative: reservation moved later, from ${old} to ${t}`, { job: ctx.id(i), time: now });
        if (t !== old) conservativeReserve(ctx, run, i, t);
      }
      // Stale entries pile up when every pass moves reservations: rebuild now and then.
      if (run.heapTime.length > 2 * ctx.queueLength + 1024) {
        const keep: number[] = [];
        for (let k = 0; k < run.heapTime.length; k++) {
          const j = run.heapJob[k];
          if (!ctx.isRunning(j) && ctx.reservation(j) === run.heapTime[k]) keep.push(j);
        }
        run.heapTime.length = 0;
        run.heapJob.length = 0;
        for (const j of keep) heapPush(run, ctx.reservation(j), j);
      }
    }
    // Jobs already reserved come before this instant's arrivals in the queue
    // (arrival order): start those due, in queue order. A zero-length
    // reservation holds no processors in the profile, so a job reserved for
    // now may find them still taken by a zero-run-time job that ends at this
    // same instant; it then starts at the next pass (same time).
    conservativeSettle(ctx, run);
    if (run.late.length > 0) {
      const due = run.late.filter((j) => !ctx.isRunning(j) && ctx.reservation(j) <= now).sort((a, b) => ctx.rank(a) - ctx.rank(b));
      run.late = [];
      for (let k = 0; k < due.length; k++) {
        const i = due[k];
        if (k > 0 && i === due[k - 1]) continue;
        if (ctx.procs(i) <= ctx.free) ctx.startJob(i);
        else run.late.push(i);
      }
    }
    // This instant's arrivals, reserved in queue order; starting an earlier
    // job at its reservation leaves the profile as it was.
    for (const i of run.fresh) {
      if (!Number.isNaN(ctx.reservation(i))) continue;
      conservativeReserve(ctx, run, i, ctx.earliestStart(i));
      if (ctx.reservation(i) <= now && ctx.procs(i) <= ctx.free) ctx.startJob(i);
    }
    run.fresh = [];
    const next = conservativeSettle(ctx, run);
    if (next < Infinity) ctx.wakeUpAt(next);
  },
};

/** The three built-ins as policy objects. */
export const BUILTIN_BATCH_POLICIES: Readonly<Record<BatchPolicy, BatchSchedulingPolicy>> = Object.freeze({ fcfs, easy, conservative });

/** True for one of the built-in policy objects (their checks follow the global switch). */
export function isBuiltinBatchPolicy(p: BatchSchedulingPolicy): boolean {
  return (BUILTIN_BATCH_POLICIES as Record<string, BatchSchedulingPolicy>)[p.name] === p;
}

/** The policy object of a spec; throws an InputError naming `source` when it is not usable. */
export function resolveBatchPolicy(spec: BatchPolicySpec, source = 'simulateBatch'): BatchSchedulingPolicy {
  if (typeof spec === 'string') {
    if (!(BATCH_POLICIES as readonly string[]).includes(spec)) {
      throw new InputError(`${source}: unknown policy '${spec}' (use ${BATCH_POLICIES.join(', ')}, a policy object or { module, export })`, { source, field: 'policy' });
    }
    return BUILTIN_BATCH_POLICIES[spec];
  }
  return eventPolicyObject<BatchSchedulingPolicy>(spec, source, { required: ['schedule'], optional: ['onJobSubmitted', 'onJobCompleted'] });
}
