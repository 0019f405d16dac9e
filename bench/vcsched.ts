/**
 * Benchmark: VCSched algorithms.
 *  - MCB8 (yield binary search + vector packing) on 64 hosts x 500 tasks:
 *    mean time per instance (paper: under 0.5 s per instance on a 3.2 GHz Xeon);
 *    also MCB1..MCB8 and the greedy family at 100 / 250 / 500 tasks.
 *  - LP engines on our own models, all in the same run, instance by instance:
 *    the MILP on 4 hosts x 6/8/10/12 tasks (every size the paper solves) and
 *    the LP relaxation on 4 x 12 and 64 x 100/250/500, with
 *    javascript-lp-solver, HiGHS (npm `highs`) and GLPK (npm `glpk.js`, a
 *    development dependency measured here only: GPL-3.0, and slower on the
 *    LPs); medians and ratios to HiGHS.
 * Writes bench/results/vcsched.json. VCSCHED_BENCH_PARTS=engines (or
 * heuristics) runs one part and keeps the other part's last results.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Worker } from 'worker_threads';
import {
  vcschedInstanceSet,
  runVcschedHeuristic,
  solveVcschedMilp,
  solveVcschedLp,
  solveVcschedExact,
  buildVcschedModel,
  loadLpEngine,
  VcHeuristic,
  VcInstance,
  LpModel,
} from '../src/schedulers/vcsched';

const MILP_LIMIT_S = Number(process.env.VCSCHED_BENCH_MILP_LIMIT ?? 60);
/** javascript-lp-solver cannot interrupt a pure LP: it runs in a worker that is stopped after this. */
const JSLS_LP_CAP_S = Number(process.env.VCSCHED_BENCH_JSLS_LP_CAP ?? 60);
const PARTS = (process.env.VCSCHED_BENCH_PARTS ?? 'heuristics,engines').split(',');
const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);
const median = (xs: number[]) => {
  const a = [...xs].sort((x, y) => x - y);
  return a.length ? (a.length % 2 ? a[(a.length - 1) / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2) : NaN;
};
const since = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;
const out = path.join(__dirname, 'results', 'vcsched.json');
const previous = fs.existsSync(out) ? JSON.parse(fs.readFileSync(out, 'utf8')) : {};

async function main(): Promise<void> {
const loadStart = os.loadavg();

// Large instances: one per (slack, memCv, cpuCv) spec = 36 per task count.
let large: Record<string, Record<string, { meanMs: number; maxMs: number; failures: number; n: number }>> = {};
const algos: VcHeuristic[] = ['MCB1', 'MCB2', 'MCB3', 'MCB4', 'MCB5', 'MCB6', 'MCB7', 'MCB8', 'GR', 'SG', 'GB', 'SGB'];
const heuristics = PARTS.includes('heuristics');
if (!heuristics) large = previous.large;
for (const tasks of heuristics ? [100, 250, 500] : []) {
  const set = vcschedInstanceSet('large', { instancesPerSpec: 1, taskCounts: [tasks], seed: 'bench' });
  runVcschedHeuristic(set[0].instance, 'MCB8'); // warm-up (JIT)
  large[tasks] = {};
  for (const a of algos) {
    const ms: number[] = [];
    let failures = 0;
    for (const gi of set) {
      // GB/SGB keep their 500,000-attempt budget: slow on infeasible instances, as in the paper.
      const r = runVcschedHeuristic(gi.instance, a);
      ms.push(r.seconds * 1000);
      if (r.status !== 'ok') failures++;
    }
    large[tasks][a] = { meanMs: mean(ms), maxMs: Math.max(...ms), failures, n: ms.length };
  }
}

// Small instances: MILP with time limit, 3 instances per task count (slack 0.3, 0.5, 0.7; CV 0.75/0.75).
let small: Record<string, unknown>[] = [];
if (!heuristics) small = previous.small;
for (const tasks of heuristics ? [6, 8, 10, 12] : []) {
  const set = vcschedInstanceSet('small', { instancesPerSpec: 1, taskCounts: [tasks], slacks: [0.3, 0.5, 0.7], seed: 'bench' }).filter(
    (g) => g.spec.memCv === 0.75 && g.spec.cpuCv === 0.75,
  );
  const milp = set.map((g) => solveVcschedMilp(g.instance, { timeLimitSeconds: MILP_LIMIT_S }));
  const exactMs = set.map((g) => {
    const t0 = process.hrtime.bigint();
    solveVcschedExact(g.instance);
    return Number(process.hrtime.bigint() - t0) / 1e6;
  });
  const solved = milp.filter((r) => r.status === 'optimal' || r.status === 'infeasible');
  small.push({
    hosts: 4,
    tasks,
    instances: set.length,
    milpSolvedWithinLimit: solved.length,
    milpStatuses: milp.map((r) => r.status),
    milpMeanSecondsSolved: mean(solved.map((r) => r.seconds)),
    milpMaxSeconds: Math.max(...milp.map((r) => r.seconds)),
    exactMeanMs: mean(exactMs),
  });
}

const engines = PARTS.includes('engines') ? await benchEngines() : previous.engines;
const mcb8 = large[500].MCB8;
const result = {
  benchmark: 'VCSched: MCB8 on 64 hosts x 500 tasks (36 instances, one per slack/CV spec); MILP on 4 hosts x 6..12 tasks; LP engines',
  targetMs: 500,
  mcb8MeanMs500: mcb8.meanMs,
  mcb8MaxMs500: mcb8.maxMs,
  meetsTarget: mcb8.meanMs < 500,
  large,
  milpTimeLimitSeconds: heuristics ? MILP_LIMIT_S : previous.milpTimeLimitSeconds,
  small,
  heuristicsDate: heuristics ? new Date().toISOString() : previous.heuristicsDate ?? previous.date,
  engines,
  node: process.version,
  cpus: os.cpus().length,
  loadAverage: { start: loadStart, end: os.loadavg() },
  date: new Date().toISOString(),
};
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');

if (heuristics) console.log(`MCB8, 64 hosts x 500 tasks: mean ${mcb8.meanMs.toFixed(2)} ms, max ${mcb8.maxMs.toFixed(2)} ms per instance (target < 500 ms)`);
for (const tasks of heuristics ? [100, 250, 500] : []) {
  console.log(`  ${tasks} tasks: ` + algos.map((a) => `${a} ${large[tasks][a].meanMs.toFixed(1)}ms`).join(', '));
}
for (const s of heuristics ? small : []) {
  console.log(
    `MILP 4 hosts x ${s.tasks} tasks: ${s.milpSolvedWithinLimit}/${s.instances} solved within ${MILP_LIMIT_S}s, mean ${(s.milpMeanSecondsSolved as number).toFixed(2)} s (solved), max ${(s.milpMaxSeconds as number).toFixed(2)} s; exact search ${(s.exactMeanMs as number).toFixed(1)} ms`,
  );
}
console.log(`written ${path.relative(process.cwd(), out)}`);
}


type Engine = 'javascript-lp-solver' | 'highs' | 'glpk';
interface Timing {
  seconds: number;
  status: string;
  objective: number | null;
}

// glpk.js is an ES module; TypeScript's CommonJS output would turn import() into require().
const importEsm = new Function('s', 'return import(s)') as (s: string) => Promise<any>;

/** GLPK on our JSON model (same rows, bounds and binaries as the other engines see). */
function glpkSolver(glpk: any): (model: LpModel) => Timing {
  return (model) => {
    const byRow: Record<string, { name: string; coef: number }[]> = {};
    for (const [v, coefs] of Object.entries(model.variables)) {
      for (const [r, c] of Object.entries(coefs)) if (r in model.constraints) (byRow[r] ??= []).push({ name: v, coef: c });
    }
    const subjectTo = Object.entries(model.constraints).map(([name, b]) => ({
      name,
      vars: byRow[name] ?? [],
      bnds: b.equal !== undefined ? { type: glpk.GLP_FX, lb: b.equal, ub: b.equal } : b.min !== undefined ? { type: glpk.GLP_LO, lb: b.min, ub: 0 } : { type: glpk.GLP_UP, lb: 0, ub: b.max },
    }));
    const lp = {
      name: 'vcsched',
      objective: {
        direction: model.opType === 'max' ? glpk.GLP_MAX : glpk.GLP_MIN,
        name: 'obj',
        vars: Object.entries(model.variables)
          .filter(([, c]) => c[model.optimize] !== undefined)
          .map(([name, c]) => ({ name, coef: c[model.optimize] })),
      },
      subjectTo,
      binaries: Object.keys(model.binaries ?? {}),
    };
    const t0 = process.hrtime.bigint();
    const r = glpk.solve(lp, { msglev: glpk.GLP_MSG_OFF, presol: true });
    const seconds = since(t0);
    const status = r.result.status === glpk.GLP_OPT ? 'optimal' : r.result.status === glpk.GLP_NOFEAS ? 'infeasible' : `glpk status ${r.result.status}`;
    return { seconds, status, objective: status === 'optimal' ? r.result.z : null };
  };
}

/** javascript-lp-solver on a pure LP, in a worker stopped after `capS` (it has no LP time limit). */
function jslsLpCapped(model: LpModel, capS: number): Promise<Timing> {
  const code = `
    const { parentPort, workerData } = require('worker_threads');
    const t0 = process.hrtime.bigint();
    const r = require('javascript-lp-solver').Solve(workerData);
    parentPort.postMessage({ seconds: Number(process.hrtime.bigint() - t0) / 1e9, feasible: r.feasible, result: r.result });`;
  return new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true, workerData: model });
    const timer = setTimeout(() => {
      void w.terminate();
      resolve({ seconds: capS, status: `not finished in ${capS} s`, objective: null });
    }, capS * 1000);
    w.once('message', (m) => {
      clearTimeout(timer);
      void w.terminate();
      resolve({ seconds: m.seconds, status: m.feasible ? 'optimal' : 'infeasible', objective: m.feasible ? m.result : null });
    });
    w.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

