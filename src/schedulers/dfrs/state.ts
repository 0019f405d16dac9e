/**
 * The DFRS family's state under simulation and the mechanics of carrying a
 * decision out: the job table, progress and virtual time between events,
 * node usage, applying a mapping (pauses, resumes, moves and their
 * penalties), completions and the next completion time, and the checks on
 * what a user policy returns. The engine loop (simulator.ts) drives it; the
 * policies (mappers.ts, allocation.ts, policy.ts) decide.
 */
import { InvariantError } from '../../util/invariants';
import { PolicyGuard } from '../../util/policy-guard';
import type { DfrsJob } from '../../workloads/dfrs';
import { checkAllocation, INVARIANT_EPSILON, TaskAllocation, verifyDfrsRun } from './invariants';
import { ActiveJob, byPriority, NodeUsage, usageOf } from './mapping';
import type { NextMapping } from './mappers';
import { checkPolicyMapping, DfrsDecisionView, DfrsJobView, DfrsPolicy, paperPriority } from './policy';
import type { DfrsJobEvent, DfrsJobOutcome, PenaltyModel } from './simulator';

/** A job under simulation: what the mappers see (ActiveJob) plus the engine's bookkeeping. */
export interface SimJob extends ActiveJob {
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

/** The run's settings the state needs (validated by simulator.ts). */
export interface DfrsStateOptions {
  nodes: number;
  penalty: number;
  penaltyModel: PenaltyModel;
  /** Virtual time below which no penalty is charged (simulator option penaltyMinAge). */
  penaltyMinAge: number;
  virtualTimeDuringPenalty: boolean;
  priorityTies: 'earlier-first' | 'later-first';
  cores: number | undefined;
  /** Check the invariants after every decision. */
  check: boolean;
  /** Error prefix: the algorithm's name, or `policy <name>`. */
  label: string;
  onJobEvent: ((event: DfrsJobEvent) => void) | undefined;
}

export class DfrsState {
  /** Every job, by submit time (ties: input order). */
  readonly all: SimJob[];
  /** Submitted and not finished, in submission order. */
  readonly active = new Set<SimJob>();
  /** The running subset of `active`. */
  readonly running = new Set<SimJob>();
  /** Memory and CPU load per node of the running jobs, computed when first asked for after they change. */
  get usage(): NodeUsage {
    return (this.usageNow ??= usageOf(this.running, this.nodes));
  }
  private usageNow: NodeUsage | undefined;
  /** Integral of CPU allocated outside penalties, and under them, node-seconds. */
  usefulCpu = 0;
  penaltyCpu = 0;
  /** What triggered the current decision (in job events and policy views). */
  cause: DfrsJobEvent['cause'] = 'submission';
  readonly nodes: number;
  readonly check: boolean;
  readonly label: string;
  /** Time progress was last integrated to. */
  private last: number;
  private byId: Map<number, SimJob> | undefined;
  /** A user policy's calls, timed and named (util/policy-guard.ts); `decisionTime` is their simulated time. */
  private guard: PolicyGuard | undefined;
  private decisionTime = 0;
  private readonly penalty: number;
  private readonly penaltyModel: PenaltyModel;
  private readonly penaltyMinAge: number;
  private readonly vtDuringPenalty: boolean;
  private readonly report: ((event: DfrsJobEvent) => void) | undefined;

