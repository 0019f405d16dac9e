/**
 * Differential tests: simulateReservations against the plain per-PE timeline
 * reference (reservation-reference.ts), request by request (accepted?, start,
 * PEs), for the seven policies, on seeded request streams from the project's
 * generators and on hand-made tie cases. A failure names the first diverging
 * request (by arrival) and its arrival time.
 */
import { expect } from 'chai';
import {
  RESERVATION_POLICIES, ReservationPolicy, ReservationRequest, ReservationRules, lublinReservationRequests, simulateReservations, toReservationRequests,
} from '../../src/schedulers/reservation';
import { WorkloadJob } from '../../src/workloads/job';
import { Rng } from '../../src/util/random';
import { referenceReservations } from './reservation-reference';

/** "0-2,5" -> [0, 1, 2, 5]. */
function parsePes(text: string | undefined): number[] {
  if (!text) return [];
  return text.split(',').flatMap((part) => {
    const [a, b] = part.split('-').map(Number);
    return Array.from({ length: (b ?? a) - a + 1 }, (_, k) => a + k);
  });
}

/** Message naming the first request (by arrival) decided differently, or ''; with the number that agree. */
function divergence(requests: readonly ReservationRequest[], machineSize: number, policy: ReservationPolicy, rules: ReservationRules = {}): { message: string; agree: number } {
  const fast = simulateReservations(requests, { machineSize, policy, recordPes: true, ...rules });
  const ref = referenceReservations(requests, machineSize, policy, rules);
  const show = (accepted: boolean, start: number | undefined, pes: number[]) => (accepted ? `start ${start} on PEs [${pes.join(',')}]` : 'rejected');
  let first = -1;
  let differ = 0;
  for (let i = 0; i < requests.length; i++) {
    const f = fast[i];
    const r = ref[i];
    const same = f.accepted === r.accepted && (!f.accepted || (f.start === r.start && parsePes(f.allocatedPes).join() === (r.pes ?? []).join()));
    if (same) continue;
    differ++;
    if (first < 0 || requests[i].arrival < requests[first].arrival) first = i;
  }
  if (first < 0) return { message: '', agree: requests.length };
  const q = requests[first];
  const f = fast[first];
  const r = ref[first];
  return {
    agree: requests.length - differ,
    message:
      `${policy}: first divergence at t=${q.arrival}: request ${q.id} (ready ${q.ready}, duration ${q.duration}, deadline ${q.deadline}, ${q.pes} PEs) ` +
      `${show(f.accepted, f.start, parsePes(f.allocatedPes))} in simulateReservations but ${show(r.accepted, r.start, r.pes ?? [])} in the reference; ` +
      `${differ} of ${requests.length} requests differ`,
  };
}

const R = (id: number, arrival: number, ready: number, duration: number, deadline: number, pes: number): ReservationRequest => ({ id, arrival, ready, duration, deadline, pes });

describe('reservation differential: hand-made cases', () => {
  // Machine of 4. Request 1 holds PEs 0-1 on [10, 20); request 2 holds PEs 0-3 on [30, 40).
  const base = [R(1, 0, 10, 10, 20, 2), R(2, 0, 30, 10, 40, 4)];

  it('deadline exactly at an end, zero slack', () => {
    // Request 3: 2 PEs for 10 s, ready 0, deadline 10 (zero slack beyond [0, 10)): starts at 0 on PEs 0-1.
    // Request 4: 4 PEs for 10 s in [10, 30]: only [20, 30) fits, ending exactly when request 2 starts.
    const reqs = [...base, R(3, 1, 1, 9, 10, 2), R(4, 2, 10, 10, 30, 4), R(5, 3, 20, 11, 40, 1)];
    const ref = referenceReservations(reqs, 4, 'FF');
    expect(ref.map((r) => r.start)).to.deep.equal([10, 30, 1, 20, undefined]);
    for (const policy of RESERVATION_POLICIES) expect(divergence(reqs, 4, policy).message).to.equal('');
  });

  it('ties between candidate rectangles go to the earlier start', () => {
    // Request 3 (2 PEs, 5 s, window [0, 30]): candidates 0, 5, 20, 25 … with rectangles
    // of equal height (PEs 2-3 are free until 30 everywhere): PE_B and Du_W tie and take the earliest.
    const reqs = [...base, R(3, 1, 1, 5, 30, 2)];
    for (const policy of RESERVATION_POLICIES) expect(divergence(reqs, 4, policy).message).to.equal('');
    // Best fit by duration prefers the short gap [20, 30) on PEs 0-1 over [1, 10).
    expect(referenceReservations(reqs, 4, 'Du_B')[2].start).to.equal(1);
    expect(referenceReservations(reqs, 4, 'PE_W')[2].start).to.equal(1);
  });

  it('an end and an arrival at one instant: the end is gone first', () => {
    const reqs = [R(1, 0, 0, 10, 10, 4), R(2, 10, 10, 5, 15, 4), R(3, 10, 10, 5, 20, 1)];
    expect(referenceReservations(reqs, 4, 'FF').map((r) => r.start)).to.deep.equal([0, 10, 15]);
    for (const policy of RESERVATION_POLICIES) expect(divergence(reqs, 4, policy).message).to.equal('');
  });
});

