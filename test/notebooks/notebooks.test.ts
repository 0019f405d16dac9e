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
import * as fs from 'fs';
import * as path from 'path';
import { committedNotebooks, execution, Execution, notebooks, prefetch, prefetchRequested, runLast } from '../support/notebook-runs';

/** Notebooks whose paper-scale results are committed (they render those by default). */
const committed = committedNotebooks();
if (prefetchRequested) prefetch(committed);

runLast(describe('notebooks (executed headlessly at quick scale)', function () {
  this.timeout(60 * 60 * 1000);

  it('there is at least one notebook', () => {
    expect(notebooks.length).to.be.greaterThan(0);
  });

  for (const file of notebooks) {
    it(`${file} runs without errors and embeds a static image for every chart`, async () => {
      checkExecution(await execution(file, 'quick'));
    });
  }
}));

runLast(describe('notebooks at their default scale: paper scale from the committed results, a sample re-run live', function () {
  this.timeout(60 * 60 * 1000);

  it('at least four notebooks have committed paper-scale results', () => {
    expect(committed.length).to.be.at.least(4);
  });

  for (const file of committed) {
    it(`${file} renders its committed results (complete or with their coverage) and re-verifies a sample of cells`, async () => {
      const nb = checkExecution(await execution(file, 'default'));
      const text = nb.cells
        .flatMap((c: { outputs?: { text?: string | string[] }[] }) => c.outputs ?? [])
        .map((o: { text?: string | string[] }) => (Array.isArray(o.text) ? o.text.join('') : o.text ?? ''))
        .join('\n');
      // Complete, or partial with its coverage said at the top (a sweep still running).
      expect(text).to.match(/paper-scale results (complete|INCOMPLETE — \d+ of \d+ cells \([\d.]+%\))/);
      expect(text).to.match(/re-ran \d+ sampled cells live .*: every result identical to the committed one/);
      // Status lines, not errors: on stdout (Jupyter shows stderr in a pink box).
      const stderr = nb.cells.flatMap((c: { outputs?: { name?: string; text?: string | string[] }[] }) => (c.outputs ?? []).filter((o) => o.name === 'stderr'));
      expect(stderr.map((o: { text?: string | string[] }) => [o.text].flat().join('')).join('\n')).to.not.match(/re-ran|identical to the committed|paper-scale results/);
    });
  }
}));

/** Check an executed notebook (exit status, size, execution counts, outputs) and return it. */
export function checkExecution(run: Execution): { cells: any[] } {
  const { file } = run;
  const name = path.basename(file, '.ipynb');
  expect(run.status, `${file} failed:\n${run.stderr.slice(-4000)}`).to.equal(0);
  const executed = path.join(run.outRoot, name, `${name}.ipynb`);
  expect(fs.statSync(executed).size, `${name}.ipynb size`).to.be.at.most(3 * 1024 * 1024);
  const nb = JSON.parse(fs.readFileSync(executed, 'utf8'));
  const counts = nb.cells.filter((c: { cell_type: string; source: string[] }) => c.cell_type === 'code' && c.source.join('').trim()).map((c: { execution_count: number | null }) => c.execution_count);
  expect(counts, `execution counts of ${name}`).to.deep.equal(counts.map((_: unknown, i: number) => i + 1));
  for (const cell of nb.cells) {
    for (const out of cell.outputs ?? []) {
      expect(out.output_type, `error output in ${file}`).to.not.equal('error');
      if (out.data?.['application/vnd.plotly.v1+json']) {
        expect(out.data['image/png'], `chart without a static image in ${file}`).to.be.a('string').and.not.be.empty;
        expect(cell.metadata?.scrolled, `a cell with charts in ${file} may be folded into a scroll box`).to.equal(false);
      }
      const html = out.data?.['text/html'];
      const text = Array.isArray(html) ? html.join('') : String(html ?? '');
      expect(text, `script in an output of ${file} (it would need notebook trust)`).to.not.match(/<script/i);
    }
  }
  return nb;
}
