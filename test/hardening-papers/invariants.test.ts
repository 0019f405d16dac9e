/**
 * Invariant checking in the paper families: each check catches a broken
 * schedule (fault injection), and every scheduler runs on random small
 * workloads with the toolkit-wide switch on (property tests; fast-check
 * shrinks a failure to a minimal workload). Cross-checks: a VCSched
 * heuristic is never better than the exact optimum nor the LP relaxation; a
 * DFRS schedule's maximum stretch is never below the max-stretch lower bound.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { InvariantError, withInvariantChecks, invariantChecksEnabled } from '../../src/util/invariants';
import { InputError } from '../../src/util/errors';
import {
  simulateDfrs,
  checkAllocation,
  verifyDfrsRun,
  TABLE2_DFRS_ALGORITHMS,
  maxBoundedStretch,
  degradationFromBound,
  underutilization,
} from '../../src/schedulers/dfrs';
import { maxStretchLowerBound } from '../../src/bounds/maxstretch';
import type { DfrsJob } from '../../src/workloads/dfrs';
import {
  VcInstance,
  VCSCHED_HEURISTICS,
  VcHeuristic,
  runVcschedHeuristic,
  solveVcschedExact,
  solveVcschedLp,
  solveVcschedMilp,
  vcschedRelaxedMinYield,
  verifyVcAllocation,
  instanceTasks,
} from '../../src/schedulers/vcsched';
import { packVectors, maximizeMinYield, verifyPacking, verifyYieldPlacement } from '../../src/schedulers/packing';
import {
  RESERVATION_POLICIES,
  ReservationRequest,
  simulateReservations,
  verifyReservationOutcomes,
  verifyNoOverlap,
  reservationMetrics,
} from '../../src/schedulers/reservation';
import { simulateTwoTier, TwoTierJob, TwoTierPolicy, twoTierMetrics } from '../../src/schedulers/twotier';
import { record } from './tally';

const EPS = 1e-9;

/** Faults injected so far (each expectInvariant call is one); the tally counts them per test. */
let faults = 0;

/** Run `fn`, expect an InvariantError named `name`, return it. */
function expectInvariant(fn: () => unknown, name: string): InvariantError {
  faults++;
  try {
    fn();
  } catch (e) {
    expect(e, String(e)).to.be.instanceOf(InvariantError);
    expect((e as InvariantError).invariant, (e as Error).message).to.equal(name);
    return e as InvariantError;
  }
  throw new Error(`expected invariant ${name} to be reported`);
}

// ---------------------------------------------------------------------------
// Arbitraries

const arbDfrsWorkload = fc.record({
  nodes: fc.integer({ min: 1, max: 4 }),
  jobs: fc.array(
    fc.record({
      submit: fc.integer({ min: 0, max: 2000 }),
      runtime: fc.oneof(fc.integer({ min: 0, max: 1500 }), fc.double({ min: 0.5, max: 1500, noNaN: true })),
      tasks: fc.integer({ min: 1, max: 4 }),
      cpuNeed: fc.constantFrom(0.1, 0.25, 0.5, 0.75, 1),
      mem: fc.constantFrom(0.1, 0.2, 0.3, 0.5),
    }),
    { minLength: 1, maxLength: 7 },
  ),
  penalty: fc.constantFrom(0, 300),
});

const toDfrsJobs = (raw: { submit: number; runtime: number; tasks: number; cpuNeed: number; mem: number }[], nodes: number): DfrsJob[] =>
  // A job must fit in memory on empty nodes (else it is bad input, tested elsewhere).
  raw.map((r, i) => ({ id: i + 1, submit: r.submit, runtime: r.runtime, tasks: Math.min(r.tasks, nodes * Math.floor(1 / r.mem + 1e-9)), cpuNeed: r.cpuNeed, mem: r.mem }));

