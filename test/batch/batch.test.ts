import { expect } from 'chai';
import { J } from '../support/helpers';
import fc from 'fast-check';
import { WorkloadJob } from '../../src/workloads/job';
import { simulateBatch, BatchPolicy, BatchJobResult, conservativeSchedule, verifyProcessorNames } from '../../src/schedulers/batch';
import { loadTraceSync } from '../../src/workloads/traces';
import { InputError } from '../../src/util/errors';

const starts = (r: BatchJobResult[]) => Object.fromEntries(r.map((x) => [x.id, x.start]));

describe('batch schedulers: hand-worked schedules', () => {
  // Machine of 4. J1 2p×10 runs at 0. J2 (4p) is the head, reserved at 10 (extra 0).
  // J3 (2p×20) fits now but would end at 22 > 10 and so would delay J2: it must not run.
  // J4 (2p×5) ends at 8 <= 10: it is backfilled.
  const delayCase = [J(1, 0, 2, 10), J(2, 1, 4, 10), J(3, 2, 2, 20), J(4, 3, 2, 5)];

  it('EASY does not backfill a job that would delay the head, backfills one that would not', () => {
    const r = simulateBatch(delayCase, { machineSize: 4, policy: 'easy' });
    expect(starts(r)).to.deep.equal({ 1: 0, 2: 10, 3: 20, 4: 3 });
  });

  it('FCFS never backfills', () => {
    const r = simulateBatch(delayCase, { machineSize: 4, policy: 'fcfs' });
    // J3 and J4 both start when J2 ends at 20 (2 + 2 processors).
    expect(starts(r)).to.deep.equal({ 1: 0, 2: 10, 3: 20, 4: 20 });
    expect(r.map((x) => x.wait)).to.deep.equal([0, 9, 18, 17]);
  });

  it('conservative: same as EASY on this case (J4 fits before every reservation)', () => {
    const r = simulateBatch(delayCase, { machineSize: 4, policy: 'conservative' });
    expect(starts(r)).to.deep.equal({ 1: 0, 2: 10, 3: 20, 4: 3 });
  });

  // Machine of 4. J1 2p×10 at 0. J2 3p×10 head, shadow 10, extra 1.
  // J3 4p×10 waits (conservative reserves [20,30)). J4 1p×20 fits now and uses the
  // extra processor: EASY backfills it (it does not delay the head), but it would
  // hold a processor on [20,23) and so delay J3's reservation: conservative does not.
  const extraCase = [J(1, 0, 2, 10), J(2, 1, 3, 10), J(3, 2, 4, 10), J(4, 3, 1, 20)];

  it('EASY backfills on extra processors where conservative does not', () => {
    const easy = simulateBatch(extraCase, { machineSize: 4, policy: 'easy' });
    // J4 runs [3,23); J2 [10,20); J3 must wait for J4: [23,33).
    expect(starts(easy)).to.deep.equal({ 1: 0, 2: 10, 3: 23, 4: 3 });
    const cons = simulateBatch(extraCase, { machineSize: 4, policy: 'conservative' });
    // J3 keeps its reservation at 20; J4 gets the first hole after it: 30.
    expect(starts(cons)).to.deep.equal({ 1: 0, 2: 10, 3: 20, 4: 30 });
    const fcfs = simulateBatch(extraCase, { machineSize: 4, policy: 'fcfs' });
    expect(starts(fcfs)).to.deep.equal({ 1: 0, 2: 10, 3: 20, 4: 30 });
  });

  it('requested estimates change backfilling decisions', () => {
    // As delayCase, but J4 asks for 15 s (ends by estimate at 18 > 10): not backfilled under EASY.
    const jobs = [J(1, 0, 2, 10, 10), J(2, 1, 4, 10, 10), J(3, 2, 2, 20, 20), J(4, 3, 2, 5, 15)];
    expect(starts(simulateBatch(jobs, { machineSize: 4, policy: 'easy', estimates: 'exact' }))[4]).to.equal(3);
    expect(starts(simulateBatch(jobs, { machineSize: 4, policy: 'easy', estimates: 'requested' }))[4]).to.equal(20);
  });

  it('conservative moves reservations earlier when a job ends before its estimate', () => {
    // J1 asks 10 s but runs 5; J2 reserved at 10 starts at 5 once J1 is done.
    const jobs = [J(1, 0, 4, 5, 10), J(2, 1, 4, 5, 10), J(3, 2, 1, 1, 1)];
    const r = simulateBatch(jobs, { machineSize: 4, policy: 'conservative', estimates: 'requested' });
    expect(starts(r)).to.deep.equal({ 1: 0, 2: 5, 3: 10 });
  });

  it('results come back in input order even if input is not sorted', () => {
    const r = simulateBatch([J(7, 5, 1, 1), J(3, 0, 1, 2)], { machineSize: 1, policy: 'fcfs' });
    expect(r.map((x) => [x.id, x.start, x.end])).to.deep.equal([
      [7, 5, 6],
      [3, 0, 2],
    ]);
  });

  it('bad input gives clear errors', () => {
    expect(() => simulateBatch([J(9, 0, 5, 1)], { machineSize: 4, policy: 'easy' })).to.throw(/job 9 needs 5 processors but the machine has 4/);
    expect(() => simulateBatch([], { machineSize: 4, policy: 'sjf' as BatchPolicy })).to.throw(/unknown policy 'sjf'/);
    expect(() => simulateBatch([J(1, 0, 1, -5)], { machineSize: 4, policy: 'fcfs' })).to.throw(/run time -5/);
  });

  it('offline conservativeSchedule plans rigid jobs released at 0', () => {
    const plan = conservativeSchedule(
      [
        { id: 'a', procs: 3, duration: 10 },
        { id: 'b', procs: 2, duration: 5 },
        { id: 'c', procs: 1, duration: 10 },
        { id: 'd', steps: [{ procs: 1, duration: 5 }, { procs: 4, duration: 5 }] },
      ],
      4,
    );
    expect(plan).to.deep.equal([
      { id: 'a', start: 0, end: 10 },
      { id: 'b', start: 10, end: 15 },
      { id: 'c', start: 0, end: 10 },
      { id: 'd', start: 10, end: 20 }, // step 2 needs all 4: [15,20)
    ]);
  });
});

