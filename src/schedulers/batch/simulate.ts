/**
 * Batch (space-sharing) schedulers on a machine of identical processors:
 * FCFS, EASY backfilling and conservative backfilling, driven by the
 * Simulation event core.
 *
 * - FCFS: jobs start in submission order; a job that does not fit blocks all
 *   later ones.
 * - EASY (Lifka 1995; Mu'alem & Feitelson 2001): the queue head gets a
 *   reservation at the earliest time enough processors are expected free
 *   (the "shadow time", from running jobs' estimated ends); a later job may
 *   start now if it fits now and either ends (by its estimate) by the shadow
 *   time or uses only processors the head will not need ("extra").
 * - Conservative: every queued job gets a reservation in a processor
 *   profile when it arrives, at the earliest time that delays no earlier
 *   reservation; when a job ends before its estimate, the reservations are
 *   recomputed in queue order (each can only move earlier).
 *
 * Documented choices:
 *  - Processors are counted, not named: any free processors can take a job
 *    (no fragmentation or topology).
 *  - All arrivals and completions at one instant are applied before the
 *    scheduler runs once for that instant; completions free processors for
 *    arrivals at the same time.
 *  - Estimates: 'exact' uses the run time. 'requested' uses the trace's
 *    requested time (SWF field 9); when it is missing (or not positive) the
 *    run time is used, and when the job ran longer than requested the
 *    estimate is raised to the run time (jobs are not killed at their limit;
 *    this keeps every reservation a guarantee). Use {@link batchEstimate} to
 *    see the value used for a job.
 *  - Queue order is submission order, ties by input order.
 *  - Conservative: a job with a zero estimate (or one so small that
 *    t + estimate = t in floating point) gets a zero-length reservation, which holds no processors in the profile; a job backfilled
 *    later may then cover that instant, and the zero-length job starts when
 *    processors are free (it delays nobody). Such reservations are therefore
 *    not guarantees, and the reservation invariant below exempts them.
 *
 * With invariant checks on (util/invariants.ts) the run also verifies that
 * every job starts once, not before its submit time, and completes exactly
 * its run time later; that no reservation is broken (a job starts no later
 * than any reservation it was given: the EASY head's shadow time, a
 * conservative reservation); and at the end, independently of the
 * scheduler's bookkeeping, the whole schedule ({@link verifyBatchSchedule}).
 */
import { Simulation, ScheduledEvent } from '../../engine/events';
import { ProcessorProfile } from '../../engine/profile';
import { InputError } from '../../util/errors';
import { invariantChecksEnabled, InvariantError } from '../../util/invariants';
import { WorkloadJob } from '../../workloads/job';
import { verifyBatchSchedule, verifyProcessorNames } from './invariants';

export type BatchPolicy = 'fcfs' | 'easy' | 'conservative';
export type BatchEstimates = 'exact' | 'requested';
/**
 * Queue order (which waiting job is the "head" for FCFS and EASY):
 *  - 'fcfs': submission order (default);
 *  - 'sjf' / 'ljf': shortest / longest estimate first;
 *  - 'smallest': fewest processors first;
 *  - 'wfp3': highest (w/e)^3 · p first, w = wait so far, e = estimate, p = processors
 *    (WFP, Tang, Lan, Desai & Buettner 2009, "Fault-aware, utility-based job
 *    scheduling on Blue Gene/P systems"; also Carastan-Santos & de Camargo 2017);
 *  - 'unicef': highest w / (log2(p) · e) first (UNICEF, same sources);
 *  - a function `(job, now, estimate) => priority`: highest priority first.
 * Ties go to submission order. Choice: in WFP3 and UNICEF the estimate is
 * floored at 1 s and log2(p) at log2(2) = 1 (the published formulas divide by
 * zero for zero-length or one-processor jobs). Orders other than 'fcfs' are
 * re-sorted at each scheduling pass, and EASY then scans the queue for
 * backfill candidates (O(queue) per pass). Conservative backfilling reserves
 * in submission order and accepts only 'fcfs'.
 */
