import { expect } from 'chai';
import { invariantError, policyError } from '../support/helpers';
import * as path from 'path';
import {
  BUILTIN_TWO_TIER_POLICIES,
  measyWorkload,
  resolveTwoTierPolicy,
  simulateTwoTier,
  TwoTierOptions,
  TwoTierRun,
  TwoTierSchedulingPolicy,
} from '../../src/schedulers/twotier';
import { InvariantError, withInvariantChecks } from '../../src/util/invariants';
import { InputError } from '../../src/util/errors';
import { userEasy } from './fixtures/user-policies';

const jobs = measyWorkload({ workload: 'feitelson', jobs: 800, load: 0.9, seed: 7 });
const FIXTURES = path.join(__dirname, 'fixtures', 'user-policies.ts');
const run = (policy: TwoTierOptions['policy'], extra: Partial<TwoTierOptions> = {}) => simulateTwoTier(jobs, { machineSize: 320, policy, seed: 5, log: true, ...extra });
const withoutName = (r: TwoTierRun) => ({ ...r, policy: undefined });


describe('twotier: user policies through the public interface', () => {
  it('EASY written from scratch, returning decisions, reproduces the built-in decision by decision', () => {
    const builtin = run('easy');
    const user = run(userEasy);
    expect(user.policy).to.equal('user-easy');
    expect(withoutName(user)).to.deep.equal(withoutName(builtin));
    expect(builtin.log!.filter((e) => e.via === 'backfill').length).to.be.greaterThan(0);
  });

  it('MEASY loaded by { module, export } (as a sweep worker does) gives the built-in results, with checks on', () => {
    const builtin = run('measy');
    const user = run({ module: FIXTURES, export: 'measyCopy' });
    expect(user.policy).to.equal('my-measy');
    expect(withoutName(user)).to.deep.equal(withoutName(builtin));
    expect(builtin.migrations).to.be.greaterThan(0);
  });

  it('the built-ins are policy objects on the same interface', () => {
    for (const name of ['easy', 'keasy', 'reasy', 'measy'] as const) {
      expect(withoutName(run(BUILTIN_TWO_TIER_POLICIES[name]))).to.deep.equal(withoutName(run(name)));
    }
  });

  it('event methods see every submission and completion', () => {
    let submitted = 0;
    let completed = 0;
    const counting: TwoTierSchedulingPolicy = {
      ...BUILTIN_TWO_TIER_POLICIES.keasy,
      name: 'counting',
      onJobSubmitted: (j) => {
        expect(j.tier).to.equal('queued');
        submitted++;
      },
      onJobCompleted: (j) => {
        expect(j.tier).to.equal('done');
        completed++;
      },
    };
    run(counting);
    expect([submitted, completed]).to.deep.equal([jobs.length, jobs.length]);
  });

  it('bad policy objects and references are input errors', () => {
    expect(() => run('xeasy' as 'easy')).to.throw(InputError, /unknown policy 'xeasy'/);
    expect(() => run({ name: 'no-schedule' } as unknown as TwoTierSchedulingPolicy)).to.throw(InputError, /schedule/);
    expect(() => resolveTwoTierPolicy({ module: FIXTURES, export: 'missing' })).to.throw(InputError, /no export "missing"/);
  });
});

describe('twotier: broken user policies are caught by name, checks on or off', () => {
  for (const checks of [false, true]) {
    const on = `(checks ${checks ? 'on' : 'off'})`;
    const broken = (p: TwoTierSchedulingPolicy) => invariantError(() => withInvariantChecks(checks, () => run(p)));

    it(`starting every queued job in fg VMs overruns the fg tier ${on}`, () => {
      const greedy: TwoTierSchedulingPolicy = {
        name: 'greedy',
        schedule: (ctx) => ctx.queued().map((j) => ({ action: 'fg' as const, job: j })),
      };
      const e = broken(greedy);
      expect(e.invariant).to.equal('twotier/capacity');
      expect(e.message).to.match(/greedy/);
      expect(e.job).to.be.a('number');
      expect(e.time).to.be.a('number');
    });

    it(`a start before submission ${on}`, () => {
      const last = jobs[jobs.length - 1];
      const early: TwoTierSchedulingPolicy = { name: 'clairvoyant', schedule: () => [{ action: 'fg', job: last.id }] };
      const e = broken(early);
      expect(e.invariant).to.equal('twotier/release');
      expect(e.message).to.match(/clairvoyant/);
      expect(e.job).to.equal(last.id);
      const first = Math.min(...jobs.map((j) => j.submit));
      expect(last.submit).to.be.greaterThan(first);
      expect(e.time).to.equal(first); // the first pass, at the first arrival
    });

    it(`migrating a job that is not running ${on}`, () => {
      const mover: TwoTierSchedulingPolicy = { name: 'mover', schedule: (ctx) => (ctx.queued().length ? [{ action: 'migrate', job: ctx.queued()[0] }] : []) };
      const e = broken(mover);
      expect(e.invariant).to.equal('twotier/migration');
      expect(e.message).to.match(/mover.*not running in the bg tier \(it is queued\)/);
    });

    it(`a policy that tampers with a job is stopped at once: job views are read-only ${on}`, () => {
      const tamper: TwoTierSchedulingPolicy = {
        ...BUILTIN_TWO_TIER_POLICIES.easy,
        name: 'tamper',
        schedule(ctx) {
          for (const f of ctx.foregroundJobs()) (f as unknown as { progress: number }).progress += 1;
          BUILTIN_TWO_TIER_POLICIES.easy.schedule(ctx);
        },
      };
      const e = policyError(() => withInvariantChecks(checks, () => run(tamper)), { policy: 'tamper', decision: 'schedule' });
      expect(e.cause).to.be.instanceOf(TypeError);
    });

    it(`a job that is not in the workload ${on}`, () => {
      const stranger: TwoTierSchedulingPolicy = { name: 'stranger', schedule: () => [{ action: 'bg', job: -12345 }] };
      const e = broken(stranger);
      expect(e.invariant).to.equal('twotier/decision');
      expect(e.message).to.match(/stranger/);
    });
  }
});
