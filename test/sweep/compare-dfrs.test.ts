import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { compareDfrsPolicies, dfrsComparisonSweep } from '../../src/sweep/compare';
import { portable } from '../../src/util/portable';
import { InputError } from '../../src/util/errors';
import type { DfrsDecisionView, DfrsPolicy } from '../../src/schedulers/dfrs/policy';

/** "Greedy *" written inline (everything inside map, so it can travel as source to the workers). */
const inlineGreedy: DfrsPolicy = {
  name: 'inline-greedy',
  map(view: DfrsDecisionView) {
    const EPS = 1e-9;
    const { mem, load } = view.usage;
    const next = new Map<number, number[]>();
    for (const j of view.jobs) if (j.nodes) next.set(j.id, j.nodes);
    const todo = view.trigger === 'submission' ? [view.submitted!] : view.jobs.filter((j) => !j.nodes);
    let changed = false;
    for (const j of todo) {
      let room = 0;
      for (let i = 0; i < mem.length && room < j.tasks; i++) if (1 - mem[i] + EPS >= j.mem) room += Math.floor((1 - mem[i] + EPS) / j.mem);
      if (room < j.tasks) continue;
      const nodes: number[] = [];
      for (let k = 0; k < j.tasks; k++) {
        let best = -1;
        for (let i = 0; i < mem.length; i++) if (mem[i] + j.mem <= 1 + EPS && (best < 0 || load[i] < load[best])) best = i;
        nodes.push(best);
        mem[best] += j.mem;
        load[best] += j.cpuNeed;
      }
      next.set(j.id, nodes);
      changed = true;
    }
    return changed ? next : undefined;
  },
};

describe('compareDfrsPolicies: DFRS algorithms and user mappers over loads, on all cores', function () {
  this.timeout(300_000);
  let tmp: string;
  before(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-compare-dfrs-'))));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('a user mapper carried as source to the workers reproduces the built-in it copies, cell by cell', async () => {
    const rows = await compareDfrsPolicies({
      name: 'compare-dfrs-test',
      traces: 2,
      jobsPerTrace: 120,
      loads: [0.5, 0.9],
      algorithms: ['Greedy */opt=min', { label: 'inline-greedy', algorithm: 'Greedy */opt=min', policy: portable(inlineGreedy) }, 'EASY'],
    }, { out: path.join(tmp, 'd.jsonl'), workers: 2, progress: 'none', handleSigint: false });
    expect(rows.length).to.equal(2 * 2 * 3);
    const strip = ({ algorithm, ...rest }: Record<string, unknown>) => rest;
    const builtin = rows.filter((r) => r.algorithm === 'Greedy */opt=min');
    expect(rows.filter((r) => r.algorithm === 'inline-greedy').map(strip)).to.deep.equal(builtin.map(strip));
    for (const r of rows) expect(r.degradation, `${r.algorithm} trace ${r.trace} load ${r.load}`).to.be.at.least(1 - 1e-9);
    expect(rows.filter((r) => r.algorithm === 'EASY').map(strip)).to.not.deep.equal(builtin.map(strip));
  });

  it('names the bad option', () => {
    expect(() => dfrsComparisonSweep({ name: 'x', traces: 0, jobsPerTrace: 10, loads: [0.5], algorithms: ['EASY'] })).to.throw(InputError, /traces/);
  });
});
