import { expect } from 'chai';
import { AvailabilityProfile, peSetOf, peSetToString } from '../../src/schedulers/reservation';

/**
 * The worked example of section 4 (Figure 1). Times t_k = 10·k; a 16-PE
 * machine; job1 holds PEs 0–3 (n1) over [t0, t3), job2 PEs 4–7 (n2) over
 * [t0, t1), the reserved job3 PEs 8–11 (n3) over [t8, t10); the new request
 * needs n = 4 PEs for t4 − t2 from ready t2 to deadline t9.
 */
const N = 16;
const t = (k: number): number => 10 * k;
const range = (a: number, b: number): number[] => Array.from({ length: b - a + 1 }, (_, i) => a + i);
const n1 = peSetOf(N, range(0, 3));
const n2 = peSetOf(N, range(4, 7));
const n3 = peSetOf(N, range(8, 11));

function figure1(): AvailabilityProfile {
  const p = new AvailabilityProfile(N, { now: t(0) });
  p.addAllocation(t(0), t(3), n1);
  p.addAllocation(t(0), t(1), n2);
  p.addAllocation(t(8), t(10), n3);
  return p;
}

function recordsText(p: AvailabilityProfile): { time: number; pes: string }[] {
  return p.records().map((r) => ({ time: r.time, pes: peSetToString(r.busy) || 'ø' }));
}

describe('reservation: availability structure, paper worked example (section 4)', () => {
  it('starts from the records {t0, n1+n2}, {t1, n1}, {t3, ø}, {t8, n3}, {t10, ø}', () => {
    expect(recordsText(figure1())).to.deep.equal([
      { time: t(0), pes: '0-7' },
      { time: t(1), pes: '0-3' },
      { time: t(3), pes: 'ø' },
      { time: t(8), pes: '8-11' },
      { time: t(10), pes: 'ø' },
    ]);
  });

  it('step 1: the candidate start times are t2, t3, t6 and t7', () => {
    expect(figure1().candidateStartTimes(t(2), t(4) - t(2), t(9))).to.deep.equal([t(2), t(3), t(6), t(7)]);
  });

  it('step 2: maximum availability rectangles (t2: N−n1 PEs over [t1, t8); t3 and t6: N PEs over [t3, t8))', () => {
    const rects = figure1().availabilityRectangles(t(2), t(4) - t(2), t(9), 4);
    expect(rects.map((r) => r.start)).to.deep.equal([t(2), t(3), t(6), t(7)]);
    expect(rects[0]).to.deep.include({ begin: t(1), end: t(8), freePes: N - 4 });
    expect(rects[1]).to.deep.include({ begin: t(3), end: t(8), freePes: N });
    expect(rects[2]).to.deep.include({ begin: t(3), end: t(8), freePes: N });
    // t7: job3's PEs are taken inside [t7, t9); nothing later takes the others.
    expect(rects[3]).to.deep.include({ begin: t(3), end: Infinity, freePes: N - 4 });
  });

  it('step 2: PE Worst Fit chooses t3 (t3 and t6 tie; the earlier wins) and n PEs', () => {
    const a = figure1().findAllocation(t(2), t(4) - t(2), t(9), 4, 'PE_W');
    expect(a).to.not.equal(null);
    expect(a!.start).to.equal(t(3));
    expect(a!.end).to.equal(t(5));
    expect(peSetToString(a!.pes)).to.equal('0-3');
  });

  it('step 3: addAllocation(t3, t5, n PEs) merges {t3, n} into {t1, n1}', () => {
    const p = figure1();
    const a = p.findAllocation(t(2), t(4) - t(2), t(9), 4, 'PE_W')!;
    p.addAllocation(a.start, a.end, a.pes);
    expect(recordsText(p)).to.deep.equal([
      { time: t(0), pes: '0-7' },
      { time: t(1), pes: '0-3' },
      { time: t(5), pes: 'ø' },
      { time: t(8), pes: '8-11' },
      { time: t(10), pes: 'ø' },
    ]);
    p.checkInvariants();
  });

  it('step 4: job2 ends at t1; deleteAllocation(t0, t1, n2) leaves {t1, n1}, {t5, ø}, {t8, n3}, {t10, ø}', () => {
    const p = figure1();
    const a = p.findAllocation(t(2), t(4) - t(2), t(9), 4, 'PE_W')!;
    p.addAllocation(a.start, a.end, a.pes);
    p.deleteAllocation(t(0), t(1), n2);
    // {t0, n1} now equals {t1, n1}: the later record is redundant.
    expect(recordsText(p)).to.deep.equal([
      { time: t(0), pes: '0-3' },
      { time: t(5), pes: 'ø' },
      { time: t(8), pes: '8-11' },
      { time: t(10), pes: 'ø' },
    ]);
    // At t1 the past folds into one record at t1: the paper's final list.
    p.advanceTo(t(1));
    expect(recordsText(p)).to.deep.equal([
      { time: t(1), pes: '0-3' },
      { time: t(5), pes: 'ø' },
      { time: t(8), pes: '8-11' },
      { time: t(10), pes: 'ø' },
    ]);
    p.checkInvariants();
  });

  it('step 4 in the other order (advance to t1 first, then delete the finished job) ends the same', () => {
    const p = figure1();
    const a = p.findAllocation(t(2), t(4) - t(2), t(9), 4, 'PE_W')!;
    p.addAllocation(a.start, a.end, a.pes);
    p.advanceTo(t(1));
    p.deleteAllocation(t(0), t(1), n2);
    expect(p.toString()).to.equal('{10: 0-3} {50: ø} {80: 8-11} {100: ø}');
  });
});

