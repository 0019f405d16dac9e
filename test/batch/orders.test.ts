import { expect } from 'chai';
import { WorkloadJob } from '../../src/workloads/job';
import { simulateBatch, BatchJobResult } from '../../src/schedulers/batch';

const J = (id: number, submit: number, procs: number, runtime: number): WorkloadJob => ({ id, submit, procs, runtime });
const starts = (r: BatchJobResult[]) => Object.fromEntries(r.map((x) => [x.id, x.start]));

describe('batch schedulers: queue orders (hand-worked)', () => {
  // Machine of 4; J1 4p×10 at 0 holds everything until 10. Then A 2p×30 (t=1),
  // B 1p×5 (t=2), C 4p×20 (t=3), D 3p×10 (t=4) wait; at 10 the order decides.
  const jobs = [J(1, 0, 4, 10), J(2, 1, 2, 30), J(3, 2, 1, 5), J(4, 3, 4, 20), J(5, 4, 3, 10)];
  const run = (order: any, policy: 'fcfs' | 'easy' = 'fcfs') => starts(simulateBatch(jobs, { machineSize: 4, policy, order }));

  it('fcfs (default): A and B, then C blocks D until A ends', () => {
    // 10: A, B (free 1); C blocks. 40: C; 60: D.
    expect(run('fcfs')).to.deep.equal({ 1: 0, 2: 10, 3: 10, 4: 40, 5: 60 });
  });
  it('sjf: B, D, then C, A', () => {
    // 10: B (5), D (10) fill the machine; 20: C (20) before A (30); 40: A.
    expect(run('sjf')).to.deep.equal({ 1: 0, 2: 40, 3: 10, 4: 20, 5: 10 });
  });
  it('ljf: A, C, D, B', () => {
    // 10: A (free 2), C blocks; 40: C; 60: D and B.
    expect(run('ljf')).to.deep.equal({ 1: 0, 2: 10, 3: 60, 4: 40, 5: 60 });
  });
  it('smallest: B, A, D, C', () => {
    // 10: B (1p), A (2p), D (3p) blocks; 40: D (B ended at 15); 50: C.
    expect(run('smallest')).to.deep.equal({ 1: 0, 2: 10, 3: 10, 4: 50, 5: 40 });
  });
  it('user priority function (largest id first), with FCFS and with EASY', () => {
    // Order D, C, B, A. FCFS: 10 D (free 1), C blocks; 20 C; 40 B and A.
    expect(run((j: WorkloadJob) => j.id)).to.deep.equal({ 1: 0, 2: 40, 3: 40, 4: 20, 5: 10 });
    // EASY: head C reserved at 20 (D's end), B (ends 15 <= 20) is backfilled at 10.
    expect(run((j: WorkloadJob) => j.id, 'easy')).to.deep.equal({ 1: 0, 2: 40, 3: 10, 4: 20, 5: 10 });
  });

  it('wfp3 favours long waits over short estimates; unicef divides by log2(p) where wfp3 multiplies by p', () => {
    // Machine 1: J0 1p×100; X 1p×10 submitted at 1, Y 1p×1 at 99. At 100:
    // sjf picks Y; wfp3: X (99/10)^3 = 970 > Y (1/1)^3 = 1; unicef X 99/10 = 9.9 > Y 1.
    const m1 = [J(0, 0, 1, 100), J(1, 1, 1, 10), J(2, 99, 1, 1)];
    const s1 = (order: any) => starts(simulateBatch(m1, { machineSize: 1, policy: 'fcfs', order }));
    expect(s1('sjf')).to.deep.equal({ 0: 0, 1: 101, 2: 100 });
    expect(s1('wfp3')).to.deep.equal({ 0: 0, 1: 100, 2: 110 });
    expect(s1('unicef')).to.deep.equal({ 0: 0, 1: 100, 2: 110 });
    // Machine 8: J0 8p×100; P 8p×10 at 1 (wait 99), Q 1p×5 at 50 (wait 50). At 100:
    // wfp3 P (99/10)^3·8 = 7762 > Q (50/5)^3·1 = 1000: P at 100, Q at 110.
    // unicef P 99/(3·10) = 3.3 < Q 50/(1·5) = 10: Q at 100, P when Q ends at 105.
    const m8 = [J(0, 0, 8, 100), J(1, 1, 8, 10), J(2, 50, 1, 5)];
    const s8 = (order: any) => starts(simulateBatch(m8, { machineSize: 8, policy: 'fcfs', order }));
    expect(s8('wfp3')).to.deep.equal({ 0: 0, 1: 100, 2: 110 });
    expect(s8('unicef')).to.deep.equal({ 0: 0, 1: 105, 2: 100 });
  });

  it('rejects unknown orders, and reordering under conservative backfilling', () => {
    expect(() => simulateBatch(jobs, { machineSize: 4, policy: 'easy', order: 'nope' as any })).to.throw(/unknown order/);
    expect(() => simulateBatch(jobs, { machineSize: 4, policy: 'conservative', order: 'sjf' })).to.throw(/order must be 'fcfs'/);
  });
});

describe('batch schedulers: deep queues', () => {
  it('FCFS on 5000 jobs submitted at 0 (past the queue compaction) runs them back to back in order', () => {
    const jobs = Array.from({ length: 5000 }, (_, i) => J(i, 0, 1, 1 + (i % 3)));
    const r = simulateBatch(jobs, { machineSize: 1, policy: 'fcfs' });
    let t = 0;
    for (let i = 0; i < jobs.length; i++) {
      expect(r[i].start, `job ${i}`).to.equal(t);
      t += jobs[i].runtime;
    }
  });
});
