/**
 * Event-driven simulator of EASY, KEASY, REASY and MEASY on two-tier
 * (foreground / background VM) processors, after the MEASY paper
 * (Algorithms 1–3, Sections 2–3).
 *
 * Time advance: exact rate changes at events. Between two events every
 * process's rate is constant (rates depend only on who sits in which VM), so a
 * job's progress is piecewise linear and its completion time is computed
 * exactly; a job's completion event is moved whenever its rate changes. This is
 * both exact and far cheaper than the paper's time slices (no work between
 * events). `timeSlice > 0` switches to a literal time-sliced integration
 * (progress += rate · slice each tick; arrivals and completions are seen at
 * tick boundaries) so the two can be compared.
 *
 * Choices where the paper is silent or ambiguous (each repeated in the notebook):
 * - All events at one instant are applied first, then one scheduling pass runs
 *   (the worked example handles "J3 and J5 depart at time 5" together).
 * - Steps 1–3 run on every arrival and every departure (fg or bg).
 * - Backfilling tests the job's full (original) estimate, also for a bg job
 *   that would keep its progress: the worked example says J8 "cannot be
 *   backfilled as its original execution time is 4". A migrating job's
 *   estimate also includes the migration cost.
 * - The estimated termination of a fg job is its fg start (+ migration cost)
 *   + its full estimate.
 * - Ties in Dispatch (equal utilisation) go to the highest processor index;
 *   with it the simulator reproduces the processor labels of Figure 1.
 * - REASY, bg head: extra fg VMs = idle fg VMs not hosting the head (as the
 *   text says); jobs backfilled under the "extra" rule never use the head's
 *   processors.
 * - A bg job's rate uses the true CPU usage; the scheduler's view of usage can
 *   be switched off (`cpuInfo: 'none'`): Dispatch then pairs by index only and
 *   the 96% rule cannot be applied.
 * - Loss and e are drawn once per job, in arrival order, from `seed`, so every
 *   policy sees the same draws for the same job (common random numbers).
 */
import { ScheduledEvent, Simulation } from '../../engine/events';
import { Rng, Seed } from '../../util/random';
import { WorkloadJob } from '../../workloads/job';
import { InputError } from '../../util/errors';
import { InvariantError, invariantChecksEnabled } from '../../util/invariants';
import {
  BACKGROUND_PLACEMENT_THRESHOLD,
  backgroundRate,
  drawBackgroundEfficiency,
  drawForegroundLoss,
  foregroundRate,
  TwoTierModelOptions,
} from './progress';

/** A job with per-process CPU usage (fraction of a dedicated processor, in (0, 1]). */
export interface TwoTierJob extends WorkloadJob {
  /** One value per process; absent means 100% for every process. */
  cpuUsage?: ArrayLike<number>;
}

export type TwoTierPolicy = 'easy' | 'keasy' | 'reasy' | 'measy';

export interface TwoTierOptions extends TwoTierModelOptions {
  /** Number of physical processors (the paper: 320). */
  machineSize: number;
  /** 'easy' uses fg VMs only (no consolidation, no overhead). */
  policy: TwoTierPolicy;
  /** Seconds a migration pauses the job (MEASY; paper default 20). */
  migrationCost?: number;
  /** Which runtime the scheduler sees: max(requestedTime, runtime) (default 'requested') or the real runtime. */
  estimates?: 'requested' | 'exact';
  /** Whether the scheduler knows the processes' CPU usage (default 'exact'). */
  cpuInfo?: 'exact' | 'none';
  /** No bg placement where the fg process uses more than this (default 0.96). */
  placementThreshold?: number;
  /** Seed of the per-job loss and e draws (default 1). */
  seed?: Seed;
  /** > 0: integrate progress in time slices of this length instead of exact rate changes. */
  timeSlice?: number;
  /** Record every decision (for tests and small examples). */
  log?: boolean;
  /** Backfill/reserve with estimate − progress for jobs keeping their progress (default false: the paper's full estimate). */
  remainingEstimates?: boolean;
}

/** One recorded scheduler decision. */
export interface TwoTierLogEntry {
  time: number;
  action: 'fg' | 'bg' | 'swap' | 'kill' | 'migrate' | 'finish' | 'reserve';
  job: number;
  /** Processors (0-based) the job holds after the action. */
  processors: number[];
  /** How a fg start was decided. */
  via?: 'fcfs' | 'backfill';
  shadow?: number;
  extra?: number;
  tier?: 'fg' | 'bg';
}

