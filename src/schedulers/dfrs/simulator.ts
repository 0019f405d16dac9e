/**
 * Event-driven DFRS simulator (paper section 5.1) on the shared Simulation core.
 *
 * Model:
 *  - homogeneous nodes, each one fluid CPU resource of capacity 1 and a memory
 *    of capacity 1; a job has `tasks` identical tasks, each needing `cpuNeed` of
 *    a node's CPU and `mem` of its memory;
 *  - memory is never over-committed; CPU needs may be (mapping), but the CPU
 *    allocated on a node never exceeds 1; all tasks of a job get the same CPU
 *    fraction, yield × cpuNeed, and the job progresses at rate `yield`
 *    (a job completes after `runtime` seconds at yield 1);
 *  - virtual time = integral of the yield; flow time = time since submission;
 *    priority = flow time / virtual time² (ties by submission order);
 *  - rescheduling penalty (default 300 s): a job that resumes after a
 *    preemption, or that has any task migrated, makes no progress for that
 *    long (when the penalty is paid: option `penaltyModel`). The algorithms
 *    are not told (they never plan for it); virtual time counts actual
 *    execution only, so it does not grow during a penalty (option
 *    `virtualTimeDuringPenalty`). Resources stay allocated during the
 *    penalty (the VM is being restored), which is what makes penalties show up
 *    as underutilization;
 *  - rates only change at events (submission, completion, periodic tick), so
 *    progress is integrated exactly and completion times are exact.
 *
 * Allocation after every decision that changes the mapping (including a bare
 * completion): opt=min / opt=avg for yield-based algorithms; opt=max / opt=avg
 * on the estimated stretch for /stretch-per, with T = time to the next tick.
 */
import { Simulation } from '../../engine/events';
import { InputError } from '../../util/errors';
import { InvariantError, invariantChecksEnabled } from '../../util/invariants';
import type { McbVariant } from '../packing';
import type { DfrsJob } from '../../workloads/dfrs';
import { builtinYields } from './allocation';
import { checkAllocation, INVARIANT_EPSILON, TaskAllocation, verifyDfrsRun } from './invariants';
import { ActiveJob, byPriority, DropRule, LimitProtection, fitsInMemory, NodeUsage, usageOf } from './mapping';
import { builtinMapper, DfrsMapper, MapperState, NextMapping } from './mappers';
import { DfrsAlgorithm, parseAlgorithm } from './names';
import { checkPolicyMapping, DfrsDecisionView, DfrsJobView, DfrsPolicy, DfrsPolicySpec, paperPriority, resolveDfrsPolicy } from './policy';

