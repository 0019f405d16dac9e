import { expect } from 'chai';
import { TextBlock } from '../../src/util/text-block';
import { createRng } from '../../src/util/random';

describe('TextBlock (per-job files written as bytes)', () => {
  it('writes every number exactly as String(x) does: whole numbers around the 32-bit limits, -0, fractions, huge, tiny, infinite and NaN', () => {
    const xs = [0, -0, 1, -1, 9, 10, 99, 100, 123456789, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1e21, 0.1, 1 / 3, -2.5, 1e-7, 5e-324, Infinity, -Infinity, NaN];
    const rng = createRng(7);
    for (let k = 0; k < 2000; k++) xs.push(rng.int(-1e9, 1e9), rng.int(0, 1e6) / rng.int(1, 1e4));
    const out = new TextBlock(64);
    let want = '';
    let got = '';
    for (const x of xs) {
      out.num(x).char(44);
      want += `${x},`;
      if (out.full) got += out.take();
    }
    got += out.take();
    expect(got).to.equal(want);
  });

  it('keeps text longer than a block whole (the block grows) and starts empty after take', () => {
    const out = new TextBlock(16);
    const long = 'x'.repeat(5000);
    expect(out.text('a').text(long).num(12).take()).to.equal(`a${long}12`);
    expect(out.full).to.equal(false);
    expect(out.take()).to.equal('');
  });
});
