/**
 * Benchmark: the test suite (`npm test`, scripts/test.sh) (issue 29, target 2:
 * ≤ 15 min on an idle 2-core machine): its wall and CPU time (every process it
 * ran and waited for: mocha, the type-check, the notebook executions and their
 * kernels and browsers), the slowest 20 tests (test/support/reporter.js, wall
 * and the test process's CPU) and every notebook execution's wall and CPU time
 * (test/support/notebook-runs.ts).
 * Run: npx ts-node --transpile-only -P tsconfig.json bench/suite.ts [label]
 *      npx ts-node --transpile-only -P tsconfig.json bench/suite.ts --from <times.json> [label]
 *        (a run made with SCHEDLAB_TEST_TIMES=<times.json>; its CPU total from `/usr/bin/time -v` on stdin, if any)
 * Writes bench/results/suite.json (the label's entry; other labels are kept).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const root = path.resolve(__dirname, '..');
const resultsFile = path.join(root, 'bench', 'results', 'suite.json');

/** CPU seconds of the children this process has waited for (Linux: /proc/self/stat cutime + cstime). */
function childrenCpuS(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // fields from the state (3rd field): cutime is field 16, cstime 17 (1-based), in clock ticks
  const ticks = Number(spawnSync('getconf', ['CLK_TCK']).stdout.toString().trim()) || 100;
  return (Number(fields[16 - 3]) + Number(fields[17 - 3])) / ticks;
}

function main(): void {
  const args = process.argv.slice(2);
  const from = args.indexOf('--from');
  const label = args.filter((a, i) => !a.startsWith('--') && (from < 0 || i !== from + 1))[0] ?? 'now';
  let timesFile: string;
  let wallS: number | null = null;
  let cpuS: number | null = null;
  const loadBefore = os.loadavg()[0];
  if (from >= 0) {
    timesFile = args[from + 1];
    const timeLog = process.stdin.isTTY ? '' : fs.readFileSync(0, 'utf8');
    const user = /User time \(seconds\): ([\d.]+)/.exec(timeLog);
    const sys = /System time \(seconds\): ([\d.]+)/.exec(timeLog);
    const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(timeLog);
    if (user && sys) cpuS = Number(user[1]) + Number(sys[1]);
    if (wall) wallS = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
  } else {
    timesFile = path.join(os.tmpdir(), `schedlab-suite-times-${process.pid}.json`);
    const t0 = Date.now();
    const cpu0 = childrenCpuS();
    const r = spawnSync('bash', ['scripts/test.sh'], { cwd: root, env: { ...process.env, SCHEDLAB_TEST_TIMES: timesFile }, stdio: 'inherit' });
    wallS = (Date.now() - t0) / 1000;
    cpuS = childrenCpuS() - cpu0;
    if (r.status !== 0) console.error(`scripts/test.sh exited with ${r.status}`);
  }
  const times = JSON.parse(fs.readFileSync(timesFile, 'utf8'));
  const nbFile = timesFile.replace(/(\.json)?$/, '.notebooks.json');
  const executions = fs.existsSync(nbFile) ? JSON.parse(fs.readFileSync(nbFile, 'utf8')) : [];
  const round = (x: number) => Math.round(x * 10) / 10;
  const tests = times.tests as { title: string; file?: string; wallS: number; cpuS: number }[];
  const entry = {
    date: times.date,
    loadAverage: from >= 0 ? { atEnd: times.loadAverage } : { before: loadBefore, atEnd: times.loadAverage },
    cores: times.cores,
    tests: tests.length,
    passes: times.passes,
    failures: times.failures,
    wallS: wallS === null ? null : Math.round(wallS),
    cpuS: cpuS === null ? null : Math.round(cpuS),
    mochaWallS: Math.round(times.wallS),
    mochaProcessCpuS: Math.round(times.cpuS),
    notebookExecutions: executions.length,
    notebookCpuS: executions.reduce((s: number, e: { cpuSeconds: number | null }) => s + (e.cpuSeconds ?? 0), 0),
    executions: executions.map((e: { purpose: string; file: string; seconds: number; cpuSeconds: number | null }) => ({ purpose: e.purpose, notebook: e.file, wallS: Math.round(e.seconds), cpuS: e.cpuSeconds })),
    slowest: [...tests].sort((a, b) => b.wallS - a.wallS).slice(0, 20).map((t) => ({ title: t.title, file: t.file, wallS: round(t.wallS), cpuS: round(t.cpuS) })),
    slowestByCpu: [...tests].sort((a, b) => b.cpuS - a.cpuS).slice(0, 20).map((t) => ({ title: t.title, file: t.file, wallS: round(t.wallS), cpuS: round(t.cpuS) })),
  };
  const all = fs.existsSync(resultsFile) ? JSON.parse(fs.readFileSync(resultsFile, 'utf8')) : {};
  all[label] = entry;
  fs.writeFileSync(resultsFile, JSON.stringify(all, null, 1) + '\n');
  console.log(`suite: ${entry.tests} tests (${entry.failures} failed), ${entry.wallS} s wall, ${entry.cpuS} s CPU (notebook executions ${entry.notebookExecutions}: ${entry.notebookCpuS} s CPU): ${resultsFile} (${label})`);
}

main();
