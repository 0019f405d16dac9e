/**
 * Benchmark: cost of invariant checking. Each workload is run with checks off
 * and on (alternating, best of REPEATS): the off time should match the time
 * before checks existed (one boolean per check site), the on time shows what
 * SCHEDLAB_CHECK_INVARIANTS=1 costs.
 * Run: npx ts-node --transpile-only bench/hardening.ts
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { generateLublin } from '../src/workloads/lublin';
import { simulateBatch, BatchPolicy } from '../src/schedulers/batch';
import { summarizeRun } from '../src/metrics/jobs';
import { scheduleByName, evolvingTestCase } from '../src/schedulers/evolving';
import { maxStretchLowerBound } from '../src/bounds/maxstretch';
import { syntheticDfrsTrace, scaleToLoad } from '../src/workloads/dfrs';
import { setInvariantChecks } from '../src/util/invariants';

const REPEATS = 5;

function best(fn: () => unknown): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

function compare(name: string, fn: () => unknown): Record<string, unknown> {
  const off: number[] = [];
  const on: number[] = [];
  fn(); // warm up
  for (let k = 0; k < REPEATS; k++) {
    setInvariantChecks(false);
    off.push(best(fn));
    setInvariantChecks(true);
    on.push(best(fn));
  }
  setInvariantChecks(undefined);
  const offMs = Math.min(...off);
  const onMs = Math.min(...on);
  return { workload: name, offMs: +offMs.toFixed(1), onMs: +onMs.toFixed(1), onOverOff: +(onMs / offMs).toFixed(2) };
}

const jobs = generateLublin({ jobs: 50000, seed: 'bench-hardening', machineSize: 256 });
const runs: Record<string, unknown>[] = [];
for (const policy of ['fcfs', 'easy', 'conservative'] as BatchPolicy[]) {
  runs.push(compare(`${policy}, 50,000 Lublin jobs on 256 processors (+ summarizeRun)`, () => summarizeRun(simulateBatch(jobs, { machineSize: 256, policy }), { machineSize: 256 })));
}
const apps = Array.from({ length: 20 }, (_, i) => evolvingTestCase('bench-hardening', i));
runs.push(compare('evolving: rigid + 5 variants on 20 tests (15–20 apps)', () => {
  for (const a of apps) for (const alg of ['rigid', 'noX', '2X', '2X+c', 'infX', 'infX+c']) scheduleByName(a, 75, alg);
}));
const dfrs = scaleToLoad(syntheticDfrsTrace({ seed: 9 }), 0.7, 128);
runs.push(compare(`max-stretch bound (flow), synthetic DFRS trace of ${dfrs.length} jobs on 128 nodes`, () => maxStretchLowerBound(dfrs, { nodes: 128 })));

const result = { benchmark: 'invariant checks off vs on', repeats: REPEATS, runs, node: process.version, cpus: os.cpus().length, loadAverage: os.loadavg().map((x) => +x.toFixed(2)) };
const dir = path.join(__dirname, 'results');
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'hardening.json'), JSON.stringify(result, null, 2) + '\n');
for (const r of runs) console.log(`${String(r.workload).padEnd(80)} off ${String(r.offMs).padStart(8)} ms   on ${String(r.onMs).padStart(8)} ms   ×${r.onOverOff}`);
