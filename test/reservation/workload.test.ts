import { expect } from 'chai';
import {
  RUNTIME_CLASSES,
  acceptanceRate,
  averageSlowdown,
  confidenceInterval95,
  lublinReservationRequests,
  pairedReservationDifferences,
  reservationUtilization,
  reservationCell,
  runtimeClassAtLeast,
  runtimeClassCuts,
  runtimeClassOf,
  runtimeClassShares,
  summarizeReservationRuns,
  toReservationRequests,
  traceReservationRequests,
} from '../../src/schedulers/reservation';
import { WorkloadJob } from '../../src/workloads/job';

describe('reservation: request generation', () => {
  it('Lublin with the LANL-CM5 parameters: powers of two 32…1024, class durations, valid windows', () => {
    const reqs = lublinReservationRequests({ jobs: 2000, seed: 5, uMed: 7, artimeFactor: 3, deadlineFactor: 3 });
    expect(reqs).to.have.length(2000);
    for (const r of reqs) {
      expect(Math.log2(r.pes) % 1, `size ${r.pes}`).to.equal(0);
      expect(r.pes).to.be.within(32, 1024);
      expect(RUNTIME_CLASSES).to.include(r.duration);
      expect(r.ready).to.be.at.least(r.arrival);
      expect(r.ready).to.be.at.most(Math.ceil(r.arrival + 3 * r.duration));
      expect(r.deadline).to.be.at.least(r.ready + r.duration);
      expect(r.deadline).to.be.at.most(r.ready + 4 * r.duration);
      expect(Number.isInteger(r.ready) && Number.isInteger(r.deadline)).to.equal(true);
    }
  });

  it('is deterministic for a seed and different for another seed', () => {
    const a = lublinReservationRequests({ jobs: 300, seed: 'x' });
    const b = lublinReservationRequests({ jobs: 300, seed: 'x' });
    const c = lublinReservationRequests({ jobs: 300, seed: 'y' });
    expect(a).to.deep.equal(b);
    expect(a).to.not.deep.equal(c);
  });

  it('a larger UMed gives larger jobs on average', () => {
    const mean = (u: number): number => {
      const r = lublinReservationRequests({ jobs: 3000, seed: 1, uMed: u });
      return r.reduce((s, x) => s + x.pes, 0) / r.length;
    };
    expect(mean(9)).to.be.greaterThan(mean(5));
  });

  it('the arrival factor divides arrival times; zero factors give immediate deadlines', () => {
    const jobs: WorkloadJob[] = [
      { id: 1, submit: 100, runtime: 50, procs: 32 },
      { id: 2, submit: 400, runtime: 70, procs: 64 },
    ];
    const r = toReservationRequests(jobs, { seed: 1, arrivalFactor: 2, artimeFactor: 0, deadlineFactor: 0 });
    expect(r.map((x) => x.arrival)).to.deep.equal([0, 150]);
    expect(r.map((x) => x.deadline - x.ready)).to.deep.equal([50, 70]);
    expect(() => toReservationRequests(jobs, { seed: 1, arrivalFactor: 0 })).to.throw(/arrivalFactor/);
  });

  it('run-time classes: estimates round up to a class; quantile cuts reproduce the target shares', () => {
    expect(runtimeClassAtLeast(1)).to.equal(60);
    expect(runtimeClassAtLeast(600)).to.equal(900);
    expect(runtimeClassAtLeast(3600)).to.equal(3600);
    expect(runtimeClassAtLeast(99999)).to.equal(10800);
    const est: WorkloadJob[] = [60, 300, 300, 3600, 20000].map((e, i) => ({ id: i, submit: 0, runtime: 1, procs: 32, requestedTime: e }));
    expect(runtimeClassShares(est)).to.deep.equal([0.2, 0.4, 0, 0, 0.2, 0.2]);
    const runtimes = Array.from({ length: 1000 }, (_, i) => i + 1);
    const shares = [0.1, 0.2, 0.3, 0.1, 0.2, 0.1];
    const map = runtimeClassCuts(runtimes, shares);
    const counts = RUNTIME_CLASSES.map((c) => runtimes.filter((x) => runtimeClassOf(x, map) === c).length / runtimes.length);
    counts.forEach((c, k) => expect(c).to.be.closeTo(shares[k], 1e-9));
  });

  it('trace jobs: estimate (or runtime when missing) rounded up to a class; bad offset is an error', () => {
    const trace: WorkloadJob[] = [
      { id: 7, submit: 1000, runtime: 100, procs: 32, requestedTime: 250 },
      { id: 8, submit: 1010, runtime: 1000, procs: 64 },
    ];
    const r = traceReservationRequests(trace, { seed: 3 });
    expect(r.map((x) => x.duration)).to.deep.equal([300, 1800]);
    expect(r.map((x) => x.arrival)).to.deep.equal([0, 10]);
    expect(() => traceReservationRequests(trace, { seed: 3, offset: 5 })).to.throw(/offset/);
  });
});

