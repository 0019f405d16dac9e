import { expect } from 'chai';
import fc from 'fast-check';
import type { DfrsJob } from '../../src/workloads/dfrs';
import { simulateDfrs, tasksMoved, DfrsJobEvent } from '../../src/schedulers/dfrs/simulator';
import { allAlgorithmNames } from '../../src/schedulers/dfrs/names';
import { checkAllocation } from '../../src/schedulers/dfrs/invariants';

const J = (id: number, submit: number, runtime: number, o: Partial<DfrsJob> = {}): DfrsJob => ({
  id,
  submit,
  runtime,
  tasks: o.tasks ?? 1,
  cpuNeed: o.cpuNeed ?? 1,
  mem: o.mem ?? 0.6,
});

describe('dfrs simulator', () => {
  it('the rescheduling penalty delays completion by exactly 300 s (hand-worked)', () => {
    // One node. A (runtime 1000) starts at 0. B (runtime 100) arrives at 100; memory 0.6 + 0.6 > 1,
    // so GreedyP pauses A (virtual time 100) and runs B from 100 to 200. On B's completion Greedy
    // resumes A: without penalty A ends at 200 + 900 = 1100; with the 300 s penalty at 1400.
    const jobs = [J(1, 0, 1000), J(2, 100, 100)];
    const base = simulateDfrs(jobs, { nodes: 1, algorithm: 'GreedyP */opt=min', penalty: 0, checkInvariants: true });
    const pen = simulateDfrs(jobs, { nodes: 1, algorithm: 'GreedyP */opt=min', penalty: 300, checkInvariants: true });
    const end = (r: typeof base, id: number) => (r.jobs.find((j) => j.id === id) as { completion: number }).completion;
    expect(end(base, 2)).to.equal(200);
    expect(end(base, 1)).to.equal(1100);
    expect(end(pen, 1)).to.equal(1400);
    expect(end(pen, 1) - end(base, 1)).to.equal(300);
    const a = pen.jobs.find((j) => j.id === 1)!;
    expect(a).to.include({ preemptions: 1, migrations: 0, tasksPreempted: 1, penaltySeconds: 300 });
    // CPU held during the penalty is counted as wasted, not useful.
    expect(pen.penaltyCpuSeconds).to.be.closeTo(300, 1e-9);
    expect(pen.usefulCpuSeconds).to.be.closeTo(1100, 1e-9);
  });

  it('penalty models: paid on resume (default), from the pause, or only on moves (hand-worked)', () => {
    // Same two jobs as above: A (1000 s) is paused at 100 for B and resumed at 200 with 900 s left.
    const jobs = [J(1, 0, 1000), J(2, 100, 100)];
    const endA = (penaltyModel?: 'resume' | 'pause' | 'migration-only', b = 100) =>
      simulateDfrs([jobs[0], J(2, 100, b)], { nodes: 1, algorithm: 'GreedyP */opt=min', penaltyModel, checkInvariants: true }).jobs.find((j) => j.id === 1)!;
    expect(endA().completion).to.equal(1400); // 200 + 300 + 900
    expect(endA('resume').completion).to.equal(1400);
    // 'pause': the 300 s run from the pause at 100; resumed at 200, A waits until 400, ends at 1300.
    expect(endA('pause')).to.include({ completion: 1300, penaltySeconds: 200 });
    // A pause longer than the penalty hides it: B runs 500 s, A resumes at 600 at once, ends at 1500.
    expect(endA('pause', 500)).to.include({ completion: 1500, penaltySeconds: 0 });
    expect(endA('resume', 500).completion).to.equal(1800);
    // 'migration-only': resuming is free.
    expect(endA('migration-only')).to.include({ completion: 1100, penaltySeconds: 0 });
    expect(() => simulateDfrs(jobs, { nodes: 1, algorithm: 'GreedyP */opt=min', penaltyModel: 'never' as never })).to.throw(/penaltyModel/);
  });

  it('virtual time counts actual execution by default; the other reading integrates the assigned yield through a penalty', () => {
    // A (1000 s) is paused at 100 for B (100 s) and resumed at 200 under a 300 s penalty. At 400,
    // 200 s into its penalty, A has done no work since 100: virtual time 100 by default; counting the
    // yield it was assigned during the penalty gives 100 + 200 = 300.
    const jobs = [J(1, 0, 1000), J(2, 100, 100), J(3, 400, 10, { mem: 0.6 })];
    const vtOfA = (virtualTimeDuringPenalty?: boolean) => {
      const events: DfrsJobEvent[] = [];
      simulateDfrs(jobs, { nodes: 1, algorithm: 'GreedyP */opt=min', virtualTimeDuringPenalty, onJobEvent: (e) => events.push(e), checkInvariants: true });
      // C arrives at 400 and pauses A: the event carries A's virtual time then.
      return events.find((e) => e.job === 1 && e.kind === 'pause' && e.time === 400)!.virtualTime;
    };
    expect(vtOfA()).to.equal(100);
    expect(vtOfA(false)).to.equal(100);
    expect(vtOfA(true)).to.equal(300);
  });

  it('breaks priority ties by submission order, earlier first (option: later first)', () => {
    // /per on one node: two fresh jobs (memory 0.6 each) wait for the tick at 600; both have infinite
    // priority, so the earlier one runs first by default and the later one with 'later-first'.
    const jobs = [J(1, 0, 100), J(2, 10, 100)];
    const start = (priorityTies?: 'earlier-first' | 'later-first') => {
      const r = simulateDfrs(jobs, { nodes: 1, algorithm: '/per/opt=min', priorityTies, checkInvariants: true });
      return r.jobs.map((j) => j.start);
    };
    expect(start()).to.deep.equal([600, 1200]);
    expect(start('later-first')).to.deep.equal([1200, 600]);
  });

  it('shares a node at equal yield and finishes jobs at the exact times', () => {
    // Two one-task jobs (need 1, mem 0.3) on one node from t=0: yield 1/2 each. The 100 s job ends at
    // 200; the 300 s job has 200 s left and runs alone at yield 1: ends at 400.
    const r = simulateDfrs([J(1, 0, 100, { mem: 0.3 }), J(2, 0, 300, { mem: 0.3 })], { nodes: 1, algorithm: 'Greedy */opt=min', checkInvariants: true });
    expect(r.jobs.map((j) => j.completion)).to.deep.equal([200, 400]);
  });

  it('/per waits for the next period to start a job; period is a user option', () => {
    const jobs = [J(1, 0, 50, { mem: 0.1 })];
    expect(simulateDfrs(jobs, { nodes: 1, algorithm: '/per/opt=min' }).jobs[0].completion).to.equal(650);
    expect(simulateDfrs(jobs, { nodes: 1, algorithm: '/per/opt=min', period: 1200 }).jobs[0].completion).to.equal(1250);
    expect(simulateDfrs(jobs, { nodes: 1, algorithm: '/per/opt=min/period=100' }).jobs[0].completion).to.equal(150);
  });

  it('a multi-core cap limits a sequential task to 1/cores of a node', () => {
    // One-task job with need 1 on a quad-core node: at most 0.25 of the node, i.e. yield 1/4.
    const r = simulateDfrs([J(1, 0, 100, { mem: 0.1 })], { nodes: 1, algorithm: 'Greedy */opt=min', cores: 4, checkInvariants: true });
    expect(r.jobs[0].completion).to.equal(400);
  });

  it('reports start, pause, resume and completion events', () => {
    const events: DfrsJobEvent[] = [];
    simulateDfrs([J(1, 0, 1000), J(2, 100, 100)], { nodes: 1, algorithm: 'GreedyP */opt=min', onJobEvent: (e) => events.push(e) });
    expect(events.map((e) => `${e.time}:${e.job}:${e.kind}`)).to.deep.equal(['0:1:start', '100:1:pause', '100:2:start', '200:2:complete', '200:1:resume', '1400:1:complete']);
  });

  it('counts moved tasks by node multiset (tasks are identical)', () => {
    expect(tasksMoved([0, 1, 1], [1, 0, 1])).to.equal(0);
    expect(tasksMoved([0, 1, 1], [1, 2, 2])).to.equal(2);
  });

  it('rejects bad jobs with the index, id and field', () => {
    expect(() => simulateDfrs([J(7, 0, 10, { mem: 1.5 })], { nodes: 1, algorithm: 'Greedy */opt=min' })).to.throw(/index 0 \(id 7\): mem/);
    expect(() => simulateDfrs([J(7, 0, 10, { tasks: 3, mem: 0.6 })], { nodes: 2, algorithm: 'Greedy */opt=min' })).to.throw(/cannot fit/);
    expect(() => simulateDfrs([J(7, 0, 10)], { nodes: 1, algorithm: 'Greedy' })).to.throw(/alone/);
  });
});

