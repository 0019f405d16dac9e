/**
 * Benchmark: what notebook 01's workers spend building traces and their
 * bounds over the whole paper-scale run, with the traces and bounds kept as
 * before (the last 4 traces with their bounds) and now (the last 4 traces,
 * every bound), issue 29 target 3.
 *  1. The CPU seconds of building each of the 1,182 traces and of its bound,
 *     measured once each in this process.
 *  2. The notebook's 152,478 cells in enumeration order dealt to 2 workers
 *     (cell i to worker i mod 2: the pool gives each free worker the next
 *     cell, and a trace's cells are alike), each worker replaying its cache:
 *     how many traces and bounds it builds, and their CPU.
 * Run: NODE_PATH=node_modules npx ts-node --transpile-only -P tsconfig.json bench/dfrs-trace-builds.ts
 *      (writes bench/results/dfrs-trace-builds.json)
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { canonicalJson, Json, sweepCells } from '../src/sweep/grid';
import { paperSweep } from '../src/sweep/papers/01-dfrs-vs-batch';
import { dfrsBound, dfrsTrace, DfrsTraceSpec } from '../src/schedulers/dfrs/experiment';

const WORKERS = 2;
const KEPT_TRACES = 4;
const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};

function specOf(p: Record<string, unknown>): DfrsTraceSpec {
  return (p.trace_set === 'hpc2n'
    ? { trace_set: 'hpc2n', trace_index: p.trace_index }
    : { trace_set: p.trace_set, trace_index: p.trace_index, ...(p.load !== null ? { load: p.load } : {}), jobs_per_trace: p.jobs_per_trace, base_seed: p.base_seed }) as DfrsTraceSpec;
}

function main(): void {
  const loadStart = os.loadavg()[0];
  const cells = sweepCells(paperSweep);
  const keys = cells.map((c) => canonicalJson(specOf(c.params) as unknown as Json));
  // 1. Each trace and its bound, once.
  const cost = new Map<string, { set: string; trace: number; bound: number }>();
  for (let i = 0; i < cells.length; i++) {
    if (cost.has(keys[i])) continue;
    const spec = specOf(cells[i].params);
    const c0 = cpu();
    const t = dfrsTrace(spec);
    const c1 = cpu();
    dfrsBound(t.jobs, t.nodes);
    cost.set(keys[i], { set: spec.trace_set, trace: c1 - c0, bound: cpu() - c1 });
  }
  // 2. Each worker's builds, as before and now.
  const replay = (keepBounds: boolean) => {
    let traces = 0;
    let bounds = 0;
    let seconds = 0;
    for (let w = 0; w < WORKERS; w++) {
      const recent: string[] = [];
      const bound = new Set<string>();
      for (let i = w; i < cells.length; i += WORKERS) {
        const k = keys[i];
        const at = recent.indexOf(k);
        if (at >= 0) recent.splice(at, 1);
        else {
          traces++;
          seconds += (cost.get(k) as { trace: number }).trace;
          if (!keepBounds) {
            bounds++;
            seconds += (cost.get(k) as { bound: number }).bound;
          }
        }
        recent.push(k);
        if (recent.length > KEPT_TRACES) recent.shift();
        if (keepBounds && !bound.has(k)) {
          bound.add(k);
          bounds++;
          seconds += (cost.get(k) as { bound: number }).bound;
        }
      }
    }
    return { traceBuilds: traces, boundBuilds: bounds, cpuSeconds: +seconds.toFixed(1) };
  };
  const bySet: Record<string, { traces: number; traceSeconds: number; boundSeconds: number; maxBoundSeconds: number }> = {};
  for (const c of cost.values()) {
    const s = (bySet[c.set] ??= { traces: 0, traceSeconds: 0, boundSeconds: 0, maxBoundSeconds: 0 });
    s.traces++;
    s.traceSeconds += c.trace;
    s.boundSeconds += c.bound;
    s.maxBoundSeconds = Math.max(s.maxBoundSeconds, c.bound);
  }
  const round = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, +v.toFixed(3)]));
  const out = {
    bench: 'dfrs-trace-builds',
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadAverage1m: { start: +loadStart.toFixed(2), end: +os.loadavg()[0].toFixed(2) } },
    cells: cells.length,
    traces: cost.size,
    perTraceSet: Object.fromEntries(Object.entries(bySet).map(([k, v]) => [k, round(v)])),
    workers: WORKERS,
    before: { kept: `last ${KEPT_TRACES} traces with their bounds`, ...replay(false) },
    after: { kept: `last ${KEPT_TRACES} traces, every bound`, ...replay(true) },
  };
  console.error(JSON.stringify(out, null, 2));
  fs.writeFileSync(path.join(__dirname, 'results', 'dfrs-trace-builds.json'), JSON.stringify(out, null, 2) + '\n');
}

main();
