/**
 * Scheduling policies for two-tier processors: the open interface and the
 * paper's four schedulers (EASY, KEASY, REASY, MEASY) written on it.
 *
 * A policy is an object with a name and a few event methods, in the manner
 * of pybatsim: `onJobSubmitted` and `onJobCompleted` (optional, for the
 * policy's own bookkeeping) and `schedule`, called once per instant after
 * all arrivals and completions of that instant. `schedule` decides through
 * the context: `ctx.apply(decision)` applies a decision at once, so the next
 * one sees the new state (EASY backfilling needs the idle VMs left after each
 * start); decisions returned from `schedule` are applied after it returns.
 *
 * Decisions: 'fg' (start a queued job in fg VMs), 'bg' (start a queued job in
 * bg VMs), 'swap' (a bg job whose processors' fg VMs are all idle takes them,
 * keeping its progress), 'kill' (a bg job restarts from scratch in fg VMs),
 * 'migrate' (a bg job moves to fg VMs keeping its progress, paused for the
 * migration cost) and 'reserve' (record a promised start for a job: the
 * engine checks the job reaches the fg tier by then). Processors are chosen
 * by the model's Dispatch rule (highest-usage process onto the VM with the
 * least co-located usage); `avoid` keeps a start off some processors.
 *
 * A policy other than the four built-ins always runs with invariant checks
 * on: per-tier capacity, no start before submission, work conserved, no
 * move of a job that is not running in the bg tier. Errors are
 * InvariantErrors whose message starts with the policy's name and which name
 * the job and the time.
 */
import { eventPolicyObject, PolicyRef } from '../../util/modules';
import { InputError } from '../../util/errors';
import type { TwoTierJob } from './simulator';

/** A built-in two-tier policy: EASY, KEASY, REASY or MEASY. */
export type TwoTierPolicy = 'easy' | 'keasy' | 'reasy' | 'measy';
/** Names of the built-in two-tier policies. */
export const TWO_TIER_POLICIES: readonly TwoTierPolicy[] = ['easy', 'keasy', 'reasy', 'measy'];

/**
 * REASY's reservation for a head job running in the bg tier (it can only
 * swap in place, so it waits for the fg jobs on its own processors):
 * - 'text' (default; Section 2.3.1's prose): shadow = last estimated end of
 *   the fg jobs on its processors; extra fg VMs = the idle ones that do not
 *   host the head; jobs backfilled under the extra rule stay off the head's
 *   processors, so the reservation holds.
 * - 'algorithm' (Algorithm 3, lines 14–17 as extracted): the same shadow;
 *   extra = idle fg VMs + the size sum of those fg jobs − the head's size
 *   (EASY's count of what is free at the shadow time), and backfilled jobs
 *   may take any processor, the head's included, so the head can be
 *   overtaken again. It records no promise ('reserve' is not issued).
 */
export type ReasyReservation = 'text' | 'algorithm';
/** The readings of REASY's reservation, default first. */
export const REASY_RESERVATIONS: readonly ReasyReservation[] = ['text', 'algorithm'];

/** Where a job is: not yet submitted, queued, running in the fg or bg tier, or finished. */
export type TwoTierTier = 'pending' | 'queued' | 'fg' | 'bg' | 'done';

/** What a policy sees of a job (live object: read, never write). */
export interface TwoTierJobView {
  /** The input job (id, submit, procs, requestedTime, …). */
  readonly job: TwoTierJob;
  /** Position in arrival order (submit, then input order). */
  readonly index: number;
  /** Number of processes. */
  readonly size: number;
  /** The runtime the scheduler sees (max(requested, runtime), or the runtime). */
  readonly estimate: number;
  readonly tier: TwoTierTier;
  /** processors[k] = processor of process k (while in the fg or bg tier). */
  readonly processors: Int32Array;
  /** Estimated end in the fg tier (fg start + migration pause + estimate). */
  readonly estimatedEnd: number;
}

/** What a two-tier policy asks for a job: start in the foreground, kill, migrate, swap, run in the background or reserve. */
export type TwoTierDecision =
  | { action: 'fg'; job: TwoTierJobView | number; avoid?: ReadonlySet<number> | readonly number[] | null; via?: 'fcfs' | 'backfill' }
  | { action: 'kill' | 'migrate'; job: TwoTierJobView | number; avoid?: ReadonlySet<number> | readonly number[] | null; via?: 'fcfs' | 'backfill' }
  | { action: 'swap'; job: TwoTierJobView | number; via?: 'fcfs' | 'backfill' }
  | { action: 'bg'; job: TwoTierJobView | number }
  | { action: 'reserve'; job: TwoTierJobView | number; shadow: number; extra: number };

