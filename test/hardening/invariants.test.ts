/**
 * Invariant checking: the switch, the checks themselves (each must catch a
 * broken schedule), and property tests that run the batch schedulers, the
 * evolving-applications schedulers and the max-stretch bound on random
 * workloads with the checks on. fast-check shrinks any failure to a minimal
 * workload.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { setInvariantChecks, invariantChecksEnabled, withInvariantChecks, InvariantError } from '../../src/util/invariants';
import { SchedlabError } from '../../src/util/errors';
import { simulateBatch, batchEstimate, verifyBatchSchedule, BatchPolicy, BatchEstimates, BatchJobResult } from '../../src/schedulers/batch';
import { WorkloadJob } from '../../src/workloads/job';
import {
  EvolvingApp, EVOLVING_ALGORITHMS, EVOLVING_VARIANTS, scheduleByName, scheduleEvolving, verifyEvolvingSchedule, EvolvingSchedule,
} from '../../src/schedulers/evolving';
import { maxStretchLowerBound } from '../../src/bounds/maxstretch';
import { FlowNetwork } from '../../src/bounds/maxflow';
import { DfrsJob } from '../../src/workloads/dfrs';
import { summarizeRun } from '../../src/metrics/jobs';
import { record } from './tally';

/** Expect `fn` to throw an InvariantError for `name`; returns it. */
function expectInvariant(fn: () => unknown, name: string): InvariantError {
  try {
    fn();
  } catch (e) {
    expect(e, String(e)).to.be.instanceOf(InvariantError);
    expect((e as InvariantError).invariant).to.equal(name);
    return e as InvariantError;
  }
  throw new Error(`expected invariant ${name} to be reported`);
}

const arbBatch = fc.integer({ min: 1, max: 16 }).chain((machineSize) =>
  fc.record({
    machineSize: fc.constant(machineSize),
    policy: fc.constantFrom<BatchPolicy>('fcfs', 'easy', 'conservative'),
    estimates: fc.constantFrom<BatchEstimates>('exact', 'requested'),
    jobs: fc
      .array(
        fc.record({
          submit: fc.integer({ min: 0, max: 300 }),
          runtime: fc.oneof(fc.integer({ min: 0, max: 120 }), fc.double({ min: 0, max: 120, noNaN: true })),
          procs: fc.integer({ min: 1, max: machineSize }),
          requestedTime: fc.option(fc.integer({ min: 0, max: 300 }), { nil: undefined }),
        }),
        { maxLength: 40 },
      )
      .map((raw) =>
        raw.map((r, i): WorkloadJob => ({ id: i + 1, submit: r.submit, runtime: r.runtime, procs: r.procs, ...(r.requestedTime !== undefined ? { requestedTime: r.requestedTime } : {}) })),
      ),
  }),
);

const arbApps = (maxNodes: number) =>
  fc
    .array(
      fc.array(fc.record({ duration: fc.integer({ min: 1, max: 50 }), nodes: fc.integer({ min: 0, max: maxNodes }) }), { minLength: 1, maxLength: 6 }),
      { minLength: 1, maxLength: 8 },
    )
    // rigid needs a node at the peak: give every application at least one step with a node
    .map((profiles) => profiles.map((profile, id) => ({ id, profile: profile.map((s, k) => (k === 0 && s.nodes === 0 ? { ...s, nodes: 1 } : s)) })) as EvolvingApp[]);

const arbDfrs = fc.record({
  nodes: fc.integer({ min: 1, max: 4 }),
  jobs: fc.array(
    fc.record({
      submit: fc.integer({ min: 0, max: 500 }),
      runtime: fc.oneof(fc.integer({ min: 0, max: 600 }), fc.double({ min: 0.5, max: 600, noNaN: true })),
      tasks: fc.integer({ min: 1, max: 6 }),
      cpuNeed: fc.constantFrom(0.1, 0.25, 0.5, 1),
    }),
    { minLength: 1, maxLength: 8 },
  ),
});
const toDfrs = (raw: { submit: number; runtime: number; tasks: number; cpuNeed: number }[]): DfrsJob[] =>
  raw.map((r, i) => ({ id: i + 1, submit: r.submit, runtime: r.runtime, tasks: r.tasks, cpuNeed: r.cpuNeed, mem: 0.1 }));

