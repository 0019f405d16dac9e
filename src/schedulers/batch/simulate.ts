/**
 * Batch (space-sharing) schedulers on a machine of identical processors:
 * the engine loop. It drives the Simulation event core: arrivals (read from
 * the input in submit order) and completions (events) update the family's
 * state (state.ts), then the policy (policies.ts: FCFS, EASY, conservative,
 * or a user policy) decides once per instant which jobs start. Same instant:
 * completions (in start order), a wake-up, arrivals, then the pass.
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
 *  - Queue order: submission order by default, ties by input order (see {@link BatchQueueOrder}).
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
 * A policy other than the built-ins always runs with these checks on.
 */
import { EventId, Simulation } from '../../engine/events';
import { InputError } from '../../util/errors';
import { invariantChecksEnabled } from '../../util/invariants';
import { WorkloadJob } from '../../workloads/job';
import { columnJob, isJobColumns, JobColumns } from '../../workloads/columns';
import { verifyBatchSchedule, verifyProcessorNames } from './invariants';
import { BATCH_VARIANTS, BUILTIN_BATCH_POLICIES, BatchPolicySpec, BatchVariant, isBuiltinBatchPolicy, resolveBatchPolicy } from './policies';
import { BatchState, JobList } from './state';
import { guardedBatchPolicy } from './guarded';

export type { BatchPolicy } from './policies';
/** Which run time the scheduler plans with: the job's actual run time (`exact`) or the user's requested time (`requested`). */
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

