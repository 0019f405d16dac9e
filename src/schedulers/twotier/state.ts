/**
 * The state of a two-tier machine under simulation: which job sits in which
 * VM of each processor, the jobs waiting (in arrival order) and queued (in
 * SJF order), the promises made by 'reserve' decisions, the counters, and
 * the checks of each. The units that change it:
 *
 *   state.ts       this state, its queries and its checks
 *   placement.ts   the mechanics of each decision: Dispatch to fg or bg VMs, swap, kill, migrate
 *   rates.ts       each running job's progress and rate, its completion event moved when the rate changes
 *   decisions.ts   what a policy sees (the context) and how its decisions are carried out
 *   machine.ts     the event wiring: arrivals, completions, one scheduling pass per instant, time slices
 *
 * Policies (policies.ts) decide; the event core (engine/events.ts) orders
 * the events.
 */
import { EventId, Simulation } from '../../engine/events';
import { InvariantError } from '../../util/invariants';
import type { TwoTierModelOptions } from './progress';
import type { ReasyReservation, TwoTierJobView, TwoTierTier } from './policies';
import type { TwoTierJob, TwoTierLogEntry } from './simulator';

export const PENDING: TwoTierTier = 'pending';
export const QUEUED: TwoTierTier = 'queued';
export const FG: TwoTierTier = 'fg';
export const BG: TwoTierTier = 'bg';
export const DONE: TwoTierTier = 'done';
export const EPS = 1e-9;

/** A job under simulation (the policy's TwoTierJobView plus the engine's bookkeeping). */
export interface SimJob extends TwoTierJobView {
  index: number;
  job: TwoTierJob;
  size: number;
  work: number;
  estimate: number;
  use: Float64Array;
  /** Process indices sorted by usage, highest first (Dispatch order). */
  order: Int32Array;
  loss: number;
  eff: number;
  tier: TwoTierTier;
  processors: Int32Array;
  progress: number;
  rate: number;
  last: number;
  pausedUntil: number;
  resumeAt: number;
  estimatedEnd: number;
  ev: EventId | undefined;
  dirty: boolean;
  start: number;
  fgStart: number;
  finish: number;
  kills: number;
  migrations: number;
  swaps: number;
  killedWork: number;
  everBg: boolean;
}

/** What the machine needs besides the jobs. */
export interface TwoTierMachineConfig extends Pick<TwoTierModelOptions, 'backgroundModel' | 'backgroundRate'> {
  machineSize: number;
  migrationCost: number;
  placementThreshold: number;
  knowUsage: boolean;
  timeSlice: number;
  remainingEstimates: boolean;
  /** REASY's reading of a bg head's reservation (policies.ts). */
  reasyReservation: ReasyReservation;
  checks: boolean;
  log?: TwoTierLogEntry[];
}

/** Counters of a finished run. */
export interface TwoTierCounters {
  migrations: number;
  kills: number;
  swaps: number;
  done: number;
}

/** The processors a job holds, as a plain array (for the log). */
export const procsOf = (j: SimJob): number[] => Array.from(j.processors);

const sjfBefore = (a: SimJob, b: SimJob) => a.estimate < b.estimate || (a.estimate === b.estimate && a.index < b.index);

/** Occupancy of every VM, the two queues, the promises and the counters of one run. */
export class TwoTierState {
  readonly P: number;
  readonly fgJob: (SimJob | null)[];
  readonly bgJob: (SimJob | null)[];
  readonly fgUse: Float64Array;
  readonly bgUse: Float64Array;
  idleFg: number;
  readonly fgSet = new Set<SimJob>();
  readonly running = new Set<SimJob>();
  /** Not-fg jobs (queued or bg) in arrival order; FG/DONE entries are dropped lazily. */
  readonly waiting: SimJob[] = [];
  /** Queued (not running anywhere) jobs sorted by (estimate, arrival): SJF order. */
  readonly queued: SimJob[] = [];
  /** Jobs whose rate must be recomputed (rates.ts). */
  readonly dirty: SimJob[] = [];
  /** Reservation promised to each head job (first shadow time) and the overrun count when it was made. */
  readonly promised = new Map<SimJob, { shadow: number; overruns: number }>();
  /** Foreground jobs that outlived their estimated end (estimates are then no longer upper bounds). */
  overruns = 0;
  readonly counters: TwoTierCounters = { migrations: 0, kills: 0, swaps: 0, done: 0 };

  constructor(
    readonly sim: Simulation,
    /** The jobs in arrival order. */
    readonly all: SimJob[],
    /** The policy's name, in every error. */
    readonly name: string,
    readonly cfg: TwoTierMachineConfig,
  ) {
    this.P = cfg.machineSize;
    this.fgJob = new Array(this.P).fill(null);
    this.bgJob = new Array(this.P).fill(null);
    this.fgUse = new Float64Array(this.P);
    this.bgUse = new Float64Array(this.P);
    this.idleFg = this.P;
  }

