/**
 * The Slurm accounting log reader, on a real sacct log recorded on a private
 * Slurm (fixtures/sacct-real.txt, see its .md) and on hand-made lines for
 * every rule and error.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import fc from 'fast-check';
import { durationSeconds, parseSacct, readSacct, SacctReadResult } from '../../src/workloads/sacct';
import { LineSplitter } from '../../src/workloads/lines';
import { InputError } from '../../src/util/errors';

const REAL = path.join(__dirname, 'fixtures', 'sacct-real.txt');
const HEADER = 'JobID|JobIDRaw|Partition|User|Group|Submit|Start|End|Timelimit|AllocCPUS|ReqCPUS|AllocNodes|State';
const line = (id: string, raw: string, submit: string, start: string, end: string, limit: string, cpus: number | string, state: string, extra: Partial<{ partition: string; user: string; nodes: string }> = {}) =>
  [id, raw, extra.partition ?? 'batch', extra.user ?? 'alice', 'staff', submit, start, end, limit, cpus, cpus, extra.nodes ?? '1', state].join('|');
const T = (s: number) => `2024-03-01T10:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;

function sacctError(text: string, options = {}): InputError {
  try {
    parseSacct(text, { fileName: 'log.txt', ...options });
  } catch (e) {
    expect(e).to.be.instanceOf(InputError);
    return e as InputError;
  }
  throw new Error(`accepted: ${text}`);
}

describe('sacct reader', () => {
  describe('on a real sacct log (fixtures/sacct-real.txt)', () => {
    let r: SacctReadResult;
    before(async () => (r = await readSacct(REAL)));

    it('keeps the jobs that ran, skips the steps, drops the cancelled-before-start, running and pending jobs', () => {
      expect(r.report).to.deep.equal({ read: 31, kept: 12, steps: 15, dropped: { 'cancelled before start': 1, 'still running': 1, 'not started': 1 } });
      expect(r.slurmIds).to.deep.equal(['1', '2', '3', '4', '5', '6', '10', '7_0', '7_1', '7_2', '7_3', '12']);
    });

    it('maps the fields: JobIDRaw, relative submit, End − Start, AllocCPUS, TimelimitRaw, status, user and partition numbers', () => {
      const byId = new Map(r.jobs.map((j) => [j.id, j]));
      // 3: the 8-CPU job submitted 1 s after the first, run 22:58:40 → 22:58:44, limit 1-00:00:00.
      expect(byId.get(3)).to.deep.equal({ id: 3, submit: 1, runtime: 4, procs: 8, requestedTime: 86400, requestedProcs: 8, status: 1, userId: 1, groupId: 1, queue: 1 });
      // 6: TIMEOUT after 72 s with a 1-minute limit; 5: FAILED; 12: CANCELLED while running.
      expect(byId.get(6)).to.include({ runtime: 72, requestedTime: 60, status: 0 });
      expect(byId.get(5)).to.include({ status: 0, requestedTime: 172800 });
      expect(byId.get(12)).to.include({ status: 5, runtime: 4 });
      // 10: UNLIMITED, partition long (queue 2).
      expect(byId.get(10)).to.not.have.property('requestedTime');
      expect(byId.get(10)).to.include({ queue: 2 });
      // Array tasks 7_0 … 7_3 are jobs 13, 14, 15 and 7 (JobIDRaw).
      expect(r.slurmIds.map((s, i) => [s, r.jobs[i].id]).filter(([s]) => String(s).startsWith('7_'))).to.deep.equal([
        ['7_0', 13],
        ['7_1', 14],
        ['7_2', 15],
        ['7_3', 7],
      ]);
      expect(r.startTime).to.equal(Date.UTC(2026, 10, 26, 22, 58, 29) / 1000);
      expect(r.users).to.deep.equal(['root']);
      expect(r.partitions).to.deep.equal(['batch', 'long']);
      for (let i = 1; i < r.jobs.length; i++) expect(r.jobs[i].submit).to.be.at.least(r.jobs[i - 1].submit);
    });

    it('reads the same from memory, from gzip, and counting nodes instead of CPUs', async () => {
      const text = fs.readFileSync(REAL, 'utf8');
      expect(parseSacct(text).jobs).to.deep.equal(r.jobs);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sacct-'));
      try {
        fs.writeFileSync(path.join(dir, 'log.txt.gz'), zlib.gzipSync(text.replace(/\n/g, '\r\n')));
        expect((await readSacct(path.join(dir, 'log.txt.gz'))).jobs).to.deep.equal(r.jobs);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
      const nodes = parseSacct(text, { unit: 'nodes' });
      expect(nodes.jobs.map((j) => j.procs)).to.deep.equal(r.jobs.map(() => 1));
    });

    it('refuses a job larger than the machine, naming file, line and field', () => {
      const e = sacctError(fs.readFileSync(REAL, 'utf8'), { machineSize: 4 });
      expect(e.message).to.equal('log.txt:6: AllocCPUS: 8 processors on a machine of 4');
      expect(e).to.include({ line: 6, field: 'AllocCPUS' });
    });
  });

  describe('robustness', () => {
    const text = fs.readFileSync(REAL, 'utf8');

    it('splits lines the same however the bytes are cut into chunks, with LF, CRLF or CR line ends', () => {
      fc.assert(
        fc.property(fc.constantFrom('\n', '\r\n', '\r'), fc.array(fc.nat(), { maxLength: 12 }), (eol, cuts) => {
          const bytes = Buffer.from(text.replace(/\n/g, eol));
          const points = [...new Set(cuts.map((c) => c % bytes.length))].sort((a, b) => a - b);
          const splitter = new LineSplitter('x');
          const lines: string[] = [];
          let at = 0;
          for (const p of [...points, bytes.length]) {
            for (const l of splitter.push(bytes.subarray(at, p))) lines.push(l.text);
            at = p;
          }
          for (const l of splitter.end()) lines.push(l.text);
          expect(lines).to.deep.equal(text.replace(/\n$/, '').split('\n'));
        }),
        { numRuns: 200, seed: 7 },
      );
    });

    it('on mutated lines of the real log: well-formed jobs or an InputError naming the line and field, never garbage', () => {
      const lines = text.trimEnd().split('\n');
      let rejected = 0;
      fc.assert(
        fc.property(fc.integer({ min: 1, max: lines.length - 1 }), fc.nat(20), fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('Unknown', 'None', '', '-1', '99999999999', '2026-13-01T00:00:00', '1e3', 'RUNNING', '7_x', '|')), (row, field, value) => {
          const copy = [...lines];
          const fields = copy[row].split('|');
          fields[field % fields.length] = value;
          copy[row] = fields.join('|');
          let r: SacctReadResult;
          try {
            r = parseSacct(copy.join('\n'), { fileName: 'm.txt' });
          } catch (e) {
            expect(e).to.be.instanceOf(InputError);
            const err = e as InputError;
            expect(err.line).to.equal(row + 1);
            expect(err.field).to.be.a('string');
            expect(err.message.startsWith(`m.txt:${row + 1}: `)).to.equal(true);
            rejected++;
            return;
          }
          expect(new Set(r.jobs.map((j) => j.id)).size).to.equal(r.jobs.length);
          for (const j of r.jobs) {
            expect(Number.isFinite(j.submit) && j.submit >= 0).to.equal(true);
            expect(Number.isFinite(j.runtime) && j.runtime >= 0).to.equal(true);
            expect(Number.isInteger(j.procs) && j.procs > 0).to.equal(true);
          }
        }),
        { numRuns: 400, seed: 11 },
      );
      expect(rejected).to.be.above(100);
    });
  });

  describe('rules', () => {
    it('folds the components of a heterogeneous job into one job and skips their steps', () => {
      const r = parseSacct(
        [
          HEADER,
          line('20+0', '20', T(0), T(10), T(70), '00:05:00', 2, 'COMPLETED'),
          line('20+1', '21', T(1), T(10), T(80), '00:10:00', 3, 'FAILED'),
          line('20+0.batch', '20.batch', T(10), T(10), T(70), '', 2, 'COMPLETED'),
          line('20+1.0', '21.0', T(10), T(10), T(80), '', 3, 'COMPLETED'),
        ].join('\n'),
      );
      expect(r.jobs).to.deep.equal([{ id: 20, submit: 0, runtime: 70, procs: 5, requestedProcs: 5, requestedTime: 600, status: 0, userId: 1, groupId: 1, queue: 1 }]);
      expect(r.slurmIds).to.deep.equal(['20+0']);
      expect(r.report.steps).to.equal(2);
    });

    it('drops requeued records, pending array ranges and jobs with no CPUs or no nodes, counting each', () => {
      const r = parseSacct(
        [
          HEADER,
          line('30', '30', T(0), T(5), T(9), '00:01:00', 1, 'REQUEUED'),
          line('30', '30', T(0), T(20), T(30), '00:01:00', 1, 'COMPLETED'),
          line('31_[2-9]', '31', T(0), 'Unknown', 'Unknown', '00:01:00', 1, 'PENDING'),
          line('32', '32', T(0), 'None', T(3), '00:01:00', 0, 'CANCELLED by 1000'),
          line('33', '33', T(0), T(4), T(4), '00:01:00', 2, 'CANCELLED by 1000', { nodes: '0' }),
        ].join('\n'),
      );
      expect(r.jobs.map((j) => [j.id, j.runtime])).to.deep.equal([[30, 10]]);
      expect(r.report.dropped).to.deep.equal({ requeued: 1, 'not started': 1, 'cancelled before start': 2 });
    });

    it('numbers jobs 1, 2, … in submit order without JobIDRaw, and reads Timelimit forms and --parsable output', () => {
      const text = ['JobID|Submit|Start|End|Timelimit|AllocCPUS|State|', `9|${T(5)}|${T(6)}|${T(7)}|2-00:00:00|4|COMPLETED|`, `8|${T(0)}|${T(1)}|${T(9)}|30:00|2|COMPLETED|`, `7|${T(0)}|${T(1)}|${T(2)}|Partition_Limit|1|TIMEOUT|`].join('\n');
      const r = parseSacct(text);
      expect(r.jobs.map((j) => [j.id, j.submit, j.procs, j.requestedTime])).to.deep.equal([
        [1, 0, 2, 1800],
        [2, 0, 1, undefined],
        [3, 5, 4, 172800],
      ]);
      expect(r.slurmIds).to.deep.equal(['8', '7', '9']);
    });

    it('reads Slurm durations', () => {
      expect(durationSeconds('2-00:00:00')).to.equal(172800);
      expect(durationSeconds('01:02:03')).to.equal(3723);
      expect(durationSeconds('45:10')).to.equal(2710);
      expect(durationSeconds('1-2')).to.equal(undefined);
      expect(durationSeconds('00:61:00')).to.equal(undefined);
    });
  });

  describe('errors name file, line and field', () => {
    const one = (l: string) => [HEADER, line('1', '1', T(0), T(1), T(2), '00:01:00', 1, 'COMPLETED'), l].join('\n');
    const cases: [string, string, string][] = [
      [one(line('2', '2', 'yesterday', T(1), T(2), '00:01:00', 1, 'COMPLETED')), 'log.txt:3: Submit: ', "'yesterday' is not a time"],
      [one(line('2', '2', T(0), T(5), T(2), '00:01:00', 1, 'COMPLETED')), 'log.txt:3: End: ', 'is before Start'],
      [one(line('2', '2', T(0), T(1), T(2), 'soon', 1, 'COMPLETED')), 'log.txt:3: Timelimit: ', "'soon' is not a time limit"],
      [one(line('2', '2', T(0), T(1), T(2), '00:01:00', '1.5', 'COMPLETED')), 'log.txt:3: AllocCPUS: ', "'1.5' is not a whole number"],
      [one(line('2', '2', T(0), T(1), T(2), '00:01:00', 1, 'DONE')), 'log.txt:3: State: ', "unknown job state 'DONE'"],
      [one(line('x2', '2', T(0), T(1), T(2), '00:01:00', 1, 'COMPLETED')), 'log.txt:3: JobID: ', "'x2' is not a Slurm job id"],
      [one(line('1', '1', T(0), T(1), T(2), '00:01:00', 1, 'COMPLETED')), 'log.txt:3: JobID: ', 'also on line 2'],
      [one('2|2|batch'), 'log.txt:3: line: ', 'expected 13 fields'],
    ];
    for (const [text, prefix, detail] of cases) {
      it(`${prefix}${detail}`, () => {
        const e = sacctError(text);
        expect(e.message.startsWith(prefix), e.message).to.equal(true);
        expect(e.message).to.contain(detail);
        expect(e.line).to.equal(3);
      });
    }

    it('lenient mode skips and counts malformed lines', () => {
      const r = parseSacct(cases.map(([t]) => t.split('\n')[2]).join('\n').replace(/^/, `${HEADER}\n`), { lenient: true });
      // The lines alone: the one repeating job 1 is now its only line, and kept.
      expect(r.jobs.map((j) => j.id)).to.deep.equal([1]);
      expect(r.report.dropped).to.deep.equal({ 'malformed Submit': 1, 'malformed End': 1, 'malformed Timelimit': 1, 'malformed AllocCPUS': 1, 'malformed State': 1, 'malformed JobID': 1, 'malformed line': 1 });
    });

    it('refuses output without a header, fixed-width output and a header without the needed fields', () => {
      expect(sacctError(line('1', '1', T(0), T(1), T(2), '00:01:00', 1, 'COMPLETED')).message).to.contain('run sacct without --noheader');
      expect(sacctError('JobID    JobName  State\n------- -------- -----\n1 a COMPLETED').message).to.contain("separated by '|'");
      expect(sacctError('JobID|Submit|State\n1|x|COMPLETED').message).to.equal('log.txt:1: header: missing fields Start, End, AllocCPUS; give sacct --format JobID,JobIDRaw,Submit,Start,End,State,AllocCPUS,…');
      expect(sacctError('').message).to.contain('no sacct header line');
    });

    it('has the SWF reader\'s file checks: folders, damaged gzip, lines over 1 MiB, a byte-order mark', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sacct-bad-'));
      const failure = async (file: string) => {
        let err: unknown;
        await readSacct(file).catch((e) => (err = e));
        expect(err, file).to.be.instanceOf(InputError);
        return (err as Error).message;
      };
      try {
        expect(await failure(dir)).to.contain('is not a regular file');
        const gz = zlib.gzipSync(fs.readFileSync(REAL));
        fs.writeFileSync(path.join(dir, 'cut.gz'), gz.subarray(0, gz.length - 20));
        expect(await failure(path.join(dir, 'cut.gz'))).to.contain('damaged or truncated gzip data');
        fs.writeFileSync(path.join(dir, 'long.txt'), `${HEADER}\n${'x'.repeat((1 << 20) + 10)}\n`);
        expect(await failure(path.join(dir, 'long.txt'))).to.contain(':2: line: longer than 1048576 bytes');
        fs.writeFileSync(path.join(dir, 'bom.txt'), '\ufeff' + fs.readFileSync(REAL, 'utf8'));
        expect((await readSacct(path.join(dir, 'bom.txt'))).report.kept).to.equal(12);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('names a missing file', async () => {
      let err: unknown;
      await readSacct('/nonexistent/log.txt').catch((e) => (err = e));
      expect(err).to.be.instanceOf(InputError);
      expect((err as Error).message).to.contain('file not found: /nonexistent/log.txt');
    });
  });
});
