/**
 * Every LaTeX table compiles: a stress table of every character the notebooks
 * use, and every .tex table the executed notebooks wrote under out/, all set
 * in one document with pdflatex (booktabs, rotating), failing on any error.
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { toLatex, latexEscape } from '../../src/analysis/table';

const root = path.resolve(__dirname, '../..');
const PDFLATEX = '/usr/bin/pdflatex';

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

/** Compile `tables` in one document; returns pdflatex's error lines (empty when it compiled). */
function compile(tables: string[]): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-latex-'));
  try {
    const body = tables.map((t) => `\\typeout{TABLE ${t}}\n\\input{${t}}\n\\clearpage`).join('\n');
    fs.writeFileSync(path.join(dir, 'doc.tex'), `\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs}\n\\usepackage{rotating}\n\\begin{document}\n${body}\n\\end{document}\n`);
    const r = spawnSync(PDFLATEX, ['-interaction=nonstopmode', '-halt-on-error', 'doc.tex'], { cwd: dir, encoding: 'utf8' });
    const log = r.stdout;
    const errors = log.split('\n').flatMap((line, i, all) => (line.startsWith('!') ? [[...all.slice(Math.max(0, i - 30), i).filter((l) => l.startsWith('TABLE ')).slice(-1), line, ...all.slice(i + 1, i + 3)].join(' | ')] : []));
    if (r.status !== 0 && errors.length === 0) errors.push(`pdflatex exited ${r.status}: ${log.slice(-1500)}`);
    if (r.status === 0) expect(fs.existsSync(path.join(dir, 'doc.pdf'))).to.equal(true);
    return errors;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('LaTeX tables compile with pdflatex', function () {
  this.timeout(120000);

  it('pdflatex is installed (scripts/setup.sh installs texlive-latex-base and texlive-latex-recommended)', () => {
    expect(fs.existsSync(PDFLATEX), PDFLATEX).to.equal(true);
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