/** Per-job outcome. */
export interface TwoTierJobResult {
  id: number;
  submit: number;
  runtime: number;
  procs: number;
  estimate: number;
  /** First time any process ran (fg or bg). */
  start: number;
  /** Last time the job entered the fg tier (NaN if it finished in the bg). */
  fgStart: number;
  finish: number;
  response: number;
  kills: number;
  migrations: number;
  swaps: number;
  /** Tier the job finished in. */
  finishedIn: 'fg' | 'bg';
  /** Processor-seconds of progress thrown away by kills. */
  killedWork: number;
}

export interface TwoTierRun {
  policy: TwoTierPolicy;
  machineSize: number;
  jobs: TwoTierJobResult[];
  migrations: number;
  kills: number;
  swaps: number;
  /** Jobs that ever ran in a bg VM. */
  backgroundPlacements: number;
  events: number;
  makespan: number;
  log?: TwoTierLogEntry[];
}

const QUEUED = 0;
const FG = 1;
const BG = 2;
const DONE = 3;
const EPS = 1e-9;

interface SimJob {
  i: number;
  job: TwoTierJob;
  n: number;
  work: number;
  est: number;
  use: Float64Array;
  /** Process indices sorted by usage, highest first (Dispatch order). */
  order: Int32Array;
  loss: number;
  eff: number;
  state: number;
  /** procs[k] = processor of process k (while FG or BG). */
  procs: Int32Array;
  progress: number;
  rate: number;
  last: number;
  pausedUntil: number;
  resumeAt: number;
  estEnd: number;
  ev: ScheduledEvent | undefined;
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

const SRC = 'simulateTwoTier';

/** Validate jobs and options; throws an InputError naming the option or job field that is wrong. */
function checkInput(jobs: readonly TwoTierJob[], options: TwoTierOptions): void {
  const opt = (field: string, message: string) => new InputError(`${SRC}: ${field} ${message}`, { source: SRC, field });
  const { machineSize, policy } = options;
  if (!Number.isInteger(machineSize) || machineSize < 1) throw opt('machineSize', `must be a positive integer, got ${machineSize}`);
  if (!['easy', 'keasy', 'reasy', 'measy'].includes(policy)) throw new InputError(`${SRC}: unknown policy '${policy}' (easy | keasy | reasy | measy)`, { source: SRC, field: 'policy' });
  const cost = options.migrationCost ?? 20;
  if (!(cost >= 0) || !Number.isFinite(cost)) throw opt('migrationCost', `must be a finite number >= 0, got ${cost}`);
  if (options.timeSlice !== undefined && !(options.timeSlice >= 0 && Number.isFinite(options.timeSlice))) throw opt('timeSlice', `must be a finite number >= 0, got ${options.timeSlice}`);
  if (options.estimates !== undefined && options.estimates !== 'requested' && options.estimates !== 'exact') {
    throw opt('estimates', `must be 'requested' or 'exact', got '${String(options.estimates)}'`);
  }
  if (options.cpuInfo !== undefined && options.cpuInfo !== 'exact' && options.cpuInfo !== 'none') throw opt('cpuInfo', `must be 'exact' or 'none', got '${String(options.cpuInfo)}'`);
  if (options.placementThreshold !== undefined && !(options.placementThreshold > 0 && options.placementThreshold <= 1)) {
    throw opt('placementThreshold', `must be in (0, 1], got ${options.placementThreshold}`);
  }
  const range = (field: string, r: readonly [number, number] | undefined, lo: number, hi: number) => {
    if (r !== undefined && !(Array.isArray(r) && r.length === 2 && r[0] >= lo && r[0] <= r[1] && r[1] <= hi)) {
      throw opt(field, `must be [low, high] with ${lo} <= low <= high <= ${hi}, got ${JSON.stringify(r)}`);
    }
  };
  range('lossRange', options.lossRange, 0, 1);
  range('singleEfficiencyRange', options.singleEfficiencyRange, 0, 1);
  if (!Array.isArray(jobs)) throw new InputError(`${SRC}: jobs must be an array`, { source: SRC, field: 'jobs' });
  jobs.forEach((j, k) => {
    const where = `job ${j.id} (index ${k})`;
    const bad = (field: string, message: string) => new InputError(`${SRC}: ${where}: ${message}`, { source: SRC, field: `jobs[${k}].${field}` });
    if (!Number.isInteger(j.procs) || j.procs < 1) throw bad('procs', `procs must be a positive integer, got ${j.procs}`);
    if (j.procs > machineSize) throw bad('procs', `procs ${j.procs} exceeds machineSize ${machineSize}`);
    if (!Number.isFinite(j.submit)) throw bad('submit', `submit must be finite, got ${j.submit}`);
    if (!(j.runtime >= 0) || !Number.isFinite(j.runtime)) throw bad('runtime', `runtime must be finite and >= 0, got ${j.runtime}`);
    if (j.cpuUsage !== undefined) {
      if (j.cpuUsage.length !== j.procs) throw bad('cpuUsage', `cpuUsage has ${j.cpuUsage.length} values for ${j.procs} processes`);
      for (let k2 = 0; k2 < j.cpuUsage.length; k2++) {
        const u = j.cpuUsage[k2];
        if (!(u > 0 && u <= 1)) throw bad(`cpuUsage[${k2}]`, `cpuUsage[${k2}] = ${u} is not in (0, 1]`);
      }
    }
  });
}

/**
 * Simulate `jobs` under EASY / KEASY / REASY / MEASY on `machineSize`
 * two-tier processors. Returns per-job results and counters.
 */
export function simulateTwoTier(jobs: readonly TwoTierJob[], options: TwoTierOptions): TwoTierRun {
  checkInput(jobs, options);
  const P = options.machineSize;
  const policy = options.policy;
  const useBackground = policy !== 'easy';
  const cost = options.migrationCost ?? 20;
  const threshold = options.placementThreshold ?? BACKGROUND_PLACEMENT_THRESHOLD;
  const knowUsage = (options.cpuInfo ?? 'exact') === 'exact';
  const slice = options.timeSlice ?? 0;
  const bgModel = options.backgroundModel ?? 'demand';
  const bgOverride = options.backgroundRate;
  const remainingEst = options.remainingEstimates ?? false;
  const log: TwoTierLogEntry[] | undefined = options.log ? [] : undefined;
  const rng = new Rng(options.seed ?? 1);
  // Invariant checks (util/invariants.ts): read once per run; every check sits behind this boolean.
  const checks = invariantChecksEnabled();
  /** Reservation promised to each head job (first shadow time) and the overrun count when it was made. */
  const promised = new Map<SimJob, { shadow: number; overruns: number }>();
  /** Foreground jobs that outlived their estimated end (estimates are then no longer upper bounds). */
  let overruns = 0;

  // Arrival order: by submit, then by input position (stable).
  const sorted = jobs.map((job, k) => ({ job, k })).sort((a, b) => a.job.submit - b.job.submit || a.k - b.k);
  const all: SimJob[] = sorted.map(({ job }, i) => {
    const n = job.procs;
    const use = new Float64Array(n);
    for (let k = 0; k < n; k++) use[k] = job.cpuUsage ? job.cpuUsage[k] : 1;
    const order = Int32Array.from({ length: n }, (_, k) => k);
    if (knowUsage) order.sort((a, b) => use[b] - use[a] || a - b);
    // as the batch schedulers do: a missing estimate is the runtime, an underestimate is raised to it
    const est = options.estimates === 'exact' || !(job.requestedTime !== undefined && job.requestedTime > 0) ? job.runtime : Math.max(job.requestedTime, job.runtime);
    return {
      i, job, n, work: job.runtime, est, use, order,
      loss: drawForegroundLoss(rng, options.lossRange),
      eff: drawBackgroundEfficiency(rng, n, options),
      state: QUEUED, procs: new Int32Array(n), progress: 0, rate: 0, last: 0, pausedUntil: -Infinity, resumeAt: NaN,
      estEnd: Infinity, ev: undefined, dirty: false, start: NaN, fgStart: NaN, finish: NaN,
      kills: 0, migrations: 0, swaps: 0, killedWork: 0, everBg: false,
    };
  });

  const sim = new Simulation();
  const fgJob: (SimJob | null)[] = new Array(P).fill(null);
  const bgJob: (SimJob | null)[] = new Array(P).fill(null);
  const fgUse = new Float64Array(P);
  const bgUse = new Float64Array(P);
  let idleFg = P;
  const fgSet = new Set<SimJob>();
  const running = new Set<SimJob>();
  /** Not-fg jobs (queued or bg) in arrival order; FG/DONE entries are dropped lazily. */
  let waiting: SimJob[] = [];
  /** Queued (not running anywhere) jobs sorted by (estimate, arrival): SJF order for step 3. */
  const queued: SimJob[] = [];
  const dirty: SimJob[] = [];
  let passPending = false;
  let tickPending = false;
  let migrations = 0;
  let kills = 0;
  let swaps = 0;
  let done = 0;

  const record = (e: TwoTierLogEntry) => log?.push(e);
  const broken = (name: string, detail: string, j: SimJob, node?: number) =>
    new InvariantError(name, `${policy}: ${detail}`, { job: j.job.id, time: sim.now, ...(node !== undefined ? { node } : {}) });
  /** Capacity: each processor hosts at most one fg and one bg process, and a job's processes sit on distinct processors. */
  function checkPlacement(j: SimJob, tier: 'fg' | 'bg'): void {
    const seen = new Set<number>();
    for (let k = 0; k < j.n; k++) {
      const p = j.procs[k];
      if (seen.has(p)) throw broken('twotier/capacity', `two processes of the job on processor ${p}`, j, p);
      seen.add(p);
      const holder = tier === 'fg' ? fgJob[p] : bgJob[p];
      if (holder !== j) throw broken('twotier/capacity', `${tier} VM of processor ${p} holds job ${holder?.job.id ?? 'none'}, not this job`, j, p);
    }
    if (!(sim.now >= j.job.submit - EPS)) throw broken('twotier/release', `runs at ${sim.now}, before its submission at ${j.job.submit}`, j);
  }
  const procsOf = (j: SimJob) => Array.from(j.procs);

  const sjfBefore = (a: SimJob, b: SimJob) => a.est < b.est || (a.est === b.est && a.i < b.i);
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
    if (queued[k] !== j) throw new InvariantError('twotier/queue', `${policy}: the job is not in the queue`, { job: j.job.id, time: sim.now });
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
    if (j && !j.dirty && j.state !== DONE) {
      j.dirty = true;
      dirty.push(j);
    }
  }

