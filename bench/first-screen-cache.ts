/**
 * Benchmark: a paper notebook's first screen (`claimsSummary` + `headlineChart`,
 * then the status line `papers.committedStatus`) with the claims cache
 * (src/util/cache.ts) off (every kernel reads, checks and judges the committed
 * records, as before the cache), cold (an empty cache: the same work, plus
 * hashing the inputs and writing the entries) and warm (a second kernel: the
 * entries read and checked against the SHA-256 of the committed files). CPU
 * seconds, each measurement a fresh process (as a kernel), the three
 * alternating within a round. The outputs (summary, chart, status as JSON)
 * must be the same in all three; checked here.
 * Run: node --max-old-space-size=8000 -r ts-node/register/transpile-only bench/first-screen-cache.ts [rounds] [notebook prefix]
 * (writes bench/results/first-screen-cache.json when run on every notebook)
 */
import { execFileSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { claimsSummary, headlineChart } from '../src/claims';
import { committedStatus, findPaperExperiment } from '../src/sweep/papers';

const NOTEBOOKS = ['01-dfrs-vs-batch', '02-virtual-clusters', '03-evolving-applications', '04-advance-reservation', '05-measy'];
const MODES = ['off', 'cold', 'warm'] as const;
const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};
const round = (x: number) => Math.round(x * 1000) / 1000;

function child(notebook: string): void {
  let t = cpu();
  const summary = claimsSummary(notebook);
  const chart = headlineChart(notebook);
  const firstScreenCpuS = cpu() - t;
  t = cpu();
  const status = committedStatus(findPaperExperiment(notebook));
  const statusCpuS = cpu() - t;
  const outputs = createHash('sha256').update(JSON.stringify({ summary, chart, status })).digest('hex');
  process.stdout.write(JSON.stringify({ firstScreenCpuS, statusCpuS, outputs }) + '\n');
}

function main(): void {
  if (process.argv[2] === 'child') return child(process.argv[3]);
  const rounds = Number(process.argv[2] ?? 1);
  const which = process.argv[3] ?? '';
  const rows = [];
  for (const notebook of NOTEBOOKS.filter((n) => n.startsWith(which))) {
    const runs: Record<string, { firstScreenCpuS: number[]; statusCpuS: number[] }> = Object.fromEntries(MODES.map((m) => [m, { firstScreenCpuS: [], statusCpuS: [] }]));
    const outputs = new Set<string>();
    for (let r = 0; r < rounds; r++) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-bench-cache-'));
      try {
        for (const mode of MODES) {
          const env = { ...process.env, SCHEDLAB_CACHE: mode === 'off' ? 'off' : dir };
          const out = execFileSync(process.execPath, [...process.execArgv, __filename, 'child', notebook], { env, encoding: 'utf8', maxBuffer: 1 << 26 });
          const m = JSON.parse(out.trim().split('\n').pop()!);
          runs[mode].firstScreenCpuS.push(round(m.firstScreenCpuS));
          runs[mode].statusCpuS.push(round(m.statusCpuS));
          outputs.add(m.outputs);
          process.stderr.write(`${notebook} round ${r + 1} ${mode}: first screen ${m.firstScreenCpuS.toFixed(2)} s CPU, status line ${m.statusCpuS.toFixed(3)} s\n`);
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
    if (outputs.size !== 1) throw new Error(`${notebook}: the first screen differs between cache modes (${outputs.size} different outputs)`);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    rows.push({ notebook, rounds, ...Object.fromEntries(MODES.map((m) => [`${m}FirstScreenCpuS`, median(runs[m].firstScreenCpuS)])), ...Object.fromEntries(MODES.map((m) => [`${m}StatusCpuS`, median(runs[m].statusCpuS)])), runs });
  }
  const result = { date: new Date().toISOString(), loadAverage: Math.round(os.loadavg()[0] * 100) / 100, cores: os.availableParallelism(), node: process.version, code: 'src/ under ts-node (transpile-only)', rows };
  process.stdout.write(JSON.stringify(result, null, 1) + '\n');
  if (which === '') fs.writeFileSync(path.join(__dirname, 'results', 'first-screen-cache.json'), JSON.stringify(result, null, 1) + '\n');
}

main();
