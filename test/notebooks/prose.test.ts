/**
 * No hand-typed results or scale statements in a notebook's prose (issue 26).
 *
 * 1. Source markdown: every number a markdown cell states (see numbersInProse
 *    for what is set aside: code spans, references such as "Table 2", names such
 *    as MCB8, citation years, the 95 % of a confidence level) must be listed for
 *    its notebook in ALLOWED (test/support/prose.ts), under a label that says why: a parameter of
 *    the paper's setup or of our reconstruction of it ("setup"), or a value the
 *    paper publishes that the prose labels as published ("published"). Our
 *    results never qualify: a sentence that quotes one is rendered by a code
 *    cell from the results or the claims registry (claimsMarkdown, showMarkdown),
 *    so it changes with them.
 * 2. Rendered notebooks, at quick scale and at their default (paper) scale:
 *    no text may state a scale or a coverage other than the one the page's
 *    status line reports (a heading naming a scale, "written from the quick-scale
 *    run", "no paper-scale result is stored", "complete (N cells)", …). The
 *    executions are the pooled ones of test/support/notebook-runs.ts, shared with
 *    test/notebooks/notebooks.test.ts (no extra execution when both run).
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { committedNotebooks, execution, notebooks, root, runLast } from '../support/notebook-runs';
import { ALLOWED, NotebookCell, numbersInProse, pageScale, scaleContradictions, scaleStatements, unlistedNumbers } from '../support/prose';

const read = (file: string): NotebookCell[] => JSON.parse(fs.readFileSync(file, 'utf8')).cells;

describe('notebook prose: numbers in source markdown are setup or labelled published values', () => {
  it('every notebook has an ALLOWED entry, and every entry is a notebook', () => {
    expect(Object.keys(ALLOWED).sort()).to.deep.equal(notebooks.map((f) => path.basename(f, '.ipynb')).sort());
  });

  for (const file of notebooks) {
    const name = path.basename(file, '.ipynb');
    it(`${name}: no number outside its setup and published values (our results are rendered from the results, never typed)`, () => {
      const bad = unlistedNumbers(name, read(path.join(root, 'notebooks', file)));
      expect(bad, `numbers in ${file}'s markdown that are neither listed setup nor labelled published values — render them from the results, or list them in ALLOWED with a label:\n${bad.join('\n')}`).to.deep.equal([]);
    });
  }

  it('a result typed into prose is caught, with its line', () => {
    const cells: NotebookCell[] = [{ cell_type: 'markdown', source: ['MCB8 is within 2.1% of the LP bound (Table 7, Section 4.2.3), as in 2011.\n'] }];
    expect(unlistedNumbers('02-virtual-clusters', cells)).to.deep.equal(['cell 0: 2.1 in "MCB8 is within 2.1% of the LP bound (Table 7, Section 4.2.3), as in 2011."']);
  });

  it('what is not a stated quantity is set aside: code, references, names with digits, years, a 95 % confidence level', () => {
    expect(numbersInProse('`LOADS = [0.5, 0.9]`, Figures 6–7, Section 3.4 (2), MCB8, 2X+c, RR-7659 (2011), 95 % confidence intervals')).to.deep.equal([]);
    expect(numbersInProse('ours 1,234.5 and 0.62 / 0.55 (×0.33–0.53)')).to.deep.equal(['1234.5', '0.62', '0.55', '0.33', '0.53']);
  });
});

describe('notebook prose: scale statements', () => {
  it('the stale statements issue 26 found are each read as a statement of scale', () => {
    const says = (t: string) => scaleStatements(t).map((s) => s.says);
    expect(says('### Discussion at quick scale (written for the quick-scale run)')).to.include('quick');
    expect(says('### Discussion at paper scale (read it against Table 2)')).to.include('paper');
    expect(says('* **Not yet at paper scale:** the appendix')).to.deep.equal(['quick']);
    expect(says('Whether they also\nhold at paper scale is shown only by executing it; no\npaper-scale result is stored with it.')).to.deep.equal(['quick']);
    expect(says('A paper-scale run (`SCHEDLAB_SCALE=paper`: 10,000 requests) is not\nstored with this notebook')).to.deep.equal(['quick']);
    expect(says('*Written from the quick-scale run (10,000 / 8,000 jobs).*')).to.deep.equal(['quick']);
    expect(says('Quick scale (default) runs 100 tests')).to.deep.equal(['quick']);
    expect(says('paper-scale results complete (152478 cells, computed at …)').filter((s) => s === 'coverage')).to.have.length.at.least(1);
    // Conditionals describe both scales and state neither.
    expect(says('At quick scale the 98 variants run on one trace; at paper scale on every trace.')).to.deep.equal([]);
  });

  it('a page contradicts itself when a statement differs from its status line; a statement that agrees passes', () => {
    const status = (scale: 'quick' | 'paper'): NotebookCell => ({ cell_type: 'code', source: [], outputs: [{ output_type: 'stream', text: [`x: paper-scale results complete (12000 cells, computed at commit a)${scale === 'quick' ? ' — this page runs at quick scale' : ''}\n`] }] });
    const md = (t: string): NotebookCell => ({ cell_type: 'markdown', source: [t] });
    expect(scaleContradictions([status('paper'), md('## Discussion at quick scale')]).map((s) => s.says)).to.deep.equal(['quick']);
    expect(scaleContradictions([status('quick'), md('## Discussion at quick scale')])).to.deep.equal([]);
    expect(scaleContradictions([status('paper'), md('The status said complete (875 cells).')]).map((s) => s.value)).to.deep.equal(['complete 875']);
    expect(pageScale([status('quick')])).to.deep.equal({ scale: 'quick', coverage: 'complete 12000' });
    // A side sweep's own status line passes only as a listed side coverage.
    const side = [status('paper'), md('Ablation: paper-scale results complete (84 cells, computed at commit b)')];
    expect(scaleContradictions(side).map((s) => s.value)).to.deep.equal(['complete 84']);
    expect(scaleContradictions(side, pageScale(side), ['complete 84'])).to.deep.equal([]);
    expect(scaleContradictions(side, pageScale(side), ['complete 85']).map((s) => s.value)).to.deep.equal(['complete 84']);
  });
});

/** Notebooks whose paper-scale results are committed for the current sweep definition (they render those by default). */
const committed = committedNotebooks();

