import { expect } from 'chai';
import {
  allAlgorithmNames,
  formatAlgorithm,
  parseAlgorithm,
  TABLE1_COMBINATIONS,
  TABLE2_DFRS_ALGORITHMS,
} from '../../src/schedulers/dfrs/names';
import { PUBLISHED_TABLE2, PUBLISHED_TABLE3, PUBLISHED_TABLE4, PUBLISHED_TABLE5_HPC2N } from '../../src/schedulers/dfrs/published';

describe('dfrs algorithm names', () => {
  it('parses the 14 Table 1 combinations into the paper\'s actions', () => {
    const expected: Record<string, [string, string, string]> = {
      'Greedy *': ['Greedy', 'Greedy', 'none'],
      'GreedyP *': ['GreedyP', 'Greedy', 'none'],
      'GreedyPM *': ['GreedyPM', 'Greedy', 'none'],
      'Greedy/per': ['Greedy', 'none', 'MCB8'],
      'GreedyP/per': ['GreedyP', 'none', 'MCB8'],
      'GreedyPM/per': ['GreedyPM', 'none', 'MCB8'],
      'Greedy */per': ['Greedy', 'Greedy', 'MCB8'],
      'GreedyP */per': ['GreedyP', 'Greedy', 'MCB8'],
      'GreedyPM */per': ['GreedyPM', 'Greedy', 'MCB8'],
      'MCB8 *': ['MCB8', 'MCB8', 'none'],
      'MCB8/per': ['MCB8', 'none', 'MCB8'],
      'MCB8 */per': ['MCB8', 'MCB8', 'MCB8'],
      '/per': ['none', 'none', 'MCB8'],
      '/stretch-per': ['none', 'none', 'MCB8-stretch'],
    };
    expect(TABLE1_COMBINATIONS).to.have.length(14);
    for (const name of TABLE1_COMBINATIONS) {
      const a = parseAlgorithm(name);
      expect([a.onSubmit, a.onCompletion, a.periodic], name).to.deep.equal(expected[name]);
    }
  });

  it('round-trips all 116 appendix names and the 18 Table 2 names', () => {
    const all = allAlgorithmNames();
    expect(all).to.have.length(116);
    expect(new Set(all).size).to.equal(116);
    for (const name of [...all, ...TABLE2_DFRS_ALGORITHMS]) {
      const a = parseAlgorithm(name);
      expect(a.name).to.equal(name);
      expect(formatAlgorithm(a)).to.equal(name);
    }
    for (const name of TABLE2_DFRS_ALGORITHMS) expect(all).to.include(name);
  });

  it('reads parameters and accepts spacing variants', () => {
    const a = parseAlgorithm('GreedyPM*/per/opt=avg/minft=300/period=1200');
    expect(a).to.include({ onSubmit: 'GreedyPM', onCompletion: 'Greedy', periodic: 'MCB8', opt: 'avg', period: 1200 });
    expect(a.limit).to.deep.equal({ kind: 'minft', seconds: 300 });
    expect(a.name).to.equal('GreedyPM */per/opt=avg/minft=300/period=1200');
    expect(parseAlgorithm('stretch-per/opt=max').name).to.equal('/stretch-per/opt=max');
    expect(parseAlgorithm('/per').opt).to.equal('min');
    expect(parseAlgorithm('/stretch-per').opt).to.equal('max');
  });

  it('rejects bad names with an error naming the bad token', () => {
    const bad: [string, RegExp][] = [
      ['GreedyX */per', /"GreedyX"/],
      ['/per/opt=mid', /"opt=mid"/],
      ['/per/foo', /"foo"/],
      ['/per/speed=3', /"speed=3"/],
      ['Greedy', /"Greedy" alone/],
      ['MCB8', /"MCB8" alone/],
      ['', /no action/],
      ['*/per', /'\*'/],
      ['Greedy */opt=min/minvt=600', /minvt=600/],
      ['/stretch-per/opt=min', /opt=min/],
      ['/per/opt=max', /opt=max/],
      ['GreedyP */stretch-per', /stretch-per/],
      ['MCB8 */per/minvt=600/minft=300', /"minft=300"/],
      ['/per/minvt=abc', /"minvt=abc"/],
      ['/per/minvt=-5', /"minvt=-5"/],
      ['Greedy */period=900', /period=900/],
      ['/opt=min/per', /"per" must be the second part/],
    ];
    for (const [name, re] of bad) expect(() => parseAlgorithm(name), name).to.throw(re);
  });

  it('published reference tables use names this parser accepts and cover the paper\'s rows', () => {
    const canonical = (n: string) => (n === 'FCFS' || n === 'EASY' ? n : parseAlgorithm(n).name);
    for (const t of [PUBLISHED_TABLE2, PUBLISHED_TABLE3, PUBLISHED_TABLE4, PUBLISHED_TABLE5_HPC2N]) {
      for (const n of Object.keys(t)) expect(canonical(n), n).to.equal(n);
    }
    expect(Object.keys(PUBLISHED_TABLE2)).to.deep.equal(['FCFS', 'EASY', ...TABLE2_DFRS_ALGORITHMS]);
    expect(Object.keys(PUBLISHED_TABLE3)).to.have.length(19);
    expect(new Set(Object.keys(PUBLISHED_TABLE5_HPC2N))).to.deep.equal(new Set(['FCFS', 'EASY', ...allAlgorithmNames()]));
    // Table 5 repeats Table 2's HPC2N column for the algorithms they share.
    for (const n of TABLE2_DFRS_ALGORITHMS) expect(PUBLISHED_TABLE5_HPC2N[n], n).to.deep.equal(PUBLISHED_TABLE2[n].hpc2n);
  });
});
