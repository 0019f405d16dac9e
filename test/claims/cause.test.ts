import { expect } from 'chai';
import { evaluateClaims, ClaimRegistry } from '../../src/claims';
import { fidelityMarkdown } from '../../src/claims/fidelity';

describe('claims: a known cause', () => {
  const registry: ClaimRegistry<number> = {
    notebook: '99-test', paper: 'A paper', view: (records) => records.length,
    claims: [
      { id: 'with', place: 'Figure 1', statement: 's', published: { kind: 'direction' }, measure: (n) => ({ value: -n, text: `${-n}` }), cause: 'a switch explains it' },
      { id: 'without', place: 'Figure 2', statement: 't', published: { kind: 'direction' }, measure: (n) => ({ value: n, text: `${n}` }) },
    ],
  };
  const results = evaluateClaims(registry, [{} as never]);

  it('is carried to the result, and only where the claim has one', () => {
    expect(results[0].cause).to.equal('a switch explains it');
    expect('cause' in results[1]).to.equal(false);
  });

  it('is shown after the reason in docs/fidelity.md', () => {
    const md = fidelityMarkdown([{ notebook: '99-test', paper: 'A paper', status: 'complete', counts: { reproduced: 1, 'same direction, different size': 0, contradicted: 1, 'not comparable': 0 }, results }]);
    expect(md).to.match(/; cause: a switch explains it \|/);
  });
});
