import { expect } from 'chai';
import * as fc from 'fast-check';
import { simulateTwoTier, TwoTierJob } from '../../src/schedulers/twotier';

const jobArb = (P: number) =>
  fc.record({
    submit: fc.integer({ min: 0, max: 40 }),
    runtime: fc.integer({ min: 1, max: 100 }),
    procs: fc.integer({ min: 1, max: P }),
    over: fc.integer({ min: 1, max: 3 }), // estimate = runtime · over (never below the runtime)
    usage: fc.array(fc.double({ min: 0.3, max: 1, noNaN: true }), { minLength: P, maxLength: P }),
  });

const workloadArb = fc.integer({ min: 2, max: 10 }).chain((P) =>
  fc.record({ P: fc.constant(P), jobs: fc.array(jobArb(P), { minLength: 1, maxLength: 30 }), cost: fc.integer({ min: 0, max: 15 }) }),
);

function toJobs(spec: { jobs: { submit: number; runtime: number; procs: number; over: number; usage: number[] }[] }): TwoTierJob[] {
  return spec.jobs.map((j, k) => ({
    id: k + 1, submit: j.submit, runtime: j.runtime, procs: j.procs, requestedTime: j.runtime * j.over,
    cpuUsage: j.procs === 1 ? [1] : j.usage.slice(0, j.procs),
  }));
}

describe('twotier: reservations are never delayed by backfilling (property)', () => {
  for (const policy of ['keasy', 'measy'] as const) {
    it(`${policy}: every head job reaches the fg tier no later than the first shadow time computed for it`, () => {
      fc.assert(
        fc.property(workloadArb, (spec) => {
          const jobs = toJobs(spec);
          // no fg loss: estimates are then upper bounds of the fg time, as EASY assumes
          const r = simulateTwoTier(jobs, { machineSize: spec.P, policy, migrationCost: spec.cost, lossRange: [0, 0], log: true });
          const firstShadow = new Map<number, number>();
          for (const e of r.log!) if (e.action === 'reserve' && !firstShadow.has(e.job)) firstShadow.set(e.job, e.shadow!);
          for (const j of r.jobs) {
            const s = firstShadow.get(j.id);
            if (s === undefined || Number.isNaN(j.fgStart)) continue; // never head, or finished in the bg
            expect(j.fgStart, `job ${j.id} (shadow ${s})`).to.be.at.most(s + 1e-6);
          }
          // every backfill decision respected the reservation in force
          let res: { shadow: number; extra: number } | undefined;
          for (const e of r.log!) {
            if (e.action === 'reserve') res = { shadow: e.shadow!, extra: e.extra! };
            if (e.action === 'fg' && e.via === 'backfill' && res) {
              const j = jobs[e.job - 1];
              const est = j.requestedTime! + (r.jobs[e.job - 1].migrations > 0 && policy === 'measy' ? spec.cost : 0);
              const endsBefore = e.time + est <= res.shadow + 1e-6;
              expect(endsBefore || j.procs <= res.extra, `backfill of job ${e.job} at ${e.time}`).to.equal(true);
              if (!endsBefore) res.extra -= j.procs;
            }
          }
        }),
        { numRuns: 300, seed: 42 },
      );
    });
  }
});

describe('twotier: the extra processors are shared out, not reused', () => {
  it('two long jobs cannot both use one extra processor', () => {
    // P = 4: J1 (2 procs) ends at 10; head J2 needs 3, so 1 processor is extra. J3 takes it; J4 must not.
    const jobs: TwoTierJob[] = [
      { id: 1, submit: 0, runtime: 10, procs: 2, cpuUsage: [0.5, 0.5] },
      { id: 2, submit: 0, runtime: 10, procs: 3, cpuUsage: [0.5, 0.5, 0.5] },
      { id: 3, submit: 0, runtime: 100, procs: 1, cpuUsage: [1] },
      { id: 4, submit: 0, runtime: 100, procs: 1, cpuUsage: [1] },
    ];
    for (const policy of ['keasy', 'measy', 'reasy'] as const) {
      const r = simulateTwoTier(jobs, { machineSize: 4, policy, estimates: 'exact', lossRange: [0, 0], log: true });
      const fg0 = r.log!.filter((e) => e.action === 'fg' && e.time === 0).map((e) => e.job);
      expect(fg0, policy).to.deep.equal([1, 3]);
      expect(r.jobs[1].fgStart, policy).to.equal(10);
    }
  });
});
