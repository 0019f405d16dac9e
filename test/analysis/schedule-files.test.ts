/**
 * Schedules written for other tools: Batsim's jobs output checked against
 * the documented schema and an example in it (fixtures/), interval sets
 * against the documentation's examples, and the SWF schedule read back by
 * schedlab's own SWF reader.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { BATSIM_JOBS_COLUMNS, batsimJobsCsv, intervalSet, parseIntervalSet, reservationSchedule, swfSchedule, writeSchedule } from '../../src/analysis/schedule-files';
import { simulateReservations } from '../../src/schedulers/reservation/simulate';
import { simulateBatch } from '../../src/schedulers/batch/simulate';
import { generateLublin } from '../../src/workloads/lublin';
import { parseSwf } from '../../src/workloads/swf';
import { InputError } from '../../src/util/errors';

const EXAMPLE = path.join(__dirname, 'fixtures', 'batsim-out-jobs-example.csv');
const INTERVAL_SET = /^(\d+(-\d+)?)( \d+(-\d+)?)*$/;

/** Rows of a simple CSV (no quoting: Batsim's jobs output has none). */
const csvRows = (text: string): string[][] => text.trimEnd().split('\n').map((l) => l.split(','));

/** The type of one value, as a reader of the file would see it. */
function typeOf(column: string, v: string): string {
  if (column === 'allocated_resources') return INTERVAL_SET.test(v) ? 'interval set' : `bad interval set '${v}'`;
  if (column === 'metadata') return v === '' || v === '""' ? 'empty' : 'text';
  if (column === 'final_state') return /^(COMPLETED_SUCCESSFULLY|COMPLETED_FAILED|COMPLETED_WALLTIME_REACHED|COMPLETED_KILLED|REJECTED)$/.test(v) ? 'state' : `bad state '${v}'`;
  if (column === 'success') return v === '0' || v === '1' ? 'bool' : `bad success '${v}'`;
  if (column === 'requested_number_of_resources') return /^[1-9]\d*$/.test(v) ? 'count' : `bad count '${v}'`;
  if (['job_id', 'workload_name', 'profile'].includes(column)) return v !== '' ? 'text' : 'empty';
  return v !== '' && (Number.isFinite(Number(v)) || v === 'inf' || v === 'nan') ? 'number' : `bad number '${v}'`;
}

const jobs = generateLublin({ jobs: 300, seed: 11, machineSize: 64 });
const result = simulateBatch(jobs, { machineSize: 64, policy: 'easy', estimates: 'requested', assignProcessors: true });

