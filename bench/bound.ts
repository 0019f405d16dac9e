/**
 * Benchmark: offline max-stretch lower bound (Theorem 1, max-flow path) on one
 * full synthetic DFRS trace (1,000 Lublin jobs, 128 nodes, offered load 0.9).
 * Target: under 1 s. Also times the LP path on a small prefix (it does not
 * scale to full traces) and the bound on the busiest HPC2N week.
 * Writes bench/results/bound.json.
 */
import * as fs from 'fs';
import * as path from 'path';
import { maxStretchLowerBound } from '../src/bounds/maxstretch';
import { HPC2N_NODES, hpc2nWeeks, readHpc2n, scaleToLoad, syntheticDfrsTrace } from '../src/workloads/dfrs';

function time<T>(fn: () => T): { ms: number; value: T } {
  const t0 = process.hrtime.bigint();
  const value = fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, value };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const TARGET_MS = 1000;
const seeds = [1, 2, 3, 4, 5];
const synthetic = seeds.map((seed) => {
  const jobs = scaleToLoad(syntheticDfrsTrace({ seed, jobs: 1000, nodes: 128 }), 0.9, 128);
  maxStretchLowerBound(jobs, { nodes: 128 }); // warm-up (JIT)
  const runs = [0, 1, 2].map(() => time(() => maxStretchLowerBound(jobs, { nodes: 128 })));
  const r = runs[0].value;
  return { seed, jobs: jobs.length, load: 0.9, bound: r.bound, upper: r.upper, iterations: r.iterations, medianMs: median(runs.map((x) => x.ms)) };
});

// LP vs flow on the first 60 jobs of trace 1, squeezed onto 16 nodes so the
// bound is not trivially 1 (same answer, very different cost).
const prefix = scaleToLoad(syntheticDfrsTrace({ seed: 1, jobs: 1000, nodes: 128 }), 0.9, 128).slice(0, 60);
const flowSmall = time(() => maxStretchLowerBound(prefix, { nodes: 16, method: 'flow' }));
const lpSmall = time(() => maxStretchLowerBound(prefix, { nodes: 16, method: 'lp' }));

// Busiest HPC2N week.
const weeks = hpc2nWeeks(readHpc2n());
const busiest = weeks.reduce((a, b) => (b.length > a.length ? b : a));
const hpc = time(() => maxStretchLowerBound(busiest, { nodes: HPC2N_NODES }));

const mainMs = synthetic[0].medianMs;
const result = {
  benchmark: 'maxStretchLowerBound, flow method, 1000-job synthetic trace at load 0.9, 128 nodes',
  targetMs: TARGET_MS,
  mainMs,
  meetsTarget: mainMs < TARGET_MS,
  synthetic,
  lpVsFlow60Jobs: {
    jobs: prefix.length,
    nodes: 16,
    flow: { ms: flowSmall.ms, bound: flowSmall.value.bound, iterations: flowSmall.value.iterations },
    lp: { ms: lpSmall.ms, bound: lpSmall.value.bound, iterations: lpSmall.value.iterations },
  },
  hpc2nBusiestWeek: { jobs: busiest.length, ms: hpc.ms, bound: hpc.value.bound, iterations: hpc.value.iterations },
  node: process.version,
  date: new Date().toISOString(),
};
const out = path.join(__dirname, 'results', 'bound.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');

console.log(`bound (flow) on 1000 jobs @ load 0.9: ${mainMs.toFixed(1)} ms (target < ${TARGET_MS} ms) -> ${result.meetsTarget ? 'OK' : 'MISSED'}`);
for (const s of synthetic) console.log(`  seed ${s.seed}: bound ${s.bound.toFixed(4)} in ${s.iterations} checks, ${s.medianMs.toFixed(1)} ms`);
console.log(`60-job prefix on 16 nodes: flow ${flowSmall.ms.toFixed(1)} ms (bound ${flowSmall.value.bound.toFixed(4)}), lp ${lpSmall.ms.toFixed(1)} ms (bound ${lpSmall.value.bound.toFixed(4)})`);
console.log(`busiest HPC2N week (${busiest.length} jobs): ${hpc.ms.toFixed(1)} ms, bound ${hpc.value.bound.toFixed(4)}`);
console.log(`wrote ${out}`);
