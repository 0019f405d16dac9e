/**
 * Benchmark: EASY (requested estimates) on full HPC2N against the tight C
 * program bench/reference/easy.c, side by side, C and ours alternately.
 *  - In-process: simulateBatchColumns (columns in, start times out) against
 *    the C program's own timing of its loop (same input, same output), per
 *    round, and the plain-TypeScript port of the C program
 *    (bench/reference/easy.ts) in the same rounds; every start time compared.
 *  - Whole process: `schedlab simulate --trace FILE --policy easy
 *    --estimates requested --out CSV` against `easy FILE CSV` (gzip SWF in,
 *    the same per-job CSV out, byte for byte), CPU and wall time of each
 *    process from /usr/bin/time.
 *  - Where the time goes: ours by phase (node start, loading the modules,
 *    gunzip and parse, the event loop, summary, CSV), the C program by its own
 *    phase timers.
 * Targets (issue 29): both ratios ≤ 2.5. Needs gcc, zlib and a compiled dist/
 * (`bash scripts/setup.sh`). `--dist DIR --label NAME` times another build
 * (e.g. the code before a change) and records it under NAME.
 * Run: npx ts-node --transpile-only bench/easy-c.ts [--dist DIR] [--label NAME]
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { easyReference } from './reference/easy';

const arg = (name: string, fallback: string) => {
  const k = process.argv.indexOf(`--${name}`);
  return k >= 0 ? process.argv[k + 1] : fallback;
};
const DIST = path.resolve(arg('dist', path.join(__dirname, '..', 'dist')));
const LABEL = arg('label', 'current');
const TRACE = path.resolve(process.env.SCHEDLAB_TRACE_DIR ?? path.join(__dirname, '..', '..', 'shared', 'data', 'traces'), 'HPC2N-2002-2.2-cln.swf.gz');
const IN_PROCESS_ROUNDS = 15;
const PROCESS_ROUNDS = 9;
const TARGET = 2.5;

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load1 = () => +os.loadavg()[0].toFixed(2);
const r4 = (x: number) => +x.toFixed(4);
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

/** A command's wall, user and system seconds from /usr/bin/time (its own stderr before the last line). */
function timed(cmd: string, args: string[]): { wall: number; cpu: number; stderr: string } {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S', cmd, ...args], { maxBuffer: 1 << 26 });
  const lines = r.stderr.toString().trim().split('\n');
  const [wall, user, sys] = lines[lines.length - 1].split(' ').map(Number);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${lines.join('\n')}`);
  return { wall, cpu: user + sys, stderr: lines.slice(0, -1).join('\n') };
}

async function main() {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const { readSwfColumns } = require(path.join(DIST, 'workloads', 'swf'));
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const { simulateBatchColumns } = require(path.join(DIST, 'schedulers', 'batch', 'simulate'));
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const { summarizeRun } = require(path.join(DIST, 'metrics', 'jobs'));
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const { scheduleText } = require(path.join(DIST, 'analysis', 'schedule-files'));
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const { writeFileSafely } = require(path.join(DIST, 'util', 'errors'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-easy-c-'));
  try {
    const bin = path.join(dir, 'easy');
    execFileSync('gcc', ['-O2', '-o', bin, path.join(__dirname, 'reference', 'easy.c'), '-lz', '-lm'], { stdio: 'pipe' });
    const loadAtStart = os.loadavg().map((x) => +x.toFixed(2));

    // ---- in-process: the loop alone ----
    const { columns: c, header } = await readSwfColumns(TRACE, {});
    const machineSize = Number(header.fields.MaxProcs);
    const n = c.length;
    const est = (i: number) => (c.requestedTime[i] > 0 ? Math.max(c.requestedTime[i], c.runtime[i]) : c.runtime[i]);
    let input = `${n} ${machineSize}\n`;
    for (let i = 0; i < n; i++) input += `${c.submit[i]} ${c.runtime[i]} ${c.procs[i]} ${est(i)}\n`;
    // Wall and CPU time of the loop alone (C: its own clocks; ours: hrtime and process.cpuUsage). On a shared
    // machine the CPU ratio is the steadier one: waiting for a core counts in wall time only.
    const inProcess = { c: [] as number[], ours: [] as number[], ratio: [] as number[], cCpu: [] as number[], oursCpu: [] as number[], cpuRatio: [] as number[], load: [] as number[], port: [] as number[], portRatio: [] as number[] };
    // The plain-TypeScript port of easy.c (bench/reference/easy.ts: same rules and data structures,
    // no event core, no policy interface) in the same rounds: what the language alone costs.
    const estimate = Float64Array.from({ length: n }, (_, i) => est(i));
    const procs = Int32Array.from(c.procs);
    let portDiffer = 0;
    let differ = 0;
    for (let k = 0; k < IN_PROCESS_ROUNDS; k++) {
      const r = spawnSync(bin, [], { input, maxBuffer: 1 << 28 });
      const [cWall, cCpu] = r.stderr.toString().trim().split(' ').map(Number);
      const cMs = cWall * 1000;
      const u0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      const start: Float64Array = simulateBatchColumns(c, { machineSize, policy: 'easy', estimates: 'requested' });
      const oursMs = ms(t0);
      const u = process.cpuUsage(u0);
      const oursCpu = (u.user + u.system) / 1000;
      inProcess.c.push(cMs);
      inProcess.ours.push(oursMs);
      inProcess.ratio.push(oursMs / cMs);
      inProcess.cCpu.push(cCpu * 1000);
      inProcess.oursCpu.push(oursCpu);
      inProcess.cpuRatio.push(oursCpu / (cCpu * 1000));
      inProcess.load.push(load1());
      const tp = process.hrtime.bigint();
      const portStart = easyReference(c.submit, c.runtime, procs, estimate, machineSize);
      const portMs = ms(tp);
      inProcess.port.push(portMs);
      inProcess.portRatio.push(portMs / cMs);
      if (k === 0) {
        const cStarts = r.stdout.toString().trim().split('\n').map(Number);
        for (let i = 0; i < n; i++) if (cStarts[i] !== start[i]) differ++;
        for (let i = 0; i < n; i++) if (portStart[i] !== start[i]) portDiffer++;
      }
    }

    // ---- ours by phase, in this process (the median of 5) ----
    const phases = { readMs: [] as number[], simulateMs: [] as number[], summaryMs: [] as number[], csvMs: [] as number[] };
    for (let k = 0; k < 5; k++) {
      let t = process.hrtime.bigint();
      const { columns } = await readSwfColumns(TRACE, {});
      phases.readMs.push(ms(t));
      t = process.hrtime.bigint();
      const start: Float64Array = simulateBatchColumns(columns, { machineSize, policy: 'easy', estimates: 'requested' });
      phases.simulateMs.push(ms(t));
      const rows = {
        length: n,
        *[Symbol.iterator]() {
          const j = { id: 0, submit: 0, start: 0, end: 0, runtime: 0, procs: 0 };
          for (let i = 0; i < n; i++) {
            j.id = columns.id[i];
            j.submit = columns.submit[i];
            j.start = start[i];
            j.runtime = columns.runtime[i];
            j.end = j.start + j.runtime;
            j.procs = columns.procs[i];
            yield j;
          }
        },
      };
      t = process.hrtime.bigint();
      summarizeRun(rows, { machineSize, threshold: 10 });
      phases.summaryMs.push(ms(t));
      t = process.hrtime.bigint();
      writeFileSafely(path.join(dir, 'phase.csv'), scheduleText(rows, 'csv', { threshold: 10 }));
      phases.csvMs.push(ms(t));
    }
    const nodeStart: number[] = [];
    const moduleLoad: number[] = [];
    for (let k = 0; k < 5; k++) {
      nodeStart.push(timed(process.execPath, ['-e', '0']).wall * 1000);
      moduleLoad.push(timed(process.execPath, ['-e', `require(${JSON.stringify(path.join(DIST, 'bin', 'schedlab.js'))}); require(${JSON.stringify(path.join(DIST, 'cli', 'simulate.js'))})`]).wall * 1000);
    }

    // ---- whole process ----
    const tsCsv = path.join(dir, 'ts.csv');
    const cCsv = path.join(dir, 'c.csv');
    const cli = [path.join(DIST, 'bin', 'schedlab.js'), 'simulate', '--trace', TRACE, '--policy', 'easy', '--estimates', 'requested', '--out', tsCsv];
    const whole = { cCpu: [] as number[], oursCpu: [] as number[], cWall: [] as number[], oursWall: [] as number[], cpuRatio: [] as number[], wallRatio: [] as number[], load: [] as number[] };
    const cPhases: Record<string, number[]> = { read: [], simulate: [], write: [] };
    for (let k = 0; k < PROCESS_ROUNDS + 1; k++) {
      const a = timed(bin, [TRACE, cCsv]);
      const b = timed(process.execPath, cli);
      if (k === 0) continue; // warm-up (file cache)
      whole.cCpu.push(a.cpu);
      whole.oursCpu.push(b.cpu);
      whole.cWall.push(a.wall);
      whole.oursWall.push(b.wall);
      whole.cpuRatio.push(b.cpu / a.cpu);
      whole.wallRatio.push(b.wall / a.wall);
      whole.load.push(load1());
      const m = /read ([\d.]+) simulate ([\d.]+) write ([\d.]+)/.exec(a.stderr);
      if (m) {
        cPhases.read.push(Number(m[1]) * 1000);
        cPhases.simulate.push(Number(m[2]) * 1000);
        cPhases.write.push(Number(m[3]) * 1000);
      }
    }
    const sameCsv = fs.readFileSync(tsCsv).equals(fs.readFileSync(cCsv));

    const result = {
      label: LABEL,
      dist: path.relative(path.join(__dirname, '..'), DIST) || DIST,
      trace: path.basename(TRACE),
      jobs: n,
      machineSize,
      inProcess: {
        rounds: IN_PROCESS_ROUNDS,
        cMedianMs: r4(median(inProcess.c)),
        oursMedianMs: r4(median(inProcess.ours)),
        ratioMedian: +median(inProcess.ratio).toFixed(2),
        ratioMin: +Math.min(...inProcess.ratio).toFixed(2),
        ratioMax: +Math.max(...inProcess.ratio).toFixed(2),
        cCpuMedianMs: r4(median(inProcess.cCpu)),
        oursCpuMedianMs: r4(median(inProcess.oursCpu)),
        cpuRatioMedian: +median(inProcess.cpuRatio).toFixed(2),
        jobsWithDifferentStart: differ,
        portMedianMs: r4(median(inProcess.port)),
        portRatioMedian: +median(inProcess.portRatio).toFixed(2),
        oursToPortMedian: +(median(inProcess.ours) / median(inProcess.port)).toFixed(2),
        portJobsWithDifferentStart: portDiffer,
        meetsTarget: median(inProcess.ratio) <= TARGET,
        load1: inProcess.load,
      },
      wholeProcess: {
        rounds: PROCESS_ROUNDS,
        cCpuMedianS: r4(median(whole.cCpu)),
        oursCpuMedianS: r4(median(whole.oursCpu)),
        cWallMedianS: r4(median(whole.cWall)),
        oursWallMedianS: r4(median(whole.oursWall)),
        cpuRatioMedian: +median(whole.cpuRatio).toFixed(2),
        wallRatioMedian: +median(whole.wallRatio).toFixed(2),
        sameCsvBytes: sameCsv,
        meetsTarget: median(whole.cpuRatio) <= TARGET,
        load1: whole.load,
      },
      phases: {
        ours: {
          nodeStartMs: r4(median(nodeStart)),
          moduleLoadMs: r4(median(moduleLoad) - median(nodeStart)),
          gunzipAndParseMs: r4(median(phases.readMs)),
          eventLoopMs: r4(median(phases.simulateMs)),
          summaryMs: r4(median(phases.summaryMs)),
          csvMs: r4(median(phases.csvMs)),
        },
        c: { readMs: r4(median(cPhases.read)), simulateMs: r4(median(cPhases.simulate)), writeMs: r4(median(cPhases.write)) },
      },
      targets: { inProcessRatio: TARGET, wholeProcessRatio: TARGET },
      node: process.version,
      cpus: os.cpus().length,
      loadAverage: { start: loadAtStart, end: os.loadavg().map((x) => +x.toFixed(2)) },
      date: new Date().toISOString(),
    };
    const out = path.join(__dirname, 'results', 'easy-c.json');
    const all = fs.existsSync(out) ? JSON.parse(fs.readFileSync(out, 'utf8')) : {};
    all.benchmark = 'EASY (requested) on full HPC2N against bench/reference/easy.c, in-process and whole process';
    all.runs = { ...(all.runs ?? {}), [LABEL]: result };
    fs.writeFileSync(out, JSON.stringify(all, null, 2) + '\n');
    console.log(JSON.stringify(result, null, 1));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