  /** Current rate of a running job: its slowest process. */
  function rateOf(j: SimJob): number {
    if (j.state === FG) {
      if (sim.now < j.pausedUntil - EPS) return 0;
      if (!useBackground) return 1;
      for (let k = 0; k < j.n; k++) if (bgJob[j.procs[k]] !== null) return foregroundRate(j.loss, true);
      return 1;
    }
    let r = Infinity;
    for (let k = 0; k < j.n; k++) {
      const p = j.procs[k];
      const idle = fgJob[p] !== null ? 1 - fgUse[p] : 1;
      const rk = bgOverride
        ? bgOverride({ efficiency: j.eff, usage: j.use[k], idleShare: idle })
        : backgroundRate(j.eff, j.use[k], idle, bgModel);
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
      if (j.state === DONE || j.state === QUEUED) continue;
      fold(j);
      const r = rateOf(j);
      if (checks && !(r >= 0 && r <= 1 + EPS)) throw broken('twotier/rate', `progress rate ${r} outside [0, 1]`, j);
      const paused = j.state === FG && sim.now < j.pausedUntil - EPS;
      if (r === j.rate && (j.ev || slice > 0) && !paused) continue;
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
    sim.at(j.pausedUntil, () => {
      markDirty(j);
      flush();
    }, { priority: 0, kind: 'resume' });
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
      if (j.state === FG && sim.now > j.estEnd + EPS) overruns++;
    }
    j.progress = j.work;
    const tier = j.state === FG ? 'fg' : 'bg';
    if (j.state === FG) {
      for (let k = 0; k < j.n; k++) {
        const p = j.procs[k];
        fgJob[p] = null;
        fgUse[p] = 0;
        idleFg++;
        markDirty(bgJob[p]);
      }
      fgSet.delete(j);
    } else {
      for (let k = 0; k < j.n; k++) {
        const p = j.procs[k];
        bgJob[p] = null;
        bgUse[p] = 0;
        markDirty(fgJob[p]);
      }
    }
    running.delete(j);
    j.state = DONE;
    j.finish = sim.now;
    done++;
    record({ time: sim.now, action: 'finish', job: j.job.id, processors: procsOf(j), tier });
    requestPass();
  }

