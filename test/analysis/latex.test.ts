/**
 * Every LaTeX table compiles: a stress table of every character the notebooks
 * use, and every .tex table the executed notebooks wrote under out/, all set
 * in one document with pdflatex (booktabs, rotating), failing on any error.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { toLatex, latexEscape, columnHeader } from '../../src/analysis/table';
import { compile, PDFLATEX } from '../support/latex';

const root = path.resolve(__dirname, '../..');

function producedTables(): string[] {
  const out = path.join(root, 'out');
  if (!fs.existsSync(out)) return [];
  return fs
    .readdirSync(out)
    .flatMap((nb) => {
      const dir = path.join(out, nb, 'tables');
      return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.tex')).map((f) => path.join(dir, f)) : [];
    })
    .sort();
}

describe('LaTeX tables compile with pdflatex', function () {
  this.timeout(120000);

  it('pdflatex is installed (scripts/setup.sh installs texlive-latex-base and texlive-latex-recommended)', () => {
    expect(fs.existsSync(PDFLATEX), PDFLATEX).to.equal(true);
  });

  it('wide tables fit the page: a 26-column table and a table of long text keep every column on the page', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-wide-'));
    const metrics = ['pmtn_gbps', 'mig_gbps', 'pmtn_per_hour', 'mig_per_hour', 'pmtn_per_job', 'mig_per_job'];
    const wide = ['EASY', 'Greedy */per/opt=min', 'GreedyPM */per/opt=min/minvt=600'].map((algorithm, i) => ({
      algorithm,
      traces: 2,
      ...Object.fromEntries(metrics.flatMap((m) => [[m, i + 0.123], [`${m} max`, i * 10.5], [`published ${m}`, i + 0.5], [`published ${m} max`, 123.456 * i]])),
    }));
    const sentence = 'a quantity stated in the paper, with its conditions spelt out in a long sentence';
    const long = Array.from({ length: 4 }, (_, i) => ({ quantity: `${sentence} (${i})`, ours: `${i}.5 of 432 (with a remark)`, published: `${sentence}, published` }));
    const files = [['wide', wide], ['long', long]].map(([name, rows]) => {
      const f = path.join(dir, `${name}.tex`);
      fs.writeFileSync(f, toLatex(rows as Record<string, unknown>[], { caption: String(name), digits: 2 }));
      return f;
    });
    try {
      expect(compile(files)).to.deep.equal([]);
      const text = fs.readFileSync(files[1], 'utf8');
      expect(text).to.contain('published');
      expect(fs.readFileSync(files[0], 'utf8').match(/\\begin\{tabular\}\{/g)!.length).to.be.greaterThan(1); // split by columns
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('headers are display names, not record keys; decimals are set per column', () => {
    const tex = toLatex([{ policy: 'easy', meanBoundedSlowdown: 2.5, slowdownCi95: 0.25, trace_set: 'scaled' }], { digits: { meanBoundedSlowdown: 1, slowdownCi95: 3 } });
    expect(tex).to.contain('policy & mean bounded slowdown & slowdown 95\\% CI & trace set \\\\');
    expect(tex).to.contain('EASY & 2.5 & 0.250 & scaled');
    expect(columnHeader('meanWait')).to.equal('mean wait');
  });

  it('special and non-ASCII characters are mapped', () => {
    expect(latexEscape('a|b<c>d')).to.equal('a\\textbar{}b\\textless{}c\\textgreater{}d');
    expect(latexEscape('✔ 3/5 ≤ Σ Δ ≥ ø é')).to.equal("$\\surd$ 3/5 $\\leq$ $\\Sigma$ $\\Delta$ $\\geq$ {\\o} \\'{e}");
    expect(latexEscape('漢')).to.equal('[U+6F22]');
  });

  it('a column holding integers and decimals prints the same decimals throughout', () => {
    const tex = toLatex([{ v: 2 }, { v: 2.5 }], { digits: 2 });
    expect(tex).to.contain('2.00 \\\\').and.contain('2.50 \\\\');
  });

  it('a stress table and every table written under out/ compile', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-stress-'));
    const stress = path.join(dir, 'stress.tex');
    const specials = '\\ { } $ & # ^ _ % ~ | < > ✔ ✘ Σ Δ ≤ ≥ ø · × ± – — … “q” °C µs ∞ 漢 é ñ ü Å';
    const wide = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`col_${i} ✔`, i + 0.5]));
    fs.writeFileSync(stress, toLatex([{ name: specials, value: Infinity, n: NaN, ...wide }], { caption: `caption ${specials}`, label: 'tab:stress' }));
    const tables = [stress, ...producedTables()];
    const errors = compile(tables);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(errors, `${tables.length} tables`).to.deep.equal([]);
  });
});
