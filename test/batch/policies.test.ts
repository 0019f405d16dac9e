import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { BatchContext, BatchSchedulingPolicy, BUILTIN_BATCH_POLICIES, simulateBatch } from '../../src/schedulers/batch';
import { defineSweep, runSweep } from '../../src/sweep';
import { InputError } from '../../src/util/errors';
import { InvariantError, setInvariantChecks } from '../../src/util/invariants';
import { createRng } from '../../src/util/random';
import { loadTrace } from '../../src/workloads/traces';
import { WorkloadJob } from '../../src/workloads/job';
import { userEasy, userFcfs } from './fixtures/user-policies';

const FIXTURES = path.join(__dirname, 'fixtures');

/** Run `fn`, expect an InvariantError for `invariant` naming the policy, and return it. */
function caught(fn: () => unknown, invariant: string, policy: string): InvariantError {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(InvariantError);
    const err = e as InvariantError;
    expect(err.invariant).to.equal(invariant);
    expect(err.message).to.contain(`policy ${policy}:`);
    return err;
  }
  throw new Error(`expected InvariantError ${invariant}`);
}

describe('batch policies: user policies through the public interface', function () {
  this.timeout(600000);

  for (const name of ['KTH-SP2', 'CTC-SP2']) {
    it(`${name}: a user EASY and a user FCFS give byte-identical schedules to the built-ins (exact and requested estimates)`, async () => {
      const t = await loadTrace(name);
      const machineSize = t.info.machineSize;
      for (const estimates of ['exact', 'requested'] as const) {
        for (const [mine, builtin] of [[userEasy, 'easy'], [userFcfs, 'fcfs']] as const) {
          const ours = simulateBatch(t.jobs, { machineSize, policy: mine, estimates });
          const ref = simulateBatch(t.jobs, { machineSize, policy: builtin, estimates });
          expect(JSON.stringify(ours) === JSON.stringify(ref), `${name} ${builtin} ${estimates}`).to.equal(true);
        }
      }
      // The two differ on these traces, so the comparison above has teeth.
      const easy = simulateBatch(t.jobs, { machineSize, policy: 'easy' });
      const fcfs = simulateBatch(t.jobs, { machineSize, policy: 'fcfs' });
      expect(easy.filter((r, i) => r.start !== fcfs[i].start).length).to.be.greaterThan(1000);
    });
  }

  it('deep queue (17,000 jobs at t = 0, where the backfill index adds its per-size levels): the built-in EASY equals the scanning user EASY', () => {
    // 17,000 jobs: the index has 32,768 leaves as with 20,000, its levels are built
    // in both estimate modes (after ~1.19 M node visits) and then serve over 12,000
    // searches in each; the scanning policy's cost grows faster than the queue
    // (20,000 jobs took three times as long).
    const rng = createRng(11);
    const jobs: WorkloadJob[] = Array.from({ length: 17000 }, (_, i) => ({ id: i + 1, submit: 0, runtime: rng.int(1, 1000), procs: rng.int(1, 64), requestedTime: rng.int(1, 2000) }));
    for (const estimates of ['exact', 'requested'] as const) {
      const ours = simulateBatch(jobs, { machineSize: 128, policy: 'easy', estimates });
      const ref = simulateBatch(jobs, { machineSize: 128, policy: userEasy, estimates });
      expect(JSON.stringify(ours) === JSON.stringify(ref), estimates).to.equal(true);
    }
  });

  it('a copy of the built-in conservative runs as a user policy (checks on) with the same schedule on KTH-SP2', async () => {
    const t = await loadTrace('KTH-SP2');
    const copy = { ...BUILTIN_BATCH_POLICIES.conservative, name: 'my-conservative' };
    for (const estimates of ['exact', 'requested'] as const) {
      const ours = simulateBatch(t.jobs, { machineSize: t.info.machineSize, policy: copy, estimates });
      const ref = simulateBatch(t.jobs, { machineSize: t.info.machineSize, policy: 'conservative', estimates });
      expect(JSON.stringify(ours) === JSON.stringify(ref), estimates).to.equal(true);
    }
  });

  it('running(k) and runningCount: the running jobs by estimated end (ties in start order) at every pass, however they are read', () => {
    // Early completions in any order leave holes in the engine's list; reading only its front,
    // or all of it backwards, must give the same jobs as a list kept here by brute force.
    const rng = createRng(5);
    const jobs: WorkloadJob[] = Array.from({ length: 3000 }, (_, i) => {
      const runtime = rng.int(0, 40);
      return { id: i + 1, submit: Math.floor(i / 4), runtime, procs: rng.int(1, 6), requestedTime: runtime + 10 * rng.int(0, 3) };
    });
    const started: number[] = [];
    const ended = new Set<number>();
    let passes = 0;
    let deepest = 0;
    const checker: BatchSchedulingPolicy = {
      name: 'running-list-check',
      onJobCompleted: (j) => void ended.add(j),
      schedule(ctx) {
        // Array.prototype.sort is stable: ties stay in start order.
        const expected = started.filter((j) => !ended.has(j)).sort((a, b) => ctx.estimatedEnd(a) - ctx.estimatedEnd(b));
        expect(ctx.runningCount).to.equal(expected.length);
        deepest = Math.max(deepest, expected.length);
        const turn = passes++ % 8;
        if (turn === 0) for (let k = expected.length - 1; k >= 0; k--) expect(ctx.running(k)).to.equal(expected[k]);
        else if (turn === 4) for (let k = 0; k < Math.min(2, expected.length); k++) expect(ctx.running(k)).to.equal(expected[k]);
        // First fit in queue order.
        for (const j of ctx.waiting()) {
          if (!ctx.isRunning(j) && ctx.procs(j) <= ctx.free) {
            ctx.startJob(j);
            started.push(j);
          }
        }
      },
    };
    simulateBatch(jobs, { machineSize: 48, policy: checker, estimates: 'requested' });
    expect(passes).to.be.greaterThan(700);
    expect(deepest).to.be.greaterThan(16);
    console.log("HOLES", (globalThis as any).__holes, (globalThis as any).__made);
  });

  it('event methods see every arrival and completion; a user queue order reaches the policy', () => {
    const jobs: WorkloadJob[] = [
      { id: 1, submit: 0, runtime: 10, procs: 2 },
      { id: 2, submit: 1, runtime: 5, procs: 2 },
      { id: 3, submit: 1, runtime: 1, procs: 2 },
    ];
    const seen: string[] = [];
    const logger: BatchSchedulingPolicy = {
      name: 'logger',
      onJobSubmitted: (j, ctx) => seen.push(`submit ${ctx.id(j)}@${ctx.now}`),
      onJobCompleted: (j, ctx) => seen.push(`done ${ctx.id(j)}@${ctx.now}`),
      schedule: (ctx) => {
        const h = ctx.head();
        return h >= 0 && ctx.procs(h) <= ctx.free ? [h] : [];
      },
    };
    const r = simulateBatch(jobs, { machineSize: 2, policy: logger, order: 'sjf' });
    expect(r.map((x) => x.start)).to.deep.equal([0, 11, 10]);
    expect(seen).to.deep.equal(['submit 1@0', 'submit 2@1', 'submit 3@1', 'done 1@10', 'done 3@11', 'done 2@16']);
  });
});