  constructor(jobs: readonly DfrsJob[], o: DfrsStateOptions) {
    this.nodes = o.nodes;
    this.check = o.check;
    this.label = o.label;
    this.penalty = o.penalty;
    this.penaltyModel = o.penaltyModel;
    this.penaltyMinAge = o.penaltyMinAge;
    this.vtDuringPenalty = o.virtualTimeDuringPenalty;
    this.report = o.onJobEvent;
    const order = jobs
      .map((j, i) => ({ j, i }))
      .sort((a, b) => a.j.submit - b.j.submit || a.i - b.i)
      .map((x) => x.j);
    this.all = order.map((job, k) => ({
      job,
      // Priority ties go to the smaller `order` (mapping.ts byPriority).
      order: o.priorityTies === 'earlier-first' ? k : -k,
      tasks: job.tasks,
      need: job.cpuNeed,
      mem: job.mem,
      flowTime: 0,
      virtualTime: 0,
      nodes: null,
      done: false,
      submitted: false,
      yield: 0,
      maxYield: o.cores !== undefined && job.tasks === 1 ? Math.min(1, 1 / o.cores / job.cpuNeed) : 1,
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
    this.last = order.length > 0 ? order[0].submit : 0;
  }

  /** Integrate the running jobs' progress from the last event to `t` (rates only change at events). */
  advance(t: number): void {
    const dt = t - this.last;
    if (dt > 0) {
      for (const j of this.running) {
        const usefulFrom = Math.max(this.last, j.penaltyUntil);
        const useful = Math.max(0, t - usefulFrom);
        j.remaining -= j.yield * useful;
        j.virtualTime += j.yield * (this.vtDuringPenalty ? dt : useful);
        const width = j.yield * j.need * j.tasks;
        this.usefulCpu += width * useful;
        this.penaltyCpu += width * (dt - useful);
        j.penaltySeconds += dt - useful;
      }
    }
    this.last = t;
    for (const j of this.active) j.flowTime = t - j.job.submit;
  }

  submit(j: SimJob): void {
    j.submitted = true;
    j.flowTime = 0;
    this.active.add(j);
  }

  /**
   * Apply a new set of running jobs with their nodes. Jobs running now and
   * absent from `next` are paused; present ones keep, move or start.
   * Whether any job was paused, started, resumed or moved.
   */
  applyMapping(next: NextMapping, t: number): boolean {
    let changed = false;
    for (const j of this.running) {
      if (!next.has(j)) {
        changed = true;
        j.preemptions++;
        j.tasksPreempted += j.tasks;
        j.pausedAt = t;
        j.nodes = null;
        j.yield = 0;
        this.running.delete(j);
        this.emit(j, t, 'pause');
      }
    }
    for (const [aj, newNodes] of next) {
      const j = aj as SimJob;
      if (newNodes.length !== j.tasks) {
        throw new InvariantError('dfrs/tasks', `${this.label}: mapper returned ${newNodes.length} nodes for ${j.tasks} tasks`, { job: j.job.id, time: t });
      }
      if (this.running.has(j)) {
        const moved = tasksMoved(j.nodes as Int32Array, newNodes);
        if (moved > 0) {
          changed = true;
          j.migrations++;
          j.tasksMigrated += moved;
          this.startPenalty(j, t, false);
        }
        j.nodes = newNodes;
        if (moved > 0) this.emit(j, t, 'move', moved);
      } else {
        changed = true;
        if (this.check && !(j.submitted && t >= j.job.submit)) {
          throw new InvariantError('dfrs/release', `${this.label}: given resources at ${t}, before its submission at ${j.job.submit}`, { job: j.job.id, time: t });
        }
        if (j.everRan) this.startPenalty(j, t, true);
        else {
          j.everRan = true;
          j.start = t;
        }
        j.nodes = newNodes;
        this.running.add(j);
        this.emit(j, t, j.start === t && j.preemptions === 0 ? 'start' : 'resume');
      }
    }
    this.usageNow = undefined;
    return changed;
  }

  /** A moved job (`resumed` false) or a resumed one pays the penalty, as `penaltyModel` says. */
  private startPenalty(j: SimJob, t: number, resumed: boolean): void {
    if (!(this.penalty > 0) || j.virtualTime < this.penaltyMinAge) return;
    if (resumed && this.penaltyModel === 'migration-only') return;
    if (resumed && this.penaltyModel === 'pause') {
      // The penalty started at the pause; only what is left of it delays the job.
      if (j.pausedAt + this.penalty > t) j.penaltyUntil = j.pausedAt + this.penalty;
      return;
    }
    j.penaltyUntil = t + this.penalty;
  }

  /** Give each running job (`list` order) its yield, checked when checks are on. */
  setYields(list: readonly SimJob[], y: Float64Array, t: number): void {
    for (let k = 0; k < list.length; k++) list[k].yield = y[k];
    if (!this.check) return;
    const tasks: TaskAllocation[] = [];
    const expected = new Map<number, number>();
    for (const j of list) {
      expected.set(j.job.id, j.tasks);
      for (let k = 0; k < j.tasks; k++) {
        tasks.push({ job: j.job.id, node: (j.nodes as Int32Array)[k], cpu: j.yield * j.need, need: j.need, mem: j.mem });
      }
    }
    checkAllocation(tasks, this.nodes, `simulateDfrs (${this.label}) at t=${t}`, expected, t);
    for (const j of this.active) {
      if (!this.running.has(j) && (j.nodes !== null || j.yield !== 0)) {
        throw new InvariantError('dfrs/tasks', `${this.label}: waiting job holds resources`, { job: j.job.id, time: t });
      }
      if (!(j.yield >= 0 && j.yield <= j.maxYield + 1e-9)) {
        throw new InvariantError('dfrs/yield', `${this.label}: yield ${j.yield} outside [0, ${j.maxYield}]`, { job: j.job.id, time: t });
      }
    }
  }

  /** Finish the running jobs whose work is done at `t` (past any penalty); how many finished. */
  completeDue(t: number): number {
    let finished = 0;
    // Deleting the entry being visited is safe while iterating a Set.
    for (const j of this.running) {
      if (j.remaining <= 1e-6 + 1e-12 * j.job.runtime && t >= j.penaltyUntil) {
        // Work conserved: the job received its work, not noticeably more (a late completion event would give it more).
        if (this.check && j.remaining < -(1e-6 + 1e-9 * j.job.runtime)) {
          throw new InvariantError('dfrs/work', `${this.label}: received ${j.job.runtime - j.remaining} s of work at yield 1, its run time is ${j.job.runtime} s`, {
            job: j.job.id,
            time: t,
          });
        }
        j.remaining = 0;
        j.done = true;
        j.completion = t;
        j.yield = 0;
        j.nodes = null;
        this.running.delete(j);
        this.active.delete(j);
        finished++;
        this.emit(j, t, 'complete');
      }
    }
    if (finished > 0) this.usageNow = undefined;
    return finished;
  }

  /** When the next running job completes at the current rates (Infinity: none progresses). */
  nextCompletion(t: number): number {
    let best = Infinity;
    for (const j of this.running) {
      const from = Math.max(t, j.penaltyUntil);
      const eta = j.remaining <= 0 ? from : j.yield > 0 ? from + j.remaining / j.yield : Infinity;
      if (eta < best) best = eta;
    }
    return best;
  }

  /** Every job's priority for this decision (the mappers sort by it): the policy's, or the paper's. */
  refreshPriorities(t: number, policy: DfrsPolicy | undefined): void {
    for (const j of this.active) {
      const p = policy?.priority ? this.guarded(policy, t).call('priority', () => policy.priority!(this.viewOf(j), t)) : paperPriority(j);
      if (typeof p !== 'number' || Number.isNaN(p)) throw new InvariantError('dfrs/policy', `${this.label}: priority ${String(p)} is not a number`, { job: j.job.id, time: t });
      j.priority = p;
    }
  }

  /** The guard of the run's user policy, set for a decision at `t`. */
  private guarded(policy: DfrsPolicy, t: number): PolicyGuard {
    this.decisionTime = t;
    return (this.guard ??= new PolicyGuard(policy, () => this.decisionTime));
  }

  /** A user policy's mapping at `t`, checked (undefined: keep the current one). */
  policyMapping(policy: DfrsPolicy, t: number, submitted: SimJob | undefined): NextMapping | undefined {
    const out = this.guarded(policy, t).call('map', () => policy.map!(this.decisionView(t, submitted)));
    if (out === undefined) return undefined;
    const byId = (this.byId ??= new Map(this.all.map((j) => [j.job.id, j])));
    const known = (id: number) => {
      const j = byId.get(id);
      return j && { id, submit: j.job.submit, tasks: j.tasks, mem: j.mem, submitted: j.submitted, done: j.done };
    };
    const next: NextMapping = new Map();
    for (const [id, n] of checkPolicyMapping(policy.name, out, known, this.nodes, t)) next.set(byId.get(id) as SimJob, n);
    return next;
  }

  /** A user policy's yields for the running jobs, in `list` order, checked. */
  policyYields(policy: DfrsPolicy, list: readonly SimJob[], t: number): Float64Array {
    const out = this.guarded(policy, t).call('allocate', () => policy.allocate!(this.decisionView(t)));
    if (!(out instanceof Map)) throw new InvariantError('dfrs/policy', `${this.label}: allocate() must return a Map of job id to yield, got ${String(out)}`, { time: t });
    const y = Float64Array.from(list, (j) => {
      const v = out.get(j.job.id);
      if (typeof v !== 'number' || !(v >= 0 && v <= j.maxYield + 1e-9)) {
        throw new InvariantError('dfrs/yield', `${this.label}: yield ${String(v)} outside [0, ${j.maxYield}]`, { job: j.job.id, time: t });
      }
      return v;
    });
    // CPU per node, naming the job that takes it past 100%.
    const cpu = new Float64Array(this.nodes);
    list.forEach((j, k) => {
      for (const n of j.nodes as Int32Array) {
        cpu[n] += y[k] * j.need;
        if (cpu[n] > 1 + INVARIANT_EPSILON) {
          throw new InvariantError('dfrs/cpu', `${this.label}: node ${n} CPU allocated at ${(cpu[n] * 100).toFixed(6)}% (> 100%)`, { job: j.job.id, node: n, time: t });
        }
      }
    });
    return y;
  }

  /** What a user policy sees of the system at `t` (a copy). */
  private decisionView(t: number, submitted?: SimJob): DfrsDecisionView {
    const jobsNow = [...this.active].sort(byPriority).map((j) => this.viewOf(j));
    return {
      time: t,
      nodeCount: this.nodes,
      trigger: this.cause,
      ...(submitted ? { submitted: jobsNow.find((v) => v.id === submitted.job.id) } : {}),
      jobs: jobsNow,
      usage: { mem: Float64Array.from(this.usage.mem), load: Float64Array.from(this.usage.load) },
    };
  }

  private viewOf(j: SimJob): DfrsJobView {
    return {
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
    };
  }

  private emit(j: SimJob, t: number, kind: DfrsJobEvent['kind'], moved?: number): void {
    if (!this.report) return;
    const ev: DfrsJobEvent = { time: t, job: j.job.id, kind, nodes: j.nodes ? Array.from(j.nodes) : [], flowTime: j.flowTime, virtualTime: j.virtualTime, cause: this.cause };
    if (moved !== undefined) ev.moved = moved;
    this.report(ev);
  }

  /** Every job's outcome once the run is over (`end`: the last event's time), after the end-of-run checks. */
  outcomes(end: number): DfrsJobOutcome[] {
    for (const j of this.all) {
      if (!j.done) throw new InvariantError('dfrs/completed', `${this.label}: never completed (simulation ended at t=${end})`, { job: j.job.id, time: end });
    }
    if (this.check) {
      verifyDfrsRun(
        this.all.map((j) => ({ id: j.job.id, submit: j.job.submit, runtime: j.job.runtime, tasks: j.tasks, cpuNeed: j.need, start: j.start, completion: j.completion })),
        this.usefulCpu,
      );
    }
    return this.all.map((j) => ({
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
    }));
  }
}

/** tasksMoved's count per node, all zero between calls. */
let moveCount = new Int32Array(256);

/**
 * Number of tasks that must move to go from one placement of a job to
 * another: tasks are identical, so only the multiset of nodes matters.
 */
export function tasksMoved(before: ArrayLike<number>, after: ArrayLike<number>): number {
  // The same nodes in the same order (the mappers keep a job's array when nothing moves): none.
  if (before.length === after.length) {
    let k = 0;
    while (k < before.length && before[k] === after[k]) k++;
    if (k === before.length) return 0;
  }
  // Node indices are small: count in an array rather than a Map (one scratch array, left zeroed).
  let top = 0;
  for (let k = 0; k < before.length; k++) if (before[k] > top) top = before[k];
  if (moveCount.length <= top) moveCount = new Int32Array(Math.max(top + 1, 2 * moveCount.length));
  const count = moveCount;
  for (let k = 0; k < before.length; k++) count[before[k]]++;
  let kept = 0;
  for (let k = 0; k < after.length; k++) {
    const n = after[k];
    if (n <= top && count[n] > 0) {
      kept++;
      count[n]--;
    }
  }
  for (let k = 0; k < before.length; k++) count[before[k]] = 0;
  return after.length - kept;
}
