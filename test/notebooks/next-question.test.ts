/**
 * Every paper notebook ends with a worked "Your next question" (issue 26): a
 * question the paper does not ask, answered from the same results by filtering
 * a danfojs DataFrame, grouping it with `summarize` and pivoting the groups into
 * a new table and chart. Source check only (no execution).
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';

const root = path.resolve(__dirname, '../..');
const PAPER_NOTEBOOKS = fs.readdirSync(path.join(root, 'notebooks')).filter((f) => /^0[1-5]-.*\.ipynb$/.test(f)).sort();
const text = (c: { source: string | string[] }) => (Array.isArray(c.source) ? c.source.join('') : c.source);

describe('notebooks: each paper notebook ends with "Your next question"', () => {
  it('finds the five paper notebooks', () => {
    expect(PAPER_NOTEBOOKS.map((f) => f.slice(0, 2))).to.deep.equal(['01', '02', '03', '04', '05']);
  });

  for (const file of PAPER_NOTEBOOKS) {
    it(`${file}: its last section is "Your next question", filtering, summarizing and pivoting a DataFrame into a table and a chart`, () => {
      const cells: { cell_type: string; source: string | string[] }[] = JSON.parse(fs.readFileSync(path.join(root, 'notebooks', file), 'utf8')).cells;
      const headings = cells.map((c, i) => ({ i, h: c.cell_type === 'markdown' ? (/^## (.*)$/m.exec(text(c))?.[1] ?? null) : null })).filter((x) => x.h !== null);
      const last = headings[headings.length - 1];
      expect(last?.h, `${file}: last "## " section`).to.equal('Your next question');
      const code = cells.slice(last.i + 1).filter((c) => c.cell_type === 'code').map(text).join('\n');
      for (const step of ['toFrame(', '.query(', 'summarize(', 'showTable(', 'Chart(']) expect(code, `${file}: the next question's code calls ${step}`).to.include(step);
    });
  }
});