describe('batch policies: reservations of a re-sorted queue', function () {
  this.timeout(600000);
  afterEach(() => setInvariantChecks(undefined));

  it('EASY with sjf and wfp3 orders on KTH-SP2 keeps every live reservation with checks on (a former head loses its reservation), same schedule as with checks off', async () => {
    // Before reservations could be withdrawn, the check held a job to the shadow
    // time it got as head even after a job of higher priority took its place
    // (sjf, exact: job 150 at 691499, promised 688186).
    const t = await loadTrace('KTH-SP2');
    for (const order of ['sjf', 'wfp3'] as const) {
      for (const estimates of ['exact', 'requested'] as const) {
        setInvariantChecks(false);
        const off = simulateBatch(t.jobs, { machineSize: t.info.machineSize, policy: 'easy', estimates, order });
        setInvariantChecks(true);
        const on = simulateBatch(t.jobs, { machineSize: t.info.machineSize, policy: 'easy', estimates, order });
        expect(JSON.stringify(on) === JSON.stringify(off), `${order} ${estimates}`).to.equal(true);
      }
    }
  });

  it('a user policy that moves a promise later without withdrawing it is caught', () => {
    const jobs: WorkloadJob[] = [{ id: 1, submit: 0, runtime: 10, procs: 1 }];
    const fickle: BatchSchedulingPolicy = {
      name: 'fickle',
      schedule(ctx) {
        ctx.reserve(0, 5);
        ctx.reserve(0, 6);
      },
    };
    const e = caught(() => simulateBatch(jobs, { machineSize: 1, policy: fickle }), 'batch/reservation', 'fickle');
    expect(e.message).to.contain('moved later, from 5 to 6');
    const honest: BatchSchedulingPolicy = {
      name: 'honest',
      schedule(ctx) {
        if (ctx.now === 6) return [0];
        if (ctx.now > 0) return;
        ctx.reserve(0, 5);
        ctx.cancelReservation(0);
        ctx.reserve(0, 6);
        ctx.wakeUpAt(6);
      },
    };
    expect(simulateBatch(jobs, { machineSize: 1, policy: honest })[0].start).to.equal(6);
  });
});

