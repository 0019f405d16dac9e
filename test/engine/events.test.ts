import { expect } from 'chai';
import { EventId, Simulation } from '../../src/engine/events';
import { createRng } from '../../src/util/random';

describe('Simulation (event core)', () => {
  it('runs events by time, then priority, then scheduling order', () => {
    const sim = new Simulation();
    const seen: string[] = [];
    const log = (_: Simulation, name: string) => seen.push(`${name}@${sim.now}`);
    sim.at(5, log, { priority: 1 }, 'c');
    sim.at(5, log, { priority: -1 }, 'a');
    sim.at(5, log, { priority: 1 }, 'd');
    sim.at(2, log, {}, 'first');
    sim.at(5, log, { priority: 0 }, 'b');
    sim.run();
    expect(seen).to.deep.equal(['first@2', 'a@5', 'b@5', 'c@5', 'd@5']);
    expect(sim.processed).to.equal(5);
    expect(sim.pending).to.equal(0);
  });

  it('passes each event its own argument (one handler for many events)', () => {
    const sim = new Simulation();
    const got: [number, number][] = [];
    const handler = (s: Simulation, job: number) => got.push([job, s.now]);
    for (const j of [3, 1, 2]) sim.at(10 * j, handler, {}, j);
    sim.after(5, handler, {}, 0);
    sim.run();
    expect(got).to.deep.equal([[0, 5], [1, 10], [2, 20], [3, 30]]);
  });

  it('cancels a pending event at once; a handle whose event ran or was cancelled is ignored', () => {
    const sim = new Simulation();
    const seen: number[] = [];
    const log = (_: Simulation, x: number) => seen.push(x);
    const a = sim.at(1, log, {}, 1);
    const b = sim.at(2, log, {}, 2);
    sim.at(3, log, {}, 3);
    sim.cancel(b);
    expect(sim.pending).to.equal(2);
    sim.run(1);
    expect(seen).to.deep.equal([1]);
    // a has run; its slot is reused by the next event, which a's stale handle must not cancel
    const c = sim.at(4, log, {}, 4);
    sim.cancel(a);
    sim.cancel(b);
    sim.cancel(undefined);
    sim.cancel(0);
    sim.cancel(-7);
    sim.cancel(1.5);
    expect(sim.pending).to.equal(2);
    sim.run();
    expect(seen).to.deep.equal([1, 3, 4]);
    sim.cancel(c); // already ran: nothing happens
    expect(sim.pending).to.equal(0);
  });

  it('handles are never 0 (callers may test them for truth)', () => {
    const sim = new Simulation();
    const ids: EventId[] = [];
    for (let k = 0; k < 5; k++) ids.push(sim.at(k, () => undefined));
    expect(ids.every((id) => id > 0)).to.equal(true);
    expect(new Set(ids).size).to.equal(5);
  });

  it('run(until) stops before later events and moves the clock to until', () => {
    const sim = new Simulation();
    const seen: number[] = [];
    sim.at(3, (s) => seen.push(s.now));
    sim.at(8, (s) => seen.push(s.now));
    sim.run(5);
    expect(seen).to.deep.equal([3]);
    expect(sim.now).to.equal(5);
    expect(sim.nextTime()).to.equal(8);
    sim.run(8); // events at `until` itself run
    expect(seen).to.deep.equal([3, 8]);
    expect(sim.nextTime()).to.equal(undefined);
  });

  it('stop() ends the run after the current event', () => {
    const sim = new Simulation();
    const seen: number[] = [];
    sim.at(1, (s) => {
      seen.push(1);
      s.stop();
    });
    sim.at(2, () => seen.push(2));
    sim.run();
    expect(seen).to.deep.equal([1]);
    sim.run();
    expect(seen).to.deep.equal([1, 2]);
  });

  it('rejects events in the past or at non-finite times, and names the next event when maxEvents is exceeded', () => {
    const sim = new Simulation({ startTime: 10, maxEvents: 3 });
    expect(() => sim.at(9, () => undefined)).to.throw(RangeError, /in the past/);
    expect(() => sim.at(NaN, () => undefined)).to.throw(RangeError, /finite/);
    expect(() => sim.at(Infinity, () => undefined)).to.throw(RangeError, /finite/);
    const tick = (s: Simulation) => s.after(1, tick, { kind: 'tick' });
    sim.at(10, tick, { kind: 'tick' });
    expect(() => sim.run()).to.throw(/exceeded 3 events at t=12 \(next: tick at t=13\)/);
  });

  it('agrees with a sorted-list reference under seeded random scheduling and cancelling', () => {
    // Reference: every event in a plain array, the next one found by a linear scan.
    for (const seed of [1, 2, 3]) {
      const rng = createRng(seed);
      const sim = new Simulation();
      type Ref = { time: number; prio: number; seq: number; label: number; live: boolean };
      const ref: Ref[] = [];
      const handles: [EventId, Ref][] = [];
      const got: string[] = [];
      const want: string[] = [];
      let seq = 0;
      let label = 0;
      const handler = (s: Simulation, x: number) => {
        got.push(`${x}@${s.now}`);
        // Handlers schedule and cancel too, as schedulers do.
        for (let k = rng.int(0, 2); k > 0; k--) add(s.now + rng.int(0, 5));
        if (handles.length > 0 && rng.bernoulli(0.3)) cancelOne();
      };
      const add = (time: number) => {
        const r: Ref = { time, prio: rng.int(-1, 1), seq: seq++, label: label++, live: true };
        ref.push(r);
        handles.push([sim.at(time, handler, { priority: r.prio }, r.label), r]);
      };
      const cancelOne = () => {
        const [id, r] = handles[rng.int(0, handles.length - 1)];
        sim.cancel(id);
        r.live = false;
      };
      for (let k = 0; k < 50; k++) add(rng.int(0, 20));
      for (let k = 0; k < 10; k++) cancelOne();
      // Replay the reference: the same random draws happen in the same order, since
      // handlers run in the same order if and only if the two agree.
      const refNow = () => {
        let best: Ref | undefined;
        for (const r of ref) if (r.live && (!best || r.time < best.time || (r.time === best.time && (r.prio < best.prio || (r.prio === best.prio && r.seq < best.seq))))) best = r;
        return best;
      };
      let steps = 0;
      while (steps++ < 2000) {
        const next = refNow();
        expect(sim.nextTime()).to.equal(next?.time);
        if (!next) break;
        expect(sim.pending).to.equal(ref.filter((r) => r.live).length);
        next.live = false;
        want.push(`${next.label}@${next.time}`);
        sim.step();
        expect(got).to.deep.equal(want);
      }
      expect(got.length).to.be.greaterThan(50);
    }
  });
});
