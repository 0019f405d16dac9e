import { expect } from 'chai';
import {
  AvailabilityProfile,
  AvailabilityRectangle,
  RESERVATION_POLICIES,
  ReservationPolicy,
  chooseRectangle,
  peSetOf,
} from '../../src/schedulers/reservation';

/**
 * Five feasible start times with hand-made rectangles. For each, the free PEs,
 * duration (end − begin) and their product:
 *   A start  0: 10 PEs × 100 =  1,000
 *   B start 10: 40 PEs ×  20 =    800
 *   C start 20:  4 PEs ×  30 =    120
 *   D start 30:  8 PEs × 1000 =  8,000
 *   E start 40: 30 PEs × 200 =  6,000
 */
const rects: AvailabilityRectangle[] = [
  { start: 0, begin: 0, end: 100, freePes: 10 },
  { start: 10, begin: 5, end: 25, freePes: 40 },
  { start: 20, begin: 20, end: 50, freePes: 4 },
  { start: 30, begin: 0, end: 1000, freePes: 8 },
  { start: 40, begin: 40, end: 240, freePes: 30 },
];

const expected: Record<ReservationPolicy, number> = {
  FF: 0, // earliest start
  PE_B: 20, // fewest free PEs (4)
  PE_W: 10, // most free PEs (40)
  Du_B: 10, // shortest rectangle (20)
  Du_W: 30, // longest rectangle (1000)
  PEDu_B: 20, // smallest product (120)
  PEDu_W: 30, // largest product (8000)
};

describe('reservation: policies on a hand case', () => {
  for (const policy of RESERVATION_POLICIES) {
    it(`${policy} picks start ${expected[policy]}`, () => {
      expect(chooseRectangle(policy, rects)!.start).to.equal(expected[policy]);
      // The order in which rectangles are listed does not matter.
      expect(chooseRectangle(policy, [...rects].reverse())!.start).to.equal(expected[policy]);
    });
  }

  it('ties go to the earliest start, for every policy', () => {
    const twins: AvailabilityRectangle[] = [
      { start: 50, begin: 30, end: 80, freePes: 16 },
      { start: 30, begin: 30, end: 80, freePes: 16 },
      { start: 40, begin: 30, end: 80, freePes: 16 },
    ];
    for (const policy of RESERVATION_POLICIES) expect(chooseRectangle(policy, twins)!.start, policy).to.equal(30);
  });

  it('open-ended rectangles: worst-fit duration prefers them, best-fit avoids them', () => {
    const open: AvailabilityRectangle[] = [
      { start: 0, begin: 0, end: 60, freePes: 4 },
      { start: 10, begin: 10, end: Infinity, freePes: 4 },
      { start: 20, begin: 20, end: Infinity, freePes: 4 },
    ];
    expect(chooseRectangle('Du_W', open)!.start).to.equal(10);
    expect(chooseRectangle('PEDu_W', open)!.start).to.equal(10);
    expect(chooseRectangle('Du_B', open)!.start).to.equal(0);
    expect(chooseRectangle('PEDu_B', open)!.start).to.equal(0);
  });

  it('no rectangle: no choice', () => {
    expect(chooseRectangle('PE_W', [])).to.equal(undefined);
  });

  it('on the structure, each policy places a request where its definition says', () => {
    // 8 PEs. PEs 0–5 busy over [0, 40); PEs 0–1 busy over [60, 100).
    // Request: 2 PEs for 20, ready 0, deadline 120. Candidates 0, 20, 40, 60, 80, 100
    // and their rectangles (free PEs, [begin, end)):
    //   0: 2 PEs, [0, ∞)     20: 2 PEs, [0, ∞)      40: 8 PEs, [40, 60)
    //   60: 6 PEs, [40, ∞)   80: 6 PEs, [40, ∞)     100: 8 PEs, [100, ∞)
    const p = new AvailabilityProfile(8, { now: 0 });
    p.addAllocation(0, 40, peSetOf(8, [0, 1, 2, 3, 4, 5]));
    p.addAllocation(60, 100, peSetOf(8, [0, 1]));
    const rs = p.availabilityRectangles(0, 20, 120, 2);
    expect(rs.map((r) => [r.start, r.freePes, r.begin, r.end])).to.deep.equal([
      [0, 2, 0, Infinity],
      [20, 2, 0, Infinity],
      [40, 8, 40, 60],
      [60, 6, 40, Infinity],
      [80, 6, 40, Infinity],
      [100, 8, 100, Infinity],
    ]);
    const picks: Record<ReservationPolicy, number> = {
      FF: 0,
      PE_B: 0, // 2 free PEs at 0 and 20: the earlier
      PE_W: 40, // all 8 PEs free at 40 and 100: the earlier
      Du_B: 40, // the only bounded rectangle
      Du_W: 0, // unbounded ones tie: the earliest
      PEDu_B: 40, // 8 × 20 = 160, the only finite product
      PEDu_W: 0, // unbounded ones tie: the earliest
    };
    for (const policy of RESERVATION_POLICIES) {
      const a = p.findAllocation(0, 20, 120, 2, policy)!;
      expect(a.start, policy).to.equal(picks[policy]);
    }
    // FF at 0 takes the lowest free PEs there: 6–7.
    expect([...p.findAllocation(0, 20, 120, 2, 'FF')!.pes]).to.deep.equal([...peSetOf(8, [6, 7])]);
  });
});
