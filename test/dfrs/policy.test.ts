import { expect } from 'chai';
import * as path from 'path';
import type { DfrsJob } from '../../src/workloads/dfrs';
import { scaleToLoad, syntheticDfrsTrace } from '../../src/workloads/dfrs';
import { simulateDfrs, DfrsSimulationResult } from '../../src/schedulers/dfrs/simulator';
import { DfrsPolicy } from '../../src/schedulers/dfrs/policy';
import { InvariantError } from '../../src/util/invariants';
import { lifo, userGreedy } from './fixtures/user-policies';

const FIXTURES = path.join(__dirname, 'fixtures', 'user-policies.ts');
const J = (id: number, submit: number, runtime: number, o: Partial<DfrsJob> = {}): DfrsJob => ({
  id,
  submit,
  runtime,
  tasks: o.tasks ?? 1,
  cpuNeed: o.cpuNeed ?? 1,
  mem: o.mem ?? 0.6,
});
const schedule = (r: DfrsSimulationResult) => JSON.stringify({ jobs: r.jobs, useful: r.usefulCpuSeconds, penalty: r.penaltyCpuSeconds, events: r.events });
const caught = (fn: () => unknown): InvariantError => {
  try {
    fn();
  } catch (e) {
    if (e instanceof InvariantError) return e;
    throw e;
  }
  throw new Error('no InvariantError thrown');
};

describe('dfrs user policies', () => {
  it('a user mapper that writes Greedy through the public interface gives the built-in Greedy * schedule (seeded traces)', () => {
    let waited = 0;
    for (const [seed, load] of [
      [1, 0.5],
      [2, 0.9],
      [3, 0.7],
    ] as const) {
      const jobs = scaleToLoad(syntheticDfrsTrace({ seed, jobs: 500, nodes: 128, cores: 4 }), load, 128);
      const builtin = simulateDfrs(jobs, { nodes: 128, algorithm: 'Greedy */opt=min' });
      const user = simulateDfrs(jobs, { nodes: 128, algorithm: 'Greedy */opt=min', policy: userGreedy });
      const byRef = simulateDfrs(jobs, { nodes: 128, algorithm: 'Greedy */opt=min', policy: { module: FIXTURES, export: 'userGreedy' } });
      expect(user.algorithm).to.equal('user-greedy');
      expect(schedule(user)).to.equal(schedule(builtin));
      expect(schedule(byRef)).to.equal(schedule(builtin));
      waited += builtin.jobs.filter((j) => j.start > j.submit).length;
    }
    // Jobs must wait, or the completion mapper is never tested.
    expect(waited).to.be.greaterThan(20);
  });

  it('a user priority changes which waiting job goes first (hand-worked)', () => {
    // One node, memory 0.6 each: one job at a time, no preemption (Greedy *). A runs 0-100; B (50 s,
    // submitted at 10) and C (10 s, at 20) wait. At 100 the paper's priority ties (both never ran:
    // infinite), so submission order: B 100-150, C 150-160. Last-submitted-first: C 100-110, B 110-160.
    const jobs = [J(1, 0, 100), J(2, 10, 50), J(3, 20, 10)];
    const at = (r: DfrsSimulationResult) => r.jobs.map((j) => [j.id, j.start, j.completion]);
    expect(at(simulateDfrs(jobs, { nodes: 1, algorithm: 'Greedy */opt=min', penalty: 0 }))).to.deep.equal([
      [1, 0, 100],
      [2, 100, 150],
      [3, 150, 160],
    ]);
    expect(at(simulateDfrs(jobs, { nodes: 1, algorithm: 'Greedy */opt=min', penalty: 0, policy: lifo }))).to.deep.equal([
      [1, 0, 100],
      [2, 110, 160],
      [3, 100, 110],
    ]);
  });

  describe('broken policies are caught by name, with the invariant switch off', () => {
    const jobs = [J(1, 0, 100, { mem: 0.6 }), J(2, 10, 100, { mem: 0.6 }), J(3, 20, 100, { tasks: 2, mem: 0.3 })];
    const run = (policy: DfrsPolicy) => () => simulateDfrs(jobs, { nodes: 2, algorithm: 'Greedy */opt=min', checkInvariants: false, policy });
    const everyJobOn = (node: (j: { id: number }, k: number) => number): DfrsPolicy['map'] => (view) =>
      new Map(view.jobs.map((j) => [j.id, Array.from({ length: j.tasks }, (_, k) => node(j, k))]));

    it('memory overcommit', () => {
      const e = caught(run({ name: 'all-on-node-0', map: everyJobOn(() => 0) }));
      expect(e.invariant).to.equal('dfrs/memory');
      expect(e.message).to.contain('policy all-on-node-0');
      // Jobs 2 (never ran, so first by priority) and 1 on node 0: the task that overflows is job 1's.
      expect(e).to.include({ job: 1, node: 0, time: 10 });
    });

    it('a task on a node that does not exist', () => {
      const e = caught(run({ name: 'off-by-one', map: everyJobOn((j) => j.id) }));
      expect(e.invariant).to.equal('dfrs/node');
      expect(e.message).to.contain('policy off-by-one');
      expect(e).to.include({ job: 2, time: 10 });
    });

    it('CPU over 100% on a node', () => {
      // Greedy maps job 3's two tasks beside jobs 1 and 2 (one per node); full yield overcommits both nodes.
      const e = caught(run({ name: 'everyone-full-speed', allocate: (view) => new Map(view.jobs.filter((j) => j.nodes).map((j) => [j.id, 1])) }));
      expect(e.invariant).to.equal('dfrs/cpu');
      expect(e.message).to.contain('policy everyone-full-speed');
      // Job 1 (need 1) holds node 0; job 3's first task there takes it to 150%.
      expect(e).to.include({ job: 3, node: 0, time: 20 });
    });

    it('a job mapped before its submission, a wrong task count, a NaN priority', () => {
      const early = caught(run({ name: 'early', map: (view) => new Map([[3, [0, 1]]]) }));
      expect(early.invariant).to.equal('dfrs/release');
      expect(early).to.include({ job: 3, time: 0 });
      expect(early.message).to.contain('policy early');
      const count = caught(run({ name: 'one-task', map: (view) => (view.submitted?.id === 3 ? new Map([[3, [0]]]) : undefined) }));
      expect(count).to.include({ invariant: 'dfrs/tasks', job: 3, time: 20 });
      const nan = caught(run({ name: 'nan', priority: () => NaN }));
      expect(nan).to.include({ invariant: 'dfrs/policy', job: 1, time: 0 });
      expect(nan.message).to.contain('policy nan');
    });
  });
});