  // ---- views the scheduler has of CPU usage -------------------------------------------
  const viewBg = (p: number) => (bgJob[p] === null ? 0 : knowUsage ? bgUse[p] : 1);
  const viewFg = (p: number) => (fgJob[p] === null ? 0 : knowUsage ? fgUse[p] : 1);
  const bgEligible = (p: number) => bgJob[p] === null && (fgJob[p] === null || !knowUsage || fgUse[p] < threshold);

  function releaseBackground(j: SimJob): void {
    for (let k = 0; k < j.n; k++) {
      const p = j.procs[k];
      bgJob[p] = null;
      bgUse[p] = 0;
      markDirty(fgJob[p]);
    }
  }

  /** Dispatch(FG, j): highest-usage process onto the idle fg VM with the lowest bg usage. */
  function dispatchForeground(j: SimJob, exclude: Set<number> | null, via: 'fcfs' | 'backfill'): void {
    const cand: number[] = [];
    for (let p = P - 1; p >= 0; p--) if (fgJob[p] === null && !(exclude && exclude.has(p))) cand.push(p);
    if (cand.length < j.n) throw new InvariantError('twotier/capacity', `${policy}: ${cand.length} idle fg VMs for a job of ${j.n} processes`, { job: j.job.id, time: sim.now });
    if (knowUsage) cand.sort((a, b) => viewBg(a) - viewBg(b) || b - a);
    for (let k = 0; k < j.n; k++) {
      const proc = j.order[k];
      const p = cand[k];
      if (checks && fgJob[p] !== null) throw broken('twotier/capacity', `fg VM of processor ${p} already holds job ${fgJob[p]!.job.id}`, j, p);
      j.procs[proc] = p;
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
      // EASY's promise: a head job reaches the fg tier by its first shadow time, as long as
      // every fg job ended by its estimated end (fg slowdown or time slices can break that).
      const p = promised.get(j);
      if (p && p.overruns === overruns && now > p.shadow + 1e-6 * Math.max(1, Math.abs(p.shadow))) {
        throw broken('twotier/reservation', `reached the fg tier at ${now}, after the shadow time ${p.shadow} reserved for it`, j);
      }
    }
    j.state = FG;
    j.fgStart = now;
    j.pausedUntil = now + pause;
    if (Number.isNaN(j.start)) j.start = now;
    j.estEnd = now + pause + (remainingEst ? Math.max(0, j.est - j.progress) : j.est);
    fgSet.add(j);
    running.add(j);
    markDirty(j);
    record({ time: now, action: 'fg', job: j.job.id, processors: procsOf(j), via });
  }

