/**
 * Faults: cells that crash their worker, throw odd values or hang; a disk
 * that fills up in the middle of a sweep; results folders that cannot be
 * written; per-job CSV and merge outputs on a full or impossible path. In
 * every case the failure is reported (with the cell key, or the path and the
 * system error), the other cells finish, and what was finished before stays
 * intact and complete.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { canonicalJson, defineSweep, mergeResults, readResultsFile, recordContent, runSweep, SweepSpec } from '../../src/sweep';
import { OutputError } from '../../src/util/errors';
import { simulateMain } from '../../src/cli/simulate';
import { record } from './tally';

// eslint-disable-next-line @typescript-eslint/no-var-requires
const realFs: typeof fs = require('fs');
const CELLS = path.join(__dirname, 'fixtures', 'cells.ts');
let tmp: string;
before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-faults-'));
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const file = (name: string) => path.join(tmp, name);

function spec(exportName: string, extra: Partial<SweepSpec> = {}): SweepSpec {
  return { name: `faults-${exportName}`, version: 1, cell: { module: CELLS, export: exportName }, grid: { x: [0, 1, 2, 3, 4, 5] }, replications: 2, ...extra };
}

function run(s: SweepSpec, out: string, extra: Record<string, unknown> = {}) {
  const logs: string[] = [];
  const promise = runSweep(defineSweep(s), { progress: 'none', handleSigint: false, log: (m) => logs.push(m), out, workers: 2, ...extra });
  return { promise, logs };
}

/** Record contents of a file (no run info), sorted; fails on invalid or torn lines. */
function contents(f: string): string[] {
  const r = readResultsFile(f);
  expect(r.invalid, `${f}: invalid lines`).to.deep.equal([]);
  expect(r.tornTail, `${f}: torn tail`).to.equal(null);
  return r.records.map((x) => canonicalJson(recordContent(x))).sort();
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected the run to fail');
}

describe('hardening: cells that crash, throw or hang', function () {
  this.timeout(5 * 60 * 1000); // a guard against hangs: the suite runs beside notebook executions

  it('a worker that crashes is reported with its cell key and replaced; a transient crash is retried to success, a permanent one recorded as failed; the others finish', async () => {
    const dir = file('crashy');
    fs.mkdirSync(dir);
    const { promise, logs } = run(spec('crashy', { fixed: { onceOn: [1, 4], alwaysOn: [2], dir } }), file('crashy.jsonl'), { retries: 2 });
    const s = await promise;
    expect(s.ok).to.equal(10);
    expect(s.failed).to.equal(2);
    const retried = s.records.filter((r) => r.status === 'ok' && r.run.attempts === 2);
    expect(retried.map((r) => r.params.x).sort()).to.deep.equal([1, 1, 4, 4]);
    for (const r of retried) expect(logs.some((l) => l.includes(`cell ${r.key} failed (attempt 1 of 3), will retry: WorkerCrash`)), r.key).to.equal(true);
    for (const r of s.records.filter((x) => x.status === 'failed')) {
      expect(r.params.x).to.equal(2);
      expect(r.error?.name).to.equal('WorkerCrash');
      expect(r.error?.message).to.match(/exit code 9/);
      expect(r.run.attempts).to.equal(3);
      expect(logs.some((l) => l.startsWith(`cell ${r.key} failed after 3 attempt(s): WorkerCrash`))).to.equal(true);
    }
    expect(s.records.filter((r) => r.status === 'ok' && r.run.attempts === 1)).to.have.length(6);
    record({ area: 'sweep faults', kind: 'worker killed (process.exit) on the first attempt of a cell (4 cells), retries 2', cases: 4, outcome: 'each logged with its cell key, worker replaced, cell retried and saved' });
    record({ area: 'sweep faults', kind: 'worker killed on every attempt of a cell (2 cells), retries 2', cases: 2, outcome: 'recorded failed (WorkerCrash, exit code, 3 attempts, key logged)' });
    record({ area: 'sweep faults', kind: 'cells sharing the run with the crashing ones', cases: 6, outcome: 'all ok at the first attempt' });
  });

  it('cells that throw strings, objects, rejected promises or unstorable results are recorded with their key (workers and in-thread)', async () => {
    for (const workers of [2, 0]) {
      const out = file(`odd-${workers}.jsonl`);
      const { promise, logs } = run(spec('oddThrows'), out, { workers });
      const s = await promise;
      expect(s.ok).to.equal(4);
      expect(s.failed).to.equal(8);
      const byX = new Map(s.records.filter((r) => r.status === 'failed').map((r) => [r.params.x, r.error]));
      expect(byX.get(1)?.message).to.equal('a plain string');
      expect(byX.get(2)?.message).to.equal('{"code":42,"why":"an object"}');
      expect(byX.get(3)).to.deep.equal({ name: 'RangeError', message: 'rejected promise' });
      expect(byX.get(4)?.message).to.match(/BigInt/);
      expect(logs.filter((l) => /^cell \{.*\} failed after 1 attempt/.test(l))).to.have.length(8);
      expect(contents(out)).to.have.length(12);
    }
    record({ area: 'sweep faults', kind: 'cell throws a string, an object, rejects, or returns a value JSON cannot hold (2 workers and in-thread)', cases: 16, outcome: 'recorded failed with the message, key logged; the other 8 cells ok' });
  });

  it('a cell that never returns is stopped by the cell time-out and recorded; the others finish', async () => {
    const { promise } = run(spec('hangs', { fixed: { hangOn: 3 }, replications: 1 }), file('hang.jsonl'), { cellTimeoutMs: 500 }); // a hang is caught by any budget; the other cells take milliseconds
    const s = await promise;
    expect(s.ok).to.equal(5);
    expect(s.failed).to.equal(1);
    const f = s.records.find((r) => r.status === 'failed');
    expect(f?.params.x).to.equal(3);
    expect(f?.error?.name).to.equal('CellTimeout');
    record({ area: 'sweep faults', kind: 'cell stuck in an endless loop (cell time-out 0.5 s)', cases: 1, outcome: 'worker terminated, cell recorded as CellTimeout; other 5 cells ok' });
  });
});

