import { expect } from 'chai';
import { Rng } from '../../src/util/random';
import { TSAFRIR05_DEFAULTS, tsafrirBinCount, tsafrirBins, tsafrirEstimates, tsafrirHeadPopularity, tsafrirHeadValues } from '../../src/workloads/tsafrir05';
import { ksCritical001, ksStatistic, mulberry32 } from '../reference/ks';

const HOUR = 3600;

/**
 * The model's estimate distribution (value → share of jobs), written from
 * its definition (Tsafrir, Etsion & Feitelson 2005; MODELS.md section 2)
 * with an independent random generator. Head popularity: the pool is kept as
 * a weight per rank (occurrences in the table rows seen so far).
 */
function modelDistribution(njobs: number, maxEst: number, rnd: () => number): Map<number, number> {
  const D = TSAFRIR05_DEFAULTS;
  const K = tsafrirBinCount(njobs);
  const head = tsafrirHeadValues(maxEst);
  const rankOf: number[] = [1];
  const weight = new Array<number>(21).fill(0);
  const lastSeen = new Array<number>(21).fill(0);
  D.headRankTable.forEach((row, t) => row.forEach((r) => (lastSeen[r] = t)));
  for (const r of D.headRankTable[0]) weight[r]++;
  weight[1] = 0;
  const draw = () => {
    const total = weight.reduce((s, w) => s + w, 0);
    let u = rnd() * total;
    let r = 1;
    while (u >= weight[r]) u -= weight[r++];
    return r;
  };
  for (let t = 1; t < 20; t++) {
    for (const r of D.headRankTable[t]) if (!rankOf.includes(r)) weight[r]++;
    const due = Array.from({ length: 20 }, (_, k) => k + 1).find((r) => !rankOf.includes(r) && lastSeen[r] <= t);
    const r = due ?? Math.min(draw(), draw());
    rankOf.push(r);
    weight[r] = 0;
  }
  const headShare = (x: number) => D.headParams.a * Math.exp(D.headParams.b * x) + D.headParams.c;
  let rest = 0;
  for (let x = 2; x <= 20; x++) rest += headShare(x);
  const share = new Map<number, number>();
  head.forEach((v, t) => share.set(v, rankOf[t] === 1 ? D.headSum - rest : headShare(rankOf[t])));
  // Tail: whole minutes on (a−1)r/(a−r) of max, nudged off collisions, kept below max.
  const a = 1 + D.bintimA.base * K ** D.bintimA.exponent;
  const T = K - 20;
  const tail: number[] = [];
  for (let i = 1; i <= T; i++) {
    const m = Math.round((((a - 1) * (i / T)) / (a - i / T)) * maxEst / 60) * 60;
    const v = [m, m + 30, m - 30, m + 20, m - 20, m + 10, m - 10].find((x) => x > 0 && x < maxEst && !share.has(x) && !tail.includes(x));
    if (v !== undefined) tail.push(v);
  }
  const power = tail.map((_, k) => D.tailParams.a * (21 + k) ** D.tailParams.b);
  const sum = power.reduce((s, p) => s + p, 0);
  // Tail popularity is a random permutation.
  for (let k = tail.length - 1; k > 0; k--) {
    const j = Math.floor(rnd() * (k + 1));
    [power[k], power[j]] = [power[j], power[k]];
  }
  tail.forEach((v, k) => share.set(v, (power[k] / sum) * (100 - D.headSum)));
  return share;
}

/** n draws from a value → weight table. */
function drawFrom(table: [number, number][], n: number, rnd: () => number): number[] {
  const total = table.reduce((s, [, w]) => s + w, 0);
  return Array.from({ length: n }, () => {
    let u = rnd() * total;
    for (const [v, w] of table) if ((u -= w) < 0) return v;
    return table[table.length - 1][0];
  });
}

describe('Tsafrir 2005 estimates: model definition', () => {
  it('every estimate and every bin value is at most the largest estimate', () => {
    for (const maxEst of [HOUR, 18 * HOUR, 36 * HOUR + 7, 100 * HOUR]) {
      for (const njobs of [200, 5000, 80000]) {
        const bins = tsafrirBins(njobs, maxEst, new Rng(`max-${maxEst}-${njobs}`));
        expect(Math.max(...bins.map((b) => b.value)), `${njobs} jobs, max ${maxEst}`).to.equal(maxEst);
        // Only the head's max_est bin sits at the maximum.
        expect(bins.filter((b) => b.value === maxEst).length).to.equal(1);
        expect(new Set(bins.map((b) => b.value)).size).to.equal(bins.length);
      }
      const rng = new Rng(maxEst);
      const runtimes = Array.from({ length: 3000 }, () => Math.floor(rng.next() * maxEst));
      const { estimates } = tsafrirEstimates(runtimes, { seed: 3, maxEstimate: maxEst });
      expect(Math.max(...estimates)).to.be.at.most(maxEst);
      estimates.forEach((e, k) => expect(e).to.be.at.least(runtimes[k]));
    }
  });

  it('head popularity: max_est is rank 1; a rank past its bound (the last time rank any trace shows it) is taken first, smallest first', () => {
    const lastSeen = new Map<number, number>();
    TSAFRIR05_DEFAULTS.headRankTable.forEach((row, t) => row.forEach((r) => lastSeen.set(r, t)));
    let dueTaken = 0;
    for (let seed = 0; seed < 300; seed++) {
      const pop = tsafrirHeadPopularity(20, new Rng(seed));
      expect(pop[0]).to.equal(1);
      expect([...pop].sort((x, y) => x - y)).to.deep.equal(Array.from({ length: 20 }, (_, k) => k + 1));
      for (let t = 1; t < 20; t++) {
        const due = pop.slice(t).filter((r) => (lastSeen.get(r) as number) <= t);
        if (due.length === 0) continue;
        expect(pop[t], `seed ${seed}, time rank ${t}`).to.equal(Math.min(...due));
        dueTaken++;
      }
    }
    // The bound decides a fair share of the ranks (it is not a dead rule).
    expect(dueTaken).to.be.greaterThan(300);
  });

  for (const [njobs, maxEst] of [
    [10000, 18 * HOUR],
    [2000, 10 * HOUR],
  ]) {
    it(`${njobs} jobs, max ${maxEst / HOUR} h: the estimate of a random job matches a sampler from the definition (two-sample KS, α = 0.001)`, () => {
      // One draw per replication: draws of one replication share its random
      // popularity mapping, and KS needs independent samples.
      const rnd = mulberry32(njobs);
      const ours: number[] = [];
      const model: number[] = [];
      for (let rep = 0; rep < 8000; rep++) {
        const bins = tsafrirBins(njobs, maxEst, new Rng(`ks-${rep}`));
        ours.push(...drawFrom(bins.map((b) => [b.value, b.count]), 1, rnd));
        model.push(...drawFrom([...modelDistribution(njobs, maxEst, rnd)], 1, rnd));
      }
      expect(ksStatistic(ours, model)).to.be.below(ksCritical001(ours.length, model.length));
    });
  }
});