  /** Deploy(j, K|R|M) of Algorithm 2, extended with MEASY's migration. */
  function deploy(j: SimJob, exclude: Set<number> | null, via: 'fcfs' | 'backfill'): boolean {
    if (j.state === QUEUED) {
      removeQueued(j);
      dispatchForeground(j, exclude, via);
      return true;
    }
    // j runs in the bg tier
    let inPlace = true;
    for (let k = 0; k < j.n; k++) if (fgJob[j.procs[k]] !== null) inPlace = false;
    if (inPlace) {
      // swap the CPU priorities of its bg and fg VMs: keeps progress, no cost
      fold(j);
      for (let k = 0; k < j.n; k++) {
        const p = j.procs[k];
        if (checks && (fgJob[p] !== null || bgJob[p] !== j)) throw broken('twotier/capacity', `swap onto processor ${p}, whose fg VM is not free`, j, p);
        bgJob[p] = null;
        bgUse[p] = 0;
        fgJob[p] = j;
        fgUse[p] = j.use[k];
        idleFg--;
      }
      j.swaps++;
      swaps++;
      record({ time: sim.now, action: 'swap', job: j.job.id, processors: procsOf(j) });
      enterForeground(j, via, 0);
      if (checks) checkPlacement(j, 'fg');
      return true;
    }
    if (policy === 'reasy') return false;
    fold(j);
    releaseBackground(j);
    if (policy === 'keasy') {
      j.killedWork += j.progress * j.n;
      j.progress = 0;
      j.kills++;
      kills++;
      record({ time: sim.now, action: 'kill', job: j.job.id, processors: procsOf(j) });
      dispatchForeground(j, exclude, via);
    } else {
      j.migrations++;
      migrations++;
      record({ time: sim.now, action: 'migrate', job: j.job.id, processors: procsOf(j) });
      dispatchForegroundMigrating(j, exclude, via);
    }
    return true;
  }

