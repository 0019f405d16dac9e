/**
 * The DFRS paper's batch rows as its own simulator computed them:
 * 'FCFS (as published)' and 'EASY (as published)' (simulateDfrsBatch). One
 * hand-made case per rule, beside what FCFS and EASY do on the same jobs.
 */
import { expect } from 'chai';
import { simulateDfrsBatch } from '../../src/schedulers/dfrs/batch';
import { runDfrsCell } from '../../src/schedulers/dfrs/experiment';
import { isBatchAlgorithm, PUBLISHED_BATCH_ALGORITHMS } from '../../src/schedulers/dfrs/names';
import type { DfrsJob } from '../../src/workloads/dfrs';

const job = (id: number, submit: number, runtime: number, tasks: number, cpuNeed = 1): DfrsJob => ({ id, submit, runtime, tasks, cpuNeed, mem: 0.1 });

describe('dfrs batch rows as published', () => {
  it('every task takes a whole node, one-core HPC2N tasks too, under FCFS and EASY alike', () => {
    // Two dual-core nodes. Jobs 1 and 2: 2 one-core tasks each (CPU need 0.5), both at 0.
    // Unit 'core' (ours on HPC2N): 2 processors of 4 each, side by side. As published: 2 nodes each, one after the other.
    const jobs = [job(1, 0, 100, 2, 0.5), job(2, 0, 100, 2, 0.5)];
    for (const [ours, published] of [['FCFS', 'FCFS (as published)'], ['EASY', 'EASY (as published)']] as const) {
      expect(simulateDfrsBatch(jobs, { nodes: 2, policy: ours, unit: 'core', cores: 2 }).map((o) => o.start), ours).to.deep.equal([0, 0]);
      expect(simulateDfrsBatch(jobs, { nodes: 2, policy: published, unit: 'core', cores: 2 }).map((o) => o.start), published).to.deep.equal([0, 100]);
    }
  });

  it('EASY as published never backfills a job for ending before the shadow time', () => {
    // Four nodes. Job 1 holds 2 until 100; head job 2 needs 4 (shadow 100, no extra node).
    // Job 3 (2 tasks, 50 s) ends at 52, before 100: EASY starts it at 2; as published it waits for job 2.
    const jobs = [job(1, 0, 100, 2), job(2, 1, 50, 4), job(3, 2, 50, 2)];
    expect(simulateDfrsBatch(jobs, { nodes: 4, policy: 'EASY' }).map((o) => o.start)).to.deep.equal([0, 100, 2]);
    expect(simulateDfrsBatch(jobs, { nodes: 4, policy: 'EASY (as published)' }).map((o) => o.start)).to.deep.equal([0, 100, 150]);
  });

  it('EASY as published still backfills onto free nodes outside the head\'s reservation', () => {
    // Six nodes. Job 1 holds 3 until 100; head job 2 needs 5: at 100, 6 are free, the reservation
    // takes job 1's 3 nodes and 2 of the 3 free now. Job 3 (1 task, 500 s) fits on the third: it starts at 2.
    // Job 4 (2 tasks, 10 s) would end by 100 but no free node is left outside the reservation.
    const jobs = [job(1, 0, 100, 3), job(2, 1, 50, 5), job(3, 2, 500, 1), job(4, 3, 10, 2)];
    expect(simulateDfrsBatch(jobs, { nodes: 6, policy: 'EASY (as published)' }).map((o) => o.start)).to.deep.equal([0, 100, 2, 150]);
    expect(simulateDfrsBatch(jobs, { nodes: 6, policy: 'EASY' }).map((o) => o.start)).to.deep.equal([0, 100, 2, 3]);
  });

  it('the two names are batch algorithms of a DFRS cell, recorded under their own name', () => {
    const jobs = [job(1, 0, 100, 2), job(2, 1, 50, 4), job(3, 2, 50, 2)];
    for (const name of PUBLISHED_BATCH_ALGORITHMS) {
      expect(isBatchAlgorithm(name)).to.equal(true);
      const r = runDfrsCell({ jobs, nodes: 4, algorithm: name, bound: 1 });
      expect(r.algorithm).to.equal(name);
      expect(r.pmtn_per_hour).to.equal(0);
    }
    // EASY as published delays job 3 to 150: its stretch (198 / 50) is the maximum; under EASY job 2's (149 / 50) is.
    expect(runDfrsCell({ jobs, nodes: 4, algorithm: 'EASY (as published)', bound: 1 }).max_stretch).to.be.closeTo(198 / 50, 1e-12);
    expect(runDfrsCell({ jobs, nodes: 4, algorithm: 'EASY', bound: 1 }).max_stretch).to.be.closeTo(149 / 50, 1e-12);
  });
});