const fraction = fc.integer({ min: 0, max: 1000 }).map((x) => x / 1000);
const arbVcInstance = (maxHosts: number, maxJobs: number, maxTasks: number): fc.Arbitrary<VcInstance> =>
  fc.record({
    hosts: fc.integer({ min: 1, max: maxHosts }),
    jobs: fc.array(fc.record({ cpuNeed: fraction, mem: fraction.map((m) => m * 0.7), tasks: fc.integer({ min: 1, max: maxTasks }) }), {
      minLength: 1,
      maxLength: maxJobs,
    }),
  });

const arbRequests = fc.integer({ min: 1, max: 16 }).chain((machineSize) =>
  fc.record({
    machineSize: fc.constant(machineSize),
    requests: fc.array(
      fc.record({
        arrival: fc.integer({ min: 0, max: 200 }),
        readyDelay: fc.integer({ min: 0, max: 60 }),
        duration: fc.integer({ min: 1, max: 80 }),
        slack: fc.integer({ min: 0, max: 120 }),
        pes: fc.integer({ min: 1, max: machineSize }),
      }),
      { minLength: 1, maxLength: 25 },
    ),
  }),
);
const toRequests = (raw: { arrival: number; readyDelay: number; duration: number; slack: number; pes: number }[]): ReservationRequest[] =>
  raw.map((r, i) => ({ id: i + 1, arrival: r.arrival, ready: r.arrival + r.readyDelay, duration: r.duration, deadline: r.arrival + r.readyDelay + r.duration + r.slack, pes: r.pes }));

const arbTwoTier = fc.integer({ min: 1, max: 8 }).chain((P) =>
  fc.record({
    P: fc.constant(P),
    policy: fc.constantFrom<TwoTierPolicy>('easy', 'keasy', 'reasy', 'measy'),
    noLoss: fc.boolean(),
    slice: fc.constantFrom(0, 0, 0, 1),
    cost: fc.integer({ min: 0, max: 20 }),
    estimates: fc.constantFrom<'requested' | 'exact'>('requested', 'exact'),
    cpuInfo: fc.constantFrom<'exact' | 'none'>('exact', 'exact', 'none'),
    jobs: fc.array(
      fc.record({
        submit: fc.integer({ min: 0, max: 60 }),
        runtime: fc.integer({ min: 0, max: 90 }),
        procs: fc.integer({ min: 1, max: P }),
        over: fc.integer({ min: 1, max: 3 }),
        usage: fc.array(fc.integer({ min: 30, max: 100 }).map((u) => u / 100), { minLength: P, maxLength: P }),
      }),
      { minLength: 1, maxLength: 20 },
    ),
  }),
);

// ---------------------------------------------------------------------------