describe('hardening: the invariant switch', () => {
  afterEach(() => setInvariantChecks(undefined));

  it('is off by default, on with setInvariantChecks(true), and follows SCHEDLAB_CHECK_INVARIANTS=1 when loaded', () => {
    setInvariantChecks(undefined);
    expect(invariantChecksEnabled()).to.equal(process.env.SCHEDLAB_CHECK_INVARIANTS === '1');
    setInvariantChecks(true);
    expect(invariantChecksEnabled()).to.equal(true);
    setInvariantChecks(false);
    expect(invariantChecksEnabled()).to.equal(false);
    // A fresh copy of the module reads the environment variable.
    const id = require.resolve('../../src/util/invariants');
    const saved = require.cache[id];
    const env = process.env.SCHEDLAB_CHECK_INVARIANTS;
    try {
      delete require.cache[id];
      process.env.SCHEDLAB_CHECK_INVARIANTS = '1';
      // eslint-disable-next-line @typescript-eslint/no-var-requires
      expect(require(id).invariantChecksEnabled()).to.equal(true);
      delete require.cache[id];
      process.env.SCHEDLAB_CHECK_INVARIANTS = '0';
      // eslint-disable-next-line @typescript-eslint/no-var-requires
      expect(require(id).invariantChecksEnabled()).to.equal(false);
    } finally {
      if (env === undefined) delete process.env.SCHEDLAB_CHECK_INVARIANTS;
      else process.env.SCHEDLAB_CHECK_INVARIANTS = env;
      require.cache[id] = saved;
    }
  });

  it('withInvariantChecks restores the previous setting, also after a throw', () => {
    setInvariantChecks(false);
    expect(withInvariantChecks(true, () => invariantChecksEnabled())).to.equal(true);
    expect(invariantChecksEnabled()).to.equal(false);
    expect(() => withInvariantChecks(true, () => { throw new Error('x'); })).to.throw('x');
    expect(invariantChecksEnabled()).to.equal(false);
  });

  it('InvariantError is a SchedlabError naming the invariant, job, node and time', () => {
    const e = new InvariantError('batch/capacity', '5 processors in use', { job: 7, node: 2, time: 30 });
    expect(e).to.be.instanceOf(SchedlabError);
    expect(e.message).to.equal('invariant batch/capacity broken (job 7, node 2, time 30): 5 processors in use');
    expect(e).to.include({ invariant: 'batch/capacity', job: 7, node: 2, time: 30, name: 'InvariantError' });
  });
});

