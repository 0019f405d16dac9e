/**
 * EASY variants (docs/batch-variants.md): one hand-made case per rule, each
 * showing what the variant does and what textbook EASY does on the same jobs.
 */
import { expect } from 'chai';
import { J } from '../support/helpers';
import { BatchJobResult, BatchOptions, BatchVariant, simulateBatch } from '../../src/schedulers/batch';
import { InputError } from '../../src/util/errors';
import { setInvariantChecks } from '../../src/util/invariants';
import { WorkloadJob } from '../../src/workloads/job';

/** Start times by job id. */
function starts(jobs: readonly WorkloadJob[], machineSize: number, variant: BatchVariant, estimates: BatchOptions['estimates'] = 'requested'): Record<number, number> {
  const out: Record<number, number> = {};
  for (const r of simulateBatch(jobs, { machineSize, policy: 'easy', estimates, variant }) as BatchJobResult[]) out[r.id] = r.start;
  return out;
}

describe('batch EASY variants: one rule per case, against textbook EASY', () => {
  before(() => setInvariantChecks(true));
  after(() => setInvariantChecks(false));

  it('CQSim, backfill test by run time: a job that ends before the shadow time by its run time (not by its estimate) starts now', () => {
    // Machine of 10. Job 1 holds 6 until 100; head job 2 needs all 10 (shadow 100, extra 0).
    // Job 3 (4 procs) runs 50 s but asks for 200: 2 + 50 <= 100, 2 + 200 > 100.
    const jobs = [J(1, 0, 6, 100, 100), J(2, 1, 10, 50, 50), J(3, 2, 4, 50, 200)];
    expect(starts(jobs, 10, 'textbook')).to.deep.equal({ 1: 0, 2: 100, 3: 150 });
    expect(starts(jobs, 10, 'cqsim')).to.deep.equal({ 1: 0, 2: 100, 3: 2 });
    // With exact estimates the two tests are the same test.
    expect(starts(jobs, 10, 'cqsim', 'exact')).to.deep.equal(starts(jobs, 10, 'textbook', 'exact'));
  });

  it('CQSim, a pass after every event: after the first of two completions at one instant, a short job backfills ahead of the head', () => {
    // Machine of 15. Jobs 1 (5 procs, asks 50) and 2 (10 procs, asks 30) both end at 10.
    // Head job 3 needs 12; job 4 (5 procs, 15 s) waits behind it.
    // Textbook: at 10 all 15 are free, job 3 starts, job 4 (5 > 3 left) waits for it.
    // CQSim: after job 1 alone, 5 are free, the shadow time is 30 (job 2's estimate):
    // job 4 ends by then (10 + 15) and starts; after job 2, job 3 no longer fits until 25.
    const jobs = [J(1, 0, 5, 10, 50), J(2, 0, 10, 10, 30), J(3, 1, 12, 100, 100), J(4, 2, 5, 15, 15)];
    expect(starts(jobs, 15, 'textbook')).to.deep.equal({ 1: 0, 2: 0, 3: 10, 4: 110 });
    expect(starts(jobs, 15, 'cqsim')).to.deep.equal({ 1: 0, 2: 0, 3: 25, 4: 10 });
    // Job 4's run time equals its estimate here: the run-time rule plays no part.
  });

  it('AccaSim (A), unprotected reservation: any queued job that fits starts, and the head waits for it', () => {
    // Machine of 10. Job 1 holds 6 until 100; head job 2 needs 10. Job 3 (4 procs, 200 s) fits now.
    const jobs = [J(1, 0, 6, 100, 100), J(2, 1, 10, 50, 50), J(3, 2, 4, 200, 200)];
    // Textbook: job 3 neither ends by 100 nor fits in the extra (0): it waits for job 2.
    expect(starts(jobs, 10, 'textbook')).to.deep.equal({ 1: 0, 2: 100, 3: 150 });
    // AccaSim: job 3 starts at 2; job 2, due at 100, only fits when job 3 ends at 202.
    expect(starts(jobs, 10, 'accasim')).to.deep.equal({ 1: 0, 2: 202, 3: 2 });
  });

  it('AccaSim (B), blocked head retried from its first reservation time: a job that ends early does not bring it forward', () => {
    // Machine of 10. Job 1 (6 procs) asks 100 but ends at 10; job 2 (4 procs) runs to 120.
    // Head job 3 needs 6: its reservation time is 100 (job 1's estimated end).
    const jobs = [J(1, 0, 6, 10, 100), J(2, 0, 4, 120, 120), J(3, 1, 6, 50, 50)];
    // Textbook: job 1 ends at 10 and job 3 starts then.
    expect(starts(jobs, 10, 'textbook')).to.deep.equal({ 1: 0, 2: 0, 3: 10 });
    // AccaSim: at 10 the clock has not reached 100, so job 3 is not retried; no event
    // comes at 100, and the next one is job 2's end at 120.
    expect(starts(jobs, 10, 'accasim')).to.deep.equal({ 1: 0, 2: 0, 3: 120 });
  });

  it('AccaSim (C), one pass per instant: processors freed by a zero-run-time job wait for the next event', () => {
    // Machine of 10. Job 1 takes all 10 for 0 s; job 2 (10 procs) arrives with it; job 3 arrives at 5.
    const jobs = [J(1, 0, 10, 0, 0), J(2, 0, 10, 10, 10), J(3, 5, 1, 1, 1)];
    // Textbook: job 1 ends at 0, the instant is scheduled again, job 2 starts at 0.
    expect(starts(jobs, 10, 'textbook')).to.deep.equal({ 1: 0, 2: 0, 3: 10 });
    // AccaSim: job 2 (blocked, due at 0) is retried at the next event, job 3's arrival at 5.
    expect(starts(jobs, 10, 'accasim')).to.deep.equal({ 1: 0, 2: 5, 3: 15 });
    // After the last event there is no next one: that instant is scheduled again.
    expect(starts(jobs.slice(0, 2), 10, 'accasim')).to.deep.equal({ 1: 0, 2: 0 });
  });

  it('published (the DFRS paper): no job starts by ending before the shadow time; the extra rule stays', () => {
    // Machine of 12. Job 1 holds 6 until 100; head job 2 needs 10 (shadow 100, extra 2).
    // Job 3 (4 procs, 50 s) ends by 100; job 4 (2 procs, 500 s) fits in the extra processors.
    const jobs = [J(1, 0, 6, 100, 100), J(2, 1, 10, 50, 50), J(3, 2, 4, 50, 50), J(4, 3, 2, 500, 500)];
    expect(starts(jobs, 12, 'textbook', 'exact')).to.deep.equal({ 1: 0, 2: 100, 3: 2, 4: 3 });
    expect(starts(jobs, 12, 'published', 'exact')).to.deep.equal({ 1: 0, 2: 100, 3: 150, 4: 3 });
  });

  it('refuses a variant of another policy, an unknown variant, and AccaSim with a re-sorted queue (InputError naming the field)', () => {
    const jobs = [J(1, 0, 1, 1)];
    const bad = (o: Partial<BatchOptions>, field: string) => {
      try {
        simulateBatch(jobs, { machineSize: 2, policy: 'easy', ...o } as BatchOptions);
      } catch (e) {
        expect(e).to.be.instanceOf(InputError);
        expect((e as InputError).field).to.equal(field);
        return;
      }
      throw new Error(`no error for ${JSON.stringify(o)}`);
    };
    bad({ policy: 'fcfs', variant: 'cqsim' }, 'variant');
    bad({ policy: 'conservative', variant: 'published' }, 'variant');
    bad({ variant: 'slurm' as BatchVariant }, 'variant');
    bad({ variant: 'accasim', order: 'sjf' }, 'order');
  });
});
