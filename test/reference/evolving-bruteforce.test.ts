/**
 * Brute-force checks of the evolving-application base fit (Klein & Pérez,
 * Algorithm 2) on tiny integer instances, by exhaustive search over every
 * placement, written from the definitions and sharing no helper with src:
 *  - A placement of a requested EP (steps d_i x n_i) over a resource EP (the
 *    nodes already used, from time 0) starts step i at a_i, with
 *    a_{i+1} >= a_i + d_i; step i holds n_i nodes on [a_i, a_{i+1}) (the last
 *    on [a_last, a_last + d_last)); the first and last steps keep their
 *    length, a middle step may grow to at most expandLimit x d_i; resource
 *    plus placement never exceeds the cluster.
 *  - expandLimit 1: the EP is placed unchanged, and the fit must be the
 *    earliest feasible shift (a unique answer).
 *  - Larger limits: the fit must be a valid placement no earlier than the
 *    exhaustive optimum of the completion time (the fit is a greedy search,
 *    the paper claims no optimum; the test reports how often it reaches it).
 * A failure names the instance and the differing start or completion.
 */
import { expect } from 'chai';
import { baseFit, Step } from '../../src/schedulers/evolving';
import { Rng } from '../../src/util/random';

/** Nodes the resource EP uses at integer time t (0 after its end). */
function used(resource: readonly Step[], t: number): number {
  let s = 0;
  for (const step of resource) {
    if (t >= s && t < s + step.duration) return step.nodes;
    s += step.duration;
  }
  return 0;
}

/** Whether `k` more nodes fit over [a, b) (integer bounds). */
function fits(resource: readonly Step[], nodes: number, k: number, a: number, b: number): boolean {
  for (let t = a; t < b; t++) if (used(resource, t) + k > nodes) return false;
  return true;
}

/** Earliest start at which the requested EP fits unchanged. */
function earliestShift(req: readonly Step[], resource: readonly Step[], nodes: number): number {
  for (let s = 0; ; s++) {
    let t = s;
    let ok = true;
    for (const step of req) {
      if (!fits(resource, nodes, step.nodes, t, t + step.duration)) ok = false;
      t += step.duration;
    }
    if (ok) return s;
  }
}

/** Minimum completion time over every placement with the given expand limit (integer start times). */
function optimalCompletion(req: readonly Step[], resource: readonly Step[], nodes: number, limit: number, horizon: number): number {
  let best = Infinity;
  const last = req.length - 1;
  // Step i starts at a; its predecessor's extent was checked before recursing.
  const place = (i: number, a: number): void => {
    if (i === last) {
      if (a + req[i].duration < best && fits(resource, nodes, req[i].nodes, a, a + req[i].duration)) best = a + req[i].duration;
      return;
    }
    const d = req[i].duration;
    const maxLen = i === 0 ? d : Math.floor(limit * d);
    for (let len = d; len <= maxLen && a + len < best; len++) {
      if (!fits(resource, nodes, req[i].nodes, a, a + len)) break;
      place(i + 1, a + len);
    }
  };
  for (let a = 0; a <= horizon && a < best; a++) place(0, a);
  return best;
}

/** Check a fit result is a placement of `req` as defined above; returns '' or what is wrong. */
function invalid(req: readonly Step[], resource: readonly Step[], nodes: number, limit: number, start: number, steps: readonly Step[]): string {
  if (steps.length !== req.length) return `${steps.length} steps for ${req.length}`;
  let t = start;
  for (let i = 0; i < req.length; i++) {
    const len = steps[i].duration;
    const fixed = i === 0 || i === req.length - 1;
    if (steps[i].nodes !== req[i].nodes) return `step ${i} has ${steps[i].nodes} nodes, not ${req[i].nodes}`;
    if (len < req[i].duration || (fixed && len !== req[i].duration) || len > limit * req[i].duration) return `step ${i} lasts ${len} (requested ${req[i].duration}, limit ${limit})`;
    if (!fits(resource, nodes, req[i].nodes, t, t + len)) return `step ${i} overfills the cluster in [${t}, ${t + len})`;
    t += len;
  }
  return '';
}

function randomInstance(rng: Rng): { req: Step[]; resource: Step[]; nodes: number } {
  const nodes = rng.int(2, 6);
  const req = Array.from({ length: rng.int(1, 4) }, () => ({ duration: rng.int(1, 4), nodes: rng.int(1, nodes) }));
  const resource = Array.from({ length: rng.int(0, 5) }, () => ({ duration: rng.int(1, 5), nodes: rng.int(0, nodes) }));
  return { req, resource, nodes };
}

describe('evolving base fit against exhaustive search', () => {
  it('expandLimit 1: the fit is the earliest shift at which the EP fits unchanged (500 random instances)', () => {
    const rng = new Rng(4242);
    for (let k = 0; k < 500; k++) {
      const { req, resource, nodes } = randomInstance(rng);
      const fit = baseFit(req, resource, nodes, { expandLimit: 1 });
      const label = `instance ${k}: ${nodes} nodes, requested ${JSON.stringify(req)}, resource ${JSON.stringify(resource)}`;
      expect(fit.steps, label).to.deep.equal(req);
      expect(fit.start, label).to.equal(earliestShift(req, resource, nodes));
    }
  });

  for (const limit of [2, Infinity]) {
    it(`expandLimit ${limit}: the fit is a valid placement, never earlier than the exhaustive optimum (500 random instances)`, () => {
      const rng = new Rng(777);
      let optimal = 0;
      for (let k = 0; k < 500; k++) {
        const { req, resource, nodes } = randomInstance(rng);
        const fit = baseFit(req, resource, nodes, { expandLimit: limit });
        const label = `instance ${k}: ${nodes} nodes, requested ${JSON.stringify(req)}, resource ${JSON.stringify(resource)}, fit ${JSON.stringify(fit)}`;
        expect(invalid(req, resource, nodes, limit, fit.start, fit.steps), label).to.equal('');
        const end = fit.start + fit.steps.reduce((s, x) => s + x.duration, 0);
        // Horizon: past the resource's end every placement fits, so the optimum starts no later.
        const horizon = resource.reduce((s, x) => s + x.duration, 0);
        const opt = optimalCompletion(req, resource, nodes, Math.min(limit, 50), horizon);
        expect(end, label).to.be.at.least(opt);
        if (end === opt) optimal++;
      }
      console.log(`      expandLimit ${limit}: the fit reaches the optimal completion on ${optimal} of 500 instances`);
      expect(optimal).to.be.above(0);
    });
  }
});
