import { expect } from 'chai';
import * as fc from 'fast-check';
import { WorkloadJob } from '../../src/workloads/job';
import {
  DFRS_LOADS,
  DFRS_PAPER_SPAN_DAYS,
  HPC2N_TRACE_PATH,
  dfrsTraceSet,
  dfrsWork,
  hpc2nJob,
  hpc2nWeek,
  hpc2nWeekCount,
  hpc2nWeeks,
  offeredLoad,
  readHpc2n,
  scaleToLoad,
  syntheticDfrsTrace,
} from '../../src/workloads/dfrs';

describe('workloads/dfrs: synthetic Lublin-based traces', () => {
  const traces = [1, 2, 3, 4, 5].map((seed) => syntheticDfrsTrace({ seed }));
  const all = traces.flat();

  it('same seed gives the same trace, another seed a different one', () => {
    expect(syntheticDfrsTrace({ seed: 1 })).to.deep.equal(traces[0]);
    expect(JSON.stringify(traces[1])).to.not.equal(JSON.stringify(traces[0]));
  });

  it('has 1000 well-formed jobs on 128 nodes, sorted by submit time', () => {
    for (const t of traces) {
      expect(t).to.have.length(1000);
      t.forEach((j, i) => {
        expect(j.tasks).to.be.within(1, 128);
        expect(Number.isInteger(j.tasks)).to.equal(true);
        expect(j.runtime).to.be.above(0);
        expect(j.estimate).to.equal(j.runtime);
        if (i > 0) expect(j.submit).to.be.at.least(t[i - 1].submit);
      });
    }
  });

  it('gives one-task jobs CPU need 0.25 (quad-core) and all others 1.0', () => {
    const single = all.filter((j) => j.tasks === 1);
    expect(single.length).to.be.above(500); // the model has ~20-30% serial jobs
    expect(single.every((j) => j.cpuNeed === 0.25)).to.equal(true);
    expect(all.filter((j) => j.tasks > 1).every((j) => j.cpuNeed === 1)).to.equal(true);
    expect(syntheticDfrsTrace({ seed: 1, cores: 2 }).filter((j) => j.tasks === 1)[0].cpuNeed).to.equal(0.5);
  });

  it('draws memory: 10% for ~55% of jobs, 20%..100% each ~5% otherwise', () => {
    const counts = new Map<number, number>();
    for (const j of all) counts.set(j.mem, (counts.get(j.mem) ?? 0) + 1);
    expect([...counts.keys()].sort((a, b) => a - b)).to.deep.equal([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    expect(counts.get(0.1)! / all.length).to.be.closeTo(0.55, 0.03);
    for (let x = 2; x <= 10; x++) expect(counts.get(x / 10)! / all.length).to.be.closeTo(0.05, 0.015);
  });

  it('scaleToLoad reaches the requested offered load and keeps the job mix', () => {
    const base = traces[0];
    for (const load of DFRS_LOADS) {
      const scaled = scaleToLoad(base, load, 128);
      expect(offeredLoad(scaled, 128)).to.be.closeTo(load, 1e-9);
      expect(scaled.map((j) => [j.id, j.tasks, j.cpuNeed, j.mem, j.runtime])).to.deep.equal(base.map((j) => [j.id, j.tasks, j.cpuNeed, j.mem, j.runtime]));
      expect(scaled[0].submit).to.equal(base[0].submit);
    }
  });

  it('offeredLoad is CPU work over capacity times the arrival span; scaling multiplies inter-arrival times', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.05, max: 2, noNaN: true }), (load) => {
        const base = traces[2];
        const scaled = scaleToLoad(base, load, 128);
        const k = (scaled[999].submit - scaled[0].submit) / (base[999].submit - base[0].submit);
        for (let i = 1; i < base.length; i += 97) {
          expect(scaled[i].submit - scaled[i - 1].submit).to.be.closeTo((base[i].submit - base[i - 1].submit) * k, 1e-6);
        }
      }),
      { numRuns: 20, seed: 3 },
    );
    const two = [
      { id: 1, submit: 0, tasks: 4, cpuNeed: 1, mem: 0.1, runtime: 100 },
      { id: 2, submit: 100, tasks: 1, cpuNeed: 0.25, mem: 0.1, runtime: 400 },
    ];
    expect(dfrsWork(two[1])).to.equal(100);
    expect(offeredLoad(two, 10)).to.be.closeTo(500 / (10 * 100), 1e-12);
    expect(() => scaleToLoad([two[1], two[0]], 0.5, 10)).to.throw(/sorted/);
  });

  it('dfrsTraceSet builds the unscaled and scaled sets from the same base traces', () => {
    const unscaled = dfrsTraceSet('unscaled', { count: 2, seed: 9, jobs: 200 });
    const scaled = dfrsTraceSet('scaled', { count: 2, seed: 9, jobs: 200, loads: [0.3, 0.7] });
    expect(unscaled.map((t) => t.name)).to.deep.equal(['lublin-0', 'lublin-1']);
    expect(scaled.map((t) => t.name)).to.deep.equal(['lublin-0@0.3', 'lublin-0@0.7', 'lublin-1@0.3', 'lublin-1@0.7']);
    expect(scaled[3].jobs.map((j) => j.runtime)).to.deep.equal(unscaled[1].jobs.map((j) => j.runtime));
    expect(scaled[3].offeredLoad).to.be.closeTo(0.7, 1e-9);
    expect(unscaled[0]).to.include({ nodes: 128, cores: 4 });
    expect(() => dfrsTraceSet('bogus' as 'hpc2n')).to.throw(/unknown set 'bogus'/);
  });

  it('spanDays keeps only base traces spanning the paper\'s 4-6 days, skipping seeds in order', () => {
    const days = (jobs: { submit: number }[]) => (jobs[jobs.length - 1].submit - jobs[0].submit) / 86400;
    const plain = dfrsTraceSet('unscaled', { count: 12 });
    const paper = dfrsTraceSet('unscaled', { count: 4, spanDays: DFRS_PAPER_SPAN_DAYS });
    const inWindow = plain.filter((t) => days(t.jobs) >= 4 && days(t.jobs) <= 6);
    // Some unconditioned traces fall outside the window, so the option changes something.
    expect(inWindow.length).to.be.within(4, 11);
    expect(paper.map((t) => t.name)).to.deep.equal(inWindow.slice(0, 4).map((t) => t.name));
    paper.forEach((t, i) => {
      expect(t.index).to.equal(i);
      expect(days(t.jobs)).to.be.within(4, 6);
      expect(t.jobs).to.deep.equal((plain.find((p) => p.name === t.name) as (typeof plain)[number]).jobs);
    });
    const scaled = dfrsTraceSet('scaled', { count: 2, spanDays: DFRS_PAPER_SPAN_DAYS, loads: [0.5] });
    expect(scaled.map((t) => t.name)).to.deep.equal(paper.slice(0, 2).map((t) => `${t.name}@0.5`));
    expect(() => dfrsTraceSet('unscaled', { count: 2, jobs: 50, spanDays: [40, 41] })).to.throw(/widen spanDays/);
    expect(() => dfrsTraceSet('unscaled', { count: 1, spanDays: [6, 4] })).to.throw(/spanDays/);
  });
});

