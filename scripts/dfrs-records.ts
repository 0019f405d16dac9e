/**
 * Dump the records of runDfrsCell for FCFS, EASY and Table 2's 18 DFRS
 * algorithms on a few traces, timing fields removed, one JSON line per cell.
 * Used to prove that a change to the DFRS simulators leaves every result
 * byte-identical: run before and after, then `cmp` the two files.
 *
 * Run: npx ts-node --transpile-only scripts/dfrs-records.ts OUT.jsonl [hpc2n-week]
 */
import * as fs from 'fs';
import { dfrsBound, dfrsTrace, DfrsTraceSpec, runDfrsCell } from '../src/schedulers/dfrs/experiment';
import { TABLE2_DFRS_ALGORITHMS } from '../src/schedulers/dfrs/names';

const out = process.argv[2];
if (!out) throw new Error('usage: dfrs-records.ts OUT.jsonl [hpc2n-week]');
const week = Number(process.argv[3] ?? 60);
const TIMING = new Set(['wall_ms', 'mcb_mean_ms', 'mcb_max_ms']);
const algorithms = ['FCFS', 'EASY', ...TABLE2_DFRS_ALGORITHMS];
const specs: DfrsTraceSpec[] = [
  { trace_set: 'scaled', trace_index: 0, load: 0.3 },
  { trace_set: 'scaled', trace_index: 0, load: 0.9 },
  { trace_set: 'scaled', trace_index: 3, load: 0.9 },
  { trace_set: 'hpc2n', trace_index: week },
];
const lines: string[] = [];
for (const spec of specs) {
  const t = dfrsTrace(spec);
  const b0 = process.cpuUsage();
  const bound = dfrsBound(t.jobs, t.nodes);
  const bcpu = process.cpuUsage(b0);
  console.error(`${t.name}: ${t.jobs.length} jobs, bound ${bound} in ${((bcpu.user + bcpu.system) / 1e6).toFixed(3)} s CPU`);
  for (const algorithm of algorithms) {
    const c0 = process.cpuUsage();
    const rec = runDfrsCell({
      jobs: t.jobs, nodes: t.nodes, cores: t.cores, algorithm, bound,
      batchUnit: spec.trace_set === 'hpc2n' ? 'core' : 'node',
      labels: { trace_set: spec.trace_set, trace: t.name, load: spec.load ?? null },
    });
    const cpu = process.cpuUsage(c0);
    console.error(`  ${algorithm.padEnd(34)} ${((cpu.user + cpu.system) / 1e6).toFixed(3)} s CPU`);
    const clean = Object.fromEntries(Object.entries(rec).filter(([k]) => !TIMING.has(k)));
    // JSON turns NaN into null; keep the exact float text of every number.
    lines.push(JSON.stringify(clean, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)));
  }
}
fs.writeFileSync(out, lines.join('\n') + '\n');
