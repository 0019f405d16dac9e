/**
 * The two switches of ReservationRules on hand-made cases: what each does
 * against the default (an open rectangle ends at +∞; the lowest-numbered PEs).
 */
import { expect } from 'chai';
import { AvailabilityProfile, peCount, peIds, peSetOf, peTakeRandom, simulateReservations, parsePeRanges, lublinReservationRequests } from '../../src/schedulers/reservation';
import { Rng } from '../../src/util/random';
import { InputError } from '../../src/util/errors';

/** 4 PEs; PEs 0-1 reserved on [0, 10): the list is {0: 0-1} {10: ø}. */
function profile(rules = {}): AvailabilityProfile {
  const p = new AvailabilityProfile(4, { now: 0, ...rules });
  p.addAllocation(0, 10, peSetOf(4, [0, 1]));
  return p;
}

describe('reservation rules: the end of an open rectangle', () => {
  it("default: +∞; 'last-slot': the last record's time, never before the candidate's own end", () => {
    expect(profile().availabilityRectangle(0, 5, 2)).to.deep.equal({ start: 0, begin: 0, end: Infinity, freePes: 2 });
    expect(profile({ openRectangleEnd: 'last-slot' }).availabilityRectangle(0, 5, 2)).to.deep.equal({ start: 0, begin: 0, end: 10, freePes: 2 });
    // A candidate running past the last slot ends its rectangle with itself.
    expect(profile({ openRectangleEnd: 'last-slot' }).availabilityRectangle(10, 5, 2)).to.deep.equal({ start: 10, begin: 10, end: 15, freePes: 4 });
  });

  it('a rectangle closed by a later reservation is the same under both rules', () => {
    const closed = (rules = {}) => {
      const p = profile(rules);
      p.addAllocation(20, 30, peSetOf(4, [2, 3]));
      return p.availabilityRectangle(0, 5, 2);
    };
    expect(closed({ openRectangleEnd: 'last-slot' })).to.deep.equal(closed());
    expect(closed()!.end).to.equal(20);
  });

  it("Du_B: +∞ rectangles tie and it takes the earliest start; with 'last-slot' it takes PE_W's choice", () => {
    // 2 PEs for 5 s in [0, 20]: candidates 0, 5, 10, 15.
    const start = (policy: 'Du_B' | 'PE_W', rules = {}) => profile(rules).findAllocation(0, 5, 20, 2, policy)!.start;
    expect(start('Du_B')).to.equal(0);
    expect(start('Du_B', { openRectangleEnd: 'last-slot' })).to.equal(10);
    expect(start('PE_W')).to.equal(10);
    expect(start('PE_W', { openRectangleEnd: 'last-slot' })).to.equal(10);
  });
});

describe('reservation rules: which PEs a job gets', () => {
  it("default: the lowest-numbered free PEs; 'random': free PEs drawn by the seed, the same for the same seed", () => {
    const pes = (rules = {}) => peIds(new AvailabilityProfile(64, { now: 0, ...rules }).findAllocation(0, 5, 5, 8, 'FF')!.pes);
    expect(pes()).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7]);
    const drawn = pes({ peSelection: 'random', peSeed: 11 });
    expect(drawn).to.have.length(8);
    expect(drawn).to.not.deep.equal([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(pes({ peSelection: 'random', peSeed: 11 })).to.deep.equal(drawn);
    expect(pes({ peSelection: 'random', peSeed: 12 })).to.not.deep.equal(drawn);
  });

  it('random PEs are only ever free ones of the rectangle', () => {
    const p = new AvailabilityProfile(8, { now: 0, peSelection: 'random', peSeed: 5 });
    p.addAllocation(0, 10, peSetOf(8, [0, 2, 4, 6]));
    for (let k = 0; k < 20; k++) {
      const a = p.findAllocation(0, 5, 5, 2, 'FF')!;
      expect(peIds(a.pes).every((pe) => pe % 2 === 1)).to.equal(true);
    }
  });

  it('peTakeRandom: count PEs of the set, undefined when it holds fewer', () => {
    const set = peSetOf(100, [3, 40, 41, 77, 99]);
    const got = peTakeRandom(set, 3, new Rng(1))!;
    expect(peCount(got)).to.equal(3);
    expect(peIds(got).every((pe) => [3, 40, 41, 77, 99].includes(pe))).to.equal(true);
    expect(peTakeRandom(set, 6, new Rng(1))).to.equal(undefined);
  });

  it('a simulation with random PEs never puts two reservations on one PE at once', () => {
    const reqs = lublinReservationRequests({ jobs: 60, seed: 3, arrivalFactor: 10 });
    const out = simulateReservations(reqs, { machineSize: 1024, policy: 'PE_W', recordPes: true, peSelection: 'random', peSeed: 2 });
    const busy: { s: number; e: number }[][] = Array.from({ length: 1024 }, () => []);
    for (const o of out.filter((x) => x.accepted)) {
      const pes = parsePeRanges(o.allocatedPes!);
      expect(pes).to.have.length(o.pes);
      for (const pe of pes) {
        expect(busy[pe].some((b) => b.s < o.end! && o.start! < b.e), `PE ${pe}`).to.equal(false);
        busy[pe].push({ s: o.start!, e: o.end! });
      }
    }
  });

  it('unknown switch values are an InputError naming the field', () => {
    expect(() => new AvailabilityProfile(4, { openRectangleEnd: 'never' as never })).to.throw(InputError, /openRectangleEnd/);
    expect(() => simulateReservations([], { machineSize: 4, policy: 'FF', peSelection: 'highest' as never })).to.throw(InputError, /peSelection/);
  });
});

describe('reservation: likeness of policy pairs', () => {
  it('ranks the 21 pairs by mean absolute difference over the settings, the most alike first', async () => {
    const { policyPairLikeness, RESERVATION_POLICIES } = await import('../../src/schedulers/reservation');
    // Acceptance = 10·(index) at x = 1, and PE_W (index 2) 6 points higher at x = 2: PE_B & PE_W differ by 10 then 16
    // (mean 13), PE_W & Du_B by 10 then 4 (mean 7: the most alike), every other neighbouring pair by 10.
    const rows = [1, 2].flatMap((x) => RESERVATION_POLICIES.map((policy, i) => ({
      experiment: 'uMed' as const, x, policy, replications: 5, acceptanceRate: 10 * i + (x === 2 && i === 2 ? 6 : 0), acceptanceRateCi95: 0, averageSlowdown: 1, averageSlowdownCi95: 0, utilization: 50, utilizationCi95: 0,
    })));
    const pairs = policyPairLikeness(rows);
    expect(pairs).to.have.length(21);
    expect(pairs[0]).to.include({ pair: 'PE_W & Du_B', meanAbsDiff: 7, rank: 1 });
    expect(pairs[1].meanAbsDiff).to.equal(10);
    const pePair = pairs.find((p) => p.pair === 'PE_B & PE_W')!;
    expect(pePair.meanAbsDiff).to.equal(13);
    expect(pairs.map((p) => p.rank)).to.deep.equal(Array.from({ length: 21 }, (_, i) => i + 1));
    expect(pairs.every((p, i) => i === 0 || p.meanAbsDiff >= pairs[i - 1].meanAbsDiff)).to.equal(true);
  });
});