describe('batch schedulers: properties on random workloads', () => {
  const workload = fc
    .record({
      machine: fc.integer({ min: 1, max: 16 }),
      jobs: fc.array(
        fc.record({
          gap: fc.integer({ min: 0, max: 40 }),
          procsFrac: fc.double({ min: 0, max: 1, noNaN: true }),
          runtime: fc.integer({ min: 0, max: 100 }),
          over: fc.integer({ min: -20, max: 100 }),
        }),
        { minLength: 1, maxLength: 40 },
      ),
      estimates: fc.constantFrom('exact' as const, 'requested' as const),
    })
    .map(({ machine, jobs, estimates }) => {
      let t = 0;
      const out = jobs.map((j, k) => {
        t += j.gap;
        return J(k + 1, t, 1 + Math.floor(j.procsFrac * (machine - 0.001)), j.runtime, Math.max(1, j.runtime + j.over));
      });
      return { machine, jobs: out, estimates };
    });

  function maxInUse(r: BatchJobResult[]): number {
    const ev: [number, number][] = [];
    for (const x of r) if (x.end > x.start) ev.push([x.start, x.procs], [x.end, -x.procs]);
    ev.sort((a, b) => a[0] - b[0] || a[1] - b[1]); // ends (negative) first at equal times
    let used = 0;
    let max = 0;
    for (const [, d] of ev) {
      used += d;
      max = Math.max(max, used);
    }
    return max;
  }

  for (const policy of ['fcfs', 'easy', 'conservative'] as BatchPolicy[]) {
    it(`${policy}: capacity respected, no job before submission, end = start + runtime, reservations kept`, () => {
      fc.assert(
        fc.property(workload, ({ machine, jobs, estimates }) => {
          const reserved = new Map<number, number[]>();
          const r = simulateBatch(jobs, {
            machineSize: machine,
            policy,
            estimates,
            onReservation: (x) => reserved.set(x.id, [...(reserved.get(x.id) ?? []), x.reservedStart]),
          });
          expect(maxInUse(r)).to.be.at.most(machine);
          for (const x of r) {
            expect(x.start).to.be.at.least(x.submit);
            expect(x.end).to.equal(x.start + x.runtime);
            expect(x.wait).to.equal(x.start - x.submit);
          }
          const byId = new Map(r.map((x) => [x.id, x]));
          // EASY: the head never starts later than any reservation it was given.
          // Conservative: no job starts later than any reservation it was given.
          for (const [id, times] of reserved) {
            for (const t of times) expect((byId.get(id) as BatchJobResult).start).to.be.at.most(t);
          }
          if (policy === 'fcfs') {
            for (let k = 1; k < r.length; k++) expect(r[k].start).to.be.at.least(r[k - 1].start);
          }
          if (policy === 'conservative') expect(reserved.size).to.equal(jobs.length);
        }),
        { numRuns: 250, seed: 2024 },
      );
    });
  }

  it('every job runs under every policy, with zero-run-time jobs and either estimate', () => {
    fc.assert(
      fc.property(workload, ({ machine, jobs, estimates }) => {
        for (const policy of ['fcfs', 'easy', 'conservative'] as BatchPolicy[]) {
          const r = simulateBatch(jobs, { machineSize: machine, policy, estimates });
          expect(r.every((x) => Number.isFinite(x.start))).to.equal(true);
        }
      }),
      { numRuns: 100, seed: 99 },
    );
  });
});

