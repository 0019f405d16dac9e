/**
 * A reservation user policy cannot hurt the run (issue 27, section 3): a
 * throw or a slow decision in score or choose is a PolicyError naming the
 * policy, its module, the decision and the simulated time; the profile it
 * sees answers queries only.
 */
import { expect } from 'chai';
import * as path from 'path';
import { ReservationPolicyObject, ReservationPolicySpec, simulateReservations } from '../../src/schedulers/reservation';
import { setPolicyBudget } from '../../src/util/policy-guard';
import { busyWait, policyError } from '../support/helpers';
import { reservationProfileWriter, reservationRequests, reservationThrower } from '../support/broken-policies';

const MODULE = path.join(__dirname, '..', 'support', 'broken-policies.ts');
const run = (policy: ReservationPolicySpec) => simulateReservations(reservationRequests(), { machineSize: 1024, policy, recordPes: true });

describe('reservation: a user policy cannot hurt the run', () => {
  afterEach(() => setPolicyBudget(undefined));

  it('a throw in score names the policy, the decision and the simulated time (and the module when loaded from one)', () => {
    const e = policyError(() => run(reservationThrower), { policy: 'reservation-thrower', decision: 'score' });
    expect(e.message).to.match(/Error: refusing to score$/);
    const id5 = reservationRequests().find((r) => r.id === 5)!;
    expect(e.time).to.equal(id5.arrival);
    policyError(() => run({ module: MODULE, export: 'reservationThrower' }), { policy: 'reservation-thrower', decision: 'score', module: `${MODULE}#reservationThrower` });
  });

  it('a throw in choose is named the same way', () => {
    const chooser: ReservationPolicyObject = { name: 'bad-chooser', choose: () => { throw new Error('nothing suits'); } };
    policyError(() => run(chooser), { policy: 'bad-chooser', decision: 'choose' });
  });

  it('booking in the profile is an error at once, not a broken reservation found later', () => {
    const e = policyError(() => run(reservationProfileWriter), { policy: 'reservation-profile-writer', decision: 'choose' });
    expect(e.message).to.match(/TypeError: .*addAllocation is not a function/);
  });

  it('the profile view still answers queries: a policy using them gives the same run as without', () => {
    const plain: ReservationPolicyObject = { name: 'pe-w', score: (r) => -r.freePes };
    const asking: ReservationPolicyObject = { name: 'pe-w', score: (r, ctx) => -r.freePes + 0 * ctx.profile.size + 0 * ctx.profile.busyAt(ctx.now).length };
    expect(JSON.stringify(run(asking))).to.equal(JSON.stringify(run(plain)));
    expect(JSON.stringify(run(plain))).to.equal(JSON.stringify(run('PE_W')));
  });

  it('a decision over the time budget is a named error; budget 0 turns the limit off', () => {
    let calls = 0;
    const slow: ReservationPolicyObject = { name: 'slow', score: (r) => (++calls === 20 && busyWait(250), r.start) };
    setPolicyBudget(0.1);
    policyError(() => run(slow), { policy: 'slow', decision: 'score', kind: 'over-budget' });
    setPolicyBudget(0);
    calls = 0;
    const plain: ReservationPolicyObject = { name: 'slow', score: (r) => r.start };
    expect(JSON.stringify(run(slow))).to.equal(JSON.stringify(run(plain)));
  });
});
