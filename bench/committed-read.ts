/**
 * Benchmark: reading and checking a notebook's committed paper-scale results
 * (`readCommittedPair`: SHA-256, then every record against the provenance and
 * the sweep's cells), which every notebook execution does, quick scale too.
 * For every notebook's committed pair, in one process, CPU seconds:
 *  - before: the whole file inflated into 16 KiB pieces joined into one buffer,
 *    written to a temporary file and read back a line at a time (one
 *    Buffer-to-string per line), membership checked against `sweepCells`
 *    (every cell and its canonical JSON built on every read);
 *  - now: inflated into one buffer, parsed a 16 MiB piece at a time (one string
 *    per piece), membership against `sweepCellKeys` (first read in the process,
 *    then a second read with the keys memoized).
 * Before and now alternate per notebook and must return the same records.
 * Run: node --expose-gc -r ts-node/register/transpile-only bench/committed-read.ts [notebook prefix]   (writes bench/results/committed-read.json)
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { sweepCells, SweepDefinition } from '../src/sweep/grid';
import { committedRoot, PAPER_EXPERIMENTS, paperResultsFile, readCommittedPair } from '../src/sweep/papers';
import { checkDigest, readProvenance } from '../src/sweep/papers/seal';
import { ResultRecord } from '../src/sweep/store';

const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};
const round = (x: number) => Math.round(x * 100) / 100;
const gc = () => (global as { gc?: () => void }).gc?.();

/** The reading as it was (its checks on fields, duplicates and counts are the same as now and left out here: a small share). */
function readAsBefore(gz: string, sweep: SweepDefinition): ResultRecord[] {
  const provFile = path.join(path.dirname(gz), 'provenance.json');
  checkDigest(gz, readProvenance(provFile), provFile);
  const tmp = path.join(os.tmpdir(), `schedlab-bench-committed-read-${process.pid}`);
  const records: ResultRecord[] = [];
  try {
    fs.writeFileSync(tmp, zlib.gunzipSync(fs.readFileSync(gz)));
    const chunk = Buffer.alloc(16 << 20);
    const fd = fs.openSync(tmp, 'r');
    let pending: Buffer[] = [];
    for (let offset = 0, got; (got = fs.readSync(fd, chunk, 0, chunk.length, offset)) > 0; offset += got) {
      let from = 0;
      for (let nl = chunk.indexOf(0x0a, 0); nl >= 0 && nl < got; nl = chunk.indexOf(0x0a, from)) {
        const piece = chunk.subarray(from, nl);
        const line = pending.length ? Buffer.concat([...pending, piece]).toString('utf8') : piece.toString('utf8');
        pending = [];
        if (line.trim() !== '') records.push(JSON.parse(line));
        from = nl + 1;
      }
      if (from < got) pending.push(Buffer.from(chunk.subarray(from, got)));
    }
    fs.closeSync(fd);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  const cellKeys = new Set(sweepCells(sweep).map((c) => c.key));
  const stranger = records.find((r) => !cellKeys.has(r.key));
  if (stranger) throw new Error(`${stranger.key} is not a cell`);
  return records;
}

function main(): void {
  const which = process.argv[2] ?? '';
  const rows: Record<string, unknown>[] = [];
  for (const e of PAPER_EXPERIMENTS.filter((x) => x.notebook.startsWith(which))) {
    const sweep = e.sweep('paper');
    const gz = paperResultsFile(e.notebook, sweep, null, committedRoot()) + '.gz';
    if (!fs.existsSync(gz)) continue;
    gc();
    let t = cpu();
    const before = readAsBefore(gz, sweep);
    const beforeCpuS = cpu() - t;
    const beforeKeys = [before.length, before[0]?.key, before[before.length - 1]?.key].join('|');
    before.length = 0;
    gc();
    t = cpu();
    const now = readCommittedPair(gz, sweep, e.notebook).records;
    const nowCpuS = cpu() - t;
    const nowKeys = [now.length, now[0]?.key, now[now.length - 1]?.key].join('|');
    if (nowKeys !== beforeKeys) throw new Error(`${e.notebook}: read ${nowKeys} now, ${beforeKeys} before`);
    now.length = 0;
    gc();
    t = cpu();
    readCommittedPair(gz, sweep, e.notebook);
    const againCpuS = cpu() - t;
    const row = { notebook: e.notebook, records: Number(nowKeys.split('|')[0]), gzBytes: fs.statSync(gz).size, beforeCpuS: round(beforeCpuS), nowCpuS: round(nowCpuS), againCpuS: round(againCpuS) };
    rows.push(row);
    process.stdout.write(JSON.stringify(row) + '\n');
  }
  const total = (k: 'beforeCpuS' | 'nowCpuS') => round(rows.reduce((a, r) => a + (r[k] as number), 0));
  const out = { date: new Date().toISOString(), loadAverage: os.loadavg()[0], cores: os.availableParallelism(), node: process.version, rows, beforeCpuS: total('beforeCpuS'), nowCpuS: total('nowCpuS') };
  if (!which) fs.writeFileSync(path.join(__dirname, 'results', 'committed-read.json'), JSON.stringify(out, null, 2) + '\n');
  process.stdout.write(`committed-read: ${out.beforeCpuS} s CPU before, ${out.nowCpuS} s now (load average ${out.loadAverage.toFixed(1)})\n`);
}

main();