  /** Log an action; the entry is built only when the run keeps a log (the hot path runs without one). */
  record(entry: () => TwoTierLogEntry): void {
    if (this.cfg.log) this.cfg.log.push(entry());
  }

  /** An InvariantError naming the policy, the job, the time (and the processor). */
  broken(invariant: string, detail: string, j: SimJob, node?: number): InvariantError {
    return new InvariantError(invariant, `${this.name}: ${detail}`, { job: j.job.id, time: this.sim.now, ...(node !== undefined ? { node } : {}) });
  }

  /** Capacity: each processor hosts at most one fg and one bg process, and a job's processes sit on distinct processors. */
  checkPlacement(j: SimJob, tier: 'fg' | 'bg'): void {
    const seen = new Set<number>();
    for (let k = 0; k < j.size; k++) {
      const p = j.processors[k];
      if (seen.has(p)) throw this.broken('twotier/capacity', `two processes of the job on processor ${p}`, j, p);
      seen.add(p);
      const holder = tier === 'fg' ? this.fgJob[p] : this.bgJob[p];
      if (holder !== j) throw this.broken('twotier/capacity', `${tier} VM of processor ${p} holds job ${holder?.job.id ?? 'none'}, not this job`, j, p);
    }
    if (!(this.sim.now >= j.job.submit - EPS)) throw this.broken('twotier/release', `runs at ${this.sim.now}, before its submission at ${j.job.submit}`, j);
  }

  // ---- queues -------------------------------------------------------------------------------
  private queuedIndex(j: SimJob): number {
    const queued = this.queued;
    let lo = 0;
    let hi = queued.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sjfBefore(queued[mid], j)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** A job arrives: it waits, and is queued in SJF order. */
  enqueue(j: SimJob): void {
    j.tier = QUEUED;
    this.waiting.push(j);
    this.queued.splice(this.queuedIndex(j), 0, j);
  }

  removeQueued(j: SimJob): void {
    const k = this.queuedIndex(j);
    if (this.queued[k] !== j) throw this.broken('twotier/queue', 'the job is not in the queue', j);
    this.queued.splice(k, 1);
  }

  /** Drop the jobs that left the waiting list (fg or done) since the last call. */
  compactWaiting(): void {
    const waiting = this.waiting;
    let w = 0;
    for (let r = 0; r < waiting.length; r++) {
      const s = waiting[r].tier;
      if (s === QUEUED || s === BG) waiting[w++] = waiting[r];
    }
    waiting.length = w;
  }

  /**
   * The queues are the engine's: `queued` in SJF order holding queued jobs
   * only, `waiting` in arrival order. A policy handed them (the built-ins
   * are) and reordering them is caught here, after each pass with checks on.
   */
  checkQueues(): void {
    const { queued, waiting } = this;
    for (let k = 0; k < queued.length; k++) {
      const j = queued[k];
      if (j.tier !== QUEUED) throw this.broken('twotier/queue', `the SJF queue holds a job that is ${j.tier}`, j);
      if (k > 0 && !sjfBefore(queued[k - 1], j)) throw this.broken('twotier/queue', `the SJF queue is out of order: job ${queued[k - 1].job.id} before it`, j);
    }
    for (let k = 1; k < waiting.length; k++) {
      if (!(waiting[k - 1].index < waiting[k].index)) throw this.broken('twotier/queue', `the waiting list is out of arrival order: job ${waiting[k - 1].job.id} before it`, waiting[k]);
    }
  }

  // ---- what the scheduler sees of CPU usage ---------------------------------------------------
  viewBg(p: number): number {
    return this.bgJob[p] === null ? 0 : this.cfg.knowUsage ? this.bgUse[p] : 1;
  }
  viewFg(p: number): number {
    return this.fgJob[p] === null ? 0 : this.cfg.knowUsage ? this.fgUse[p] : 1;
  }
  /** The bg VM of processor p is free and its fg process (if any) is below the usage threshold. */
  bgEligible(p: number): boolean {
    return this.bgJob[p] === null && (this.fgJob[p] === null || !this.cfg.knowUsage || this.fgUse[p] < this.cfg.placementThreshold);
  }
  /** A bg job's fg VMs are all idle: it can swap tiers in place. */
  inPlace(j: SimJob): boolean {
    for (let k = 0; k < j.size; k++) if (this.fgJob[j.processors[k]] !== null) return false;
    return true;
  }

  /** Mark a job's rate out of date (rates.ts recomputes it at the next flush). */
  markDirty(j: SimJob | null): void {
    if (j && !j.dirty && j.tier !== DONE) {
      j.dirty = true;
      this.dirty.push(j);
    }
  }
}