describe('batch schedulers: processor counts beyond 32 bits', () => {
  it('a machine or job larger than 2^31 − 1 processors is an input error, not a wrapped-around count', () => {
    const job = { id: 1, submit: 0, runtime: 10, procs: 3e9 };
    expect(() => simulateBatch([job], { machineSize: 1e10, policy: 'easy' })).to.throw(InputError, /machineSize/);
    expect(() => simulateBatch([job], { machineSize: 2 ** 31 - 1, policy: 'easy' })).to.throw(InputError, /3000000000 processors/);
    const ok = simulateBatch([{ ...job, procs: 2 ** 31 - 1 }], { machineSize: 2 ** 31 - 1, policy: 'easy' });
    expect(ok[0].procs).to.equal(2 ** 31 - 1);
  });
});

describe('batch schedulers: processor names', () => {
  it('lowest free first, never shared at an instant, on a hand-worked case', () => {
    const jobs = [
      { id: 1, submit: 0, runtime: 10, procs: 2 },
      { id: 2, submit: 0, runtime: 5, procs: 1 },
      { id: 3, submit: 1, runtime: 10, procs: 2 },
      { id: 4, submit: 5, runtime: 3, procs: 2 },
    ];
    const r = simulateBatch(jobs, { machineSize: 5, policy: 'easy', assignProcessors: true });
    expect(r.slice(0, 3).map((x) => x.processors)).to.deep.equal([[0, 1], [2], [3, 4]]);
    // job 4 starts at 10 (job 2's processor 2 freed at 5 is not enough): it takes the lowest free ids then, 0 and 1
    expect(r[3].start).to.equal(10);
    expect(r[3].processors).to.deep.equal([0, 1]);
  });
  it('real trace, every policy: the names pass the independent check and change no start time', () => {
    const { jobs, info } = loadTraceSync('KTH-SP2');
    const some = jobs.slice(0, 4000);
    for (const policy of ['fcfs', 'easy', 'conservative'] as BatchPolicy[]) {
      const named = simulateBatch(some, { machineSize: info.machineSize, policy, estimates: 'requested', assignProcessors: true });
      const plain = simulateBatch(some, { machineSize: info.machineSize, policy, estimates: 'requested' });
      expect(named.map((x) => x.start)).to.deep.equal(plain.map((x) => x.start));
      verifyProcessorNames(named, info.machineSize);
    }
  });
  it('a shared processor is caught by name', () => {
    const r = simulateBatch([{ id: 1, submit: 0, runtime: 10, procs: 1 }, { id: 2, submit: 0, runtime: 10, procs: 1 }], { machineSize: 2, policy: 'fcfs', assignProcessors: true });
    r[1].processors = [0];
    expect(() => verifyProcessorNames(r, 2)).to.throw(/batch\/processors.*processor 0 already runs job 1/);
  });
});
