/**
 * Benchmark: how long the complete Table 2 of notebook 01 takes at paper
 * scale (182 HPC2N weeks, 100 unscaled and 100 × 9 scaled synthetic traces,
 * FCFS, EASY and the 18 DFRS algorithms, one Theorem 1 bound per trace), by
 * timing every cell on a sample of traces of each set (6 weeks, 2 unscaled
 * traces, 3 base traces at each of the 9 loads) and extrapolating.
 * CPU time (process.cpuUsage), so that other work on the machine inflates it
 * less than wall time; the estimate for 2 cores is the CPU total / 2.
 * Target (issue 16): <= 45 min on 2 cores.
 * Run: npx ts-node --transpile-only bench/dfrs-table2.ts  (BENCH_DFRS_WEEKS=n sampled weeks, default 6)
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { dfrsBound, dfrsTrace, DfrsTraceSpec, runDfrsCell } from '../src/schedulers/dfrs/experiment';
import { DFRS_PAPER_GRID, DFRS_TABLE2_ALGORITHMS } from '../src/sweep/papers/01-dfrs-vs-batch';
import { DFRS_PAPER_COUNTS } from '../src/workloads/dfrs';

const TARGET_MINUTES = 45;
const paper = DFRS_PAPER_GRID.paper;
const cpuSeconds = (fn: () => void) => {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
};

/** CPU seconds of one trace: its bound plus all Table 2 cells. */
function traceCost(spec: DfrsTraceSpec) {
  const t = dfrsTrace(spec);
  let bound = 0;
  const boundSeconds = cpuSeconds(() => (bound = dfrsBound(t.jobs, t.nodes)));
  const cells: Record<string, number> = {};
  for (const algorithm of DFRS_TABLE2_ALGORITHMS) {
    cells[algorithm] = cpuSeconds(() =>
      runDfrsCell({ jobs: t.jobs, nodes: t.nodes, cores: t.cores, algorithm, bound, batchUnit: spec.trace_set === 'hpc2n' ? 'core' : 'node' }),
    );
  }
  const total = boundSeconds + Object.values(cells).reduce((a, b) => a + b, 0);
  console.log(`${t.name.padEnd(16)} ${String(t.jobs.length).padStart(5)} jobs: ${total.toFixed(2)} s CPU (bound ${boundSeconds.toFixed(3)} s)`);
  return { trace: t.name, jobs: t.jobs.length, boundSeconds: +boundSeconds.toFixed(3), totalSeconds: +total.toFixed(3), cells };
}

const mean = (xs: { totalSeconds: number }[]) => xs.reduce((a, x) => a + x.totalSeconds, 0) / xs.length;
const weeks = Number(process.env.BENCH_DFRS_WEEKS ?? 6);
const weekIndex = (i: number) => Math.floor((i * DFRS_PAPER_COUNTS.hpc2n) / weeks);
const hpc2n = Array.from({ length: weeks }, (_, i) => traceCost({ trace_set: 'hpc2n', trace_index: weekIndex(i) }));
const unscaled = [1, 2].map((i) => traceCost({ trace_set: 'unscaled', trace_index: i, jobs_per_trace: paper.jobsPerTrace, base_seed: paper.baseSeed }));
const SCALED_BASES = [0, 1, 2];
const scaledRuns = paper.loads.map((load) =>
  SCALED_BASES.map((i) => traceCost({ trace_set: 'scaled', trace_index: i, load, jobs_per_trace: paper.jobsPerTrace, base_seed: paper.baseSeed })),
);
const scaled = scaledRuns.map((runs) => ({ trace: `lublin-{${SCALED_BASES.join(',')}}@${runs[0].trace.split('@')[1]}`, totalSeconds: mean(runs) }));

const cpuTotal = paper.hpc2nWeeks * mean(hpc2n) + paper.nUnscaled * mean(unscaled) + paper.nScaledBase * scaled.reduce((a, x) => a + x.totalSeconds, 0);
const minutesOn2Cores = cpuTotal / 2 / 60;
const result = {
  benchmark: 'DFRS Table 2 at paper scale, extrapolated from a sample of traces',
  sample: { hpc2nWeeks: hpc2n.map((x) => x.trace), unscaled: unscaled.map((x) => x.trace), scaled: scaled.map((x) => x.trace) },
  meanTraceCpuSeconds: { hpc2n: +mean(hpc2n).toFixed(2), unscaled: +mean(unscaled).toFixed(2), scaledPerLoad: scaled.map((x) => +x.totalSeconds.toFixed(2)) },
  estimatedCpuSeconds: +cpuTotal.toFixed(0),
  estimatedMinutesOn2Cores: +minutesOn2Cores.toFixed(1),
  targetMinutes: TARGET_MINUTES,
  meetsTarget: minutesOn2Cores <= TARGET_MINUTES,
  traces: [...hpc2n, ...unscaled, ...scaledRuns.flat()],
  node: process.version,
  cpus: os.cpus().length,
  loadavg: os.loadavg().map((x) => +x.toFixed(2)),
  date: new Date().toISOString(),
};
const out = path.join(__dirname, 'results', 'dfrs-table2.json');
fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
console.log(`Table 2 at paper scale: ~${result.estimatedCpuSeconds} s CPU, ~${result.estimatedMinutesOn2Cores} min on 2 cores (target <= ${TARGET_MINUTES} min: ${result.meetsTarget ? 'met' : 'NOT met'}) -> ${out}`);
