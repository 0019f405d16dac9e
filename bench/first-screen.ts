/**
 * Benchmark: a notebook's first screen without its chart rendering: reading
 * and checking the committed paper-scale results (`readCommittedPair`), then
 * judging the paper's claims on them (`claimsFor`). CPU seconds, each
 * measurement in a fresh process (as a notebook kernel starts; in one process
 * the heap left by the earlier readings blurs the comparison), alternating:
 *  - eager: every field of every record parsed while reading (as before);
 *  - deferred: the experiment's `deferredFields` (notebook 01's per-call MCB8
 *    lists, about half of its text) cut out of each line and parsed on first read.
 * Both must give the same records (JSON text of each, and of the claims), checked in this process.
 * Run: node --max-old-space-size=8000 -r ts-node/register/transpile-only bench/first-screen.ts [rounds] [notebook prefix]
 * (writes bench/results/first-screen.json when run on every notebook it knows)
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { claimsFor } from '../src/claims';
import { sweepCellKeys } from '../src/sweep/grid';
import { committedRoot, findPaperExperiment, paperResultsFile, readCommittedPair } from '../src/sweep/papers';
import { CommittedResults } from '../src/sweep/papers/committed';
import { ResultRecord } from '../src/sweep/store';

const NOTEBOOKS = ['01-dfrs-vs-batch', '02-virtual-clusters'];
const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};
const round = (x: number) => Math.round(x * 100) / 100;
const gc = () => (global as { gc?: () => void }).gc?.();

type Variant = 'eager' | 'deferred';

/** The first screen's work on one notebook: its records in cell order (as `loadCommittedResults`) and the claims judged on them. */
function firstScreen(notebook: string, variant: Variant) {
  const experiment = findPaperExperiment(notebook);
  const sweep = experiment.sweep('paper');
  const gz = paperResultsFile(experiment.notebook, sweep, null, committedRoot()) + '.gz';
  const cells = sweepCellKeys(sweep);
  gc();
  let t = cpu();
  const read = readCommittedPair(gz, sweep, experiment.notebook, cells, variant === 'deferred' ? experiment.deferredFields : []);
  const byKey = new Map(read.records.map((r) => [r.key, r]));
  const records = cells.map((k) => byKey.get(k)).filter((r): r is ResultRecord => r !== undefined);
  const readCpuS = cpu() - t;
  const committed = { notebook, file: gz, provenance: read.provenance, records, cells: cells.length, missing: cells.length - records.length, stale: 0, damaged: null, status: 'bench' } as CommittedResults;
  t = cpu();
  const claims = claimsFor(notebook, committed);
  const claimsCpuS = cpu() - t;
  return { records, claims: JSON.stringify({ results: claims.results, counts: claims.counts, chart: claims.chart }), readCpuS, claimsCpuS };
}

function main(): void {
  if (process.argv[2] === 'child') {
    const r = firstScreen(process.argv[4], process.argv[3] as Variant);
    process.stdout.write(JSON.stringify({ readCpuS: r.readCpuS, claimsCpuS: r.claimsCpuS, heapMB: Math.round(process.memoryUsage().heapUsed / 1e6) }) + '\n');
    return;
  }
  const rounds = Number(process.argv[2] ?? 2);
  const which = process.argv[3] ?? '';
  const rows: Record<string, unknown>[] = [];
  for (const notebook of NOTEBOOKS.filter((n) => n.startsWith(which))) {
    const gz = paperResultsFile(notebook, findPaperExperiment(notebook).sweep('paper'), null, committedRoot()) + '.gz';
    if (!fs.existsSync(gz)) continue;
    const times: Record<Variant, { read: number[]; claims: number[]; heapMB: number[] }> = { eager: { read: [], claims: [], heapMB: [] }, deferred: { read: [], claims: [], heapMB: [] } };
    for (let i = 0; i < rounds; i++) {
      for (const variant of (i % 2 === 0 ? ['eager', 'deferred'] : ['deferred', 'eager']) as Variant[]) {
        const out = execFileSync(process.execPath, [...process.execArgv, __filename, 'child', variant, notebook], { encoding: 'utf8', maxBuffer: 1 << 20 });
        const r = JSON.parse(out.trim().split('\n').pop()!);
        times[variant].read.push(round(r.readCpuS));
        times[variant].claims.push(round(r.claimsCpuS));
        times[variant].heapMB.push(r.heapMB);
      }
    }
    // Same records and claims, whichever way they were read.
    const eager = firstScreen(notebook, 'eager');
    const deferred = firstScreen(notebook, 'deferred');
    if (eager.claims !== deferred.claims) throw new Error(`${notebook}: claims differ between eager and deferred reading`);
    if (eager.records.length !== deferred.records.length) throw new Error(`${notebook}: ${eager.records.length} records eager, ${deferred.records.length} deferred`);
    eager.records.forEach((r, i) => {
      if (JSON.stringify(r) !== JSON.stringify(deferred.records[i])) throw new Error(`${notebook}: record ${r.key} differs between eager and deferred reading`);
    });
    const mean = (xs: number[]) => round(xs.reduce((a, b) => a + b, 0) / xs.length);
    const row = {
      notebook,
      records: eager.records.length,
      rounds,
      eagerReadCpuS: mean(times.eager.read),
      deferredReadCpuS: mean(times.deferred.read),
      eagerClaimsCpuS: mean(times.eager.claims),
      deferredClaimsCpuS: mean(times.deferred.claims),
      eagerHeapMB: mean(times.eager.heapMB),
      deferredHeapMB: mean(times.deferred.heapMB),
      runs: times,
    };
    rows.push(row);
    process.stdout.write(JSON.stringify(row) + '\n');
  }
  const out = { date: new Date().toISOString(), loadAverage: os.loadavg()[0], cores: os.availableParallelism(), node: process.version, rows };
  if (!which) fs.writeFileSync(path.join(__dirname, 'results', 'first-screen.json'), JSON.stringify(out, null, 2) + '\n');
  process.stdout.write(`first-screen (load average ${out.loadAverage.toFixed(1)})\n`);
}

main();