export type BatchQueueOrder = 'fcfs' | 'sjf' | 'ljf' | 'smallest' | 'wfp3' | 'unicef' | ((job: WorkloadJob, now: number, estimate: number) => number);

export interface BatchOptions {
  /** Processors in the machine. */
  machineSize: number;
  policy: BatchPolicy;
  /** What backfilling believes about run times (default 'exact'). */
  estimates?: BatchEstimates;
  /** Queue order for FCFS and EASY (default 'fcfs'); see {@link BatchQueueOrder}. */
  order?: BatchQueueOrder;
  /**
   * Diagnostic hook: called when a waiting job gets (or renews) a
   * reservation — the EASY head's shadow time at each scheduling pass, or a
   * conservative reservation when made or moved.
   */
  onReservation?: (r: { id: number; time: number; reservedStart: number }) => void;
  /**
   * Name the processors (0 … machineSize − 1) each job runs on, lowest free
   * first, in `BatchJobResult.processors` (machines up to 2^24 processors).
   * The policies still count processors; the names are for processor-level
   * views (Gantt charts) and are checked never to be shared at any instant.
   */
  assignProcessors?: boolean;
}

export interface BatchJobResult {
  id: number;
  submit: number;
  start: number;
  end: number;
  runtime: number;
  procs: number;
  /** start − submit. */
  wait: number;
  /** With `assignProcessors`: the processors used, ascending. */
  processors?: number[];
}

/** The run-time estimate the batch schedulers use for a job. */
export function batchEstimate(job: WorkloadJob, estimates: BatchEstimates = 'exact'): number {
  if (estimates === 'exact') return job.runtime;
  const req = job.requestedTime;
  if (req === undefined || !(req > 0)) return job.runtime;
  return Math.max(req, job.runtime);
}

const POLICIES: readonly BatchPolicy[] = ['fcfs', 'easy', 'conservative'];
const ORDERS: readonly string[] = ['fcfs', 'sjf', 'ljf', 'smallest', 'wfp3', 'unicef'];

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
// Event options, shared so the hot path allocates none. Same instant: completions
// (−1), then the conservative compression (−0.5), arrivals (0), the scheduling pass (1).
const AT_COMPLETION = { priority: -1, kind: 'completion' };
const AT_ARRIVAL = { priority: 0, kind: 'arrival' };
const AT_PASS = { priority: 1, kind: 'schedule' };

/** Largest processor count the batch schedulers accept (2^31 − 1, the SWF reader's limit too). */
export const MAX_PROCS = 2 ** 31 - 1;

/**
 * Simulate a batch scheduler on `jobs`. Returns one result per job, in the
 * input order.
 */
