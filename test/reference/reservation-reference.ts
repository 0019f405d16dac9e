/**
 * A second, deliberately plain implementation of online advance reservation
 * with deadlines and its seven placement policies (Li et al., sections 4–6),
 * to check src/schedulers/reservation request by request. It shares nothing
 * with the slot list (AvailabilityProfile, bitsets, record list) but the
 * request type: each PE keeps a plain array of busy intervals, and every
 * question is answered by scanning them. Slow on purpose.
 *
 * Definitions:
 *  - Requests are handled in arrival order (ties: input order); reservations
 *    whose end is at or before the arrival are gone first. Accepted
 *    reservations never move.
 *  - Slot times: the instants at which the set of busy PEs changes.
 *  - Candidate start times: ready, deadline − duration, every slot time s in
 *    [ready, deadline − duration] and every s − duration for a slot time s in
 *    [ready + duration, deadline].
 *  - A candidate t is feasible when at least n_pe PEs are free during all of
 *    [t, t + duration). Its maximum availability rectangle: those free PEs
 *    (height), from the last instant <= t at which one of them became free
 *    (never before the arrival, i.e. the present) to the first instant
 *    >= t + duration at which one of them becomes busy (Infinity if none).
 *  - Policies (smaller key wins, ties to the earlier start): FF the earliest
 *    feasible start; PE_B/PE_W fewest/most free PEs; Du_B/Du_W
 *    shortest/longest rectangle; PEDu_B/PEDu_W smallest/largest PEs x length.
 *  - The job takes the lowest-numbered free PEs of the chosen rectangle.
 *
 * The two switches (ReservationRules): with openRectangleEnd 'last-slot' an
 * end of Infinity becomes the latest slot time, but never before t + duration;
 * with peSelection 'random' the job takes PEs drawn from the free ones in
 * ascending order by a partial Fisher–Yates shuffle (one rng.int(i, n − 1)
 * per PE), the rng seeded with peSeed.
 */
import { ReservationPolicy, ReservationRequest, ReservationRules } from '../../src/schedulers/reservation';
import { Rng } from '../../src/util/random';

export interface ReferenceReservation {
  id: number;
  accepted: boolean;
  start?: number;
  /** Reserved PE ids, ascending. */
  pes?: number[];
}

interface Busy {
  s: number;
  e: number;
}

/** Rank of a rectangle under a policy: smaller is better. */
function key(policy: ReservationPolicy, height: number, length: number): number {
  if (policy === 'FF') return 0;
  if (policy === 'PE_B') return height;
  if (policy === 'PE_W') return -height;
  if (policy === 'Du_B') return length;
  if (policy === 'Du_W') return -length;
  if (policy === 'PEDu_B') return height * length;
  return -(height * length);
}

export function referenceReservations(requests: readonly ReservationRequest[], machineSize: number, policy: ReservationPolicy, rules: ReservationRules = {}): ReferenceReservation[] {
  const rng = rules.peSelection === 'random' ? new Rng(rules.peSeed ?? 1) : undefined;
  const timeline: Busy[][] = Array.from({ length: machineSize }, () => []);
  const order = requests.map((_, i) => i).sort((a, b) => requests[a].arrival - requests[b].arrival || a - b);
  const out: ReferenceReservation[] = new Array(requests.length);
  const isBusy = (p: number, t: number) => timeline[p].some((b) => b.s <= t && t < b.e);
  const wasBusy = (p: number, t: number) => timeline[p].some((b) => b.s < t && t <= b.e);
  const freeThroughout = (p: number, s: number, e: number) => timeline[p].every((b) => b.e <= s || b.s >= e);

  for (const i of order) {
    const r = requests[i];
    const now = r.arrival;
    for (let p = 0; p < machineSize; p++) timeline[p] = timeline[p].filter((b) => b.e > now);

    const slots = new Set<number>();
    for (const t of new Set(timeline.flat().flatMap((b) => [b.s, b.e]))) {
      for (let p = 0; p < machineSize; p++) {
        if (isBusy(p, t) !== wasBusy(p, t)) {
          slots.add(t);
          break;
        }
      }
    }
    const latest = r.deadline - r.duration;
    const cands = new Set<number>([r.ready, latest]);
    for (const s of slots) {
      cands.add(s);
      cands.add(s - r.duration);
    }
    const starts = [...cands].filter((t) => t >= r.ready && t <= latest).sort((a, b) => a - b);

    let best: { start: number; free: number[]; k: number } | undefined;
    for (const t of starts) {
      const free: number[] = [];
      for (let p = 0; p < machineSize; p++) if (freeThroughout(p, t, t + r.duration)) free.push(p);
      if (free.length < r.pes) continue;
      let begin = now;
      let end = Infinity;
      for (const p of free) {
        for (const b of timeline[p]) {
          if (b.e <= t) begin = Math.max(begin, b.e);
          if (b.s >= t + r.duration) end = Math.min(end, b.s);
        }
      }
      if (end === Infinity && rules.openRectangleEnd === 'last-slot') end = Math.max(t + r.duration, ...slots);
      const k = key(policy, free.length, end - begin);
      if (!best || k < best.k) best = { start: t, free, k };
      if (policy === 'FF') break;
    }
    if (!best) {
      out[i] = { id: r.id, accepted: false };
      continue;
    }
    let pes = best.free.slice(0, r.pes);
    if (rng) {
      const ids = best.free.slice();
      for (let k = 0; k < r.pes; k++) {
        const j = rng.int(k, ids.length - 1);
        [ids[k], ids[j]] = [ids[j], ids[k]];
      }
      pes = ids.slice(0, r.pes).sort((x, y) => x - y);
    }
    for (const p of pes) timeline[p].push({ s: best.start, e: best.start + r.duration });
    out[i] = { id: r.id, accepted: true, start: best.start, pes };
  }
  return out;
}
