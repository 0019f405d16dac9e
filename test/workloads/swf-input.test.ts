/**
 * The SWF reader on input that used to be read wrongly without an error:
 * line endings, header values, numbers beyond exact double precision,
 * processor counts beyond 32 bits, huge lines and comment floods. Also: the
 * fast scanner gives the values a plain split/Number parse gives on the
 * real traces, and every reader agrees on every input.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { parseSwf, readSwf, readSwfSync, SwfError, SwfParser, SwfReadResult } from '../../src/workloads/swf';
import { findTrace, loadTraceSync, traceManifest } from '../../src/workloads/traces';
import { referenceJobs } from '../support/swf-reference';

const job = (id: number | string, submit: number | string, run: number | string, procs: number | string, reqProcs: number | string = -1) =>
  [id, submit, 0, run, procs, -1, -1, reqProcs, 100, -1, 1, 3, -1, -1, 2, -1, -1, -1].join(' ');

let tmp: string;
before(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'swf-input-'))));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The error parseSwf throws on `text` (fails when it parses). */
function swfError(text: string): SwfError {
  try {
    parseSwf(text, { fileName: 'in.swf' });
  } catch (e) {
    expect(e).to.be.instanceOf(SwfError);
    return e as SwfError;
  }
  throw new Error(`accepted: ${JSON.stringify(text.slice(0, 200))}`);
}

/** All readers on the same bytes: in memory, from a file (sync and streaming), and pushed in the given chunks. */
async function allReaders(bytes: Buffer, cuts: number[]): Promise<(SwfReadResult | string)[]> {
  const file = path.join(tmp, 'agree.swf');
  fs.writeFileSync(file, bytes);
  const run = async (f: () => SwfReadResult | Promise<SwfReadResult>) => {
    try {
      return await f();
    } catch (e) {
      if (!(e instanceof SwfError)) throw e;
      return `line ${e.line}: ${e.field}: ${e.reason}`;
    }
  };
  const chunked = () => {
    const p = new SwfParser(file);
    let at = 0;
    for (const c of [...cuts.filter((c) => c < bytes.length)].sort((a, b) => a - b)) {
      p.push(bytes.subarray(at, c));
      at = c;
    }
    p.push(bytes.subarray(at));
    return p.end();
  };
  return [await run(() => parseSwf(bytes.toString('utf8'), { fileName: file })), await run(() => readSwfSync(file)), await run(() => readSwf(file)), await run(chunked)];
}

describe('SWF reader: line endings (every reader, same answer)', function () {
  this.timeout(5 * 60 * 1000); // a guard against hangs: the suite runs beside notebook executions

  it('CR-only, CRLF, LF and mixed line endings give the same 30 jobs in every reader', async () => {
    const lines = ['; MaxProcs: 64', ...Array.from({ length: 30 }, (_, i) => job(i + 1, i * 10, 5 + i, 1 + (i % 64)))];
    const expected = parseSwf(lines.join('\n') + '\n').jobs;
    expect(expected).to.have.length(30);
    for (const eol of ['\r', '\r\n', '\n']) {
      for (const final of [eol, '']) {
        for (const r of await allReaders(Buffer.from(lines.join(eol) + final), [])) {
          expect(typeof r === 'string' ? r : r.jobs, JSON.stringify(eol + final)).to.deep.equal(expected);
        }
      }
    }
    const mixed = lines.map((l, i) => l + ['\r', '\r\n', '\n'][i % 3]).join('');
    for (const r of await allReaders(Buffer.from(mixed), [])) expect(typeof r === 'string' ? r : r.jobs).to.deep.equal(expected);
  });

  it('property: parseSwf, readSwfSync, readSwf and any chunking agree (jobs, header, report, or the same error)', async () => {
    const lineArb = fc.oneof(
      fc.tuple(fc.nat(1000), fc.nat(10000), fc.integer({ min: -1, max: 500 }), fc.integer({ min: -1, max: 80 })).map(([id, s, r, p]) => job(id, s, r, p)),
      fc.constantFrom('; MaxProcs: 64', '; Note: a note', ';', '', '   ', '\t', '1 2 3', job(1, 'x', 1, 1), '\uFEFF' + job(1, 0, 1, 1), ' ; MaxNodes: 64'),
    );
    const eolArb = fc.constantFrom('\n', '\r\n', '\r', '\r\r\n', '\n\r');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(lineArb, eolArb), { maxLength: 25 }), fc.boolean(), fc.array(fc.nat(1500), { maxLength: 6 }), async (rows, finalEol, cuts) => {
        const text = rows.map(([l, e], i) => l + (i < rows.length - 1 || finalEol ? e : '')).join('');
        const [first, ...rest] = await allReaders(Buffer.from(text), cuts);
        for (const r of rest) expect(r, JSON.stringify(text)).to.deep.equal(first);
      }),
      { numRuns: 150, seed: 11 },
    );
  });
});

