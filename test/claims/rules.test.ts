import { expect } from 'chai';
import {
  ciContains,
  Claim,
  ClaimRegistry,
  confidenceInterval95,
  countVerdicts,
  directionVerdict,
  effectRatio,
  evaluateClaims,
  sameDirection,
  valueVerdict,
  withinTolerance,
} from '../../src/claims';
import { claimsCountLine, fidelityMarkdown, withClaimsCount } from '../../src/claims/fidelity';
import type { ResultRecord } from '../../src/sweep/store';

/** A result record with just what a registry reads. */
function record(params: Record<string, string | number>, result: Record<string, number>): ResultRecord {
  return { key: JSON.stringify(params), crc: '', sweep: 't', sweepVersion: null, definition: '', toolkit: '', params, seed: 0, status: 'ok', result, run: { startedAt: '', durationMs: 0 } } as unknown as ResultRecord;
}

describe('claims: verdict rules', () => {
  it('withinTolerance: absolute or relative bound, either suffices; NaN never', () => {
    expect(withinTolerance(24, 23.1, { absolute: 1 })).to.equal(true);
    expect(withinTolerance(24.2, 23.1, { absolute: 1 })).to.equal(false);
    expect(withinTolerance(110, 100, { relative: 0.1 })).to.equal(true);
    expect(withinTolerance(111, 100, { relative: 0.1 })).to.equal(false);
    expect(withinTolerance(111, 100, { relative: 0.1, absolute: 11 })).to.equal(true);
    expect(withinTolerance(NaN, 100, { relative: 1 })).to.equal(false);
  });

  it('ciContains: the 95% t interval of the mean (simple-statistics SD), none for fewer than two samples', () => {
    const xs = [10, 12, 11, 13, 9]; // mean 11, sd 1.581, t(4) = 2.776: half-width 1.963
    const ci = confidenceInterval95(xs)!;
    expect(ci.mean).to.equal(11);
    expect(ci.high - ci.mean).to.be.closeTo(1.963, 1e-3);
    expect(ciContains(xs, 12.9)).to.equal(true);
    expect(ciContains(xs, 13)).to.equal(false);
    expect(ciContains([5], 5)).to.equal(false);
  });

  it('sameDirection and effectRatio measure from a reference', () => {
    expect(sameDirection(10, 40)).to.equal(true);
    expect(sameDirection(-1, 40)).to.equal(false);
    expect(sameDirection(0, 40)).to.equal(false);
    expect(sameDirection(0.9, 1.5, 1)).to.equal(false);
    expect(effectRatio(20, 40)).to.equal(0.5);
    expect(effectRatio(1.2, 1.4, 1)).to.be.closeTo(0.5, 1e-12);
  });

  it('valueVerdict: each verdict, and moving the published value moves the verdict', () => {
    expect(valueVerdict(23.1, 25, { absolute: 5 }).verdict).to.equal('reproduced');
    const different = valueVerdict(41.1, 54, { absolute: 5 });
    expect(different.verdict).to.equal('same direction, different size');
    expect(different.ratio).to.be.closeTo(54 / 41.1, 1e-12);
    expect(valueVerdict(41.1, -3, { absolute: 5 }).verdict).to.equal('contradicted');
    expect(valueVerdict(41.1, NaN, { absolute: 5 }).verdict).to.equal('not comparable');
    // outside the tolerance, inside our CI: reproduced; move it out of the CI: not
    const samples = [10, 12, 11, 13, 9];
    expect(valueVerdict(12.5, 11, { absolute: 1 }, { samples }).verdict).to.equal('reproduced');
    expect(valueVerdict(14, 11, { absolute: 1 }, { samples }).verdict).to.equal('same direction, different size');
  });

  it('directionVerdict: margin sign decides, a CI reaching 0 downgrades to same direction', () => {
    expect(directionVerdict(0.5).verdict).to.equal('reproduced');
    expect(directionVerdict(0).verdict).to.equal('contradicted');
    expect(directionVerdict(-2).verdict).to.equal('contradicted');
    expect(directionVerdict(1, [1, 1.2, 0.8, 1.1]).verdict).to.equal('reproduced');
    expect(directionVerdict(0.25, [3, -2, 1, -1]).verdict).to.equal('same direction, different size');
    expect(directionVerdict(NaN).verdict).to.equal('not comparable');
  });
});