export interface DfrsSimulationOptions {
  /** Number of nodes. */
  nodes: number;
  /** Algorithm name (Table 1 syntax, e.g. "GreedyPM * /per/opt=min/minvt=600") or a parsed algorithm. */
  algorithm: string | DfrsAlgorithm;
  /** Scheduling period for /per and /stretch-per, seconds (default 600; `period=` in the name wins). */
  period?: number;
  /** Rescheduling penalty, seconds (default 300). */
  penalty?: number;
  /**
   * Cores per node. When set, a one-task job is taken as sequential and its
   * task can use at most 1/cores of a node: its yield is capped at
   * (1/cores) / cpuNeed when that is below 1. Default: no cap.
   */
  cores?: number;
  /** MCB variant for the packing (default 8). */
  mcbVariant?: McbVariant;
  /** Accuracy of MCB8's binary searches (default 0.01). */
  tolerance?: number;
  /**
   * Check the invariants (memory and CPU ≤ 100% per node, no task above its
   * need, equal shares within a job, no job before its submission, each job
   * receiving exactly its work, stretch ≥ 1) after every decision and at the
   * end; a violation throws an InvariantError. Default: the toolkit-wide
   * switch (`invariantChecksEnabled()`, SCHEDLAB_CHECK_INVARIANTS=1), read
   * once when the run starts.
   */
  checkInvariants?: boolean;
  /** Record the wall-clock time of every MCB8 / MCB8-stretch call (default true). */
  timeMcb?: boolean;
  /** Guard against runaway runs (default 10 million events). */
  maxEvents?: number;
  /**
   * Whether virtual time accumulates while a job sits in a rescheduling
   * penalty (default false). The paper is ambiguous here: virtual time is
   * "the total subjective execution time experienced by a job" (a job whose
   * VM is being restored experiences none), "formally, the integral of the
   * job's yield" (the yield being allocated CPU over need, and the job holds
   * its allocation during the penalty), and "none of the scheduling
   * algorithms are aware of this penalty". The definitions come before the
   * penalty is introduced (Section 5.1), so they do not settle it. We keep
   * actual execution: measured on 1,000-job synthetic traces
   * (bench/dfrs-fidelity.ts), counting penalty time moves Table 2 further
   * from the published values (MCB8 * /per/minvt=600 about 1.5-6x worse,
   * GreedyPM * /per/minvt=600 up to 2x worse at load 0.5): a just-resumed job
   * looks 300 s older, loses priority and is paused again before its penalty
   * ends. true gives the other reading.
   */
  virtualTimeDuringPenalty?: boolean;
  /**
   * When the 5-minute rescheduling penalty is paid (default 'resume'). The
   * paper charges it for every preemption and every migration ("all
   * migrations are carried out through a pause/resume mechanism") but does
   * not say when the wall-clock time passes:
   *  - 'resume': a resumed or moved job makes no progress for `penalty`
   *    seconds while holding its resources (the VM image is read back);
   *  - 'pause': the penalty runs from the pause (the image is being written
   *    out); a job resumed later than `penalty` after its pause restarts at
   *    once, one resumed sooner waits for the rest; a move pays it in full;
   *  - 'migration-only': only moves pay; resuming a paused job is free. This
   *    contradicts the paper's text (preemption has an overhead) and is there
   *    only to measure how much the resume penalty weighs.
   */
  penaltyModel?: PenaltyModel;
  /**
   * Order of jobs with equal priority (default 'earlier-first': "we break ties
   * between equal-priority jobs by considering their order of submission").
   * Only jobs that never ran (infinite priority) tie in practice.
   */
  priorityTies?: 'earlier-first' | 'later-first';
  /** MCB8 / MCB8-stretch: what minvt/minft protects young jobs from (default 'migration', see GlobalMappingOptions). */
  limitProtects?: LimitProtection;
  /** MCB8 / MCB8-stretch: which jobs wait when not all fit (default 'lowest-priority', see GlobalMappingOptions). */
  dropRule?: DropRule;
  /** Called for every start, pause, resume, move and completion of a job (for Gantt charts, debugging). */
  onJobEvent?: (event: DfrsJobEvent) => void;
  /**
   * A user policy (priority, mapper and/or CPU allocation; see policy.ts and
   * docs/policies.md) or `{ module, export }` naming one. Parts it leaves out
   * come from `algorithm`. Its output is always checked, whatever
   * `checkInvariants` says, and errors start with `policy <name>:`.
   */
  policy?: DfrsPolicySpec;
}

/** When the rescheduling penalty is paid (see DfrsSimulationOptions.penaltyModel). */
export type PenaltyModel = 'resume' | 'pause' | 'migration-only';

/** A change in a job's state, as reported to `onJobEvent`. */
export interface DfrsJobEvent {
  time: number;
  job: number;
  kind: 'start' | 'pause' | 'resume' | 'move' | 'complete';
  /** Node of each task after the event (empty when not running). */
  nodes: number[];
  /** Tasks moved (for 'move'). */
  moved?: number;
  /** Flow time and virtual time at the event. */
  flowTime: number;
  virtualTime: number;
  /** Which decision caused it. */
  cause: 'submission' | 'completion' | 'periodic';
}

/** What happened to one job. */
export interface DfrsJobOutcome {
  id: number;
  submit: number;
  /** First time the job got resources (NaN if it never ran, which cannot happen in a finished run). */
  start: number;
  completion: number;
  runtime: number;
  tasks: number;
  cpuNeed: number;
  mem: number;
  /** Times the job was paused while running. */
  preemptions: number;
  /** Times one or more of its tasks moved while it kept running. */
  migrations: number;
  /** Tasks paused, summed over preemptions. */
  tasksPreempted: number;
  /** Tasks moved, summed over migrations. */
  tasksMigrated: number;
  /** Seconds spent under rescheduling penalties. */
  penaltySeconds: number;
}

/** One call of MCB8 or MCB8-stretch. */
export interface McbCall {
  time: number;
  /** Jobs in the system offered to the packer. */
  jobs: number;
  /** Jobs dropped because nothing fitted. */
  dropped: number;
  /** Wall-clock duration, milliseconds (NaN when timing is off). */
  ms: number;
  trigger: 'submission' | 'completion' | 'periodic';
}