describe('hardening (papers): each invariant check catches a broken schedule', () => {
  it('DFRS: memory, CPU, need, equal shares, tasks; release, stretch, work', () => {
    const before = faults;
    const ok = { job: 1, node: 0, cpu: 0.5, need: 0.5, mem: 0.5 };
    checkAllocation([ok, { ...ok, node: 1 }], 2);
    expect(expectInvariant(() => checkAllocation([ok, { ...ok, job: 2 }, { ...ok, job: 3, cpu: 0 }], 1, 'x', undefined, 7), 'dfrs/memory')).to.include({ node: 0, time: 7 });
    expectInvariant(() => checkAllocation([ok, { ...ok, job: 2, mem: 0.1, cpu: 0.6, need: 0.6 }], 1), 'dfrs/cpu');
    expect(expectInvariant(() => checkAllocation([{ ...ok, cpu: 1, need: 0.5 }], 1), 'dfrs/need').job).to.equal(1);
    expectInvariant(() => checkAllocation([ok, { ...ok, node: 1, cpu: 0.4 }], 2), 'dfrs/equal-share');
    expectInvariant(() => checkAllocation([ok], 1, 'x', new Map([[1, 2]])), 'dfrs/tasks');
    expectInvariant(() => checkAllocation([{ ...ok, node: 3 }], 2), 'dfrs/node');
    const run = { id: 4, submit: 10, runtime: 100, tasks: 2, cpuNeed: 0.5, start: 10, completion: 110 };
    verifyDfrsRun([run], 100);
    expect(expectInvariant(() => verifyDfrsRun([{ ...run, start: 5 }], 100), 'dfrs/release')).to.include({ job: 4, time: 5 });
    expectInvariant(() => verifyDfrsRun([{ ...run, completion: 100 }], 100), 'dfrs/stretch');
    expectInvariant(() => verifyDfrsRun([run], 99), 'dfrs/work');
    expectInvariant(() => verifyDfrsRun([{ ...run, completion: NaN }], 100), 'dfrs/completed');
    // metric consistency, only with the switch on
    expect(withInvariantChecks(false, () => degradationFromBound(1.5, 2))).to.equal(0.75);
    expectInvariant(() => withInvariantChecks(true, () => degradationFromBound(1.5, 2)), 'dfrs/bound');
    const tooFast = [{ submit: 0, completion: 50, runtime: 100, tasks: 1, cpuNeed: 1 }];
    expectInvariant(() => withInvariantChecks(true, () => maxBoundedStretch(tooFast)), 'dfrs/stretch');
    record({ family: 'DFRS', kind: 'broken allocations and runs fed to the checks (fault injection)', cases: faults - before, outcome: 'each reported as its named InvariantError' });
  });

  it('VCSched and packing: host, need, equal share, memory, CPU, yield, relaxation bound', () => {
    const before = faults;
    const inst: VcInstance = { hosts: 2, jobs: [{ cpuNeed: 0.6, mem: 0.5, tasks: 2 }, { cpuNeed: 0.4, mem: 0.4 }] };
    const good = { host: [0, 1, 1], cpu: [0.3, 0.3, 0.2] };
    verifyVcAllocation(inst, good);
    expect(expectInvariant(() => verifyVcAllocation(inst, { host: [0, 2, 1], cpu: good.cpu }), 'vcsched/host').job).to.equal(0);
    expectInvariant(() => verifyVcAllocation(inst, { host: good.host, cpu: [0.7, 0.7, 0.2] }), 'vcsched/need');
    expectInvariant(() => verifyVcAllocation(inst, { host: good.host, cpu: [0.3, 0.2, 0.2] }), 'vcsched/equal-share');
    expect(expectInvariant(() => verifyVcAllocation(inst, { host: [1, 1, 1], cpu: [0.3, 0.3, 0.2] }), 'vcsched/memory').node).to.equal(1);
    expectInvariant(() => verifyVcAllocation({ hosts: 1, jobs: [{ cpuNeed: 0.8, mem: 0.1 }, { cpuNeed: 0.8, mem: 0.1 }] }, { host: [0, 0], cpu: [0.8, 0.8] }), 'vcsched/cpu');
    expectInvariant(() => verifyVcAllocation(inst, good, { minYield: 0.9 }), 'vcsched/min-yield');
    // a "better than the relaxation" yield: claim yield 1 on an overloaded single host
    const over: VcInstance = { hosts: 1, jobs: [{ cpuNeed: 1, mem: 0.1 }, { cpuNeed: 1, mem: 0.1 }] };
    expectInvariant(() => verifyVcAllocation(over, { host: [0, 0], cpu: [0.5, 0.5] }, { minYield: 0.5 + 1e-3 }), 'vcsched/min-yield');
    verifyPacking([0.5, 0.5], [0.2, 0.3], [0, 0], 1);
    expect(expectInvariant(() => verifyPacking([0.6, 0.5], [0.2, 0.3], [0, 0], 1), 'packing/cpu').node).to.equal(0);
    expectInvariant(() => verifyPacking([0.1, 0.1], [0.6, 0.5], [0, 0], 1), 'packing/memory');
    expectInvariant(() => verifyPacking([0.1], [0.1], [1], 1), 'packing/placed');
    expectInvariant(() => verifyPacking([0.5], [0.2], [0], 1, { cpu: [0.6], mem: [0] }), 'packing/cpu');
    const tasks = [{ job: 0, cpuNeed: 0.8, mem: 0.3 }, { job: 1, cpuNeed: 0.8, mem: 0.3 }];
    verifyYieldPlacement(tasks, [0, 0], 1, 0.625);
    expectInvariant(() => verifyYieldPlacement(tasks, [0, 0], 1, 0.7), 'packing/cpu');
    expectInvariant(() => verifyYieldPlacement(tasks, [0, 0], 1, 1.2), 'packing/yield');
    record({ family: 'VCSched / packing', kind: 'broken allocations and packings fed to the checks (fault injection)', cases: faults - before, outcome: 'each reported as its named InvariantError' });
  });

  it('reservation: window, PE count, double-booked PEs', () => {
    const before = faults;
    const reqs: ReservationRequest[] = [
      { id: 1, arrival: 0, ready: 0, duration: 10, deadline: 20, pes: 2 },
      { id: 2, arrival: 0, ready: 5, duration: 10, deadline: 30, pes: 2 },
    ];
    const good = simulateReservations(reqs, { machineSize: 4, policy: 'FF', recordPes: true });
    verifyReservationOutcomes(reqs, good, 4);
    const early = good.map((o) => (o.id === 2 ? { ...o, start: 3, end: 13 } : o));
    expect(expectInvariant(() => verifyReservationOutcomes(reqs, early, 4), 'reservation/window')).to.include({ job: 2, time: 3 });
    const late = good.map((o) => (o.id === 1 ? { ...o, start: 15, end: 25 } : o));
    expectInvariant(() => verifyReservationOutcomes(reqs, late, 4), 'reservation/window');
    const short = good.map((o) => (o.id === 1 ? { ...o, end: (o.start as number) + 5 } : o));
    expectInvariant(() => verifyReservationOutcomes(reqs, short, 4), 'reservation/window');
    const fewer = good.map((o) => (o.id === 1 ? { ...o, allocatedPes: '0' } : o));
    expectInvariant(() => verifyReservationOutcomes(reqs, fewer, 4), 'reservation/pes');
    const clash = good.map((o) => ({ ...o, allocatedPes: '0-1' }));
    expect(expectInvariant(() => verifyReservationOutcomes(reqs, clash, 4), 'reservation/overlap')).to.include({ job: 2, node: 0 });
    expectInvariant(() => verifyNoOverlap([{ id: 1, start: 0, end: 10, pes: [3] }, { id: 2, start: 9, end: 12, pes: [3] }], 4), 'reservation/overlap');
    verifyNoOverlap([{ id: 1, start: 0, end: 10, pes: [3] }, { id: 2, start: 10, end: 12, pes: [3] }], 4);
    record({ family: 'reservation', kind: 'broken reservations fed to the checks (early, late, short, too few PEs, double-booked)', cases: faults - before, outcome: 'each reported as its named InvariantError' });
  });

  it('two-tier: a progress model that breaks the rules is caught inside the simulator', () => {
    const before = faults;
    const jobs: TwoTierJob[] = [
      { id: 1, submit: 0, runtime: 50, procs: 2, cpuUsage: [0.5, 0.5] },
      { id: 2, submit: 0, runtime: 50, procs: 2, cpuUsage: [0.5, 0.5] },
      { id: 3, submit: 1, runtime: 20, procs: 1, cpuUsage: [1] },
    ];
    const base = { machineSize: 2, policy: 'keasy' as const, estimates: 'exact' as const };
    // faster than a dedicated processor: rate 1.5
    const fast = expectInvariant(() => withInvariantChecks(true, () => simulateTwoTier(jobs, { ...base, backgroundRate: () => 1.5 })), 'twotier/rate');
    expect(fast.job).to.equal(2);
    // without checks the same fault goes through unnoticed (and gives a slowdown below 1)
    const unchecked = withInvariantChecks(false, () => simulateTwoTier(jobs, { ...base, backgroundRate: () => 1.5 }));
    expect(unchecked.jobs.some((j) => j.finish - j.submit < j.runtime)).to.equal(true);
    expectInvariant(
      () => withInvariantChecks(true, () => twoTierMetrics(unchecked.jobs.map((j) => ({ id: j.id, submit: j.submit, start: j.start, end: j.finish, runtime: j.runtime })))),
      'twotier/slowdown',
    );
    // a progress model that returns NaN or a negative rate is bad input, rejected whether checks are on or not
    // (before this check, NaN rates finished jobs at time 0 without a word)
    for (const bad of [NaN, -0.5]) {
      for (const on of [true, false]) {
        faults++;
        expect(() => withInvariantChecks(on, () => simulateTwoTier(jobs, { ...base, backgroundRate: () => bad })))
          .to.throw(InputError, /backgroundRate returned/)
          .with.property('field', 'backgroundRate');
      }
    }
    record({ family: 'two-tier', kind: 'faulty progress models injected (rate 1.5; NaN and negative rates) and a too-fast schedule fed to the metrics', cases: faults - before, outcome: 'rate 1.5 and the metrics: named InvariantError; NaN/negative: InputError, checks on or off' });
  });
});

