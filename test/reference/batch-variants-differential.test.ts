/**
 * Differential tests of the EASY variants (cqsim, accasim, published):
 * simulateBatch against the plain reference (batch-reference.ts), job by job,
 * on the hand-made rule cases, random tie-heavy workloads and full KTH-SP2.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { J } from '../support/helpers';
import { BatchEstimates, BatchJobResult, BatchVariant, simulateBatch } from '../../src/schedulers/batch';
import { setInvariantChecks } from '../../src/util/invariants';
import { WorkloadJob } from '../../src/workloads/job';
import { loadTrace } from '../../src/workloads/traces';
import { referenceBatch } from './batch-reference';

const VARIANTS: BatchVariant[] = ['cqsim', 'accasim', 'published'];
const ESTIMATES: BatchEstimates[] = ['exact', 'requested'];

/** '' when every job starts at the same time, else the first diverging job (by time). */
function divergence(jobs: readonly WorkloadJob[], machineSize: number, variant: BatchVariant, estimates: BatchEstimates): string {
  const fast = simulateBatch(jobs, { machineSize, policy: 'easy', estimates, variant });
  const ref: BatchJobResult[] = referenceBatch(jobs, { machineSize, policy: 'easy', estimates, variant });
  let first = -1;
  let differ = 0;
  const when = (i: number) => Math.min(fast[i].start, ref[i].start);
  for (let i = 0; i < jobs.length; i++) {
    if (Object.is(fast[i].start, ref[i].start)) continue;
    differ++;
    if (first < 0 || when(i) < when(first)) first = i;
  }
  if (first < 0) return '';
  const j = jobs[first];
  return `${variant}/${estimates}: job ${j.id} (submit ${j.submit}, ${j.procs} procs, run ${j.runtime}, requested ${j.requestedTime ?? '-'}) starts at ${fast[first].start} in simulateBatch, ${ref[first].start} in the reference; ${differ} of ${jobs.length} differ`;
}

describe('batch variants differential: the reference agrees on the rule cases', () => {
  const cases: [string, WorkloadJob[], number][] = [
    ['run-time backfill', [J(1, 0, 6, 100, 100), J(2, 1, 10, 50, 50), J(3, 2, 4, 50, 200)], 10],
    ['two completions at one instant', [J(1, 0, 5, 10, 50), J(2, 0, 10, 10, 30), J(3, 1, 12, 100, 100), J(4, 2, 5, 15, 15)], 15],
    ['unprotected reservation', [J(1, 0, 6, 100, 100), J(2, 1, 10, 50, 50), J(3, 2, 4, 200, 200)], 10],
    ['head retried from its first time', [J(1, 0, 6, 10, 100), J(2, 0, 4, 120, 120), J(3, 1, 6, 50, 50)], 10],
    ['zero run time', [J(1, 0, 10, 0, 0), J(2, 0, 10, 10, 10), J(3, 5, 1, 1, 1)], 10],
    ['zero run time, last event', [J(1, 0, 10, 0, 0), J(2, 0, 10, 10, 10)], 10],
    ['nothing runs while the head waits', [J(1, 0, 6, 10, 100), J(2, 1, 6, 50, 50)], 10],
  ];
  for (const [label, jobs, m] of cases) {
    it(label, () => {
      for (const v of VARIANTS) for (const e of ESTIMATES) expect(divergence(jobs, m, v, e), label).to.equal('');
    });
  }
});

describe('batch variants differential: random workloads with many ties', () => {
  const workload = fc
    .record({
      machine: fc.integer({ min: 1, max: 12 }),
      jobs: fc.array(
        fc.record({
          gap: fc.constantFrom(0, 0, 1, 5),
          procsFrac: fc.double({ min: 0, max: 1, noNaN: true }),
          runtime: fc.constantFrom(0, 5, 5, 10, 10, 20),
          over: fc.constantFrom(-5, 0, 0, 5, 10, 30),
        }),
        { minLength: 1, maxLength: 30 },
      ),
    })
    .map(({ machine, jobs }) => {
      let t = 0;
      return { machine, jobs: jobs.map((j, k) => J(k + 1, (t += j.gap), 1 + Math.floor(j.procsFrac * (machine - 0.001)), j.runtime, j.runtime + j.over)) };
    });
  before(() => setInvariantChecks(true));
  after(() => setInvariantChecks(false));
  for (const variant of VARIANTS) {
    it(`${variant}: simulateBatch = reference, job by job, both estimate modes (invariant checks on)`, () => {
      fc.assert(
        fc.property(workload, ({ machine, jobs }) => {
          for (const e of ESTIMATES) expect(divergence(jobs, machine, variant, e)).to.equal('');
        }),
        { numRuns: 1500, seed: 3 },
      );
    });
  }
});

describe('batch variants differential: full KTH-SP2', function () {
  this.timeout(600000);
  for (const variant of VARIANTS) {
    it(`KTH-SP2 ${variant}: every job starts at the same time in both implementations (exact and requested estimates)`, async () => {
      const t = await loadTrace('KTH-SP2');
      for (const e of ESTIMATES) expect(divergence(t.jobs, t.info.machineSize, variant, e)).to.equal('');
    });
  }
});