describe('SWF reader: header machine size', () => {
  it("'MaxProcs: 1,024' and '1e3' are errors naming the line, not 1 processor", () => {
    for (const v of ['1,024', '1e3', '1024.5', 'lots', '0x400', '10000000000']) {
      const e = swfError(`; Version: 2.2\n; MaxProcs: ${v}\n${job(1, 0, 5, 1)}\n`);
      expect(e.line, v).to.equal(2);
      expect(e.field, v).to.equal('header MaxProcs');
      expect(e.message, v).to.match(/^in\.swf:2: header MaxProcs: /);
    }
    expect(swfError(`; MaxNodes: 1e3\n`).field).to.equal('header MaxNodes');
    // A whole number followed by words is the number; -1 and 0 are unknown.
    expect(parseSwf(`; MaxNodes: 338 (batch partition; 512 total)\n${job(1, 0, 5, 338)}\n`).jobs).to.have.length(1);
    expect(swfError(`; MaxNodes: 338 (batch partition; 512 total)\n${job(1, 0, 5, 339)}\n`).reason).to.equal('more processors than machine');
    expect(parseSwf(`; MaxProcs: -1\n${job(1, 0, 5, 5000)}\n`).jobs).to.have.length(1);
  });

  it('a MaxProcs redefined with another value is an error naming both lines; the same value again is not', () => {
    const e = swfError(`; MaxProcs: 8\n${job(1, 0, 5, 8)}\n; MaxProcs: 4\n${job(2, 1, 5, 2)}\n`);
    expect(e.line).to.equal(3);
    expect(e.field).to.equal('header MaxProcs');
    expect(e.message).to.contain('line 1');
    expect(swfError(`; MaxProcs: 8\n; MaxProcs: 16\n`).message).to.match(/^in\.swf:2: .*redefined as 16; line 1 gave 8/);
    expect(parseSwf(`; MaxProcs: 8\n${job(1, 0, 5, 8)}\n; MaxProcs: 8\n`).jobs).to.have.length(1);
    // First given after the jobs began: the jobs above were not checked against it.
    expect(swfError(`${job(1, 0, 5, 800)}\n; MaxProcs: 8\n`).line).to.equal(2);
    // Header errors are errors in lenient mode too.
    expect(() => parseSwf(`; MaxProcs: 8\n; MaxProcs: 4\n`, { lenient: true })).to.throw(SwfError, /redefined/);
  });
});

describe('SWF reader: values beyond exact precision', () => {
  it('processor counts above 2^31 − 1 are rejected naming line and field (allocated and requested)', () => {
    const e = swfError(`${job(1, 0, 5, 1)}\n${job(2, 0, 5, 3e9)}\n`);
    expect([e.line, e.field, e.reason]).to.deep.equal([2, 'field 5 (allocated processors)', 'too many processors']);
    expect(swfError(job(1, 0, 5, 1, 2 ** 31)).field).to.equal('field 8 (requested processors)');
    expect(parseSwf(job(1, 0, 5, 2 ** 31 - 1)).jobs[0].procs).to.equal(2 ** 31 - 1);
    expect(parseSwf(`${job(2, 0, 5, 3e9)}\n`, { lenient: true }).report.dropped).to.deep.equal({ 'too many processors': 1 });
  });

  it('times beyond 2^40 s and any value beyond 2^53 − 1 are rejected naming line and field', () => {
    const cases: [string, string, string][] = [
      [job(1, '1e300', 100, 1), 'field 2 (submit time)', 'time too large'],
      [job(1, '9007199254740993', 7, 1), 'field 2 (submit time)', 'time too large'],
      [job(1, 0, 7, 1).replace(/ -1 -1 -1$/, ' -1 -1 9007199254740993'), 'field 18 (think time)', 'time too large'],
      [job(1, 0, 7, 1).replace(/^(\S+ \S+ \S+ \S+ \S+ \S+) -1/, '$1 1e20'), 'field 7 (used memory)', 'value too large'],
      [job(1, 0, 2 ** 40 + 1, 1), 'field 4 (run time)', 'time too large'],
      [job('9007199254740992', 0, 7, 1), 'field 1 (job number)', 'value too large'],
      [job('-9007199254740993', 0, 7, 1), 'field 1 (job number)', 'value too large'],
    ];
    for (const [line, field, reason] of cases) {
      const e = swfError(`; MaxProcs: 4\n${line}\n`);
      expect([e.line, e.field, e.reason], line).to.deep.equal([2, field, reason]);
    }
    // The bounds themselves are fine, and ids 2^53 − 2 and 2^53 − 1 stay two ids.
    const ok = parseSwf(`${job(9007199254740990, 2 ** 40, 7, 1)}\n${job(9007199254740991, 0, 7, 1)}\n`).jobs;
    expect(ok.map((j) => j.id)).to.deep.equal([9007199254740990, 9007199254740991]);
    expect(ok[0].submit).to.equal(2 ** 40);
  });
});