  function dispatchForegroundMigrating(j: SimJob, exclude: Set<number> | null, via: 'fcfs' | 'backfill'): void {
    dispatchForeground(j, exclude, via);
    // the migration pauses the job for `cost` seconds on its new processors
    j.pausedUntil = sim.now + cost;
    j.estEnd += cost;
  }

  /** Dispatch(BG, j). */
  function dispatchBackground(j: SimJob): void {
    const cand: number[] = [];
    for (let p = P - 1; p >= 0; p--) if (bgEligible(p)) cand.push(p);
    if (knowUsage) cand.sort((a, b) => viewFg(a) - viewFg(b) || b - a);
    removeQueued(j);
    if (checks && !useBackground) throw broken('twotier/tier', 'placed in a bg VM under EASY, which uses fg VMs only', j);
    if (checks && cand.length < j.n) throw broken('twotier/capacity', `${cand.length} eligible bg VMs for ${j.n} processes`, j);
    for (let k = 0; k < j.n; k++) {
      const proc = j.order[k];
      const p = cand[k];
      if (checks && !bgEligible(p)) throw broken('twotier/capacity', `bg VM of processor ${p} is taken or its fg process uses more than the threshold`, j, p);
      j.procs[proc] = p;
      bgJob[p] = j;
      bgUse[p] = j.use[proc];
      markDirty(fgJob[p]);
    }
    j.state = BG;
    if (checks) {
      checkPlacement(j, 'bg');
      // REASY never moves a bg job: once in the bg tier its reservation is the one computed
      // on its own processors (Algorithm 3), so an earlier promise no longer applies.
      if (policy === 'reasy') promised.delete(j);
    }
    j.everBg = true;
    if (Number.isNaN(j.start)) j.start = sim.now;
    j.last = sim.now;
    j.rate = 0;
    running.add(j);
    markDirty(j);
    record({ time: sim.now, action: 'bg', job: j.job.id, processors: procsOf(j) });
  }

  /** Estimated fg duration if j were deployed now. */
  function durationIfDeployed(j: SimJob): number {
    if (j.state === QUEUED) return j.est;
    let inPlace = true;
    for (let k = 0; k < j.n; k++) if (fgJob[j.procs[k]] !== null) inPlace = false;
    const keeps = inPlace || policy === 'measy';
    const base = remainingEst && keeps ? Math.max(0, j.est - j.progress - j.rate * (sim.now - j.last)) : j.est;
    return base + (!inPlace && policy === 'measy' ? cost : 0);
  }

  function compactWaiting(): void {
    let w = 0;
    for (let r = 0; r < waiting.length; r++) {
      const s = waiting[r].state;
      if (s === QUEUED || s === BG) waiting[w++] = waiting[r];
    }
    waiting.length = w;
  }