export interface DfrsSimulationResult {
  algorithm: string;
  nodes: number;
  period: number;
  penalty: number;
  jobs: DfrsJobOutcome[];
  mcbCalls: McbCall[];
  /** Integral of useful CPU (allocation outside penalties), node-seconds; equals the total work. */
  usefulCpuSeconds: number;
  /** Integral of CPU allocated to jobs under penalty, node-seconds. */
  penaltyCpuSeconds: number;
  /** Events processed by the event queue. */
  events: number;
  /** Number of decisions (scheduling actions that ran a mapper). */
  decisions: number;
}

interface SimJob extends ActiveJob {
  job: DfrsJob;
  done: boolean;
  submitted: boolean;
  yield: number;
  maxYield: number;
  remaining: number;
  penaltyUntil: number;
  /** Time of the last pause (penaltyModel 'pause'). */
  pausedAt: number;
  everRan: boolean;
  start: number;
  completion: number;
  preemptions: number;
  migrations: number;
  tasksPreempted: number;
  tasksMigrated: number;
  penaltySeconds: number;
}

const PRIORITY_COMPLETION = 0;
const PRIORITY_SUBMISSION = 1;
const PRIORITY_PERIODIC = 2;

const SRC = 'simulateDfrs';

function validateJobs(jobs: readonly DfrsJob[], nodes: number): void {
  if (!Array.isArray(jobs)) throw new InputError(`${SRC}: jobs must be an array, got ${typeof jobs}`, { source: SRC, field: 'jobs' });
  const ids = new Set<number>();
  jobs.forEach((j, i) => {
    const where = `job at index ${i} (id ${j.id})`;
    const at = (field: string) => ({ source: SRC, field: `jobs[${i}].${field}` });
    if (ids.has(j.id)) throw new InputError(`${SRC}: ${where}: duplicate id`, at('id'));
    ids.add(j.id);
    if (!Number.isFinite(j.submit)) throw new InputError(`${SRC}: ${where}: submit must be finite, got ${j.submit}`, at('submit'));
    if (!(Number.isFinite(j.runtime) && j.runtime >= 0)) throw new InputError(`${SRC}: ${where}: runtime must be >= 0, got ${j.runtime}`, at('runtime'));
    if (!(Number.isInteger(j.tasks) && j.tasks >= 1)) throw new InputError(`${SRC}: ${where}: tasks must be a positive integer, got ${j.tasks}`, at('tasks'));
    if (!(j.cpuNeed > 0 && j.cpuNeed <= 1)) throw new InputError(`${SRC}: ${where}: cpuNeed must be in (0, 1], got ${j.cpuNeed}`, at('cpuNeed'));
    if (!(j.mem > 0 && j.mem <= 1)) throw new InputError(`${SRC}: ${where}: mem must be in (0, 1], got ${j.mem}`, at('mem'));
    if (!fitsInMemory(j.tasks, j.mem, new Float64Array(nodes))) {
      throw new InputError(`${SRC}: ${where}: ${j.tasks} tasks of memory ${j.mem} cannot fit on ${nodes} empty nodes`, at('tasks'));
    }
  });
}

/**
 * Simulate a DFRS algorithm on a job list (any order; jobs are processed by
 * submit time, ties by list order).
 */
