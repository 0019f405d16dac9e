import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { simulateMain, parseSimulateArgs } from '../../src/cli/simulate';
import { main, COMMANDS } from '../../src/bin/schedlab';
import { BATCH_VARIANTS, generateLublin, simulateBatch } from '../../src';

function capture<T>(fn: (out: (s: string) => void) => Promise<T>): Promise<{ code: T; text: string; err: string }> {
  const lines: string[] = [];
  const errs: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  (process.stderr as unknown as { write: (s: string) => boolean }).write = (s: string) => (errs.push(String(s)), true);
  return fn((s) => lines.push(s)).then(
    (code) => {
      process.stderr.write = write;
      return { code, text: lines.join('\n'), err: errs.join('') };
    },
    (e) => {
      process.stderr.write = write;
      throw e;
    },
  );
}

describe('schedlab simulate CLI', () => {
  it('runs a Lublin workload, prints a summary and writes per-job CSV', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-'));
    const csv = path.join(dir, 'jobs.csv');
    const r = await capture((out) => simulateMain(['--lublin', '300', '--seed', '5', '--policy', 'easy', '--machine-size', '64', '--out', csv], out));
    expect(r.code).to.equal(0);
    expect(r.text).to.match(/policy\s+easy/);
    expect(r.text).to.match(/jobs\s+300/);
    const rows = fs.readFileSync(csv, 'utf8').trim().split('\n');
    expect(rows[0]).to.equal('id,submit,start,end,runtime,procs,wait,response,stretch,bounded_slowdown');
    expect(rows).to.have.length(301);
    fs.rmSync(dir, { recursive: true });
  });

  it('bad flags give a clear error and exit code 2', async () => {
    for (const [args, msg] of [
      [['--lublin', '10', '--bogus', '1'], /unknown option --bogus/],
      [['--lublin', '10', '--policy', 'sjf'], /--policy must be fcfs, easy, conservative or FILE.js#EXPORT .*got 'sjf'/],
      [['--lublin', '10', '--policy', 'no/such/file.js#p'], /--policy: module not found: .*no\/such\/file.js/],
      [['--lublin', '10', '--order', 'random'], /--order must be fcfs, sjf, ljf, smallest, wfp3, unicef, got 'random'/],
      [['--lublin', 'ten'], /--lublin must be a positive integer, got 'ten'/],
      [['--policy', 'easy'], /exactly one of --trace or --lublin/],
      [['--lublin', '10', '--machine-size'], /--machine-size needs a value/],
      [['--trace', 'missing/file.swf'], /trace file not found: missing\/file.swf/],
    ] as [string[], RegExp][]) {
      const r = await capture((out) => simulateMain(args, out));
      expect(r.code, args.join(' ')).to.equal(2);
      expect(r.err).to.match(msg);
    }
    expect(() => parseSimulateArgs(['--seed', '1', '--seed', '2'])).to.throw(/given twice/);
  });

  it('--policy FILE#EXPORT runs a user policy (same summary as the built-in it reproduces); --order changes the queue order', async () => {
    const fixture = path.join(__dirname, 'fixtures', 'user-policies.ts');
    const summary = (text: string) => text.split('\n').filter((l) => !l.startsWith('policy')).join('\n');
    const args = ['--lublin', '400', '--seed', '3', '--machine-size', '64', '--estimates', 'requested'];
    const builtin = await capture((out) => simulateMain([...args, '--policy', 'easy'], out));
    const user = await capture((out) => simulateMain([...args, '--policy', `${fixture}#userEasy`], out));
    expect(user.code, user.err).to.equal(0);
    expect(user.text).to.match(/policy\s+.*user-policies.ts#userEasy/);
    expect(summary(user.text)).to.equal(summary(builtin.text));
    const sjf = await capture((out) => simulateMain([...args, '--policy', 'easy', '--order', 'sjf'], out));
    expect(sjf.code).to.equal(0);
    expect(sjf.text).to.match(/order: sjf/);
    expect(summary(sjf.text)).to.not.equal(summary(builtin.text));
    // an export that is not a policy: a clear input error naming the module and the missing method
    const bad = await capture((out) => simulateMain([...args, '--policy', `${fixture}#nothing`], out));
    expect(bad.code).to.equal(2);
    expect(bad.err).to.match(/user-policies.ts.*nothing/);
  });

  it('--variant runs EASY as another simulator does (the schedule simulateBatch gives with that variant); an unknown one is a usage error listing the known ones', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-variant-'));
    const jobs = generateLublin({ jobs: 400, seed: 4, machineSize: 64 });
    const starts = (file: string) => fs.readFileSync(file, 'utf8').trim().split('\n').slice(1).map((l) => Number(l.split(',')[2]));
    for (const variant of BATCH_VARIANTS) {
      const csv = path.join(dir, `${variant}.csv`);
      const r = await capture((out) => simulateMain(['--lublin', '400', '--seed', '4', '--machine-size', '64', '--variant', variant, '--out', csv], out));
      expect(r.code, r.err).to.equal(0);
      expect(r.text).to.match(variant === 'textbook' ? /policy\s+easy \(estimates: exact\)/ : new RegExp(`policy\\s+easy \\(variant: ${variant}, estimates: exact\\)`));
      expect(starts(csv), variant).to.deep.equal(simulateBatch(jobs, { machineSize: 64, policy: 'easy', variant }).map((j) => j.start));
    }
    // The flag is not ignored: the AccaSim-style schedule is not the textbook one on this workload.
    expect(starts(path.join(dir, 'accasim.csv'))).to.not.deep.equal(starts(path.join(dir, 'textbook.csv')));
    fs.rmSync(dir, { recursive: true });

    for (const [args, msg] of [
      [['--lublin', '10', '--variant', 'slurm'], /--variant must be textbook, cqsim, accasim, published, got 'slurm'/],
      [['--lublin', '10', '--policy', 'fcfs', '--variant', 'cqsim'], /--variant cqsim is a variant of EASY: give --policy easy/],
      [['--lublin', '10', '--variant', 'accasim', '--order', 'sjf'], /--variant accasim .*--order must be fcfs/],
    ] as [string[], RegExp][]) {
      const r = await capture((out) => simulateMain(args, out));
      expect(r.code, args.join(' ')).to.equal(2);
      expect(r.err).to.match(msg);
      expect(r.err).to.contain('--variant V');
    }
  });

  describe('a user policy that misbehaves (run in a worker thread)', () => {
    // Plain JavaScript, so that the worker loads no test code through ts-node.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-policies-'));
    const broken = path.join(dir, 'broken.js');
    fs.writeFileSync(
      broken,
      `'use strict';
const fcfs = (ctx) => { for (let h = ctx.head(); h >= 0 && ctx.procs(h) <= ctx.free; h = ctx.head()) ctx.startJob(h); };
exports.thrower = { name: 'batch-thrower', schedule(ctx) { if (ctx.queueLength >= 3) throw new Error('no room for you'); fcfs(ctx); } };
exports.reverser = { name: 'batch-reverser', schedule(ctx) { const q = ctx.waiting(); q.reverse(); for (const i of q) if (!ctx.isRunning(i) && ctx.procs(i) <= ctx.free) ctx.startJob(i); } };
exports.looper = { name: 'batch-looper', schedule(ctx) { if (ctx.queueLength >= 3) for (;;) {} fcfs(ctx); } };
`,
    );
    after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const args = ['--lublin', '200', '--seed', '3', '--machine-size', '64'];
    const quoted = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

    it('a throw: exit 1, one line naming the policy, its module, the decision and the simulated time', async () => {
      const r = await capture((out) => simulateMain([...args, '--policy', `${broken}#thrower`], out));
      expect(r.code).to.equal(1);
      expect(r.err).to.match(new RegExp(`^schedlab simulate: policy 'batch-thrower' \\(${quoted(broken)}#thrower\\): schedule at simulated time \\d+(\\.\\d+)?: Error: no room for you\n$`));
      expect(r.text).to.equal('');
    });

    it('reversing ctx.waiting(): exit 1 naming the policy, never a silently different schedule', async () => {
      const r = await capture((out) => simulateMain([...args, '--policy', `${broken}#reverser`], out));
      expect(r.code).to.equal(1);
      expect(r.err).to.match(/^schedlab simulate: policy 'batch-reverser' \(.*#reverser\): schedule at simulated time \d+(\.\d+)?: TypeError: /);
      expect(r.text).to.equal('');
    });

    it('a decision that never returns is stopped after --policy-budget, naming the policy, the decision and the time', async () => {
      const r = await capture((out) => simulateMain([...args, '--policy', `${broken}#looper`, '--policy-budget', '0.5'], out));
      expect(r.code).to.equal(1);
      expect(r.err).to.match(/^schedlab simulate: policy 'batch-looper' \(.*broken.js#looper\): schedule at simulated time \d+(\.\d+)?: did not return within the decision time budget of 0.5 s/);
      expect(r.text).to.equal('');
    });

    it('--policy-budget must be a number of seconds >= 0', async () => {
      const r = await capture((out) => simulateMain([...args, '--policy', `${broken}#looper`, '--policy-budget', '-1'], out));
      expect(r.code).to.equal(2);
      expect(r.err).to.match(/--policy-budget must be a number of seconds >= 0/);
    });
  });

  it('dispatcher lists commands and rejects unknown ones', async () => {
    expect(Object.keys(COMMANDS)).to.include('simulate');
    const r = await capture(() => main(['frobnicate']));
    expect(r.code).to.equal(2);
    expect(r.err).to.match(/unknown command 'frobnicate'/);
  });
});
