/**
 * Readings of "offered load" (offeredLoadAs) and Figure 1's breakdown load
 * read on each reading's axis (src/schedulers/dfrs/load.ts).
 */
import { expect } from 'chai';
import { breakdownLoad, breakdownUnderDefinitions, relabelScaledLoads } from '../../src/schedulers/dfrs/load';
import { DfrsJob, OFFERED_LOAD_DEFINITIONS, offeredLoad, offeredLoadAs, offeredLoadName, scaleToLoad } from '../../src/workloads/dfrs';

// 10 nodes. Job 1: 4 tasks of need 1, memory 0.5, 100 s at 0. Job 2: one sequential task (need 0.25), memory 0.1, 400 s at 100.
const two: DfrsJob[] = [
  { id: 1, submit: 0, tasks: 4, cpuNeed: 1, mem: 0.5, runtime: 100 },
  { id: 2, submit: 100, tasks: 1, cpuNeed: 0.25, mem: 0.1, runtime: 400 },
];

describe('dfrs offered load: readings of the formula', () => {
  it('work per task-second (CPU need, whole node, memory, the larger of both) over the submission or the completion span', () => {
    const at = (work: string, span: string) => offeredLoadAs(two, 10, { work, span } as never);
    // submissions: span 100 s; completions at full speed: 500 - 0 = 500 s
    expect(at('cpu', 'submissions')).to.be.closeTo((400 + 100) / 1000, 1e-12);
    expect(at('tasks', 'submissions')).to.be.closeTo((400 + 400) / 1000, 1e-12);
    expect(at('memory', 'submissions')).to.be.closeTo((200 + 40) / 1000, 1e-12);
    expect(at('dominant', 'submissions')).to.be.closeTo((400 + 100) / 1000, 1e-12);
    expect(at('cpu', 'completions')).to.be.closeTo(500 / 5000, 1e-12);
    expect(offeredLoad(two, 10)).to.equal(at('cpu', 'submissions'));
    expect(OFFERED_LOAD_DEFINITIONS.map(offeredLoadName)).to.include.members(['cpu / submissions', 'memory / completions']).and.have.length(8);
    expect(() => at('cores', 'submissions')).to.throw(/unknown definition/);
    expect(() => offeredLoadAs(two.slice(0, 1), 10, OFFERED_LOAD_DEFINITIONS[0])).to.throw(/at least 2 jobs/);
  });

  it('relabelScaledLoads measures each base trace scaled as the sweep scales it', () => {
    const base: DfrsJob[] = [...two, { id: 3, submit: 300, tasks: 2, cpuNeed: 1, mem: 0.2, runtime: 50 }];
    const rows = relabelScaledLoads([base], [0.2, 0.4], 10);
    const cpu = rows.filter((r) => r.definition === 'cpu / submissions');
    expect(cpu.map((r) => r.offered_load)).to.have.length(2);
    expect(cpu[0].offered_load).to.be.closeTo(0.2, 1e-12);
    const mem = rows.find((r) => r.definition === 'memory / submissions' && r.load === 0.4)!;
    expect(mem.offered_load).to.be.closeTo(offeredLoadAs(scaleToLoad(base, 0.4, 10), 10, { work: 'memory', span: 'submissions' }), 1e-12);
    // memory work 200 + 40 + 20 against CPU work 400 + 100 + 100
    expect(mem.offered_load / 0.4).to.be.closeTo(260 / 600, 1e-12);
    expect(() => relabelScaledLoads([], [0.2], 10)).to.throw(/no base trace/);
  });

  it('breakdownLoad: the last load before a run, to the highest load, where the algorithm is worse than most others', () => {
    const pt = (algorithm: string, load: number, degradation: number) => ({ algorithm, load, degradation });
    const points = [
      pt('X', 0.1, 1), pt('A', 0.1, 2), pt('B', 0.1, 3),
      pt('X', 0.2, 5), pt('A', 0.2, 2), pt('B', 0.2, 3), // worse than both, but not to the end
      pt('X', 0.3, 2), pt('A', 0.3, 2), pt('B', 0.3, 3), // a tie is not worse
      pt('X', 0.4, 9), pt('A', 0.4, 2), pt('B', 0.4, 3),
      pt('X', 0.5, 9), pt('A', 0.5, 2), pt('B', 0.5, 3),
    ];
    expect(breakdownLoad(points, 'X')).to.deep.equal({ lastGood: 0.3, firstBad: 0.4 });
    expect(breakdownLoad(points, 'A')).to.deep.equal({ lastGood: 0.5, firstBad: NaN });
    expect(breakdownLoad(points.filter((p) => p.load >= 0.4), 'X')).to.deep.equal({ lastGood: NaN, firstBad: 0.4 });
    expect(() => breakdownLoad(points, 'Z')).to.throw(/no point of 'Z'/);
  });

  it('breakdownUnderDefinitions reads the breakdown on each axis and says where the published load falls', () => {
    const relabelled = [
      { definition: 'ours', load: 0.5, offered_load: 0.5, min: 0.5, max: 0.5 },
      { definition: 'ours', load: 0.6, offered_load: 0.6, min: 0.6, max: 0.6 },
      { definition: 'half', load: 0.5, offered_load: 0.25, min: 0.2, max: 0.3 },
      { definition: 'half', load: 0.6, offered_load: 0.3, min: 0.25, max: 0.35 },
    ];
    const rows = breakdownUnderDefinitions({ lastGood: 0.5, firstBad: 0.6 }, relabelled, 0.3);
    expect(rows.map((r) => [r.definition, r.ratio_to_ours, r.breaks_down_above, r.worse_than_most_from, r.matches_published])).to.deep.equal([
      ['ours', 1, 0.5, 0.6, false],
      ['half', 0.5, 0.25, 0.3, false],
    ]);
    expect(breakdownUnderDefinitions({ lastGood: 0.5, firstBad: 0.6 }, relabelled, 0.29)[1].matches_published).to.equal(true);
  });
});
