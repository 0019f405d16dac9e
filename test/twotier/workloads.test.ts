import { expect } from 'chai';
import * as fc from 'fast-check';
import {
  calibrateFeitelson96, FEITELSON96_PARAMS, feitelson96SizeProbabilities, feitelson96Stats, generateFeitelson96, MEASY_FWLOAD_TARGETS,
} from '../../src/workloads/feitelson96';
import {
  calibrateJann97, fitHyperErlang, generateJann97, hyperErlangMoment, JANN97_CTC_FIT, JANN97_PARAMS, jann97Stats, MEASY_JWLOAD_TARGETS, sampleHyperErlang,
} from '../../src/workloads/jann97';
import { tsafrirBinCount, tsafrirEstimates, tsafrirHeadValues, withTsafrirEstimates } from '../../src/workloads/tsafrir05';
import { assignCpuUsage, measyWorkload } from '../../src/schedulers/twotier';
import { offeredLoad } from '../../src/workloads/filters';
import { Rng } from '../../src/util/random';

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

describe('twotier workloads: Tsafrir 2005 estimates', () => {
  it('every estimate is at least its runtime (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 200000 }), { minLength: 1, maxLength: 400 }), fc.integer({ min: 0, max: 1000 }), (rts, seed) => {
        const { estimates, bins } = tsafrirEstimates(rts, { seed });
        expect(estimates).to.have.length(rts.length);
        rts.forEach((r, k) => expect(estimates[k]).to.be.at.least(r));
        expect(bins.reduce((s, b) => s + b.count, 0)).to.equal(rts.length);
      }),
      { numRuns: 100, seed: 7 },
    );
  });

  it('K follows the piecewise-linear model; max_est is the most popular value; the head holds about 89%', () => {
    expect(tsafrirBinCount(200)).to.equal(20);
    expect(tsafrirBinCount(10000)).to.equal(90);
    expect(tsafrirBinCount(1e6)).to.equal(565);
    const head = tsafrirHeadValues(18 * 3600);
    expect(head[0]).to.equal(64800);
    expect(head).to.have.length(20);
    expect(head).to.include.members([300, 600, 900, 1200, 1800, 3600]);
    const rng = new Rng(3);
    const rts = Array.from({ length: 10000 }, () => Math.round(rng.exponential(3000)));
    const r = tsafrirEstimates(rts, { seed: 1, maxEstimate: 64800 });
    expect(r.bins).to.have.length(90);
    const top = r.bins.slice().sort((a, b) => b.count - a.count)[0];
    expect(top.value).to.equal(64800);
    const headShare = r.bins.filter((b) => b.head).reduce((s, b) => s + b.count, 0) / 10000;
    expect(headShare).to.be.closeTo(0.89, 0.01);
  });

  it('rejects a maximum below one hour or below the largest runtime', () => {
    expect(() => tsafrirEstimates([10], { maxEstimate: 600 })).to.throw(/at least 3600/);
    expect(() => tsafrirEstimates([7200], { maxEstimate: 3600 })).to.throw(/below the largest runtime/);
  });
});

