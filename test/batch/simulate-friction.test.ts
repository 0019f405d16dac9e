/**
 * `schedlab simulate` on traces as researchers have them: zero-run-time jobs
 * that wait (stretch infinite) and submit times out of order with --load.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { simulateMain } from '../../src/cli/simulate';
import { summarizeRun } from '../../src/metrics/jobs';

const swfLine = (id: number, submit: number, runtime: number, procs: number) => `${id} ${submit} -1 ${runtime} ${procs} -1 -1 ${procs} ${runtime} -1 1 -1 -1 -1 -1 -1 -1 -1`;

async function run(args: string[]): Promise<{ code: number; text: string; err: string }> {
  const lines: string[] = [];
  const errs: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  (process.stderr as unknown as { write: (s: string) => boolean }).write = (s: string) => (errs.push(String(s)), true);
  try {
    const code = await simulateMain(args, (s) => lines.push(s));
    return { code, text: lines.join('\n'), err: errs.join('') };
  } finally {
    process.stderr.write = write;
  }
}

describe('schedlab simulate on awkward real-trace features', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'simulate-friction-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reports the stretch over the jobs where it is finite and says how many zero-run-time jobs were left out', async () => {
    // Job 2 (zero run time) waits behind job 1, which holds both processors: its stretch is infinite.
    const file = path.join(dir, 'zero.swf');
    fs.writeFileSync(file, ['; MaxProcs: 2', swfLine(1, 0, 100, 2), swfLine(2, 10, 0, 1), swfLine(3, 20, 50, 1)].join('\n') + '\n');
    const r = await run(['--trace', file, '--policy', 'fcfs']);
    expect(r.code, r.err).to.equal(0);
    const line = r.text.split('\n').find((l) => l.startsWith('stretch')) ?? '';
    expect(line).not.to.match(/Infinity/);
    // Job 3 waits 80 s and runs 50 s: stretch 130 / 50 = 2.6; job 1: 1. Mean 1.8 over 2 jobs.
    expect(line).to.match(/mean 1\.80, max 2\.6 \(over 2 jobs; 1 of zero run time that waited left out/);
  });

  it('summarizeRun counts the jobs its stretch covers', () => {
    const s = summarizeRun([
      { id: 1, submit: 0, start: 0, end: 10 },
      { id: 2, submit: 0, start: 10, end: 10 },
      { id: 3, submit: 0, start: 0, end: 0 },
    ]);
    expect(s).to.include({ jobs: 3, stretchJobs: 2, meanStretch: 1, maxStretch: 1 });
  });

  it('--load accepts a trace whose submit times are not sorted, as the simulation itself does', async () => {
    const file = path.join(dir, 'unsorted.swf');
    fs.writeFileSync(file, ['; MaxProcs: 4', swfLine(1, 100, 30, 2), swfLine(2, 0, 40, 4), swfLine(3, 50, 20, 1), swfLine(4, 200, 10, 1)].join('\n') + '\n');
    const r = await run(['--trace', file, '--load', '0.5']);
    expect(r.err).to.equal('');
    expect(r.code).to.equal(0);
    expect(r.text).to.match(/jobs\s+4/);
    expect(r.text).to.match(/offered load 0\.500/);
  });
});
