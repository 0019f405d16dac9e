import { expect } from 'chai';
import { memoizeByArray } from '../../src/util/memo';

describe('util/memo: memoizeByArray', () => {
  it('computes once per array, again for another array or a grown one', () => {
    let calls = 0;
    const sum = memoizeByArray((xs: readonly number[]) => (calls++, xs.reduce((a, b) => a + b, 0)));
    const a = [1, 2, 3];
    expect(sum(a)).to.equal(6);
    expect(sum(a)).to.equal(6);
    expect(calls).to.equal(1);
    expect(sum([1, 2, 3])).to.equal(6); // equal contents, another array
    expect(calls).to.equal(2);
    a.push(4);
    expect(sum(a)).to.equal(10);
    expect(calls).to.equal(3);
    a.pop();
    expect(sum(a)).to.equal(6);
    expect(calls).to.equal(4);
  });

  it('keeps one result per function: two memoized functions never share', () => {
    const xs = [5];
    const twice = memoizeByArray((v: readonly number[]) => v[0] * 2);
    const thrice = memoizeByArray((v: readonly number[]) => v[0] * 3);
    expect([twice(xs), thrice(xs), twice(xs)]).to.deep.equal([10, 15, 10]);
  });
});
