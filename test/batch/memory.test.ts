/**
 * `schedlab simulate --out` holds jobs as typed-array columns and writes its
 * CSV as a stream: the resident memory per job stays bounded. The whole-process
 * peak RSS of a 400,000-job run, minus that of a one-job run, must stay under
 * 400 bytes a job (before the columns: 566; after: about 290, most of it the
 * heap the garbage collector keeps whatever the size; bench/memory.ts measures
 * 1M and 10M jobs against the 150-byte target).
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadTraceSync } from '../../src/workloads/traces';
import { assertDistFresh, DIST } from '../support/dist';

const SIMULATE = path.join(DIST, 'cli', 'simulate.js');

function peakRss(trace: string, out: string): number {
  const args = ['--trace', trace, '--policy', 'easy', '--estimates', 'requested', '--out', out];
  const code = `process.on('exit', () => process.stderr.write('MAXRSS ' + process.resourceUsage().maxRSS + '\\n'));
    require(${JSON.stringify(SIMULATE)}).simulateMain(${JSON.stringify(args)}, () => {}).then((c) => { process.exitCode = c; });`;
  const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
  expect(r.status, r.stderr).to.equal(0);
  return Number(/MAXRSS (\d+)/.exec(r.stderr)![1]) * 1024;
}

describe('schedlab simulate: bounded memory per job', function () {
  this.timeout(300_000);
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-memory-'));
    assertDistFresh();
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('400,000 jobs (HPC2N twice, back to back) through --out: under 400 bytes a job above a one-job run', () => {
    const t = loadTraceSync('HPC2N');
    const span = t.jobs[t.jobs.length - 1].submit + 1;
    const n = 400_000;
    const lines: string[] = ['; MaxProcs: 240'];
    for (let k = 0; k < n; k++) {
      const j = t.jobs[k % t.jobs.length];
      const submit = j.submit + Math.floor(k / t.jobs.length) * span;
      lines.push(`${k + 1} ${submit} -1 ${j.runtime} ${j.procs} -1 -1 ${j.procs} ${j.requestedTime ?? -1} -1 1 -1 -1 -1 -1 -1 -1 -1`);
    }
    const big = path.join(tmp, 'big.swf');
    fs.writeFileSync(big, lines.join('\n') + '\n');
    fs.writeFileSync(path.join(tmp, 'one.swf'), lines.slice(0, 2).join('\n') + '\n');
    const base = peakRss(path.join(tmp, 'one.swf'), path.join(tmp, 'one.csv'));
    const peak = peakRss(big, path.join(tmp, 'big.csv'));
    const perJob = (peak - base) / n;
    expect(fs.readFileSync(path.join(tmp, 'big.csv'), 'utf8').split('\n').length).to.equal(n + 2);
    expect(perJob, `${perJob.toFixed(0)} bytes a job`).to.be.below(400);
  });
});
