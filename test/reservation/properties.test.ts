import { expect } from 'chai';
import * as fc from 'fast-check';
import {
  AvailabilityProfile,
  AvailabilityRectangle,
  RESERVATION_POLICIES,
  ReservationPolicy,
  ReservationRequest,
  chooseRectangle,
  parsePeRanges,
  peSetOf,
  simulateReservations,
} from '../../src/schedulers/reservation';

const N = 12;

/** Random allocations [start, end) on random PE subsets of an N-PE machine. */
const allocArb = fc.record({
  start: fc.integer({ min: 0, max: 60 }),
  length: fc.integer({ min: 1, max: 30 }),
  pes: fc.uniqueArray(fc.integer({ min: 0, max: N - 1 }), { minLength: 1, maxLength: 5 }),
});

describe('reservation: properties of the availability structure', () => {
  it('adding then deleting an allocation restores the records exactly (and a refused add changes nothing)', () => {
    fc.assert(
      fc.property(fc.array(allocArb, { maxLength: 14 }), allocArb, fc.constantFrom(4, 128), (base, extra, blockSize) => {
        const p = new AvailabilityProfile(N, { now: 0, blockSize });
        for (const a of base) {
          try {
            p.addAllocation(a.start, a.start + a.length, peSetOf(N, a.pes));
          } catch {
            /* overlaps an earlier one: skip it */
          }
        }
        p.checkInvariants();
        const before = p.records();
        const set = peSetOf(N, extra.pes);
        let added = true;
        try {
          p.addAllocation(extra.start, extra.start + extra.length, set);
        } catch {
          added = false;
        }
        if (added) {
          p.checkInvariants();
          p.deleteAllocation(extra.start, extra.start + extra.length, set);
        }
        p.checkInvariants();
        expect(p.records()).to.deep.equal(before);
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------
// An independent reference: allocations kept as a plain list, candidate
// start times and rectangles computed from the definitions directly.

interface Alloc {
  start: number;
  end: number;
  pes: Set<number>;
}

function busyOver(allocs: Alloc[], a: number, b: number): Set<number> {
  const s = new Set<number>();
  for (const x of allocs) if (x.start < b && x.end > a) x.pes.forEach((p) => s.add(p));
  return s;
}

function busyAt(allocs: Alloc[], t: number): Set<number> {
  return busyOver(allocs, t, t + 1e-9);
}

function sameSet(a: Set<number>, b: Set<number>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}

function referenceRun(requests: ReservationRequest[], policy: ReservationPolicy): { accepted: boolean; start?: number; pes?: number[] }[] {
  const allocs: Alloc[] = [];
  const order = requests.map((r, i) => i).sort((i, j) => requests[i].arrival - requests[j].arrival || i - j);
  const out: { accepted: boolean; start?: number; pes?: number[] }[] = new Array(requests.length);
  for (const i of order) {
    const r = requests[i];
    const now = r.arrival;
    // Change points of the busy step function after now (the structure's record times).
    const bounds = new Set<number>();
    for (const a of allocs) [a.start, a.end].forEach((b) => b > now && bounds.add(b));
    const slots = [...bounds].filter((c) => !sameSet(busyAt(allocs, c), busyOver(allocs, c - 1e-9, c)));
    const slotTimes = [r.ready, r.deadline, ...slots.filter((s) => s >= r.ready && s <= r.deadline)];
    const latest = r.deadline - r.duration;
    const cands = [...new Set(slotTimes.flatMap((s) => [s, s - r.duration]))].filter((s) => s >= r.ready && s <= latest).sort((a, b) => a - b);
    const rects: (AvailabilityRectangle & { free: number[] })[] = [];
    for (const ts of cands) {
      const busy = busyOver(allocs, ts, ts + r.duration);
      const free = Array.from({ length: N }, (_, k) => k).filter((k) => !busy.has(k));
      if (free.length < r.pes) continue;
      const uses = allocs.filter((a) => [...a.pes].some((p) => !busy.has(p)));
      const begin = Math.max(now, ...uses.filter((a) => a.end <= ts).map((a) => a.end));
      const end = Math.min(Infinity, ...uses.filter((a) => a.start >= ts + r.duration).map((a) => a.start));
      rects.push({ start: ts, begin, end, freePes: free.length, free });
    }
    const chosen = chooseRectangle(policy, rects) as (typeof rects)[number] | undefined;
    if (!chosen) {
      out[i] = { accepted: false };
      continue;
    }
    const pes = chosen.free.slice(0, r.pes);
    allocs.push({ start: chosen.start, end: chosen.start + r.duration, pes: new Set(pes) });
    out[i] = { accepted: true, start: chosen.start, pes };
  }
  return out;
}

/** Random AR request streams on an N-PE machine (integer times). */
const requestsArb = fc
  .array(
    fc.record({
      gap: fc.integer({ min: 0, max: 8 }),
      lead: fc.integer({ min: 0, max: 15 }),
      duration: fc.integer({ min: 1, max: 20 }),
      slack: fc.integer({ min: 0, max: 25 }),
      pes: fc.integer({ min: 1, max: N }),
    }),
    { minLength: 1, maxLength: 30 },
  )
  .map((rows) => {
    let t = 0;
    return rows.map((x, id): ReservationRequest => {
      t += x.gap;
      return { id, arrival: t, ready: t + x.lead, duration: x.duration, deadline: t + x.lead + x.duration + x.slack, pes: x.pes };
    });
  });

describe('reservation: properties of online admission', () => {
  it('no two accepted reservations share a PE at the same time; every accepted job runs within [ready, deadline]', () => {
    fc.assert(
      fc.property(requestsArb, fc.constantFrom(...RESERVATION_POLICIES), (requests, policy) => {
        const out = simulateReservations(requests, { machineSize: N, policy, recordPes: true });
        const acc = out.filter((o) => o.accepted);
        for (const o of acc) {
          expect(o.start!).to.be.at.least(o.ready);
          expect(o.end!).to.be.at.most(o.deadline);
          expect(o.end! - o.start!).to.equal(o.duration);
          expect(parsePeRanges(o.allocatedPes!)).to.have.length(o.pes);
        }
        for (let i = 0; i < acc.length; i++) {
          for (let j = i + 1; j < acc.length; j++) {
            const a = acc[i];
            const b = acc[j];
            if (a.start! < b.end! && b.start! < a.end!) {
              const pa = new Set(parsePeRanges(a.allocatedPes!));
              const shared = parsePeRanges(b.allocatedPes!).filter((p) => pa.has(p));
              expect(shared, `jobs ${a.id} and ${b.id} overlap in time`).to.deep.equal([]);
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('every policy decides exactly as a brute-force reference built from the definitions', () => {
    fc.assert(
      fc.property(requestsArb, fc.constantFrom(...RESERVATION_POLICIES), fc.constantFrom(4, 128), (requests, policy, blockSize) => {
        const out = simulateReservations(requests, { machineSize: N, policy, recordPes: true, blockSize });
        const ref = referenceRun(requests, policy);
        out.forEach((o, i) => {
          expect(o.accepted, `request ${i} accepted`).to.equal(ref[i].accepted);
          if (o.accepted) {
            expect(o.start, `request ${i} start`).to.equal(ref[i].start);
            expect(parsePeRanges(o.allocatedPes!), `request ${i} PEs`).to.deep.equal(ref[i].pes);
          }
        });
      }),
      { numRuns: 300 },
    );
  });
});
