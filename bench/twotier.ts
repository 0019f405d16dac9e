/**
 * Benchmark: MEASY on a Feitelson 1996 workload (the paper's FWload size:
 * 200,000 jobs) on 320 two-tier processors, with Tsafrir estimates and the
 * paper's CPU usage. Reports simulation time and jobs/s (workload generation
 * is timed separately).
 * Run: npx ts-node --transpile-only bench/twotier.ts [--jobs N] [--load L] [--policy P]
 * Results: bench/results/twotier.json
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { measyWorkload, simulateTwoTier, TwoTierPolicy } from '../src/schedulers/twotier';

function arg(name: string, fallback: string): string {
  const k = process.argv.indexOf(`--${name}`);
  return k >= 0 && k + 1 < process.argv.length ? process.argv[k + 1] : fallback;
}
const jobs = Number(arg('jobs', '200000'));
const load = Number(arg('load', '0.8'));
const policy = arg('policy', 'measy') as TwoTierPolicy;
if (!Number.isInteger(jobs) || jobs < 2) throw new RangeError(`--jobs must be an integer >= 2, got ${arg('jobs', '')}`);
if (!(load > 0)) throw new RangeError(`--load must be > 0, got ${arg('load', '')}`);

const t0 = process.hrtime.bigint();
const workload = measyWorkload({ workload: 'feitelson', jobs, load, seed: 1 });
const t1 = process.hrtime.bigint();
const run = simulateTwoTier(workload, { machineSize: 320, policy, migrationCost: 20, seed: 1 });
const t2 = process.hrtime.bigint();
const genSeconds = Number(t1 - t0) / 1e9;
const simSeconds = Number(t2 - t1) / 1e9;
const meanResponse = run.jobs.reduce((s, j) => s + j.response, 0) / run.jobs.length;
const result = {
  benchmark: 'twotier',
  workload: 'feitelson96 + tsafrir05 estimates + paper CPU usage',
  machineSize: 320,
  policy,
  jobs,
  load,
  generateSeconds: Number(genSeconds.toFixed(3)),
  simulateSeconds: Number(simSeconds.toFixed(3)),
  jobsPerSecond: Math.round(jobs / simSeconds),
  events: run.events,
  migrations: run.migrations,
  meanResponse: Number(meanResponse.toFixed(1)),
  node: process.version,
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))),
  date: new Date().toISOString(),
};
const dir = path.join(__dirname, 'results');
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'twotier.json'), JSON.stringify(result, null, 2) + '\n');
console.log(`${policy.toUpperCase()} on ${jobs} Feitelson jobs at load ${load}, 320 processors: ` +
  `simulated in ${simSeconds.toFixed(2)} s (${result.jobsPerSecond} jobs/s; generation ${genSeconds.toFixed(2)} s), ` +
  `${run.migrations} migrations, mean response ${meanResponse.toFixed(0)} s. Load average ${result.loadAverage.join(' ')}.`);
