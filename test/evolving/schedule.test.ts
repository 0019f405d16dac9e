import { expect } from 'chai';
import * as fc from 'fast-check';
import {
  EvolvingApp, scheduleByName, scheduleRigid, scheduleRigidEarliestFit, scheduleVariant, EVOLVING_ALGORITHMS, EVOLVING_VARIANTS,
  isScheduledVersionOf, delay, sumAll, maxOver, totalDuration, peakNodes, valueAt, EvolutionProfile,
  systemMetrics, appMetrics, evolvingCell, EvolvingExperimentResult, evolvingSystemTable, evolvingUserTable,
  generateEvolvingTest, evolvingTestCase,
} from '../../src/schedulers/evolving';
import { createRng } from '../../src/util/random';

const arbApps = (maxNodes: number) =>
  fc
    .array(
      fc.array(fc.record({ duration: fc.integer({ min: 1, max: 6 }), nodes: fc.integer({ min: 1, max: maxNodes }) }), { minLength: 1, maxLength: 5 }),
      { minLength: 1, maxLength: 7 },
    )
    .map((profiles) => profiles.map((profile, id) => ({ id, profile })) as EvolvingApp[]);

const arbInstance = fc.integer({ min: 1, max: 10 }).chain((nodes) => fc.record({ nodes: fc.constant(nodes), apps: arbApps(nodes), algorithm: fc.constantFrom(...EVOLVING_ALGORITHMS) }));

