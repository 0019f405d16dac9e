import { expect } from 'chai';
import { maxAvgYields, maxMinYields, minAvgStretchYields, minMaxStretchYields, yieldForInverseStretch } from '../../src/schedulers/dfrs/allocation';
import { maximizeMinYield, packArrays } from '../../src/schedulers/packing';
import { loadLpEngine } from '../../src/schedulers/vcsched/lpsolver';
import { dfrsTrace } from '../../src/schedulers/dfrs/experiment';
import { allAlgorithmNames, DfrsAlgorithm, parseAlgorithm, TABLE2_DFRS_ALGORITHMS } from '../../src/schedulers/dfrs/names';
import { simulateDfrs } from '../../src/schedulers/dfrs/simulator';
import { DfrsJob, scaleToLoad, syntheticDfrsTrace } from '../../src/workloads/dfrs';

/**
 * "Greedy * /opt=min", "GreedyP * /opt=min", "GreedyPM * /opt=min" and
 * "MCB8 * /opt=min" (Stillwell et al., sections 4.1-4.3 and 4.6) written from their definitions
 * as a plain loop over instants, sharing nothing with the engine, the state or
 * the mappers (the opt=min yields come from maxMinYields, which
 * test/reference/maxmin-lp.test.ts checks against linear programs):
 *  - priority = flow time / virtual time² (never ran: infinite), ties by
 *    submission order; virtual time grows with the yield, not during a penalty;
 *  - Greedy: the job's tasks go one by one to the least CPU-loaded node (sum of
 *    the needs placed there; ties: lowest index) with memory for one; if all
 *    its tasks do not fit, the job waits;
 *  - GreedyP: if Greedy fails, mark running jobs by increasing priority until
 *    the job would fit without them, unmark by decreasing priority those it
 *    fits beside, pause the rest; GreedyPM first tries to re-place each of
 *    them with Greedy (by decreasing priority) and moves it when it fits;
 *  - MCB8: see mcb8() below; MCB8-stretch: stretchSearch(); "/per" and
 *    "/stretch-per": the global mapping every `period` from the first
 *    submission while work remains; "minvt=" / "minft=": a running job below
 *    that virtual / flow time keeps its nodes if it keeps running (it may be
 *    paused); opt=min, opt=avg, and on the stretch opt=max, opt=avg (the
 *    allocations have references of their own);
 *  - on completion (" *"), the waiting jobs by priority get Greedy (MCB8: MCB8 again);
 *  - a resumed job, or one with a task on another node, makes no progress for
 *    the penalty (300 s) while holding its nodes; after every change of the
 *    running set the running jobs get the max-min yields;
 *  - with `cores`, a one-task job's yield is capped at (1/cores)/need;
 *  - issue 25's switches: `penaltyMinAge` (a job with less virtual time pays
 *    no penalty) and `protectYoung` (limitProtects 'preemption': a running job
 *    under minvt/minft is never dropped by MCB8, which lists such jobs first,
 *    nor marked by GreedyP/GreedyPM; it may still move);
 *  - at one instant completions come before submissions; each submission is
 *    its own decision; a job is complete when its remaining work is within
 *    1e-6 s (+1e-12 of its run time), the simulator's documented tolerance.
 */
