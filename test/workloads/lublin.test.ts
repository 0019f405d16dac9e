import { expect } from 'chai';
import { Rng } from '../../src/util/random';
import {
  generateLublin,
  sampleLublinSize,
  sampleLublinRuntime,
  lublinArrivals,
  lublinDailyWeights,
  gammaCdf,
  lublinParams,
  LUBLIN_BATCH,
  LUBLIN_INTERACTIVE,
  LUBLIN_TYPELESS,
} from '../../src/workloads/lublin';
import { writeSwf } from '../../src/workloads/swf';
import { ksCritical001, ksStatistic, mulberry32 } from '../reference/ks';

const isPow2 = (n: number) => (n & (n - 1)) === 0;

describe('Lublin–Feitelson 2003 generator', () => {
  it('same seed gives the same SWF bytes, another seed different bytes', () => {
    const a = writeSwf(generateLublin({ jobs: 2000, seed: 42 }));
    const b = writeSwf(generateLublin({ jobs: 2000, seed: 42 }));
    const c = writeSwf(generateLublin({ jobs: 2000, seed: 43 }));
    expect(Buffer.from(a).equals(Buffer.from(b))).to.equal(true);
    expect(a).to.not.equal(c);
  });

  it('produces well-formed jobs with non-decreasing submit times', () => {
    const jobs = generateLublin({ jobs: 5000, seed: 'shape', machineSize: 256 });
    expect(jobs).to.have.length(5000);
    for (let i = 0; i < jobs.length; i++) {
      const j = jobs[i];
      expect(j.id).to.equal(i + 1);
      expect(Number.isInteger(j.submit) && Number.isInteger(j.runtime) && Number.isInteger(j.procs)).to.equal(true);
      expect(j.procs).to.be.within(1, 256);
      expect(j.runtime).to.be.within(1, Math.exp(12));
      if (i > 0) expect(j.submit).to.be.at.least(jobs[i - 1].submit);
      expect([0, 1]).to.include(j.queue);
    }
    // Both streams are present.
    expect(jobs.some((j) => j.queue === 0)).to.equal(true);
    expect(jobs.some((j) => j.queue === 1)).to.equal(true);
  });

  it('size sampler: serial and power-of-two fractions match the parameters over 20k jobs', () => {
    const rng = new Rng(7);
    const p = lublinParams(LUBLIN_TYPELESS);
    const n = 20000;
    let serial = 0;
    let pow2Parallel = 0;
    for (let i = 0; i < n; i++) {
      const s = sampleLublinSize(rng, p, 128);
      if (s === 1) serial++;
      else if (isPow2(s)) pow2Parallel++;
    }
    expect(serial / n).to.be.closeTo(p.serialProb, 0.015);
    // Forced power-of-two jobs are a share pow2Prob of all jobs; a few more
    // land on a power of two by chance (e.g. 2^1.1 rounds to 2).
    expect(pow2Parallel / n).to.be.at.least(p.pow2Prob - 0.015);
    expect(pow2Parallel / n).to.be.below(p.pow2Prob + 0.08);
  });

  it('generateLublin typeless: serial fraction close to serialProb over 20k jobs', () => {
    const jobs = generateLublin({ jobs: 20000, seed: 3, includeJobTypes: false });
    const serial = jobs.filter((j) => j.procs === 1).length / jobs.length;
    expect(serial).to.be.closeTo(LUBLIN_TYPELESS.serialProb, 0.015);
    expect(jobs.every((j) => j.queue === undefined)).to.equal(true);
  });

  it('runtime sampler: larger jobs run longer on average (pa < 0)', () => {
    const rng = new Rng(11);
    const p = lublinParams(LUBLIN_BATCH);
    const meanLog = (size: number) => {
      let s = 0;
      for (let i = 0; i < 5000; i++) s += Math.log(sampleLublinRuntime(rng, size, p));
      return s / 5000;
    };
    const small = meanLog(1);
    const large = meanLog(128);
    expect(large).to.be.greaterThan(small);
    // Mean of ln(runtime) for size 1: p·a1·b1 + (1−p)·a2·b2 (truncation at 12 and flooring shift it slightly).
    const pr = p.pa + p.pb;
    expect(small).to.be.closeTo(pr * p.a1 * p.b1 + (1 - pr) * p.a2 * p.b2, 0.25);
  });

  it('arrivals: non-decreasing; daily-cycle weights have mean 1 and a peak', () => {
    const w = lublinDailyWeights(LUBLIN_BATCH);
    expect(w).to.have.length(48);
    expect(w.reduce((s, v) => s + v, 0) / 48).to.be.closeTo(1, 1e-9);
    expect(Math.max(...w)).to.be.greaterThan(1.5);
    const t = lublinArrivals(new Rng(5), lublinParams(LUBLIN_INTERACTIVE), 3000);
    for (let i = 1; i < t.length; i++) expect(t[i]).to.be.at.least(t[i - 1]);
    // Without the daily cycle, the mean of ln(gap) is aarr·arar·barr.
    const p = lublinParams(LUBLIN_BATCH, { dailyCycle: false });
    const u = lublinArrivals(new Rng(6), p, 20000);
    let s = 0;
    let k = 0;
    for (let i = 1; i < u.length; i++) if (u[i] > u[i - 1]) (s += Math.log(u[i] - u[i - 1])), k++;
    expect(s / k).to.be.closeTo(p.aarr * p.arar * p.barr, 0.15);
  });

  it('gamma CDF matches known values', () => {
    expect(gammaCdf(1, 1, 1)).to.be.closeTo(1 - Math.exp(-1), 1e-9);
    expect(gammaCdf(2, 2, 1)).to.be.closeTo(1 - 3 * Math.exp(-2), 1e-9);
    expect(gammaCdf(30, 2, 1)).to.be.closeTo(1 - 31 * Math.exp(-30), 1e-9);
  });

  it('machineSize sets uHi and caps sizes; bad parameters name the field', () => {
    const jobs = generateLublin({ jobs: 3000, seed: 9, machineSize: 240 });
    expect(Math.max(...jobs.map((j) => j.procs))).to.be.at.most(240);
    expect(() => generateLublin({ jobs: 10, seed: 1, machineSize: 16 })).to.throw(/uHi/);
    expect(() => generateLublin({ jobs: 10, seed: 1, params: { serialProb: 1.5 } })).to.throw(/serialProb/);
    expect(() => generateLublin({ jobs: 10, seed: 1, params: { bogus: 1 } as never })).to.throw(/bogus/);
    // A small machine works once uMed is set too.
    const small = generateLublin({ jobs: 500, seed: 1, machineSize: 16, params: { uMed: 1.5, uLow: 0.8 } });
    expect(Math.max(...small.map((j) => j.procs))).to.be.at.most(16);
  });

  it('changing size parameters leaves arrival times unchanged (separate streams)', () => {
    const a = generateLublin({ jobs: 500, seed: 21 });
    const b = generateLublin({ jobs: 500, seed: 21, params: { serialProb: 0.3 } });
    expect(a.map((j) => j.submit)).to.deep.equal(b.map((j) => j.submit));
    expect(a.map((j) => j.procs)).to.not.deep.equal(b.map((j) => j.procs));
  });
});

