/**
 * Benchmark: loading the HPC2N trace (202,871 jobs, gzip, checksum checked)
 * and `schedlab simulate --trace HPC2N` end to end. Steps of loadTrace are
 * timed one by one (read, gunzip, sha256, parse); the parse is compared with
 * a split/Number parse of the decoded text (what the reader did before its
 * byte scanner), and with the streaming readSwf. Medians of RUNS runs.
 * The end-to-end run uses the built CLI (dist/; `npm run build` first).
 * Run: npx ts-node --transpile-only bench/swf.ts
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { parseSwfBytes, readSwf } from '../src/workloads/swf';
import { findTrace, loadTraceSync, sha256, traceInfo } from '../src/workloads/traces';
import { referenceJobs } from '../test/support/swf-reference';

const RUNS = 5;
const TRACE = 'HPC2N';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;

async function timed(fn: () => unknown): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return ms(t0);
}

async function main(): Promise<void> {
  const file = findTrace(TRACE);
  if (!file) throw new Error(`trace ${TRACE} not found`);
  const machineSize = traceInfo(TRACE).machineSize;
  const gz = fs.readFileSync(file);
  const bytes = zlib.gunzipSync(gz);
  const steps: Record<string, number[]> = {
    'read file': [],
    gunzip: [],
    sha256: [],
    'parse (byte scanner)': [],
    'parse (split/Number on decoded text, the reader before)': [],
    'loadTrace total': [],
    'readSwf (streaming gunzip + scanner, no checksum)': [],
  };
  for (let k = 0; k < RUNS; k++) {
    steps['read file'].push(await timed(() => fs.readFileSync(file)));
    steps.gunzip.push(await timed(() => zlib.gunzipSync(gz)));
    steps.sha256.push(await timed(() => sha256(bytes)));
    steps['parse (byte scanner)'].push(await timed(() => parseSwfBytes(bytes, { machineSize })));
    steps['parse (split/Number on decoded text, the reader before)'].push(await timed(() => referenceJobs(bytes.toString('utf8'))));
    steps['loadTrace total'].push(await timed(() => loadTraceSync(TRACE)));
    steps['readSwf (streaming gunzip + scanner, no checksum)'].push(await timed(() => readSwf(file, { machineSize })));
  }
  const cli = path.join(__dirname, '..', 'dist', 'bin', 'schedlab.js');
  const endToEnd: number[] = [];
  if (fs.existsSync(cli)) {
    for (let k = 0; k < RUNS; k++) {
      const t0 = process.hrtime.bigint();
      execFileSync(process.execPath, [cli, 'simulate', '--trace', TRACE], { stdio: 'ignore' });
      endToEnd.push(ms(t0));
    }
  }
  const rows = Object.entries(steps).map(([step, xs]) => ({ step, medianMs: +median(xs).toFixed(1) }));
  if (endToEnd.length) rows.push({ step: `schedlab simulate --trace ${TRACE} (easy, end to end, new process)`, medianMs: +median(endToEnd).toFixed(1) });
  const result = {
    benchmark: `SWF loading: ${TRACE} (${bytes.length} bytes uncompressed, ${gz.length} gzip)`,
    runs: RUNS,
    rows,
    endToEnd: endToEnd.length ? undefined : 'dist/bin/schedlab.js not built: run npm run build',
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: os.loadavg().map((x) => +x.toFixed(2)),
  };
  const dir = path.join(__dirname, 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'swf.json'), JSON.stringify(result, null, 2) + '\n');
  for (const r of rows) console.log(`${r.step.padEnd(72)} ${String(r.medianMs).padStart(8)} ms`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