describe('workloads/dfrs: HPC2N preprocessing', () => {
  const swf = (procs: number, extra: Partial<WorkloadJob> = {}): WorkloadJob => ({ id: 1, submit: 0, runtime: 60, procs, ...extra });
  const GB2 = 2 * 1024 * 1024;

  it('turns even-processor, low-memory jobs into procs/2 multi-threaded tasks with doubled memory', () => {
    expect(hpc2nJob(swf(8, { usedMemory: 0.3 * GB2, requestedMemory: 0.2 * GB2 }))).to.deep.include({ tasks: 4, cpuNeed: 1, mem: 0.6 });
  });

  it('keeps one task per processor (need 0.5) for odd counts or memory >= 50%', () => {
    expect(hpc2nJob(swf(7, { usedMemory: 0.3 * GB2 }))).to.deep.include({ tasks: 7, cpuNeed: 0.5, mem: 0.3 });
    expect(hpc2nJob(swf(8, { requestedMemory: 0.5 * GB2 }))).to.deep.include({ tasks: 8, cpuNeed: 0.5, mem: 0.5 });
  });

  it('applies the 10% floor, also when memory is unknown', () => {
    expect(hpc2nJob(swf(3, { usedMemory: 1000 })).mem).to.equal(0.1);
    expect(hpc2nJob(swf(3)).mem).to.equal(0.1);
    expect(hpc2nJob(swf(2)).mem).to.equal(0.2); // floor, then doubled for the 2-core task
  });

  it('segments by week from the log start and rebases submit times', () => {
    const week = 7 * 24 * 3600;
    const weeks = hpc2nWeeks([swf(1, { submit: 10 }), swf(1, { submit: week + 5 }), swf(1, { submit: 3 * week + 1 })]);
    expect(weeks.map((w) => w.map((j) => j.submit))).to.deep.equal([[10], [5], [1]]);
  });

  it('switches (issue 25): jobs crossing a week end kept, dropped or carried over; one task per processor', () => {
    const week = 7 * 24 * 3600;
    // job 1 runs from week 0 into week 2; job 2 ends inside week 0; job 3 is week 1's own
    const jobs = [swf(1, { id: 1, submit: 100, runtime: week + 200 }), swf(1, { id: 2, submit: 300, runtime: 60 }), swf(1, { id: 3, submit: week + 50, runtime: 10 }), swf(1, { id: 4, submit: 2 * week + 7, runtime: 10 })];
    const view = (w: { id: number; submit: number; runtime: number }[][]) => w.map((x) => x.map((j) => [j.id, j.submit, j.runtime]));
    expect(view(hpc2nWeeks(jobs))).to.deep.equal(view(hpc2nWeeks(jobs, { spanning: 'keep' })));
    expect(view(hpc2nWeeks(jobs))).to.deep.equal([[[1, 100, week + 200], [2, 300, 60]], [[3, 50, 10]], [[4, 7, 10]]]);
    expect(view(hpc2nWeeks(jobs, { spanning: 'drop' }))).to.deep.equal([[[2, 300, 60]], [[3, 50, 10]], [[4, 7, 10]]]);
    // carried: the remainder at week 1's start is week + 300 - week = 300 s; none is left at week 2's start
    expect(view(hpc2nWeeks(jobs, { spanning: 'carry-over' }))).to.deep.equal([[[1, 100, week + 200], [2, 300, 60]], [[1, 0, 300], [3, 50, 10]], [[4, 7, 10]]]);
    expect(() => hpc2nWeeks(jobs, { spanning: 'clip' as never })).to.throw(/spanning must be/);
    expect(hpc2nJob(swf(8, { usedMemory: 0.3 * GB2 }), { tasks: 'per-processor' })).to.deep.include({ tasks: 8, cpuNeed: 0.5, mem: 0.3 });
    expect(hpc2nJob(swf(8, { usedMemory: 0.3 * GB2 }), { tasks: 'paper' })).to.deep.include({ tasks: 4, cpuNeed: 1, mem: 0.6 });
    expect(() => hpc2nJob(swf(8), { tasks: 'per-node' as never })).to.throw(/tasks must be/);
  });

  it('a cut is reused per log and options, each call gets its own copies', () => {
    const week = 7 * 24 * 3600;
    const jobs = [swf(1, { id: 1, submit: 100, runtime: week + 200 }), swf(1, { id: 2, submit: week + 50, runtime: 10 })];
    const first = hpc2nWeeks(jobs);
    first[0][0].runtime = 1; // a caller changing its copy
    first[1].pop();
    expect(hpc2nWeeks(jobs).map((w) => w.map((j) => [j.id, j.runtime]))).to.deep.equal([[[1, week + 200]], [[2, 10]]]);
    // other options, another cut; a job added to the same array is seen
    expect(hpc2nWeeks(jobs, { spanning: 'drop' }).map((w) => w.map((j) => j.id))).to.deep.equal([[], [2]]);
    expect(hpc2nWeeks(jobs, { rebase: false })[1][0].submit).to.equal(week + 50);
    jobs.push(swf(1, { id: 3, submit: 2 * week + 1 }));
    expect(hpc2nWeeks(jobs)).to.have.length(3);
    // one week alone: the same jobs as the whole cut's, its own copies, nothing past the last week
    expect(hpc2nWeekCount(jobs, { spanning: 'drop' })).to.equal(3);
    for (let i = 0; i < 3; i++) expect(hpc2nWeek(jobs, i, { spanning: 'drop' })).to.deep.equal(hpc2nWeeks(jobs, { spanning: 'drop' })[i]);
    hpc2nWeek(jobs, 1)![0].runtime = 1;
    expect(hpc2nWeek(jobs, 1)![0].runtime).to.equal(10);
    expect(hpc2nWeek(jobs, 3)).to.equal(undefined);
  });

  it('a week is converted when read: a bad job in another week stops only that week', () => {
    const week = 7 * 24 * 3600;
    const jobs = [swf(2, { id: 1, submit: 10 }), swf(2, { id: 2, submit: week + 5 }), { ...swf(2, { id: 3, submit: week + 9 }), procs: 0 }];
    for (const spanning of ['keep', 'drop', 'carry-over'] as const) {
      expect(hpc2nWeek(jobs, 0, { spanning })!.map((j) => j.id)).to.deep.equal([1]);
      expect(hpc2nWeekCount(jobs, { spanning })).to.equal(2);
      expect(() => hpc2nWeek(jobs, 1, { spanning })).to.throw(/job 3: processors must be a positive integer/);
      expect(() => hpc2nWeeks(jobs, { spanning })).to.throw(/job 3/);
    }
  });

  it('on the real trace: 182 week-long segments, every job kept, memory floor respected', function () {
    this.timeout(5 * 60 * 1000); // a guard against hangs: the suite runs beside notebook executions
    const raw = readHpc2n(HPC2N_TRACE_PATH);
    const weeks = hpc2nWeeks(raw);
    expect(weeks).to.have.length(182);
    const jobs = weeks.flat();
    expect(jobs).to.have.length(raw.length);
    expect(jobs.every((j) => j.mem >= 0.1 - 1e-12 && j.mem <= 1)).to.equal(true);
    expect(jobs.every((j) => j.cpuNeed === 0.5 || j.cpuNeed === 1)).to.equal(true);
    expect(jobs.every((j) => j.tasks >= 1 && j.tasks <= 120)).to.equal(true);
    expect(weeks.every((w) => w.every((j) => j.submit >= 0 && j.submit < 7 * 24 * 3600))).to.equal(true);
    // Jobs with neither memory field sit exactly on the floor (doubled when multi-threaded).
    const unknown = raw.filter((j) => j.usedMemory === undefined && j.requestedMemory === undefined);
    expect(unknown.length).to.be.above(1000);
    for (const j of unknown.slice(0, 200)) expect([0.1, 0.2]).to.include(hpc2nJob(j).mem);
    const set = dfrsTraceSet('hpc2n', { count: 4 });
    expect(set.map((t) => t.index)).to.deep.equal([0, 45, 91, 136]);
    expect(set[0]).to.include({ nodes: 120, cores: 2 });
  });
});
