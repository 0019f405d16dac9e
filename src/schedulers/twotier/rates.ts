/**
 * Progress of the running jobs of a two-tier machine. Between two events
 * every process's rate is constant (rates depend only on who sits in which
 * VM), so a job's progress is piecewise linear and its completion time is
 * exact: when a job's surroundings change it is marked dirty
 * (TwoTierState.markDirty), and `flush` folds its progress up to now,
 * recomputes its rate and moves its completion event. With time slices
 * (`timeSlice > 0`, machine.ts) progress is integrated tick by tick instead
 * and no completion events are kept.
 */
import { InputError } from '../../util/errors';
import { backgroundRate, foregroundRate } from './progress';
import { DONE, EPS, FG, QUEUED, SimJob, TwoTierState } from './state';

const SRC = 'simulateTwoTier';

/** Bring a job's progress up to now at its current rate. */
export function fold(st: TwoTierState, j: SimJob): void {
  const now = st.sim.now;
  if (now > j.last) {
    j.progress += j.rate * (now - j.last);
    j.last = now;
  }
}

/** Current rate of a running job: its slowest process. */
function rateOf(st: TwoTierState, j: SimJob): number {
  const { sim, fgJob, bgJob, fgUse } = st;
  const bgOverride = st.cfg.backgroundRate;
  if (j.tier === FG) {
    if (sim.now < j.pausedUntil - EPS) return 0;
    for (let k = 0; k < j.size; k++) if (bgJob[j.processors[k]] !== null) return foregroundRate(j.loss, true);
    return 1;
  }
  const bgModel = st.cfg.backgroundModel ?? 'demand';
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

/** Recompute the rates of jobs whose surroundings changed; move their completion events (`complete` runs at each). */
export function flush(st: TwoTierState, complete: (j: SimJob) => void): void {
  const { sim, dirty } = st;
  const slice = st.cfg.timeSlice;
  for (const j of dirty) {
    j.dirty = false;
    if (j.tier === DONE || j.tier === QUEUED) continue;
    fold(st, j);
    const r = rateOf(st, j);
    if (st.cfg.checks && !(r >= 0 && r <= 1 + EPS)) throw st.broken('twotier/rate', `progress rate ${r} outside [0, 1]`, j);
    const paused = j.tier === FG && sim.now < j.pausedUntil - EPS;
    if (r === j.rate && (j.ev !== undefined || slice > 0) && !paused) continue;
    j.rate = r;
    if (slice > 0) {
      if (paused) scheduleResume(st, j, complete);
      continue;
    }
    sim.cancel(j.ev);
    j.ev = undefined;
    if (paused) {
      scheduleResume(st, j, complete);
      continue;
    }
    const remaining = j.work - j.progress;
    if (remaining <= EPS) j.ev = sim.at(sim.now, () => complete(j), { priority: 0, kind: 'finish' });
    else if (r > 0) j.ev = sim.at(sim.now + remaining / r, () => complete(j), { priority: 0, kind: 'finish' });
  }
  dirty.length = 0;
}

/** A paused (migrating) fg job gets its rate back when the pause ends. */
function scheduleResume(st: TwoTierState, j: SimJob, complete: (j: SimJob) => void): void {
  if (st.cfg.timeSlice > 0 || j.resumeAt === j.pausedUntil) return; // ticks look at pausedUntil
  j.resumeAt = j.pausedUntil;
  st.sim.at(
    j.pausedUntil,
    () => {
      st.markDirty(j);
      flush(st, complete);
    },
    { priority: 0, kind: 'resume' },
  );
}
