/**
 * No hand-typed results or scale statements in a notebook's prose (issue 26).
 *
 * 1. Source markdown: every number a markdown cell states (see numbersInProse
 *    for what is set aside: code spans, references such as "Table 2", names such
 *    as MCB8, citation years, the 95 % of a confidence level) must be listed for
 *    its notebook in ALLOWED below, under a label that says why: a parameter of
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
import { committedRoot, PAPER_EXPERIMENTS, paperResultsFile } from '../../src/sweep/papers';
import { committedNotebooks, execution, notebooks, root, runLast } from '../support/notebook-runs';
import { NotebookCell, numbersInProse, pageScale, scaleContradictions, scaleStatements } from '../support/prose';

/** Per notebook: label → the numbers its markdown may state under that label (space-separated, no thousands commas). */
const ALLOWED: Record<string, Record<string, string>> = {
  '00-batch-baselines': {
    'setup: the numbered steps and sections of the page': '1 2 3 4 5 6',
    'setup: machine sizes from the traces\' headers (CTC-SP2, SDSC-BLUE)': '338 1152',
    'setup: SWF field number, bounded-slowdown threshold (s), time origin, wide-job fraction 1/8': '0 1 8 9 10',
    'setup: quick-scale window (jobs)': '3000',
  },
  '00-quickstart': { 'setup: the numbered sections of the page': '1 2 3 4 5 6' },
  '01-dfrs-vs-batch': {
    'setup: the paper\'s trace sets (182 HPC2N weeks, 100 traces of 1,000 jobs on 128 quad-core nodes, loads 0.1-0.9, load >= 0.7 for Table 3)': '182 100 1000 128 0.1 0.9 0.7',
    'setup: the paper\'s algorithms (20 in Table 2, 18 DFRS, 116 variants, 98 outside Table 2, 3 greedy and 11 MCB8 combinations, 3 trace sets)': '20 18 116 98 3 11',
    'setup: the paper\'s 5-minute (300 s) penalty, 600 s period, periods up to 12,000 s (2x-20x the penalty), 8 GB per node, 240 HPC2N processors': '5 300 600 12000 2 8 240',
    'setup: the paper\'s workload model (CPU need 0.25 or 1.0, memory 10% for 55% of jobs, else 10x% for x in 2..10)': '0.25 1.0 10 55',
    'setup: our reading (MCB8 tolerance 0.01, yields in [0, 1], bounded stretch threshold 10 s)': '0 0.01 1',
    'setup: quick scale and the fidelity check (150-job traces, 200-job weeks, 5 loads, 8 and 6 traces, loads 0.5 and 0.9)': '150 200 6 0.5',
    'published: the paper\'s machine for MCB8 timings (3.2 GHz Xeon)': '3.2',
  },
  '02-virtual-clusters': {
    'setup: the paper\'s instance sets (4 hosts, 6-12 tasks, 1,440 instances; 64 hosts, 100-500 tasks, 10,800 instances; parallel jobs of 1..64 tasks)': '4 6 12 1440 64 100 500 10800',
    'setup: the paper\'s instance model (capacity 1, needs ~ N(0.5, ...), CV 0.25 or 0.75, slack from 0.1)': '0 1 0.5 0.25 0.75 0.1',
    'setup: our solver settings (bisection 0.01, RRNZ epsilon 0.01, 50,000 / 500,000 attempts, 100,000 nodes, 600 s backstop)': '0.01 50000 500000 100000 600',
    'published: GLPK times (about 650 s per 500-task LP, 28.7 s per small MILP) and the paper\'s 3.2 GHz Xeon': '650 28.7 3.2',
  },
  '03-evolving-applications': {
    'setup: the paper\'s tests (1,000 tests of 15-20 applications, 1-10 steps of 500-3,600 s on 1-75 nodes; expand limits 1, 2)': '1000 15 20 1 10 500 3600 75 2',
    'setup: quick scale (100 tests) and the sensitivity cluster (150 nodes); time origin 0; the 1% and 10% most-wasting applications': '100 150 0',
  },
  '04-advance-reservation': {
    'setup: the paper\'s machine and sweeps (1,024 PEs, UMed 5-9, arrival factor 0.5-1.5 by 0.25, factors 1-5, 10,000 jobs, defaults UMed 7 and {3, 3})': '1024 5 9 0.5 1.5 0.25 10000 1 3 7',
    'setup: the paper\'s run-time classes (60, 300, 900, 1,800, 3,600, 10,800 s)': '60 300 900 1800 3600 10800',
    'setup: our calibration (steps (1)-(3), a 50,000-job sample, Lublin ULow 4.5, UHi 10, UProb 0.82, blocks of 128)': '2 50000 4.5 10 0.82 128',
    'setup: the paper\'s worked example (t_k = 10 k, a 16-PE machine, groups n1-n3 of PEs 0-11, n = 4) and LANL-CM5 groups of 32 PEs': '16 0 4 8 11 32',
  },
  '05-measy': {
    'setup: the paper\'s machine and workloads (320 processors, 200,000 and 100,000 jobs, 20 s migrations, costs 0-1,500 s, 100% CPU usage, the 96% rule, 10 batches)': '320 200000 100000 20 0 1500 100 96 10',
    'setup: the paper\'s figure numbers in the overview (Figures 9-14)': '9 11 12 13 14',
    'setup: the paper\'s processor model (speed 1, loss U(0.5%, 4%), e U(0.80, 0.92), range 19.8%-76.6% as mean 48.2% +- 3 sigma 9.47%, usage U(40%, 100%))': '1 0.5 4 0.80 0.92 19.8 76.6 3 48.2 9.47 40',
    'published: the statistics the workloads are calibrated to (parallelism 23.4 / 10.5, runtime 2606.6 / 11267.0 s, serial share < 18.0% / 40.8%)': '23.4 10.5 2606.6 11267.0 18.0 40.8',
    'published: the migration-cost thresholds of Section 3.5.3 (900 s / 480 s, 1,500 s / 900 s)': '900 480',
    'setup: our reconstruction (serial share 17.5%, 70.2% powers of two and CV 1.62 from CTC, repeats k^-2.5 up to 20, harmonic order near 1 not 1.5, Jann size ranges 1, 2, 3-4, ..., 257-320, 77 days of CTC, 300-processor jobs)': '17.5 70.2 1.62 2.5 1.5 2 257 77 300',
  },
  '06-your-own-scheduler': {
    'setup: the numbered sections of the page, a policy of about 20 lines, a 128-processor machine, 5 loads': '1 2 3 4 5 20 128',
  },
};