/** The scheduler's view of the machine and its way to act. */
export interface TwoTierContext {
  readonly now: number;
  readonly machineSize: number;
  /** Number of idle fg VMs. */
  readonly idleForeground: number;
  /** Seconds a migration pauses a job. */
  readonly migrationCost: number;
  /** Whether estimates of jobs that keep their progress are estimate − progress (option `remainingEstimates`). */
  readonly remainingEstimates: boolean;
  /** REASY's reading of the reservation for a bg head (option `reasyReservation`). */
  readonly reasyReservation: ReasyReservation;
  /** Jobs not in the fg tier (queued or bg), in arrival order. Valid until the next call. */
  waiting(): readonly TwoTierJobView[];
  /** Queued jobs (not running anywhere) by (estimate, arrival): SJF order. Live: a 'bg' or 'fg' start removes the job. */
  queued(): readonly TwoTierJobView[];
  /** Jobs running in the fg tier. */
  foregroundJobs(): Iterable<TwoTierJobView>;
  /** The job in the fg VM of processor p, or null. */
  foregroundJob(p: number): TwoTierJobView | null;
  /** Number of bg VMs a job may be placed in now (free, and the fg process below the usage threshold). */
  eligibleBackground(): number;
  /** True when `job` runs in the bg tier and the fg VMs of all its processors are idle. */
  canSwap(job: TwoTierJobView): boolean;
  /** max(0, estimate − progress so far) of a job (for `remainingEstimates`). */
  remainingEstimate(job: TwoTierJobView): number;
  /** Apply a decision now; the next query sees its effect. */
  apply(decision: TwoTierDecision): void;
}

/** A two-tier scheduling policy (built-in or user-supplied). */
export interface TwoTierSchedulingPolicy {
  readonly name: string;
  /**
   * Whether the policy can bring a bg job into fg VMs on other processors
   * (kill or migrate). When false, a job placed in the bg tier loses the
   * start promised to it by an earlier 'reserve' (it can only swap in place).
   */
  readonly movesBackgroundJobs?: boolean;
  onJobSubmitted?(job: TwoTierJobView, ctx: TwoTierContext): void;
  onJobCompleted?(job: TwoTierJobView, ctx: TwoTierContext): void;
  schedule(ctx: TwoTierContext): readonly TwoTierDecision[] | void;
}

/** A built-in's name, a policy object, or `{ module, export }` naming one (sweep cells in worker threads). */
export type TwoTierPolicySpec = TwoTierPolicy | TwoTierSchedulingPolicy | PolicyRef;

const EPS = 1e-9;

/**
 * The EASY family (Algorithms 1–3). Every pass: step 1 FCFS over the
 * not-fg jobs in arrival order; step 2 a reservation for the head and
 * backfilling into fg VMs; step 3 (two-tier only) SJF into bg VMs.
 * `bringBack` is how a bg job reaches the fg tier when it cannot swap in
 * place: KEASY kills and restarts it, MEASY migrates it, REASY leaves it.
 */