describe('Lublin sizes on machines of other sizes', () => {
  // Size, from the model's definition (MODELS.md 1.2) with the interactive
  // values of its table, sampled with an independent generator.
  function modelInteractiveSize(rnd: () => number, uHi: number): number {
    const u = rnd();
    if (u <= 0.1541) return 1;
    const x = rnd() <= 0.705 ? 1 + (3 - 1) * rnd() : 3 + (uHi - 3) * rnd();
    return Math.round(2 ** (u <= 0.1541 + 0.625 ? Math.round(x) : x));
  }
  const interactive = (machineSize: number) =>
    generateLublin({ jobs: 40000, seed: `interactive-${machineSize}`, machineSize })
      .filter((j) => j.queue === 0)
      .map((j) => j.procs);

  it('at 128 processors (the model\'s machine) both streams keep the model\'s uHi: batch 7, interactive 5.5', () => {
    const a = writeSwf(generateLublin({ jobs: 5000, seed: 5, machineSize: 128 }));
    const b = writeSwf(generateLublin({ jobs: 5000, seed: 5 }));
    expect(a).to.equal(b);
    const sizes = interactive(128);
    // The largest interactive job of the model has round(2^5.5) = 45 nodes.
    expect(Math.max(...sizes)).to.equal(45);
  });

  for (const machineSize of [128, 256, 1024]) {
    it(`${machineSize} processors: interactive sizes match the model with uHi = log2(${machineSize}) − 1.5 (two-sample KS, α = 0.001)`, () => {
      const ours = interactive(machineSize);
      const rnd = mulberry32(machineSize);
      const model = Array.from({ length: 20000 }, () => modelInteractiveSize(rnd, Math.log2(machineSize) - 1.5));
      expect(ours.length).to.be.greaterThan(5000);
      expect(ksStatistic(ours, model)).to.be.below(ksCritical001(ours.length, model.length));
      expect(Math.max(...ours)).to.be.at.most(Math.round(machineSize / 2 ** 1.5));
    });
  }
});