describe('reservation differential: seeded request streams', () => {
  it('small machine, integer times full of ties: every request decided alike under the seven policies', () => {
    for (const seed of [1, 2, 3]) {
      const rng = new Rng(seed);
      const jobs: WorkloadJob[] = Array.from({ length: 300 }, (_, k) => ({ id: k + 1, submit: k * rng.int(0, 3), runtime: 5 * rng.int(1, 6), procs: rng.int(1, 8) }));
      const reqs = toReservationRequests(jobs, { seed, artimeFactor: 1, deadlineFactor: 1 }).map((q) => ({ ...q, ready: Math.round(q.ready), deadline: Math.round(q.deadline) }));
      for (const policy of RESERVATION_POLICIES) expect(divergence(reqs, 8, policy).message, `seed ${seed}`).to.equal('');
    }
  });

  it('Lublin/LANL-CM5 requests (1,024 PEs): every request decided alike under the seven policies', () => {
    for (const seed of [11, 12]) {
      const reqs = lublinReservationRequests({ jobs: 150, seed, arrivalFactor: 20 });
      for (const policy of RESERVATION_POLICIES) expect(divergence(reqs, 1024, policy).message, `seed ${seed}`).to.equal('');
    }
  });
});

describe('reservation differential: the two switches (open-rectangle end, PE selection)', () => {
  const stream = (seed: number): ReservationRequest[] => {
    const rng = new Rng(seed);
    const jobs: WorkloadJob[] = Array.from({ length: 200 }, (_, k) => ({ id: k + 1, submit: k * rng.int(0, 3), runtime: 5 * rng.int(1, 6), procs: rng.int(1, 8) }));
    return toReservationRequests(jobs, { seed, artimeFactor: 2, deadlineFactor: 2 }).map((q) => ({ ...q, ready: Math.round(q.ready), deadline: Math.round(q.deadline) }));
  };
  for (const rules of [{ openRectangleEnd: 'last-slot' }, { peSelection: 'random', peSeed: 7 }, { openRectangleEnd: 'last-slot', peSelection: 'random', peSeed: 3 }] as ReservationRules[]) {
    it(`${JSON.stringify(rules)}: every request decided alike under the seven policies`, () => {
      for (const seed of [4, 5]) {
        const reqs = stream(seed);
        for (const policy of RESERVATION_POLICIES) expect(divergence(reqs, 8, policy, rules).message, `seed ${seed}`).to.equal('');
      }
    });
  }

  it('the switches change decisions (the comparison above is not vacuous)', () => {
    const reqs = stream(4);
    const starts = (rules: ReservationRules) => simulateReservations(reqs, { machineSize: 8, policy: 'Du_B', recordPes: true, ...rules }).map((o) => `${o.start}@${o.allocatedPes}`).join();
    expect(starts({ openRectangleEnd: 'last-slot' })).to.not.equal(starts({}));
    expect(starts({ peSelection: 'random', peSeed: 7 })).to.not.equal(starts({}));
  });
});