describe('SWF reader: numbers', () => {
  it('property: every decimal token reads as Number(token) (the fast digit path included)', () => {
    const token = fc.oneof(
      fc.tuple(fc.boolean(), fc.stringMatching(/^[0-9]{1,17}$/), fc.option(fc.stringMatching(/^[0-9]{0,17}$/))).map(([neg, a, b]) => `${neg ? '-' : ''}${a}${b === null ? '' : `.${b}`}`),
      fc.tuple(fc.boolean(), fc.stringMatching(/^[0-9]{1,12}$/)).map(([neg, b]) => `${neg ? '-' : ''}.${b}`),
      fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map(String),
    );
    fc.assert(
      fc.property(token, (t) => {
        // Field 6 (average CPU time) takes any value; it is kept when not -1.
        const want = Number(t);
        if (Math.abs(want) > 2 ** 40 || want === -1) return;
        const got = parseSwf(`1 0 -1 5 1 ${t} -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n`).jobs[0].avgCpuTime;
        expect(Object.is(got, want), `${t}: ${got} vs ${want}`).to.equal(true);
      }),
      { numRuns: 3000, seed: 5 },
    );
  });
});

describe('SWF reader: huge lines and comment floods', function () {
  this.timeout(5 * 60 * 1000); // a guard against hangs: the suite runs beside notebook executions

  /** gzip of `size` bytes made by repeating `unit` (compresses about 1000:1). */
  function gzipOf(unit: string, size: number, prefix = '', suffix = ''): Buffer {
    const body = Buffer.alloc(size, unit);
    return zlib.gzipSync(Buffer.concat([Buffer.from(prefix), body, Buffer.from(suffix)]), { level: 1 });
  }

  it('a line over 1 MiB (plain or gzip, no line break) is an SwfError naming the line, in every reader', async () => {
    const plain = path.join(tmp, 'long.swf');
    const gz = path.join(tmp, 'long.swf.gz');
    fs.writeFileSync(plain, `; MaxProcs: 4\n${job(1, 0, 5, 1)}\n${'7 '.repeat(600_000)}`);
    fs.writeFileSync(gz, gzipOf('x', 48 << 20, `; MaxProcs: 4\n${job(1, 0, 5, 1)}\n`));
    expect(fs.statSync(gz).size).to.be.below(1 << 20);
    for (const file of [plain, gz]) {
      for (const read of [() => readSwf(file), async () => readSwfSync(file)]) {
        let err: unknown;
        await read().catch((e) => (err = e));
        expect(err, file).to.be.instanceOf(SwfError);
        expect((err as SwfError).line).to.equal(3);
        expect((err as SwfError).reason).to.equal('line too long');
        expect((err as SwfError).message).to.contain(`${file}:3: line:`);
      }
    }
    // Exactly 1 MiB is still a line (a malformed one here).
    expect(swfError(`${'1'.repeat(1 << 20)}\n`).reason).to.equal('wrong field count');
  });

  it('a gzip of 64 MiB of comments keeps 1,000 comment lines, counts the rest, and still reads MaxProcs', async () => {
    const unit = '; a comment line that says nothing at all, repeated many times\n';
    const file = path.join(tmp, 'comments.swf.gz');
    const count = Math.floor((64 << 20) / unit.length);
    fs.writeFileSync(file, zlib.gzipSync(Buffer.concat([Buffer.from(unit.repeat(count)), Buffer.from(`; MaxProcs: 4\n${job(1, 0, 5, 4)}\n`)]), { level: 1 }));
    for (const r of [await readSwf(file), readSwfSync(file)]) {
      expect(r.header.comments).to.have.length(1000);
      expect(r.header.omitted).to.equal(count + 1 - 1000);
      expect(r.header.fields.MaxProcs).to.equal('4');
      expect(r.jobs).to.have.length(1);
    }
  });
});

// ---------------------------------------------------------------------------
// The real traces: the scanner gives the values of a plain split/Number parse.

describe('SWF reader: the five real traces', function () {
  this.timeout(120000);

  for (const info of traceManifest()) {
    it(`${info.name}: every job equal to a split/Number reference parse`, () => {
      const file = findTrace(info.name);
      expect(file, `trace ${info.name}`).to.be.a('string');
      const got = loadTraceSync(info.name).jobs;
      const want = referenceJobs(zlib.gunzipSync(fs.readFileSync(file as string)).toString('utf8'));
      expect(got.length).to.equal(want.length);
      for (let i = 0; i < want.length; i++) {
        const a = got[i] as unknown as Record<string, number>;
        const b = want[i] as unknown as Record<string, number>;
        const keys = Object.keys(b);
        if (Object.keys(a).join() !== keys.join() || keys.some((k) => !Object.is(a[k], b[k]))) {
          expect(a, `${info.name} job ${i}`).to.deep.equal(b);
        }
      }
    });
  }
});