/** Options of `simulateBatch`: machine size, policy, estimates, queue order and processor names. */
export interface BatchOptions {
  /** Processors in the machine. */
  machineSize: number;
  /**
   * 'fcfs', 'easy', 'conservative', a policy object, or `{ module, export }`
   * naming one (policies.ts). A policy other than the built-ins always runs
   * with invariant checks on.
   */
  policy: BatchPolicySpec;
  /** What backfilling believes about run times (default 'exact'). */
  estimates?: BatchEstimates;
  /** Queue order (default 'fcfs'); see {@link BatchQueueOrder}. */
  order?: BatchQueueOrder;
  /**
   * EASY as another simulator runs it (policy 'easy' only; default 'textbook'):
   * 'cqsim', 'accasim' (queue order 'fcfs' only) or 'published' (the DFRS paper's);
   * see {@link BatchVariant} and docs/batch-variants.md.
   */
  variant?: BatchVariant;
  /**
   * Diagnostic hook: called at each reservation a policy makes — the EASY
   * head's shadow time at each scheduling pass, or a conservative
   * reservation when made or moved.
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

/** One job's schedule from `simulateBatch`: submit, start, end, run time, processors and wait (and processor ids when asked). */
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

/** The named queue orders (a {@link BatchQueueOrder} may also be a function). */
export const BATCH_QUEUE_ORDERS: readonly string[] = ['fcfs', 'sjf', 'ljf', 'smallest', 'wfp3', 'unicef'];

// Event options, shared so the hot path allocates none. Same instant:
// completions (−1), wake-ups (0), then arrivals, then the scheduling pass.
const AT_COMPLETION = { priority: -1, kind: 'completion' };
const AT_WAKEUP = { priority: 0, kind: 'wakeup' };

/** Largest processor count the batch schedulers accept (2^31 − 1, the SWF reader's limit too). */
export const MAX_PROCS = 2 ** 31 - 1;

/**
 * Simulate a batch scheduler on `jobs` (job objects, or columns from
 * `readSwfColumns`/`toColumns`). Returns one result per job, in the input order.
 *
 * @example
 * const jobs = generateLublin({ jobs: 500, seed: 1, machineSize: 128 });
 * const easy = simulateBatch(jobs, { machineSize: 128, policy: 'easy', estimates: 'requested' });
 * console.log(easy[0].start, easy[0].wait);
 */
export function simulateBatch(jobs: readonly WorkloadJob[] | JobColumns, options: BatchOptions): BatchJobResult[] {
  const run = runBatch(jobs, options);
  const { n, start, input } = run;
  const out: BatchJobResult[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const s = start[i];
    const runtime = input.runtime[i];
    const submit = input.submit[i];
    out[i] = { id: input.id(i), submit, start: s, end: s + runtime, runtime, procs: input.procs[i], wait: s - submit };
    if (run.used) out[i].processors = run.used[i].sort((a, b) => a - b);
  }
  if (run.checked) {
    const objects = Array.isArray(jobs) ? (jobs as readonly WorkloadJob[]) : Array.from({ length: n }, (_, i) => input.job(i));
    if (run.used) verifyProcessorNames(out, options.machineSize);
    verifyBatchSchedule(objects, out, options.machineSize);
  }
  return out;
}

/**
 * `simulateBatch` without a result object per job: the start time of each
 * job, in input order (end = start + run time). For millions of jobs, with
 * `JobColumns` input: about 120 bytes a job in all.
 */
export function simulateBatchColumns(jobs: readonly WorkloadJob[] | JobColumns, options: Omit<BatchOptions, 'assignProcessors'>): Float64Array {
  const run = runBatch(jobs, { ...options, assignProcessors: false });
  if (run.checked) simulateBatchCheck(jobs, run.start, options.machineSize);
  return run.start;
}

/** With checks on, the whole schedule verified independently (objects made for it). */
function simulateBatchCheck(jobs: readonly WorkloadJob[] | JobColumns, start: Float64Array, machineSize: number): void {
  const objects = isJobColumns(jobs) ? Array.from({ length: jobs.length }, (_, i) => columnJob(jobs, i)) : jobs;
  const out = objects.map((j, i) => ({ id: j.id, submit: j.submit, start: start[i], end: start[i] + j.runtime, runtime: j.runtime, procs: j.procs, wait: start[i] - j.submit }));
  verifyBatchSchedule(objects, out, machineSize);
}

/** The typed arrays the engine runs on, and each job's id and object on demand. */
interface BatchInput extends JobList {
  submit: Float64Array;
  runtime: Float64Array;
  procs: Int32Array;
  est: Float64Array;
}

/** Validate the jobs and lay them out as typed arrays (columns are used as they are). */
function batchInput(jobs: readonly WorkloadJob[] | JobColumns, estimates: BatchEstimates, machineSize: number): BatchInput {
  const src = 'simulateBatch';
  const at = (i: number, field: string) => ({ source: src, field: `jobs[${i}].${field}` });
  const check = (i: number, id: number, submit: number, runtime: number, procs: number) => {
    if (!Number.isFinite(submit)) throw new InputError(`simulateBatch: job ${id} has submit time ${submit}`, at(i, 'submit'));
    if (!(runtime >= 0) || !Number.isFinite(runtime)) throw new InputError(`simulateBatch: job ${id} has run time ${runtime}`, at(i, 'runtime'));
    if (!Number.isInteger(procs) || procs < 1) throw new InputError(`simulateBatch: job ${id} has ${procs} processors (need a positive integer)`, at(i, 'procs'));
    if (procs > machineSize) throw new InputError(`simulateBatch: job ${id} needs ${procs} processors but the machine has ${machineSize}`, at(i, 'procs'));
  };
  if (isJobColumns(jobs)) {
    const c = jobs;
    const n = c.length;
    for (let i = 0; i < n; i++) check(i, c.id[i], c.submit[i], c.runtime[i], c.procs[i]);
    let est = c.runtime;
    if (estimates === 'requested') {
      est = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const req = c.requestedTime[i];
        est[i] = req > 0 ? Math.max(req, c.runtime[i]) : c.runtime[i];
      }
    }
    return { length: n, submit: c.submit, runtime: c.runtime, procs: c.procs, est, id: (i) => c.id[i], job: (i) => columnJob(c, i) };
  }
  const n = jobs.length;
  const submit = new Float64Array(n);
  const runtime = new Float64Array(n);
  const est = new Float64Array(n);
  const procs = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const j = jobs[i];
    check(i, j.id, j.submit, j.runtime, j.procs);
    submit[i] = j.submit;
    runtime[i] = j.runtime;
    procs[i] = j.procs;
    est[i] = batchEstimate(j, estimates);
  }
  return { length: n, submit, runtime, procs, est, id: (i) => jobs[i].id, job: (i) => jobs[i] };
}

