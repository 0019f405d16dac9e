/**
 * The mechanics of each decision on a two-tier machine: Dispatch to fg or bg
 * VMs (the highest-usage process onto the VM with the least co-located
 * usage; ties to the highest processor index), swapping a bg job into its
 * idle fg VMs, and bringing it to fg VMs elsewhere by a kill (KEASY) or a
 * migration (MEASY). Each marks the jobs whose rates change (rates.ts), logs
 * the action and, with checks on, verifies the placement.
 */
import { fold } from './rates';
import { BG, FG, procsOf, SimJob, TwoTierState } from './state';
import type { TwoTierSchedulingPolicy } from './policies';

type Via = 'fcfs' | 'backfill';

/** Positions of the usage-0 candidates found by leastFirst's scan (reused: no allocation per dispatch). */
const ZERO_SCAN = new Int32Array(1024);

/**
 * Order the first `k` entries of `cand` (processors) as a full sort by (usage
 * ascending, processor descending) would: Dispatch takes only those. A small
 * job (most of them) selects its k in k passes instead of sorting the machine.
 * Usages are CPU shares (≥ 0), so when `cand` comes in descending processor
 * order (as both callers build it) and holds k processors of usage 0, the
 * first k of those are the answer (the common case: idle VMs).
 */
function leastFirst(cand: number[], usage: (p: number) => number, k: number): void {
  const n = cand.length;
  if (k <= ZERO_SCAN.length) {
    let z = 0;
    for (let i = 0; i < n && z < k; i++) if (usage(cand[i]) === 0) ZERO_SCAN[z++] = i;
    if (z === k) {
      for (let t = 0; t < k; t++) {
        const i = ZERO_SCAN[t];
        const c = cand[t];
        cand[t] = cand[i];
        cand[i] = c;
      }
      return;
    }
  }
  const key = new Float64Array(n);
  for (let i = 0; i < n; i++) key[i] = usage(cand[i]);
  const before = (a: number, b: number) => key[a] < key[b] || (key[a] === key[b] && cand[a] > cand[b]);
  if (k * 8 > n) {
    const idx = Array.from({ length: n }, (_, i) => i).sort((a, b) => key[a] - key[b] || cand[b] - cand[a]);
    const sorted = idx.map((i) => cand[i]);
    for (let i = 0; i < n; i++) cand[i] = sorted[i];
    return;
  }
  for (let i = 0; i < k && i < n; i++) {
    let m = i;
    for (let r = i + 1; r < n; r++) if (before(r, m)) m = r;
    if (m !== i) {
      const c = cand[i], u = key[i];
      cand[i] = cand[m]; key[i] = key[m];
      cand[m] = c; key[m] = u;
    }
  }
}

/** Free a job's bg VMs. */
export function releaseBackground(st: TwoTierState, j: SimJob): void {
  for (let k = 0; k < j.size; k++) {
    const p = j.processors[k];
    st.bgJob[p] = null;
    st.bgUse[p] = 0;
    st.markDirty(st.fgJob[p]);
  }
}

/** Dispatch(FG, j): highest-usage process onto the idle fg VM with the lowest bg usage. */
export function dispatchForeground(st: TwoTierState, j: SimJob, exclude: ReadonlySet<number> | null, via: Via): void {
  const { fgJob, fgUse, bgJob } = st;
  const checks = st.cfg.checks;
  const cand: number[] = [];
  for (let p = st.P - 1; p >= 0; p--) if (fgJob[p] === null && !(exclude && exclude.has(p))) cand.push(p);
  if (cand.length < j.size) throw st.broken('twotier/capacity', `${cand.length} idle fg VMs for a job of ${j.size} processes`, j);
  if (st.cfg.knowUsage) leastFirst(cand, (p) => st.viewBg(p), j.size);
  for (let k = 0; k < j.size; k++) {
    const proc = j.order[k];
    const p = cand[k];
    if (checks && fgJob[p] !== null) throw st.broken('twotier/capacity', `fg VM of processor ${p} already holds job ${fgJob[p]!.job.id}`, j, p);
    j.processors[proc] = p;
    fgJob[p] = j;
    fgUse[p] = j.use[proc];
    st.idleFg--;
    st.markDirty(bgJob[p]);
  }
  enterForeground(st, j, via, 0);
  if (checks) st.checkPlacement(j, 'fg');
}

