/**
 * Benchmark: notebook 01's render at paper scale, step by step (issue 29, target 1): the CPU seconds of the
 * code of its first screen (claims and headline chart), its traces cell (the traces, then the records: reading
 * the committed pair and re-running the live sample, then the traces table), the published-batch and ablation
 * records and the bound's readings, as the notebook's cells run them, in one process against a compiled
 * toolkit folder (default dist/), so that two builds (before/after a change) are timed by the same script.
 * `--old-traces` builds every trace up front as the notebook did before (prepareDfrsTrace, the traces table
 * from the jobs); the default builds them lazily (lazyDfrsTrace, dfrsTraceRows).
 * Run: npx ts-node --transpile-only bench/render-01.ts [--dist DIR] [--old-traces] label
 * Writes bench/results/render-01.json (the label's entry; other labels are kept).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const root = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const distAt = args.indexOf('--dist');
const dist = path.resolve(distAt >= 0 ? args[distAt + 1] : path.join(root, 'dist'));
const oldTraces = args.includes('--old-traces');
const label = args.filter((a, i) => !a.startsWith('--') && i !== distAt + 1).pop() ?? 'run';
const resultsFile = path.join(root, 'bench', 'results', 'render-01.json');

const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
const steps: Record<string, number> = {};
async function step<T>(name: string, f: () => T | Promise<T>): Promise<T> {
  const c0 = cpu();
  const out = await f();
  steps[name] = Number((cpu() - c0).toFixed(2));
  process.stderr.write(`${name}: ${steps[name]} s CPU\n`);
  return out;
}

async function main(): Promise<void> {
  const load = os.loadavg()[0];
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const s = require(dist);
  const { papers, dfrs, dfrsWorkloads } = s;
  const NB = '01-dfrs-vs-batch';
  await step('first screen: claimsSummary + headlineChart', () => { s.claimsSummary(NB); s.headlineChart(NB); });
  const EXPERIMENT = papers.dfrsVsBatch.experiment;
  const SCALE = papers.notebookScale(EXPERIMENT);
  if (SCALE !== 'paper') throw new Error(`${NB} has no committed paper-scale results here`);
  const GRID = papers.dfrsVsBatch.DFRS_PAPER_GRID[SCALE];
  const weekIndex = (i: number) => Math.floor((i * dfrsWorkloads.DFRS_PAPER_COUNTS.hpc2n) / GRID.hpc2nWeeks);
  const specs = [
    ...Array.from({ length: GRID.hpc2nWeeks }, (_, i) => ({ trace_set: 'hpc2n', trace_index: weekIndex(i), max_jobs: GRID.hpc2nMaxJobs ?? undefined })),
    ...Array.from({ length: GRID.nUnscaled }, (_, i) => ({ trace_set: 'unscaled', trace_index: i, jobs_per_trace: GRID.jobsPerTrace, base_seed: GRID.baseSeed })),
    ...Array.from({ length: GRID.nScaledBase }).flatMap((_, i) => GRID.loads.map((load: number) => ({ trace_set: 'scaled', trace_index: i, load, jobs_per_trace: GRID.jobsPerTrace, base_seed: GRID.baseSeed }))),
  ];
  type Trace = { labels: { trace_set: string; trace: string }; jobs: unknown[]; nodes: number; cores: number; bound: number };
  const traces: Trace[] = await step('traces cell: the traces', () => specs.map((sp) => (oldTraces ? dfrs.prepareDfrsTrace(sp) : papers.dfrsVsBatch.lazyDfrsTrace(sp))));
  const SWEEP = await step('traces cell: records (read, regroup, live sample)', () => papers.records(EXPERIMENT, SCALE, { log: () => undefined }));
  await step('traces cell: traces table', () => {
    if (!oldTraces) return papers.dfrsVsBatch.dfrsTraceRows(traces, SWEEP.table2);
    const bound = new Map(SWEEP.table2.map((r: Record<string, unknown>) => [`${r.trace_set}|${r.trace}`, r.bound]));
    return traces.map((t) => ({ jobs: t.jobs.length, offered_load: dfrsWorkloads.offeredLoad(t.jobs, t.nodes), bound: bound.get(`${t.labels.trace_set}|${t.labels.trace}`) ?? t.bound }));
  });
  await step('Table 2 cell: published-batch records', () => papers.records(papers.dfrsVsBatch.publishedBatchExperiment, SCALE, { log: () => undefined }));
  const ablation = await step('HPC2N ablation records', () => papers.records(papers.dfrsVsBatch.hpc2nAblationExperiment, SCALE, { log: () => undefined }));
  const byName = new Map(traces.filter((t) => t.labels.trace_set === 'hpc2n').map((t) => [t.labels.trace, t]));
  await step("the bound's readings", () => dfrs.boundReadingRecords(ablation.filter((r: Record<string, unknown>) => r.spanning === 'keep' && r.tasks === 'paper'), (r: Record<string, unknown>) => byName.get(String(r.trace))));
  await step('maxima ablation records', () => papers.records(papers.dfrsVsBatch.maximaAblationExperiment, SCALE, { log: () => undefined }));
  const all = JSON.parse(fs.existsSync(resultsFile) ? fs.readFileSync(resultsFile, 'utf8') : '{}');
  all[label] = { date: new Date().toISOString(), loadAverage: { before: load, after: os.loadavg()[0] }, cores: os.cpus().length, dist: path.relative(root, dist), oldTraces, cpuS: steps };
  fs.writeFileSync(resultsFile, JSON.stringify(all, null, 1) + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
