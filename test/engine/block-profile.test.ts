import { expect } from 'chai';
import fc from 'fast-check';
import { ProcessorProfile } from '../../src/engine/profile';
import { BlockProfile } from '../../src/engine/block-profile';

type Op =
  | { kind: 'reserve' | 'release'; s: number; d: number; n: number }
  | { kind: 'earliest'; n: number; d: number; nb: number }
  | { kind: 'free'; t: number }
  | { kind: 'min'; s: number; d: number }
  | { kind: 'trim'; t: number }
  | { kind: 'place'; n: number; d: number }
  | { kind: 'probe'; d: number };

/** Apply one operation to a profile; the outcome (value or error message) as a string. */
function apply(p: ProcessorProfile | BlockProfile, op: Op, reserved: { s: number; d: number; n: number }[]): string {
  try {
    switch (op.kind) {
      case 'reserve':
        p.reserve(op.s, op.s + op.d, op.n);
        return 'ok';
      case 'release': {
        // Release part of an earlier reservation (or an arbitrary rectangle, which may fail).
        const r = reserved.length > 0 ? reserved[op.n % reserved.length] : op;
        p.release(r.s, r.s + r.d, r.n);
        return 'ok';
      }
      case 'earliest':
        return String(p.earliestStart(op.n, op.d, op.nb));
      case 'free':
        return String(p.freeAt(op.t));
      case 'min':
        return String(p.minFree(op.s, op.s + op.d));
      case 'trim':
        p.trim(op.t);
        return 'ok';
      case 'probe': {
        // Every processor count from the origin: repeated searches summarise blocks.
        const out: number[] = [];
        for (let n = 1; n <= 9; n++) out.push(p.earliestStart(n, op.d));
        return out.join(' ');
      }
      case 'place': {
        // As conservative backfilling does: reserve at the earliest start.
        const t = p.earliestStart(op.n, op.d, p.origin);
        p.reserve(t, t + op.d, op.n);
        return String(t);
      }
    }
  } catch (e) {
    return (e as Error).message;
  }
}

function opArb(time: fc.Arbitrary<number>, dur: fc.Arbitrary<number>): fc.Arbitrary<Op> {
  const n = fc.integer({ min: 0, max: 9 });
  const small = fc.integer({ min: 1, max: 3 });
  return fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('reserve' as const), s: time, d: dur, n: small }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('release' as const), s: time, d: dur, n }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('earliest' as const), n, d: dur, nb: fc.oneof(time, fc.constant(0)) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('free' as const), t: time }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('min' as const), s: time, d: dur }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('trim' as const), t: fc.integer({ min: 0, max: 40 }) }) },
    { weight: 8, arbitrary: fc.record({ kind: fc.constant('place' as const), n: fc.integer({ min: 1, max: 8 }), d: dur }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('probe' as const), d: dur }) },
  );
}

/** Run the same operations on both profiles; every answer, error and segment list must agree. */
function agree(ops: Op[], blockSize: number): void {
  const a = new ProcessorProfile(8);
  const b = new BlockProfile(8, 0, blockSize);
  const reserved: { s: number; d: number; n: number }[] = [];
  for (const op of ops) {
    const ra = apply(a, op, reserved);
    const rb = apply(b, op, reserved);
    expect(rb, JSON.stringify(op)).to.equal(ra);
    if (op.kind === 'reserve' && ra === 'ok') reserved.push(op);
    expect(b.segments()).to.deep.equal(a.segments());
    expect(b.size).to.equal(a.size);
    expect(b.origin).to.equal(a.origin);
  }
}

describe('BlockProfile', () => {
  it('answers as ProcessorProfile on random integer operation sequences (tiny blocks)', () => {
    // Coarse times so that runs often fit exactly.
    const time = fc.integer({ min: 0, max: 60 }).map((x) => 5 * x);
    const dur = fc.integer({ min: 0, max: 24 }).map((x) => 5 * x);
    fc.assert(
      fc.property(fc.array(opArb(time, dur), { maxLength: 150 }), fc.integer({ min: 1, max: 3 }), (ops, blockSize) => agree(ops, blockSize)),
      { numRuns: 500, seed: 20261124 },
    );
  });

  it('answers as ProcessorProfile with fractional and huge times (step-by-step search)', () => {
    const time = fc.oneof(fc.integer({ min: 0, max: 300 }), fc.double({ min: 0, max: 300, noNaN: true }), fc.constantFrom(2 ** 53, 2 ** 53 + 2, 1e300));
    const dur = fc.oneof(fc.integer({ min: 0, max: 120 }), fc.double({ min: 0, max: 120, noNaN: true }), fc.constant(0.1));
    fc.assert(
      fc.property(fc.array(opArb(time, dur), { maxLength: 60 }), fc.integer({ min: 1, max: 4 }), (ops, blockSize) => agree(ops, blockSize)),
      { numRuns: 300, seed: 7 },
    );
  });

  it('skips whole blocks: a fit after many short runs is found with blocks summarised', () => {
    // Alternating 1 s holes of 8 and 1 s of 0 free up to t = 2000, then free for ever.
    const a = new ProcessorProfile(8);
    const b = new BlockProfile(8, 0, 4);
    for (let t = 1; t < 2000; t += 2) {
      a.reserve(t, t + 1, 8);
      b.reserve(t, t + 1, 8);
    }
    expect(b.size).to.equal(a.size);
    expect(b.earliestStart(1, 2)).to.equal(2000);
    expect(b.earliestStart(1, 2)).to.equal(a.earliestStart(1, 2));
    expect(b.earliestStart(8, 1, 500)).to.equal(500);
    expect(b.earliestStart(9, 1)).to.equal(Infinity);
  });
});