/** The job now runs in fg VMs (after `pause` s): its fg start, estimated end and promise check. */
function enterForeground(st: TwoTierState, j: SimJob, via: Via, pause: number): void {
  const now = st.sim.now;
  if (st.cfg.checks) {
    // A promised start (a 'reserve' decision): the job reaches the fg tier by its first shadow time,
    // as long as every fg job ended by its estimated end (fg slowdown or time slices can break that).
    const p = st.promised.get(j);
    if (p && p.overruns === st.overruns && now > p.shadow + 1e-6 * Math.max(1, Math.abs(p.shadow))) {
      throw st.broken('twotier/reservation', `reached the fg tier at ${now}, after the shadow time ${p.shadow} reserved for it`, j);
    }
  }
  j.tier = FG;
  j.fgStart = now;
  j.pausedUntil = now + pause;
  if (Number.isNaN(j.start)) j.start = now;
  j.estimatedEnd = now + pause + (st.cfg.remainingEstimates ? Math.max(0, j.estimate - j.progress) : j.estimate);
  st.fgSet.add(j);
  st.running.add(j);
  st.markDirty(j);
  st.record(() => ({ time: now, action: 'fg', job: j.job.id, processors: procsOf(j), via }));
}

/** Swap the CPU priorities of a bg job's bg and fg VMs: keeps progress, no cost. */
export function swap(st: TwoTierState, j: SimJob, via: Via): void {
  const { fgJob, bgJob, fgUse, bgUse } = st;
  const checks = st.cfg.checks;
  fold(st, j);
  for (let k = 0; k < j.size; k++) {
    const p = j.processors[k];
    if (checks && (fgJob[p] !== null || bgJob[p] !== j)) throw st.broken('twotier/capacity', `swap onto processor ${p}, whose fg VM is not free`, j, p);
    bgJob[p] = null;
    bgUse[p] = 0;
    fgJob[p] = j;
    fgUse[p] = j.use[k];
    st.idleFg--;
  }
  j.swaps++;
  st.counters.swaps++;
  st.record(() => ({ time: st.sim.now, action: 'swap', job: j.job.id, processors: procsOf(j) }));
  enterForeground(st, j, via, 0);
  if (checks) st.checkPlacement(j, 'fg');
}

/** KEASY: the bg job loses its progress and restarts in fg VMs; MEASY: it moves there keeping it, paused `migrationCost` s. */
export function moveToForeground(st: TwoTierState, j: SimJob, kill: boolean, exclude: ReadonlySet<number> | null, via: Via): void {
  fold(st, j);
  releaseBackground(st, j);
  if (kill) {
    j.killedWork += j.progress * j.size;
    j.progress = 0;
    j.kills++;
    st.counters.kills++;
    st.record(() => ({ time: st.sim.now, action: 'kill', job: j.job.id, processors: procsOf(j) }));
    dispatchForeground(st, j, exclude, via);
  } else {
    j.migrations++;
    st.counters.migrations++;
    st.record(() => ({ time: st.sim.now, action: 'migrate', job: j.job.id, processors: procsOf(j) }));
    dispatchForeground(st, j, exclude, via);
    // the migration pauses the job for `migrationCost` seconds on its new processors
    j.pausedUntil = st.sim.now + st.cfg.migrationCost;
    j.estimatedEnd += st.cfg.migrationCost;
  }
}

/** Dispatch(BG, j): highest-usage process onto the eligible bg VM with the lowest fg usage. */
export function dispatchBackground(st: TwoTierState, j: SimJob, policy: TwoTierSchedulingPolicy): void {
  const { bgJob, bgUse, fgJob, sim } = st;
  const checks = st.cfg.checks;
  const cand: number[] = [];
  for (let p = st.P - 1; p >= 0; p--) if (st.bgEligible(p)) cand.push(p);
  if (st.cfg.knowUsage) leastFirst(cand, (p) => st.viewFg(p), j.size);
  st.removeQueued(j);
  if (checks && cand.length < j.size) throw st.broken('twotier/capacity', `${cand.length} eligible bg VMs for ${j.size} processes`, j);
  for (let k = 0; k < j.size; k++) {
    const proc = j.order[k];
    const p = cand[k];
    if (checks && !st.bgEligible(p)) throw st.broken('twotier/capacity', `bg VM of processor ${p} is taken or its fg process uses more than the threshold`, j, p);
    j.processors[proc] = p;
    bgJob[p] = j;
    bgUse[p] = j.use[proc];
    st.markDirty(fgJob[p]);
  }
  j.tier = BG;
  if (checks) {
    st.checkPlacement(j, 'bg');
    // A job that cannot leave its bg processors gets a new reservation there (Algorithm 3), so an earlier promise no longer applies.
    if (!policy.movesBackgroundJobs) st.promised.delete(j);
  }
  j.everBg = true;
  if (Number.isNaN(j.start)) j.start = sim.now;
  j.last = sim.now;
  j.rate = 0;
  st.running.add(j);
  st.markDirty(j);
  st.record(() => ({ time: sim.now, action: 'bg', job: j.job.id, processors: procsOf(j) }));
}
