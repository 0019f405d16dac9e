/**
 * Benchmark: two builds of the batch loop side by side in one process. EASY
 * (requested estimates) on full HPC2N, columns in and start times out, each
 * build's `simulateBatchColumns` called in turn (which goes first alternates),
 * CPU time per call; the first rounds (JIT warm-up) are dropped. Every start
 * must be identical in both builds. Where easy-c.ts compares us with C, this
 * compares two versions of us on equal terms (same process, same moment).
 * Run: npx ts-node --transpile-only bench/batch-ab.ts --a DIST --b DIST [--label NAME]
 *      (DIST: a compiled dist/ folder; writes bench/results/batch-ab.json)
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const arg = (name: string, fallback?: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  if (i > 0 && process.argv[i + 1]) return process.argv[i + 1];
  if (fallback === undefined) throw new Error(`bench/batch-ab.ts: --${name} is required`);
  return fallback;
};
const ROUNDS = 24;
const WARMUP = 4;
const TRACE = path.join(process.env.SCHEDLAB_TRACE_DIR ?? path.join(__dirname, '..', '..', 'shared', 'data', 'traces'), 'HPC2N-2002-2.2-cln.swf.gz');

type Simulate = (c: unknown, o: Record<string, unknown>) => Float64Array;

async function main(): Promise<void> {
  const builds = { a: path.resolve(arg('a')), b: path.resolve(arg('b')) };
  const { readSwfColumns } = require(path.join(builds.a, 'workloads', 'swf'));
  const { columns, header } = await readSwfColumns(TRACE, {});
  const machineSize = Number(header.fields.MaxProcs);
  const run: Record<'a' | 'b', Simulate> = {
    a: require(path.join(builds.a, 'schedulers', 'batch', 'simulate')).simulateBatchColumns,
    b: require(path.join(builds.b, 'schedulers', 'batch', 'simulate')).simulateBatchColumns,
  };
  const cpuMs: Record<'a' | 'b', number[]> = { a: [], b: [] };
  let first: Float64Array | undefined;
  for (let r = 0; r < ROUNDS; r++) {
    for (const k of r % 2 ? (['a', 'b'] as const) : (['b', 'a'] as const)) {
      const u0 = process.cpuUsage();
      const start = run[k](columns, { machineSize, policy: 'easy', estimates: 'requested' });
      const u = process.cpuUsage(u0);
      if (r >= WARMUP) cpuMs[k].push((u.user + u.system) / 1000);
      first ??= start;
      for (let i = 0; i < start.length; i++) if (start[i] !== first[i]) throw new Error(`build ${k} starts job ${i} at ${start[i]}, the other at ${first[i]}`);
    }
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
  const entry = {
    label: arg('label', new Date().toISOString()),
    date: new Date().toISOString(),
    loadAverage1m: +os.loadavg()[0].toFixed(2),
    builds,
    rounds: ROUNDS - WARMUP,
    cpuMedianMs: { a: +median(cpuMs.a).toFixed(1), b: +median(cpuMs.b).toFixed(1) },
    bOverA: +(median(cpuMs.b) / median(cpuMs.a)).toFixed(3),
    everyStartIdentical: true,
  };
  console.log(JSON.stringify(entry));
  const file = path.join(__dirname, 'results', 'batch-ab.json');
  const previous = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { entries: unknown[] }).entries : [];
  fs.writeFileSync(file, JSON.stringify({ bench: 'batch-ab', what: 'EASY (requested) on full HPC2N, two builds of the batch loop called in turn in one process, CPU ms per call (median after warm-up)', entries: [...previous, entry] }, null, 2) + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
