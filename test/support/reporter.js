// The spec reporter, plus the slowest 20 tests (wall time and this process's
// CPU time: user + system, which the suite's child processes and the load of
// other work do not count into) and one plain closing line
// "N passed, N failed" that any CI log reader understands.
// SCHEDLAB_TEST_TIMES=<file> also writes every test's times there as JSON.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const Mocha = require('mocha');
const { EVENT_RUN_BEGIN, EVENT_RUN_END, EVENT_TEST_BEGIN, EVENT_TEST_END } = Mocha.Runner.constants;

const SLOWEST = 20;
const cpuSeconds = (u) => (u.user + u.system) / 1e6;

class SpecWithSummary extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const times = [];
    let cpuAtStart = 0;
    let cpuAtRun = process.cpuUsage();
    let wallAtRun = Date.now();
    runner.once(EVENT_RUN_BEGIN, () => {
      cpuAtRun = process.cpuUsage();
      wallAtRun = Date.now();
    });
    runner.on(EVENT_TEST_BEGIN, () => {
      cpuAtStart = cpuSeconds(process.cpuUsage());
    });
    runner.on(EVENT_TEST_END, (test) => {
      times.push({
        title: test.fullTitle(),
        file: test.file ? path.relative(process.cwd(), test.file) : undefined,
        wallS: (test.duration ?? 0) / 1000,
        cpuS: Math.max(0, cpuSeconds(process.cpuUsage()) - cpuAtStart),
        state: test.state,
      });
    });
    // The times so far (`stopped`: the run was interrupted, the tests not run yet are missing).
    const summarize = (stopped) => {
      const s = runner.stats || this.stats;
      const slowest = [...times].sort((a, b) => b.wallS - a.wallS).slice(0, SLOWEST);
      const wallS = (Date.now() - wallAtRun) / 1000;
      const cpuS = cpuSeconds(process.cpuUsage(cpuAtRun));
      process.stdout.write(`\nslowest ${slowest.length} tests${stopped ? ' so far (run stopped)' : ''} (wall s, CPU s of the test process):\n`);
      for (const t of slowest) process.stdout.write(`${t.wallS.toFixed(1).padStart(8)} ${t.cpuS.toFixed(1).padStart(8)}  ${t.title}\n`);
      process.stdout.write(`mocha: ${wallS.toFixed(0)} s wall, ${cpuS.toFixed(0)} s CPU in the test process, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
      const out = process.env.SCHEDLAB_TEST_TIMES;
      if (out) {
        fs.writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), stopped, loadAverage: os.loadavg(), cores: os.cpus().length, wallS, cpuS, passes: s.passes, failures: s.failures, tests: times }, null, 1) + '\n');
      }
      process.stdout.write(`\ntests: ${s.passes} passed, ${s.failures} failed${stopped ? ' (run stopped)' : ''}\n`);
    };
    runner.once(EVENT_RUN_END, () => summarize(false));
    // A run stopped from outside (a CI time limit) still says where its time went.
    process.once('SIGTERM', () => {
      summarize(true);
      process.exit(143);
    });
  }
}
module.exports = SpecWithSummary;
