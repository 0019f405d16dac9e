// Census of the node processes and worker threads a test run starts, and the
// CPU each used (measurement only; results in bench/results/suite-children.json):
//
//   CENSUS_LOG=/tmp/census.log NODE_OPTIONS="--require $PWD/bench/child-census.js" npx mocha test/sweep/sweep.test.ts
//
// Every node process appends one JSON line at exit (argv, execArgv, CPU s of
// all its threads). A worker thread rewrites CENSUS_LOG.w.<pid>.<thread> every
// 50 ms with its own CPU s (from /proc/thread-self/stat; a worker stopped by
// terminate() gets no exit event, so the last rewrite is its figure, at most
// 50 ms of work short). Not for test files whose children count their own
// file-system calls (test/sweep/publish-crash.test.ts): the exit line is one.
'use strict';
const fs = require('fs');
const wt = require('worker_threads');

const LOG = process.env.CENSUS_LOG;
const t0 = Date.now();

function threadCpuSeconds() {
  try {
    const s = fs.readFileSync('/proc/thread-self/stat', 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, clock ticks
  } catch {
    return -1;
  }
}

if (LOG && wt.isMainThread) {
  process.on('exit', () => {
    const u = process.cpuUsage();
    const line = { kind: 'process', pid: process.pid, ppid: process.ppid, argv: process.argv.slice(1).join(' ').slice(0, 300), execArgv: process.execArgv.join(' '), cpu: (u.user + u.system) / 1e6, wall: (Date.now() - t0) / 1000 };
    fs.appendFileSync(LOG, JSON.stringify(line) + '\n');
  });
} else if (LOG) {
  const d = wt.workerData || {};
  const info = { kind: 'worker', pid: process.pid, thread: wt.threadId, file: String(d.workerFile || d.file || '').slice(0, 150), tsLoader: d.tsNode || null };
  const write = () => fs.writeFileSync(`${LOG}.w.${process.pid}.${wt.threadId}`, JSON.stringify({ ...info, cpu: threadCpuSeconds(), wall: (Date.now() - t0) / 1000 }));
  write();
  setInterval(write, 50).unref();
}