describe('evolving/list: Algorithm 1, rigid baseline, metrics', () => {
  it('property: every scheduled EP is the requested one, delayed and expanded within the limit; the cluster is never exceeded', () => {
    fc.assert(
      fc.property(arbInstance, ({ nodes, apps, algorithm }) => {
        const s = scheduleByName(apps, nodes, algorithm);
        expect(s.apps.map((a) => a.id)).to.deep.equal(apps.map((a) => a.id));
        for (const a of s.apps) {
          expect(a.start).to.be.at.least(0);
          const req = apps[a.id].profile;
          if (algorithm === 'rigid') {
            expect(a.allocation).to.deep.equal([{ duration: totalDuration(req), nodes: peakNodes(req) }]);
          } else {
            const limit = EVOLVING_VARIANTS[algorithm].expandLimit;
            expect(isScheduledVersionOf(delay(a.allocation, a.start), req, limit)).to.equal(true);
          }
          expect(a.completion).to.equal(a.start + totalDuration(a.allocation));
        }
        const total = sumAll(s.apps.map((a) => delay(a.allocation, a.start)));
        expect(maxOver(total, 0, totalDuration(total) + 1)).to.be.at.most(nodes);
        expect(s.resource).to.deep.equal(total);
      }),
      { numRuns: 250 },
    );
  });

  it('property: rigid equals conservative backfilling by brute force (earliest integer start that fits, in queue order)', () => {
    fc.assert(
      fc.property(arbInstance, ({ nodes, apps }) => {
        const s = scheduleRigid(apps, nodes);
        const busy: EvolutionProfile[] = [];
        apps.forEach((app, k) => {
          const d = totalDuration(app.profile);
          const n = peakNodes(app.profile);
          const used = sumAll(busy);
          let t = 0;
          while (maxOver(used, t, t + d) + n > nodes) t++;
          expect(s.apps[k].start).to.equal(t);
          busy.push(delay([{ duration: d, nodes: n }], t));
        });
      }),
      { numRuns: 150 },
    );
  });

  it('property: rigid through the batch simulator (CBF) equals the earliest-fit reduction', () => {
    fc.assert(
      fc.property(arbInstance, ({ nodes, apps }) => {
        const a = scheduleRigid(apps, nodes);
        const b = scheduleRigidEarliestFit(apps, nodes);
        expect(a.apps).to.deep.equal(b.apps);
        expect(a.resource).to.deep.equal(b.resource);
      }),
      { numRuns: 150 },
    );
    for (let t = 0; t < 3; t++) {
      const apps = evolvingTestCase('rigid-check', t);
      expect(scheduleRigid(apps, 75).apps).to.deep.equal(scheduleRigidEarliestFit(apps, 75).apps);
    }
  });

  it('hand-worked schedule and metrics: two applications on 4 nodes', () => {
    // A: (2 s, 1 node), (2 s, 3 nodes). B: (3 s, 2 nodes).
    const apps: EvolvingApp[] = [
      { id: 0, profile: [{ duration: 2, nodes: 1 }, { duration: 2, nodes: 3 }] },
      { id: 1, profile: [{ duration: 3, nodes: 2 }] },
    ];
    // Evolving (noX): A at 0; B fits on [0, 2) but not [2, 4) (3 + 2 > 4), so B starts at 4.
    const ev = scheduleVariant(apps, 4, 'noX');
    expect(ev.apps.map((a) => a.start)).to.deep.equal([0, 4]);
    const sm = systemMetrics(ev, 1.5);
    expect(sm.makespan).to.equal(7);
    expect(sm.resourceWaste).to.equal(0);
    expect(sm.resourceUtilization).to.be.closeTo((2 + 6 + 6) / (4 * 7), 1e-12);
    expect(sm.effectiveUtilization).to.equal(sm.resourceUtilization);
    expect(sm.schedulingTime).to.equal(1.5);
    // Rigid: A is 3 nodes × 4 s, B 2 nodes × 3 s: B cannot run beside A (3 + 2 > 4): starts at 4.
    const rg = scheduleRigid(apps, 4);
    expect(rg.apps.map((a) => a.start)).to.deep.equal([0, 4]);
    const rm = systemMetrics(rg);
    expect(rm.resourceWaste).to.equal(12 - 8);
    expect(rm.wasteFraction).to.be.closeTo(4 / 18, 1e-12);
    expect(rm.resourceUtilization).to.be.closeTo(18 / 28, 1e-12);
    expect(rm.effectiveUtilization).to.be.closeTo(14 / 28, 1e-12);
    const um = appMetrics(rg);
    expect(um.map((m) => m.waste)).to.deep.equal([4, 0]);
    expect(um.map((m) => m.completionTime)).to.deep.equal([4, 7]);
    expect(um.map((m) => m.waitingTime)).to.deep.equal([0, 4]);
    expect(um.map((m) => m.expandedSteps)).to.deep.equal([0, 0]);
  });

  it('user metrics count expanded steps and the expansion ratio', () => {
    // On 10 nodes with a first application holding 5 nodes on [2, 6), the second
    // application (2 s, 8), (2 s, 2), (2 s, 8) gets its middle step expanded ×2 under 2X.
    const apps: EvolvingApp[] = [
      { id: 0, profile: [{ duration: 2, nodes: 0 }, { duration: 4, nodes: 5 }] },
      { id: 1, profile: [{ duration: 2, nodes: 8 }, { duration: 2, nodes: 2 }, { duration: 2, nodes: 8 }] },
    ];
    const s = scheduleVariant(apps, 10, '2X');
    const m = appMetrics(s)[1];
    expect(s.apps[1].allocation.map((x) => x.duration)).to.deep.equal([2, 4, 2]);
    expect(m.expandedSteps).to.equal(1);
    expect(m.maxStepExpansion).to.equal(2);
    expect(m.expansion).to.be.closeTo(8 / 6 - 1, 1e-12);
    expect(m.waste).to.equal(4);
  });

  it('test cases follow the ranges and are reproducible from the seed', () => {
    const a = evolvingTestCase('s', 3);
    expect(evolvingTestCase('s', 3)).to.deep.equal(a);
    expect(evolvingTestCase('s', 4)).to.not.deep.equal(a);
    const rng = createRng(11);
    for (let k = 0; k < 50; k++) {
      const t = generateEvolvingTest(rng);
      expect(t.length).to.be.within(15, 20);
      for (const app of t) {
        expect(app.profile.length).to.be.within(1, 10);
        for (const st of app.profile) {
          expect(st.duration).to.be.within(500, 3600);
          expect(st.nodes).to.be.within(1, 75);
          expect(Number.isInteger(st.duration) && Number.isInteger(st.nodes)).to.equal(true);
        }
      }
    }
    expect(() => generateEvolvingTest(rng, { steps: [3, 2] })).to.throw(/steps/);
  });

  it('experiment: deterministic apart from scheduling time; tables have one row per algorithm', () => {
    const run = (): EvolvingExperimentResult => {
      const cells = [0, 1].flatMap((test) => EVOLVING_ALGORITHMS.map((algorithm) => evolvingCell({ masterSeed: '9', clusterNodes: 75, test, algorithm })));
      return { clusterNodes: 75, tests: 2, system: cells.map((c) => c.system), apps: cells.flatMap((c) => c.apps) };
    };
    const strip = (r: EvolvingExperimentResult) => r.system.map(({ schedulingTime, ...rest }) => rest);
    const a = run();
    const b = run();
    expect(strip(a)).to.deep.equal(strip(b));
    expect(a.apps).to.deep.equal(b.apps);
    expect(a.system.length).to.equal(2 * EVOLVING_ALGORITHMS.length);
    const t1 = evolvingSystemTable(a);
    const t2 = evolvingUserTable(a);
    expect(t1.map((r) => r.algorithm)).to.deep.equal([...EVOLVING_ALGORITHMS]);
    expect(t2.map((r) => r.algorithm)).to.deep.equal([...EVOLVING_ALGORITHMS]);
    for (const r of t1) expect(r.makespan_max as number).to.be.at.least(r.makespan_avg as number);
    // Rigid holds every application's peak for its whole run: it never wastes less than noX (which wastes nothing).
    const noX = t1.find((r) => r.algorithm === 'noX')!;
    expect(noX.resourceWaste_max).to.equal(0);
    expect(() => evolvingCell({ masterSeed: '9', clusterNodes: 10, test: 0, algorithm: '2X' })).to.throw(/the cluster has 10/);
  });

  it('value of the resource EP at a time is the sum of the applications running then', () => {
    const apps = evolvingTestCase('v', 0);
    const s = scheduleVariant(apps, 75, 'infX+c');
    for (const t of [0, 1000, 5000, 20000]) {
      const direct = s.apps.reduce((acc, a) => acc + valueAt(delay(a.allocation, a.start), t), 0);
      expect(valueAt(s.resource, t)).to.equal(direct);
    }
  });
});
