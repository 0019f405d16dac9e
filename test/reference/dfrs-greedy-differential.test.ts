import { expect } from 'chai';
import { maxMinYields } from '../../src/schedulers/dfrs/allocation';
import { simulateDfrs } from '../../src/schedulers/dfrs/simulator';
import { DfrsJob, scaleToLoad, syntheticDfrsTrace } from '../../src/workloads/dfrs';

/**
 * "Greedy * /opt=min" (Stillwell et al., sections 4.2 and 4.6) written from its
 * definition as a plain loop over instants, sharing nothing with the engine,
 * the state or the mappers (the opt=min yields come from maxMinYields, which
 * test/reference/maxmin-lp.test.ts checks against linear programs):
 *  - on submission, the job's tasks go one by one to the least CPU-loaded node
 *    (sum of the needs placed there; ties: lowest index) with memory for one;
 *    if the memory of all its tasks does not fit, the job waits;
 *  - on completion, the waiting jobs by priority (none has run, so all have
 *    infinite priority: submission order) get the same greedy placement;
 *  - a job never pauses or moves, so no penalty applies; after every change
 *    of the running set the running jobs get the max-min yields;
 *  - at one instant completions come before submissions; each submission is
 *    its own decision; a job is complete when its remaining work is within
 *    1e-6 s (+1e-12 of its run time), the simulator's documented tolerance.
 */
function greedyStarOptMin(jobs: readonly DfrsJob[], nodes: number): { id: number; start: number; completion: number }[] {
  const n = jobs.length;
  const order = jobs.map((_, i) => i).sort((a, b) => jobs[a].submit - jobs[b].submit || a - b);
  const start: number[] = new Array(n).fill(NaN);
  const completion: number[] = new Array(n).fill(NaN);
  const remaining = jobs.map((j) => j.runtime);
  const yields: number[] = new Array(n).fill(0);
  const placedOn: number[][] = new Array(n);
  const mem: number[] = new Array(nodes).fill(0);
  const load: number[] = new Array(nodes).fill(0);
  let running: number[] = [];
  const waiting: number[] = [];
  let next = 0;
  let t = -Infinity;

  const place = (j: number, now: number): boolean => {
    const job = jobs[j];
    const tasks: number[] = [];
    for (let k = 0; k < job.tasks; k++) {
      let best = -1;
      for (let i = 0; i < nodes; i++) if (mem[i] + job.mem <= 1 + 1e-9 && (best < 0 || load[i] < load[best])) best = i;
      if (best < 0) {
        for (const i of tasks) {
          mem[i] -= job.mem;
          load[i] -= job.cpuNeed;
        }
        return false;
      }
      tasks.push(best);
      mem[best] += job.mem;
      load[best] += job.cpuNeed;
    }
    placedOn[j] = tasks;
    start[j] = now;
    running.push(j);
    return true;
  };
  const allocate = () => {
    const y = maxMinYields(running.map((j) => ({ need: jobs[j].cpuNeed, nodes: placedOn[j] })), nodes);
    running.forEach((j, k) => (yields[j] = y[k]));
  };

  while (next < n || running.length > 0) {
    let eta = Infinity;
    for (const j of running) eta = Math.min(eta, remaining[j] <= 0 ? t : yields[j] > 0 ? t + remaining[j] / yields[j] : Infinity);
    const submitAt = next < n ? jobs[order[next]].submit : Infinity;
    const now = Math.min(eta, submitAt);
    if (now === Infinity) throw new Error('reference: jobs wait with nothing running');
    for (const j of running) if (now > t) remaining[j] -= yields[j] * (now - t);
    t = now;
    if (eta <= submitAt) {
      const done = running.filter((j) => remaining[j] <= 1e-6 + 1e-12 * jobs[j].runtime);
      if (done.length > 0) {
        for (const j of done) {
          completion[j] = t;
          for (const i of placedOn[j]) {
            mem[i] -= jobs[j].mem;
            load[i] -= jobs[j].cpuNeed;
          }
        }
        running = running.filter((j) => !done.includes(j));
        for (let k = 0; k < waiting.length; ) {
          if (place(waiting[k], t)) waiting.splice(k, 1);
          else k++;
        }
        allocate();
      }
      continue;
    }
    const j = order[next++];
    if (place(j, t)) allocate();
    else waiting.push(j);
  }
  return jobs.map((j, i) => ({ id: j.id, start: start[i], completion: completion[i] }));
}

describe('reference: DFRS "Greedy */opt=min" against a plain loop written from the definition', () => {
  const cases: [string, DfrsJob[], number][] = [
    ['synthetic, 300 jobs on 32 nodes', syntheticDfrsTrace({ jobs: 300, nodes: 32, seed: 5 }), 32],
    ['synthetic scaled to load 0.9, 400 jobs on 64 nodes', scaleToLoad(syntheticDfrsTrace({ jobs: 400, nodes: 64, seed: 9 }), 0.9, 64), 64],
  ];
  for (const [what, jobs, nodes] of cases) {
    it(`every job starts and completes at the same times (${what})`, () => {
      const want = greedyStarOptMin(jobs, nodes);
      const got = simulateDfrs(jobs, { nodes, algorithm: 'Greedy */opt=min' }).jobs;
      let waited = 0;
      got.forEach((g, k) => {
        const w = want[k];
        expect(g.id).to.equal(w.id);
        const where = `job ${g.id} (submit ${jobs[k].submit})`;
        expect(g.start, `${where}: start`).to.be.closeTo(w.start, 1e-6 * Math.max(1, w.start));
        expect(g.completion, `${where}: completion`).to.be.closeTo(w.completion, 1e-6 * Math.max(1, w.completion));
        if (w.start > jobs[k].submit) waited++;
      });
      expect(waited, 'some jobs had to wait for memory').to.be.greaterThan(0);
    });
  }
});
