import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { defineSweep, runSweep } from '../../src/sweep';
import { portable } from '../../src/util/portable';
import type { ReservationPolicyObject } from '../../src/schedulers/reservation';

/** User policies named by `{ module, export }` in sweep params, loaded inside a worker thread. */
describe('policies in sweep worker threads', function () {
  this.timeout(120000);
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-policy-sweep-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('a { module, export } policy in a worker gives the results of the built-in it copies', async () => {
    const twoTier = path.join(__dirname, 'fixtures', 'user-policies.ts');
    const reservation = path.join(__dirname, '..', 'reservation', 'fixtures', 'user-policies.ts');
    const sweep = defineSweep({
      name: 'user-policies',
      version: 1,
      cell: { module: path.join(__dirname, 'fixtures', 'policy-cell.ts'), export: 'policyCell' },
      grid: [
        { family: ['twotier'], policy: ['measy', { module: twoTier, export: 'measyCopy' }, 'easy', { module: twoTier, export: 'userEasy' }] },
        { family: ['reservation'], policy: ['FF', { module: reservation, export: 'firstFit' }] },
      ],
    });
    const sum = await runSweep(sweep, { out: path.join(tmp, 'out.jsonl'), workers: 1, progress: 'none', handleSigint: false, log: () => {} });
    expect(sum.ok).to.equal(6);
    const rows = sum.rows as Record<string, unknown>[];
    const strip = ({ name, policy, seed, ...rest }: Record<string, unknown>) => rest;
    expect(rows[1].name).to.equal('my-measy');
    expect(strip(rows[1])).to.deep.equal(strip(rows[0]));
    expect(rows[0].migrations).to.be.greaterThan(0);
    expect(strip(rows[3])).to.deep.equal(strip(rows[2]));
    expect(strip(rows[5])).to.deep.equal(strip(rows[4]));
    expect(rows[4].accepted).to.be.greaterThan(0);
  });

  it('a policy defined where the sweep is defined (as in a notebook cell) travels as source with portable()', async () => {
    // PE Worst Fit written inline, and a first fit: both must match the built-ins in a worker thread.
    const worstFit: ReservationPolicyObject = { name: 'inline-pe-worst', score: (r) => -r.freePes };
    const firstFit: ReservationPolicyObject = {
      name: 'inline-first-fit',
      choose(candidates) {
        for (const r of candidates) return r;
        return undefined;
      },
    };
    const sweep = defineSweep({
      name: 'portable-policies',
      version: 1,
      cell: { module: path.join(__dirname, 'fixtures', 'policy-cell.ts'), export: 'policyCell' },
      grid: [{ family: ['reservation'], policy: ['PE_W', portable(worstFit), 'FF', portable(firstFit)] }],
    });
    const sum = await runSweep(sweep, { out: path.join(tmp, 'portable.jsonl'), workers: 2, progress: 'none', handleSigint: false, log: () => {} });
    expect(sum.ok).to.equal(4);
    const rows = sum.rows as Record<string, unknown>[];
    const strip = ({ policy, seed, ...rest }: Record<string, unknown>) => rest;
    expect(strip(rows[1])).to.deep.equal(strip(rows[0]));
    expect(strip(rows[3])).to.deep.equal(strip(rows[2]));
    expect(strip(rows[0])).to.not.deep.equal(strip(rows[2]));
  });
});
