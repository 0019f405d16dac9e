import { expect } from 'chai';
import { runDfrsCell } from '../../src/schedulers/dfrs/experiment';
import { simulateDfrs } from '../../src/schedulers/dfrs/simulator';
import type { DfrsJob } from '../../src/workloads/dfrs';

/**
 * Issue 25's switches (off by default), on the situation that holds the
 * synthetic maxima: a short job paused seconds after its start by an arriving
 * one, resumed later with the 300 s penalty. One node; job 1 runs 20 s, job 2
 * (100 s) arrives at 10 s and does not fit beside it (memory 0.6 each).
 */
const jobs: DfrsJob[] = [
  { id: 1, submit: 0, runtime: 20, tasks: 1, cpuNeed: 1, mem: 0.6 },
  { id: 2, submit: 10, runtime: 100, tasks: 1, cpuNeed: 1, mem: 0.6 },
];
const completion = (res: ReturnType<typeof simulateDfrs>, id: number) => res.jobs.find((j) => j.id === id)!.completion;

describe('DFRS maxima switches (issue 25)', () => {
  it('by default the paused short job pays the full penalty at its resume (GreedyP pauses it, Greedy * resumes it when job 2 completes)', () => {
    const res = simulateDfrs(jobs, { nodes: 1, algorithm: 'GreedyP */opt=min' });
    expect(res.jobs.find((j) => j.id === 1)!.preemptions).to.equal(1);
    expect(completion(res, 2)).to.be.closeTo(110, 1e-9);
    expect(completion(res, 1)).to.be.closeTo(110 + 300 + 10, 1e-9);
  });

  it('penaltyMinAge: a job resumed with less virtual time than it pays no penalty; one with more still does', () => {
    const young = simulateDfrs(jobs, { nodes: 1, algorithm: 'GreedyP */opt=min', penaltyMinAge: 600 });
    expect(completion(young, 1)).to.be.closeTo(120, 1e-9);
    expect(young.jobs.find((j) => j.id === 1)!.penaltySeconds).to.equal(0);
    // 10 s of virtual time at the pause: a 5 s age does not exempt it.
    const old = simulateDfrs(jobs, { nodes: 1, algorithm: 'GreedyP */opt=min', penaltyMinAge: 5 });
    expect(completion(old, 1)).to.be.closeTo(420, 1e-9);
  });

  it('penaltyMinAge must be a finite number >= 0', () => {
    expect(() => simulateDfrs(jobs, { nodes: 1, algorithm: 'GreedyP */opt=min', penaltyMinAge: -1 })).to.throw(/penaltyMinAge/);
  });

  it("limitProtects 'preemption': GreedyP does not pause a running job under the name's minvt for an arriving one (which waits)", () => {
    const name = 'GreedyP */per/opt=min/minvt=600';
    const paper = simulateDfrs(jobs, { nodes: 1, algorithm: name });
    expect(paper.jobs.find((j) => j.id === 1)!.preemptions, 'the paper: young jobs may be paused').to.equal(1);
    const kept = simulateDfrs(jobs, { nodes: 1, algorithm: name, limitProtects: 'preemption' });
    expect(kept.jobs.find((j) => j.id === 1)!.preemptions).to.equal(0);
    expect(completion(kept, 1)).to.be.closeTo(20, 1e-9);
    expect(completion(kept, 2)).to.be.closeTo(120, 1e-9);
    // Without minvt in the name nothing is protected.
    const noLimit = simulateDfrs(jobs, { nodes: 1, algorithm: 'GreedyP */per/opt=min', limitProtects: 'preemption' });
    expect(noLimit.jobs.find((j) => j.id === 1)!.preemptions).to.equal(1);
  });

  it('stretchThreshold: the maximum stretch and the bound of a cell use the given threshold', () => {
    const paper = runDfrsCell({ jobs, nodes: 1, algorithm: 'GreedyP */opt=min' });
    expect(paper.max_stretch).to.be.closeTo(420 / 20, 1e-9);
    const sixty = runDfrsCell({ jobs, nodes: 1, algorithm: 'GreedyP */opt=min', stretchThreshold: 60 });
    expect(sixty.max_stretch).to.be.closeTo(420 / 60, 1e-9);
    expect(sixty.degradation).to.be.closeTo(sixty.max_stretch / sixty.bound, 1e-12);
    // A larger threshold only loosens the deadlines of Theorem 1's system.
    expect(sixty.bound).to.be.at.most(paper.bound);
    expect(sixty.bound).to.be.at.least(1);
  });
});
