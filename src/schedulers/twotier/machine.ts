/**
 * A two-tier machine on the event core: arrivals, completions, one
 * scheduling pass per instant (after all arrivals and completions of that
 * instant) in which the policy decides, and, with `timeSlice > 0`, literal
 * time slices (progress += rate · slice each tick; arrivals and completions
 * seen at tick boundaries) so the two ways of advancing time can be compared.
 * The state, the decisions and the rates are in state.ts, decisions.ts,
 * placement.ts and rates.ts.
 */
import { Simulation } from '../../engine/events';
import { decisionContext } from './decisions';
import { releaseBackground } from './placement';
import { flush, fold } from './rates';
import { DONE, EPS, FG, SimJob, TwoTierCounters, TwoTierMachineConfig, TwoTierState, procsOf } from './state';
import type { TwoTierSchedulingPolicy } from './policies';

/**
 * Build the machine for `all` (in arrival order) under `policy`, schedule
 * every arrival on `sim`, and return the counters (filled in as `sim` runs).
 */
export function twoTierMachine(sim: Simulation, all: SimJob[], policy: TwoTierSchedulingPolicy, cfg: TwoTierMachineConfig): TwoTierCounters {
  const st = new TwoTierState(sim, all, policy.name, cfg);
  const slice = cfg.timeSlice;
  const context = decisionContext(st, policy);
  let passPending = false;
  let tickPending = false;

  function requestPass(): void {
    if (!passPending) {
      passPending = true;
      sim.at(sim.now, pass, { priority: 9, kind: 'schedule' });
    }
  }

  function complete(j: SimJob): void {
    fold(st, j);
    j.ev = undefined;
    if (cfg.checks) {
      // Work conserved: the job finishes with exactly its work done (time slices may overshoot, never undershoot).
      const tol = 1e-6 + 1e-9 * j.work;
      if (j.progress < j.work - tol || (slice <= 0 && j.progress > j.work + tol)) {
        throw st.broken('twotier/work', `finished with ${j.progress} s of progress for ${j.work} s of work`, j);
      }
      // Bounded slowdown >= 1: no process runs faster than on a dedicated processor.
      if (sim.now - j.job.submit < j.work - tol) throw st.broken('twotier/slowdown', `response ${sim.now - j.job.submit} s is shorter than its run time ${j.work} s`, j);
      if (j.tier === FG && sim.now > j.estimatedEnd + EPS) st.overruns++;
    }
    j.progress = j.work;
    const tier = j.tier === FG ? 'fg' : 'bg';
    if (j.tier === FG) {
      for (let k = 0; k < j.size; k++) {
        const p = j.processors[k];
        st.fgJob[p] = null;
        st.fgUse[p] = 0;
        st.idleFg++;
        st.markDirty(st.bgJob[p]);
      }
      st.fgSet.delete(j);
    } else releaseBackground(st, j);
    st.running.delete(j);
    j.tier = DONE;
    j.finish = sim.now;
    st.counters.done++;
    st.record(() => ({ time: sim.now, action: 'finish', job: j.job.id, processors: procsOf(j), tier }));
    policy.onJobCompleted?.(j, context);
    requestPass();
  }

  /** One scheduling pass: the policy decides, then rates and completion events are brought up to date. */
  function pass(): void {
    passPending = false;
    const decisions = policy.schedule(context);
    if (decisions) for (const d of decisions) context.apply(d);
    if (cfg.checks) st.checkQueues();
    flush(st, complete);
    ensureTick();
  }

  // ---- time slices ------------------------------------------------------------------
  let tickIndex = 0;
  function ensureTick(): void {
    if (slice <= 0 || tickPending || st.running.size === 0) return;
    tickIndex = Math.max(tickIndex, Math.floor(sim.now / slice + EPS)) + 1;
    tickPending = true;
    sim.at(tickIndex * slice, tick, { priority: 0, kind: 'tick' });
  }
  function tick(): void {
    tickPending = false;
    const finished: SimJob[] = [];
    for (const j of st.running) {
      fold(st, j);
      if (j.tier === FG && j.pausedUntil > -Infinity && sim.now >= j.pausedUntil - EPS && j.rate === 0) st.markDirty(j);
      if (j.progress >= j.work - 1e-7) finished.push(j);
    }
    finished.sort((a, b) => a.index - b.index);
    for (const j of finished) complete(j);
    flush(st, complete);
    ensureTick();
  }

  // ---- arrivals ---------------------------------------------------------------------
  for (const j of all) {
    const t = slice > 0 ? Math.ceil(j.job.submit / slice - EPS) * slice : j.job.submit;
    sim.at(
      Math.max(0, t),
      () => {
        st.enqueue(j);
        policy.onJobSubmitted?.(j, context);
        requestPass();
      },
      { priority: 1, kind: 'arrival' },
    );
  }
  return st.counters;
}
