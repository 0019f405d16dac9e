/**
 * Crash consistency of `--publish`: a child process publishes a new committed
 * pair over an old one (and a first pair into an empty folder) and is killed
 * with SIGKILL at every mutating file-system call in turn, and in the middle
 * of every write. After each kill the pair a reader sees is the old one or the
 * new one and verifies completely; finishing the interrupted publication (as
 * the next one does) keeps that pair, and a new publication goes through
 * (the dead child's lock is taken over). About 20 kills per case.
 *
 * The child runs the toolkit transpiled once to plain JavaScript (a few
 * hundred milliseconds per child instead of seconds under ts-node).
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import { defineSweep } from '../../src/sweep';
import { loadCommittedResults, PaperExperiment, publishPaperResults, runPaperSweep } from '../../src/sweep/papers';
import { finishPublication, sha256File } from '../../src/sweep/papers/seal';

const ROOT = path.resolve(__dirname, '..', '..');
const FIXTURE = path.join(__dirname, 'fixtures', 'cells.ts');
const CHILD = path.join(__dirname, 'fixtures', 'publish-child.js');
const NAME = 'crash-publish';

/** Transpile src/ to `<dir>/build` (CommonJS, as dist/ is built) with package.json and node_modules beside it. */
function transpileToolkit(dir: string): string {
  const build = path.join(dir, 'build');
  const walk = (from: string, to: string): void => {
    fs.mkdirSync(to, { recursive: true });
    for (const e of fs.readdirSync(from, { withFileTypes: true })) {
      const p = path.join(from, e.name);
      if (e.isDirectory()) walk(p, path.join(to, e.name));
      else if (e.name.endsWith('.ts')) {
        const js = ts.transpileModule(fs.readFileSync(p, 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } });
        fs.writeFileSync(path.join(to, e.name.replace(/\.ts$/, '.js')), js.outputText);
      }
    }
  };
  walk(path.join(ROOT, 'src'), build);
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return build;
}

describe('publishing is crash-consistent (kill -9 at every write step)', function () {
  this.timeout(180000);
  let tmp: string;
  let build: string;
  let exp: PaperExperiment;
  const work = { old: '', new: '' };
  const sha = { old: '', new: '' };
  const count = { old: 12, new: 8 };

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-crash-'));
    build = transpileToolkit(tmp);
    const sweep = defineSweep({ name: NAME, version: 1, cell: { module: FIXTURE, export: 'runCell' }, grid: { x: [1, 2, 3, 4, 5, 6], algorithm: ['a', 'b'] } });
    exp = { notebook: NAME, summary: 'test', sweep: () => sweep, exports: { paper: 'x', quick: 'x' }, results: (s) => s };
    work.old = path.join(tmp, 'work-old');
    work.new = path.join(tmp, 'work-new');
    await runPaperSweep(exp, { progress: 'none', log: () => {}, workers: 0, resultsRoot: work.old, source: 'run' });
    // The new publication: 8 of the 12 cells (another file, other counts).
    const file = (root: string) => path.join(root, NAME, `${NAME}.jsonl`);
    fs.mkdirSync(path.dirname(file(work.new)), { recursive: true });
    fs.writeFileSync(file(work.new), fs.readFileSync(file(work.old), 'utf8').split('\n').slice(0, count.new).join('\n') + '\n');
    for (const v of ['old', 'new'] as const) {
      publishPaperResults(exp, { resultsRoot: work[v], committedRoot: path.join(tmp, `pair-${v}`) });
      sha[v] = sha256File(path.join(tmp, `pair-${v}`, NAME, `${NAME}.jsonl.gz`));
    }
    expect(sha.old).to.not.equal(sha.new);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** Run the child publishing the new pair, killed at step `killAt`; true when it was killed. */
  function publishKilledAt(committed: string, killAt: number, half: boolean): { killed: boolean; steps: number } {
    const r = spawnSync(process.execPath, [CHILD, JSON.stringify({ build, fixture: FIXTURE, name: NAME, work: work.new, committed, killAt, half })], { encoding: 'utf8' });
    if (r.signal !== 'SIGKILL' && r.status !== 0) throw new Error(`publishing child failed (status ${r.status}): ${r.stderr}`);
    return { killed: r.signal === 'SIGKILL', steps: Number(r.stdout) };
  }

  /** What a reader sees: 'old', 'new' or 'none'; anything damaged throws (strict). */
  function seen(committed: string): 'old' | 'new' | 'none' {
    const c = loadCommittedResults(exp, { committedRoot: committed, strict: true });
    if (!c.provenance) return 'none';
    const v = c.provenance.sha256 === sha.old ? 'old' : c.provenance.sha256 === sha.new ? 'new' : null;
    expect(v, `unknown pair ${c.provenance.sha256}`).to.not.equal(null);
    expect(c.records).to.have.length(count[v!]);
    return v!;
  }

  for (const start of ['over an old pair', 'into an empty folder'] as const) {
    it(`${start}: every kill leaves the old pair or the new one, which verifies`, () => {
      const outcomes: string[] = [];
      let tookOverLock = false;
      for (const half of [false, true]) {
        for (let killAt = 1; ; killAt++) {
          const committed = path.join(tmp, `c-${start.length}-${half}-${killAt}`);
          const dir = path.join(committed, NAME);
          if (start === 'over an old pair') fs.cpSync(path.join(tmp, 'pair-old', NAME), dir, { recursive: true });
          const before = start === 'over an old pair' ? 'old' : 'none';
          const { killed, steps } = publishKilledAt(committed, killAt, half);
          const got = seen(committed);
          expect([before, 'new'], `killed at ${half ? 'half of write' : 'step'} ${killAt}`).to.include(got);
          // The next publication first finishes (or drops) this one: the pair stays what readers saw.
          finishPublication(path.join(dir, `${NAME}.jsonl.gz`));
          if (fs.existsSync(dir)) expect(fs.readdirSync(dir).filter((f) => f.endsWith('.next'))).to.deep.equal([]);
          expect(seen(committed)).to.equal(got);
          if (got !== 'none') expect(sha256File(path.join(dir, `${NAME}.jsonl.gz`))).to.equal(sha[got]);
          if (killed && !tookOverLock && fs.existsSync(path.join(dir, 'provenance.json.lock'))) {
            // A publication after the crash goes through: the dead child's lock is taken over.
            publishPaperResults(exp, { resultsRoot: work.new, committedRoot: committed });
            expect(seen(committed)).to.equal('new');
            tookOverLock = true;
          }
          fs.rmSync(committed, { recursive: true, force: true });
          outcomes.push(`${half ? 'half-' : ''}${killAt}:${got}`);
          if (!killed) {
            expect(got).to.equal('new');
            expect(killAt).to.equal(steps + 1);
            break;
          }
        }
      }
      expect(tookOverLock).to.equal(true);
      // Both outcomes occur: the commit point lies between the first and the last step.
      expect(outcomes.some((o) => o.endsWith(':new'))).to.equal(true);
      expect(outcomes.some((o) => o.endsWith(`:${start === 'over an old pair' ? 'old' : 'none'}`))).to.equal(true);
      expect(outcomes.filter((o) => !o.startsWith('half-')).length).to.be.greaterThan(10);
    });
  }
});