export function simulateBatch(jobs: readonly WorkloadJob[], options: BatchOptions): BatchJobResult[] {
  const { machineSize, policy } = options;
  const estimates = options.estimates ?? 'exact';
  const src = 'simulateBatch';
  // Processor counts are stored as 32-bit integers: larger ones would wrap around.
  if (!Number.isInteger(machineSize) || machineSize < 1 || machineSize > MAX_PROCS) throw new InputError(`simulateBatch: machineSize must be an integer in [1, ${MAX_PROCS}], got ${machineSize}`, { source: src, field: 'machineSize' });
  if (!POLICIES.includes(policy)) throw new InputError(`simulateBatch: unknown policy '${policy}' (use ${POLICIES.join(', ')})`, { source: src, field: 'policy' });
  if (estimates !== 'exact' && estimates !== 'requested') throw new InputError(`simulateBatch: estimates must be 'exact' or 'requested', got '${estimates}'`, { source: src, field: 'estimates' });
  if (options.assignProcessors && machineSize > 2 ** 24) throw new InputError(`simulateBatch: assignProcessors needs a machine of at most 2^24 processors, got ${machineSize}`, { source: src, field: 'assignProcessors' });
  const queueOrder = options.order ?? 'fcfs';
  if (typeof queueOrder !== 'function' && !ORDERS.includes(queueOrder)) throw new InputError(`simulateBatch: unknown order '${queueOrder}' (use ${ORDERS.join(', ')} or a function)`, { source: src, field: 'order' });
  if (policy === 'conservative' && queueOrder !== 'fcfs') throw new InputError(`simulateBatch: conservative backfilling reserves in submission order; order must be 'fcfs'`, { source: src, field: 'order' });
  const reorder = queueOrder !== 'fcfs';
  const checks = invariantChecksEnabled();
  const at = (i: number, field: string) => ({ source: src, field: `jobs[${i}].${field}` });

  const n = jobs.length;
  const submit = new Float64Array(n);
  const runtime = new Float64Array(n);
  const est = new Float64Array(n);
  const procs = new Int32Array(n);
  const start = new Float64Array(n).fill(NaN);
  // Invariant bookkeeping (allocated only with checks on): earliest reservation
  // ever promised to each job, and whether it completed.
  const promised = checks ? new Float64Array(n).fill(Infinity) : undefined;
  const completed = checks ? new Uint8Array(n) : undefined;
  for (let i = 0; i < n; i++) {
    const j = jobs[i];
    if (!Number.isFinite(j.submit)) throw new InputError(`simulateBatch: job ${j.id} has submit time ${j.submit}`, at(i, 'submit'));
    if (!(j.runtime >= 0) || !Number.isFinite(j.runtime)) throw new InputError(`simulateBatch: job ${j.id} has run time ${j.runtime}`, at(i, 'runtime'));
    if (!Number.isInteger(j.procs) || j.procs < 1) throw new InputError(`simulateBatch: job ${j.id} has ${j.procs} processors (need a positive integer)`, at(i, 'procs'));
    if (j.procs > machineSize) throw new InputError(`simulateBatch: job ${j.id} needs ${j.procs} processors but the machine has ${machineSize}`, at(i, 'procs'));
    submit[i] = j.submit;
    runtime[i] = j.runtime;
    procs[i] = j.procs;
    est[i] = batchEstimate(j, estimates);
  }
  // Arrival order: by submit time, ties by input order.
  const order = Array.from({ length: n }, (_, i) => i);
  let sorted = true;
  for (let i = 1; i < n; i++) if (submit[i] < submit[i - 1]) sorted = false;
  if (!sorted) order.sort((a, b) => submit[a] - submit[b] || a - b);

  // Processor names (assignProcessors): a min-heap of free processor ids, lowest first.
  const names = options.assignProcessors ? new ProcessorNames(machineSize) : undefined;
  const used: number[][] | undefined = names ? new Array(n) : undefined;
  const sim = new Simulation({ startTime: n > 0 ? Math.min(0, submit[order[0]]) : 0 });
  let free = machineSize;
  const queue: number[] = [];
  let qh = 0; // FCFS/EASY: index of the queue head
  let dead = 0; // FCFS/EASY: started entries after the head, not yet compacted
  let nextArrival = 0;
  let passPending = false;
  const hook = options.onReservation;

  // Running jobs sorted by estimated end (EASY's shadow computation).
  const runEnd: number[] = [];
  const runJob: number[] = [];
  const insertRunning = (i: number, estEnd: number) => {
    let lo = 0;
    let hi = runEnd.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (runEnd[mid] <= estEnd) lo = mid + 1;
      else hi = mid;
    }
    runEnd.splice(lo, 0, estEnd);
    runJob.splice(lo, 0, i);
  };
  const removeRunning = (i: number) => {
    const e = start[i] + est[i];
    let lo = 0;
    let hi = runEnd.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (runEnd[mid] < e) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < runJob.length; k++) {
      if (runJob[k] === i) {
        runEnd.splice(k, 1);
        runJob.splice(k, 1);
        return;
      }
    }
    throw new InvariantError('batch/running', 'completed but not in the running list', { job: jobs[i].id, time: sim.now });
  };

  // Conservative backfilling state.
  const profile = policy === 'conservative' ? new ProcessorProfile(machineSize, sim.now) : undefined;
  const resStart = policy === 'conservative' ? new Float64Array(n).fill(NaN) : undefined;
  let wakeup: ScheduledEvent | undefined;

  // Conservative: reservations are compressed once per instant, after every
  // completion of that instant (priority −1) and before its arrivals (0), so
  // the schedule never depends on the order of simultaneous completions.
  let compressPending = false;
  const requestCompress = () => {
    if (compressPending) return;
    compressPending = true;
    sim.at(sim.now, () => {
      compressPending = false;
      compress(sim.now);
    }, { priority: -0.5, kind: 'compress' });
  };

  const requestPass = () => {
    if (passPending) return;
    passPending = true;
    sim.at(sim.now, pass, AT_PASS);
  };

  const complete = (i: number) => {
    if (completed) {
      const now = sim.now;
      if (completed[i]) throw new InvariantError('batch/once', 'completed twice', { job: jobs[i].id, time: now });
      completed[i] = 1;
      if (now !== start[i] + runtime[i]) {
        throw new InvariantError('batch/work', `completed at ${now}, started at ${start[i]} with run time ${runtime[i]}`, { job: jobs[i].id, time: now });
      }
    }
    free += procs[i];
    if (names && used) names.release(used[i]);
    if (policy === 'easy') removeRunning(i);
    if (profile && resStart) {
      const now = sim.now;
      const estEnd = start[i] + est[i];
      if (estEnd > now) {
        profile.trim(now);
        profile.release(now, estEnd, procs[i]);
        requestCompress();
      }
    }
    requestPass();
  };

  const startJob = (i: number) => {
    const now = sim.now;
    if (procs[i] > free) throw new InvariantError('batch/capacity', `needs ${procs[i]} processors, only ${free} free`, { job: jobs[i].id, time: now });
    if (promised) {
      const where = { job: jobs[i].id, time: now };
      if (!Number.isNaN(start[i])) throw new InvariantError('batch/once', `started twice (first at ${start[i]})`, where);
      if (now < submit[i]) throw new InvariantError('batch/release', `started before its submit time ${submit[i]}`, where);
      if (now > promised[i]) throw new InvariantError('batch/reservation', `started after its reservation at ${promised[i]}`, where);
    }
    start[i] = now;
    free -= procs[i];
    if (names && used) used[i] = names.take(procs[i]);
    if (policy === 'easy') {
      insertRunning(i, now + est[i]);
      setLeaf(rankOf[i], Infinity, Infinity);
    }
    // Priority −1: completions run before arrivals at the same instant, so an
    // arrival is reserved against the profile its completions already freed.
    sim.at(now + runtime[i], () => complete(i), AT_COMPLETION);
  };

  const arrive = () => {
    const i = order[nextArrival++];
    queue.push(i);
    if (policy === 'easy') setLeaf(rankOf[i], procs[i], est[i]);
    if (profile && resStart) {
      const now = sim.now;
      profile.trim(now);
      const t = profile.earliestStart(procs[i], est[i], now);
      profile.reserve(t, t + est[i], procs[i]);
      resStart[i] = t;
      if (promised && t + est[i] > t && t < promised[i]) promised[i] = t;
      hook?.({ id: jobs[i].id, time: now, reservedStart: t });
    }
    scheduleArrival();
    requestPass();
  };

  const scheduleArrival = () => {
    if (nextArrival < n) sim.at(submit[order[nextArrival]], arrive, AT_ARRIVAL);
  };

  /** Conservative: move every queued reservation as early as possible, in queue order. */
  const compress = (now: number) => {
    if (!profile || !resStart) return;
    for (const i of queue) {
      const old = resStart[i];
      // A zero-length reservation holds nothing (and may lie before the
      // profile's origin when its job could not start on time): nothing to give back.
      const held = old + est[i] > old;
      if (held) profile.release(old, old + est[i], procs[i]);
      const t = profile.earliestStart(procs[i], est[i], now);
      profile.reserve(t, t + est[i], procs[i]);
      if (t > old && held) throw new InvariantError('batch/reservation', `conservative reservation moved later, from ${old} to ${t}`, { job: jobs[i].id, time: now });
      if (t !== old) {
        resStart[i] = t;
        if (promised && t + est[i] > t && t < promised[i]) promised[i] = t;
        hook?.({ id: jobs[i].id, time: now, reservedStart: t });
      }
    }
  };

  const pass = () => {
    passPending = false;
    const now = sim.now;
    if (policy === 'conservative') {
      const rs = resStart as Float64Array;
      let w = 0;
      let next = Infinity;
      for (const i of queue) {
        // A zero-length reservation holds no processors in the profile, so a
        // job reserved for now may find them still taken by a zero-run-time job
        // that ends at this same instant; it then starts at the next pass (same time).
        if (rs[i] <= now && procs[i] <= free) startJob(i);
        else {
          queue[w++] = i;
          if (rs[i] > now && rs[i] < next) next = rs[i];
        }
      }
      queue.length = w;
      sim.cancel(wakeup);
      wakeup = next < Infinity ? sim.at(next, () => requestPass(), { priority: 0, kind: 'wakeup' }) : undefined;
      return;
    }
    if (reorder && queue.length - qh > 1) {
      compactQueue();
      for (const i of queue) {
        const v = typeof queueOrder === 'function' ? queueOrder(jobs[i], now, est[i]) : orderScore(queueOrder, now - submit[i], est[i], procs[i]);
        if (Number.isNaN(v)) throw new InvariantError('batch/order', 'the queue order gave NaN', { job: jobs[i].id, time: now });
        score[i] = v;
      }
      queue.sort((a, b) => score[b] - score[a] || rankOf[a] - rankOf[b]);
    }
    // FCFS part: start from the head while it fits. The queue is queue[qh..],
    // where jobs backfilled out of order stay as started entries until
    // compacted, so a pass never shifts a deep queue (O(n log n) overall).
    while (qh < queue.length && (!Number.isNaN(start[queue[qh]]) || procs[queue[qh]] <= free)) {
      if (Number.isNaN(start[queue[qh]])) startJob(queue[qh]);
      else dead--;
      qh++;
    }
    if (qh >= 1024 && 2 * (qh + dead) > queue.length) compactQueue();
    if (policy === 'fcfs' || qh === queue.length || free === 0 || free < segProcs[1]) return;

    // EASY: reservation (shadow time) for the head.
    const head = queue[qh];
    let avail = free;
    let shadow = Infinity;
    let extra = 0;
    for (let k = 0; k < runJob.length; k++) {
      avail += procs[runJob[k]];
      if (avail >= procs[head]) {
        // Every job with the same estimated end is free at the shadow time too.
        while (k + 1 < runJob.length && runEnd[k + 1] === runEnd[k]) avail += procs[runJob[++k]];
        shadow = Math.max(now, runEnd[k]);
        extra = avail - procs[head];
        break;
      }
    }
    if (shadow === Infinity) throw new InvariantError('batch/reservation', 'the queue head can never start', { job: jobs[head].id, time: now });
    if (promised && shadow < promised[head]) promised[head] = shadow;
    hook?.({ id: jobs[head].id, time: now, reservedStart: shadow });
    // Backfill, in queue order: later jobs that fit now and do not delay the head.
    if (reorder) {
      for (let k = qh + 1; k < queue.length && free > 0; k++) {
        const i = queue[k];
        if (!Number.isNaN(start[i]) || procs[i] > free) continue;
        const endsBefore = now + est[i] <= shadow;
        if (!endsBefore && procs[i] > extra) continue;
        if (!endsBefore) extra -= procs[i];
        startJob(i);
        dead++;
      }
      return;
    }
    let from = rankOf[head] + 1;
    while (free > 0) {
      const r = nextBackfill(1, 0, size - 1, from, now, shadow, extra);
      if (r < 0) break;
      const i = order[r];
      if (!(now + est[i] <= shadow)) extra -= procs[i];
      startJob(i);
      dead++;
      from = r + 1;
    }
  };

  /** Drop started entries from the FCFS/EASY queue. */
  const compactQueue = () => {
    let w = 0;
    for (let k = qh; k < queue.length; k++) if (Number.isNaN(start[queue[k]])) queue[w++] = queue[k];
    queue.length = w;
    qh = 0;
    dead = 0;
  };

  // EASY backfill index over arrival ranks: each subtree holds the fewest
  // processors and the shortest estimate among its waiting jobs, so a pass
  // finds the next job that may backfill in O(log n) instead of scanning the queue.
  let size = 1;
  while (size < n) size *= 2;
  const segProcs = policy === 'easy' ? new Float64Array(2 * size).fill(Infinity) : new Float64Array(0);
  const segEst = policy === 'easy' ? new Float64Array(2 * size).fill(Infinity) : new Float64Array(0);
  const rankOf = policy === 'easy' || reorder ? new Float64Array(n) : new Float64Array(0);
  if (rankOf.length) for (let r = 0; r < n; r++) rankOf[order[r]] = r;
  const score = reorder ? new Float64Array(n) : new Float64Array(0);
  const setLeaf = (rank: number, p: number, e: number) => {
    let v = rank + size;
    segProcs[v] = p;
    segEst[v] = e;
    for (v >>= 1; v >= 1; v >>= 1) {
      const mp = Math.min(segProcs[2 * v], segProcs[2 * v + 1]);
      const me = Math.min(segEst[2 * v], segEst[2 * v + 1]);
      if (mp === segProcs[v] && me === segEst[v]) break; // nothing changes further up
      segProcs[v] = mp;
      segEst[v] = me;
    }
  };
  /**
   * First arrival rank ≥ `from` whose job fits now and either ends (by its
   * estimate) by the shadow time or uses only extra processors; −1 if none.
   * A subtree is skipped only when no job in it can pass (now + e is
   * monotone in e, so the test on the minima is exact pruning).
   */
  const nextBackfill = (v: number, lo: number, hi: number, from: number, now: number, shadow: number, extra: number): number => {
    if (hi < from) return -1;
    const p = segProcs[v];
    if (!(p <= free && (now + segEst[v] <= shadow || p <= extra))) return -1;
    if (lo === hi) return lo;
    const mid = (lo + hi) >> 1;
    const left = nextBackfill(2 * v, lo, mid, from, now, shadow, extra);
    return left >= 0 ? left : nextBackfill(2 * v + 1, mid + 1, hi, from, now, shadow, extra);
  };

  scheduleArrival();
  sim.run();
  if (policy !== 'conservative') compactQueue();
  if (queue.length > 0) throw new InvariantError('batch/started', `${queue.length} jobs never started`, { job: jobs[queue[0]].id });

  const out: BatchJobResult[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const s = start[i];
    out[i] = { id: jobs[i].id, submit: submit[i], start: s, end: s + runtime[i], runtime: runtime[i], procs: procs[i], wait: s - submit[i] };
    if (used) out[i].processors = used[i].sort((a, b) => a - b);
  }
  if (used && completed) verifyProcessorNames(out, machineSize);
  if (completed) {
    const missing = completed.indexOf(0);
    if (missing >= 0) throw new InvariantError('batch/work', 'never completed', { job: jobs[missing].id });
    verifyBatchSchedule(jobs, out, machineSize);
  }
  return out;
}

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
