/**
 * The renderer's two plotly bundles: figures whose trace types and attributes
 * the small basic bundle knows are drawn by it, anything else by the full
 * plotly.js-dist bundle (never dropped). That both give the same bytes is
 * measured by bench/first-figure.ts (its sameOutput).
 */
import { expect } from 'chai';
import { lineChart, barChart, cdfChart, ganttChart, scatterChart } from '../../src/analysis/charts';
import { closeRenderer, plotlyBundleFor, renderFigure } from '../../src/analysis/render';
import type { Figure } from '../../src/analysis/charts';
import { scheduleEvolving } from '../../src/schedulers/evolving/list';
import { scheduleOccupancyChart } from '../../src/schedulers/evolving/chart';
import { headlineChart } from '../../src/claims';

const data = [
  { algorithm: 'EASY', load: 0.9, y: 4, ci95: 0.5 },
  { algorithm: 'EASY', load: 0.1, y: 1, ci95: 0.1 },
  { algorithm: 'MCB8', load: 0.1, y: 1, ci95: 0.1 },
  { algorithm: 'MCB8', load: 0.9, y: 2, ci95: 0.2 },
];

describe('analysis/render: the basic plotly bundle where it suffices, the full one otherwise', function () {
  this.timeout(5 * 60 * 1000); // starting Chromium takes minutes when the machine is loaded
  after(() => closeRenderer());

  it('the basic bundle is the same plotly version as plotly.js-dist', () => {
    // eslint-disable-next-line @typescript-eslint/no-var-requires
    const version = (pkg: string) => (require(`${pkg}/package.json`) as { version: string }).version;
    expect(version('plotly.js-basic-dist-min')).to.equal(version('plotly.js-dist'));
  });

  it("every chart builder's figure is drawn by the basic bundle", async () => {
    const evolving = scheduleEvolving([{ id: 0, profile: [{ duration: 10, nodes: 3 }, { duration: 5, nodes: 1 }] }, { id: 1, profile: [{ duration: 4, nodes: 2 }] }], 4, { expandLimit: 2 });
    const figures: Record<string, Figure> = {
      line: lineChart({ data, x: 'load', y: 'y', series: 'algorithm', error: 'ci95', logY: true, title: 'L' }),
      bar: barChart({ data, x: 'load', y: 'y', series: 'algorithm', mode: 'stack' }),
      cdf: cdfChart({ data, value: 'y', series: 'algorithm' }),
      scatter: scatterChart({ data, x: 'load', y: 'y', series: 'algorithm' }),
      gantt: ganttChart({ data: [{ node: 'n1', start: 5, end: 15, job: 'j' }, { node: 'n2', start: 0, end: 7, job: 'k' }], row: 'node', start: 'start', end: 'end', series: 'job' }),
      'gantt, numeric rows': ganttChart({ data: [{ node: 1, start: 5, end: 15 }, { node: 2, start: 0, end: 7 }], row: 'node', start: 'start', end: 'end' }),
      occupancy: scheduleOccupancyChart(evolving),
      'headline of 03': headlineChart('03-evolving-applications'),
    };
    for (const [name, fig] of Object.entries(figures)) expect(await plotlyBundleFor(fig), name).to.equal('basic');
    const png = await renderFigure(figures.bar, 'png', { scale: 1 });
    expect(png.subarray(1, 4).toString()).to.equal('PNG');
  });

  it('a trace type the basic bundle lacks (heatmap) is drawn by the full bundle', async () => {
    const fig: Figure = { data: [{ type: 'heatmap', z: [[1, 2], [3, 4]] }], layout: {}, width: 300, height: 200 };
    expect(await plotlyBundleFor(fig)).to.equal('full');
    const svg = (await renderFigure(fig, 'svg')).toString('utf8');
    // The heatmap itself: a layer with its image (the basic bundle would draw empty axes).
    expect(svg).to.match(/class="hm"[^>]*>\s*<image/);
    // The next basic-bundle figure is still drawn.
    expect(await plotlyBundleFor(lineChart({ data, x: 'load', y: 'y' }))).to.equal('basic');
    expect((await renderFigure(lineChart({ data, x: 'load', y: 'y', title: 'after' }), 'svg')).toString('utf8')).to.contain('after');
  });

  it('a layout part only the full bundle knows (a polar subplot, boxmode) or an unknown attribute goes to the full bundle', async () => {
    const at = (data: Figure['data'], layout: Figure['layout']) => plotlyBundleFor({ data, layout, width: 300, height: 200 });
    expect(await at([{ x: [1, 2], y: [1, 2] }], { polar: {} })).to.equal('full');
    expect(await at([{ x: [1, 2], y: [1, 2] }], { polar2: {} })).to.equal('full');
    expect(await at([{ x: [1, 2], y: [1, 2] }], { boxmode: 'group' })).to.equal('full');
    expect(await at([{ x: [1, 2], y: [1, 2], notAnAttribute: 1 }], {})).to.equal('full');
    // Numbered axes and the bar layout attributes are the basic bundle's.
    expect(await at([{ x: [1, 2], y: [1, 2], xcalendar: 'coptic' }], { xaxis2: {}, yaxis3: {}, barmode: 'stack' })).to.equal('basic');
  });
});
