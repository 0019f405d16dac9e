import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawn } from 'child_process';
import * as fc from 'fast-check';
import {
  canonicalJson,
  defineSweep,
  loadResults,
  loadRows,
  loadSweepFile,
  mergeResults,
  readResultsFile,
  recordContent,
  ResultRecord,
  runSweep,
  serializeRecord,
  shardCells,
  filterCells,
  parseWhere,
  slurmScript,
  sweepCells,
  SweepSpec,
} from '../../src/sweep';
import { hashString } from '../../src/util/random';
import { sweepMain } from '../../src/cli/sweep';
import { progressHtml, SweepProgress } from '../../src/sweep/progress';
import { assertDistFresh } from '../support/dist';

const ROOT = path.resolve(__dirname, '..', '..');
const FIXTURES = path.join(__dirname, 'fixtures');
/** Children load src/ through the tests' cached transpiler (test/support/ts-cache.js). */
const TS_REGISTER = path.join(ROOT, 'test', 'support', 'ts-register.js');
const CELLS = path.join(FIXTURES, 'cells.ts');
const quiet = { progress: 'none' as const, handleSigint: false, log: () => {} };

let tmp: string;
before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-sweep-'));
});
after(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});
const file = (name: string) => path.join(tmp, name);

function spec(extra: Partial<SweepSpec> = {}): SweepSpec {
  return {
    name: 'toy',
    version: 1,
    cell: { module: CELLS, export: 'runCell' },
    grid: { x: [0, 1, 2, 3, 4, 5], algorithm: ['a', 'b'] },
    replications: 2,
    ...extra,
  };
}

/** Records of a file as a set of contents (without run info and checksum); fails on duplicates. */
function contents(f: string): string[] {
  const { records, invalid, tornTail } = readResultsFile(f);
  expect(invalid, 'invalid lines').to.deep.equal([]);
  expect(tornTail, 'torn tail').to.equal(null);
  const keys = records.map((r) => r.key);
  expect(new Set(keys).size, 'duplicate records').to.equal(keys.length);
  return records.map((r) => canonicalJson(recordContent(r))).sort();
}

describe('sweep grids', () => {
  it('gives cells keys and seeds that do not depend on how the grid is written', () => {
    const a = sweepCells(defineSweep(spec()));
    const b = sweepCells(defineSweep(spec({ grid: { algorithm: ['b', 'a'], x: [5, 4, 3, 2, 1, 0] } })));
    expect(a).to.have.length(24);
    expect(a.map((c) => c.key).sort()).to.deep.equal(b.map((c) => c.key).sort());
    for (const c of a) {
      expect(c.key).to.equal(canonicalJson(c.params));
      expect(c.seed).to.equal(hashString(c.key));
    }
    expect(defineSweep(spec()).fingerprint).to.equal(defineSweep(spec({ grid: { algorithm: ['a', 'b'], x: [0, 1, 2, 3, 4, 5] } })).fingerprint);
    expect(defineSweep(spec()).fingerprint).to.not.equal(defineSweep(spec({ version: 2 })).fingerprint);
  });

  it('unites a list of grids without duplicates and puts replication outermost', () => {
    const s = defineSweep(spec({ grid: [{ x: [0, 1] }, { x: [1, 2] }], replications: 2 }));
    const cells = sweepCells(s);
    expect(cells.map((c) => [c.params.replication, c.params.x])).to.deep.equal([
      [0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2],
    ]);
  });

  it('splits cells into disjoint shards that cover the sweep', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 7 }), (n, count) => {
        const cells = sweepCells(defineSweep(spec({ grid: { x: Array.from({ length: n }, (_, i) => i) }, replications: 1 })));
        const parts = Array.from({ length: count }, (_, index) => shardCells(cells, { index, count }));
        const keys = parts.flat().map((c) => c.key);
        expect(new Set(keys).size).to.equal(keys.length);
        expect(keys.sort()).to.deep.equal(cells.map((c) => c.key).sort());
        const sizes = parts.map((p) => p.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).to.be.at.most(1);
      }),
      { numRuns: 40 },
    );
  });

  it('rejects bad definitions with a message naming the field', () => {
    expect(() => defineSweep(spec({ grid: { x: [] } }))).to.throw(/grid\.x/);
    expect(() => defineSweep(spec({ replications: 0 }))).to.throw(/replications/);
    expect(() => defineSweep(spec({ fixed: { x: 1 } }))).to.throw(/"x" is both/);
    expect(() => defineSweep(spec({ grid: { x: [1, NaN] } }))).to.throw(/grid\.x\[1\]/);
  });
});

