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

const LOOPER_CELLS = path.join(__dirname, 'fixtures', 'loopers');
/**
 * The cell time-out: any length stops a policy that never returns. The timed cell must reach that call first: 1 s
 * was once too short at a load of 28 on 2 cores (the time-out named no policy); 2.5 s leaves room.
 */
const BUDGET_MS = 2500;

describe('sweep: a cell time-out names the policy call that hung', function () {
  this.timeout(300000);
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-policy-timeout-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('batch, two-tier, DFRS and reservation policies that loop for ever', async () => {
    const loopers = { batch: ['batchLooper', 'batch-looper', 'schedule'], twotier: ['twoTierLooper', 'twotier-looper', 'schedule'], dfrs: ['dfrsLooper', 'dfrs-looper', 'priority'], reservation: ['reservationLooper', 'reservation-looper', 'score'] };
    // One sweep (one worker) a family, all four at once: each worker loads only its family's code.
    const sums = await Promise.all(
      Object.keys(loopers).map((family) =>
        runSweep(
          defineSweep({ name: `policy-timeouts-${family}`, version: 1, cell: { module: path.join(LOOPER_CELLS, `${family}.ts`), export: 'brokenPolicyCell' }, grid: { family: [family] }, fixed: { looper: true } }),
          { out: path.join(tmp, `${family}.jsonl`), workers: 1, cellTimeoutMs: BUDGET_MS, progress: 'none', handleSigint: false, log: () => {} },
        ),
      ),
    );
    for (const sum of sums) {
      expect(sum.failed).to.equal(1);
      for (const r of sum.records) {
        const family = r.params.family as keyof typeof loopers;
        const [exp, name, decision] = loopers[family];
        expect(r.error?.name).to.equal('CellTimeout');
        expect(r.error?.message, `${family}: ${r.error?.message}`).to.match(
          new RegExp(`^cell timed out after ${(BUDGET_MS / 1000).toFixed(1).replace('.', '\\.')} s \\(worker terminated\\) in policy '${name}' \\(.*broken-policies\\.ts#${exp}\\): ${decision} at simulated time \\d+(\\.\\d+)?, running for \\d+\\.\\d s$`),
        );
      }
    }
  });
});
