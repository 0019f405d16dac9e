/**
 * A user policy that never returns, in a sweep cell of each family: the cell
 * time-out stops the worker, and the failure names the policy, its module,
 * the decision it was in and the simulated time (issue 27, section 3).
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { defineSweep, runSweep } from '../../src/sweep';

const BROKEN = path.join(__dirname, '..', 'support', 'broken-policies.ts');

describe('sweep: a cell time-out names the policy call that hung', function () {
  this.timeout(300000);
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-policy-timeout-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('batch, two-tier, DFRS and reservation policies that loop for ever', async () => {
    const loopers = { batch: ['batchLooper', 'batch-looper', 'schedule'], twotier: ['twoTierLooper', 'twotier-looper', 'schedule'], dfrs: ['dfrsLooper', 'dfrs-looper', 'priority'], reservation: ['reservationLooper', 'reservation-looper', 'score'] };
    const sum = await runSweep(
      defineSweep({ name: 'policy-timeouts', version: 1, cell: { module: BROKEN, export: 'brokenPolicyCell' }, grid: { family: Object.keys(loopers) }, fixed: { looper: true } }),
      { out: path.join(tmp, 'out.jsonl'), workers: 4, cellTimeoutMs: 1500, progress: 'none', handleSigint: false, log: () => {} },
    );
    expect(sum.failed).to.equal(4);
    for (const r of sum.records) {
      const family = r.params.family as keyof typeof loopers;
      const [exp, name, decision] = loopers[family];
      expect(r.error?.name).to.equal('CellTimeout');
      expect(r.error?.message, family).to.match(
        new RegExp(`^cell timed out after 1\\.5 s \\(worker terminated\\) in policy '${name}' \\(.*broken-policies\\.ts#${exp}\\): ${decision} at simulated time \\d+(\\.\\d+)?, running for \\d+\\.\\d s$`),
      );
    }
  });
});