describe('sweep progress display', () => {
  const state = (o: Partial<SweepProgress>): SweepProgress => ({
    sweep: 's', total: 10, skipped: 0, done: 10, ok: 10, failed: 0, running: 0, remaining: 0, elapsedMs: 4200, rate: 2.4, etaMs: 0, finished: true, interrupted: false, ...o,
  });

  it('the final state reads the same whatever the timing and however many cells came from earlier runs', () => {
    const fresh = progressHtml(state({}));
    expect(fresh).to.match(/10\/10 cells — done/);
    expect(progressHtml(state({ skipped: 10, done: 0, ok: 0, elapsedMs: 90000, rate: 0 }))).to.equal(fresh);
    expect(progressHtml(state({ failed: 1, ok: 9 }))).to.match(/10\/10 cells failed 1 — done/);
    expect(progressHtml(state({ done: 4, ok: 4, remaining: 6, interrupted: true }))).to.match(/4\/10 cells — interrupted/);
    // while running, rate and ETA are shown
    expect(progressHtml(state({ done: 4, ok: 4, remaining: 6, finished: false, etaMs: 2500 }))).to.match(/cells\/s ETA/);
  });
});

describe('running sweeps', function () {
  this.timeout(5 * 60 * 1000); // child processes load src/: slow beside the notebook executions

  it('gives identical results with 1 worker, 2 workers and in-thread (the 1 worker loads the .ts cell through ts-node, as outside the tests)', async () => {
    const s = defineSweep(spec());
    // The other workers of the tests load .ts through the tests' cached transpiler (test/support/ts-cache.js).
    const testLoader = process.env.SCHEDLAB_TS_REGISTER;
    delete process.env.SCHEDLAB_TS_REGISTER;
    let one: Awaited<ReturnType<typeof runSweep>>;
    try {
      one = await runSweep(s, { ...quiet, out: file('w1.jsonl'), workers: 1 });
    } finally {
      if (testLoader !== undefined) process.env.SCHEDLAB_TS_REGISTER = testLoader;
    }
    const two = await runSweep(s, { ...quiet, out: file('w2.jsonl'), workers: 2 });
    await runSweep(s, { ...quiet, out: file('w0.jsonl'), workers: 0 });
    expect(one.ok).to.equal(24);
    expect(two.ok).to.equal(24);
    expect(contents(file('w2.jsonl'))).to.deep.equal(contents(file('w1.jsonl')));
    expect(contents(file('w0.jsonl'))).to.deep.equal(contents(file('w1.jsonl')));
    expect(one.rows.map((r) => r.score)).to.deep.equal(two.rows.map((r) => r.score));
    // rows are in enumeration order and carry params, seed and result fields
    expect(Object.keys(one.rows[0]).sort()).to.deep.equal(['algorithm', 'draws', 'replication', 'score', 'seed', 'x']);
  });

  it('a cell module that loads another copy of schedlab (the compiled dist/ beside this src/) gets each of its own results, in the workers too', async () => {
    assertDistFresh();
    // The other copy's run.ts imports its own worker.ts in the worker: it must not answer cells as well.
    const mod = file('other-copy-cell.js');
    fs.writeFileSync(mod, `exports.echo = (p) => ({ echo: p.x });\nrequire(${JSON.stringify(path.join(ROOT, 'dist', 'sweep', 'run.js'))});\n`);
    const s = defineSweep({ name: 'other-copy', version: 1, cell: { module: mod, export: 'echo' }, grid: { x: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] }, replications: 1 });
    const r = await runSweep(s, { ...quiet, out: file('other-copy.jsonl'), workers: 2 });
    expect(r.ok).to.equal(10);
    expect(r.rows.map((row) => [row.x, row.echo])).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((x) => [x, x]));
  });

  it('runs only the cells `where` keeps; a later full run adds the rest, none twice; bad filters name the parameter', async () => {
    const s = defineSweep(spec());
    const out = file('where.jsonl');
    const part = await runSweep(s, { ...quiet, out, workers: 0, where: parseWhere(['algorithm=b', 'x=1,4']) });
    expect(part.total).to.equal(4); // 2 x values x 2 replications
    expect(readResultsFile(out).records.map((r) => [r.params.algorithm, r.params.x]).sort()).to.deep.equal([['b', 1], ['b', 1], ['b', 4], ['b', 4]]);
    const rest = await runSweep(s, { ...quiet, out, workers: 0 });
    expect(rest.skipped).to.equal(4);
    expect(rest.ok).to.equal(20);
    expect(contents(out)).to.have.length(24);
    expect(parseWhere(['load=0.5,null', 'name=a b'])).to.deep.equal({ load: [0.5, null], name: ['a b'] });
    expect(() => filterCells(sweepCells(s), { algo: ['a'] })).to.throw(/unknown parameter "algo".*algorithm/);
    expect(() => filterCells(sweepCells(s), { x: ['1'] })).to.throw(/no cell has x in \["1"\]/);
    expect(() => parseWhere(['x'])).to.throw(/--where must look like name=value/);
  });

  it('skips finished cells on a rerun and refuses a file of another sweep definition', async () => {
    const s = defineSweep(spec());
    const out = file('rerun.jsonl');
    await runSweep(s, { ...quiet, out, workers: 0 });
    const again = await runSweep(s, { ...quiet, out, workers: 0 });
    expect(again.skipped).to.equal(24);
    expect(again.ok + again.failed).to.equal(0);
    expect(readResultsFile(out).records).to.have.length(24);
    let err: Error | null = null;
    try {
      await runSweep(defineSweep(spec({ version: 2 })), { ...quiet, out, workers: 0 });
    } catch (e) {
      err = e as Error;
    }
    expect(err?.message).to.match(/different definition/);
  });

  it('records a throwing cell as failed without stopping the others, and retries on request', async () => {
    const s = defineSweep(spec({ fixed: { failOn: 3 } }));
    const out = file('fail.jsonl');
    const summary = await runSweep(s, { ...quiet, out, workers: 2, retries: 1 });
    expect(summary.failed).to.equal(4); // x = 3 for 2 algorithms × 2 replications
    expect(summary.ok).to.equal(20);
    const failed = loadResults(out).filter((r) => r.status === 'failed');
    expect(failed).to.have.length(4);
    for (const r of failed) {
      expect(r.params.x).to.equal(3);
      expect(r.error?.message).to.equal('planned failure at x=3');
      expect(r.run.attempts).to.equal(2);
    }
    expect(loadRows(out)).to.have.length(20);
    const rerun = await runSweep(s, { ...quiet, out, workers: 0, retryFailed: true });
    expect(rerun.ok + rerun.failed).to.equal(4);
  });

  it('replaces a worker that crashes and records its cell as failed', async () => {
    const s = defineSweep(spec({ fixed: { crashOn: 2 }, replications: 1 }));
    const summary = await runSweep(s, { ...quiet, out: file('crash.jsonl'), workers: 2 });
    expect(summary.ok).to.equal(10);
    expect(summary.failed).to.equal(2);
    const crashed = summary.records.filter((r) => r.status === 'failed');
    expect(crashed.map((r) => r.error?.name)).to.deep.equal(['WorkerCrash', 'WorkerCrash']);
    expect(crashed[0].error?.message).to.match(/exit code 3/);
  });

  it('ignores and reports a torn last line, and a resumed run cuts it off', async () => {
    const s = defineSweep(spec({ replications: 1 }));
    const full = file('torn-ref.jsonl');
    await runSweep(s, { ...quiet, out: full, workers: 0 });
    const lines = fs.readFileSync(full, 'utf8').split('\n').filter(Boolean);
    const out = file('torn.jsonl');
    // five whole records, then half of the sixth (what a crash mid-write leaves)
    fs.writeFileSync(out, lines.slice(0, 5).map((l) => l + '\n').join('') + lines[5].slice(0, 40));
    const report = readResultsFile(out);
    expect(report.records).to.have.length(5);
    expect(report.tornTail?.line).to.equal(6);
    const warnings: string[] = [];
    expect(loadResults(out, { onWarning: (w) => warnings.push(w) })).to.have.length(5);
    expect(warnings.join()).to.match(/torn\.jsonl:6: ignored a torn last line/);
    // a corrupted record (bad checksum) is skipped too
    const bad = lines[0].replace(/"score":[0-9.]+/, '"score":42');
    expect(readResultsFile(writeTmp('bad.jsonl', bad + '\n')).invalid).to.deep.equal([{ line: 1, reason: 'checksum mismatch' }]);
    const resumed = await runSweep(s, { ...quiet, out, workers: 0 });
    expect(resumed.skipped).to.equal(5);
    expect(contents(out)).to.deep.equal(contents(full));
  });

  it('resumes a run killed with SIGKILL to exactly the results of an uninterrupted run', async function () {
    const def = path.join(FIXTURES, 'sweep.json');
    const s = loadSweepFile(def);
    const ref = file('kill-ref.jsonl');
    await runSweep(s, { ...quiet, out: ref, workers: 0 });
    const out = file('kill.jsonl');
    const child = spawn(
      process.execPath,
      ['-r', TS_REGISTER, path.join(ROOT, 'src/cli/sweep.ts'), 'run', def, '--out', out, '--workers', '2', '--progress', 'none'],
      { cwd: ROOT, stdio: 'ignore' },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
    for (const end = Date.now() + 120_000; Date.now() < end; ) { // the child loads src/: seconds on a loaded machine
      const n = fs.existsSync(out) ? fs.readFileSync(out, 'utf8').split('\n').length - 1 : 0;
      if (n >= 6) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill('SIGKILL');
    expect(await exited).to.equal('SIGKILL');
    const partial = readResultsFile(out).records.length;
    expect(partial).to.be.within(6, 39); // really killed mid-run
    const resumed = await runSweep(s, { ...quiet, out, workers: 0 });
    expect(resumed.skipped).to.equal(partial);
    expect(contents(out)).to.deep.equal(contents(ref));
  });

  it('stops cleanly on Ctrl-C (SIGINT), saying how to resume', async () => {
    const def = path.join(FIXTURES, 'sweep.json');
    const out = file('sigint.jsonl');
    const child = spawn(
      process.execPath,
      ['-r', TS_REGISTER, path.join(ROOT, 'src/cli/sweep.ts'), 'run', def, '--out', out, '--workers', '1', '--progress', 'none'],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    for (const end = Date.now() + 120_000; Date.now() < end; ) { // the child loads src/: seconds on a loaded machine
      if (fs.existsSync(out) && fs.readFileSync(out, 'utf8').split('\n').length > 4) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill('SIGINT');
    expect(await exited).to.equal(130);
    expect(stderr).to.match(/Resume with .*sweep\.ts run/);
    expect(fs.existsSync(out + '.lock')).to.equal(false);
    // running cells were allowed to finish and saved whole; the run stopped early
    expect(contents(out).length).to.be.within(4, 39);
  });
});

function writeTmp(name: string, text: string): string {
  fs.writeFileSync(file(name), text);
  return file(name);
}

describe('shards and merging', function () {
  this.timeout(5 * 60 * 1000); // a guard against hangs: the suite runs beside notebook executions

  it('merges a 3-way shard split into exactly the unsharded results', async () => {
    const s = defineSweep(spec());
    const whole = file('whole.jsonl');
    await runSweep(s, { ...quiet, out: whole, workers: 0 });
    const parts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const part = file(`part-${i}.jsonl`);
      const sum = await runSweep(s, { ...quiet, out: part, shard: `${i}/3`, workers: 0 });
      expect(sum.total).to.equal(8);
      parts.push(part);
    }
    const merged = file('merged.jsonl');
    const m = mergeResults(merged, parts, { sweep: s });
    expect(m.records).to.equal(24);
    expect(m.missing).to.equal(0);
    expect(contents(merged)).to.deep.equal(contents(whole));
    // merging again with overlapping inputs is idempotent
    mergeResults(merged, [merged, parts[0]]);
    expect(contents(merged)).to.deep.equal(contents(whole));
  });

  it('refuses to merge files from different toolkit versions or definitions', async () => {
    const s = defineSweep(spec({ replications: 1 }));
    const a = file('ma.jsonl');
    await runSweep(s, { ...quiet, out: a, shard: '0/2', workers: 0 });
    const recs = readResultsFile(a).records;
    const rewrite = (name: string, change: (r: ResultRecord) => ResultRecord) =>
      writeTmp(name, recs.map((r) => serializeRecord(change({ ...r }))).join(''));
    const newer = rewrite('mb.jsonl', (r) => ({ ...r, toolkit: '9.9.9' }));
    expect(() => mergeResults(file('mx.jsonl'), [a, newer])).to.throw(/schedlab version "9.9.9".*rerun all shards with one toolkit version/);
    const otherDef = rewrite('mc.jsonl', (r) => ({ ...r, definition: 'ffffffffffffffff' }));
    expect(() => mergeResults(file('mx.jsonl'), [a, otherDef])).to.throw(/sweep definition/);
    const changed = rewrite('md.jsonl', (r) => ({ ...r, result: { score: -1 } }));
    expect(() => mergeResults(file('mx.jsonl'), [a, changed])).to.throw(/different results/);
    expect(fs.existsSync(file('mx.jsonl'))).to.equal(false);
  });
});

describe('sweep CLI', function () {
  this.timeout(5 * 60 * 1000); // a guard against hangs: the suite runs beside notebook executions

  it('emits a Slurm job-array script running one shard per task', async () => {
    const script = slurmScript({ sweepFile: 'sweep.json', sweepName: 'toy', shards: 3, cpusPerTask: 2, time: '01:00:00', workdir: tmp });
    expect(script).to.match(/^#!\/bin\/bash/);
    expect(script).to.include('#SBATCH --array=0-2');
    expect(script).to.include('#SBATCH --cpus-per-task=2');
    expect(script).to.include('--shard "${SLURM_ARRAY_TASK_ID}/3"');
    expect(script).to.include('toy.shard-${SLURM_ARRAY_TASK_ID}-of-3.jsonl');
    const out: string[] = [];
    const saved = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write; // "dist/ not built" warning
    let code: number;
    try {
      code = await sweepMain(['slurm', path.join(FIXTURES, 'sweep.json'), '--shards', '4', '--out-dir', file('slurm')], (s) => out.push(s));
    } finally {
      process.stderr.write = saved;
    }
    expect(code).to.equal(0);
    expect(out.join('\n')).to.include('#SBATCH --array=0-3');
    expect(fs.existsSync(file('slurm/logs'))).to.equal(true);
  });

  it('runs, reports status and merges from the command line', async () => {
    const def = writeTmp(
      'cli.json',
      JSON.stringify({ name: 'cli', cell: { module: CELLS }, grid: { x: [1, 2, 3] }, replications: 2 }),
    );
    const out: string[] = [];
    const say = (s: string) => out.push(s);
    const saved = process.stderr.write;
    for (let i = 0; i < 2; i++) {
      expect(await sweepMain(['run', def, '--shard', `${i}/2`, '--out', file(`cli-${i}.jsonl`), '--workers', '0', '--progress', 'none'], say)).to.equal(0);
    }
    expect(await sweepMain(['status', def, '--out', file('cli-0.jsonl'), '--shard', '0/2'], say)).to.equal(0);
    expect(out.join('\n')).to.match(/cli shard 0\/2: 3 cells, 3 ok, 0 failed, 0 to run/);
    expect(await sweepMain(['merge', file('cli.jsonl'), file('cli-0.jsonl'), file('cli-1.jsonl'), '--sweep', def], say)).to.equal(0);
    expect(out.join('\n')).to.match(/6 cells \(6 ok, 0 failed\), 0 cells of the sweep missing/);
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      expect(await sweepMain(['run', def, '--bogus', '1'], say)).to.equal(1);
    } finally {
      process.stderr.write = saved;
    }
  });
});