function referenceRun(
  jobs: readonly DfrsJob[],
  nodes: number,
  alg: DfrsAlgorithm,
  options: { cores?: number; period: number; penaltyMinAge?: number; protectYoung?: boolean },
  penalty = 300,
): { id: number; start: number; completion: number }[] {
  const { cores } = options;
  const minAge = options.penaltyMinAge ?? 0;
  const period = alg.periodic !== 'none' ? options.period : undefined;
  const stretch = alg.periodic === 'MCB8-stretch';
  const limit = alg.limit;
  const n = jobs.length;
  const order = jobs.map((_, i) => i).sort((a, b) => jobs[a].submit - jobs[b].submit || a - b);
  const rank: number[] = new Array(n);
  order.forEach((j, r) => (rank[j] = r));
  const start: number[] = new Array(n).fill(NaN);
  const completion: number[] = new Array(n).fill(NaN);
  const remaining = jobs.map((j) => j.runtime);
  const vt: number[] = new Array(n).fill(0);
  const penaltyUntil: number[] = new Array(n).fill(-Infinity);
  const yields: number[] = new Array(n).fill(0);
  const placedOn: (number[] | null)[] = new Array(n).fill(null);
  let running: number[] = []; // in the order they (re)started
  let active: number[] = []; // submitted, not complete
  let next = 0;
  let t = -Infinity;

  const priority = (j: number) => (vt[j] > 0 ? (t - jobs[j].submit) / (vt[j] * vt[j]) : Infinity);
  const byPriority = (a: number, b: number) => (priority(a) !== priority(b) ? (priority(a) > priority(b) ? -1 : 1) : rank[a] - rank[b]);
  const usage = (of: number[]) => {
    const mem: number[] = new Array(nodes).fill(0);
    const load: number[] = new Array(nodes).fill(0);
    for (const j of of) for (const i of placedOn[j] as number[]) {
      mem[i] += jobs[j].mem;
      load[i] += jobs[j].cpuNeed;
    }
    return { mem, load };
  };
  // Greedy on a usage (updated when the job is placed); null when its tasks do not all fit.
  const greedy = (j: number, u: { mem: number[]; load: number[] }): number[] | null => {
    const mem = u.mem.slice();
    const load = u.load.slice();
    const tasks: number[] = [];
    for (let k = 0; k < jobs[j].tasks; k++) {
      let best = -1;
      for (let i = 0; i < nodes; i++) if (mem[i] + jobs[j].mem <= 1 + 1e-9 && (best < 0 || load[i] < load[best])) best = i;
      if (best < 0) return null;
      tasks.push(best);
      mem[best] += jobs[j].mem;
      load[best] += jobs[j].cpuNeed;
    }
    u.mem.splice(0, nodes, ...mem);
    u.load.splice(0, nodes, ...load);
    return tasks;
  };
  const fits = (j: number, mem: number[]) => greedy(j, { mem: mem.slice(), load: new Array(nodes).fill(0) }) !== null;
  const movedTasks = (a: number[], b: number[]) => {
    const left = a.slice();
    let moved = 0;
    for (const i of b) {
      const k = left.indexOf(i);
      if (k >= 0) left.splice(k, 1);
      else moved++;
    }
    return moved;
  };
  const run = (j: number, on: number[]) => {
    if (Number.isNaN(start[j])) start[j] = t;
    else if (vt[j] >= minAge) penaltyUntil[j] = t + penalty; // resumed
    placedOn[j] = on;
    running.push(j);
  };
  const allocate = () => {
    // With `cores`, a one-task job is sequential: it can use 1/cores of a node at most.
    const cap = (j: number) => (cores !== undefined && jobs[j].tasks === 1 ? Math.min(1, 1 / cores / jobs[j].cpuNeed) : 1);
    const mapped = running.map((j) => ({ need: jobs[j].cpuNeed, nodes: placedOn[j] as number[], maxYield: cap(j) }));
    // /stretch-per: the stretch estimated at the next tick (before the first one: a period ahead).
    const horizon = tickAt < Infinity && tickAt > t ? tickAt - t : options.period;
    const states = running.map((j) => ({ flowTime: t - jobs[j].submit, virtualTime: vt[j] }));
    const y = stretch
      ? alg.opt === 'avg'
        ? minAvgStretchYields(mapped, states, nodes, horizon)
        : minMaxStretchYields(mapped, states, nodes, horizon)
      : alg.opt === 'avg'
        ? maxAvgYields(mapped, nodes)
        : maxMinYields(mapped, nodes);
    running.forEach((j, k) => (yields[j] = y[k]));
  };
  // MCB8 (section 4.3) from scratch on every active job: by priority, drop the lowest one at a
  // time until their tasks pack by memory alone; then, the kept jobs in submission order, the
  // largest common yield MCB8 can pack (task by task; the packer and the yield search have their
  // own references); if none, drop one more. Jobs left out wait (a running one is paused).
  // MCB8-stretch (section 4.7): bisection on the inverse s of the stretch estimated a period ahead;
  // at s each job needs yield ((ft + T) s − vt) / T (none above 1), CPU that × need per task.
  // Young jobs stay on their nodes (as preloads); the others are packed by MCB8 as listed.
  const stretchSearch = (kept: number[], young: (j: number) => boolean): { placement: number[] } | null => {
    const T = options.period;
    const attempt = (s: number): number[] | null => {
      const cpu: number[] = [];
      const mem: number[] = [];
      const preCpu = new Float64Array(nodes);
      const preMem = new Float64Array(nodes);
      for (const j of kept) {
        const y = yieldForInverseStretch(s, { flowTime: t - jobs[j].submit, virtualTime: vt[j] }, T);
        if (y > 1 + 1e-9) return null;
        const c = Math.max(0, y) * jobs[j].cpuNeed;
        for (let k = 0; k < jobs[j].tasks; k++) {
          if (young(j)) {
            preCpu[(placedOn[j] as number[])[k]] += c;
            preMem[(placedOn[j] as number[])[k]] += jobs[j].mem;
          } else {
            cpu.push(c);
            mem.push(jobs[j].mem);
          }
        }
      }
      for (let i = 0; i < nodes; i++) if (preCpu[i] > 1 + 1e-9 || preMem[i] > 1 + 1e-9) return null;
      const packed = packArrays(cpu, mem, nodes, 8, { cpu: preCpu, mem: preMem });
      if (!packed) return null;
      // Back to the kept jobs' order, young jobs on their nodes.
      const placement: number[] = [];
      let f = 0;
      for (const j of kept) for (let k = 0; k < jobs[j].tasks; k++) placement.push(young(j) ? (placedOn[j] as number[])[k] : packed[f++]);
      return placement;
    };
    let best = attempt(0);
    if (!best) return null;
    let lo = 0;
    let hi = 1;
    const top = attempt(1);
    if (top) return { placement: top };
    while (hi - lo > 0.01) {
      const mid = (lo + hi) / 2;
      const p = attempt(mid);
      if (p) {
        best = p;
        lo = mid;
      } else hi = mid;
    }
    return { placement: best };
  };
  // minvt / minft: a running job whose virtual / flow time is below it keeps its nodes if it keeps running.
  const isYoung = (j: number) => limit !== undefined && running.includes(j) && (limit.kind === 'minvt' ? vt[j] : t - jobs[j].submit) < limit.seconds;
  const mcb8 = () => {
    let sorted = active.slice().sort(byPriority);
    // protectYoung: young jobs first (never dropped), but free to move.
    if (options.protectYoung) sorted = [...sorted.filter(isYoung), ...sorted.filter((j) => !isYoung(j))];
    const young = (j: number) => !options.protectYoung && isYoung(j);
    let keep = sorted.length;
    // The first k jobs of `sorted`, for every k at once: their tasks' memory in
    // order, and what their young jobs hold per node, summed in the same order (the
    // same numbers as one prefix at a time, without rebuilding each one).
    const mem: number[] = [];
    const memEnd = [0];
    const preMem = [new Float64Array(nodes)];
    // (A prefix without a young job shares its predecessor's array: never written once pushed.)
    const preSum = [0];
    for (const j of sorted) {
      let pre = preMem[preMem.length - 1];
      if (young(j)) {
        pre = pre.slice();
        for (const i of placedOn[j] as number[]) pre[i] += jobs[j].mem;
        preSum.push(pre.reduce((a, m) => a + m, 0));
      } else {
        for (let q = 0; q < jobs[j].tasks; q++) mem.push(jobs[j].mem);
        preSum.push(preSum[preSum.length - 1]);
      }
      preMem.push(pre);
      memEnd.push(mem.length);
    }
    const memAll = Float64Array.from(mem);
    const noCpu = new Float64Array(mem.length);
    // Memory of the first k jobs' tasks in all, and held by their young jobs.
    let taskMem = 0;
    const memSum = memEnd.map((end, k) => {
      for (let q = k === 0 ? 0 : memEnd[k - 1]; q < end; q++) taskMem += memAll[q];
      return taskMem + preSum[k];
    });
    const memOnly = (k: number) => {
      if (preMem[k].some((m) => m > 1 + 1e-9)) return false;
      // More memory than the nodes hold: no packing (the packer lets each task
      // overfill a node by at most 1e-9), so the packer need not be asked.
      if (memSum[k] > nodes + (memEnd[k] + nodes) * 1e-6) return false;
      return packArrays(noCpu.subarray(0, memEnd[k]), memAll.subarray(0, memEnd[k]), nodes, 8, { cpu: new Float64Array(nodes), mem: preMem[k] }) !== null;
    };
    while (keep > 0 && !memOnly(keep)) keep--;
    // The first `keep` jobs in submission order and their tasks; each failed try drops the last of `sorted`.
    const kept = sorted.slice(0, keep).sort((a, b) => rank[a] - rank[b]);
    const tasks = kept.flatMap((j) => new Array(jobs[j].tasks).fill(0).map(() => ({ job: j, cpuNeed: jobs[j].cpuNeed, mem: jobs[j].mem })));
    const fixedHost = kept.flatMap((j) => (young(j) ? (placedOn[j] as number[]) : new Array(jobs[j].tasks).fill(-1)));
    const drop = () => {
      const j = sorted[--keep];
      const at = kept.indexOf(j);
      let from = 0;
      for (let q = 0; q < at; q++) from += jobs[kept[q]].tasks;
      kept.splice(at, 1);
      tasks.splice(from, jobs[j].tasks);
      fixedHost.splice(from, jobs[j].tasks);
    };
    for (; keep > 0; drop()) {
      const res = stretch ? stretchSearch(kept, young) : maximizeMinYield(tasks, nodes, { variant: 8, tolerance: 0.01, fixedHost });
      if (!res) continue;
      const to = new Map<number, number[]>();
      let k = 0;
      for (const j of kept) {
        to.set(j, res.placement.slice(k, k + jobs[j].tasks));
        k += jobs[j].tasks;
      }
      for (const r of running.slice()) {
        if (!to.has(r)) {
          placedOn[r] = null;
          yields[r] = 0;
          running = running.filter((x) => x !== r);
        } else {
          if (movedTasks(placedOn[r] as number[], to.get(r) as number[]) > 0 && vt[r] >= minAge) penaltyUntil[r] = t + penalty;
          placedOn[r] = to.get(r) as number[];
        }
      }
      for (const j of kept) if (!running.includes(j)) run(j, to.get(j) as number[]);
      return;
    }
    for (const r of running) placedOn[r] = null;
    running = [];
  };
  const submit = (j: number) => {
    active.push(j);
    if (alg.onSubmit === 'none') return false;
    if (alg.onSubmit === 'MCB8') return mcb8(), true;
    const u = usage(running);
    const direct = greedy(j, u);
    if (direct) return run(j, direct), true;
    if (alg.onSubmit === 'Greedy') return false;
    const mem = u.mem.slice();
    const marked: number[] = [];
    for (const r of running.slice().sort(byPriority).reverse()) {
      if (fits(j, mem)) break;
      if (options.protectYoung && isYoung(r)) continue;
      marked.push(r);
      for (const i of placedOn[r] as number[]) mem[i] -= jobs[r].mem;
    }
    if (!fits(j, mem)) return false;
    const out: number[] = [];
    for (let m = marked.length - 1; m >= 0; m--) {
      const r = marked[m];
      for (const i of placedOn[r] as number[]) mem[i] += jobs[r].mem;
      if (!fits(j, mem)) {
        for (const i of placedOn[r] as number[]) mem[i] -= jobs[r].mem;
        out.push(r); // decreasing priority
      }
    }
    const left = usage(running.filter((r) => !out.includes(r)));
    const placed = greedy(j, left) as number[];
    for (const r of out) {
      const to = alg.onSubmit === 'GreedyPM' ? greedy(r, left) : null;
      if (to) {
        if (movedTasks(placedOn[r] as number[], to) > 0 && vt[r] >= minAge) penaltyUntil[r] = t + penalty;
        placedOn[r] = to;
      } else {
        placedOn[r] = null;
        yields[r] = 0;
        running = running.filter((x) => x !== r);
      }
    }
    run(j, placed);
    return true;
  };

  let tickAt = Infinity;
  let ticking = false;
  while (next < n || active.length > 0) {
    let eta = Infinity;
    for (const j of running) {
      const from = Math.max(t, penaltyUntil[j]);
      eta = Math.min(eta, remaining[j] <= 0 ? from : yields[j] > 0 ? from + remaining[j] / yields[j] : Infinity);
    }
    const submitAt = next < n ? jobs[order[next]].submit : Infinity;
    const now = Math.min(eta, submitAt, tickAt);
    if (now === Infinity) throw new Error('reference: jobs wait with nothing running');
    for (const j of running) {
      const useful = Math.max(0, now - Math.max(t, penaltyUntil[j]));
      remaining[j] -= yields[j] * useful;
      vt[j] += yields[j] * useful;
    }
    t = now;
    // Same instant: completions, then submissions, then the periodic MCB8.
    if (eta <= submitAt && eta <= tickAt) {
      const done = running.filter((j) => remaining[j] <= 1e-6 + 1e-12 * jobs[j].runtime && t >= penaltyUntil[j]);
      if (done.length > 0) {
        for (const j of done) completion[j] = t;
        running = running.filter((j) => !done.includes(j));
        active = active.filter((j) => !done.includes(j));
        if (alg.onCompletion === 'MCB8') mcb8();
        else if (alg.onCompletion === 'Greedy') {
          const u = usage(running);
          for (const j of active.filter((x) => !running.includes(x)).sort(byPriority)) {
            const on = greedy(j, u);
            if (on) run(j, on);
          }
        }
        allocate();
      }
      continue;
    }
    if (submitAt <= tickAt) {
      if (submit(order[next++])) allocate();
      // The ticks start at the first submission and go on while work remains.
      if (period !== undefined && !ticking) {
        ticking = true;
        tickAt = t + period;
      }
      continue;
    }
    tickAt = t + period!;
    mcb8();
    allocate();
    if (!(active.length > 0 || next < n)) tickAt = Infinity;
  }
  return jobs.map((j, i) => ({ id: j.id, start: start[i], completion: completion[i] }));
}