describe('reservation: availability structure, operations', () => {
  it('an empty structure places a request at its ready time on the lowest PEs', () => {
    const p = new AvailabilityProfile(64);
    const a = p.findAllocation(100, 50, 400, 33, 'Du_W')!;
    expect(a.start).to.equal(100);
    expect(peSetToString(a.pes)).to.equal('0-32');
  });

  it('rejects a request when no candidate has enough free PEs', () => {
    const p = new AvailabilityProfile(8, { now: 0 });
    p.addAllocation(0, 100, peSetOf(8, range(0, 5)));
    expect(p.findAllocation(0, 10, 90, 3, 'FF')).to.equal(null);
    // Once the blocking job ends, the latest start fits.
    expect(p.findAllocation(0, 10, 110, 3, 'FF')!.start).to.equal(100);
  });

  it('refuses to double-book a PE and leaves the records untouched', () => {
    const p = new AvailabilityProfile(8, { now: 0 });
    p.addAllocation(10, 20, peSetOf(8, [1, 2]));
    const before = p.toString();
    expect(() => p.addAllocation(15, 30, peSetOf(8, [2, 3]))).to.throw(/not all free/);
    expect(p.toString()).to.equal(before);
    expect(() => p.deleteAllocation(10, 20, peSetOf(8, [3]))).to.throw(/not all reserved/);
  });

  it('rejects bad input with a message naming the field', () => {
    const p = new AvailabilityProfile(8);
    expect(() => p.findAllocation(0, 10, 5, 1, 'FF')).to.throw(/deadline/);
    expect(() => p.findAllocation(0, 10, 50, 9, 'FF')).to.throw(/PE count/);
    expect(() => p.findAllocation(0, 10, 50, 1, 'XX' as never)).to.throw(/unknown reservation policy/);
    expect(() => p.addAllocation(5, 5, peSetOf(8, [1]))).to.throw(/start < end/);
    expect(() => new AvailabilityProfile(0)).to.throw(/machineSize/);
  });

  it('a deleted allocation that is partly in the past only releases the future part', () => {
    const p = new AvailabilityProfile(8, { now: 0 });
    p.addAllocation(0, 100, peSetOf(8, [0, 1]));
    p.addAllocation(50, 150, peSetOf(8, [2]));
    p.advanceTo(60);
    expect(p.toString()).to.equal('{60: 0-2} {100: 2} {150: ø}');
    p.deleteAllocation(0, 100, peSetOf(8, [0, 1]));
    expect(p.toString()).to.equal('{60: 2} {150: ø}');
    p.checkInvariants();
  });
});
