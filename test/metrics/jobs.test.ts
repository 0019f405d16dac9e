import { expect } from 'chai';
import { jobMetrics, summarizeRun, boundedSlowdown, stretch } from '../../src/metrics/jobs';

describe('job metrics', () => {
  it('computes wait, response, stretch and bounded slowdown by hand', () => {
    // waits 20, runs 100: response 120, stretch 1.2, bsld 1.2
    expect(jobMetrics({ id: 1, submit: 0, start: 20, end: 120 })).to.deep.equal({ id: 1, wait: 20, response: 120, stretch: 1.2, boundedSlowdown: 1.2 });
    // short job: waits 18, runs 2: stretch 10, bounded slowdown 20/10 = 2
    const short = { submit: 0, start: 18, end: 20 };
    expect(stretch(short)).to.equal(10);
    expect(boundedSlowdown(short)).to.equal(2);
    expect(boundedSlowdown(short, 20)).to.equal(1);
    expect(boundedSlowdown({ submit: 0, start: 0, end: 1 })).to.equal(1); // never below 1
    expect(stretch({ submit: 0, start: 0, end: 0 })).to.equal(1);
    expect(stretch({ submit: 0, start: 5, end: 5 })).to.equal(Infinity);
  });

  it('summarizes a run: averages, maxima, makespan, utilization', () => {
    const jobs = [
      { submit: 0, start: 0, end: 10, procs: 2 }, // wait 0, resp 10, bsld 1
      { submit: 5, start: 10, end: 30, procs: 4 }, // wait 5, resp 25, bsld 1.25
    ];
    const s = summarizeRun(jobs, { machineSize: 4 });
    expect(s.meanWait).to.equal(2.5);
    expect(s.maxWait).to.equal(5);
    expect(s.meanResponse).to.equal(17.5);
    expect(s.maxBoundedSlowdown).to.equal(1.25);
    expect(s.meanBoundedSlowdown).to.equal(1.125);
    expect(s.makespan).to.equal(30);
    expect(s.utilization).to.be.closeTo((20 + 80) / (4 * 30), 1e-12);
    expect(Number.isNaN(summarizeRun(jobs).utilization)).to.equal(true);
  });

  it('rejects impossible schedules', () => {
    expect(() => jobMetrics({ id: 7, submit: 10, start: 5, end: 20 })).to.throw(/job 7 starts at 5, before its submission at 10/);
    expect(() => jobMetrics({ id: 8, submit: 0, start: 5, end: 2 })).to.throw(/job 8 ends/);
    expect(() => summarizeRun([])).to.throw(/no jobs/);
  });
});
