import { expect } from 'chai';
import { estimateDistribution, withEmpiricalEstimates } from '../../src/workloads/estimates';
import { WorkloadJob } from '../../src/workloads/job';
import { InputError } from '../../src/util/errors';

const job = (id: number, runtime: number, requestedTime?: number, procs = 1): WorkloadJob => ({ id, submit: 0, runtime, procs, requestedTime });

describe('runtime estimates: measured and empirical', () => {
  it('estimateDistribution: totals, quantiles, share at the largest estimate; underestimates count as the runtime', () => {
    const d = estimateDistribution([job(1, 10, 100), job(2, 100, 100, 4), job(3, 100, 50), job(4, 0, 60), job(5, 10)]);
    expect(d.jobs).to.equal(3);
    expect(d.totalRatio).to.be.closeTo((100 + 100 + 100) / 210, 1e-12);
    expect(d.areaRatio).to.be.closeTo((100 + 400 + 100) / (10 + 400 + 100), 1e-12);
    expect(d.median).to.equal(1);
    expect(d.maxEstimate).to.equal(100);
    expect(d.atMaxShare).to.be.closeTo(2 / 3, 1e-12);
    expect(d.underShare).to.be.closeTo(1 / 3, 1e-12);
    expect(() => estimateDistribution([job(1, 10)])).to.throw(InputError, /no job/);
  });

  it('withEmpiricalEstimates: each job takes a ratio from its own runtime class of the reference', () => {
    // short jobs of the log overestimate ×10, long ones ×1.5
    const reference = [...Array.from({ length: 50 }, (_, k) => job(k, 60 + k, 10 * (60 + k))), ...Array.from({ length: 50 }, (_, k) => job(100 + k, 36000 + k, 1.5 * (36000 + k)))];
    const jobs = [job(1, 30), job(2, 100), job(3, 20000), job(4, 90000), job(5, 0)];
    const out = withEmpiricalEstimates(jobs, reference, { seed: 4, classes: 2 });
    expect(out.map((j) => j.requestedTime)).to.deep.equal([300, 1000, 30000, 135000, out[4].requestedTime]);
    expect(out[4].requestedTime! % 10).to.equal(0); // runtime 0: a short log job's own estimate
    expect(out.map((j) => ({ ...j, requestedTime: undefined }))).to.deep.equal(jobs.map((j) => ({ ...j, requestedTime: undefined })));
    // one class: every job may take either ratio; seeded
    const mixed = withEmpiricalEstimates(Array.from({ length: 200 }, (_, k) => job(k, 1000)), reference, { seed: 9, classes: 1 });
    expect(new Set(mixed.map((j) => j.requestedTime))).to.deep.equal(new Set([10000, 1500]));
    expect(withEmpiricalEstimates(Array.from({ length: 200 }, (_, k) => job(k, 1000)), reference, { seed: 9, classes: 1 })).to.deep.equal(mixed);
  });

  it('withEmpiricalEstimates: a reference too small for its classes is an error', () => {
    expect(() => withEmpiricalEstimates([job(1, 10)], [job(1, 10, 20)], { classes: 2 })).to.throw(InputError, /fewer than 2 classes/);
  });
});