runLast(describe('notebook prose, rendered at quick and at paper scale: no scale or coverage other than the status line\'s', function () {
  this.timeout(60 * 60 * 1000);

  const check = (file: string, purpose: 'quick' | 'default') => async () => {
    const run = await execution(file, purpose);
    expect(run.status, `${file} (${purpose}) failed:\n${run.stderr.slice(-2000)}`).to.equal(0);
    const name = path.basename(file, '.ipynb');
    const cells = read(path.join(run.outRoot, name, `${name}.ipynb`));
    const status = pageScale(cells);
    if (purpose === 'quick' && status) expect(status.scale, `${file} at quick scale: its status line`).to.equal('quick');
    if (purpose === 'default' && status) expect(status.scale, `${file} with committed results: its status line`).to.equal('paper');
    // Side sweeps (ablations) state their own coverage, from each provenance beside the notebook's own.
    const resultsDir = path.join(__dirname, '..', '..', 'results', name);
    const sides = fs.existsSync(resultsDir)
      ? fs.readdirSync(resultsDir).filter((f) => f.endsWith('.provenance.json') && f !== 'provenance.json')
          .map((f) => JSON.parse(fs.readFileSync(path.join(resultsDir, f), 'utf8')) as { cells: number; ok: number })
          .map((p) => (p.ok < p.cells ? `incomplete ${p.ok} of ${p.cells}` : `complete ${p.cells}`))
      : [];
    const bad = scaleContradictions(cells, status, purpose === 'default' ? sides : []);
    expect(bad.map((s) => `${s.says}${s.value ? ` (${s.value})` : ''}: ${s.text}`), `${file} rendered (${purpose}) under the status ${JSON.stringify(status)}`).to.deep.equal([]);
  };

  for (const file of notebooks) it(`${file} at quick scale`, check(file, 'quick'));
  for (const file of committed) it(`${file} at paper scale (committed results)`, check(file, 'default'));
}));
