import { expect } from 'chai';
import {
  assignCpuUsage, backgroundRate, drawBackgroundEfficiency, multiProcessEfficiencyDistribution, simulateTwoTier, TwoTierJob,
} from '../../src/schedulers/twotier';
import { simulateBatch } from '../../src/schedulers/batch';
import { Rng } from '../../src/util/random';

function randomJobs(seed: number, n: number, P: number, maxProcs: number): TwoTierJob[] {
  const rng = new Rng(seed);
  const base = Array.from({ length: n }, (_, k) => {
    const runtime = rng.int(5, 100);
    return { id: k + 1, submit: rng.int(0, 200), runtime, procs: rng.int(1, Math.min(P, maxProcs)), requestedTime: runtime * rng.int(1, 3) };
  });
  return assignCpuUsage(base, { seed });
}

describe('twotier: progress model', () => {
  it('bg rate: dedicated speed less the overhead e on an idle fg; throttled by the idle share', () => {
    expect(backgroundRate(0.85, 1, 1)).to.equal(0.85);
    expect(backgroundRate(0.85, 0.5, 1)).to.equal(0.85);
    expect(backgroundRate(0.85, 1, 0.25)).to.be.closeTo(0.2125, 1e-12);
    expect(backgroundRate(0.85, 0.5, 0.25)).to.be.closeTo(0.425, 1e-12);
    expect(backgroundRate(0.85, 0.5, 0.25, 'product')).to.be.closeTo(0.85 * 0.5 * 0.25, 1e-12);
    expect(backgroundRate(0.85, 1, 0)).to.equal(0);
  });

  it('e: U(0.80, 0.92) for one process; truncated normal over 19.8%–76.6% (mean ± 3σ) for several', () => {
    const d = multiProcessEfficiencyDistribution();
    expect(d.mean).to.be.closeTo((0.198 + 0.766) / 2, 1e-12);
    expect(d.sd).to.be.closeTo((0.766 - 0.198) / 6, 1e-12);
    const rng = new Rng(5);
    const single = Array.from({ length: 5000 }, () => drawBackgroundEfficiency(rng, 1));
    const multi = Array.from({ length: 5000 }, () => drawBackgroundEfficiency(rng, 8));
    expect(Math.min(...single)).to.be.at.least(0.8);
    expect(Math.max(...single)).to.be.below(0.92);
    expect(Math.min(...multi)).to.be.at.least(0.198);
    expect(Math.max(...multi)).to.be.at.most(0.766);
    const m = multi.reduce((s, x) => s + x, 0) / multi.length;
    expect(m).to.be.closeTo(d.mean, 0.01);
  });

  it('a bg job on an idle fg VM advances at e; under a 50%-usage fg at e·0.5; then swaps in place', () => {
    // P = 2. J1 (1 proc, 100% usage) holds one fg VM until 10; J2 (2 procs) is the head;
    // J3 cannot be backfilled, so SJF puts it in the bg VM whose fg is idle.
    const jobs: TwoTierJob[] = [
      { id: 1, submit: 0, runtime: 10, procs: 1, cpuUsage: [1] },
      { id: 2, submit: 0, runtime: 50, procs: 2, cpuUsage: [0.5, 0.5] },
      { id: 3, submit: 0, runtime: 1000, procs: 1, cpuUsage: [1] },
    ];
    const r = simulateTwoTier(jobs, { machineSize: 2, policy: 'keasy', estimates: 'exact', singleEfficiencyRange: [0.85, 0.85], lossRange: [0.02, 0.02], log: true });
    const j3 = r.jobs.find((j) => j.id === 3)!;
    expect(j3.start).to.equal(0);
    expect(r.log!.find((e) => e.job === 3)!.action).to.equal('bg');
    // 0..10 at 0.85 (idle fg), 10..60 at 0.85·0.5 under J2, then alone in fg at full speed
    const j2End = 10 + 50 / 0.98; // J2 itself loses 2% to the co-located bg VM
    expect(j3.fgStart).to.be.closeTo(j2End, 1e-9);
    expect(j3.finish).to.be.closeTo(j2End + 1000 - 10 * 0.85 - (j2End - 10) * 0.425, 1e-6);
    // J2 shares its processors with J3's bg VM: it loses 2%
    const j2 = r.jobs.find((j) => j.id === 2)!;
    expect(j2.finish - j2.fgStart).to.be.closeTo(50 / 0.98, 1e-6);
  });

  it('no bg placement where the fg process uses more than 96%', () => {
    const jobs: TwoTierJob[] = [
      { id: 1, submit: 0, runtime: 100, procs: 2, cpuUsage: [0.97, 0.5] },
      { id: 2, submit: 0, runtime: 100, procs: 2, cpuUsage: [0.5, 0.5] },
      { id: 3, submit: 0, runtime: 10, procs: 1, cpuUsage: [1] },
    ];
    const r = simulateTwoTier(jobs, { machineSize: 2, policy: 'measy', log: true });
    const j1 = r.log!.find((e) => e.job === 1 && e.action === 'fg')!;
    const bgProcs = r.log!.filter((e) => e.action === 'bg' && e.time === 0).flatMap((e) => e.processors);
    // process 0 (97%) sits on processor j1.processors[0]; nothing goes under it
    expect(bgProcs).to.not.include(j1.processors[0]);
    expect(bgProcs).to.include(j1.processors[1]);
  });

  it('a KEASY kill restarts from zero; a MEASY migration keeps progress and pays the cost', () => {
    // P = 3. J1 (proc 2) runs to 300; J2 (procs 0-1) to 10; J3 (3 procs) waits with shadow 300.
    // SJF puts J4 in the bg of proc 2 (under J1, 50% idle: rate 0.8·0.5) and J5 under J2.
    // At 10 J4 may be backfilled (10 + 120 <= 300) but its own fg VM is busy: KEASY kills it, MEASY migrates it.
    const jobs: TwoTierJob[] = [
      { id: 1, submit: 0, runtime: 300, procs: 1, cpuUsage: [0.5] },
      { id: 2, submit: 0, runtime: 10, procs: 2, cpuUsage: [0.5, 0.5] },
      { id: 3, submit: 0, runtime: 500, procs: 3, cpuUsage: [0.5, 0.5, 0.5] },
      { id: 4, submit: 0, runtime: 120, procs: 1, cpuUsage: [1] },
      { id: 5, submit: 0, runtime: 150, procs: 1, cpuUsage: [1] },
    ];
    const opts = { machineSize: 3, estimates: 'exact' as const, singleEfficiencyRange: [0.8, 0.8] as const, lossRange: [0, 0] as const, log: true };
    const k = simulateTwoTier(jobs, { ...opts, policy: 'keasy' });
    const m = simulateTwoTier(jobs, { ...opts, policy: 'measy', migrationCost: 7 });
    const k4 = k.jobs.find((j) => j.id === 4)!;
    const m4 = m.jobs.find((j) => j.id === 4)!;
    expect(k.log!.find((e) => e.job === 4 && e.action === 'bg')!.processors).to.deep.equal([2]);
    expect(k4.kills).to.equal(1);
    expect(k4.fgStart).to.equal(10);
    expect(k4.killedWork).to.be.closeTo(10 * 0.4, 1e-9); // 4 units thrown away
    expect(k4.finish).to.be.closeTo(10 + 120, 1e-9); // restarted from zero
    expect(m4.migrations).to.equal(1);
    expect(m4.kills).to.equal(0);
    expect(m4.finish).to.be.closeTo(10 + 7 + (120 - 4), 1e-9); // keeps its 4 units, pays 7 s
    expect(m.migrations).to.equal(1);
    expect(k.migrations).to.equal(0);
  });

  it('exact rate changes agree with time slices, and converge as the slice shrinks', () => {
    for (const seed of [1, 2, 3]) {
      const jobs = randomJobs(seed, 20, 8, 6);
      for (const policy of ['keasy', 'reasy', 'measy'] as const) {
        const exact = simulateTwoTier(jobs, { machineSize: 8, policy, seed: 3 });
        const diff = (slice: number) => {
          const s = simulateTwoTier(jobs, { machineSize: 8, policy, seed: 3, timeSlice: slice });
          expect(s.kills).to.equal(exact.kills);
          expect(s.migrations).to.equal(exact.migrations);
          return Math.max(...exact.jobs.map((j, k) => Math.abs(j.finish - s.jobs[k].finish)));
        };
        const coarse = diff(0.1);
        const fine = diff(0.01);
        expect(fine).to.be.below(0.2); // at most a slice per rate change
        expect(fine).to.be.below(coarse);
      }
    }
  });

  it("with no bg tier the simulator's EASY matches the batch module's EASY exactly", () => {
    for (const seed of [4, 5]) {
      const jobs = randomJobs(seed, 60, 16, 16);
      const mine = simulateTwoTier(jobs, { machineSize: 16, policy: 'easy' });
      const theirs = simulateBatch(jobs, { machineSize: 16, policy: 'easy', estimates: 'requested' });
      const byId = new Map(theirs.map((r) => [r.id, r]));
      for (const j of mine.jobs) {
        expect(j.start).to.be.closeTo(byId.get(j.id)!.start, 1e-9);
        expect(j.finish).to.be.closeTo(byId.get(j.id)!.end, 1e-9);
      }
    }
  });

  it('EASY counts every running job that ends at the shadow time (ties), as batch EASY does', () => {
    // 8 processors: jobs 1 and 2 (2 each) both end at 10; head job 4 needs 4, so
    // the shadow is 10 with extra 2 + 2 + 2 - 4 = 2 once both count (0 if only job 1
    // counts); job 5 (2 processors, long) backfills at once.
    const tie = assignCpuUsage(
      [
        { id: 1, submit: 0, runtime: 10, procs: 2, requestedTime: 10 },
        { id: 2, submit: 0, runtime: 10, procs: 2, requestedTime: 10 },
        { id: 3, submit: 0, runtime: 50, procs: 2, requestedTime: 50 },
        { id: 4, submit: 1, runtime: 20, procs: 4, requestedTime: 20 },
        { id: 5, submit: 2, runtime: 100, procs: 2, requestedTime: 100 },
      ],
      { seed: 1 },
    );
    const start5 = simulateTwoTier(tie, { machineSize: 8, policy: 'easy' }).jobs.find((j) => j.id === 5)!.start;
    expect(start5).to.equal(2);
    // Tie-heavy random workloads: times on a 10 s grid.
    for (let seed = 1; seed <= 40; seed++) {
      const rng = new Rng(seed);
      const base = Array.from({ length: 40 }, (_, k) => {
        const runtime = 10 * rng.int(1, 6);
        return { id: k + 1, submit: 10 * rng.int(0, 20), runtime, procs: rng.int(1, 8), requestedTime: runtime * rng.int(1, 2) };
      });
      const jobs = assignCpuUsage(base, { seed });
      const mine = simulateTwoTier(jobs, { machineSize: 8, policy: 'easy' });
      const byId = new Map(simulateBatch(jobs, { machineSize: 8, policy: 'easy', estimates: 'requested' }).map((r) => [r.id, r]));
      for (const j of mine.jobs) expect(j.start, `seed ${seed}, job ${j.id}`).to.equal(byId.get(j.id)!.start);
    }
  });

  it('bad input names the job and the field', () => {
    expect(() => simulateTwoTier([{ id: 7, submit: 0, runtime: 1, procs: 9 }], { machineSize: 8, policy: 'measy' })).to.throw(/job 7.*procs 9 exceeds machineSize 8/);
    expect(() => simulateTwoTier([{ id: 3, submit: 0, runtime: 1, procs: 2, cpuUsage: [1] }], { machineSize: 8, policy: 'measy' })).to.throw(/job 3.*cpuUsage has 1 values for 2/);
    expect(() => simulateTwoTier([], { machineSize: 8, policy: 'foo' as never })).to.throw(/unknown policy 'foo'/);
  });
});
