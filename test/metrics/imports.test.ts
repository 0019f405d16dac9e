import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';

describe('metrics: dependencies point down', () => {
  it('no module of src/metrics imports from src/schedulers or src/sweep', () => {
    const dir = path.resolve(__dirname, '../../src/metrics');
    const bad: string[] = [];
    for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      for (const m of fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/\bfrom\s+'([^']+)'/g)) {
        if (/^\.\.\/(schedulers|sweep)\b/.test(m[1])) bad.push(`${f}: ${m[1]}`);
      }
    }
    expect(bad).to.deep.equal([]);
  });
});
