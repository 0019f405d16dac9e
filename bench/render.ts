/**
 * Benchmark: what a notebook's paper-scale render costs before its own tables
 * (issue 29, target 1: the main job ≤ 5 min on an idle 2-core machine).
 * For every notebook with committed results, measured in one process, CPU seconds:
 *  - reading the committed pair the way rendering did before (every record's
 *    CRC checked, read twice: once by `notebookScale`, once by `records`) and
 *    the way it does now (SHA-256 of the file checked, records not CRC-checked
 *    one by one, the second read served from memory);
 *  - re-running the sample: before, `sampleCells` with 20 cells and one per
 *    value of the stratum (118 cells for 01's algorithms); now, `rotatingSample`
 *    (up to 20 strata a render, cheap cells, 20 s of recorded time to fill up).
 * The executions of the whole main job are timed by `scripts/notebooks.sh`
 * itself (its last line); the README gives both.
 * Run: npx ts-node --transpile-only -P tsconfig.json bench/render.ts [notebook prefix]   (writes bench/results/render.json)
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { PAPER_EXPERIMENTS, loadCommittedResults, paperResultsFile, committedRoot, rotatingSample, sampleCells, verifyCommittedSample } from '../src/sweep/papers';
import { readResultsFile } from '../src/sweep/store';

const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};
const round = (x: number) => Math.round(x * 100) / 100;

/** The reading as it was: the whole file through a temporary copy, every record's CRC checked. */
function readAsBefore(gz: string): number {
  const tmp = path.join(os.tmpdir(), `schedlab-bench-render-${process.pid}`);
  try {
    fs.writeFileSync(tmp, zlib.gunzipSync(fs.readFileSync(gz)));
    return readResultsFile(tmp, { checksums: true }).records.length;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

async function main(): Promise<void> {
  const which = process.argv[2] ?? '';
  const rows: Record<string, unknown>[] = [];
  for (const e of PAPER_EXPERIMENTS.filter((x) => x.notebook.startsWith(which))) {
    const gz = paperResultsFile(e.notebook, e.sweep('paper'), null, committedRoot()) + '.gz';
    if (!fs.existsSync(gz)) continue;
    let t = cpu();
    readAsBefore(gz);
    readAsBefore(gz);
    const readBefore = cpu() - t;
    t = cpu();
    const committed = loadCommittedResults(e);
    loadCommittedResults(e);
    const readNow = cpu() - t;
    const ok = committed.records.filter((r) => r.status === 'ok');
    const before = sampleCells(ok, 20, 1, e.stratifyBy);
    t = cpu();
    await verifyCommittedSample(e, committed, { cells: before });
    const verifyBefore = cpu() - t;
    const now = rotatingSample(ok, 20, { stratify: e.stratifyBy, rotation: 0 });
    t = cpu();
    await verifyCommittedSample(e, committed, { cells: now.cells });
    const verifyNow = cpu() - t;
    const row = {
      notebook: e.notebook,
      records: committed.records.length,
      readBeforeCpuS: round(readBefore),
      readNowCpuS: round(readNow),
      sampleBefore: before.length,
      verifyBeforeCpuS: round(verifyBefore),
      sampleNow: now.cells.length,
      rotationBlocks: now.blocks,
      verifyNowCpuS: round(verifyNow),
      beforeCpuS: round(readBefore + verifyBefore),
      nowCpuS: round(readNow + verifyNow),
    };
    rows.push(row);
    process.stdout.write(JSON.stringify(row) + '\n');
  }
  const total = (k: 'beforeCpuS' | 'nowCpuS') => round(rows.reduce((a, r) => a + (r[k] as number), 0));
  const out = { date: new Date().toISOString(), loadAverage: os.loadavg()[0], cores: os.availableParallelism(), rows, beforeCpuS: total('beforeCpuS'), nowCpuS: total('nowCpuS') };
  fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  if (!which) fs.writeFileSync(path.join(__dirname, 'results', 'render.json'), JSON.stringify(out, null, 2) + '\n');
  process.stdout.write(`render: ${out.beforeCpuS} s CPU before, ${out.nowCpuS} s now (load average ${out.loadAverage.toFixed(1)})\n`);
}

void main();