/**
 * Make appends of result lines fail with ENOSPC after `allowed` of them,
 * optionally writing part of the line first (a torn write).
 */
function fillDiskAfter(allowed: number, partial: boolean): () => void {
  const original = realFs.writeSync;
  let appends = 0;
  (realFs as any).writeSync = function (fd: number, buf: any, ...rest: any[]) {
    const isRecord = Buffer.isBuffer(buf) && buf.subarray(0, 8).toString() === '{"key":"';
    if (isRecord && appends++ >= allowed) {
      if (partial) (original as any).call(realFs, fd, buf, 0, Math.floor(buf.length / 2));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
    }
    return (original as any).call(realFs, fd, buf, ...rest);
  };
  return () => {
    (realFs as any).writeSync = original;
  };
}

describe('hardening: full disk and unwritable results folders', function () {
  this.timeout(5 * 60 * 1000); // a guard against hangs: the suite runs beside notebook executions
  let reference: string[];
  before(async () => {
    const ref = file('reference.jsonl');
    await run(spec('ok'), ref, { workers: 0 }).promise;
    reference = contents(ref);
  });

  it('disk full in the middle of a sweep: a clear OutputError, only complete records kept, a rerun completes to the same results', async () => {
    let cases = 0;
    for (const [workers, partial] of [[0, false], [0, true], [2, true]] as const) {
      {
        const out = file(`full-${workers}-${partial}.jsonl`);
        const restore = fillDiskAfter(5, partial);
        let err: Error;
        try {
          err = await rejection(run(spec('ok'), out, { workers }).promise);
        } finally {
          restore();
        }
        expect(err, `${workers} workers, partial ${partial}`).to.be.instanceOf(OutputError);
        const oe = err as OutputError;
        expect(oe.code).to.equal('ENOSPC');
        expect(oe.path).to.equal(out);
        expect(oe.message).to.contain(`cannot append a result to ${out}: no space left on the device (ENOSPC)`);
        expect(oe.message).to.match(/the 5 cell\(s\) finished before are saved there/);
        // Exactly the five finished records, all complete (a torn write was cut off again).
        const saved = contents(out);
        expect(saved).to.have.length(5);
        for (const c of saved) expect(reference).to.include(c);
        expect(fs.existsSync(`${out}.lock`), 'lock released').to.equal(false);
        // Space is back: the rerun skips the saved cells and ends with exactly the reference results.
        const again = await run(spec('ok'), out, { workers }).promise;
        expect(again.skipped).to.equal(5);
        expect(contents(out)).to.deep.equal(reference);
        cases++;
      }
    }
    record({ area: 'disk', kind: 'ENOSPC on the 6th result append of 12 (in-thread clean or torn write; 2 workers torn write)', cases, outcome: 'OutputError naming file, ENOSPC and the 5 saved cells; file holds 5 complete records; rerun → results identical to an uninterrupted run' });
  });

  it('a results path that cannot be a file stops the run before any cell, naming the path', async () => {
    const regular = file('plain-file');
    fs.writeFileSync(regular, 'I am a file');
    const cases: [string, RegExp][] = [
      [path.join(regular, 'res.jsonl'), /ENOTDIR/],
      [path.join(regular, 'sub', 'res.jsonl'), /ENOTDIR/],
      ['/proc/version/res.jsonl', /ENOTDIR/],
      // Node's own recursive mkdir loops for ever here (ENOENT from /proc); makeFolder does not.
      ['/proc/schedlab-hardening/res.jsonl', /no such file or folder \(ENOENT\)/],
      [tmp, /the path is a folder \(EISDIR\)/],
      ['/dev/full', /not a regular file/],
    ];
    for (const [out, msg] of cases) {
      let ran = 0;
      const err = await rejection(run(spec('ok'), out, { onRecord: () => ran++ }).promise);
      expect(err, out).to.be.instanceOf(OutputError);
      expect(err.message, out).to.contain(out);
      expect(err.message, out).to.match(msg);
      expect(ran, `${out}: cells run`).to.equal(0);
    }
    expect(fs.readFileSync(regular, 'utf8')).to.equal('I am a file');
    record({ area: 'disk', kind: 'results path under a regular file, under /proc, a folder, /dev/full', cases: cases.length, outcome: 'OutputError naming the path (ENOTDIR, …) before any cell runs; nothing overwritten' });
  });

  it('merge onto a full disk or an impossible path leaves the existing merged file and the inputs intact', async () => {
    const a = file('m-a.jsonl');
    await run(spec('ok'), a, { workers: 0, shard: '0/2' }).promise;
    const b = file('m-b.jsonl');
    await run(spec('ok'), b, { workers: 0, shard: '1/2' }).promise;
    const merged = file('merged.jsonl');
    fs.copyFileSync(a, merged);
    const before = fs.readFileSync(merged);
    // The merge writes its temporary file record by record: the disk fills up after 100 bytes.
    const originalOpen = realFs.openSync;
    const originalWrite = realFs.writeSync;
    let mergeFd = -1;
    (realFs as any).openSync = function (p: any, ...rest: any[]) {
      const fd = (originalOpen as any).call(realFs, p, ...rest);
      if (String(p).includes('.merge-')) mergeFd = fd;
      return fd;
    };
    (realFs as any).writeSync = function (fd: any, data: any, ...rest: any[]) {
      if (fd === mergeFd) {
        originalWrite.call(realFs, fd, String(data).slice(0, 100));
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      }
      return (originalWrite as any).call(realFs, fd, data, ...rest);
    };
    let err: Error;
    try {
      err = (() => {
        try {
          mergeResults(merged, [merged, b], { log: () => {} });
        } catch (e) {
          return e as Error;
        }
        throw new Error('merge should fail');
      })();
    } finally {
      (realFs as any).openSync = originalOpen;
      (realFs as any).writeSync = originalWrite;
    }
    expect(mergeFd).to.be.greaterThan(-1);
    expect(err).to.be.instanceOf(OutputError);
    expect(err.message).to.match(/no space left on the device \(ENOSPC\)/);
    expect(fs.readFileSync(merged).equals(before), 'merged file unchanged').to.equal(true);
    expect(fs.readdirSync(tmp).filter((f) => f.includes('.merge-'))).to.deep.equal([]);
    const blocked = path.join(a, 'out.jsonl');
    expect(() => mergeResults(blocked, [a, b], { log: () => {} })).to.throw(OutputError, /ENOTDIR/);
    expect(contents(a)).to.have.length(6);
    // With space back the incremental merge goes through, to exactly the unsharded results.
    expect(mergeResults(merged, [merged, b], { log: () => {} }).records).to.equal(12);
    expect(contents(merged)).to.deep.equal(reference);
    record({ area: 'disk', kind: 'merge: ENOSPC while writing (output is also an input); output under a regular file', cases: 2, outcome: 'OutputError; existing merged file byte-identical, inputs intact, no temporary file left' });
  });

  it('schedlab simulate --out on /dev/full, under a regular file, or failing mid-write: exit 1, clear message, old CSV intact', async () => {
    const capture = async (args: string[]) => {
      const errs: string[] = [];
      const lines: string[] = [];
      const write = process.stderr.write.bind(process.stderr);
      (process.stderr as unknown as { write: (s: string) => boolean }).write = (s: string) => (errs.push(String(s)), true);
      try {
        const code = await simulateMain(args, (s) => lines.push(s));
        return { code, err: errs.join(''), text: lines.join('\n') };
      } finally {
        process.stderr.write = write;
      }
    };
    const base = ['--lublin', '50', '--seed', '2', '--machine-size', '32'];
    const full = await capture([...base, '--out', '/dev/full']);
    expect(full.code).to.equal(1);
    expect(full.err).to.match(/cannot write \/dev\/full: no space left on the device \(ENOSPC\)/);
    expect(full.text).to.match(/jobs\s+50/); // the summary was still printed
    const regular = file('not-a-dir');
    fs.writeFileSync(regular, 'x');
    const under = await capture([...base, '--out', path.join(regular, 'jobs.csv')]);
    expect(under.code).to.equal(1);
    expect(under.err).to.match(/ENOTDIR/);
    // A write that fails half-way leaves the previous CSV exactly as it was.
    const csv = file('jobs.csv');
    fs.writeFileSync(csv, 'previous results\n');
    // The CSV is streamed into a temporary file: the disk fills up after 50 bytes.
    const originalOpen = realFs.openSync;
    const originalWrite = realFs.writeSync;
    let csvFd = -1;
    (realFs as any).openSync = function (p: any, ...rest: any[]) {
      const fd = (originalOpen as any).call(realFs, p, ...rest);
      if (String(p).startsWith(`${csv}.tmp-`)) csvFd = fd;
      return fd;
    };
    (realFs as any).writeSync = function (fd: any, data: any, ...rest: any[]) {
      if (fd === csvFd) {
        originalWrite.call(realFs, fd, String(data).slice(0, 50));
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      }
      return (originalWrite as any).call(realFs, fd, data, ...rest);
    };
    let mid;
    try {
      mid = await capture([...base, '--out', csv]);
    } finally {
      (realFs as any).openSync = originalOpen;
      (realFs as any).writeSync = originalWrite;
    }
    expect(csvFd).to.be.greaterThan(-1);
    expect(mid.code).to.equal(1);
    expect(mid.err).to.contain(`cannot write ${csv}: no space left on the device (ENOSPC)`);
    expect(fs.readFileSync(csv, 'utf8')).to.equal('previous results\n');
    expect(fs.readdirSync(tmp).filter((f) => f.startsWith('jobs.csv.tmp'))).to.deep.equal([]);
    record({ area: 'disk', kind: '`schedlab simulate --out`: /dev/full (real ENOSPC), path under a regular file, ENOSPC half-way through', cases: 3, outcome: 'exit 1 with path and cause; summary still printed; previous CSV byte-identical, no temporary file left' });
  });
});