const cellText = (c: NotebookCell) => (Array.isArray(c.source) ? c.source.join('') : c.source);

/** Numbers a notebook's markdown states that its ALLOWED entry does not list, with the line they are on. */
export function unlistedNumbers(name: string, cells: readonly NotebookCell[]): string[] {
  const allowed = new Set(Object.values(ALLOWED[name] ?? {}).flatMap((s) => s.split(/\s+/)));
  const out: string[] = [];
  cells.forEach((c, i) => {
    if (c.cell_type !== 'markdown') return;
    for (const line of cellText(c).split('\n')) for (const n of numbersInProse(line)) if (!allowed.has(n)) out.push(`cell ${i}: ${n} in "${line.trim().slice(0, 120)}"`);
  });
  return out;
}

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
  });
});

/** Notebooks whose paper-scale results are committed for the current sweep definition (as test/notebooks/notebooks.test.ts reads them). */
const committed = committedNotebooks((name) => {
  const e = PAPER_EXPERIMENTS.find((x) => x.notebook === name);
  if (!e) return false;
  const sweep = e.sweep('paper');
  const prov = path.join(path.dirname(paperResultsFile(name, sweep, null, committedRoot()) + '.gz'), 'provenance.json');
  try {
    return JSON.parse(fs.readFileSync(prov, 'utf8')).definition === sweep.fingerprint;
  } catch {
    return false;
  }
});

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
    const bad = scaleContradictions(cells, status);
    expect(bad.map((s) => `${s.says}${s.value ? ` (${s.value})` : ''}: ${s.text}`), `${file} rendered (${purpose}) under the status ${JSON.stringify(status)}`).to.deep.equal([]);
  };

  for (const file of notebooks) it(`${file} at quick scale`, check(file, 'quick'));
  for (const file of committed) it(`${file} at paper scale (committed results)`, check(file, 'default'));
}));
