import { expect } from 'chai';
import { CLAIM_REGISTRIES, claimsFor, claimsSummary, evaluateClaims, VERDICTS } from '../../src/claims';
import { registry as measy } from '../../src/claims/05-measy';
import { claimsMain } from '../../src/cli/claims';
import { loadCommittedResults, measy as measyPaper } from '../../src/sweep/papers';
import type { ResultRecord } from '../../src/sweep/store';

describe('claims: registries', () => {
  it('every registry has unique ids, a place and a statement per claim, and three headline claims', () => {
    for (const r of CLAIM_REGISTRIES) {
      expect(new Set(r.claims.map((c) => c.id)).size, r.notebook).to.equal(r.claims.length);
      for (const c of r.claims) {
        expect(c.place, `${r.notebook} ${c.id}`).to.match(/\S/);
        expect(c.statement, `${r.notebook} ${c.id}`).to.match(/\S/);
        // a checkable claim has a computation; a not-comparable one says why
        if (c.published.kind === 'not comparable') expect(c.published.reason).to.match(/\S/);
        else expect(c.measure, `${r.notebook} ${c.id}`).to.be.a('function');
      }
      expect(r.claims.filter((c) => c.headline).length, r.notebook).to.equal(3);
    }
  });

  // The one test on a real committed file: 05's (218 cells, the smallest paper file).
  describe('05-measy on its committed results', () => {
    let records: ResultRecord[] = [];
    before(() => {
      records = loadCommittedResults(measyPaper.experiment).records;
      expect(records.length).to.be.greaterThan(0);
    });
    const withPublished = (id: string, value: number) => ({
      ...measy,
      claims: measy.claims.map((c) => (c.id === id && c.published.kind === 'value' ? { ...c, published: { ...c.published, value } } : c)),
    });
    const verdictOf = (id: string, value: number) => evaluateClaims(withPublished(id, value), records).find((r) => r.id === id)!;

    it('a published value moved away from ours changes the verdict', () => {
      const ours = evaluateClaims(measy, records).find((r) => r.id === 'response-mean')!;
      const value = Number.parseFloat(ours.ours);
      expect(verdictOf('response-mean', value).verdict).to.equal('reproduced');
      expect(verdictOf('response-mean', 2 * value + 20).verdict).to.equal('same direction, different size');
      expect(verdictOf('response-mean', -value).verdict).to.equal('contradicted');
    });

    it('claimsSummary: every verdict counted, the three headline claims with published and ours', () => {
      const s = claimsSummary('05');
      expect(s.counts.map((c) => c.verdict)).to.deep.equal([...VERDICTS]);
      expect(s.counts.reduce((t, c) => t + c.claims, 0)).to.equal(measy.claims.length);
      expect(s.top).to.have.length(3);
      expect(s.top[0].published).to.equal('41.1 %');
      expect(s.top[0].ours).to.match(/^\d/);
    });

    it('schedlab claims prints the counts and every claim; bad input is a usage error', async () => {
      const lines: string[] = [];
      expect(await claimsMain(['05-measy'], (s) => lines.push(s))).to.equal(0);
      const text = lines.join('\n');
      const c = claimsFor('05');
      expect(text).to.include(`${measy.claims.length} claims: ${c.counts.reproduced} reproduced`);
      expect(text.match(/^\[/gm)).to.have.length(measy.claims.length);
      const errors: string[] = [];
      expect(await claimsMain(['05', '--verdict', 'maybe'], () => {}, (s) => errors.push(s))).to.equal(2);
      expect(await claimsMain(['00'], () => {}, (s) => errors.push(s))).to.equal(2);
      expect(errors[0]).to.match(/--verdict must be one of/);
      expect(errors[1]).to.match(/no claims registry for 00-batch-baselines/);
    });
  });
});
