import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { columnJob, columnsOfferedLoad, columnsScaledToLoad, JobColumnsBuilder, toColumns } from '../../src/workloads/columns';
import { readSwf, readSwfColumns, writeSwf } from '../../src/workloads/swf';
import { loadTraceSync } from '../../src/workloads/traces';
import { offeredLoadIfDefined, scaleToLoad, rebase } from '../../src/workloads/filters';
import { simulateBatch, simulateBatchColumns } from '../../src/schedulers/batch';
import { InputError } from '../../src/util/errors';
import { SwfError } from '../../src/workloads/swf';

describe('job columns (typed arrays for millions of jobs)', function () {
  this.timeout(120_000);
  const kth = loadTraceSync('KTH-SP2');
  const jobs = rebase(kth.jobs.slice(0, 6000));
  let tmp: string;
  before(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-columns-'))));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('readSwfColumns sized from the header (MaxRecords right, too high, too low, or past the file size) reads the same columns, gzip or plain', async () => {
    const zlib = await import('zlib');
    const part = jobs.slice(0, 3000);
    const want = toColumns(part);
    for (const records of [3000, 5000, 1000, 1e9]) {
      for (const gz of [false, true]) {
        const text = writeSwf(part, { fields: { MaxRecords: String(records), MaxProcs: String(kth.info.machineSize) } });
        const file = path.join(tmp, `records-${records}.swf${gz ? '.gz' : ''}`);
        fs.writeFileSync(file, gz ? zlib.gzipSync(text) : text);
        const cols = (await readSwfColumns(file)).columns;
        expect(cols.length, `${records}${gz ? ' gz' : ''}`).to.equal(3000);
        for (const k of ['id', 'submit', 'runtime', 'procs', 'requestedTime'] as const) {
          expect(cols[k].length, k).to.equal(3000);
          expect(Array.from(cols[k]), k).to.deep.equal(Array.from(want[k]));
        }
      }
    }
  });

  it('readSwfColumns reads what readSwf reads, with the same report and errors', async () => {
    const file = path.join(tmp, 'kth.swf');
    fs.writeFileSync(file, writeSwf(jobs, { fields: { MaxProcs: String(kth.info.machineSize) } }));
    const objects = await readSwf(file);
    const cols = await readSwfColumns(file);
    expect(cols.report).to.deep.equal(objects.report);
    expect(cols.header).to.deep.equal(objects.header);
    expect(cols.columns.length).to.equal(objects.jobs.length);
    const want = toColumns(objects.jobs);
    for (const k of ['id', 'submit', 'runtime', 'procs', 'requestedTime'] as const) expect(Array.from(cols.columns[k]), k).to.deep.equal(Array.from(want[k]));
    fs.appendFileSync(file, '6001 5 0 -3 1 -1 -1 1 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n');
    const badLine = fs.readFileSync(file, 'utf8').split('\n').length - 1;
    await readSwfColumns(file).then(() => expect.fail('no error'), (e) => {
      expect(e).to.be.instanceOf(SwfError);
      expect((e as SwfError).line).to.equal(badLine);
      expect((e as Error).message).to.match(/run time.*-3 is negative/);
    });
  });

  it('simulateBatchColumns gives the start times simulateBatch gives, every policy and estimate mode', () => {
    const cols = toColumns(jobs);
    for (const policy of ['fcfs', 'easy', 'conservative'] as const) {
      for (const estimates of ['exact', 'requested'] as const) {
        const want = simulateBatch(jobs, { machineSize: kth.info.machineSize, policy, estimates }).map((r) => r.start);
        expect(Array.from(simulateBatchColumns(cols, { machineSize: kth.info.machineSize, policy, estimates })), `${policy} ${estimates}`).to.deep.equal(want);
        expect(simulateBatch(cols, { machineSize: kth.info.machineSize, policy, estimates }).map((r) => r.start), `${policy} ${estimates} (objects out)`).to.deep.equal(want);
      }
    }
  });

  it('offered load and load scaling agree exactly with the object versions', () => {
    const cols = toColumns(jobs);
    expect(columnsOfferedLoad(cols, kth.info.machineSize)).to.equal(offeredLoadIfDefined(jobs, kth.info.machineSize));
    const scaled = columnsScaledToLoad(cols, kth.info.machineSize, 0.9);
    expect(Array.from(scaled.submit)).to.deep.equal(scaleToLoad(jobs, kth.info.machineSize, 0.9).map((j) => j.submit));
    const same = new JobColumnsBuilder();
    same.push(1, 5, 10, 1);
    same.push(2, 5, 10, 1);
    expect(() => columnsScaledToLoad(same.finish(), 4, 0.5)).to.throw(InputError, /span 0/);
  });

  it('the builder grows past its first capacity and round-trips job objects', () => {
    const b = new JobColumnsBuilder();
    for (let i = 0; i < 5000; i++) b.push(i + 1, i, 2 * i, 1 + (i % 7), i % 3 === 0 ? NaN : 3 * i + 1);
    const c = b.finish();
    expect(c.length).to.equal(5000);
    expect(columnJob(c, 4999)).to.deep.equal({ id: 5000, submit: 4999, runtime: 9998, procs: 1 + (4999 % 7), requestedTime: 3 * 4999 + 1 });
    expect(columnJob(c, 3)).to.deep.equal({ id: 4, submit: 3, runtime: 6, procs: 4 });
  });
});
