/**
 * The switches of notebook 05's ablations (issue 25 §3), each on a small
 * hand-made case: what it does against the default.
 */
import { expect } from 'chai';
import { measyWorkload, runMeasyCell, simulateTwoTier, TwoTierJob, TwoTierOptions } from '../../src/schedulers/twotier';
import { InputError } from '../../src/util/errors';
import { withInvariantChecks } from '../../src/util/invariants';

describe('twotier ablation switches', () => {
  describe("REASY's reservation for a background head (reasyReservation)", () => {
    // 4 processors. J1 (3 processes at 50%) runs in the fg until 100. J2 (2 processes at 50%) cannot start in the
    // fg (1 idle VM) and goes to the bg tier, on processor 0 (fg idle) and one of J1's. At t = 1 the serial J3
    // (estimate 500, past J2's shadow time 100) arrives with J2 as the head.
    const jobs: TwoTierJob[] = [
      { id: 1, submit: 0, runtime: 100, requestedTime: 100, procs: 3, cpuUsage: [0.5, 0.5, 0.5] },
      { id: 2, submit: 0, runtime: 1000, requestedTime: 1000, procs: 2, cpuUsage: [0.5, 0.5] },
      { id: 3, submit: 1, runtime: 500, requestedTime: 500, procs: 1 },
    ];
    const run = (extra: Partial<TwoTierOptions>) =>
      withInvariantChecks(true, () => simulateTwoTier(jobs, { machineSize: 4, policy: 'reasy', lossRange: [0, 0], log: true, ...extra }));
    const byId = (r: ReturnType<typeof run>, id: number) => r.jobs.find((j) => j.id === id)!;

    it("'text' (default): no extra fg VM outside the head's processors, so J3 waits in the bg and J2 swaps in place at 100", () => {
      const r = run({});
      expect(r.log!.find((e) => e.action === 'reserve' && e.job === 2 && e.time === 1)).to.include({ shadow: 100, extra: 0 });
      expect(byId(r, 3).fgStart).to.equal(100);
      expect(r.log!.some((e) => e.action === 'swap' && e.job === 2 && e.time === 100)).to.equal(true);
      expect(run({ reasyReservation: 'text' }).jobs).to.deep.equal(r.jobs);
    });

    it("'algorithm' (Algorithm 3): extra = idle + J1's size − J2's size = 2, so J3 backfills onto J2's processor and J2 cannot swap at 100", () => {
      const r = run({ reasyReservation: 'algorithm' });
      expect(r.log!.some((e) => e.action === 'reserve' && e.job === 2 && e.time === 1)).to.equal(false);
      expect(byId(r, 3).fgStart).to.equal(1);
      expect(r.log!.find((e) => e.job === 3 && e.action === 'fg')!.processors).to.deep.equal([0]);
      expect(r.log!.some((e) => e.action === 'swap' && e.job === 2 && e.time === 100)).to.equal(false);
      expect(r.log!.find((e) => e.action === 'swap' && e.job === 2)!.time).to.equal(501);
      expect(byId(r, 2).finish).to.be.greaterThan(byId(run({}), 2).finish);
    });

    it('rejects an unknown reading', () => {
      expect(() => simulateTwoTier(jobs, { machineSize: 4, policy: 'reasy', reasyReservation: 'other' as never })).to.throw(InputError, /reasyReservation/);
    });
  });

  describe('estimate model of the generated workloads (estimateModel)', () => {
    const spec = { workload: 'jann', jobs: 400, load: 0.8, seed: 3 } as const;
    it("'tsafrir' is the default; 'exact' sets every estimate to the runtime and changes nothing else", () => {
      const base = measyWorkload(spec);
      expect(measyWorkload({ ...spec, estimateModel: 'tsafrir' })).to.deep.equal(base);
      expect(base.some((j) => j.requestedTime! > j.runtime)).to.equal(true);
      const exact = measyWorkload({ ...spec, estimateModel: 'exact' });
      expect(exact.map((j) => j.requestedTime)).to.deep.equal(base.map((j) => j.runtime));
      expect(exact.map((j) => ({ ...j, requestedTime: 0 }))).to.deep.equal(base.map((j) => ({ ...j, requestedTime: 0 })));
    });
    it('rejects an unknown model', () => {
      expect(() => measyWorkload({ ...spec, estimateModel: 'user' as never })).to.throw(InputError, /estimateModel/);
    });
  });

  describe('background-progress formula of a cell (backgroundModel)', () => {
    const cell = { workload: 'jann', jobs: 300, load: 0.9, seed: 2, policy: 'measy', machineSize: 320 } as const;
    it("'product' slows multi-process bg jobs (e·U·R) and changes the outcome; 'demand' is the default", () => {
      const { seconds: _a, ...base } = runMeasyCell(cell);
      const { seconds: _b, ...demand } = runMeasyCell({ ...cell, backgroundModel: 'demand' });
      const { seconds: _c, ...product } = runMeasyCell({ ...cell, backgroundModel: 'product' });
      expect(demand).to.deep.equal(base);
      expect(product.meanResponse).to.not.equal(base.meanResponse);
    });
  });
});