describe('dfrs invariants', () => {
  it('checkAllocation catches each kind of violation', () => {
    const ok = { job: 1, node: 0, cpu: 0.5, need: 1, mem: 0.5 };
    expect(() => checkAllocation([ok, { ...ok, node: 1 }], 2)).not.to.throw();
    expect(() => checkAllocation([ok, { ...ok, job: 2 }, { ...ok, job: 3, cpu: 0 }], 1)).to.throw(/memory/);
    expect(() => checkAllocation([ok, { ...ok, job: 2, mem: 0.1, cpu: 0.6 }], 1)).to.throw(/CPU allocated/);
    expect(() => checkAllocation([{ ...ok, cpu: 1, need: 0.5 }], 1)).to.throw(/more than its need/);
    expect(() => checkAllocation([ok, { ...ok, node: 1, cpu: 0.4 }], 2)).to.throw(/differ/);
    expect(() => checkAllocation([ok], 1, 'x', new Map([[1, 2]]))).to.throw(/runs 1 tasks, expected 2/);
  });

  it('hold on random workloads for every algorithm (property)', () => {
    const names = allAlgorithmNames();
    const jobArb = fc.record({
      gap: fc.integer({ min: 0, max: 900 }),
      runtime: fc.integer({ min: 0, max: 3000 }),
      tasks: fc.integer({ min: 1, max: 4 }),
      cpuNeed: fc.constantFrom(0.25, 0.5, 1),
      mem: fc.constantFrom(0.1, 0.2, 0.3, 0.5, 0.7, 1),
    });
    fc.assert(
      fc.property(
        fc.array(jobArb, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 4, max: 6 }),
        fc.integer({ min: 0, max: names.length - 1 }),
        fc.constantFrom(0, 300),
        (specs, nodes, algIndex, penalty) => {
          let t = 0;
          const jobs = specs.map((s, i) => {
            t += s.gap;
            return { id: i + 1, submit: t, runtime: s.runtime, tasks: s.tasks, cpuNeed: s.cpuNeed, mem: s.mem };
          });
          const r = simulateDfrs(jobs, { nodes, algorithm: names[algIndex], penalty, checkInvariants: true, timeMcb: false });
          let work = 0;
          for (const [k, j] of r.jobs.entries()) {
            const src = jobs[k];
            expect(j.completion).to.be.at.least(src.submit + src.runtime - 1e-6);
            work += src.runtime * src.tasks * src.cpuNeed;
          }
          // All work gets done, exactly once.
          expect(r.usefulCpuSeconds).to.be.closeTo(work, 1e-6 * Math.max(1, work));
        },
      ),
      { numRuns: 150, seed: 20110611 },
    );
  });
});
