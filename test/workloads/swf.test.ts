import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { parseSwf, readSwf, writeSwf, SwfError } from '../../src/workloads/swf';

const HEADER = ['; Version: 2.2', '; MaxProcs: 8', '; Note: hand-made test trace'].join('\n');
const line = (f: (string | number)[]) => f.join(' ');
const good = (id: number, submit: number, run: number, procs: number) =>
  line([id, submit, 0, run, procs, -1, -1, procs, run * 2, -1, 1, 3, 1, -1, 2, -1, -1, -1]);

function expectSwfError(text: string, field: RegExp, lineNo: number, reason: string, machineSize?: number) {
  let err: unknown;
  try {
    parseSwf(text, { fileName: 'bad.swf', machineSize });
  } catch (e) {
    err = e;
  }
  expect(err).to.be.instanceOf(SwfError);
  const e = err as SwfError;
  expect(e.file).to.equal('bad.swf');
  expect(e.line).to.equal(lineNo);
  expect(e.field).to.match(field);
  expect(e.reason).to.equal(reason);
  expect(e.message).to.contain(`bad.swf:${lineNo}:`);
  // Lenient mode skips the line and counts it.
  const res = parseSwf(text, { fileName: 'bad.swf', lenient: true, machineSize });
  expect(res.report.dropped[reason]).to.equal(1);
  expect(res.report.kept).to.equal(res.report.read - 1);
}

describe('SWF reader and writer', () => {
  it('parses header comments, key/value pairs and job fields', () => {
    const text = `${HEADER}\n${good(1, 0, 100, 4)}\n${good(2, 10, 50, 8)}\n`;
    const res = parseSwf(text);
    expect(res.header.comments).to.deep.equal([' Version: 2.2', ' MaxProcs: 8', ' Note: hand-made test trace']);
    expect(res.header.fields.MaxProcs).to.equal('8');
    expect(res.jobs).to.have.length(2);
    expect(res.jobs[1]).to.deep.equal({
      id: 2, submit: 10, runtime: 50, procs: 8, requestedProcs: 8, requestedTime: 100, status: 1, userId: 3, queue: 2,
    });
    expect(res.report).to.deep.equal({ read: 2, kept: 2, dropped: {} });
  });

  it('round-trips through writeSwf (header kept)', () => {
    const text = `${HEADER}\n${good(1, 0, 100, 4)}\n${good(2, 10, 50, 8)}\n`;
    const a = parseSwf(text);
    const out = writeSwf(a.jobs, a.header);
    const b = parseSwf(out);
    expect(b.jobs).to.deep.equal(a.jobs);
    expect(b.header).to.deep.equal(a.header);
    expect(out.startsWith('; Version: 2.2\n')).to.equal(true);
  });

  it('wrong field count names file, line and "line"', () => {
    expectSwfError(`${HEADER}\n${good(1, 0, 1, 1)}\n1 2 3\n`, /^line$/, 5, 'wrong field count');
  });

  it('non-numeric field names the field', () => {
    const bad = good(2, 5, 10, 2).replace(/^2 5 /, '2 abc ');
    expectSwfError(`${HEADER}\n${good(1, 0, 1, 1)}\n${bad}\n`, /field 2 \(submit time\)/, 5, 'non-numeric field');
  });

  it('negative run time (other than -1) names the field', () => {
    const bad = line([2, 5, 0, -7, 2, -1, -1, 2, 10, -1, 1, 3, 1, -1, 2, -1, -1, -1]);
    expectSwfError(`${HEADER}\n${bad}\n`, /field 4 \(run time\)/, 4, 'negative run time');
  });

  it('more processors than the machine (header MaxProcs or option) names the field', () => {
    expectSwfError(`${HEADER}\n${good(1, 0, 1, 9)}\n`, /field 5 \(allocated processors\)/, 4, 'more processors than machine');
    expectSwfError(`${good(1, 0, 1, 5)}\n`, /field 5/, 1, 'more processors than machine', 4);
  });

  it('missing (-1) run time or processors: dropped and counted, not an error', () => {
    const a = line([2, 5, 0, -1, 2, -1, -1, 2, 10, -1, 5, 3, 1, -1, 2, -1, -1, -1]);
    const b = line([3, 6, 0, 10, -1, -1, -1, 2, 10, -1, 5, 3, 1, -1, 2, -1, -1, -1]);
    const res = parseSwf(`${good(1, 0, 1, 1)}\n${a}\n${b}\n`);
    expect(res.report).to.deep.equal({ read: 3, kept: 1, dropped: { 'missing run time': 1, 'missing processors': 1 } });
  });

  it('readSwf streams plain and gzip files identically to parseSwf', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'swf-'));
    const text = `${HEADER}\n${good(1, 0, 100, 4)}\n${good(2, 10, 50, 8)}\n`;
    fs.writeFileSync(path.join(dir, 'a.swf'), text);
    fs.writeFileSync(path.join(dir, 'a.swf.gz'), zlib.gzipSync(text));
    const plain = await readSwf(path.join(dir, 'a.swf'));
    const gz = await readSwf(path.join(dir, 'a.swf.gz'));
    expect(plain.jobs).to.deep.equal(parseSwf(text).jobs);
    expect(gz).to.deep.equal(plain);
    // Errors from files carry the path.
    fs.writeFileSync(path.join(dir, 'b.swf'), `${good(1, 0, 1, 1)}\n1 2\n`);
    let msg = '';
    try {
      await readSwf(path.join(dir, 'b.swf'));
    } catch (e) {
      msg = (e as Error).message;
    }
    expect(msg).to.contain(`${path.join(dir, 'b.swf')}:2: line`);
    fs.rmSync(dir, { recursive: true });
    let missing = '';
    await readSwf('/nonexistent/x.swf').catch((e) => (missing = e.message));
    expect(missing).to.match(/not found/);
  });
});
