/**
 * `schedlab convert` between SWF, sacct and Batsim JSON, and `schedlab
 * simulate --out FILE --format csv|swf|batsim`, end to end: the real sacct
 * log converted to SWF and Batsim, simulated, and written as a Batsim jobs
 * output and an SWF schedule.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { convertMain } from '../../src/cli/convert';
import { simulateMain } from '../../src/cli/simulate';
import { COMMANDS } from '../../src/bin/schedlab';
import { readSacct } from '../../src/workloads/sacct';
import { parseSwf, readSwfSync } from '../../src/workloads/swf';
import { parseBatsimWorkload } from '../../src/workloads/batsim';
import { BATSIM_JOBS_COLUMNS, parseIntervalSet } from '../../src/analysis/schedule-files';

const REAL = path.join(__dirname, 'fixtures', 'sacct-real.txt');

async function run(fn: (out: (s: string) => void) => Promise<number>): Promise<{ code: number; text: string; err: string }> {
  const lines: string[] = [];
  const errs: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  (process.stderr as unknown as { write: (s: string) => boolean }).write = (s: string) => (errs.push(String(s)), true);
  try {
    const code = await fn((s) => lines.push(s));
    return { code, text: lines.join('\n'), err: errs.join('') };
  } finally {
    process.stderr.write = write;
  }
}

describe('schedlab convert and simulate --format', () => {
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'convert-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const f = (name: string) => path.join(dir, name);

  it('is a schedlab command', () => expect(COMMANDS).to.have.property('convert'));

  it('converts the real sacct log to SWF and to Batsim JSON, keeping every job', async () => {
    const sacct = await readSacct(REAL);
    const a = await run((out) => convertMain([REAL, f('real.swf'), '--machine-size', '8'], out));
    expect(a.code, a.err).to.equal(0);
    expect(a.text).to.equal(`converted 12 jobs: ${REAL} (sacct) -> ${f('real.swf')} (swf); dropped: 1 cancelled before start, 1 still running, 1 not started`);
    const swf = readSwfSync(f('real.swf'));
    expect(swf.jobs).to.deep.equal(sacct.jobs.map(({ groupId, ...j }) => (expect(groupId).to.equal(1), j)));
    expect(swf.header.fields.MaxProcs).to.equal('8');
    expect(swf.header.fields.UnixStartTime).to.equal(String(sacct.startTime));
    expect(swf.header.comments.join('\n')).to.contain('queues (Slurm partitions): 1 batch, 2 long');

    const b = await run((out) => convertMain([REAL, f('real.json'), '--machine-size', '8'], out));
    expect(b.code, b.err).to.equal(0);
    const batsim = parseBatsimWorkload(fs.readFileSync(f('real.json'), 'utf8'));
    expect(batsim.machineSize).to.equal(8);
    expect(batsim.batsimIds).to.deep.equal(sacct.slurmIds);
    expect(batsim.jobs.map((j) => [j.submit, j.runtime, j.procs])).to.deep.equal(sacct.jobs.map((j) => [j.submit, j.runtime, j.procs]));

    // Batsim JSON back to SWF: the same jobs (numbered by position: Slurm ids such as 7_0 are not numbers).
    const c = await run((out) => convertMain([f('real.json'), f('back.swf')], out));
    expect(c.code, c.err).to.equal(0);
    const back = readSwfSync(f('back.swf'));
    expect(back.header.fields.MaxProcs).to.equal('8');
    expect(back.header.comments.filter((c) => c.includes('converted by schedlab'))).to.have.length(1);
    // SWF to SWF keeps the header, with the counts rewritten and a note added.
    const d = await run((out) => convertMain([f('real.swf'), f('again.swf')], out));
    expect(d.code, d.err).to.equal(0);
    const again = readSwfSync(f('again.swf'));
    expect(again.jobs).to.deep.equal(swf.jobs);
    expect(again.header.fields.UnixStartTime).to.equal(String(sacct.startTime));
    expect(again.header.comments.filter((c) => /MaxProcs|MaxJobs/.test(c))).to.deep.equal([' MaxJobs: 12', ' MaxProcs: 8']);
    expect(again.header.comments.filter((c) => c.includes('converted by schedlab from Slurm sacct log'))).to.have.length(1);
    expect(again.header.comments.filter((c) => c.includes('converted by schedlab from SWF real.swf: 12 job lines, 12 kept'))).to.have.length(1);
    expect(back.jobs.map((j) => [j.id, j.submit, j.runtime, j.procs])).to.deep.equal(sacct.jobs.map((j, i) => [i + 1, j.submit, j.runtime, j.procs]));
  });

  it('simulates the converted log and writes Batsim jobs output with processor ids, and an SWF schedule', async () => {
    const a = await run((out) => simulateMain(['--trace', f('real.swf'), '--policy', 'easy', '--estimates', 'requested', '--out', f('real_jobs.csv'), '--format', 'batsim'], out));
    expect(a.code, a.err).to.equal(0);
    const rows = fs.readFileSync(f('real_jobs.csv'), 'utf8').trimEnd().split('\n').map((l) => l.split(','));
    expect(rows[0]).to.deep.equal([...BATSIM_JOBS_COLUMNS]);
    expect(rows).to.have.length(13);
    const alloc = BATSIM_JOBS_COLUMNS.indexOf('allocated_resources');
    const procs = BATSIM_JOBS_COLUMNS.indexOf('requested_number_of_resources');
    for (const r of rows.slice(1)) {
      expect(r[1]).to.equal('real');
      const ids = parseIntervalSet(r[alloc]);
      expect(ids).to.have.length(Number(r[procs]));
      for (const id of ids) expect(id).to.be.within(0, 7);
    }
    // The 8-CPU job holds the whole machine.
    expect(rows.slice(1).find((r) => r[0] === '3')?.[alloc]).to.equal('0-7');

    const s = await run((out) => simulateMain(['--trace', f('real.swf'), '--out', f('sched.swf')], out));
    expect(s.code, s.err).to.equal(0);
    expect(s.text).to.contain(`SWF schedule  ${f('sched.swf')}`);
    const waits: number[] = [];
    const text = fs.readFileSync(f('sched.swf'), 'utf8');
    const r = parseSwf(text, { sink: { add: (v) => waits.push(v[2]) } });
    expect(r.report.kept).to.equal(12);
    expect(waits.every((w) => w >= 0)).to.equal(true);
    expect(text).to.contain('; Note: policy easy (estimates: exact)').and.contain('; Note: machine 8 processors').and.contain('; Note: source real.swf');
    // The per-job CSV is still the default for .csv.
    const c = await run((out) => simulateMain(['--trace', f('real.swf'), '--out', f('sched.csv')], out));
    expect(c.code, c.err).to.equal(0);
    expect(fs.readFileSync(f('sched.csv'), 'utf8')).to.match(/^id,submit,start,end,runtime,procs,wait,response,stretch,bounded_slowdown\n/);
  });

  it('refuses bad arguments and bad input with exit 2, naming the flag, file, line or field, and writes nothing', async () => {
    fs.writeFileSync(f('bad.txt'), 'JobID|Submit|Start|End|State|AllocCPUS\n1|2024-01-01T00:00:00|2024-01-01T00:00:05|2024-01-01T00:00:09|COMPLETED|four\n');
    const cases: [string[], string][] = [
      [[REAL], 'give an input and an output file'],
      [[REAL, f('o.bin')], 'cannot tell the format of'],
      [[REAL, f('o.txt')], '--to must be swf or batsim'],
      [[REAL, f('o.swf'), '--from', 'csv'], '--from must be swf, sacct, batsim'],
      [[REAL, f('o.swf'), '--machine-size', '0'], '--machine-size must be a positive integer'],
      [[f('real.swf'), f('o.json'), '--unit', 'nodes'], '--unit only applies to sacct input'],
      [[REAL, f('o.json')], 'give --machine-size'],
      [[REAL, f('o.swf'), '--machine-size', '4'], `${REAL}:6: AllocCPUS: 8 processors on a machine of 4`],
      [[f('bad.txt'), f('o.swf')], `${f('bad.txt')}:2: AllocCPUS: 'four' is not a whole number`],
      [[f('missing.txt'), f('o.swf')], 'file not found'],
      [[REAL, REAL, '--to', 'swf'], 'the output file is the input file'],
    ];
    for (const [args, message] of cases) {
      const r = await run((out) => convertMain(args, out));
      expect(r.code, args.join(' ')).to.equal(2);
      expect(r.err, args.join(' ')).to.contain(message);
    }
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('o.'))).to.deep.equal([]);
    const s = await run((out) => simulateMain(['--lublin', '50', '--format', 'batsim'], out));
    expect([s.code, s.err.split('\n')[0]]).to.deep.equal([2, 'schedlab simulate: --format applies to --out: give --out FILE']);
    const t = await run((out) => simulateMain(['--lublin', '50', '--out', f('o.csv'), '--format', 'evalys'], out));
    expect([t.code, t.err.split('\n')[0]]).to.deep.equal([2, "schedlab simulate: --format must be batsim, swf, csv, got 'evalys'"]);
  });
});