describe('claims: evaluateClaims on hand-made records', () => {
  type View = Map<string, number>;
  const registryWith = (published: number): ClaimRegistry<View> => {
    const claims: Claim<View>[] = [
      { id: 'gain', place: 'Abstract', statement: 'A improves on B by 30%', headline: true, published: { kind: 'value', value: published, unit: '%', tolerance: { absolute: 2 } }, measure: (v) => ({ value: (100 * (v.get('B')! - v.get('A')!)) / v.get('B')!, text: 'gain' }) },
      { id: 'order', place: 'Figure 1', statement: 'A beats B', published: { kind: 'direction' }, measure: (v) => ({ value: v.get('B')! - v.get('A')!, text: 'B − A' }) },
      { id: 'lost', place: 'Table 9', statement: 'a table lost in extraction', published: { kind: 'not comparable', reason: 'lost' } },
    ];
    return { notebook: 'test', paper: 'test paper', view: (rs) => new Map(rs.map((r) => [r.params.policy as string, (r.result as Record<string, number>).response])), claims };
  };
  const records = [record({ policy: 'A' }, { response: 70 }), record({ policy: 'B' }, { response: 100 })];

  it('computes ours from the records and judges each claim', () => {
    const out = evaluateClaims(registryWith(30), records);
    expect(out.map((r) => r.verdict)).to.deep.equal(['reproduced', 'reproduced', 'not comparable']);
    expect(out[0].published).to.equal('30 %');
    expect(countVerdicts(out)).to.deep.equal({ reproduced: 2, 'same direction, different size': 0, contradicted: 0, 'not comparable': 1 });
  });

  it('a changed published value changes the verdict', () => {
    expect(evaluateClaims(registryWith(45), records)[0].verdict).to.equal('same direction, different size');
    expect(evaluateClaims(registryWith(45), records)[0].ratio).to.be.closeTo(30 / 45, 1e-12);
    expect(evaluateClaims(registryWith(-10), records)[0].verdict).to.equal('contradicted');
  });

  it('changed results change a direction verdict', () => {
    const flipped = [record({ policy: 'A' }, { response: 120 }), record({ policy: 'B' }, { response: 100 })];
    expect(evaluateClaims(registryWith(30), flipped).map((r) => r.verdict)).to.deep.equal(['contradicted', 'contradicted', 'not comparable']);
  });

  it('no records: every checkable claim is not comparable', () => {
    const out = evaluateClaims(registryWith(30), []);
    expect(out.map((r) => r.verdict)).to.deep.equal(['not comparable', 'not comparable', 'not comparable']);
    expect(out[0].reason).to.equal('no committed results');
  });

  it('rejects a registry with a duplicate claim id', () => {
    const r = registryWith(30);
    expect(() => evaluateClaims({ ...r, claims: [...r.claims, r.claims[0]] }, records)).to.throw(/claim id gain is used twice/);
  });
});

describe('claims: docs/fidelity.md rendering', () => {
  const evaluated = [
    {
      notebook: '99-test', paper: 'A paper', status: 'complete',
      counts: { reproduced: 1, 'same direction, different size': 1, contradicted: 0, 'not comparable': 0 },
      results: [
        { id: 'a', place: 'Table 1', statement: 'x | y', headline: true, verdict: 'reproduced' as const, published: '3 %', ours: '3.1%', reason: 'within' },
        { id: 'b', place: 'Figure 2', statement: 'z', headline: false, verdict: 'same direction, different size' as const, published: '10', ours: '5', ratio: 0.5, reason: 'outside' },
      ],
    },
  ];

  it('counts per notebook, one row per claim, pipes escaped, the ratio shown', () => {
    const md = fidelityMarkdown(evaluated);
    expect(md).to.include('| 99-test | 2 | 1 | 1 | 0 | 0 |');
    expect(md).to.include('x \\| y');
    expect(md).to.include('same direction, different size (ratio 0.50)');
  });

  it('the README line is replaced between its markers, and missing markers are an error', () => {
    const line = claimsCountLine(evaluated);
    expect(line).to.include('99-test 2');
    expect(withClaimsCount('a <!-- claims-count -->old<!-- /claims-count --> b', line)).to.equal(`a <!-- claims-count -->${line}<!-- /claims-count --> b`);
    expect(() => withClaimsCount('no markers', line)).to.throw(/no <!-- claims-count -->/);
  });
});
