import { expect } from 'chai';
import { invariantError, policyError } from '../support/helpers';
import * as path from 'path';
import {
  AvailabilityProfile,
  AvailabilityRectangle,
  RESERVATION_POLICIES,
  ReservationPolicyObject,
  ReservationRequest,
  lublinReservationRequests,
  rectangleDuration,
  rectangleSlack,
  resolveReservationPolicy,
  simulateReservations,
  verifyReservationOutcomes,
} from '../../src/schedulers/reservation';
import { InvariantError, withInvariantChecks } from '../../src/util/invariants';
import { InputError } from '../../src/util/errors';

const PES = 1024;
const requests: ReservationRequest[] = lublinReservationRequests({ jobs: 400, seed: 'user-policies', uMed: 7, artimeFactor: 3, deadlineFactor: 3 });
const run = (policy: Parameters<typeof simulateReservations>[1]['policy']) => simulateReservations(requests, { machineSize: PES, policy, recordPes: true });


describe('reservation: user policies through the public interface', () => {
  // The seven built-ins rewritten by a user: same scores / chooser, same results.
  const userCopies: Record<string, ReservationPolicyObject> = {
    FF: { name: 'my-FF', choose: (cs) => cs[Symbol.iterator]().next().value ?? undefined },
    PE_B: { name: 'my-PE_B', score: (r) => r.freePes },
    PE_W: { name: 'my-PE_W', score: (r) => -r.freePes },
    Du_B: { name: 'my-Du_B', score: rectangleDuration },
    Du_W: { name: 'my-Du_W', score: (r) => -rectangleDuration(r) },
    PEDu_B: { name: 'my-PEDu_B', score: (r) => r.freePes * rectangleDuration(r) },
    PEDu_W: { name: 'my-PEDu_W', score: (r) => -r.freePes * rectangleDuration(r) },
  };
  for (const policy of RESERVATION_POLICIES) {
    it(`a user copy of ${policy} gives identical outcomes`, () => {
      const builtin = run(policy);
      expect(run(userCopies[policy])).to.deep.equal(builtin);
      expect(builtin.filter((o) => o.accepted).length).to.be.greaterThan(0);
    });
  }

  it('First Fit as a score of 0 (ties to the earliest start) equals the FF chooser', () => {
    expect(run({ name: 'zero', score: () => 0 })).to.deep.equal(run('FF'));
  });

  it('policies named by { module, export } load and match the built-ins', () => {
    const module = path.join(__dirname, 'fixtures', 'user-policies.ts');
    expect(run({ module, export: 'firstFit' })).to.deep.equal(run('FF'));
    expect(run({ module, export: 'peWorstFit' })).to.deep.equal(run('PE_W'));
    expect(resolveReservationPolicy({ module, export: 'peWorstFit' }).name).to.equal('user-pe-worst-fit');
    expect(() => resolveReservationPolicy({ module, export: 'nothing' })).to.throw(InputError, /no export "nothing"/);
  });

  it('a deadline-aware user policy (least slack, i.e. latest start) sees the request and keeps every invariant', () => {
    const seen: number[] = [];
    const latest: ReservationPolicyObject = {
      name: 'least-slack',
      score: (r, ctx) => {
        seen.push(rectangleSlack(r, ctx));
        return rectangleSlack(r, ctx);
      },
    };
    const out = run(latest);
    verifyReservationOutcomes(requests, out, PES);
    expect(Math.min(...seen)).to.equal(0); // the latest start ends exactly at the deadline
    // It starts jobs later than First Fit does.
    const wait = (os: typeof out) => os.filter((o) => o.accepted).reduce((s, o) => s + (o.wait as number), 0);
    expect(wait(out)).to.be.greaterThan(wait(run('FF')));
  });

  it('malformed policy objects are input errors', () => {
    expect(() => run({ name: '', score: () => 0 } as ReservationPolicyObject)).to.throw(InputError, /name/);
    expect(() => run({ name: 'both', score: () => 0, choose: () => undefined } as unknown as ReservationPolicyObject)).to.throw(InputError, /exactly one of/);
    expect(() => run('XX' as 'FF')).to.throw(InputError, /unknown reservation policy/);
  });
});

describe('reservation: broken user policies are caught, checks on or off', () => {
  for (const checks of [false, true]) {
    it(`a start before the ready time (checks ${checks ? 'on' : 'off'})`, () => {
      const early: ReservationPolicyObject = { name: 'too-early', choose: (cs) => ({ ...[...cs][0], start: -5 }) };
      const e = invariantError(() => withInvariantChecks(checks, () => run(early)));
      expect(e.invariant).to.equal('reservation/policy');
      expect(e.message).to.match(/too-early/);
      expect(e.job).to.equal(requests[0].id);
      expect(e.time).to.equal(requests[0].arrival);
    });

    it(`a start where too few PEs are free, i.e. capacity exceeded (checks ${checks ? 'on' : 'off'})`, () => {
      // Always the ready time, whether it fits or not.
      const greedy: ReservationPolicyObject = { name: 'always-ready', choose: (_cs, ctx) => ({ start: ctx.request.ready, begin: ctx.now, end: Infinity, freePes: 0 }) };
      const e = invariantError(() => withInvariantChecks(checks, () => run(greedy)));
      expect(e.invariant).to.equal('reservation/policy');
      expect(e.message).to.match(/always-ready.*fewer than/);
      expect(e.job).to.be.a('number');
    });

    it(`a NaN score (checks ${checks ? 'on' : 'off'})`, () => {
      const nan: ReservationPolicyObject = { name: 'nan-score', score: (r) => (r.start > requests[3].ready ? NaN : r.start) };
      const e = invariantError(() => withInvariantChecks(checks, () => run(nan)));
      expect(e.message).to.match(/nan-score.*score NaN/);
    });

    it(`a policy that tries to free someone else's reservation is stopped at once (checks ${checks ? 'on' : 'off'})`, () => {
      // On its second call it tries to delete the first accepted reservation
      // from the structure; the profile it sees answers queries only.
      let first: { start: number; end: number } | undefined;
      let calls = 0;
      const thief: ReservationPolicyObject = {
        name: 'thief',
        choose: (cs, ctx) => {
          const profile = ctx.profile as AvailabilityProfile;
          if (++calls === 2 && first) profile.deleteAllocation(first.start, first.end, profile.busyAt(Math.max(first.start, ctx.now)));
          let pick: AvailabilityRectangle | undefined;
          for (const r of cs) {
            pick = r;
            break;
          }
          if (pick && !first) first = { start: pick.start, end: pick.start + ctx.request.duration };
          return pick;
        },
      };
      const one = [{ id: 1, arrival: 0, ready: 0, duration: 100, deadline: 100, pes: 8 }, { id: 2, arrival: 1, ready: 10, duration: 50, deadline: 100, pes: 8 }];
      const e = policyError(() => withInvariantChecks(checks, () => simulateReservations(one, { machineSize: 8, policy: thief })), { policy: 'thief', decision: 'choose' });
      expect(e.time).to.equal(1);
      expect(e.message).to.match(/deleteAllocation is not a function/);
    });
  }

  it('the built-ins follow the global switch (no checks unless asked)', () => {
    // Same run with checks on passes: the built-ins keep every invariant.
    withInvariantChecks(true, () => verifyReservationOutcomes(requests, run('PEDu_W'), PES));
  });
});
