/**
 * The state of a two-tier machine under simulation and the mechanics of every
 * decision a policy can take: which process sits in which VM, each job's
 * progress and rate, completion events (moved whenever a rate changes), time
 * slices, and the invariant checks. Policies (policies.ts) decide; this file
 * carries decisions out; the event core (engine/events.ts) orders them.
 *
 * Time advance: exact rate changes at events. Between two events every
 * process's rate is constant (rates depend only on who sits in which VM), so
 * a job's progress is piecewise linear and its completion time is computed
 * exactly. `timeSlice > 0` switches to a literal time-sliced integration
 * (progress += rate · slice each tick; arrivals and completions are seen at
 * tick boundaries) so the two can be compared.
 */
import { EventId, Simulation } from '../../engine/events';
import { InputError } from '../../util/errors';
import { InvariantError } from '../../util/invariants';
import { backgroundRate, foregroundRate, TwoTierModelOptions } from './progress';
import type { TwoTierContext, TwoTierDecision, TwoTierJobView, TwoTierSchedulingPolicy, TwoTierTier } from './policies';
import type { TwoTierJob, TwoTierLogEntry } from './simulator';

const PENDING: TwoTierTier = 'pending';
const QUEUED: TwoTierTier = 'queued';
const FG: TwoTierTier = 'fg';
const BG: TwoTierTier = 'bg';
const DONE: TwoTierTier = 'done';
const EPS = 1e-9;
const SRC = 'simulateTwoTier';

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

/**
 * Build the machine for `all` (in arrival order) under `policy`, schedule
 * every arrival on `sim`, and return the counters (filled in as `sim` runs).
 */
