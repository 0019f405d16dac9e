import { expect } from 'chai';
import { Worker } from 'worker_threads';
import * as path from 'path';
import { fromPortable, isPortableRef, portable } from '../../src/util/portable';
import { InputError } from '../../src/util/errors';

const policy = {
  name: 'widest-first',
  depth: 3,
  weights: [1, 2, { w: 4 }],
  score(job: { procs: number }) {
    return -job.procs;
  },
  pick: (xs: number[]) => xs.filter((x) => x > 1),
  old: function (a: number, b: number) {
    return a * b;
  },
  async later(x: number) {
    return x + 1;
  },
  nested: { tie: (a: number, b: number) => a - b },
};

describe('portable policies (notebook cells to worker threads)', () => {
  it('rebuilds data and every kind of function after a JSON round trip', async () => {
    const ref = JSON.parse(JSON.stringify(portable(policy)));
    expect(isPortableRef(ref)).to.equal(true);
    const p = fromPortable(ref) as typeof policy;
    expect(p.name).to.equal('widest-first');
    expect(p.depth).to.equal(3);
    expect(p.weights).to.deep.equal([1, 2, { w: 4 }]);
    expect(p.score({ procs: 7 })).to.equal(-7);
    expect(p.pick([0, 2, 3])).to.deep.equal([2, 3]);
    expect(p.old(6, 7)).to.equal(42);
    expect(await p.later(1)).to.equal(2);
    expect(p.nested.tie(5, 2)).to.equal(3);
    expect(fromPortable(ref), 'rebuilt once per thread').to.equal(p);
  });

  it('runs in a worker thread, where require reaches the toolkit', async () => {
    const ref = portable({ f: (x: number) => require('path').basename(`/a/b${x}`) });
    const code = `
      require(${JSON.stringify(path.resolve(__dirname, '../support/ts-register.js'))});
      const { parentPort, workerData } = require('worker_threads');
      const { fromPortable } = require(${JSON.stringify(path.resolve(__dirname, '../../src/util/portable.ts'))});
      parentPort.postMessage(fromPortable(workerData).f(9));`;
    const out = await new Promise((resolve, reject) => {
      const w = new Worker(code, { eval: true, workerData: ref });
      w.on('message', resolve);
      w.on('error', reject);
    });
    expect(out).to.equal('b9');
  });

  it('a variable captured from the defining cell is a ReferenceError where the policy runs', () => {
    const captured = 5;
    const p = fromPortable(portable({ f: (x: number) => x + captured })) as { f: (x: number) => number };
    expect(() => p.f(1)).to.throw(ReferenceError, /captured/);
  });

  it('refuses what cannot travel, naming the field', () => {
    class C {}
    const cases: [unknown, RegExp][] = [
      [{ k: C }, /policy\.k: classes/],
      [{ k: Math.max }, /policy\.k: native or bound/],
      [{ k: ((x: number) => x).bind(null) }, /native or bound/],
      [{ k: Symbol('s') }, /policy\.k: a symbol/],
      [{ k: NaN }, /policy\.k: NaN is not JSON/],
      [{ get k() { return 1; } }, /policy\.k: getters/],
      [{ k: new Date(0) }, /only plain objects/],
    ];
    for (const [value, message] of cases) {
      expect(() => portable(value)).to.throw(InputError, message);
    }
  });
});