function summarise(rows: Record<Engine, Timing>[], engines: Engine[]) {
  // Rows an engine was not run on are left out; an unfinished run counts as its cap (a lower bound).
  const med = Object.fromEntries(engines.map((e) => [e, median(rows.map((r) => r[e].seconds).filter(Number.isFinite))]));
  return {
    instances: rows.length,
    medianSeconds: med,
    ratioToHighs: Object.fromEntries(engines.filter((e) => e !== 'highs').map((e) => [e, med[e] / med.highs])),
    statuses: Object.fromEntries(engines.map((e) => [e, rows.map((r) => r[e].status)])),
    // Every engine that finished must have found the same optimum.
    objectivesAgree: rows.every((r) => {
      const objs = engines.map((e) => r[e].objective).filter((o): o is number => o !== null);
      return objs.every((o) => Math.abs(o - objs[0]) <= 1e-6);
    }),
  };
}

async function benchEngines() {
  await loadLpEngine('highs');
  const glpk = await (await importEsm('glpk.js/node')).default();
  const glpkSolve = glpkSolver(glpk);
  const milpTiming = (inst: VcInstance, engine: 'javascript-lp-solver' | 'highs'): Timing => {
    const r = solveVcschedMilp(inst, { engine, timeLimitSeconds: MILP_LIMIT_S });
    return { seconds: r.seconds, status: r.status, objective: r.status === 'optimal' ? r.minYield : null };
  };
  const lpTiming = (inst: VcInstance, engine: 'javascript-lp-solver' | 'highs'): Timing => {
    const r = solveVcschedLp(inst, { engine });
    return { seconds: r.seconds, status: r.status, objective: r.minYield };
  };
  const all: Engine[] = ['javascript-lp-solver', 'highs', 'glpk'];
  // Warm-up: JIT and the first HiGHS call.
  const [warm] = vcschedInstanceSet('small', { instancesPerSpec: 1, taskCounts: [6], slacks: [0.5], seed: 'bench' });
  for (const e of ['javascript-lp-solver', 'highs'] as const) milpTiming(warm.instance, e);

  const milp: Record<string, unknown> = {};
  for (const tasks of [6, 8, 10, 12]) {
    const set = vcschedInstanceSet('small', { instancesPerSpec: 1, taskCounts: [tasks], slacks: [0.2, 0.4, 0.6, 0.8], seed: 'bench' }).filter(
      (g) => g.spec.memCv === 0.75 && g.spec.cpuCv === 0.75,
    );
    const rows = set.map((g) => ({
      'javascript-lp-solver': milpTiming(g.instance, 'javascript-lp-solver'),
      highs: milpTiming(g.instance, 'highs'),
      glpk: glpkSolve(buildVcschedModel(g.instance)),
    }));
    milp[`4x${tasks}`] = summarise(rows, all);
    console.log(`MILP 4 x ${tasks}:`, JSON.stringify((milp[`4x${tasks}`] as any).medianSeconds));
  }

  const lp: Record<string, unknown> = {};
  // 4 x 12: tiny, so each instance is solved 5 times and its median kept.
  {
    const set = vcschedInstanceSet('small', { instancesPerSpec: 1, taskCounts: [12], slacks: [0.3, 0.5, 0.7, 0.9], seed: 'bench' }).filter((g) => g.spec.memCv === 0.75 && g.spec.cpuCv === 0.75);
    const rows = set.map((g) => {
      const rep = (f: () => Timing): Timing => {
        const runs = Array.from({ length: 5 }, f);
        return { ...runs[0], seconds: median(runs.map((r) => r.seconds)) };
      };
      return {
        'javascript-lp-solver': rep(() => lpTiming(g.instance, 'javascript-lp-solver')),
        highs: rep(() => lpTiming(g.instance, 'highs')),
        glpk: rep(() => glpkSolve(buildVcschedModel(g.instance, { relax: true }))),
      };
    });
    lp['4x12'] = summarise(rows, all);
    console.log('LP 4 x 12:', JSON.stringify((lp['4x12'] as any).medianSeconds));
  }
  for (const tasks of [100, 250, 500]) {
    const slacks = tasks === 100 ? [0.3, 0.7] : [0.5];
    const set = vcschedInstanceSet('large', { instancesPerSpec: 1, taskCounts: [tasks], slacks, seed: 'bench' }).filter((g) => g.spec.memCv === 0.75 && g.spec.cpuCv === 0.75);
    // GLPK needs minutes from 250 tasks on and javascript-lp-solver does not finish 100: measured on the smallest size only.
    const engines: Engine[] = tasks === 100 ? all : ['highs'];
    const rows: Record<Engine, Timing>[] = [];
    for (const [i, g] of set.entries()) {
      const row = { highs: lpTiming(g.instance, 'highs') } as Record<Engine, Timing>;
      if (engines.includes('glpk')) row.glpk = glpkSolve(buildVcschedModel(g.instance, { relax: true }));
      if (engines.includes('javascript-lp-solver')) {
        row['javascript-lp-solver'] = i === 0 ? await jslsLpCapped(buildVcschedModel(g.instance, { relax: true }), JSLS_LP_CAP_S) : { seconds: NaN, status: 'not run', objective: null };
      }
      rows.push(row);
    }
    lp[`64x${tasks}`] = summarise(rows, engines);
    console.log(`LP 64 x ${tasks}:`, JSON.stringify((lp[`64x${tasks}`] as any).medianSeconds), JSON.stringify((lp[`64x${tasks}`] as any).statuses));
  }
  const m12 = (milp['4x12'] as any).medianSeconds.highs;
  const l100 = (lp['64x100'] as any).medianSeconds.highs;
  return {
    description: 'seconds per solve; MILP: buildVcschedModel for every engine, HiGHS gaps 0; LP: javascript-lp-solver (4 x 12) and HiGHS solve the compact relaxation as the heuristics do (solveVcschedLp: buildVcschedRelaxation, HiGHS dual simplex), GLPK and the capped javascript-lp-solver run at 64 hosts the paper form (buildVcschedModel relax), so 64-host ratios compare engines and forms together; javascript-lp-solver MILP time limit milpTimeLimitSeconds, LP capped by a worker',
    milpTimeLimitSeconds: MILP_LIMIT_S,
    jslsLpCapSeconds: JSLS_LP_CAP_S,
    targets: { milp4x12MedianSeconds: 3, lp64x100Seconds: 10, milp4x12Met: m12 <= 3, lp64x100Met: l100 <= 10 },
    milp,
    lp,
  };
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