describe('twotier workloads: generators', () => {
  it('same seed, same output; another seed, another output', () => {
    expect(generateFeitelson96({ jobs: 500, seed: 3 })).to.deep.equal(generateFeitelson96({ jobs: 500, seed: 3 }));
    expect(generateFeitelson96({ jobs: 500, seed: 3 })).to.not.deep.equal(generateFeitelson96({ jobs: 500, seed: 4 }));
    expect(generateJann97({ jobs: 500, seed: 3 })).to.deep.equal(generateJann97({ jobs: 500, seed: 3 }));
    expect(generateJann97({ jobs: 500, seed: 3 })).to.not.deep.equal(generateJann97({ jobs: 500, seed: 4 }));
    const rts = generateJann97({ jobs: 300, seed: 1 });
    expect(withTsafrirEstimates(rts, { seed: 9 })).to.deep.equal(withTsafrirEstimates(rts, { seed: 9 }));
    const a = measyWorkload({ workload: 'feitelson', jobs: 300, load: 0.7, seed: 2 });
    const b = measyWorkload({ workload: 'feitelson', jobs: 300, load: 0.7, seed: 2 });
    expect(a.map((j) => [j.submit, j.runtime, j.procs, j.requestedTime, Array.from(j.cpuUsage!)])).to.deep.equal(b.map((j) => [j.submit, j.runtime, j.procs, j.requestedTime, Array.from(j.cpuUsage!)]));
  });

  it('calibration hits the targets analytically', () => {
    const f = feitelson96Stats(FEITELSON96_PARAMS);
    expect(f.meanProcs).to.be.closeTo(MEASY_FWLOAD_TARGETS.meanProcs, 1e-6);
    expect(f.meanRuntime).to.be.closeTo(MEASY_FWLOAD_TARGETS.meanRuntime, 1e-6);
    expect(f.serialFraction).to.be.closeTo(MEASY_FWLOAD_TARGETS.serialFraction, 1e-12);
    expect(f.pow2Share).to.be.closeTo(MEASY_FWLOAD_TARGETS.pow2Share, 1e-9);
    const pr = feitelson96SizeProbabilities(FEITELSON96_PARAMS);
    expect(pr.reduce((s, x) => s + x, 0)).to.be.closeTo(1, 1e-12);
    const j = jann97Stats(JANN97_PARAMS);
    expect(j.meanProcs).to.be.closeTo(MEASY_JWLOAD_TARGETS.meanProcs, 1e-6);
    expect(j.meanRuntime).to.be.closeTo(MEASY_JWLOAD_TARGETS.meanRuntime, 1e-6);
    expect(j.serialFraction).to.be.closeTo(MEASY_JWLOAD_TARGETS.serialFraction, 1e-9);
    // calibration keeps the fitted shapes: same orders and branch probabilities
    JANN97_PARAMS.ranges.forEach((r, k) => {
      expect(r.runtime.order).to.equal(JANN97_CTC_FIT.ranges[k].runtime.order);
      expect(r.runtime.p).to.equal(JANN97_CTC_FIT.ranges[k].runtime.p);
    });
    expect(() => calibrateFeitelson96({ ...MEASY_FWLOAD_TARGETS, meanProcs: 400 })).to.throw(/out of reach/);
    expect(() => calibrateJann97(JANN97_CTC_FIT, { ...MEASY_JWLOAD_TARGETS, meanProcs: 500 })).to.throw(/out of reach/);
  });

  it('generated workloads are near their targets (20k jobs)', () => {
    const f = generateFeitelson96({ jobs: 20000, seed: 1 });
    expect(mean(f.map((j) => j.procs))).to.be.closeTo(23.4, 23.4 * 0.08);
    expect(mean(f.map((j) => j.runtime))).to.be.closeTo(2606.6, 2606.6 * 0.1);
    expect(mean(f.map((j) => +(j.procs === 1)))).to.be.below(0.2);
    const j = generateJann97({ jobs: 20000, seed: 1 });
    expect(mean(j.map((x) => +(x.procs === 1)))).to.be.closeTo(0.408, 0.02);
    expect(mean(j.map((x) => x.runtime))).to.be.closeTo(11267, 11267 * 0.1);
    for (const w of [f, j]) for (let k = 1; k < w.length; k++) expect(w[k].submit).to.be.at.least(w[k - 1].submit);
  });

  it('three-moment Hyper-Erlang fit reproduces the moments and samples match them', () => {
    const target = { order: 2, p: 0.3, scale1: 500, scale2: 40 };
    const m = [1, 2, 3].map((i) => hyperErlangMoment(target, i));
    const fit = fitHyperErlang(m[0], m[1], m[2]);
    expect(fit.matched).to.equal(3);
    [1, 2, 3].forEach((i) => expect(hyperErlangMoment(fit, i) / m[i - 1]).to.be.closeTo(1, 1e-6));
    const rng = new Rng(11);
    const xs = Array.from({ length: 40000 }, () => sampleHyperErlang(rng, fit));
    expect(mean(xs) / m[0]).to.be.closeTo(1, 0.03);
  });

  it('CPU usage: 100% for one process, U(40%, 100%) per process otherwise; all 100% in full mode', () => {
    const jobs = assignCpuUsage(generateFeitelson96({ jobs: 2000, seed: 2 }), { seed: 1 });
    for (const j of jobs) {
      expect(j.cpuUsage!.length).to.equal(j.procs);
      for (const u of Array.from(j.cpuUsage!)) {
        if (j.procs === 1) expect(u).to.equal(1);
        else expect(u).to.be.within(0.4, 1);
      }
    }
    const multi = jobs.filter((j) => j.procs > 1).flatMap((j) => Array.from(j.cpuUsage!));
    expect(mean(multi)).to.be.closeTo(0.7, 0.01);
    expect(assignCpuUsage(jobs, { mode: 'full' }).every((j) => Array.from(j.cpuUsage!).every((u) => u === 1))).to.equal(true);
  });

  it('load scaling sets the offered load and keeps the jobs', () => {
    const a = measyWorkload({ workload: 'jann', jobs: 1000, load: 0.5, seed: 1 });
    const b = measyWorkload({ workload: 'jann', jobs: 1000, load: 0.9, seed: 1 });
    expect(offeredLoad(a, 320)).to.be.closeTo(0.5, 1e-9);
    expect(offeredLoad(b, 320)).to.be.closeTo(0.9, 1e-9);
    expect(a.map((j) => j.runtime)).to.deep.equal(b.map((j) => j.runtime));
  });
});