describe('batch policies: broken user policies are caught by name', () => {
  // A run with the global switch off: the checks stay on for user policies.
  before(() => setInvariantChecks(false));
  after(() => setInvariantChecks(undefined));

  const jobs: WorkloadJob[] = [
    { id: 1, submit: 0, runtime: 10, procs: 2 },
    { id: 2, submit: 1, runtime: 10, procs: 4 },
    { id: 3, submit: 2, runtime: 100, procs: 2 },
  ];

  it('overcommitting processors: batch/capacity', () => {
    const greedy: BatchSchedulingPolicy = { name: 'greedy', schedule: (ctx) => ctx.waiting().slice() };
    const e = caught(() => simulateBatch(jobs, { machineSize: 4, policy: greedy }), 'batch/capacity', 'greedy');
    expect(e.job).to.equal(2);
    expect(e.time).to.equal(1);
  });

  it('starting a job before its submit time: batch/release', () => {
    const early: BatchSchedulingPolicy = { name: 'early', schedule: (ctx) => (ctx.now === 0 ? [2] : ctx.head() >= 0 && ctx.procs(ctx.head()) <= ctx.free ? [ctx.head()] : []) };
    const e = caught(() => simulateBatch(jobs, { machineSize: 4, policy: early }), 'batch/release', 'early');
    expect(e.job).to.equal(3);
    expect(e.time).to.equal(0);
  });

  it('breaking an EASY reservation it promised: batch/reservation', () => {
    // Job 2 (4 processors) is the head from t = 1 and is promised t = 10 (when job 1
    // ends); this policy then backfills job 3 (100 s) over the promise.
    const firstFit: BatchSchedulingPolicy = {
      name: 'first-fit',
      schedule(ctx: BatchContext) {
        const h = ctx.head();
        if (h >= 0 && ctx.procs(h) > ctx.free && Number.isNaN(ctx.reservation(h))) ctx.reserve(h, ctx.estimatedEnd(ctx.running(ctx.runningCount - 1)));
        for (const j of ctx.waiting()) if (!ctx.isRunning(j) && ctx.procs(j) <= ctx.free) ctx.startJob(j);
      },
    };
    const e = caught(() => simulateBatch(jobs, { machineSize: 4, policy: firstFit }), 'batch/reservation', 'first-fit');
    expect(e.job).to.equal(2);
    expect(e.time).to.equal(102);
    expect(e.message).to.contain('started after its reservation at 10');
    // The built-in EASY keeps the promise: job 3 waits.
    expect(simulateBatch(jobs, { machineSize: 4, policy: 'easy' }).map((r) => r.start)).to.deep.equal([0, 10, 20]);
  });

  it('starting a job twice, a number that is not a job, a policy that never starts some jobs', () => {
    const twice: BatchSchedulingPolicy = { name: 'twice', schedule: (ctx) => (ctx.head() >= 0 ? [ctx.head(), ctx.head()] : []) };
    expect(caught(() => simulateBatch(jobs, { machineSize: 8, policy: twice }), 'batch/once', 'twice').job).to.equal(1);
    const wrong: BatchSchedulingPolicy = { name: 'wrong', schedule: () => [7] };
    expect(caught(() => simulateBatch(jobs, { machineSize: 8, policy: wrong }), 'batch/policy', 'wrong').time).to.equal(0);
    const lazy: BatchSchedulingPolicy = { name: 'lazy', schedule: (ctx) => (ctx.now === 0 ? [ctx.head()] : []) };
    const e = caught(() => simulateBatch(jobs, { machineSize: 8, policy: lazy }), 'batch/started', 'lazy');
    expect(e.message).to.contain('2 jobs never started');
  });

  it('a reservation that does not fit in the profile, and a wake-up in the past', () => {
    const overbook: BatchSchedulingPolicy = {
      name: 'overbook',
      schedule(ctx) {
        ctx.profile; // from now on reservations are booked in the profile
        for (const j of ctx.waiting()) if (Number.isNaN(ctx.reservation(j)) && !ctx.isRunning(j)) ctx.reserve(j, 50);
      },
    };
    expect(caught(() => simulateBatch(jobs, { machineSize: 4, policy: overbook }), 'batch/reservation', 'overbook').job).to.equal(2);
    const sleepy: BatchSchedulingPolicy = { name: 'sleepy', schedule: (ctx) => ctx.wakeUpAt(ctx.now) };
    caught(() => simulateBatch(jobs, { machineSize: 4, policy: sleepy }), 'batch/policy', 'sleepy');
  });

  it('bad policy specs are input errors', () => {
    expect(() => simulateBatch(jobs, { machineSize: 4, policy: 'sjf' as never })).to.throw(InputError, /unknown policy 'sjf'/);
    expect(() => simulateBatch(jobs, { machineSize: 4, policy: { name: 'x' } as never })).to.throw(InputError, /schedule\(ctx\)/);
    expect(() => simulateBatch(jobs, { machineSize: 4, policy: { module: path.join(FIXTURES, 'user-policies.ts'), export: 'nope' } })).to.throw(InputError, /no export "nope"/);
  });
});

describe('batch policies in sweep worker threads', function () {
  this.timeout(120000);
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-batch-policy-sweep-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('{ module, export } policies run in workers and match the built-ins they reproduce', async () => {
    const mod = path.join(FIXTURES, 'user-policies.ts');
    const sweep = defineSweep({
      name: 'batch-user-policies',
      version: 1,
      cell: { module: path.join(FIXTURES, 'policy-cell.ts'), export: 'batchPolicyCell' },
      grid: { policy: ['easy', { module: mod, export: 'userEasy' }, 'fcfs', { module: mod, export: 'userFcfs' }] },
    });
    const sum = await runSweep(sweep, { out: path.join(tmp, 'out.jsonl'), workers: 2, progress: 'none', handleSigint: false, log: () => {} });
    expect(sum.ok).to.equal(4);
    const rows = sum.rows as Record<string, unknown>[];
    const strip = ({ policy, seed, ...rest }: Record<string, unknown>) => rest;
    expect(strip(rows[1])).to.deep.equal(strip(rows[0]));
    expect(strip(rows[3])).to.deep.equal(strip(rows[2]));
    expect(rows[0].waitSum).to.be.lessThan(rows[2].waitSum as number);
  });
});
