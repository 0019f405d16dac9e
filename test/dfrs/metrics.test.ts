import { expect } from 'chai';
import {
  degradationFromBound,
  maxBoundedStretch,
  reschedulingCosts,
  underutilization,
} from '../../src/metrics/dfrs';
import { dfrsTrace, runDfrsCell } from '../../src/schedulers/dfrs/experiment';
import { simulateDfrsBatch } from '../../src/schedulers/dfrs/batch';
import { dfrsTraceSet } from '../../src/workloads/dfrs';

const done = (submit: number, completion: number, runtime: number, tasks = 1, cpuNeed = 1) => ({ submit, completion, runtime, tasks, cpuNeed });

describe('dfrs metrics', () => {
  it('maximum bounded stretch uses max(10 s, runtime) and is at least 1', () => {
    // 2 s job finishing after 30 s: 30/10 = 3; 100 s job taking 250 s: 2.5; a job faster than its runtime: 1.
    expect(maxBoundedStretch([done(0, 30, 2), done(0, 250, 100)])).to.equal(3);
    expect(maxBoundedStretch([done(0, 5, 2)])).to.equal(1);
    expect(degradationFromBound(30, 2)).to.equal(15);
    expect(() => degradationFromBound(3, 0.5)).to.throw(/bound/);
  });

  it('underutilization: ∫ min(P, D) − u over time, normalized by the work (hand-worked)', () => {
    // Capacity 2 nodes. Job 1: 2 tasks, need 1, runtime 100, in the system 0..300 (demand 2).
    // Job 2: 1 task, need 0.5, runtime 100, in the system 100..200 (demand 0.5).
    // ∫ min(2, D) = 2*100 + 2*100 (capped) + 2*100 = 600; work = 200 + 50 = 250; under = 350.
    const u = underutilization([done(0, 300, 100, 2, 1), done(100, 200, 100, 1, 0.5)], 2);
    expect(u.work).to.equal(250);
    expect(u.underutilization).to.equal(350);
    expect(u.normalized).to.equal(350 / 250);
    // A schedule that runs everything at full speed as soon as submitted has none.
    expect(underutilization([done(0, 100, 100, 2, 1)], 2).underutilization).to.equal(0);
  });

  it('preemption and migration costs per hour, per job and in GB/s', () => {
    const j = { ...done(0, 3600, 100, 4, 1), mem: 0.5, preemptions: 2, migrations: 1, tasksPreempted: 8, tasksMigrated: 3 };
    const k = { ...done(0, 1800, 100, 1, 1), mem: 0.25, preemptions: 0, migrations: 1, tasksPreempted: 0, tasksMigrated: 1 };
    const c = reschedulingCosts([j, k], { nodeMemoryGB: 8 });
    expect(c.spanSeconds).to.equal(3600);
    expect(c.preemptionsPerHour).to.equal(2);
    expect(c.migrationsPerHour).to.equal(2);
    expect(c.preemptionsPerJob).to.equal(1);
    expect(c.migrationsPerJob).to.equal(1);
    // Preemption: 8 tasks × 0.5 × 8 GB, written and read back: 64 GB over 3600 s.
    expect(c.preemptionGBps).to.be.closeTo(64 / 3600, 1e-15);
    // Migration: (3 × 0.5 + 1 × 0.25) × 8 GB × 2 = 28 GB.
    expect(c.migrationGBps).to.be.closeTo(28 / 3600, 1e-15);
  });
});

describe('dfrs batch rows and experiment cell', () => {
  it('FCFS and EASY on DFRS jobs: t tasks use t nodes; EASY backfills (hand-worked)', () => {
    // Two nodes. A: 1 task, 0..100. B: 2 tasks, arrives at 10, must wait for A: 100..200.
    // C: 1 task, runtime 50, arrives at 20: FCFS starts it after B (200); EASY backfills it at 20
    // (it ends at 70, before B's reservation at 100).
    const jobs = [
      { id: 1, submit: 0, runtime: 100, tasks: 1, cpuNeed: 1, mem: 0.1 },
      { id: 2, submit: 10, runtime: 100, tasks: 2, cpuNeed: 1, mem: 0.1 },
      { id: 3, submit: 20, runtime: 50, tasks: 1, cpuNeed: 1, mem: 0.1 },
    ];
    const fcfs = simulateDfrsBatch(jobs, { nodes: 2, policy: 'FCFS' });
    const easy = simulateDfrsBatch(jobs, { nodes: 2, policy: 'EASY' });
    expect(fcfs.map((o) => o.start)).to.deep.equal([0, 100, 200]);
    expect(easy.map((o) => o.start)).to.deep.equal([0, 100, 20]);
    // unit 'core': a one-core task (need 0.5 on dual-core nodes) takes one processor of four.
    const cores = simulateDfrsBatch(
      [
        { id: 1, submit: 0, runtime: 100, tasks: 3, cpuNeed: 0.5, mem: 0.1 },
        { id: 2, submit: 0, runtime: 100, tasks: 1, cpuNeed: 0.5, mem: 0.1 },
      ],
      { nodes: 2, policy: 'FCFS', unit: 'core', cores: 2 },
    );
    expect(cores.map((o) => o.start)).to.deep.equal([0, 0]);
  });

  it('runDfrsCell returns a plain record with the paper\'s metrics', () => {
    const jobs = [
      { id: 1, submit: 0, runtime: 1000, tasks: 1, cpuNeed: 1, mem: 0.6 },
      { id: 2, submit: 100, runtime: 100, tasks: 1, cpuNeed: 1, mem: 0.6 },
    ];
    const r = runDfrsCell({ jobs, nodes: 1, algorithm: 'GreedyP*/opt=min', bound: 1, labels: { trace_set: 'toy' } });
    // A ends at 1400 (see the penalty test): stretch 1.4; B: 1. Preempted once; span 1400 s.
    expect(r).to.include({ trace_set: 'toy', algorithm: 'GreedyP */opt=min', max_stretch: 1.4, degradation: 1.4, pmtn_per_job: 0.5, mig_per_job: 0 });
    expect(r.pmtn_per_hour).to.be.closeTo(3600 / 1400, 1e-12);
    expect(JSON.parse(JSON.stringify(r))).to.deep.equal(r);
    const batch = runDfrsCell({ jobs, nodes: 1, algorithm: 'FCFS', bound: 1 });
    expect(batch.max_stretch).to.equal(10); // B waits for A: (1100 - 100) / 100
  });

  it('dfrsTrace builds the same jobs as dfrsTraceSet', () => {
    const set = dfrsTraceSet('scaled', { count: 2, jobs: 30, loads: [0.5] });
    const one = dfrsTrace({ trace_set: 'scaled', trace_index: 1, load: 0.5, jobs_per_trace: 30 });
    expect(one.jobs).to.deep.equal(set[1].jobs);
    expect(one.name).to.equal(set[1].name);
    expect(() => dfrsTrace({ trace_set: 'scaled', trace_index: 0 })).to.throw(/load/);
  });
});