export function twoTierMachine(sim: Simulation, all: SimJob[], policy: TwoTierSchedulingPolicy, cfg: TwoTierMachineConfig): TwoTierCounters {
  const P = cfg.machineSize;
  const name = policy.name;
  const { migrationCost: cost, placementThreshold: threshold, knowUsage, timeSlice: slice, remainingEstimates: remainingEst, checks, log } = cfg;
  const bgModel = cfg.backgroundModel ?? 'demand';
  const bgOverride = cfg.backgroundRate;
  /** Reservation promised to each head job (first shadow time) and the overrun count when it was made. */
  const promised = new Map<SimJob, { shadow: number; overruns: number }>();
  /** Foreground jobs that outlived their estimated end (estimates are then no longer upper bounds). */
  let overruns = 0;
  const fgJob: (SimJob | null)[] = new Array(P).fill(null);
  const bgJob: (SimJob | null)[] = new Array(P).fill(null);
  const fgUse = new Float64Array(P);
  const bgUse = new Float64Array(P);
  let idleFg = P;
  const fgSet = new Set<SimJob>();
  const running = new Set<SimJob>();
  /** Not-fg jobs (queued or bg) in arrival order; FG/DONE entries are dropped lazily. */
  const waiting: SimJob[] = [];
  /** Queued (not running anywhere) jobs sorted by (estimate, arrival): SJF order. */
  const queued: SimJob[] = [];
  const dirty: SimJob[] = [];
  let passPending = false;
  let tickPending = false;
  const counters: TwoTierCounters = { migrations: 0, kills: 0, swaps: 0, done: 0 };
  let byId: Map<number, SimJob> | undefined;

  const record = (e: TwoTierLogEntry) => log?.push(e);
  const broken = (invariant: string, detail: string, j: SimJob, node?: number) =>
    new InvariantError(invariant, `${name}: ${detail}`, { job: j.job.id, time: sim.now, ...(node !== undefined ? { node } : {}) });
  /** Capacity: each processor hosts at most one fg and one bg process, and a job's processes sit on distinct processors. */
  function checkPlacement(j: SimJob, tier: 'fg' | 'bg'): void {
    const seen = new Set<number>();
    for (let k = 0; k < j.size; k++) {
      const p = j.processors[k];
      if (seen.has(p)) throw broken('twotier/capacity', `two processes of the job on processor ${p}`, j, p);
      seen.add(p);
      const holder = tier === 'fg' ? fgJob[p] : bgJob[p];
      if (holder !== j) throw broken('twotier/capacity', `${tier} VM of processor ${p} holds job ${holder?.job.id ?? 'none'}, not this job`, j, p);
    }
    if (!(sim.now >= j.job.submit - EPS)) throw broken('twotier/release', `runs at ${sim.now}, before its submission at ${j.job.submit}`, j);
  }
  const procsOf = (j: SimJob) => Array.from(j.processors);

  const sjfBefore = (a: SimJob, b: SimJob) => a.estimate < b.estimate || (a.estimate === b.estimate && a.index < b.index);
  function queuedIndex(j: SimJob): number {
    let lo = 0;
    let hi = queued.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sjfBefore(queued[mid], j)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  function removeQueued(j: SimJob): void {
    const k = queuedIndex(j);
    if (queued[k] !== j) throw broken('twotier/queue', 'the job is not in the queue', j);
    queued.splice(k, 1);
  }

  function fold(j: SimJob): void {
    const now = sim.now;
    if (now > j.last) {
      j.progress += j.rate * (now - j.last);
      j.last = now;
    }
  }
  function markDirty(j: SimJob | null): void {
    if (j && !j.dirty && j.tier !== DONE) {
      j.dirty = true;
      dirty.push(j);
    }
  }

  /** Current rate of a running job: its slowest process. */
  function rateOf(j: SimJob): number {
    if (j.tier === FG) {
      if (sim.now < j.pausedUntil - EPS) return 0;
      for (let k = 0; k < j.size; k++) if (bgJob[j.processors[k]] !== null) return foregroundRate(j.loss, true);
      return 1;
    }
    let r = Infinity;
    for (let k = 0; k < j.size; k++) {
      const p = j.processors[k];
      const idle = fgJob[p] !== null ? 1 - fgUse[p] : 1;
      const rk = bgOverride ? bgOverride({ efficiency: j.eff, usage: j.use[k], idleShare: idle }) : backgroundRate(j.eff, j.use[k], idle, bgModel);
      // A user-supplied progress model must give a rate; NaN would silently finish jobs at random times.
      if (bgOverride && !(typeof rk === 'number' && rk >= 0 && Number.isFinite(rk))) {
        throw new InputError(`${SRC}: backgroundRate returned ${String(rk)} for job ${j.job.id} (need a finite rate >= 0)`, { source: SRC, field: 'backgroundRate' });
      }
      if (rk < r) r = rk;
    }
    return r;
  }

  /** Recompute the rates of jobs whose surroundings changed; move their completion events. */
  function flush(): void {
    for (const j of dirty) {
      j.dirty = false;
      if (j.tier === DONE || j.tier === QUEUED) continue;
      fold(j);
      const r = rateOf(j);
      if (checks && !(r >= 0 && r <= 1 + EPS)) throw broken('twotier/rate', `progress rate ${r} outside [0, 1]`, j);
      const paused = j.tier === FG && sim.now < j.pausedUntil - EPS;
      if (r === j.rate && (j.ev !== undefined || slice > 0) && !paused) continue;
      j.rate = r;
      if (slice > 0) {
        if (paused) scheduleResume(j);
        continue;
      }
      sim.cancel(j.ev);
      j.ev = undefined;
      if (paused) {
        scheduleResume(j);
        continue;
      }
      const remaining = j.work - j.progress;
      if (remaining <= EPS) j.ev = sim.at(sim.now, () => complete(j), { priority: 0, kind: 'finish' });
      else if (r > 0) j.ev = sim.at(sim.now + remaining / r, () => complete(j), { priority: 0, kind: 'finish' });
    }
    dirty.length = 0;
  }

  function scheduleResume(j: SimJob): void {
    if (slice > 0 || j.resumeAt === j.pausedUntil) return; // ticks look at pausedUntil
    j.resumeAt = j.pausedUntil;
    sim.at(
      j.pausedUntil,
      () => {
        markDirty(j);
        flush();
      },
      { priority: 0, kind: 'resume' },
    );
  }

  function requestPass(): void {
    if (!passPending) {
      passPending = true;
      sim.at(sim.now, pass, { priority: 9, kind: 'schedule' });
    }
  }

  function complete(j: SimJob): void {
    fold(j);
    j.ev = undefined;
    if (checks) {
      // Work conserved: the job finishes with exactly its work done (time slices may overshoot, never undershoot).
      const tol = 1e-6 + 1e-9 * j.work;
      if (j.progress < j.work - tol || (slice <= 0 && j.progress > j.work + tol)) {
        throw broken('twotier/work', `finished with ${j.progress} s of progress for ${j.work} s of work`, j);
      }
      // Bounded slowdown >= 1: no process runs faster than on a dedicated processor.
      if (sim.now - j.job.submit < j.work - tol) throw broken('twotier/slowdown', `response ${sim.now - j.job.submit} s is shorter than its run time ${j.work} s`, j);
      if (j.tier === FG && sim.now > j.estimatedEnd + EPS) overruns++;
    }
    j.progress = j.work;
    const tier = j.tier === FG ? 'fg' : 'bg';
    if (j.tier === FG) {
      for (let k = 0; k < j.size; k++) {
        const p = j.processors[k];
        fgJob[p] = null;
        fgUse[p] = 0;
        idleFg++;
        markDirty(bgJob[p]);
      }
      fgSet.delete(j);
    } else releaseBackground(j);
    running.delete(j);
    j.tier = DONE;
    j.finish = sim.now;
    counters.done++;
    record({ time: sim.now, action: 'finish', job: j.job.id, processors: procsOf(j), tier });
    policy.onJobCompleted?.(j, context);
    requestPass();
  }

  // ---- views the scheduler has of CPU usage -------------------------------------------
  const viewBg = (p: number) => (bgJob[p] === null ? 0 : knowUsage ? bgUse[p] : 1);
  const viewFg = (p: number) => (fgJob[p] === null ? 0 : knowUsage ? fgUse[p] : 1);
  const bgEligible = (p: number) => bgJob[p] === null && (fgJob[p] === null || !knowUsage || fgUse[p] < threshold);

  function releaseBackground(j: SimJob): void {
    for (let k = 0; k < j.size; k++) {
      const p = j.processors[k];
      bgJob[p] = null;
      bgUse[p] = 0;
      markDirty(fgJob[p]);
    }
  }

  /** Dispatch(FG, j): highest-usage process onto the idle fg VM with the lowest bg usage. */
  function dispatchForeground(j: SimJob, exclude: ReadonlySet<number> | null, via: 'fcfs' | 'backfill'): void {
    const cand: number[] = [];
    for (let p = P - 1; p >= 0; p--) if (fgJob[p] === null && !(exclude && exclude.has(p))) cand.push(p);
    if (cand.length < j.size) throw broken('twotier/capacity', `${cand.length} idle fg VMs for a job of ${j.size} processes`, j);
    if (knowUsage) cand.sort((a, b) => viewBg(a) - viewBg(b) || b - a);
    for (let k = 0; k < j.size; k++) {
      const proc = j.order[k];
      const p = cand[k];
      if (checks && fgJob[p] !== null) throw broken('twotier/capacity', `fg VM of processor ${p} already holds job ${fgJob[p]!.job.id}`, j, p);
      j.processors[proc] = p;
      fgJob[p] = j;
      fgUse[p] = j.use[proc];
      idleFg--;
      markDirty(bgJob[p]);
    }
    enterForeground(j, via, 0);
    if (checks) checkPlacement(j, 'fg');
  }

  function enterForeground(j: SimJob, via: 'fcfs' | 'backfill', pause: number): void {
    const now = sim.now;
    if (checks) {
      // A promised start (a 'reserve' decision): the job reaches the fg tier by its first shadow time,
      // as long as every fg job ended by its estimated end (fg slowdown or time slices can break that).
      const p = promised.get(j);
      if (p && p.overruns === overruns && now > p.shadow + 1e-6 * Math.max(1, Math.abs(p.shadow))) {
        throw broken('twotier/reservation', `reached the fg tier at ${now}, after the shadow time ${p.shadow} reserved for it`, j);
      }
    }
    j.tier = FG;
    j.fgStart = now;
    j.pausedUntil = now + pause;
    if (Number.isNaN(j.start)) j.start = now;
    j.estimatedEnd = now + pause + (remainingEst ? Math.max(0, j.estimate - j.progress) : j.estimate);
    fgSet.add(j);
    running.add(j);
    markDirty(j);
    record({ time: now, action: 'fg', job: j.job.id, processors: procsOf(j), via });
  }

  /** A bg job's fg VMs are all idle: it can swap tiers in place. */
  function inPlace(j: SimJob): boolean {
    for (let k = 0; k < j.size; k++) if (fgJob[j.processors[k]] !== null) return false;
    return true;
  }

  /** Swap the CPU priorities of a bg job's bg and fg VMs: keeps progress, no cost. */
  function swap(j: SimJob, via: 'fcfs' | 'backfill'): void {
    fold(j);
    for (let k = 0; k < j.size; k++) {
      const p = j.processors[k];
      if (checks && (fgJob[p] !== null || bgJob[p] !== j)) throw broken('twotier/capacity', `swap onto processor ${p}, whose fg VM is not free`, j, p);
      bgJob[p] = null;
      bgUse[p] = 0;
      fgJob[p] = j;
      fgUse[p] = j.use[k];
      idleFg--;
    }
    j.swaps++;
    counters.swaps++;
    record({ time: sim.now, action: 'swap', job: j.job.id, processors: procsOf(j) });
    enterForeground(j, via, 0);
    if (checks) checkPlacement(j, 'fg');
  }

  /** KEASY: the bg job loses its progress and restarts in fg VMs; MEASY: it moves there keeping it, paused `cost` s. */
  function moveToForeground(j: SimJob, kill: boolean, exclude: ReadonlySet<number> | null, via: 'fcfs' | 'backfill'): void {
    fold(j);
    releaseBackground(j);
    if (kill) {
      j.killedWork += j.progress * j.size;
      j.progress = 0;
      j.kills++;
      counters.kills++;
      record({ time: sim.now, action: 'kill', job: j.job.id, processors: procsOf(j) });
      dispatchForeground(j, exclude, via);
    } else {
      j.migrations++;
      counters.migrations++;
      record({ time: sim.now, action: 'migrate', job: j.job.id, processors: procsOf(j) });
      dispatchForeground(j, exclude, via);
      // the migration pauses the job for `cost` seconds on its new processors
      j.pausedUntil = sim.now + cost;
      j.estimatedEnd += cost;
    }
  }

  /** Dispatch(BG, j). */
  function dispatchBackground(j: SimJob): void {
    const cand: number[] = [];
    for (let p = P - 1; p >= 0; p--) if (bgEligible(p)) cand.push(p);
    if (knowUsage) cand.sort((a, b) => viewFg(a) - viewFg(b) || b - a);
    removeQueued(j);
    if (checks && cand.length < j.size) throw broken('twotier/capacity', `${cand.length} eligible bg VMs for ${j.size} processes`, j);
    for (let k = 0; k < j.size; k++) {
      const proc = j.order[k];
      const p = cand[k];
      if (checks && !bgEligible(p)) throw broken('twotier/capacity', `bg VM of processor ${p} is taken or its fg process uses more than the threshold`, j, p);
      j.processors[proc] = p;
      bgJob[p] = j;
      bgUse[p] = j.use[proc];
      markDirty(fgJob[p]);
    }
    j.tier = BG;
    if (checks) {
      checkPlacement(j, 'bg');
      // A job that cannot leave its bg processors gets a new reservation there (Algorithm 3), so an earlier promise no longer applies.
      if (!policy.movesBackgroundJobs) promised.delete(j);
    }
    j.everBg = true;
    if (Number.isNaN(j.start)) j.start = sim.now;
    j.last = sim.now;
    j.rate = 0;
    running.add(j);
    markDirty(j);
    record({ time: sim.now, action: 'bg', job: j.job.id, processors: procsOf(j) });
  }

  function compactWaiting(): void {
    let w = 0;
    for (let r = 0; r < waiting.length; r++) {
      const s = waiting[r].tier;
      if (s === QUEUED || s === BG) waiting[w++] = waiting[r];
    }
    waiting.length = w;
  }

  // ---- decisions ------------------------------------------------------------------------
  /** The engine's job for a decision's `job` (a view it handed out, or an id). */
  function jobOf(ref: TwoTierJobView | number, action: string): SimJob {
    if (typeof ref === 'number') {
      if (!byId) {
        byId = new Map();
        for (const j of all) if (!byId.has(j.job.id)) byId.set(j.job.id, j);
      }
      const j = byId.get(ref);
      if (j) return j;
    } else if (ref && all[ref.index] === ref) return ref as SimJob;
    throw new InvariantError('twotier/decision', `${name}: '${action}' names a job that is not in the workload (${typeof ref === 'number' ? ref : 'unknown object'})`, { time: sim.now });
  }
  const asSet = (avoid: ReadonlySet<number> | readonly number[] | null | undefined): ReadonlySet<number> | null =>
    avoid === null || avoid === undefined ? null : avoid instanceof Set ? avoid : new Set(avoid as readonly number[]);

  function apply(d: TwoTierDecision): void {
    const j = jobOf(d.job, d.action);
    // No start before submission, no move of a job that is not running in the bg tier.
    if (j.tier === PENDING) throw broken('twotier/release', `'${d.action}' at ${sim.now}, before the job's submission at ${j.job.submit}`, j);
    switch (d.action) {
      case 'fg':
      case 'bg':
        if (j.tier !== QUEUED) throw broken('twotier/decision', `'${d.action}' for a job that is not queued (it is ${j.tier})`, j);
        if (d.action === 'bg') dispatchBackground(j);
        else {
          removeQueued(j);
          dispatchForeground(j, asSet(d.avoid), d.via ?? 'fcfs');
        }
        return;
      case 'swap':
      case 'kill':
      case 'migrate':
        if (j.tier !== BG) throw broken('twotier/migration', `'${d.action}' for a job that is not running in the bg tier (it is ${j.tier})`, j);
        if (d.action === 'swap') {
          if (!inPlace(j)) throw broken('twotier/capacity', "'swap' while a fg VM of the job's processors is taken", j);
          swap(j, d.via ?? 'fcfs');
        } else moveToForeground(j, d.action === 'kill', asSet(d.avoid), d.via ?? 'fcfs');
        return;
      case 'reserve':
        record({ time: sim.now, action: 'reserve', job: j.job.id, processors: [], shadow: d.shadow, extra: d.extra });
        if (checks && !promised.has(j)) promised.set(j, { shadow: d.shadow, overruns });
        return;
      default:
        throw new InvariantError('twotier/decision', `${name}: unknown action '${String((d as { action: unknown }).action)}'`, { time: sim.now });
    }
  }

  const context: TwoTierContext = {
    get now() {
      return sim.now;
    },
    machineSize: P,
    get idleForeground() {
      return idleFg;
    },
    migrationCost: cost,
    remainingEstimates: remainingEst,
    waiting() {
      compactWaiting();
      return waiting;
    },
    queued: () => queued,
    foregroundJobs: () => fgSet,
    foregroundJob: (p) => fgJob[p],
    eligibleBackground() {
      let eligible = 0;
      for (let p = 0; p < P; p++) if (bgEligible(p)) eligible++;
      return eligible;
    },
    canSwap: (j) => j.tier === BG && inPlace(j as SimJob),
    remainingEstimate(view) {
      const j = view as SimJob;
      return Math.max(0, j.estimate - j.progress - j.rate * (sim.now - j.last));
    },
    apply,
  };

  /** One scheduling pass: the policy decides, then rates and completion events are brought up to date. */
  function pass(): void {
    passPending = false;
    const decisions = policy.schedule(context);
    if (decisions) for (const d of decisions) apply(d);
    flush();
    ensureTick();
  }

  // ---- time slices ------------------------------------------------------------------
  let tickIndex = 0;
  function ensureTick(): void {
    if (slice <= 0 || tickPending || running.size === 0) return;
    tickIndex = Math.max(tickIndex, Math.floor(sim.now / slice + EPS)) + 1;
    tickPending = true;
    sim.at(tickIndex * slice, tick, { priority: 0, kind: 'tick' });
  }
  function tick(): void {
    tickPending = false;
    const finished: SimJob[] = [];
    for (const j of running) {
      fold(j);
      if (j.tier === FG && j.pausedUntil > -Infinity && sim.now >= j.pausedUntil - EPS && j.rate === 0) markDirty(j);
      if (j.progress >= j.work - 1e-7) finished.push(j);
    }
    finished.sort((a, b) => a.index - b.index);
    for (const j of finished) complete(j);
    flush();
    ensureTick();
  }

  // ---- arrivals ---------------------------------------------------------------------
  for (const j of all) {
    const t = slice > 0 ? Math.ceil(j.job.submit / slice - EPS) * slice : j.job.submit;
    sim.at(
      Math.max(0, t),
      () => {
        j.tier = QUEUED;
        waiting.push(j);
        queued.splice(queuedIndex(j), 0, j);
        policy.onJobSubmitted?.(j, context);
        requestPass();
      },
      { priority: 1, kind: 'arrival' },
    );
  }
  return counters;
}
