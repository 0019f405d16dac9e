import { expect } from 'chai';
import { claimsFor, ClaimRegistry, drawHeadlineChart, evaluateClaims, headlineChart, OURS_SERIES, PUBLISHED_SERIES } from '../../src/claims';
import { registry as measy } from '../../src/claims/05-measy';
import { claimsMarkdown } from '../../src/claims';
import type { ResultRecord } from '../../src/sweep/store';

/** A toy paper: two published numbers and a figure without numbers, on records { x, y }. */
type View = { x: number; y: number }[];
const toy = (published: number): ClaimRegistry<View> => ({
  notebook: 'toy',
  paper: 'toy paper',
  view: (records) => records.map((r) => ({ x: (r as unknown as { x: number }).x, y: (r as unknown as { y: number }).y })),
  claims: [
    { id: 'mean-y', place: 'Table 1', statement: 'mean y', published: { kind: 'value', value: published, tolerance: { relative: 0.1 } }, measure: (v) => ({ value: v.reduce((t, r) => t + r.y, 0) / v.length, samples: v.map((r) => r.y), text: 'mean' }) },
    { id: 'max-y', place: 'Table 1', statement: 'max y', published: { kind: 'value', value: 10, tolerance: { relative: 0.1 } }, measure: (v) => ({ value: Math.max(...v.map((r) => r.y)), text: 'max' }) },
    { id: 'rises', place: 'Figure 2', statement: 'y rises with x', published: { kind: 'direction' }, measure: (v) => ({ value: v[v.length - 1].y - v[0].y, text: 'rise' }) },
  ],
});
const records = [1, 2, 3, 4].map((x) => ({ x, y: 2 * x }) as unknown as ResultRecord);
const traces = (fig: { data: any[] }) => Object.fromEntries(fig.data.map((d) => [d.name, d]));

describe('claims: the headline chart', () => {
  it('draws the published values of the picked value claims as a series "published" and ours beside them, with our 95% CI', () => {
    const r = toy(5);
    const fig = drawHeadlineChart({ kind: 'claims', place: 'Table 1', title: 't', xLabel: 'x', yLabel: 'y', ids: (id) => id.endsWith('-y'), label: (c) => c.id }, evaluateClaims(r, records), r.view(records), 'test');
    const t = traces(fig);
    expect(Object.keys(t).sort()).to.deep.equal([OURS_SERIES, PUBLISHED_SERIES].sort());
    expect(t[PUBLISHED_SERIES].y).to.deep.equal([5, 10]);
    expect(t[OURS_SERIES].y).to.deep.equal([5, 8]);
    expect(t[OURS_SERIES].x).to.deep.equal(['mean-y', 'max-y']);
    // mean y has samples: a CI; max y none.
    expect(t[OURS_SERIES].error_y.array[0]).to.be.greaterThan(0);
    // The published series follows the registry's value, never our results.
    const moved = toy(7);
    expect(traces(drawHeadlineChart({ kind: 'claims', place: 'Table 1', title: 't', xLabel: 'x', yLabel: 'y', ids: (id) => id.endsWith('-y'), label: (c) => c.id }, evaluateClaims(moved, records), moved.view(records), 'test'))[PUBLISHED_SERIES].y).to.deep.equal([7, 10]);
  });

  it('a figure the paper prints without numbers is ours only, and its title says so', () => {
    const r = toy(5);
    const fig = drawHeadlineChart<View>({ kind: 'ours', place: 'Figure 2', title: 'y against x', xLabel: 'x', yLabel: 'y', points: (v) => v.map((p) => ({ x: p.x, series: 'ours', y: p.y })) }, evaluateClaims(r, records), r.view(records), 'test');
    expect(fig.data.map((d: any) => d.name)).to.deep.equal(['ours']);
    expect(fig.data[0].y).to.deep.equal([2, 4, 6, 8]);
    expect(JSON.stringify(fig.layout)).to.include('no numbers');
  });

  it('05-measy: the abstract\'s four numbers, published from the registry, ours from the committed results', () => {
    const fig = headlineChart('05');
    const t = traces(fig);
    const results = claimsFor('05').results;
    const ids = ['response-max', 'response-mean', 'slowdown-max', 'slowdown-mean'];
    const pub = ids.map((id) => (measy.claims.find((c) => c.id === id)!.published as { value: number }).value);
    expect(t[PUBLISHED_SERIES].y).to.deep.equal(pub);
    expect(t[OURS_SERIES].y).to.deep.equal(ids.map((id) => results.find((r) => r.id === id)!.values!.ours));
  });

  it('every registry of notebooks 01-05 names a headline chart', async () => {
    const { CLAIM_REGISTRIES } = await import('../../src/claims');
    expect(CLAIM_REGISTRIES.map((r) => [r.notebook, r.chart?.kind !== undefined])).to.deep.equal(CLAIM_REGISTRIES.map((r) => [r.notebook, true]));
  });
});

describe('claims: as markdown', () => {
  it('one line per claim: verdict, place, statement, published and ours; a direction claim has no published value', () => {
    const md = claimsMarkdown(evaluateClaims(toy(5), records));
    const lines = md.split('\n');
    expect(lines).to.have.length(3);
    expect(lines[0]).to.match(/^\* \*\*reproduced\*\* — Table 1: mean y\. Published: 5; ours: mean\.$/);
    expect(lines[1]).to.match(/^\* \*\*same direction, different size, ratio 0\.80\*\*/);
    expect(lines[2]).to.not.include('Published');
    expect(claimsMarkdown(evaluateClaims(toy(-5), records)).split('\n')[0]).to.match(/^\* \*\*contradicted/);
  });
});