/** The engine loop: arrivals, completions and one scheduling pass per instant. */
function runBatch(jobs: readonly WorkloadJob[] | JobColumns, options: BatchOptions) {
  const { machineSize } = options;
  const estimates = options.estimates ?? 'exact';
  const src = 'simulateBatch';
  // Processor counts are stored as 32-bit integers: larger ones would wrap around.
  if (!Number.isInteger(machineSize) || machineSize < 1 || machineSize > MAX_PROCS) throw new InputError(`simulateBatch: machineSize must be an integer in [1, ${MAX_PROCS}], got ${machineSize}`, { source: src, field: 'machineSize' });
  const policy = resolveBatchPolicy(options.policy, src);
  if (estimates !== 'exact' && estimates !== 'requested') throw new InputError(`simulateBatch: estimates must be 'exact' or 'requested', got '${estimates}'`, { source: src, field: 'estimates' });
  if (options.assignProcessors && machineSize > 2 ** 24) throw new InputError(`simulateBatch: assignProcessors needs a machine of at most 2^24 processors, got ${machineSize}`, { source: src, field: 'assignProcessors' });
  const queueOrder = options.order ?? 'fcfs';
  if (typeof queueOrder !== 'function' && !BATCH_QUEUE_ORDERS.includes(queueOrder)) throw new InputError(`simulateBatch: unknown order '${queueOrder}' (use ${BATCH_QUEUE_ORDERS.join(', ')} or a function)`, { source: src, field: 'order' });
  if (policy === BUILTIN_BATCH_POLICIES.conservative && queueOrder !== 'fcfs') throw new InputError(`simulateBatch: conservative backfilling reserves in submission order; order must be 'fcfs'`, { source: src, field: 'order' });
  const variant = options.variant ?? 'textbook';
  if (!BATCH_VARIANTS.includes(variant)) throw new InputError(`simulateBatch: unknown variant '${String(variant)}' (use ${BATCH_VARIANTS.join(', ')})`, { source: src, field: 'variant' });
  if (variant !== 'textbook' && policy !== BUILTIN_BATCH_POLICIES.easy) throw new InputError(`simulateBatch: variant '${variant}' is a variant of EASY; policy must be 'easy'`, { source: src, field: 'variant' });
  if (variant === 'accasim' && queueOrder !== 'fcfs') throw new InputError(`simulateBatch: variant 'accasim' keeps its blocked head in submission order; order must be 'fcfs'`, { source: src, field: 'order' });
  // CQSim runs the scheduler after every event; AccaSim at most once per instant (textbook: once per instant, again when zero-run-time jobs end).
  const eachEvent = variant === 'cqsim';
  const oncePerInstant = variant === 'accasim';
  const builtin = isBuiltinBatchPolicy(policy);
  const checks = invariantChecksEnabled() || !builtin;

  const input = batchInput(jobs, estimates, machineSize);
  const { submit, runtime, est, procs } = input;
  const n = input.length;
  // Arrival order: by submit time, ties by input order. Input already in that order (traces are)
  // needs no permutation: a fresh array of n entries costs more to touch than the loop saves.
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) if (submit[i] < submit[i - 1]) sorted = false;
  let order: Int32Array | undefined;
  if (!sorted) {
    order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => submit[a] - submit[b] || a - b);
  }

  const state = new BatchState(input, machineSize, submit, runtime, est, procs, order, queueOrder, policy, checks, options.assignProcessors === true, options.onReservation, variant);
  const sim = new Simulation({ startTime: n > 0 ? Math.min(0, submit[state.arrival(0)]) : 0 });
  // A user policy sees a read-only view and runs under a guard (guarded.ts); built-ins get the state.
  const decide = builtin ? policy : guardedBatchPolicy(policy, state);
  const completed = checks ? new Uint8Array(n) : undefined;
  let nextArrival = 0;
  let wakeup: EventId | undefined;
  let lastPass = NaN;
  // Textbook EASY in arrival order starts nothing at an instant with no completion since its
  // last pass when every job that arrived since needs more processors than are free: the jobs
  // that waited through that pass meet the same free processors, shadow time and extra
  // processors (running jobs and the head are unchanged) at a later clock. That pass is skipped
  // (a seventh of the instants on HPC2N); with an onReservation hook it runs, so the hook still
  // sees the head's shadow time at every instant it did.
  const skipIdle = policy === BUILTIN_BATCH_POLICIES.easy && variant === 'textbook' && queueOrder === 'fcfs' && !options.onReservation;
  let completedSincePass = false;
  let fewestArrived = Infinity;

  // One scheduling pass per instant, after all its completions, arrivals and wake-ups: the
  // handler that leaves nothing else at this instant runs it (as an event of the lowest
  // priority would, without one heap entry per instant: they were half the events).
  const nextSubmit = () => (nextArrival < n ? submit[state.arrival(nextArrival)] : Infinity);
  const requestPass = () => {
    if (eachEvent) pass();
    else if (sim.nextTime() !== sim.now && nextSubmit() !== sim.now && !(oncePerInstant && sim.now === lastPass)) {
      if (!(skipIdle && !completedSincePass && fewestArrived > state.free)) pass();
    }
  };
  const complete = (_: Simulation, i: number) => {
    state.now = sim.now;
    if (completed) {
      if (completed[i]) throw state.fail('batch/once', 'completed twice', i);
      completed[i] = 1;
    }
    state.complete(i);
    completedSincePass = true;
    decide.onJobCompleted?.(i, state);
    requestPass();
  };
  state.onStart = (i) => sim.at(sim.now + runtime[i], complete, AT_COMPLETION, i);
  const pass = () => {
    lastPass = sim.now;
    completedSincePass = false;
    fewestArrived = Infinity;
    state.now = sim.now;
    state.sortQueue();
    state.wakeTime = Infinity;
    const toStart = decide.schedule(state);
    if (toStart) for (const i of toStart) state.startJob(i);
    state.endPass();
    sim.cancel(wakeup);
    wakeup = state.wakeTime < Infinity ? sim.at(state.wakeTime, requestPass, AT_WAKEUP) : undefined;
  };

  // Arrivals are read from the sorted input rather than queued as events: the engine runs
  // every event up to the next submit time, completions there included (an arrival sees the
  // processors they freed), then that instant's jobs arrive.
  while (nextArrival < n) {
    const t = submit[state.arrival(nextArrival)];
    sim.run(t);
    state.now = t;
    do {
      const i = state.arrival(nextArrival++);
      state.arrive(i);
      if (procs[i] < fewestArrived) fewestArrived = procs[i];
      decide.onJobSubmitted?.(i, state);
      if (eachEvent) pass();
    } while (nextArrival < n && submit[state.arrival(nextArrival)] === t);
    if (!eachEvent) requestPass();
  }
  sim.run();
  // AccaSim: processors freed by zero-run-time jobs wait for the next event; after the last one
  // there is none, so the scheduler runs again at that instant until nothing more starts.
  while (oncePerInstant && state.queueLength > 0) {
    const waiting = state.queueLength;
    pass();
    if (state.queueLength === waiting && sim.nextTime() === undefined) break;
    sim.run();
  }
  const left = state.leftover();
  if (left.length > 0) throw state.fail('batch/started', `${left.length} jobs never started`, left[0]);

  if (completed) {
    const missing = completed.indexOf(0);
    if (missing >= 0) throw state.fail('batch/work', 'never completed', missing);
  }
  return { n, start: state.start, used: state.used, input, checked: completed !== undefined };
}
