import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { batchComparisonCell, batchComparisonSweep, compareBatchPolicies, comparisonWindow } from '../../src/sweep/compare';
import { runSweep } from '../../src/sweep';
import { portable } from '../../src/util/portable';
import { simulateBatch, summarizeRun, scaleToLoad, loadTraceSync, rebase, InputError } from '../../src';

describe('compareBatchPolicies: built-in and user policies over loads, on all cores', function () {
  this.timeout(120_000);
  let tmp: string;
  before(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-compare-'))));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const options = {
    name: 'compare-test',
    workloads: [{ trace: 'KTH-SP2', jobs: 400, segments: 3 }, { lublin: { jobs: 300, machineSize: 64 }, seeds: 2 }],
    loads: [0.6, 0.9],
    policies: [
      'fcfs',
      'easy',
      { label: 'easy-sjf', policy: 'easy', order: 'sjf' },
      // the same order written as a user function, carried to the workers as source
      { label: 'easy-inline-sjf', policy: 'easy', order: portable((_job: unknown, _now: number, estimate: number) => -estimate) },
    ],
  };

  it('gives one row per (workload, replication, load, policy), each equal to a direct simulation', async () => {
    const out = path.join(tmp, 'c.jsonl');
    const rows = await compareBatchPolicies(options, { out, workers: 2, progress: 'none', handleSigint: false });
    expect(rows.length).to.equal((3 + 2) * 2 * 4);
    const strip = ({ policy, ...rest }: Record<string, unknown>) => rest;
    const sjf = rows.filter((r) => r.policy === 'easy-sjf');
    const inline = rows.filter((r) => r.policy === 'easy-inline-sjf');
    expect(inline.map(strip)).to.deep.equal(sjf.map(strip));
    expect(sjf.map(strip)).to.not.deep.equal(rows.filter((r) => r.policy === 'easy').map(strip));
    // Independent check of one cell: the last KTH-SP2 window at load 0.9 under EASY.
    const t = loadTraceSync('KTH-SP2');
    const win = rebase(t.jobs.slice(t.jobs.length - 400));
    const direct = summarizeRun(simulateBatch(scaleToLoad(win, t.info.machineSize, 0.9), { machineSize: t.info.machineSize, policy: 'easy', estimates: 'requested' }), { machineSize: t.info.machineSize, threshold: 10 });
    const row = rows.find((r) => r.workload === 'KTH-SP2' && r.replication === 2 && r.load === 0.9 && r.policy === 'easy')!;
    expect(row.meanBsld).to.equal(direct.meanBoundedSlowdown);
    expect(row.meanWait).to.equal(direct.meanWait);
    // Windows differ: the replications are not copies.
    expect(comparisonWindow(options.workloads[0], 0).jobs[0].id).to.not.equal(comparisonWindow(options.workloads[0], 1).jobs[0].id);
    // A rerun reads the results back.
    const again = await runSweep(batchComparisonSweep(options), { out, workers: 0, progress: 'none', handleSigint: false });
    expect(again.skipped).to.equal(rows.length);
    expect(again.ok).to.equal(0);
  });

  it('a labelled policy takes an EASY variant: its cell is simulateBatch with that variant; an unknown variant is refused before any cell runs', () => {
    const w = { trace: 'KTH-SP2', jobs: 500, segments: 2 };
    const cell = (policy: Parameters<typeof batchComparisonCell>[0]['policy']) => batchComparisonCell({ workload: w, replication_of: 1, load: 0.9, policy, estimates: 'requested', threshold: 10 });
    const accasim = cell({ label: 'easy (accasim)', policy: 'easy', variant: 'accasim' });
    const win = comparisonWindow(w, 1);
    const direct = summarizeRun(simulateBatch(scaleToLoad(win.jobs, win.machineSize, 0.9), { machineSize: win.machineSize, policy: 'easy', estimates: 'requested', variant: 'accasim' }), { machineSize: win.machineSize, threshold: 10 });
    expect(accasim.policy).to.equal('easy (accasim)');
    expect(accasim.meanWait).to.equal(direct.meanWait);
    expect(accasim.meanWait).to.not.equal(cell('easy').meanWait);
    expect(() => batchComparisonSweep({ ...options, policies: ['easy', { label: 'x', policy: 'easy', variant: 'slurm' as never }] })).to.throw(InputError, /policies\[1\]\.variant: unknown variant 'slurm' \(use textbook, cqsim, accasim, published\)/);
    expect(() => batchComparisonSweep({ ...options, policies: [{ label: 'x', policy: 'fcfs', variant: 'cqsim' }] })).to.throw(InputError, /policies\[0\]\.variant 'cqsim' is a variant of EASY/);
  });

  it('names the bad field of a workload', () => {
    expect(() => batchComparisonSweep({ ...options, workloads: [{ trace: 'KTH-SP2', jobs: 0, segments: 2 }] })).to.throw(InputError, /workloads\[0\]\.jobs/);
    expect(() => batchComparisonSweep({ ...options, loads: [0] })).to.throw(InputError, /loads/);
  });
});
