/**
 * Every notebook in notebooks/ executes headlessly at quick scale without a
 * cell error, every chart it shows carries a static image, no output needs
 * notebook trust (no scripts), every code cell has its execution count, and
 * the executed file stays under 3 MB. Notebooks with committed paper-scale
 * results also run at their default scale (into a temporary folder, so the
 * determinism suite still compares quick runs): they must render those
 * results and re-verify a sample of cells live.
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadCommittedResults, PAPER_EXPERIMENTS } from '../../src/sweep/papers';

const root = path.resolve(__dirname, '../..');
const notebooks = fs
  .readdirSync(path.join(root, 'notebooks'))
  .filter((f) => f.endsWith('.ipynb'))
  .sort();

describe('notebooks (executed headlessly at quick scale)', function () {
  this.timeout(40 * 60 * 1000);

  it('there is at least one notebook', () => {
    expect(notebooks.length).to.be.greaterThan(0);
  });

  for (const file of notebooks) {
    it(`${file} runs without errors and embeds a static image for every chart`, () => {
      checkExecution(file, { SCHEDLAB_SCALE: 'quick' });
    });
  }
});

/** Notebooks whose paper-scale results are committed, i.e. that render at paper scale by default. */
const committed = notebooks.filter((f) => {
  const name = path.basename(f, '.ipynb');
  const e = PAPER_EXPERIMENTS.find((x) => x.notebook === name);
  return e !== undefined && loadCommittedResults(e).records.length > 0;
});

describe('notebooks at their default scale: paper scale from the committed results, a sample re-run live', function () {
  this.timeout(40 * 60 * 1000);
  const outBase = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-paper-nb-'));
  after(() => fs.rmSync(outBase, { recursive: true, force: true }));

  it('at least four notebooks have committed paper-scale results', () => {
    expect(committed.length).to.be.at.least(4);
  });

  for (const file of committed) {
    it(`${file} renders its committed results (complete or with their coverage) and re-verifies a sample of cells`, () => {
      const env: NodeJS.ProcessEnv = { SCHEDLAB_OUT: outBase };
      const nb = checkExecution(file, env);
      const text = nb.cells
        .flatMap((c: { outputs?: { text?: string | string[] }[] }) => c.outputs ?? [])
        .map((o: { text?: string | string[] }) => (Array.isArray(o.text) ? o.text.join('') : o.text ?? ''))
        .join('\n');
      // Complete, or partial with its coverage said at the top (a sweep still running).
      expect(text).to.match(/paper-scale results (complete|INCOMPLETE — \d+ of \d+ cells \([\d.]+%\))/);
      expect(text).to.match(/re-ran \d+ sampled cells live .*: every result identical to the committed one/);
    });
  }
});

/** Execute a notebook (with `env` over this process's, SCHEDLAB_SCALE unset unless given) and check the executed file. */
function checkExecution(file: string, env: NodeJS.ProcessEnv): { cells: any[] } {
  const name = path.basename(file, '.ipynb');
  const base: NodeJS.ProcessEnv = { ...process.env };
  delete base.SCHEDLAB_SCALE;
  const r = spawnSync('bash', ['scripts/run-notebook.sh', `notebooks/${file}`], { cwd: root, env: { ...base, ...env }, encoding: 'utf8' });
  expect(r.status, `${file} failed:\n${r.stderr.slice(-4000)}`).to.equal(0);
  const executed = path.join(env.SCHEDLAB_OUT ?? path.join(root, 'out'), name, `${name}.ipynb`);
  expect(fs.statSync(executed).size, `${name}.ipynb size`).to.be.at.most(3 * 1024 * 1024);
  const nb = JSON.parse(fs.readFileSync(executed, 'utf8'));
  const counts = nb.cells.filter((c: { cell_type: string; source: string[] }) => c.cell_type === 'code' && c.source.join('').trim()).map((c: { execution_count: number | null }) => c.execution_count);
  expect(counts, `execution counts of ${name}`).to.deep.equal(counts.map((_: unknown, i: number) => i + 1));
  for (const cell of nb.cells) {
    for (const out of cell.outputs ?? []) {
      expect(out.output_type, `error output in ${file}`).to.not.equal('error');
      if (out.data?.['application/vnd.plotly.v1+json']) {
        expect(out.data['image/png'], `chart without a static image in ${file}`).to.be.a('string').and.not.be.empty;
      }
      const html = out.data?.['text/html'];
      const text = Array.isArray(html) ? html.join('') : String(html ?? '');
      expect(text, `script in an output of ${file} (it would need notebook trust)`).to.not.match(/<script/i);
    }
  }
  return nb;
}
