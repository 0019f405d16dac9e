/**
 * Differential tests: the two-tier simulator's `easy` policy (fg VMs only, no
 * consolidation) against the textbook EASY of batch-reference.ts, job by job.
 * Under 'easy' the MEASY paper's scheduler is plain EASY backfilling on the
 * foreground tier (its steps 1–2 without bg VMs), so every job must start at
 * the same time as in the textbook reference, and finish run time later.
 * A failure names the first diverging job and the time it happens.
 */
import { expect } from 'chai';
import { J } from '../support/helpers';
import { simulateTwoTier, TwoTierJob } from '../../src/schedulers/twotier';
import { BatchEstimates } from '../../src/schedulers/batch';
import { WorkloadJob } from '../../src/workloads/job';
import { loadTrace } from '../../src/workloads/traces';
import { referenceBatch } from './batch-reference';

/** Message naming the first job (by time) whose start or finish differs, or '' when all agree; counts agreeing jobs. */
function twoTierEasyDivergence(jobs: readonly WorkloadJob[], machineSize: number, estimates: BatchEstimates): { message: string; agree: number } {
  const run = simulateTwoTier(jobs as TwoTierJob[], { machineSize, policy: 'easy', estimates });
  const ref = referenceBatch(jobs, { machineSize, policy: 'easy', estimates });
  // simulateTwoTier reports jobs in arrival order; match them by input position via (id, submit).
  const byKey = new Map<string, number[]>();
  run.jobs.forEach((r, k) => {
    const key = `${r.id}/${r.submit}`;
    byKey.set(key, [...(byKey.get(key) ?? []), k]);
  });
  let first = -1;
  let firstAt = Infinity;
  let differ = 0;
  const fast = jobs.map((j) => run.jobs[(byKey.get(`${j.id}/${j.submit}`) as number[]).shift() as number]);
  for (let i = 0; i < jobs.length; i++) {
    if (Object.is(fast[i].start, ref[i].start) && Object.is(fast[i].finish, ref[i].end)) continue;
    differ++;
    const at = Math.min(fast[i].start, ref[i].start);
    if (at < firstAt) {
      first = i;
      firstAt = at;
    }
  }
  if (first < 0) return { message: '', agree: jobs.length };
  const j = jobs[first];
  return {
    agree: jobs.length - differ,
    message:
      `first divergence at t=${firstAt}: job ${j.id} (submit ${j.submit}, ${j.procs} procs, run time ${j.runtime}, requested ${j.requestedTime ?? '-'}) ` +
      `starts at ${fast[first].start} (finishes ${fast[first].finish}) in simulateTwoTier easy but at ${ref[first].start} (finishes ${ref[first].end}) in the reference; ` +
      `${differ} of ${jobs.length} jobs differ`,
  };
}


describe('two-tier easy = textbook EASY: hand-made tie cases', () => {
  it('every fg job ending at the shadow time counts as extra', () => {
    // Machine of 11; 1 free. Jobs 1 and 2 (3 procs each) both end at 10, job 3 holds 4 until 100.
    // Head job 4 needs 4: shadow 10 with 1 + 3 + 3 = 7 free, extra 3 (counting only job 1 gives 0).
    // Job 5 (1 proc, 50 s) fits now and in the extra processors: it starts at 2.
    const jobs = [J(1, 0, 3, 10), J(2, 0, 3, 10), J(3, 0, 4, 100), J(4, 1, 4, 10), J(5, 2, 1, 50)];
    expect(referenceBatch(jobs, { machineSize: 11, policy: 'easy' }).map((r) => r.start)).to.deep.equal([0, 0, 0, 10, 2]);
    for (const estimates of ['exact', 'requested'] as const) expect(twoTierEasyDivergence(jobs, 11, estimates).message, estimates).to.equal('');
  });

  it('a backfilled job ending exactly at the shadow time starts; one second longer waits', () => {
    // Machine of 4: job 1 holds 3 until 10; head job 2 needs 4 (shadow 10, extra 0).
    // Job 3 (1 proc, ends at 1 + 9 = 10) backfills; job 4 (1 proc, 10 s from 1) would end at 11 and does not.
    const jobs = [J(1, 0, 3, 10), J(2, 1, 4, 5), J(3, 1, 1, 9), J(4, 1, 1, 10)];
    expect(referenceBatch(jobs, { machineSize: 4, policy: 'easy' }).map((r) => r.start)).to.deep.equal([0, 10, 1, 15]);
    for (const estimates of ['exact', 'requested'] as const) expect(twoTierEasyDivergence(jobs, 4, estimates).message, estimates).to.equal('');
  });

  it('arrival and completion at one instant; zero-run-time jobs', () => {
    const jobs = [J(1, 0, 4, 0, 10), J(2, 0, 4, 5, 5), J(3, 0, 2, 0, 0), J(4, 5, 3, 0, 1), J(5, 5, 1, 3, 10), J(6, 5, 4, 2, 2), J(7, 6, 2, 4, 4)];
    for (const estimates of ['exact', 'requested'] as const) expect(twoTierEasyDivergence(jobs, 4, estimates).message, estimates).to.equal('');
  });
});

describe('two-tier easy = textbook EASY: real traces', () => {
  // The paper runs CTC-SP2. Full traces: a few seconds each.
  for (const name of ['CTC-SP2', 'KTH-SP2']) {
    it(`${name} (full trace): every job starts and finishes at the same time (requested and exact estimates)`, async () => {
      const t = await loadTrace(name);
      const jobs = t.jobs;
      for (const estimates of ['requested', 'exact'] as const) {
        expect(twoTierEasyDivergence(jobs, t.info.machineSize, estimates).message, `${name} ${estimates}`).to.equal('');
      }
    });
  }
});
