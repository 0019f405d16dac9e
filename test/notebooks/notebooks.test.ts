/**
 * Every notebook in notebooks/ executes headlessly at quick scale without a
 * cell error, and every chart it shows carries a static image.
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
      const nb = JSON.parse(fs.readFileSync(path.join(root, 'out', name, `${name}.ipynb`), 'utf8'));
      for (const cell of nb.cells) {
        for (const out of cell.outputs ?? []) {
          expect(out.output_type, `error output in ${file}`).to.not.equal('error');
          const html = out.data?.['text/html'];
          const text = Array.isArray(html) ? html.join('') : html;
          if (typeof text === 'string' && text.includes('schedlab-fig-')) {
            expect(out.data['image/png'], `chart without a static image in ${file}`).to.be.a('string').and.not.be.empty;
          }
        }
      }
    });
  }
});
