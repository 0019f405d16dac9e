/**
 * Benchmark: batch schedulers on the full HPC2N trace (202,871 jobs, 240
 * processors). Targets: EASY with requested estimates ≤ 0.25 s (median) and
 * within ×3 of a tight C implementation of the same algorithm
 * (bench/reference/easy.c, compiled and timed in the same run, every start
 * time compared); deep queues (all jobs at t = 0) grow as n log n
 * (conservative: time(4n)/time(n) well under 16, at 20k/80k/200k jobs).
 * Run: npx ts-node --transpile-only bench/batch.ts
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadTraceSync } from '../src/workloads/traces';
import { simulateBatch, BatchPolicy, BatchEstimates } from '../src/schedulers/batch';

const REPEATS = 5;
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

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
// The anchor: the same EASY (requested estimates) in C, timed inside the program, starts compared.
function cReference(): Record<string, unknown> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-easy-c-'));
  try {
    const bin = path.join(dir, 'easy');
    try {
      execFileSync('gcc', ['-O2', '-o', bin, path.join(__dirname, 'reference', 'easy.c')], { stdio: 'pipe' });
    } catch (e) {
      return { skipped: `gcc not available: ${(e as Error).message.split('\n')[0]}` };
    }
    const order = trace.jobs.map((_, i) => i).sort((a, b) => trace.jobs[a].submit - trace.jobs[b].submit || a - b);
    const estimate = (i: number) => {
      const j = trace.jobs[i];
      return j.requestedTime !== undefined && j.requestedTime > 0 ? Math.max(j.requestedTime, j.runtime) : j.runtime;
    };
    const input = `${order.length} ${machineSize}\n` + order.map((i) => `${trace.jobs[i].submit} ${trace.jobs[i].runtime} ${trace.jobs[i].procs} ${estimate(i)}`).join('\n') + '\n';
    const cTimes: number[] = [];
    let starts: number[] = [];
    for (let k = 0; k < REPEATS; k++) {
      const r = require('child_process').spawnSync(bin, [], { input, maxBuffer: 1 << 28 });
      cTimes.push(Number(r.stderr.toString().trim()) * 1000);
      starts = r.stdout.toString().trim().split('\n').map(Number);
    }
    const oursTimes: number[] = [];
    let ours: { start: number }[] = [];
    for (let k = 0; k < REPEATS; k++) {
      const r = timeIt(() => simulateBatch(trace.jobs, { machineSize, policy: 'easy', estimates: 'requested' }));
      oursTimes.push(r.ms);
      ours = r.value;
    }
    let differ = 0;
    order.forEach((i, r) => {
      if (ours[i].start !== starts[r]) differ++;
    });
    const ratio = median(oursTimes) / median(cTimes);
    return {
      policy: 'easy',
      estimates: 'requested',
      cMedianSeconds: +(median(cTimes) / 1000).toFixed(4),
      oursMedianSeconds: +(median(oursTimes) / 1000).toFixed(4),
      ratio: +ratio.toFixed(2),
      jobsWithDifferentStart: differ,
      targets: { oursMedianSeconds: 0.25, ratio: 3 },
      meetsTargets: median(oursTimes) <= 250 && ratio <= 3,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// Deep queues: every job submitted at t = 0 (seeded sizes 1-64, run times 1-1000 s, 128 processors).
function deepQueue(): Record<string, unknown>[] {
  const { createRng } = require('../src/util/random');
  const rows: Record<string, unknown>[] = [];
  const sizes: [BatchPolicy, number[]][] = [
    ['fcfs', [6000, 48000]],
    ['easy', [6000, 48000]],
    ['conservative', [20000, 80000, 200000]],
  ];
  for (const [policy, ns] of sizes) {
    for (const n of ns) {
      const rng = createRng(1);
      const jobs = Array.from({ length: n }, (_, i) => ({ id: i + 1, submit: 0, runtime: rng.int(1, 1000), procs: rng.int(1, 64) }));
      const c0 = process.cpuUsage();
      const ms = timeIt(() => simulateBatch(jobs, { machineSize: 128, policy })).ms;
      const c = process.cpuUsage(c0);
      rows.push({ policy, jobs: n, seconds: +(ms / 1000).toFixed(3), cpuSeconds: +((c.user + c.system) / 1e6).toFixed(3) });
    }
  }
  return rows;
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
  reference: cReference(),
  deepQueue: deepQueue(),
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
console.log('EASY (requested) vs C reference:', JSON.stringify(result.reference));
console.log('deep queues:', JSON.stringify(result.deepQueue));
