import { expect } from 'chai';
import { Simulation } from '../../src/engine/events';
import { ProgressTracker } from '../../src/engine/progress';

describe('ProgressTracker', () => {
  it('integrates a changing rate and predicts completion', () => {
    const t = new ProgressTracker();
    t.add('j', 100, { now: 0, rate: 1 });
    expect(t.remaining('j', 10)).to.equal(90);
    t.setRate('j', 0.5, 10);
    expect(t.predictedCompletion('j', 10)).to.equal(10 + 90 / 0.5);
    t.pause('j', 30); // done 10 + 10 = 20
    expect(t.done('j', 50)).to.equal(20);
    expect(t.predictedCompletion('j', 50)).to.equal(Infinity);
    t.setRate('j', 1, 50);
    expect(t.predictedCompletion('j', 50)).to.equal(130);
  });

  it('a rescheduling penalty stops progress for its duration', () => {
    const t = new ProgressTracker();
    t.add(1, 100, { now: 0, rate: 1 });
    t.penalize(1, 300, 40); // done 40 at t=40, then nothing until 340
    expect(t.done(1, 200)).to.equal(40);
    expect(t.predictedCompletion(1, 200)).to.equal(340 + 60);
    expect(t.done(1, 350)).to.equal(50);
  });

  it('with a Simulation, fires completion at the right time after rate changes', () => {
    const sim = new Simulation();
    const finished: [number | string, number][] = [];
    const t = new ProgressTracker({ sim, onComplete: (j, time) => finished.push([j, time]) });
    t.add('a', 100, { rate: 1 });
    t.add('b', 50, { rate: 0.25 });
    sim.at(20, () => t.setRate('a', 0.5)); // a: 20 done, 80 left at 0.5 => ends 180
    sim.at(40, () => t.setRate('b', 1)); // b: 10 done, 40 left => ends 80
    sim.run();
    expect(finished).to.deep.equal([
      ['b', 80],
      ['a', 180],
    ]);
    expect(t.has('a')).to.equal(false);
  });

  it('rejects bad input', () => {
    const t = new ProgressTracker();
    expect(() => t.add('x', -1, { now: 0 })).to.throw(/work/);
    t.add('x', 1, { now: 5 });
    expect(() => t.setRate('x', -2, 6)).to.throw(/rate/);
    expect(() => t.setRate('x', 1, 4)).to.throw(/backwards/);
    expect(() => t.remaining('nope', 1)).to.throw(/unknown job nope/);
    expect(() => t.remaining('x')).to.throw(/pass `now`/);
  });
});
