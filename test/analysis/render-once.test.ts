/**
 * The renderer lays a figure out once for all its images: the SVG and every
 * PNG of one `renderFigure`/`exportFigure` call come from one plotly layout,
 * and must be the bytes plotly's own `toImage` gives, one layout per image
 * (`plotlyToImage`, how every image was drawn before). Ids plotly draws at
 * random are set aside (test/support/figure-bytes.ts), and plotly's SVG is
 * compared with its attributes in name order, as `renderFigure` writes them.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { lineChart, barChart, cdfChart, ganttChart } from '../../src/analysis/charts';
import type { Figure } from '../../src/analysis/charts';
import { closeRenderer, exportFigure, plotlyToImage, renderFigure, sortAttributes } from '../../src/analysis/render';
import { headlineChart } from '../../src/claims';
import { UsageError } from '../../src/util/errors';
import { firstDifference, svgWithoutIds } from '../support/figure-bytes';

const data = [
  { algorithm: 'EASY', load: 0.5, y: 5, ci95: 0.5 },
  { algorithm: 'EASY', load: 0.9, y: 9, ci95: 0.5 },
  { algorithm: 'FCFS', load: 0.5, y: 7, ci95: 0.5 },
  { algorithm: 'FCFS', load: 0.9, y: 12.6, ci95: 0.5 },
];

const figures = (): Record<string, Figure> => ({
  'headline of 04': headlineChart('04-advance-reservation'),
  'line, error bars, log axis, legend': lineChart({ data, x: 'load', y: 'y', series: 'algorithm', error: 'ci95', logY: true, title: 'Line' }),
  'stacked bar': barChart({ data, x: 'load', y: 'y', series: 'algorithm', mode: 'stack', title: 'Bar' }),
  cdf: cdfChart({ data, value: 'y', series: 'algorithm', title: 'CDF' }),
  gantt: ganttChart({ data: [{ node: 'n1', start: 5, end: 15, job: 'j' }, { node: 'n2', start: 0, end: 7, job: 'k' }], row: 'node', start: 'start', end: 'end', series: 'job', title: 'Gantt' }),
  'heatmap with a colorbar (full bundle)': { data: [{ type: 'heatmap', z: [[1, 2], [3, 4]] }], layout: { title: { text: 'Heatmap' } }, width: 300, height: 200 },
});

/** plotly's own SVG of a figure, its elements' attributes in name order as `renderFigure` writes them, random ids set aside. */
const plotlySvg = async (fig: Figure) => svgWithoutIds(sortAttributes((await plotlyToImage(fig, 'svg')).toString('utf8')));

describe("analysis/render: one layout per figure gives plotly's own images", function () {
  this.timeout(5 * 60 * 1000); // starting Chromium takes minutes when the machine is loaded
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-render-once-'));
  after(async () => {
    await closeRenderer();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("saveFigure's images (show's PNG, then the exported SVG and PNG) are the bytes of one toImage call each", async () => {
    for (const [name, fig] of Object.entries(figures())) {
      // As saveFigure draws them: the shown PNG, then one export of every format.
      const shown = await renderFigure(fig, 'png', { scale: 1.5 });
      const [svgFile, pngFile, pdfFile] = await exportFigure(fig, path.join(dir, 'figure'));
      expect(shown.equals(await plotlyToImage(fig, 'png', { scale: 1.5 })), `${name}: shown PNG`).to.equal(true);
      const svg = fs.readFileSync(svgFile, 'utf8');
      const svgDiff = firstDifference(svgWithoutIds(svg), await plotlySvg(fig));
      expect(svgDiff, `${name}: SVG differs at ${svgDiff}`).to.equal(null);
      expect(fs.readFileSync(pngFile).equals(await plotlyToImage(fig, 'png', { scale: 2 })), `${name}: exported PNG`).to.equal(true);
      expect(fs.readFileSync(pdfFile).subarray(0, 5).toString(), `${name}: PDF`).to.equal('%PDF-');
      // The ids really were set aside, not the drawing.
      expect(svg).to.contain(String((fig.layout.title as { text: string }).text).slice(0, 4));
    }
  });

  it('renderFigure: each format alone is the bytes of its toImage call, at any scale', async () => {
    const fig = figures()['line, error bars, log axis, legend'];
    for (const scale of [1, 2.5]) expect((await renderFigure(fig, 'png', { scale })).equals(await plotlyToImage(fig, 'png', { scale })), `scale ${scale}`).to.equal(true);
    const svgDiff = firstDifference(svgWithoutIds((await renderFigure(fig, 'svg')).toString('utf8')), await plotlySvg(fig));
    expect(svgDiff, `SVG differs at ${svgDiff}`).to.equal(null);
  });

  it("an SVG's bytes do not depend on what the page drew before: a figure's first SVG is its later ones", async () => {
    // A layout that measures a text (plotly caches text sizes, 10,000 at most, then starts
    // afresh) writes the legend's attributes in another order than one that finds them
    // cached. Series names no other figure in this process has: the first layout measures them.
    const fresh = data.map((d) => ({ ...d, algorithm: `${d.algorithm} drawn first here` }));
    const fig = lineChart({ data: fresh, x: 'load', y: 'y', series: 'algorithm', title: 'Drawn first here' });
    const first = svgWithoutIds((await renderFigure(fig, 'svg')).toString('utf8'));
    const later = firstDifference(first, svgWithoutIds((await renderFigure(fig, 'svg')).toString('utf8')));
    expect(later, `renderFigure's next SVG differs at ${later}`).to.equal(null);
    const plotlys = firstDifference(first, await plotlySvg(fig));
    expect(plotlys, `plotly's toImage differs at ${plotlys}`).to.equal(null);
  });

  it("sortAttributes puts each element's attributes in name order and leaves everything else as it was", () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" style="" viewBox="0 0 4 4"><g><rect y="0" x="1" style="fill: rgb(1, 2, 3);"/><text xml:space="preserve" data-x="a=b &gt; c">x &lt;b c="d"&gt; y</text></g></svg>';
    expect(sortAttributes(svg)).to.equal('<svg style="" viewBox="0 0 4 4" width="4" xmlns="http://www.w3.org/2000/svg"><g><rect style="fill: rgb(1, 2, 3);" x="1" y="0"/><text data-x="a=b &gt; c" xml:space="preserve">x &lt;b c="d"&gt; y</text></g></svg>');
    expect(sortAttributes(sortAttributes(svg))).to.equal(sortAttributes(svg));
  });

  it('only the formats asked for are written; an unknown format is refused before anything is drawn', async () => {
    const fig = figures()['stacked bar'];
    expect(await exportFigure(fig, path.join(dir, 'only'), { formats: ['pdf'] })).to.deep.equal([path.join(dir, 'only.pdf')]);
    expect(fs.existsSync(path.join(dir, 'only.svg'))).to.equal(false);
    let thrown: unknown;
    await exportFigure(fig, path.join(dir, 'bad'), { formats: ['svg', 'jpeg' as 'svg'] }).catch((e: unknown) => (thrown = e));
    expect(thrown).to.be.instanceOf(UsageError);
    expect(String(thrown)).to.match(/exportFigure: format must be png, svg or pdf, got "jpeg"/);
    expect(fs.existsSync(path.join(dir, 'bad.svg'))).to.equal(false);
  });
});