describe('hardening (papers): every scheduler on random workloads with invariant checks on', function () {
  this.timeout(5 * 60 * 1000); // a guard against hangs: the suite runs beside notebook executions

  const DFRS_EXTRA = ['GreedyPM */per/opt=avg/minvt=600', 'MCB8 */opt=avg/minft=300', '/stretch-per/opt=avg', 'Greedy */opt=avg'];

  it('DFRS: all 18 Table-2 algorithms (and 4 opt=avg variants) keep every invariant; max stretch >= the max-stretch lower bound', () => {
    let runs = 0;
    let workloads = 0;
    fc.assert(
      fc.property(arbDfrsWorkload, ({ nodes, jobs: raw, penalty }) => {
        workloads++;
        const jobs = toDfrsJobs(raw, nodes);
        const bound = maxStretchLowerBound(jobs, { nodes, tolerance: 1e-6 }).bound;
        withInvariantChecks(true, () => {
          expect(invariantChecksEnabled()).to.equal(true);
          for (const algorithm of [...TABLE2_DFRS_ALGORITHMS, ...DFRS_EXTRA]) {
            runs++;
            const r = simulateDfrs(jobs, { nodes, algorithm, penalty, timeMcb: false });
            const ms = maxBoundedStretch(r.jobs);
            // the metric checks run too: stretch >= 1, degradation >= 1, underutilization >= 0
            expect(degradationFromBound(ms, bound), algorithm).to.be.at.least(1 - 1e-6);
            expect(underutilization(r.jobs, nodes).underutilization).to.be.at.least(-1e-6);
          }
        });
      }),
      { numRuns: 50, seed: 2201 },
    );
    record({ family: 'DFRS', kind: 'random workloads × 22 algorithms, checks on (memory, CPU, need, equal shares, release, work, stretch, bound)', cases: runs, outcome: 'no invariant broken; max stretch >= lower bound' });
    expect(workloads).to.equal(50);
  });

  it('VCSched: MCB1-8, GR, SG, GB, SGB keep every constraint; never better than the exact optimum nor the LP relaxation', () => {
    let runs = 0;
    const heuristics = VCSCHED_HEURISTICS.filter((h) => h !== 'RRND' && h !== 'RRNZ');
    fc.assert(
      fc.property(arbVcInstance(4, 5, 3), (inst) => {
        const exact = solveVcschedExact(inst);
        const relaxed = vcschedRelaxedMinYield(inst);
        withInvariantChecks(true, () => {
          for (const h of heuristics) {
            runs++;
            const r = runVcschedHeuristic(inst, h as VcHeuristic);
            if (r.status !== 'ok') {
              expect(r.status, h).to.equal('failed');
              continue;
            }
            expect(exact.status, `${h} found a placement the exact search calls infeasible`).to.not.equal('infeasible');
            if (exact.status === 'optimal') expect(r.minYield!, h).to.be.at.most(exact.minYield! + 1e-9);
            expect(relaxed, h).to.not.equal(null);
            expect(r.minYield!, h).to.be.at.most(relaxed! + 1e-9);
            expect(r.avgYield!).to.be.within(r.minYield! - EPS, 1 + EPS);
          }
        });
      }),
      { numRuns: 150, seed: 2202 },
    );
    record({ family: 'VCSched', kind: 'random instances × 12 heuristics (MCB1-8, GR, SG, GB, SGB), checks on', cases: runs, outcome: 'no constraint broken; never above exact optimum or relaxation' });
  });

  it('VCSched on tiny instances: RRND/RRNZ, MILP = exact search, LP relaxation = closed form, every heuristic <= both', () => {
    let runs = 0;
    fc.assert(
      fc.property(arbVcInstance(3, 3, 2), fc.integer({ min: 1, max: 1000 }), (inst, seed) => {
        withInvariantChecks(true, () => {
          const exact = solveVcschedExact(inst);
          const lp = solveVcschedLp(inst);
          const closed = vcschedRelaxedMinYield(inst);
          expect(lp.status, lp.message).to.be.oneOf(['optimal', 'infeasible']);
          if (closed === null) expect(lp.status).to.equal('infeasible');
          else expect(lp.minYield!).to.be.closeTo(closed, 1e-6);
          const milp = solveVcschedMilp(inst, { timeLimitSeconds: 10 });
          runs += 3;
          if (milp.status === 'optimal' || milp.status === 'infeasible') {
            expect(milp.status).to.equal(exact.status === 'optimal' ? 'optimal' : 'infeasible');
            if (exact.status === 'optimal') expect(milp.minYield!).to.be.closeTo(exact.minYield!, 1e-6);
          } else expect(milp.status, milp.message).to.be.oneOf(['feasible', 'unknown']);
          for (const h of ['RRND', 'RRNZ'] as const) {
            runs++;
            const r = runVcschedHeuristic(inst, h, { seed, lp });
            if (r.status !== 'ok') continue;
            if (exact.status === 'optimal') expect(r.minYield!).to.be.at.most(exact.minYield! + 1e-9);
            expect(r.minYield!).to.be.at.most(lp.minYield! + 1e-6);
          }
        });
      }),
      { numRuns: 80, seed: 2203 },
    );
    record({ family: 'VCSched', kind: 'tiny instances: RRND/RRNZ, MILP vs exact search, LP vs closed form, checks on', cases: runs, outcome: 'MILP = exact; LP = closed form; heuristics <= both' });
  });

  it('packing: MCB1-8 packings and yield searches respect capacities with checks on', () => {
    let runs = 0;
    fc.assert(
      fc.property(
        fc.array(fc.record({ cpu: fraction, mem: fraction }), { maxLength: 12 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1, max: 8 }),
        (items, bins, variant) => {
          withInvariantChecks(true, () => {
            runs++;
            packVectors(items, bins, { variant: variant as 1 });
            maximizeMinYield(
              items.map((it, k) => ({ job: k, cpuNeed: it.cpu, mem: it.mem })),
              bins,
              { variant: variant as 1 },
            );
          });
        },
      ),
      { numRuns: 500, seed: 2204 },
    );
    record({ family: 'packing', kind: 'random item sets × MCB1-8 (packing and yield search), checks on', cases: runs, outcome: 'no bin over capacity' });
  });

  it('reservation: the seven policies never double-book a PE and keep every job in [ready, deadline]', () => {
    let runs = 0;
    fc.assert(
      fc.property(arbRequests, ({ machineSize, requests: raw }) => {
        const requests = toRequests(raw);
        withInvariantChecks(true, () => {
          for (const policy of RESERVATION_POLICIES) {
            runs++;
            const out = simulateReservations(requests, { machineSize, policy, recordPes: true });
            verifyReservationOutcomes(requests, out, machineSize);
            const m = reservationMetrics(out, machineSize);
            if (m.accepted > 0) {
              expect(m.averageSlowdown).to.be.at.least(1);
              expect(m.utilization).to.be.within(0, 1 + EPS);
            }
          }
        });
      }),
      { numRuns: 200, seed: 2205 },
    );
    record({ family: 'reservation', kind: 'random request streams × 7 policies, checks on (structure after every operation, window, PEs, overlap)', cases: runs, outcome: 'no invariant broken' });
  });

  it('two-tier: EASY, KEASY, REASY and MEASY keep capacity, release, work, reservations and slowdown >= 1', () => {
    let runs = 0;
    fc.assert(
      fc.property(arbTwoTier, (spec) => {
        const jobs: TwoTierJob[] = spec.jobs.map((j, k) => ({
          id: k + 1,
          submit: j.submit,
          runtime: j.runtime,
          procs: j.procs,
          requestedTime: j.runtime * j.over,
          cpuUsage: j.procs === 1 ? [1] : j.usage.slice(0, j.procs),
        }));
        withInvariantChecks(true, () => {
          runs++;
          const r = simulateTwoTier(jobs, {
            machineSize: spec.P,
            policy: spec.policy,
            migrationCost: spec.cost,
            estimates: spec.estimates,
            cpuInfo: spec.cpuInfo,
            timeSlice: spec.slice,
            // without fg loss the estimates are upper bounds, so the reservation check applies throughout
            ...(spec.noLoss ? { lossRange: [0, 0] as const } : {}),
          });
          if (spec.policy === 'easy') expect(r.backgroundPlacements).to.equal(0);
          if (r.jobs.length >= 2) twoTierMetrics(r.jobs.map((j) => ({ id: j.id, submit: j.submit, start: j.start, end: j.finish, runtime: j.runtime })));
        });
      }),
      { numRuns: 800, seed: 2206 },
    );
    record({ family: 'two-tier', kind: 'random workloads × EASY/KEASY/REASY/MEASY (exact and time-sliced), checks on', cases: runs, outcome: 'no invariant broken' });
  });
});