  /** One scheduling pass: Algorithm 1 (KEASY/MEASY), Algorithm 3 (REASY), steps 1–2 only for EASY. */
  function pass(): void {
    passPending = false;
    const now = sim.now;
    compactWaiting();
    // Step 1: FCFS over the not-fg jobs (queued and bg) in arrival order.
    for (let k = 0; k < waiting.length; k++) {
      const j = waiting[k];
      if (j.n > idleFg) break;
      deploy(j, null, 'fcfs');
    }
    compactWaiting();
    if (waiting.length > 0) {
      // Step 2: reservation for the head, then backfilling into fg VMs.
      const head = waiting[0];
      let shadow = Infinity;
      let extra = 0;
      let exclude: Set<number> | null = null;
      if (policy === 'reasy' && head.state === BG) {
        exclude = new Set(Array.from(head.procs));
        shadow = now;
        for (const p of exclude) {
          const f = fgJob[p];
          if (f) shadow = Math.max(shadow, f.estEnd);
        }
        extra = 0;
        for (let p = 0; p < P; p++) if (fgJob[p] === null && !exclude.has(p)) extra++;
      } else if (head.n <= idleFg) {
        // only reachable when REASY could not move a bg head: it needs its own processors
        shadow = now;
        extra = idleFg - head.n;
      } else {
        const ends = Array.from(fgSet).sort((a, b) => a.estEnd - b.estEnd || a.i - b.i);
        let avail = idleFg;
        for (let k = 0; k < ends.length; k++) {
          avail += ends[k].n;
          if (avail >= head.n) {
            // Every job with the same estimated end is free at the shadow time too.
            while (k + 1 < ends.length && ends[k + 1].estEnd === ends[k].estEnd) avail += ends[++k].n;
            shadow = Math.max(now, ends[k].estEnd);
            extra = avail - head.n;
            break;
          }
        }
      }
      record({ time: now, action: 'reserve', job: head.job.id, processors: [], shadow, extra });
      if (checks && !promised.has(head)) promised.set(head, { shadow, overruns });
      for (let k = 1; k < waiting.length && idleFg > 0; k++) {
        const j = waiting[k];
        if (j.n > idleFg || j.state === FG) continue;
        const endsBefore = now + durationIfDeployed(j) <= shadow + EPS;
        if (!endsBefore && j.n > extra) continue;
        if (!endsBefore && exclude) {
          // under the extra rule keep off the bg head's processors
          let free = 0;
          for (let p = 0; p < P; p++) if (fgJob[p] === null && !exclude.has(p)) free++;
          if (j.n <= free && deploy(j, exclude, 'backfill')) extra -= j.n;
        } else if (deploy(j, null, 'backfill') && !endsBefore) extra -= j.n;
      }
      compactWaiting();
    }
    // Step 3: SJF into bg VMs.
    if (useBackground && queued.length > 0) {
      let eligible = 0;
      for (let p = 0; p < P; p++) if (bgEligible(p)) eligible++;
      for (let k = 0; k < queued.length && eligible > 0; ) {
        const j = queued[k];
        if (j.n <= eligible) {
          dispatchBackground(j); // removes j from `queued`
          eligible -= j.n;
        } else k++;
      }
    }
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
      if (j.state === FG && j.pausedUntil > -Infinity && sim.now >= j.pausedUntil - EPS && j.rate === 0) markDirty(j);
      if (j.progress >= j.work - 1e-7) finished.push(j);
    }
    finished.sort((a, b) => a.i - b.i);
    for (const j of finished) complete(j);
    flush();
    ensureTick();
  }

  // ---- arrivals ---------------------------------------------------------------------
  for (const j of all) {
    const t = slice > 0 ? Math.ceil(j.job.submit / slice - EPS) * slice : j.job.submit;
    sim.at(Math.max(0, t), () => {
      waiting.push(j);
      queued.splice(queuedIndex(j), 0, j);
      requestPass();
    }, { priority: 1, kind: 'arrival' });
  }
  sim.run();
  if (done !== all.length) {
    const left = all.find((j) => j.state !== DONE)!;
    throw new InvariantError('twotier/completed', `${policy}: simulation ended with ${all.length - done} unfinished jobs (a job may be starved of cycles)`, { job: left.job.id, time: sim.now });
  }

  const results: TwoTierJobResult[] = all.map((j) => ({
    id: j.job.id,
    submit: j.job.submit,
    runtime: j.work,
    procs: j.n,
    estimate: j.est,
    start: j.start,
    fgStart: j.fgStart,
    finish: j.finish,
    response: j.finish - j.job.submit,
    kills: j.kills,
    migrations: j.migrations,
    swaps: j.swaps,
    finishedIn: Number.isNaN(j.fgStart) ? 'bg' : 'fg',
    killedWork: j.killedWork,
  }));
  let makespan = 0;
  let everBg = 0;
  for (const j of all) {
    if (j.finish > makespan) makespan = j.finish;
    if (j.everBg) everBg++;
  }
  return {
    policy,
    machineSize: P,
    jobs: results,
    migrations,
    kills,
    swaps,
    backgroundPlacements: everBg,
    events: sim.processed,
    makespan,
    log,
  };
}
