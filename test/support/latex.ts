/**
 * Compile LaTeX tables with pdflatex (test/analysis/latex.test.ts, and the
 * tables each executed notebook writes: test/notebooks/browser.test.ts).
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export const PDFLATEX = '/usr/bin/pdflatex';

/** Compile `tables` in one document; returns pdflatex's error lines and every overfull box over 10 pt (empty when it compiled and fits). */
export function compile(tables: string[]): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-latex-'));
  try {
    const body = tables.map((t) => `\\typeout{TABLE ${t}}\n\\input{${t}}\n\\clearpage`).join('\n');
    fs.writeFileSync(path.join(dir, 'doc.tex'), `\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs,array,graphicx,rotating}\n\\begin{document}\n${body}\n\\end{document}\n`);
    const r = spawnSync(PDFLATEX, ['-interaction=nonstopmode', '-halt-on-error', 'doc.tex'], { cwd: dir, encoding: 'utf8' });
    const log = r.stdout;
    const errors = log.split('\n').flatMap((line, i, all) => (line.startsWith('!') ? [[...all.slice(Math.max(0, i - 30), i).filter((l) => l.startsWith('TABLE ')).slice(-1), line, ...all.slice(i + 1, i + 3)].join(' | ')] : []));
    if (r.status !== 0 && errors.length === 0) errors.push(`pdflatex exited ${r.status}: ${log.slice(-1500)}`);
    // A table that runs off the page: "Overfull \hbox (12.3pt too wide)", beyond 10 pt.
    let table = '';
    for (const line of fs.readFileSync(path.join(dir, 'doc.log'), 'latin1').split('\n')) {
      table = /^TABLE (.*)/.exec(line)?.[1] ?? table;
      const over = /^Overfull \\hbox \(([\d.]+)pt too wide/.exec(line);
      if (over && Number(over[1]) > 10) errors.push(`${table}: ${line}`);
    }
    if (r.status === 0) expect(fs.existsSync(path.join(dir, 'doc.pdf'))).to.equal(true);
    return errors;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