describe('hardening (papers): checks cost nothing when off', () => {
  it('runs give the same results with the switch on and off (checks only observe)', () => {
    const jobs: DfrsJob[] = [
      { id: 1, submit: 0, runtime: 500, tasks: 2, cpuNeed: 0.5, mem: 0.3 },
      { id: 2, submit: 100, runtime: 300, tasks: 1, cpuNeed: 1, mem: 0.5 },
      { id: 3, submit: 150, runtime: 900, tasks: 3, cpuNeed: 0.25, mem: 0.2 },
    ];
    for (const algorithm of ['GreedyPM */per/opt=min/minvt=600', 'MCB8 */opt=avg', '/stretch-per/opt=max']) {
      const on = withInvariantChecks(true, () => simulateDfrs(jobs, { nodes: 2, algorithm, timeMcb: false }));
      const off = withInvariantChecks(false, () => simulateDfrs(jobs, { nodes: 2, algorithm, timeMcb: false }));
      expect(on).to.deep.equal(off);
    }
    const inst: VcInstance = { hosts: 2, jobs: [{ cpuNeed: 0.7, mem: 0.4, tasks: 2 }, { cpuNeed: 0.3, mem: 0.5 }] };
    expect(withInvariantChecks(true, () => runVcschedHeuristic(inst, 'MCB8')).minYield).to.equal(withInvariantChecks(false, () => runVcschedHeuristic(inst, 'MCB8')).minYield);
    expect(instanceTasks(inst)).to.have.length(3);
  });
});