describe('reference: every DFRS algorithm (Table 2 and the appendix) against a plain loop written from the definition', () => {
  const week = dfrsTrace({ trace_set: 'hpc2n', trace_index: 60 });
  const cases: [string, DfrsJob[], number, number | undefined][] = [
    ['synthetic, 300 jobs on 32 nodes', syntheticDfrsTrace({ jobs: 300, nodes: 32, seed: 5 }), 32, undefined],
    ['synthetic scaled to load 0.9, 400 jobs on 64 nodes', scaleToLoad(syntheticDfrsTrace({ jobs: 400, nodes: 64, seed: 9 }), 0.9, 64), 64, undefined],
    [`HPC2N ${week.name}, ${week.jobs.length} jobs, sequential jobs capped at 1/${week.cores} of a node`, week.jobs, week.nodes, week.cores],
  ];
  // Every algorithm of Table 2.
  for (const name of TABLE2_DFRS_ALGORITHMS) {
    const alg = parseAlgorithm(name);
    for (const [what, all, nodes, cores] of cases) {
      // The reference repacks everything at every MCB8 event: on HPC2N, the week's first 500 jobs then.
      const mcb = alg.onSubmit === 'MCB8' || alg.onCompletion === 'MCB8' || alg.periodic !== 'none';
      const jobs = mcb && cores !== undefined ? all.slice(0, 500) : all;
      it(`${name}: every job starts and completes at the same times (${what}${jobs.length < all.length ? `, first ${jobs.length}` : ''})`, () => {
        const want = referenceRun(jobs, nodes, alg, { cores, period: 600 });
        const got = simulateDfrs(jobs, { nodes, cores, period: 600, algorithm: name }).jobs;
        let waited = 0;
        got.forEach((g, k) => {
          const w = want[k];
          expect(g.id).to.equal(w.id);
          const where = `job ${g.id} (submit ${jobs[k].submit})`;
          expect(g.start, `${where}: start`).to.be.closeTo(w.start, 1e-6 * Math.max(1, w.start));
          expect(g.completion, `${where}: completion`).to.be.closeTo(w.completion, 1e-6 * Math.max(1, w.completion));
          if (w.start > jobs[k].submit) waited++;
        });
        // The runs exercise what each algorithm adds: waiting for memory, pauses, moves.
        const pauses = got.reduce((x, g) => x + g.preemptions, 0);
        const moves = got.reduce((x, g) => x + g.migrations, 0);
        if (alg.onSubmit === 'Greedy' && alg.periodic === 'none') expect(waited, 'jobs that waited for memory').to.be.greaterThan(0);
        else expect(pauses + moves, 'pauses and moves').to.be.greaterThan(0);
      });
    }
  }
  it("issue 25's switches (penaltyMinAge, limitProtects 'preemption') on the minvt=600 and MCB8 rows", () => {
    const [, , nodes] = cases[1];
    const jobs = cases[1][1].slice(0, 250);
    const differs = new Map<string, number>();
    for (const name of ['GreedyP */per/opt=min/minvt=600', 'GreedyPM */per/opt=min/minvt=600', 'MCB8 */opt=min/minvt=600', 'MCB8/per/opt=min/minvt=600', 'MCB8 */per/opt=min/minvt=600']) {
      const base = simulateDfrs(jobs, { nodes, period: 600, algorithm: name }).jobs;
      for (const [what, sim, ref] of [
        ['penaltyMinAge=600', { penaltyMinAge: 600 }, { penaltyMinAge: 600 }],
        ["limitProtects='preemption'", { limitProtects: 'preemption' as const }, { protectYoung: true }],
      ] as const) {
        const want = referenceRun(jobs, nodes, parseAlgorithm(name), { period: 600, ...ref });
        const got = simulateDfrs(jobs, { nodes, period: 600, algorithm: name, ...sim }).jobs;
        got.forEach((g, k) => {
          const where = `${name}, ${what}, job ${g.id}`;
          expect(g.start, `${where}: start`).to.be.closeTo(want[k].start, 1e-6 * Math.max(1, want[k].start));
          expect(g.completion, `${where}: completion`).to.be.closeTo(want[k].completion, 1e-6 * Math.max(1, want[k].completion));
        });
        if (got.some((g, k) => Math.abs(g.completion - base[k].completion) > 1e-6)) differs.set(what, (differs.get(what) ?? 0) + 1);
      }
    }
    // Each switch changes the schedules of most of the rows it is compared on.
    expect([...differs.values()]).to.have.length(2);
    for (const [what, n] of differs) expect(n, what).to.be.at.least(4);
  });
  it('the 98 appendix variants too (opt=avg, minft, /stretch-per, every action), on the small synthetic trace', async function () {
    this.timeout(15 * 60 * 1000); // about 80 s alone; more beside the notebook executions
    await loadLpEngine('highs'); // opt=avg's fallback engine, as the sweep loads it
    const [, jobs, nodes] = cases[0];
    const names = allAlgorithmNames().filter((a) => !TABLE2_DFRS_ALGORITHMS.includes(a));
    for (const name of names) {
      const want = referenceRun(jobs, nodes, parseAlgorithm(name), { period: 600 });
      const got = simulateDfrs(jobs, { nodes, period: 600, algorithm: name }).jobs;
      got.forEach((g, k) => {
        const where = `${name}, job ${g.id}`;
        expect(g.start, `${where}: start`).to.be.closeTo(want[k].start, 1e-6 * Math.max(1, want[k].start));
        expect(g.completion, `${where}: completion`).to.be.closeTo(want[k].completion, 1e-6 * Math.max(1, want[k].completion));
      });
    }
    expect(names.length).to.equal(98);
  });
});
