import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { toCsv, toMarkdown, toLatex, toHtml, writeTable, latexEscape, formatCell } from '../../src/analysis/table';

const rows = [
  { algorithm: 'EASY', avg: 3.14159, max: 12 },
  { algorithm: 'GreedyPM */per/opt=min/minvt=600', avg: 1.5, max: 2 },
];

describe('analysis/table', () => {
  it('CSV keeps full precision and quotes when needed', () => {
    expect(toCsv(rows)).to.equal('algorithm,avg,max\nEASY,3.14159,12\nGreedyPM */per/opt=min/minvt=600,1.5,2\n');
    expect(toCsv([{ a: 'x,y', b: 'say "hi"' }])).to.equal('a,b\n"x,y","say ""hi"""\n');
  });

  it('LaTeX output for a known table (booktabs, escaped)', () => {
    const tex = toLatex([{ name: 'a_b & 50%', v: 0.12345 }], { caption: 'Cost in $', label: 'tab:x', digits: 2 });
    expect(tex).to.equal(
      [
        '% needs \\usepackage{booktabs,array,graphicx,rotating}',
        '\\begin{table}[htbp]',
        '\\centering',
        '\\caption{Cost in \\$}',
        '\\label{tab:x}',
        '\\resizebox{\\ifdim\\width>\\linewidth\\linewidth\\else\\width\\fi}{!}{%',
        '\\begin{tabular}{lr}',
        '\\toprule',
        'name & v \\\\',
        '\\midrule',
        'a\\_b \\& 50\\% & 0.12 \\\\',
        '\\bottomrule',
        '\\end{tabular}}',
        '\\end{table}',
        '',
      ].join('\n'),
    );
  });

  it('Markdown aligns numbers right and escapes pipes', () => {
    const md = toMarkdown([{ k: 'a|b', v: 1.23456 }], { digits: 2 });
    expect(md).to.equal('| k | v |\n|:---|---:|\n| a\\|b | 1.23 |\n');
  });

  it('HTML escapes markup', () => {
    expect(toHtml([{ k: '<b>' }])).to.contain('&lt;b&gt;').and.not.contain('<b>');
  });

  it('formatCell shows integers exactly and infinities as symbols', () => {
    expect(formatCell(12)).to.equal('12');
    expect(formatCell(1 / 3, 2)).to.equal('0.33');
    expect(formatCell(Infinity)).to.equal('∞');
    expect(formatCell(undefined)).to.equal('');
    expect(latexEscape('~^\\')).to.equal('\\textasciitilde{}\\textasciicircum{}\\textbackslash{}');
  });

  it('writeTable writes CSV, Markdown and LaTeX files', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-table-'));
    const w = writeTable(rows, dir, 'table2');
    expect(fs.readFileSync(w.csv, 'utf8')).to.equal(toCsv(rows));
    expect(fs.readFileSync(w.latex, 'utf8')).to.contain('\\toprule');
    expect(fs.readFileSync(w.markdown, 'utf8')).to.contain('| algorithm |');
    expect(() => writeTable(rows, dir, '../escape')).to.throw(/plain file name/);
    fs.rmSync(dir, { recursive: true });
  });
});
