/**
 * The policy's side of a two-tier machine: the context it queries and the
 * decisions it takes through `apply`, each checked (no start before
 * submission, no move of a job that is not running in the bg tier, no
 * decision about a job outside the workload) and carried out by placement.ts.
 */
import { InvariantError } from '../../util/invariants';
import { dispatchBackground, dispatchForeground, moveToForeground, swap } from './placement';
import { BG, PENDING, QUEUED, SimJob, TwoTierState } from './state';
import type { TwoTierContext, TwoTierDecision, TwoTierJobView, TwoTierSchedulingPolicy } from './policies';

const asSet = (avoid: ReadonlySet<number> | readonly number[] | null | undefined): ReadonlySet<number> | null =>
  avoid === null || avoid === undefined ? null : avoid instanceof Set ? avoid : new Set(avoid as readonly number[]);

/** The context `policy` sees of the machine `st`, with `apply` carrying out its decisions. */
export function decisionContext(st: TwoTierState, policy: TwoTierSchedulingPolicy): TwoTierContext {
  const { sim, all, name, cfg } = st;
  let byId: Map<number, SimJob> | undefined;

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

  function apply(d: TwoTierDecision): void {
    const j = jobOf(d.job, d.action);
    // No start before submission, no move of a job that is not running in the bg tier.
    if (j.tier === PENDING) throw st.broken('twotier/release', `'${d.action}' at ${sim.now}, before the job's submission at ${j.job.submit}`, j);
    switch (d.action) {
      case 'fg':
      case 'bg':
        if (j.tier !== QUEUED) throw st.broken('twotier/decision', `'${d.action}' for a job that is not queued (it is ${j.tier})`, j);
        if (d.action === 'bg') dispatchBackground(st, j, policy);
        else {
          st.removeQueued(j);
          dispatchForeground(st, j, asSet(d.avoid), d.via ?? 'fcfs');
        }
        return;
      case 'swap':
      case 'kill':
      case 'migrate':
        if (j.tier !== BG) throw st.broken('twotier/migration', `'${d.action}' for a job that is not running in the bg tier (it is ${j.tier})`, j);
        if (d.action === 'swap') {
          if (!st.inPlace(j)) throw st.broken('twotier/capacity', "'swap' while a fg VM of the job's processors is taken", j);
          swap(st, j, d.via ?? 'fcfs');
        } else moveToForeground(st, j, d.action === 'kill', asSet(d.avoid), d.via ?? 'fcfs');
        return;
      case 'reserve':
        st.record(() => ({ time: sim.now, action: 'reserve', job: j.job.id, processors: [], shadow: d.shadow, extra: d.extra }));
        if (cfg.checks && !st.promised.has(j)) st.promised.set(j, { shadow: d.shadow, overruns: st.overruns });
        return;
      default:
        throw new InvariantError('twotier/decision', `${name}: unknown action '${String((d as { action: unknown }).action)}'`, { time: sim.now });
    }
  }

  return {
    get now() {
      return sim.now;
    },
    machineSize: st.P,
    get idleForeground() {
      return st.idleFg;
    },
    migrationCost: cfg.migrationCost,
    remainingEstimates: cfg.remainingEstimates,
    reasyReservation: cfg.reasyReservation,
    waiting() {
      st.compactWaiting();
      return st.waiting;
    },
    queued: () => st.queued,
    foregroundJobs: () => st.fgSet,
    foregroundJob: (p) => st.fgJob[p],
    eligibleBackground() {
      let eligible = 0;
      for (let p = 0; p < st.P; p++) if (st.bgEligible(p)) eligible++;
      return eligible;
    },
    canSwap: (j) => j.tier === BG && st.inPlace(j as SimJob),
    remainingEstimate(view) {
      const j = view as SimJob;
      return Math.max(0, j.estimate - j.progress - j.rate * (sim.now - j.last));
    },
    apply,
  };
}