describe('schedule files', () => {
  it('writes interval sets in canonical form and reads every documented form', () => {
    // docs/interval-set.rst: {1, 2, 3, 5, 7} is `1-3 5 7`; [37, 42] is `37-42`.
    expect(intervalSet([7, 1, 2, 5, 3])).to.equal('1-3 5 7');
    expect(intervalSet([37, 38, 39, 40, 41, 42])).to.equal('37-42');
    expect(intervalSet([0, 1, 2, 3, 7])).to.equal('0-3 7');
    for (const form of ['1-3 5 7', '1-2 3 5 7', '1 2 3 5 7', '1-2 1-3 5 7', '5 2-2 7 1-3']) expect(parseIntervalSet(form)).to.deep.equal([1, 2, 3, 5, 7]);
    expect(() => intervalSet([1, 1])).to.throw(InputError, 'given twice');
    expect(() => parseIntervalSet('3-1')).to.throw(InputError);
  });

  describe("Batsim's jobs output", () => {
    const text = [...batsimJobsCsv(result, { jobs, workloadName: 'lublin' })].join('');
    const rows = csvRows(text);
    const example = csvRows(fs.readFileSync(EXAMPLE, 'utf8'));

    it('has the documented header and 17 fields on every line', () => {
      expect(rows[0]).to.deep.equal([...BATSIM_JOBS_COLUMNS]);
      expect(example[0]).to.deep.equal([...BATSIM_JOBS_COLUMNS]);
      expect(rows).to.have.length(301);
      for (const r of rows) expect(r).to.have.length(17);
    });

    it('types every column as the documentation example does', () => {
      const signature = (table: string[][]) => BATSIM_JOBS_COLUMNS.map((c, k) => [c, [...new Set(table.slice(1).map((r) => typeOf(c, r[k])))].sort().join('|')]);
      const ours = signature(rows);
      const theirs = signature(example);
      // The example also has a job killed at its walltime: compare the types both have.
      for (let k = 0; k < ours.length; k++) expect(theirs[k][1].split('|'), ours[k][0]).to.include.members(ours[k][1].split('|'));
      // And every value is well formed (no "bad …" type).
      expect(ours.filter(([, t]) => t.includes('bad'))).to.deep.equal([]);
    });

    it('holds the schedule: times, derived columns, and the processors the simulator assigned', () => {
      const col = (name: string) => BATSIM_JOBS_COLUMNS.indexOf(name as (typeof BATSIM_JOBS_COLUMNS)[number]);
      rows.slice(1).forEach((r, i) => {
        const res = result[i];
        const n = (name: string) => Number(r[col(name)]);
        expect(r[col('job_id')]).to.equal(String(res.id));
        expect([n('submission_time'), n('starting_time'), n('finish_time'), n('execution_time')]).to.deep.equal([res.submit, res.start, res.end, res.runtime]);
        expect(n('waiting_time')).to.equal(res.start - res.submit);
        expect(n('turnaround_time')).to.equal(res.end - res.submit);
        if (res.runtime > 0) expect(n('stretch')).to.be.closeTo((res.end - res.submit) / res.runtime, 1e-12);
        expect(n('requested_number_of_resources')).to.equal(res.procs);
        const req = jobs[i].requestedTime;
        expect(n('requested_time')).to.equal(req === undefined ? -1 : Math.max(req, res.runtime));
        expect(parseIntervalSet(r[col('allocated_resources')])).to.deep.equal(res.processors);
        expect(r[col('allocated_resources')]).to.equal(intervalSet(res.processors as number[]));
      });
    });
  });

  it('writes advance-reservation runs with the PEs each accepted request holds', () => {
    const requests = [
      { id: 1, arrival: 0, ready: 0, duration: 100, deadline: 100, pes: 6 },
      { id: 2, arrival: 1, ready: 1, duration: 50, deadline: 200, pes: 4 },
      { id: 3, arrival: 2, ready: 2, duration: 10, deadline: 12, pes: 8 },
    ];
    const outcomes = simulateReservations(requests, { machineSize: 8, policy: 'FF', recordPes: true });
    expect(outcomes.map((o) => o.accepted)).to.deep.equal([true, true, false]);
    const rows = csvRows([...batsimJobsCsv(reservationSchedule(outcomes), { workloadName: 'ar' })].join(''));
    const alloc = BATSIM_JOBS_COLUMNS.indexOf('allocated_resources');
    expect(rows.slice(1).map((r) => [r[0], r[alloc]])).to.deep.equal(outcomes.filter((o) => o.accepted).map((o) => [String(o.id), (o.allocatedPes as string).replace(/,/g, ' ')]));
    expect(rows.slice(1).map((r) => parseIntervalSet(r[alloc]).length)).to.deep.equal([6, 4]);
  });

  describe('SWF schedule', () => {
    const text = [...swfSchedule(result, { jobs, machineSize: 64, policy: 'easy (estimates: requested)', source: 'Lublin-Feitelson 2003, 300 jobs, seed 11' })].join('');

    it('reads back through the SWF reader: the same jobs, wait times in field 3, the header naming policy, machine and source', () => {
      const fields: number[][] = [];
      const sinkRead = parseSwf(text, { sink: { add: (v) => fields.push(Array.from(v)) } });
      const r = parseSwf(text);
      expect(r.report).to.deep.equal({ read: 300, kept: 300, dropped: {} });
      expect(r.jobs).to.deep.equal(jobs.map((j) => ({ ...j, status: j.status ?? 1 })));
      expect(sinkRead.report.kept).to.equal(300);
      expect(fields.map((v) => v[2])).to.deep.equal(result.map((x) => x.start - x.submit));
      expect(result.some((x) => x.start > x.submit)).to.equal(true);
      expect(r.header.fields.MaxProcs).to.equal('64');
      expect(r.header.fields.MaxJobs).to.equal('300');
      expect(r.header.comments.join('\n')).to.contain('policy easy (estimates: requested)').and.contain('machine 64 processors').and.contain('source Lublin-Feitelson 2003');
    });
  });

  describe('writeSchedule', () => {
    let dir: string;
    before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedule-files-'))));
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('writes the format the extension or the option says', () => {
      expect(writeSchedule(result, path.join(dir, 'easy.swf'), { jobs, machineSize: 64 })).to.equal(path.join(dir, 'easy.swf'));
      expect(fs.readFileSync(path.join(dir, 'easy.swf'), 'utf8')).to.match(/^; Version: 2.2\n/);
      writeSchedule(result, path.join(dir, 'easy.csv'));
      expect(fs.readFileSync(path.join(dir, 'easy.csv'), 'utf8')).to.match(/^id,submit,start,end,runtime,procs,wait/);
      writeSchedule(result, path.join(dir, 'easy_jobs.csv'), { format: 'batsim' });
      expect(fs.readFileSync(path.join(dir, 'easy_jobs.csv'), 'utf8').split('\n')[0]).to.equal(BATSIM_JOBS_COLUMNS.join(','));
    });

    it('refuses a workload that does not match the schedule, leaving no file', () => {
      const file = path.join(dir, 'bad.swf');
      const shuffled = [jobs[1], jobs[0], ...jobs.slice(2)];
      expect(() => writeSchedule(result, file, { jobs: shuffled })).to.throw(InputError, 'schedule row 0 is job 1 but options.jobs[0] is job 2');
      expect(() => writeSchedule(result, path.join(dir, 'x.csv'), { format: 'gantt' as never })).to.throw(InputError, 'format must be batsim, swf, csv');
      expect(fs.readdirSync(dir).filter((f) => f.startsWith('bad') || f.startsWith('x.'))).to.deep.equal([]);
    });
  });
});
