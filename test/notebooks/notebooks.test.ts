/**
 * Every notebook in notebooks/ executes headlessly at quick scale without a
 * cell error, every chart it shows carries a static image, no output needs
 * notebook trust (no scripts), every code cell has its execution count, and
 * the executed file stays under 3 MB.
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

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
      const name = path.basename(file, '.ipynb');
      const r = spawnSync('bash', ['scripts/run-notebook.sh', `notebooks/${file}`], {
        cwd: root,
        env: { ...process.env, SCHEDLAB_SCALE: 'quick' },
        encoding: 'utf8',
      });
      expect(r.status, `${file} failed:\n${r.stderr.slice(-4000)}`).to.equal(0);
      const executed = path.join(root, 'out', name, `${name}.ipynb`);
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
    });
  }
});
