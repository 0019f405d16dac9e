import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { defineSweep, runSweep } from '../../src/sweep';

describe('dfrs: a user policy in sweep worker threads', function () {
  this.timeout(120000);
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-dfrs-policy-sweep-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('a { module, export } mapper in a worker gives the records of the built-in it rewrites', async () => {
    const sweep = defineSweep({
      name: 'dfrs-user-policy',
      version: 1,
      cell: { module: path.join(__dirname, 'fixtures', 'policy-cell.ts'), export: 'dfrsPolicyCell' },
      grid: { algorithm: ['Greedy */opt=min'], policy: [null, { module: path.join(__dirname, 'fixtures', 'user-policies.ts'), export: 'userGreedy' }] },
    });
    const sum = await runSweep(sweep, { out: path.join(tmp, 'out.jsonl'), workers: 1, progress: 'none', handleSigint: false, log: () => {} });
    expect(sum.ok).to.equal(2);
    const rows = sum.rows as Record<string, unknown>[];
    expect(rows.map((r) => r.ran)).to.deep.equal(['Greedy */opt=min', 'user-greedy']);
    const strip = ({ ran, policy, seed, ...rest }: Record<string, unknown>) => rest;
    expect(strip(rows[1])).to.deep.equal(strip(rows[0]));
    expect(rows[0].max_stretch).to.be.greaterThan(1);
  });
});