describe('hardening: each check catches a broken schedule', () => {
  const jobs: WorkloadJob[] = [
    { id: 1, submit: 0, runtime: 10, procs: 2 },
    { id: 2, submit: 5, runtime: 10, procs: 2 },
  ];
  const good = (): BatchJobResult[] => simulateBatch(jobs, { machineSize: 4, policy: 'fcfs' });

  it('batch: capacity, release, work', () => {
    verifyBatchSchedule(jobs, good(), 4);
    const overfull = expectInvariant(() => verifyBatchSchedule(jobs, good(), 3), 'batch/capacity');
    expect(overfull).to.include({ job: 2, time: 5 });
    const early = good();
    early[1] = { ...early[1], start: 1, end: 11, wait: -4 };
    expect(expectInvariant(() => verifyBatchSchedule(jobs, early, 4), 'batch/release')).to.include({ job: 2, time: 1 });
    const short = good();
    short[0] = { ...short[0], end: 9 };
    expect(expectInvariant(() => verifyBatchSchedule(jobs, short, 4), 'batch/work').job).to.equal(1);
    const never = good();
    never[0] = { ...never[0], start: NaN, end: NaN };
    expectInvariant(() => verifyBatchSchedule(jobs, never, 4), 'batch/started');
  });

  it('evolving: capacity and profile', () => {
    const apps: EvolvingApp[] = [
      { id: 0, profile: [{ duration: 10, nodes: 3 }, { duration: 5, nodes: 1 }] },
      { id: 1, profile: [{ duration: 4, nodes: 2 }] },
    ];
    const s = scheduleEvolving(apps, 4, { expandLimit: 2 });
    verifyEvolvingSchedule(apps, s, { expandLimit: 2 });
    const clash: EvolvingSchedule = { ...s, apps: s.apps.map((a) => ({ ...a, start: 0, completion: a.completion - a.start })) };
    expect(expectInvariant(() => verifyEvolvingSchedule(apps, clash), 'evolving/capacity').time).to.equal(0);
    const shortened: EvolvingSchedule = { ...s, apps: s.apps.map((a, k) => (k === 0 ? { ...a, allocation: [{ duration: 9, nodes: 3 }, a.allocation[1]], completion: a.completion - 1 } : a)) };
    expect(expectInvariant(() => verifyEvolvingSchedule(apps, shortened), 'evolving/profile').job).to.equal(0);
    const overExpanded: EvolvingSchedule = { ...s, apps: s.apps.map((a, k) => (k === 0 ? { ...a, allocation: [{ duration: 25, nodes: 3 }, a.allocation[1]], completion: a.start + 25 + a.allocation[1].duration } : a)) };
    expectInvariant(() => verifyEvolvingSchedule(apps, overExpanded, { expandLimit: 2 }), 'evolving/profile');
  });

  it('max flow: capacity and conservation', () => {
    const net = new FlowNetwork(3);
    const a = net.addEdge(0, 1, 5);
    const b = net.addEdge(1, 2, 5);
    net.push(a, 3);
    net.push(b, 3);
    expect(net.verifyFlow(0, 2)).to.equal(3);
    net.push(a, 1);
    expect(expectInvariant(() => net.verifyFlow(0, 2), 'maxflow/conservation').node).to.equal(1);
    net.push(b, 3);
    expectInvariant(() => net.verifyFlow(0, 2), 'maxflow/capacity');
  });

  it('metrics: stretch >= 1 and utilization <= 1, only with checks on', () => {
    const bad = [{ id: 1, submit: 0, start: 0, end: 10, runtime: 20, procs: 1 }];
    expect(withInvariantChecks(false, () => summarizeRun(bad)).maxStretch).to.equal(0.5);
    expectInvariant(() => withInvariantChecks(true, () => summarizeRun(bad)), 'metrics/stretch');
    const crowded = [
      { id: 1, submit: 0, start: 0, end: 10, procs: 3 },
      { id: 2, submit: 0, start: 0, end: 10, procs: 3 },
    ];
    expectInvariant(() => withInvariantChecks(true, () => summarizeRun(crowded, { machineSize: 4 })), 'metrics/utilization');
  });
});