export function simulateDfrs(jobs: readonly DfrsJob[], options: DfrsSimulationOptions): DfrsSimulationResult {
  const nodes = options.nodes;
  if (!(Number.isInteger(nodes) && nodes >= 1)) throw new InputError(`${SRC}: nodes must be a positive integer, got ${nodes}`, { source: SRC, field: 'nodes' });
  const alg = typeof options.algorithm === 'string' ? parseAlgorithm(options.algorithm) : options.algorithm;
  const period = alg.period ?? options.period ?? 600;
  const penalty = options.penalty ?? 300;
  if (!(period > 0 && Number.isFinite(period))) throw new InputError(`${SRC}: period must be a finite number > 0, got ${period}`, { source: SRC, field: 'period' });
  if (!(penalty >= 0 && Number.isFinite(penalty))) throw new InputError(`${SRC}: penalty must be a finite number >= 0, got ${penalty}`, { source: SRC, field: 'penalty' });
  if (options.cores !== undefined && !(Number.isInteger(options.cores) && options.cores >= 1)) {
    throw new InputError(`${SRC}: cores must be a positive integer, got ${options.cores}`, { source: SRC, field: 'cores' });
  }
  validateJobs(jobs, nodes);
  const timeMcb = options.timeMcb ?? true;
  const vtDuringPenalty = options.virtualTimeDuringPenalty ?? false;
  // Read once per run: every check below sits behind this one boolean.
  const policy: DfrsPolicy | undefined = options.policy === undefined ? undefined : resolveDfrsPolicy(options.policy, SRC);
  // A user policy is always checked.
  const check = policy !== undefined || (options.checkInvariants ?? invariantChecksEnabled());
  const name = policy ? policy.name : alg.name;
  // Error prefix: the algorithm's name, or `policy <name>` for a user policy.
  const label = policy ? `policy ${policy.name}` : alg.name;
  const penaltyModel = options.penaltyModel ?? 'resume';
  if (penaltyModel !== 'resume' && penaltyModel !== 'pause' && penaltyModel !== 'migration-only') {
    throw new InputError(`${SRC}: penaltyModel must be 'resume', 'pause' or 'migration-only', got ${String(penaltyModel)}`, { source: SRC, field: 'penaltyModel' });
  }
  const ties = options.priorityTies ?? 'earlier-first';
  if (ties !== 'earlier-first' && ties !== 'later-first') {
    throw new InputError(`${SRC}: priorityTies must be 'earlier-first' or 'later-first', got ${String(ties)}`, { source: SRC, field: 'priorityTies' });
  }
  const mapOpts = {
    nodeCount: nodes,
    limit: alg.limit,
    variant: options.mcbVariant,
    tolerance: options.tolerance,
    limitProtects: options.limitProtects,
    dropRule: options.dropRule,
  };

  const order = jobs
    .map((j, i) => ({ j, i }))
    .sort((a, b) => a.j.submit - b.j.submit || a.i - b.i)
    .map((x) => x.j);
  const all: SimJob[] = order.map((job, k) => ({
    job,
    // Priority ties go to the smaller `order` (mapping.ts byPriority).
    order: ties === 'earlier-first' ? k : -k,
    tasks: job.tasks,
    need: job.cpuNeed,
    mem: job.mem,
    flowTime: 0,
    virtualTime: 0,
    nodes: null,
    done: false,
    submitted: false,
    yield: 0,
    maxYield: options.cores !== undefined && job.tasks === 1 ? Math.min(1, 1 / options.cores / job.cpuNeed) : 1,
    remaining: job.runtime,
    penaltyUntil: -Infinity,
    pausedAt: -Infinity,
    everRan: false,
    start: NaN,
    completion: NaN,
    preemptions: 0,
    migrations: 0,
    tasksPreempted: 0,
    tasksMigrated: 0,
    penaltySeconds: 0,
  }));

  const sim = new Simulation({ maxEvents: options.maxEvents ?? 10_000_000 });
  const active = new Set<SimJob>(); // submitted, not done
  const running = new Set<SimJob>();
  let usage: NodeUsage = usageOf([], nodes);
  let last = order.length > 0 ? order[0].submit : 0;
  let usefulCpu = 0;
  let penaltyCpu = 0;
  let decisions = 0;
  let remainingToSubmit = all.length;
  let nextTick = Infinity;
  const mcbCalls: McbCall[] = [];
  let completionEvent: ReturnType<Simulation['at']> | undefined;
  const report = options.onJobEvent;
  let cause: DfrsJobEvent['cause'] = 'submission';
  const emit = (j: SimJob, t: number, kind: DfrsJobEvent['kind'], moved?: number) => {
    if (!report) return;
    const ev: DfrsJobEvent = { time: t, job: j.job.id, kind, nodes: j.nodes ? Array.from(j.nodes) : [], flowTime: j.flowTime, virtualTime: j.virtualTime, cause };
    if (moved !== undefined) ev.moved = moved;
    report(ev);
  };

  /** Integrate progress of running jobs from `last` to `t`. */
  const advance = (t: number) => {
    const dt = t - last;
    if (dt > 0) {
      for (const j of running) {
        const usefulFrom = Math.max(last, j.penaltyUntil);
        const useful = Math.max(0, t - usefulFrom);
        j.remaining -= j.yield * useful;
        j.virtualTime += j.yield * (vtDuringPenalty ? dt : useful);
        const width = j.yield * j.need * j.tasks;
        usefulCpu += width * useful;
        penaltyCpu += width * (dt - useful);
        j.penaltySeconds += dt - useful;
      }
    }
    last = t;
    for (const j of active) j.flowTime = t - j.job.submit;
  };

  /** A moved job (`resumed` false) or a resumed one pays the penalty, as `penaltyModel` says. */
  const startPenalty = (j: SimJob, t: number, resumed: boolean) => {
    if (!(penalty > 0)) return;
    if (resumed && penaltyModel === 'migration-only') return;
    if (resumed && penaltyModel === 'pause') {
      // The penalty started at the pause; only what is left of it delays the job.
      if (j.pausedAt + penalty > t) j.penaltyUntil = j.pausedAt + penalty;
      return;
    }
    j.penaltyUntil = t + penalty;
  };

  /**
   * Apply a new set of running jobs with their nodes. Jobs running now and
   * absent from `next` are paused; present ones keep, move or start.
   */
  const applyMapping = (next: Map<ActiveJob, Int32Array>, t: number) => {
    for (const j of running) {
      if (!next.has(j)) {
        j.preemptions++;
        j.tasksPreempted += j.tasks;
        j.pausedAt = t;
        j.nodes = null;
        j.yield = 0;
        running.delete(j);
        emit(j, t, 'pause');
      }
    }
    for (const [aj, newNodes] of next) {
      const j = aj as SimJob;
      if (newNodes.length !== j.tasks) {
        throw new InvariantError('dfrs/tasks', `${label}: mapper returned ${newNodes.length} nodes for ${j.tasks} tasks`, { job: j.job.id, time: t });
      }
      if (running.has(j)) {
        const moved = tasksMoved(j.nodes as Int32Array, newNodes);
        if (moved > 0) {
          j.migrations++;
          j.tasksMigrated += moved;
          startPenalty(j, t, false);
        }
        j.nodes = newNodes;
        if (moved > 0) emit(j, t, 'move', moved);
      } else {
        if (check && !(j.submitted && t >= j.job.submit)) {
          throw new InvariantError('dfrs/release', `${label}: given resources at ${t}, before its submission at ${j.job.submit}`, { job: j.job.id, time: t });
        }
        if (j.everRan) startPenalty(j, t, true);
        else {
          j.everRan = true;
          j.start = t;
        }
        j.nodes = newNodes;
        running.add(j);
        emit(j, t, j.start === t && j.preemptions === 0 ? 'start' : 'resume');
      }
    }
    usage = usageOf(running, nodes);
  };

  const allocate = (t: number) => {
    const list = [...running];
    const horizon = Number.isFinite(nextTick) && nextTick > t ? nextTick - t : period;
    const y = policy?.allocate ? userYields(list, t) : builtinYields(alg, list, nodes, horizon);
    list.forEach((j, k) => (j.yield = y[k]));
    if (check) {
      const tasks: TaskAllocation[] = [];
      const expected = new Map<number, number>();
      for (const j of list) {
        expected.set(j.job.id, j.tasks);
        for (let k = 0; k < j.tasks; k++) {
          tasks.push({ job: j.job.id, node: (j.nodes as Int32Array)[k], cpu: j.yield * j.need, need: j.need, mem: j.mem });
        }
      }
      checkAllocation(tasks, nodes, `simulateDfrs (${label}) at t=${t}`, expected, t);
      for (const j of active) {
        if (!running.has(j) && (j.nodes !== null || j.yield !== 0)) {
          throw new InvariantError('dfrs/tasks', `${label}: waiting job holds resources`, { job: j.job.id, time: t });
        }
        if (!(j.yield >= 0 && j.yield <= j.maxYield + 1e-9)) {
          throw new InvariantError('dfrs/yield', `${label}: yield ${j.yield} outside [0, ${j.maxYield}]`, { job: j.job.id, time: t });
        }
      }
    }
  };

  const scheduleCompletion = (t: number) => {
    sim.cancel(completionEvent);
    completionEvent = undefined;
    let best = Infinity;
    for (const j of running) {
      const from = Math.max(t, j.penaltyUntil);
      const eta = j.remaining <= 0 ? from : j.yield > 0 ? from + j.remaining / j.yield : Infinity;
      if (eta < best) best = eta;
    }
    if (Number.isFinite(best)) completionEvent = sim.at(best, onCompletion, { priority: PRIORITY_COMPLETION, kind: 'completion' });
  };

  /** Every job's priority for this decision (the mappers sort by it). */
  const refreshPriorities = (t: number) => {
    for (const j of active) {
      const p = policy?.priority ? policy.priority(viewOf(j), t) : paperPriority(j);
      if (typeof p !== 'number' || Number.isNaN(p)) throw new InvariantError('dfrs/policy', `${label}: priority ${String(p)} is not a number`, { job: j.job.id, time: t });
      j.priority = p;
    }
  };

  const viewOf = (j: SimJob): DfrsJobView => ({
    id: j.job.id,
    submit: j.job.submit,
    tasks: j.tasks,
    cpuNeed: j.need,
    mem: j.mem,
    flowTime: j.flowTime,
    virtualTime: j.virtualTime,
    priority: j.priority ?? NaN,
    nodes: j.nodes ? Array.from(j.nodes) : null,
    yield: j.yield,
  });

  const decisionView = (t: number, submitted?: SimJob): DfrsDecisionView => {
    const jobsNow = [...active].sort(byPriority).map(viewOf);
    return {
      time: t,
      nodeCount: nodes,
      trigger: cause,
      ...(submitted ? { submitted: jobsNow.find((v) => v.id === submitted.job.id) } : {}),
      jobs: jobsNow,
      usage: { mem: Float64Array.from(usage.mem), load: Float64Array.from(usage.load) },
    };
  };

  const byId = new Map(all.map((j) => [j.job.id, j]));
  /** The user mapper's mapping, checked. */
  const userMap = (st: MapperState): NextMapping | undefined => {
    const t = st.time;
    const out = (policy as DfrsPolicy).map!(decisionView(t, st.submitted as SimJob | undefined));
    if (out === undefined) return undefined;
    const known = (id: number) => {
      const j = byId.get(id);
      return j && { id, submit: j.job.submit, tasks: j.tasks, mem: j.mem, submitted: j.submitted, done: j.done };
    };
    const next: NextMapping = new Map();
    for (const [id, n] of checkPolicyMapping(name, out, known, nodes, t)) next.set(byId.get(id) as SimJob, n);
    return next;
  };
  const mapper: DfrsMapper = policy?.map
    ? { onSubmission: userMap, onCompletion: userMap, ...(policy.periodic ? { onPeriod: userMap } : {}) }
    : builtinMapper(alg, { mcb: mapOpts, period, timeMcb, onMcbCall: (c) => mcbCalls.push(c) });

  /** One decision: ask the mapper (`method` undefined: no action) and apply what it returns. Whether the mapping changed. */
  const decide = (method: DfrsMapper['onSubmission'], t: number, submitted?: SimJob): boolean => {
    if (!method) return false;
    decisions++;
    const next = method({ time: t, active, running, usage, submitted });
    if (!next) return false;
    applyMapping(next, t);
    return true;
  };

  /** The user allocation's yields for the running jobs, in `list` order, checked. */
  const userYields = (list: SimJob[], t: number): Float64Array => {
    const out = (policy as DfrsPolicy).allocate!(decisionView(t));
    if (!(out instanceof Map)) throw new InvariantError('dfrs/policy', `${label}: allocate() must return a Map of job id to yield, got ${String(out)}`, { time: t });
    const y = Float64Array.from(list, (j) => {
      const v = out.get(j.job.id);
      if (typeof v !== 'number' || !(v >= 0 && v <= j.maxYield + 1e-9)) {
        throw new InvariantError('dfrs/yield', `${label}: yield ${String(v)} outside [0, ${j.maxYield}]`, { job: j.job.id, time: t });
      }
      return v;
    });
    // CPU per node, naming the job that takes it past 100%.
    const cpu = new Float64Array(nodes);
    list.forEach((j, k) => {
      for (const n of j.nodes as Int32Array) {
        cpu[n] += y[k] * j.need;
        if (cpu[n] > 1 + INVARIANT_EPSILON) {
          throw new InvariantError('dfrs/cpu', `${label}: node ${n} CPU allocated at ${(cpu[n] * 100).toFixed(6)}% (> 100%)`, { job: j.job.id, node: n, time: t });
        }
      }
    });
    return y;
  };

  const afterDecision = (t: number, changed: boolean) => {
    if (changed) allocate(t);
    scheduleCompletion(t);
  };

  function onSubmit(j: SimJob) {
    return (s: Simulation) => {
      const t = s.now;
      cause = 'submission';
      advance(t);
      j.submitted = true;
      j.flowTime = 0;
      active.add(j);
      remainingToSubmit--;
      refreshPriorities(t);
      const changed = decide(mapper.onSubmission, t, j);
      afterDecision(t, changed);
      ensureTick(t);
    };
  }

  function onCompletion(s: Simulation) {
    const t = s.now;
    cause = 'completion';
    completionEvent = undefined;
    advance(t);
    let finished = 0;
    for (const j of [...running]) {
      if (j.remaining <= 1e-6 + 1e-12 * j.job.runtime && t >= j.penaltyUntil) {
        // Work conserved: the job received its work, not noticeably more (a late completion event would give it more).
        if (check && j.remaining < -(1e-6 + 1e-9 * j.job.runtime)) {
          throw new InvariantError('dfrs/work', `${label}: received ${j.job.runtime - j.remaining} s of work at yield 1, its run time is ${j.job.runtime} s`, {
            job: j.job.id,
            time: t,
          });
        }
        j.remaining = 0;
        j.done = true;
        j.completion = t;
        j.yield = 0;
        j.nodes = null;
        running.delete(j);
        active.delete(j);
        finished++;
        emit(j, t, 'complete');
      }
    }
    if (finished > 0) {
      usage = usageOf(running, nodes);
      refreshPriorities(t);
      decide(mapper.onCompletion, t);
    }
    afterDecision(t, finished > 0);
  }

  function onTick(s: Simulation) {
    const t = s.now;
    cause = 'periodic';
    advance(t);
    nextTick = t + period;
    refreshPriorities(t);
    afterDecision(t, decide(mapper.onPeriod, t));
    if (active.size > 0 || remainingToSubmit > 0) sim.at(nextTick, onTick, { priority: PRIORITY_PERIODIC, kind: 'periodic' });
    else nextTick = Infinity;
  }

  /** Periodic algorithms tick every `period` from the first submission while work remains. */
  let tickScheduled = false;
  const ensureTick = (t: number) => {
    if (!mapper.onPeriod || tickScheduled) return;
    tickScheduled = true;
    nextTick = t + period;
    sim.at(nextTick, onTick, { priority: PRIORITY_PERIODIC, kind: 'periodic' });
  };

  for (const j of all) sim.at(j.job.submit, onSubmit(j), { priority: PRIORITY_SUBMISSION, kind: 'submission' });
  sim.run();

  for (const j of all) {
    if (!j.done) throw new InvariantError('dfrs/completed', `${label}: never completed (simulation ended at t=${sim.now})`, { job: j.job.id, time: sim.now });
  }
  if (check) {
    verifyDfrsRun(
      all.map((j) => ({ id: j.job.id, submit: j.job.submit, runtime: j.job.runtime, tasks: j.tasks, cpuNeed: j.need, start: j.start, completion: j.completion })),
      usefulCpu,
    );
  }
  return {
    algorithm: name,
    nodes,
    period,
    penalty,
    jobs: all.map((j) => ({
      id: j.job.id,
      submit: j.job.submit,
      start: j.start,
      completion: j.completion,
      runtime: j.job.runtime,
      tasks: j.tasks,
      cpuNeed: j.need,
      mem: j.mem,
      preemptions: j.preemptions,
      migrations: j.migrations,
      tasksPreempted: j.tasksPreempted,
      tasksMigrated: j.tasksMigrated,
      penaltySeconds: j.penaltySeconds,
    })),
    mcbCalls,
    usefulCpuSeconds: usefulCpu,
    penaltyCpuSeconds: penaltyCpu,
    events: sim.processed,
    decisions,
  };
}

/**
 * Number of tasks that must move to go from one placement of a job to
 * another: tasks are identical, so only the multiset of nodes matters.
 */
export function tasksMoved(before: ArrayLike<number>, after: ArrayLike<number>): number {
  // Node indices are small: count in an array rather than a Map.
  let top = 0;
  for (let k = 0; k < before.length; k++) if (before[k] > top) top = before[k];
  const count = new Int32Array(top + 1);
  for (let k = 0; k < before.length; k++) count[before[k]]++;
  let kept = 0;
  for (let k = 0; k < after.length; k++) {
    const n = after[k];
    if (n <= top && count[n] > 0) {
      kept++;
      count[n]--;
    }
  }
  return after.length - kept;
}
