/**
 * The switches of notebook 02's ablation against their defaults: the
 * generator's truncation (redraw vs clip), RRNZ's random stream (its own vs
 * RRND's), and the gap between average curves beside the paired gap.
 */
import { expect } from 'chai';
import { curveGapToBound, generateVcInstance, meanGapToBound, runVcschedHeuristic, solveVcschedLp, VcInstance, VcRunRecord } from '../../src/schedulers/vcsched';
import { createRng } from '../../src/util/random';
import { InputError } from '../../src/util/errors';

describe('vcsched ablation: truncation of the generator', () => {
  const spec = { hosts: 4, tasks: 400, slack: 0.1, memCv: 0.75, cpuCv: 0.75 };
  const values = (inst: VcInstance) => inst.jobs.flatMap((j) => [j.cpuNeed, j.mem]);

  it("redraw (default) never gives exactly 0 or 1; 'clip' puts the tails there", () => {
    const redrawn = values(generateVcInstance(spec, createRng(1)));
    const clipped = values(generateVcInstance({ ...spec, truncation: 'clip' }, createRng(1)));
    for (const v of [...redrawn, ...clipped]) expect(v >= 0 && v <= 1).to.equal(true);
    expect(redrawn.filter((v) => v === 0 || v === 1)).to.have.length(0);
    // mean CPU 0.5 with CV 0.75: P(x < 0) ≈ 9 %, so about 36 of 400 CPU needs are clipped to 0.
    const cpuZero = generateVcInstance({ ...spec, truncation: 'clip' }, createRng(1)).jobs.filter((j) => j.cpuNeed === 0).length;
    expect(cpuZero).to.be.within(15, 60);
  });

  it('same seed, same instance; an unknown reading is an InputError naming the field', () => {
    const a = generateVcInstance({ ...spec, truncation: 'clip' }, createRng(5));
    expect(generateVcInstance({ ...spec, truncation: 'clip' }, createRng(5))).to.deep.equal(a);
    expect(() => generateVcInstance({ ...spec, truncation: 'round' as never }, createRng(5))).to.throw(InputError, /truncation/);
  });
});

describe('vcsched ablation: the random stream of RRNZ', () => {
  // 12 tasks on 4 hosts, memory loose enough that RRND's draws always fit.
  const inst = generateVcInstance({ hosts: 4, tasks: 12, slack: 0.7, memCv: 0.25, cpuCv: 0.75 }, createRng(3));
  const lp = solveVcschedLp(inst);

  it("'shared' with a negligible ε: RRNZ places every task where RRND does; its own stream places them elsewhere", () => {
    const rrnd = runVcschedHeuristic(inst, 'RRND', { lp, seed: 9 });
    expect(rrnd.status).to.equal('ok');
    const shared = runVcschedHeuristic(inst, 'RRNZ', { lp, seed: 9, rrnzEpsilon: 1e-12, roundingStream: 'shared' });
    expect(shared.placement).to.deep.equal(rrnd.placement);
    const own = runVcschedHeuristic(inst, 'RRNZ', { lp, seed: 9, rrnzEpsilon: 1e-12 });
    expect(own.placement).to.not.deep.equal(rrnd.placement);
  });

  it("RRND's own draws do not depend on the switch", () => {
    const a = runVcschedHeuristic(inst, 'RRND', { lp, seed: 9 });
    const b = runVcschedHeuristic(inst, 'RRND', { lp, seed: 9, roundingStream: 'shared' });
    expect(b.placement).to.deep.equal(a.placement);
  });
});

describe('vcsched ablation: gap between average curves', () => {
  const rec = (instance: number, algorithm: string, minYield: number | null, lpMinYield: number): VcRunRecord => ({
    set: 'large', parallel: false, hosts: 64, tasks: 100, jobs: 100, slack: 0.1, memCv: 0.25, cpuCv: 0.25, instance, algorithm: algorithm as never,
    status: minYield === null ? 'failed' : 'ok', minYield, avgYield: minYield, seconds: 0, lpMinYield, lpAvgYield: lpMinYield, message: '',
  });
  // Bound 1.0 on three instances; MCB8 solves two: 0.9 and 0.1 (a near-infeasible one).
  const records = [rec(0, 'MCB8', 0.9, 1), rec(1, 'MCB8', 0.1, 1), rec(2, 'MCB8', null, 1)];

  it('the curves: bound mean over all instances, yield mean over solved ones', () => {
    const g = curveGapToBound(records, 'MCB8', 0.1);
    expect(g.bound).to.equal(1);
    expect(g.yield).to.be.closeTo(0.5, 1e-12);
    expect(g.gap).to.be.closeTo(50, 1e-9);
    expect([g.boundN, g.n]).to.deep.equal([3, 2]);
  });

  it('differs from the mean of per-instance gaps when the bound differs between instances', () => {
    const uneven = [rec(0, 'MCB8', 0.9, 1), rec(1, 'MCB8', 0.05, 0.1)];
    // curves: (0.55 − 0.475) / 0.55 = 13.6 %; per instance: mean(10 %, 50 %) = 30 %.
    expect(curveGapToBound(uneven, 'MCB8', 0.1).gap).to.be.closeTo(13.636, 1e-3);
    expect(meanGapToBound(uneven, 'MCB8').gap).to.be.closeTo(30, 1e-9);
    expect(curveGapToBound(uneven, 'MCB8', 0.5).gap).to.be.NaN;
  });
});
