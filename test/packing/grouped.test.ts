import { expect } from 'chai';
import fc from 'fast-check';
import { CAPACITY_EPSILON, McbVariant, mcbSortKey, packArrays, packGroups, packsMemoryOnly } from '../../src/schedulers/packing';

/**
 * The packer as the papers describe it, scanning item by item from the head
 * of each list for every placement (what packArrays did before it worked on
 * groups of equal items). packArrays must give exactly the same bins.
 */
function packItemByItem(
  cpu: ArrayLike<number>,
  mem: ArrayLike<number>,
  binCount: number,
  variant: McbVariant,
  preload?: { cpu: ArrayLike<number>; mem: ArrayLike<number> },
): Int32Array | null {
  const n = cpu.length;
  const placement = new Int32Array(n).fill(-1);
  if (n === 0) return placement;
  if (binCount <= 0) return null;
  const eps = CAPACITY_EPSILON;
  for (let i = 0; i < n; i++) if (cpu[i] > 1 + eps || mem[i] > 1 + eps) return null;
  const keys = Array.from({ length: n }, (_, i) => mcbSortKey(variant, cpu[i], mem[i]));
  const byKey = (a: number, b: number) => keys[a] - keys[b] || a - b;
  const lists = [[] as number[], [] as number[]]; // [cpu-intensive, memory-intensive]
  for (let i = 0; i < n; i++) lists[cpu[i] > mem[i] ? 0 : 1].push(i);
  lists[0].sort(byKey);
  lists[1].sort(byKey);
  let remaining = n;
  for (let bin = 0; bin < binCount && remaining > 0; bin++) {
    let freeCpu = 1 - (preload ? preload.cpu[bin] : 0);
    let freeMem = 1 - (preload ? preload.mem[bin] : 0);
    for (;;) {
      const [hc, hm] = [lists[0][0], lists[1][0]];
      let first: number;
      if (freeCpu > freeMem) first = 0;
      else if (freeMem > freeCpu) first = 1;
      else if (hc === undefined) first = 1;
      else if (hm === undefined) first = 0;
      else first = keys[hc] < keys[hm] || (keys[hc] === keys[hm] && hc < hm) ? 0 : 1;
      let found = -1;
      for (const l of [first, 1 - first]) {
        const k = lists[l].findIndex((i) => cpu[i] <= freeCpu + eps && mem[i] <= freeMem + eps);
        if (k >= 0) {
          found = lists[l][k];
          lists[l].splice(k, 1);
          break;
        }
      }
      if (found < 0) break;
      placement[found] = bin;
      freeCpu -= cpu[found];
      freeMem -= mem[found];
      if (--remaining === 0) break;
    }
  }
  return remaining === 0 ? placement : null;
}

describe('packing: packArrays on groups of equal items', () => {
  // Jobs of 1..8 identical tasks with sizes from a small set, so that equal
  // items, equal keys across lists and cpu == mem ties all occur.
  const size = fc.constantFrom(0, 0.05, 0.1, 0.125, 0.2, 0.25, 0.3, 1 / 3, 0.4, 0.5, 0.6, 0.75, 1);
  const job = fc.record({ cpu: size, mem: size, tasks: fc.integer({ min: 1, max: 8 }) });
  const instance = fc.record({
    jobs: fc.array(job, { minLength: 1, maxLength: 25 }),
    bins: fc.integer({ min: 1, max: 12 }),
    variant: fc.integer({ min: 1, max: 8 }) as fc.Arbitrary<McbVariant>,
    preloaded: fc.boolean(),
    seed: fc.integer({ min: 0, max: 1000 }),
  });

  it('places every item in the same bin as the item-by-item packer (or fails with it)', () => {
    let packed = 0;
    let failed = 0;
    fc.assert(
      fc.property(instance, ({ jobs, bins, variant, preloaded, seed }) => {
        const cpu: number[] = [];
        const mem: number[] = [];
        for (const j of jobs) for (let k = 0; k < j.tasks; k++) (cpu.push(j.cpu), mem.push(j.mem));
        const preload = preloaded
          ? { cpu: Array.from({ length: bins }, (_, b) => ((seed + 3 * b) % 7) / 10), mem: Array.from({ length: bins }, (_, b) => ((seed + 5 * b) % 6) / 10) }
          : undefined;
        const got = packArrays(cpu, mem, bins, variant, preload);
        const want = packItemByItem(cpu, mem, bins, variant, preload);
        if (want) packed++;
        else failed++;
        expect(got === null ? null : Array.from(got)).to.deep.equal(want === null ? null : Array.from(want));
      }),
      { numRuns: 600, seed: 16 },
    );
    // Both outcomes must be exercised for the comparison to mean anything.
    expect(packed).to.be.greaterThan(50);
    expect(failed).to.be.greaterThan(50);
  });
});

