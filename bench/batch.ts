/**
 * Benchmark: batch schedulers on the full HPC2N trace (202,871 jobs, 240
 * processors). Target: EASY with exact estimates in under 3 s.
 * Run: npx ts-node --transpile-only bench/batch.ts
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadTraceSync } from '../src/workloads/traces';
import { simulateBatch, BatchPolicy, BatchEstimates } from '../src/schedulers/batch';

const REPEATS = 3;

function timeIt<T>(fn: () => T): { ms: number; value: T } {
  const t0 = process.hrtime.bigint();
  const value = fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, value };
}

const load = timeIt(() => loadTraceSync('HPC2N'));
const trace = load.value;
const machineSize = trace.info.machineSize;
const runs: Record<string, unknown>[] = [];
const cases: [BatchPolicy, BatchEstimates][] = [
  ['easy', 'exact'],
  ['easy', 'requested'],
  ['fcfs', 'exact'],
  ['conservative', 'exact'],
];
for (const [policy, estimates] of cases) {
  const times: number[] = [];
  let meanWait = 0;
  for (let k = 0; k < (policy === 'easy' && estimates === 'exact' ? REPEATS : 1); k++) {
    const r = timeIt(() => simulateBatch(trace.jobs, { machineSize, policy, estimates }));
    times.push(r.ms);
    meanWait = r.value.reduce((s, x) => s + x.wait, 0) / r.value.length;
  }
  const best = Math.min(...times);
  runs.push({
    policy,
    estimates,
    jobs: trace.jobs.length,
    seconds: +(best / 1000).toFixed(3),
    allSeconds: times.map((t) => +(t / 1000).toFixed(3)),
    jobsPerSecond: Math.round(trace.jobs.length / (best / 1000)),
    meanWaitSeconds: +meanWait.toFixed(1),
  });
}
const easy = runs[0] as { seconds: number };
const result = {
  benchmark: 'batch schedulers on full HPC2N',
  trace: trace.info.name,
  machineSize,
  jobs: trace.jobs.length,
  loadTraceSeconds: +(load.ms / 1000).toFixed(3),
  targetSeconds: 3,
  easyExactMeetsTarget: easy.seconds < 3,
  runs,
  node: process.version,
  cpus: os.cpus().length,
  date: new Date().toISOString(),
};
const out = path.join(__dirname, 'results', 'batch.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
console.log(`HPC2N: ${trace.jobs.length} jobs, ${machineSize} procs; trace load ${result.loadTraceSeconds} s`);
for (const r of runs as { policy: string; estimates: string; seconds: number; jobsPerSecond: number }[]) {
  console.log(`  ${r.policy.padEnd(12)} ${r.estimates.padEnd(9)} ${r.seconds.toFixed(3)} s  ${r.jobsPerSecond} jobs/s`);
}
console.log(`EASY (exact) target < 3 s: ${result.easyExactMeetsTarget ? 'met' : 'NOT met'} -> ${out}`);
