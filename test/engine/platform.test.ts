import { expect } from 'chai';
import { Platform } from '../../src/engine/platform';

describe('Platform', () => {
  it('places tasks with fractional CPU and memory, refusing overload', () => {
    const p = new Platform(2, { cpu: 1, memory: 1 });
    p.place({ job: 1, task: 0 }, 0, { cpu: 0.5, memory: 0.4 });
    p.place({ job: 2, task: 0 }, 0, { cpu: 0.5, memory: 0.4 });
    expect(p.freeCpu(0)).to.be.closeTo(0, 1e-12);
    expect(p.freeMemory(0)).to.be.closeTo(0.2, 1e-12);
    expect(() => p.place({ job: 3, task: 0 }, 0, { cpu: 0.1, memory: 0.1 })).to.throw(/does not fit on node 0/);
    expect(() => p.place({ job: 1, task: 0 }, 1, { cpu: 0.1, memory: 0.1 })).to.throw(/already placed/);
    expect(() => p.place({ job: 4, task: 0 }, 5, { cpu: 0.1, memory: 0.1 })).to.throw(/node 5 does not exist/);
    p.validate();
  });

  it('changes CPU shares (yield) and migrates tasks', () => {
    const p = new Platform(2);
    p.place({ job: 'a', task: 0 }, 0, { cpu: 0.3, memory: 0.5 });
    p.place({ job: 'a', task: 1 }, 1, { cpu: 0.3, memory: 0.5 });
    p.place({ job: 'b', task: 0 }, 0, { cpu: 0.3, memory: 0.5 });
    p.setCpu({ job: 'a', task: 0 }, 0.7);
    expect(p.cpuLoad(0)).to.be.closeTo(1, 1e-12);
    expect(() => p.setCpu({ job: 'b', task: 0 }, 0.4)).to.throw(/exceeds node 0/);
    p.move({ job: 'b', task: 0 }, 1); // 0.3+0.3 CPU and 0.5+0.5 memory fit
    expect(p.cpuLoad(0)).to.be.closeTo(0.7, 1e-12);
    expect(p.memoryLoad(1)).to.be.closeTo(1, 1e-12);
    p.validate();
  });

  it('move checks the destination; remove and removeJob free resources', () => {
    const p = new Platform(3);
    p.place({ job: 1, task: 0 }, 0, { cpu: 1, memory: 0.6 });
    p.place({ job: 1, task: 1 }, 1, { cpu: 1, memory: 0.6 });
    p.place({ job: 2, task: 0 }, 2, { cpu: 0.5, memory: 0.5 });
    expect(() => p.move({ job: 2, task: 0 }, 0)).to.throw(/cannot move/);
    p.remove({ job: 1, task: 0 });
    p.move({ job: 2, task: 0 }, 0);
    expect(p.tasksOn(0).map((t) => t.ref.job)).to.deep.equal([2]);
    expect(p.idleNodes()).to.deep.equal([2]);
    expect(p.removeJob(1).map((t) => t.node)).to.deep.equal([1]);
    expect(p.taskCount).to.equal(1);
    expect(p.tasksOf(2)[0].node).to.equal(0);
    p.validate();
  });
});
