import { expect } from 'chai';
import fc from 'fast-check';
import { ProcessorProfile } from '../../src/engine/profile';
import { BlockProfile } from '../../src/engine/block-profile';
import { createRng } from '../../src/util/random';

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

/** What a tree node's summary should say at threshold q, from the segments it spans. */
function bruteSummary(segs: { time: number; free: number }[], from: number, to: number, q: number): { first: number; lastEnd: number; internal: number } {
  const shorts: number[] = [];
  for (let i = from; i < to; i++) if (segs[i].free < q) shorts.push(i);
  if (shorts.length === 0) return { first: Infinity, lastEnd: -Infinity, internal: -1 };
  const l = shorts[shorts.length - 1];
  let internal = -1;
  for (let k = 1; k < shorts.length; k++) {
    const a = shorts[k - 1];
    const b = shorts[k];
    if (b > a + 1) internal = Math.max(internal, segs[b].time - segs[a + 1].time);
  }
  return { first: segs[shorts[0]].time, lastEnd: l + 1 < to ? segs[l + 1].time : NaN, internal };
}

/** Earliest t >= notBefore where every segment overlapping [t, t + d) has at least p free, by trying every candidate. */
function bruteEarliest(segs: { time: number; free: number }[], p: number, d: number, notBefore: number): number {
  const start = Math.max(notBefore, segs[0].time);
  const candidates = [start, ...segs.map((s) => s.time).filter((t) => t > start)];
  for (const t of candidates) {
    let ok = true;
    for (let i = 0; i < segs.length && ok; i++) {
      const a = segs[i].time;
      const b = i + 1 < segs.length ? segs[i + 1].time : Infinity;
      // The segment overlaps [t, t + d), or holds t itself for d = 0.
      if ((a < t + d && b > t) || (a <= t && t < b)) ok = segs[i].free >= p;
    }
    if (ok) return t;
  }
  return Infinity;
}

describe('BlockProfile tree summaries', () => {
  type TreeOp =
    | { kind: 'reserve'; s: number; d: number; n: number }
    | { kind: 'remove'; k: number }
    | { kind: 'place'; n: number; d: number }
    | { kind: 'query'; n: number; d: number; nb: number; times: number }
    | { kind: 'trim'; t: number }
    | { kind: 'check' };
  const time = fc.integer({ min: 0, max: 80 }).map((x) => 5 * x);
  const dur = fc.integer({ min: 0, max: 30 }).map((x) => 5 * x);
  const op: fc.Arbitrary<TreeOp> = fc.oneof(
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('reserve' as const), s: time, d: dur, n: fc.integer({ min: 1, max: 4 }) }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('remove' as const), k: fc.nat() }) },
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('place' as const), n: fc.integer({ min: 1, max: 8 }), d: dur }) },
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('query' as const), n: fc.integer({ min: 0, max: 9 }), d: dur, nb: fc.oneof(time, fc.constant(0)), times: fc.integer({ min: 1, max: 4 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('trim' as const), t: fc.integer({ min: 0, max: 30 }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('check' as const) }) },
  );

  /** Every node's minimum, maximum, first short, end of the last short and best run against a scan of its segments. */
  function checkTree(p: BlockProfile): void {
    const segs = p.segments();
    const nodes = p.summaries();
    const root = nodes[nodes.length - 1];
    expect(root.from).to.equal(0);
    expect(root.to).to.equal(segs.length);
    for (const node of nodes) {
      const span = segs.slice(node.from, node.to).map((s) => s.free);
      expect(node.min).to.equal(Math.min(...span));
      expect(node.max).to.equal(Math.max(...span));
      const values = [...new Set(span)].sort((a, b) => a - b);
      const qs = [...new Set([-1, 0, 9, ...values.flatMap((v) => [v, v + 0.5, v + 1])])];
      for (const q of qs) {
        const want = bruteSummary(segs, node.from, node.to, q);
        let best = want.internal;
        for (const v of values) if (v >= q) best = Math.max(best, bruteSummary(segs, node.from, node.to, v).internal);
        const got = node.at(q);
        const ctx = `node [${node.from}, ${node.to}) depth ${node.depth} at q = ${q}`;
        expect(got.first, ctx).to.equal(want.first);
        expect(Object.is(got.lastEnd, want.lastEnd), `${ctx}: lastEnd ${got.lastEnd}, expected ${want.lastEnd}`).to.equal(true);
        expect(got.best, ctx).to.equal(best);
      }
    }
    // With every node summarised: every processor count, for every run length present (and one more), from the origin.
    const lengths = new Set<number>([0]);
    for (let i = 0; i + 1 < segs.length; i++) for (let j = i + 1; j < segs.length; j++) lengths.add(segs[j].time - segs[i].time);
    const ds = [...lengths].filter((d) => d <= 200);
    for (let n = 1; n <= 8; n++) for (const d of ds) expect(p.earliestStart(n, d), `earliestStart(${n}, ${d})`).to.equal(bruteEarliest(segs, n, d, p.origin));
  }

  function run(ops: TreeOp[], blockSize: number): void {
    const p = new BlockProfile(8, 0, blockSize);
    const held: { s: number; e: number; n: number }[] = [];
    for (const o of ops) {
      switch (o.kind) {
        case 'reserve':
          if (o.s >= p.origin && p.minFree(o.s, o.s + o.d) >= o.n) {
            p.reserve(o.s, o.s + o.d, o.n);
            held.push({ s: o.s, e: o.s + o.d, n: o.n });
          }
          break;
        case 'remove': {
          // Release a reservation made earlier (the part of it not yet trimmed away).
          if (held.length === 0) break;
          const [r] = held.splice(o.k % held.length, 1);
          const s = Math.max(r.s, p.origin);
          if (r.e > s) p.release(s, r.e, r.n);
          break;
        }
        case 'place': {
          const t = p.earliestStart(o.n, o.d);
          expect(t).to.equal(bruteEarliest(p.segments(), o.n, o.d, p.origin));
          p.reserve(t, t + o.d, o.n);
          held.push({ s: t, e: t + o.d, n: o.n });
          break;
        }
        case 'query':
          // Asked again and again, a subtree out of date gets summarised.
          for (let k = 0; k < o.times; k++) expect(p.earliestStart(o.n, o.d, o.nb), JSON.stringify(o)).to.equal(bruteEarliest(p.segments(), o.n, o.d, o.nb));
          break;
        case 'trim':
          p.trim(p.origin + o.t);
          break;
        case 'check':
          checkTree(p);
          break;
      }
    }
    checkTree(p);
  }

  it('match a scan of the segments under random reservations, removals and searches (seeded)', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 20, maxLength: 250 }), fc.integer({ min: 1, max: 3 }), (ops, blockSize) => run(ops, blockSize)),
      { numRuns: 300, seed: 20261201 },
    );
  });

  it('keep the tree whole through splits, merges and trims of many blocks', () => {
    // Sizes 1 to 4 on 8 processors, one-segment blocks: a tree three or four levels deep.
    const p = new BlockProfile(8, 0, 1);
    const rng = createRng(12345);
    for (let k = 0; k < 600; k++) {
      const n = rng.int(1, 4);
      const d = rng.int(1, 40);
      const t = p.earliestStart(n, d);
      p.reserve(t, t + d, n);
      if (k % 50 === 49) checkTree(p);
    }
    expect(p.summaries().reduce((m, x) => Math.max(m, x.depth), 0)).to.be.greaterThan(1);
    p.trim(p.segments()[Math.floor(p.size / 2)].time);
    checkTree(p);
  });
});