describe('reservation: metrics', () => {
  const base = { arrival: 0, ready: 0, duration: 10, deadline: 100, pes: 2 };
  const outcomes = [
    { ...base, id: 1, accepted: true, start: 0, end: 10 },
    { ...base, id: 2, accepted: true, start: 20, end: 30 },
    { ...base, id: 3, accepted: false },
    { ...base, id: 4, accepted: false },
  ];

  it('acceptance rate, average slowdown from the ready time, utilization', () => {
    expect(acceptanceRate(outcomes)).to.equal(0.5);
    // slowdowns 1 and (20 + 10) / 10 = 3
    expect(averageSlowdown(outcomes)).to.equal(2);
    // 2 jobs × 2 PEs × 10 s over 4 PEs × 30 s
    expect(reservationUtilization(outcomes, 4)).to.be.closeTo(40 / 120, 1e-12);
    expect(averageSlowdown(outcomes.filter((o) => !o.accepted))).to.be.NaN;
  });

  it('95% confidence interval uses Student t with n − 1 degrees of freedom', () => {
    const ci = confidenceInterval95([1, 2, 3, 4]);
    expect(ci.mean).to.equal(2.5);
    // sd = 1.29099, t(3) = 3.18245
    expect(ci.halfWidth).to.be.closeTo((3.182446 * 1.290994) / 2, 1e-4);
    expect(confidenceInterval95([5]).halfWidth).to.equal(0);
    expect(() => confidenceInterval95([])).to.throw(/no values/);
  });

  it('experiment cells give one record per (value, replication, policy) and a CI summary', () => {
    const runs = [1, 3].flatMap((x) => [0, 1].flatMap((rep) => (['FF', 'PE_W'] as const).map((policy) => reservationCell({ experiment: 'flexibility', source: 'lublin', x, rep, policy, jobs: 150, seed: '9' }))));
    expect(runs.map((r) => [r.x, r.replication, r.policy])).to.deep.equal([1, 3].flatMap((x) => [0, 1].flatMap((rep) => ['FF', 'PE_W'].map((p) => [x, rep, p]))));
    for (const r of runs) expect(r.acceptanceRate).to.be.within(0, 100);
    const sum = summarizeReservationRuns(runs);
    expect(sum).to.have.length(4);
    for (const s of sum) expect(s.replications).to.equal(2);
    // No accepted job starts before its ready time, so every average slowdown is at least 1.
    for (const s of sum) expect(s.averageSlowdown).to.be.at.least(1);
  });
});

describe('reservation: paired differences', () => {
  it('subtracts the baseline of the same replication', () => {
    const mk = (policy: 'FF' | 'PE_W', replication: number, acceptanceRate: number) => ({
      experiment: 'uMed' as const, x: 7, policy, replication, source: 's', requests: 10, accepted: 5, acceptanceRate, averageSlowdown: 1, utilization: 50,
    });
    const rows = pairedReservationDifferences([mk('FF', 0, 50), mk('PE_W', 0, 60), mk('FF', 1, 30), mk('PE_W', 1, 42)]);
    expect(rows).to.have.length(1);
    expect(rows[0].difference).to.equal(11);
    // sd of (10, 12) is √2; t(1) = 12.706; half-width = 12.706 · √2 / √2
    expect(rows[0].differenceCi95).to.be.closeTo(12.7062, 1e-3);
  });
});