describe('hardening: schedulers on random workloads with invariant checks on (property tests)', function () {
  this.timeout(5 * 60 * 1000); // a guard against hangs: the suite runs beside notebook executions
  before(() => setInvariantChecks(true));
  after(() => setInvariantChecks(undefined));

  it('FCFS, EASY and conservative backfilling keep every invariant; no job starts after a reservation it was given', () => {
    let runs = 0;
    fc.assert(
      fc.property(arbBatch, ({ machineSize, policy, estimates, jobs }) => {
        runs++;
        const promised = new Map<number, number>();
        const r = simulateBatch(jobs, {
          machineSize,
          policy,
          estimates,
          onReservation: ({ id, reservedStart }) => {
            // Zero-length conservative reservations hold nothing and are exempt (see simulate.ts).
            const est = batchEstimate(jobs[id - 1], estimates);
            if (policy === 'conservative' && !(reservedStart + est > reservedStart)) return;
            promised.set(id, Math.min(promised.get(id) ?? Infinity, reservedStart));
          },
        });
        verifyBatchSchedule(jobs, r, machineSize);
        // The same reservation invariant, checked from outside through the hook.
        jobs.forEach((j, k) => expect(r[k].start, `job ${j.id}`).to.be.at.most(promised.get(j.id) ?? Infinity));
        if (jobs.length > 0) summarizeRun(r, { machineSize });
      }),
      { numRuns: 300, seed: 101 },
    );
    record({ area: 'invariants', kind: 'batch schedulers on random workloads (FCFS/EASY/conservative × exact/requested)', cases: runs, outcome: 'no invariant broken' });
  });

  it('the five Algorithm 1 variants and both rigid baselines keep the cluster and every profile', () => {
    let runs = 0;
    const arb = fc.integer({ min: 1, max: 12 }).chain((nodes) => fc.record({ nodes: fc.constant(nodes), apps: arbApps(nodes), algorithm: fc.constantFrom(...EVOLVING_ALGORITHMS, 'rigidEarliestFit') }));
    fc.assert(
      fc.property(arb, ({ nodes, apps, algorithm }) => {
        runs++;
        const s = algorithm === 'rigidEarliestFit' ? scheduleByName(apps, nodes, 'rigid') : scheduleByName(apps, nodes, algorithm);
        const limit = algorithm in EVOLVING_VARIANTS ? EVOLVING_VARIANTS[algorithm].expandLimit : undefined;
        verifyEvolvingSchedule(apps, s, algorithm.startsWith('rigid') ? { rigid: true } : { expandLimit: limit });
      }),
      { numRuns: 200, seed: 102 },
    );
    record({ area: 'invariants', kind: 'evolving schedulers on random applications (rigid + 5 variants)', cases: runs, outcome: 'no invariant broken' });
  });

  it('the max-stretch bound is >= 1 and passes its flow and result checks; the LP path agrees with max flow', () => {
    let runs = 0;
    fc.assert(
      fc.property(arbDfrs, fc.boolean(), ({ nodes, jobs: raw }, useLp) => {
        runs++;
        const jobs = toDfrs(raw);
        const flow = maxStretchLowerBound(jobs, { nodes, tolerance: 1e-6 });
        expect(flow.bound).to.be.at.least(1);
        if (useLp) {
          // crossCheck defaults to on with checks on: each LP verdict is compared with max flow
          const lp = maxStretchLowerBound(jobs, { nodes, tolerance: 1e-6, method: 'lp' });
          expect(Math.abs(lp.bound - flow.bound) / flow.bound).to.be.below(1e-4);
        }
      }),
      { numRuns: 120, seed: 103 },
    );
    record({ area: 'invariants', kind: 'max-stretch bound on random DFRS instances (flow; LP cross-checked on about half)', cases: runs, outcome: 'bound >= 1, flow valid, LP = flow' });
  });
});

describe('hardening: regressions found by the property tests', () => {
  afterEach(() => setInvariantChecks(undefined));

  it('conservative backfilling with requested estimates no longer crashes when a zero-run-time job missed its instant and another job ends early', () => {
    // Job 1 (6 processors, run time 0) is reserved at 2 but cannot start then (job 3 holds 3 of 8
    // processors until 3). Job 3 ends at 3, one second before its estimate: the reservations are
    // recompressed, and releasing job 1's zero-length reservation at 2 used to throw
    // "ProcessorProfile: start 2 is before the profile origin 3".
    const jobs: WorkloadJob[] = [
      { id: 1, submit: 1, runtime: 0, procs: 6 },
      { id: 2, submit: 0, runtime: 2, procs: 3 },
      { id: 3, submit: 1, runtime: 2, procs: 3, requestedTime: 3 },
    ];
    for (const checks of [false, true]) {
      setInvariantChecks(checks);
      const r = simulateBatch(jobs, { machineSize: 8, policy: 'conservative', estimates: 'requested' });
      verifyBatchSchedule(jobs, r, 8);
      expect(r.map((x) => x.start)).to.deep.equal([3, 0, 1]);
    }
  });

  it('a zero-length conservative reservation is not a guarantee (documented): the job starts when processors are free', () => {
    const jobs: WorkloadJob[] = [
      { id: 1, submit: 189, runtime: 2, procs: 1 },
      { id: 2, submit: 92, runtime: 28, procs: 1 },
      { id: 3, submit: 92, runtime: 0, procs: 2 },
      { id: 4, submit: 91, runtime: 71, procs: 2 },
    ];
    setInvariantChecks(true);
    const reserved: number[] = [];
    const r = simulateBatch(jobs, { machineSize: 2, policy: 'conservative', onReservation: (x) => x.id === 3 && reserved.push(x.reservedStart) });
    expect(reserved).to.include(190);
    expect(r[2].start).to.equal(191); // job 1, backfilled at 189 over the instant 190, holds a processor until 191
  });
});
