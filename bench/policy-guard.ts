/**
 * Benchmark: what the policy guard (util/policy-guard.ts) costs a user
 * policy. EASY with requested estimates on the full HPC2N trace (columns in,
 * start times out): the built-in (called directly, no guard), and the same
 * policy object renamed, which runs as a user policy (read-only view, every
 * call timed; invariant checks on, as for every user policy) with the
 * decision budget on and off. Two-tier: MEASY and a renamed MEASY (job views,
 * frozen copies, a read-only proxy of queued()) on a 20,000-job Feitelson
 * workload. And the guard alone: nanoseconds per call of a trivial decision.
 * Rounds interleaved, medians.
 * Run: npx ts-node --transpile-only bench/policy-guard.ts (ONLY=batch or ONLY=two-tier for one family)
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadTraceSync } from '../src/workloads/traces';
import { toColumns } from '../src/workloads/columns';
import { BUILTIN_BATCH_POLICIES, BatchPolicySpec, simulateBatchColumns } from '../src/schedulers/batch';
import { BUILTIN_TWO_TIER_POLICIES, measyWorkload, simulateTwoTier, TwoTierPolicySpec } from '../src/schedulers/twotier';
import { PolicyGuard, setPolicyBudget } from '../src/util/policy-guard';

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (fn: () => unknown) => {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
};

const loadAtStart = os.loadavg().map((x) => +x.toFixed(2));
const trace = loadTraceSync('HPC2N');
const columns = toColumns(trace.jobs);
const machineSize = trace.info.machineSize;
const userEasy = { ...BUILTIN_BATCH_POLICIES.easy, name: 'user-easy' };
const twoTierJobs = process.env.ONLY === 'batch' ? [] : measyWorkload({ workload: 'feitelson', jobs: 20000, load: 0.8, seed: 1 });
const userMeasy = { ...BUILTIN_TWO_TIER_POLICIES.measy, name: 'user-measy' };

const batch = (policy: BatchPolicySpec, budget?: number) => () => {
  setPolicyBudget(budget);
  simulateBatchColumns(columns, { machineSize, policy, estimates: 'requested' });
};
const twoTier = (policy: TwoTierPolicySpec) => () => simulateTwoTier(twoTierJobs, { machineSize: 320, policy });
const all: [string, () => void][] = [
  ['batch EASY HPC2N requested, built-in', batch('easy')],
  ['batch EASY HPC2N requested, as a user policy (guard, budget 10 s)', batch(userEasy)],
  ['batch EASY HPC2N requested, as a user policy (guard, budget off)', batch(userEasy, 0)],
  ['two-tier MEASY 20,000 Feitelson jobs, built-in', twoTier('measy')],
  ['two-tier MEASY 20,000 Feitelson jobs, as a user policy (guard, views)', twoTier(userMeasy)],
];
// ONLY=batch or ONLY=two-tier runs one family's cases.
const cases = all.filter(([name]) => !process.env.ONLY || name.startsWith(process.env.ONLY));
for (const [, fn] of cases) fn(); // warm-up
const times = cases.map(() => [] as number[]);
for (let r = 0; r < ROUNDS; r++) cases.forEach(([, fn], k) => times[k].push(ms(fn)));
setPolicyBudget(undefined);

// The guard alone: ns per call of a trivial decision, direct and guarded (budget on and off).
const CALLS = 2_000_000;
let sink = 0;
const decision = () => sink++;
const guarded = (budget: number | undefined) => {
  setPolicyBudget(budget);
  const g = new PolicyGuard({ name: 'bench' }, () => 0);
  return () => {
    for (let k = 0; k < CALLS; k++) g.call('schedule', decision);
  };
};
const perCall: [string, () => void][] = [
  ['direct call', () => { for (let k = 0; k < CALLS; k++) decision(); }],
  ['PolicyGuard.call, budget 10 s', guarded(undefined)],
  ['PolicyGuard.call, budget off', guarded(0)],
];
const callTimes = perCall.map(() => [] as number[]);
for (let r = 0; r < ROUNDS; r++) perCall.forEach(([, fn], k) => callTimes[k].push(ms(fn)));
setPolicyBudget(undefined);

const result = {
  benchmark: 'policy-guard',
  description: `wall-clock ms, median of ${ROUNDS} interleaved rounds`,
  node: process.version,
  date: new Date().toISOString(),
  loadAverage: { start: loadAtStart, end: os.loadavg().map((x) => +x.toFixed(2)) },
  cases: cases.map(([name], k) => ({ name, medianMs: +median(times[k]).toFixed(1), minMs: +Math.min(...times[k]).toFixed(1) })),
  nsPerCall: perCall.map(([name], k) => ({ name, median: +((median(callTimes[k]) * 1e6) / CALLS).toFixed(1) })),
};
for (const c of result.cases) console.log(`${c.name.padEnd(72)} ${String(c.medianMs).padStart(8)} ms (min ${c.minMs})`);
for (const c of result.nsPerCall) console.log(`${c.name.padEnd(72)} ${String(c.median).padStart(8)} ns a call`);
if (!process.env.NO_WRITE) fs.writeFileSync(path.join(__dirname, 'results', 'policy-guard.json'), JSON.stringify(result, null, 2) + '\n');
