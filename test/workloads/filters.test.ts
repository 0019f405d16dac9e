import { expect } from 'chai';
import { WorkloadJob } from '../../src/workloads/job';
import { cleanJobs, offeredLoad, scaleLoad, scaleToLoad, timeWindow, weeklySegments, SECONDS_PER_WEEK } from '../../src/workloads/filters';

const J = (id: number, submit: number, runtime: number, procs: number, extra: Partial<WorkloadJob> = {}): WorkloadJob => ({ id, submit, runtime, procs, ...extra });

describe('workload filters', () => {
  const jobs = [J(1, 0, 100, 2), J(2, 50, 100, 4), J(3, 100, 300, 1), J(4, 200, 0, 2)];

  it('timeWindow keeps start <= submit < end', () => {
    expect(timeWindow(jobs, { start: 50, end: 200 }).map((j) => j.id)).to.deep.equal([2, 3]);
    expect(() => timeWindow(jobs, { start: 5, end: 1 })).to.throw(/start/);
  });

  it('weeklySegments cuts by week and rebases', () => {
    const w = SECONDS_PER_WEEK;
    const js = [J(1, 0, 1, 1), J(2, w + 5, 1, 1), J(3, w + 7, 1, 1), J(4, 3 * w + 1, 1, 1)];
    const segs = weeklySegments(js);
    expect(segs.map((s) => s.map((j) => j.id))).to.deep.equal([[1], [2, 3], [4]]);
    expect(segs[1].map((j) => j.submit)).to.deep.equal([5, 7]);
    expect(weeklySegments(js, { minJobs: 2 })).to.have.length(1);
    expect(weeklySegments(js, { rebase: false })[2][0].submit).to.equal(3 * w + 1);
  });

  it('cleanJobs counts what it dropped and why', () => {
    const dirty = [
      J(1, 0, 10, 2, { requestedTime: 20, status: 1 }),
      J(2, 0, 10, 200, { requestedTime: 20, status: 1 }),
      J(3, 0, 10, 2, { status: 1 }),
      J(4, 0, 0, 2, { requestedTime: 20, status: 1 }),
      J(5, 0, 10, 2, { requestedTime: 20, status: 5 }),
      J(6, 0, -3, 2),
    ];
    const r = cleanJobs(dirty, { machineSize: 100, requireRequestedTime: true, dropZeroRuntime: true, statuses: [0, 1] });
    expect(r.jobs.map((j) => j.id)).to.deep.equal([1]);
    expect(r.dropped).to.deep.equal({
      'more processors than machine': 1,
      'missing requested time': 1,
      'zero run time': 1,
      'status 5': 1,
      'invalid run time': 1,
    });
  });

  it('offeredLoad is work over capacity × submission span', () => {
    // work = 200 + 400 + 300 + 0 = 900; span 200; machine 4 => 900 / 800
    expect(offeredLoad(jobs, 4)).to.be.closeTo(900 / 800, 1e-12);
    expect(() => offeredLoad([jobs[0]], 4)).to.throw(/at least 2/);
  });

  it('scaleLoad multiplies inter-arrival times; load divides by the factor', () => {
    const s = scaleLoad(jobs, 0.5);
    expect(s.map((j) => j.submit)).to.deep.equal([0, 25, 50, 100]);
    expect(offeredLoad(s, 4)).to.be.closeTo(offeredLoad(jobs, 4) / 0.5, 1e-12);
    expect(jobs[1].submit).to.equal(50); // input untouched
    expect(offeredLoad(scaleToLoad(jobs, 4, 0.7), 4)).to.be.closeTo(0.7, 1e-12);
    expect(() => scaleLoad(jobs, 0)).to.throw(/factor/);
    // Unsorted submit times (accepted by the simulators): offsets from the earliest are scaled, order kept.
    expect(scaleLoad([J(1, 5, 1, 1), J(2, 1, 1, 1), J(3, 3, 1, 1)], 2).map((j) => j.submit)).to.deep.equal([9, 1, 5]);
  });
});