function easyFamily(name: TwoTierPolicy, background: boolean, bringBack: 'kill' | 'migrate' | null): TwoTierSchedulingPolicy {
  /** Deploy(j, K|R|M) of Algorithm 2, extended with MEASY's migration; false when REASY cannot move it. */
  function deploy(ctx: TwoTierContext, j: TwoTierJobView, avoid: Set<number> | null, via: 'fcfs' | 'backfill'): boolean {
    if (j.tier === 'queued') ctx.apply({ action: 'fg', job: j, avoid, via });
    else if (ctx.canSwap(j)) ctx.apply({ action: 'swap', job: j, via }); // keeps progress, no cost
    else if (bringBack === null) return false;
    else ctx.apply({ action: bringBack, job: j, avoid, via });
    return true;
  }

  /** Estimated fg duration if j were deployed now. */
  function durationIfDeployed(ctx: TwoTierContext, j: TwoTierJobView): number {
    if (j.tier === 'queued') return j.estimate;
    const inPlace = ctx.canSwap(j);
    const keeps = inPlace || bringBack === 'migrate';
    const base = ctx.remainingEstimates && keeps ? ctx.remainingEstimate(j) : j.estimate;
    return base + (!inPlace && bringBack === 'migrate' ? ctx.migrationCost : 0);
  }

  return {
    name,
    movesBackgroundJobs: bringBack !== null,
    schedule(ctx) {
      const now = ctx.now;
      // Step 1: FCFS over the not-fg jobs (queued and bg) in arrival order.
      // `idle` mirrors ctx.idleForeground, re-read after each decision (the backfill loop is the hot path).
      let idle = ctx.idleForeground;
      let waiting = ctx.waiting();
      for (let k = 0; k < waiting.length; k++) {
        const j = waiting[k];
        if (j.size > idle) break;
        deploy(ctx, j, null, 'fcfs');
        idle = ctx.idleForeground;
      }
      waiting = ctx.waiting();
      if (waiting.length > 0) {
        // Step 2: reservation for the head, then backfilling into fg VMs.
        const head = waiting[0];
        let shadow = Infinity;
        let extra = 0;
        let exclude: Set<number> | null = null;
        let promise = true;
        if (bringBack === null && head.tier === 'bg') {
          // REASY, bg head: it can only swap in place, so its reservation is on its own processors.
          const own = new Set(Array.from(head.processors));
          shadow = now;
          const blockers = new Set<TwoTierJobView>();
          for (const p of own) {
            const f = ctx.foregroundJob(p);
            if (f) {
              shadow = Math.max(shadow, f.estimatedEnd);
              blockers.add(f);
            }
          }
          if (ctx.reasyReservation === 'algorithm') {
            let freed = 0;
            for (const f of blockers) freed += f.size;
            extra = Math.max(0, idle + freed - head.size);
            promise = false;
          } else {
            exclude = own;
            extra = 0;
            for (let p = 0; p < ctx.machineSize; p++) if (ctx.foregroundJob(p) === null && !exclude.has(p)) extra++;
          }
        } else if (head.size <= idle) {
          // only reachable when REASY could not move a bg head: it needs its own processors
          shadow = now;
          extra = idle - head.size;
        } else {
          const ends = Array.from(ctx.foregroundJobs()).sort((a, b) => a.estimatedEnd - b.estimatedEnd || a.index - b.index);
          let avail = idle;
          for (let k = 0; k < ends.length; k++) {
            avail += ends[k].size;
            if (avail >= head.size) {
              // Every job with the same estimated end is free at the shadow time too.
              while (k + 1 < ends.length && ends[k + 1].estimatedEnd === ends[k].estimatedEnd) avail += ends[++k].size;
              shadow = Math.max(now, ends[k].estimatedEnd);
              extra = avail - head.size;
              break;
            }
          }
        }
        if (promise) ctx.apply({ action: 'reserve', job: head, shadow, extra });
        // Idle fg VMs off the bg head's processors: counted when first needed and after each start, not per candidate.
        let free = -1;
        for (let k = 1; k < waiting.length && idle > 0; k++) {
          const j = waiting[k];
          if (j.size > idle || j.tier === 'fg') continue;
          const endsBefore = now + durationIfDeployed(ctx, j) <= shadow + EPS;
          if (!endsBefore && j.size > extra) continue;
          if (!endsBefore && exclude) {
            // under the extra rule keep off the bg head's processors
            if (free < 0) {
              free = 0;
              for (let p = 0; p < ctx.machineSize; p++) if (ctx.foregroundJob(p) === null && !exclude.has(p)) free++;
            }
            if (j.size <= free && deploy(ctx, j, exclude, 'backfill')) {
              extra -= j.size;
              free = -1;
            }
          } else if (deploy(ctx, j, null, 'backfill')) {
            if (!endsBefore) extra -= j.size;
            free = -1;
          }
          idle = ctx.idleForeground;
        }
      }
      // Step 3: SJF into bg VMs.
      const queued = ctx.queued();
      if (background && queued.length > 0) {
        let eligible = ctx.eligibleBackground();
        for (let k = 0; k < queued.length && eligible > 0; ) {
          const j = queued[k];
          if (j.size <= eligible) {
            ctx.apply({ action: 'bg', job: j }); // removes j from `queued`
            eligible -= j.size;
          } else k++;
        }
      }
    },
  };
}

/** The four schedulers of the paper as policy objects. */
export const BUILTIN_TWO_TIER_POLICIES: Readonly<Record<TwoTierPolicy, TwoTierSchedulingPolicy>> = Object.freeze({
  easy: easyFamily('easy', false, null),
  keasy: easyFamily('keasy', true, 'kill'),
  reasy: easyFamily('reasy', true, null),
  measy: easyFamily('measy', true, 'migrate'),
});

/** True for one of the four built-in policy objects (their checks follow the global switch). */
export function isBuiltinTwoTierPolicy(p: TwoTierSchedulingPolicy): boolean {
  return (BUILTIN_TWO_TIER_POLICIES as Record<string, TwoTierSchedulingPolicy>)[p.name] === p;
}

/** The policy object of a spec; throws an InputError naming `source` when it is not usable. */
export function resolveTwoTierPolicy(spec: TwoTierPolicySpec, source = 'simulateTwoTier'): TwoTierSchedulingPolicy {
  if (typeof spec === 'string') {
    if (!(TWO_TIER_POLICIES as readonly string[]).includes(spec)) {
      throw new InputError(`${source}: unknown policy '${spec}' (${TWO_TIER_POLICIES.join(' | ')}, a policy object or { module, export })`, { source, field: 'policy' });
    }
    return BUILTIN_TWO_TIER_POLICIES[spec];
  }
  return eventPolicyObject<TwoTierSchedulingPolicy>(spec, source, { required: ['schedule'], optional: ['onJobSubmitted', 'onJobCompleted'] });
}