describe('packing: packsMemoryOnly (MCB8 with no CPU)', () => {
  // Memory sizes with exact and inexact float sums (0.1 + 0.2, 1/3), equal
  // sizes in several groups, size 0, and bins that start alike (the repeat).
  const size = fc.oneof(fc.constantFrom(0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 1 / 3, 0.4, 0.5, 0.6, 0.7, 0.75, 1), fc.double({ min: 0, max: 1, noNaN: true }));
  const instance = fc.record({
    groups: fc.array(fc.record({ mem: size, count: fc.integer({ min: 0, max: 12 }) }), { maxLength: 20 }),
    bins: fc.integer({ min: 0, max: 25 }),
    preload: fc.option(fc.array(fc.constantFrom(0, 0, 0, 0.1, 0.3, 0.5, 0.75, 1, 0.6408), { minLength: 25, maxLength: 25 }), { nil: undefined }),
  });

  it('answers as packGroups and as the item-by-item packer with every CPU size 0', () => {
    let packed = 0;
    let failed = 0;
    fc.assert(
      fc.property(instance, ({ groups, bins, preload }) => {
        const mem = groups.map((g) => g.mem);
        const count = groups.map((g) => g.count);
        const preMem = preload?.slice(0, bins);
        const zeros = new Array(bins).fill(0);
        const got = packsMemoryOnly(mem, count, bins, preMem);
        const grouped = packGroups(new Array(groups.length).fill(0), mem, count, bins, 8, preMem && { cpu: zeros, mem: preMem });
        const items = groups.flatMap((g) => new Array<number>(g.count).fill(g.mem));
        const itemByItem = packItemByItem(new Array(items.length).fill(0), items, bins, 8, preMem && { cpu: zeros, mem: preMem });
        if (got) packed++;
        else failed++;
        expect(got).to.equal(grouped !== null);
        expect(got).to.equal(itemByItem !== null);
      }),
      { numRuns: 3000, seed: 29 },
    );
    expect(packed).to.be.greaterThan(300);
    expect(failed).to.be.greaterThan(300);
  });

  it('repeats a bin only while no group runs out (the last item of a group placed in the next like bin)', () => {
    // Bin 0 takes 0.804 and 0.15 (0.15 runs out); bins 1, 3 and 4 take one 0.804 each; bin 2 (0.64 used) none.
    const mem = [0.15, 0.804208817488588];
    const pre = [0, 0, 0.6408408182400199, 0, 0, 0];
    expect(packsMemoryOnly(mem, [1, 4], 6, pre)).to.equal(true);
    expect(packsMemoryOnly(mem, [1, 5], 6, pre)).to.equal(true);
    expect(packsMemoryOnly(mem, [1, 6], 6, pre)).to.equal(false);
    expect(packsMemoryOnly([0.5], [12], 6)).to.equal(true);
    expect(packsMemoryOnly([0.5], [13], 6)).to.equal(false);
  });
});
