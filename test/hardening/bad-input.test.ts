/**
 * Bad input at every public entry point: SWF files (a seeded fuzz of random,
 * truncated and mutated bytes, plain and gzip), Lublin generator parameters,
 * trace names, sweep definitions and the flags of `schedlab simulate` and
 * `schedlab sweep`. Each must either work or throw an InputError that names
 * the source (and line/field where there is one); never hang, never return
 * malformed jobs.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { InputError, SchedlabError, UsageError } from '../../src/util/errors';
import { createRng, Rng } from '../../src/util/random';
import { parseSwf, readSwf, readSwfSync, SwfError, SwfReadResult, writeSwf, headerMachineSize } from '../../src/workloads/swf';
import { WorkloadJob } from '../../src/workloads/job';
import { generateLublin, LublinParams, LUBLIN_BATCH } from '../../src/workloads/lublin';
import { findTrace, loadTraceSync, traceInfo } from '../../src/workloads/traces';
import { defineSweep, loadSweepFile, parseShard, runSweep, SweepSpec } from '../../src/sweep';
import { simulateMain } from '../../src/cli/simulate';
import { sweepMain } from '../../src/cli/sweep';
import { record } from './tally';

const CELLS = path.resolve(__dirname, '..', 'sweep', 'fixtures', 'cells.ts');
let tmp: string;
before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-hardening-'));
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Run `fn`; return the error it throws (or null), failing on anything that is not an InputError. */
function inputErrorOf(fn: () => unknown, what: string): InputError | null {
  try {
    fn();
    return null;
  } catch (e) {
    if (!(e instanceof InputError)) throw new Error(`${what}: expected an InputError, got ${(e as Error)?.stack ?? String(e)}`);
    expect(e.message.length, what).to.be.greaterThan(0);
    return e;
  }
}

function mustThrowInput(fn: () => unknown, what: string, mentions: RegExp): InputError {
  const e = inputErrorOf(fn, what);
  if (!e) throw new Error(`${what}: accepted, expected an InputError`);
  expect(e.message, what).to.match(mentions);
  return e;
}

// ---------------------------------------------------------------------------
// SWF fuzz

const FUZZ_FILE = 'fuzz.swf';

/** The properties every parsed job must have; returns a description of the first violation. */
function garbageIn(res: SwfReadResult): string | null {
  const machine = headerMachineSize(res.header);
  const dropped = Object.values(res.report.dropped).reduce((a, b) => a + b, 0);
  if (res.report.kept !== res.jobs.length) return `kept ${res.report.kept} but ${res.jobs.length} jobs`;
  if (res.report.read !== res.report.kept + dropped) return `read ${res.report.read} lines, kept ${res.report.kept} + dropped ${dropped}`;
  for (const j of res.jobs) {
    for (const [k, v] of Object.entries(j)) if (typeof v !== 'number' || !Number.isFinite(v)) return `job ${j.id}: ${k} = ${v}`;
    if (!(j.runtime >= 0)) return `job ${j.id}: run time ${j.runtime}`;
    if (!(j.submit >= 0)) return `job ${j.id}: submit ${j.submit}`;
    if (!(Number.isInteger(j.procs) && j.procs >= 1)) return `job ${j.id}: processors ${j.procs}`;
    if (machine !== undefined && j.procs > machine) return `job ${j.id}: ${j.procs} processors on a machine of ${machine}`;
  }
  return null;
}

/** Parse strictly and leniently; classify; fail on garbage or on any other error. */
function fuzzOne(text: string, tally: { parsed: number; rejected: number }, label: string): void {
  for (const lenient of [false, true]) {
    let res: SwfReadResult;
    try {
      res = parseSwf(text, { fileName: FUZZ_FILE, lenient });
    } catch (e) {
      if (!(e instanceof SwfError)) throw new Error(`${label}: ${lenient ? 'lenient' : 'strict'} parse threw ${(e as Error)?.stack ?? e}\ninput: ${JSON.stringify(text.slice(0, 300))}`);
      // Lenient mode skips bad job lines; a bad machine size in the header is an error in both modes.
      expect(lenient && !e.field.startsWith('header '), `${label}: lenient mode must not throw on job lines`).to.equal(false);
      expect(e.message).to.match(new RegExp(`^${FUZZ_FILE}:\\d+: (line|field \\d+ \\([A-Za-z ]+\\)|header Max(Procs|Nodes)): `));
      // Lines end at LF, CRLF or a lone CR (the reader's rule).
      expect(e.line).to.be.within(1, text.split(/\r\n|\r|\n/).length);
      tally.rejected++;
      continue;
    }
    const bad = garbageIn(res);
    if (bad) throw new Error(`${label}: returned garbage (${bad})\ninput: ${JSON.stringify(text.slice(0, 300))}`);
    if (!lenient) tally.parsed++;
  }
}

let kthLines: { header: string[]; jobs: string[] } | null | undefined;

/** A valid SWF text: 60 consecutive real trace lines when the KTH trace is present, else generated ones. */
function corpus(rng: Rng): string {
  if (kthLines === undefined) {
    const kth = findTrace('KTH-SP2');
    if (kth) {
      const lines = zlib.gunzipSync(fs.readFileSync(kth)).toString('utf8').split('\n');
      kthLines = { header: lines.filter((l) => l.startsWith(';')), jobs: lines.filter((l) => l.trim() !== '' && !l.startsWith(';')) };
    } else kthLines = null;
  }
  if (kthLines) {
    const { header, jobs } = kthLines;
    const start = rng.int(0, jobs.length - 60);
    return [...header, ...jobs.slice(start, start + 60)].join('\n') + '\n';
  }
  const jobs: WorkloadJob[] = Array.from({ length: 60 }, (_, i) => ({
    id: i + 1,
    submit: i * 10,
    runtime: rng.int(0, 5000),
    procs: rng.int(1, 100),
    requestedTime: rng.int(1, 9000),
    status: 1,
  }));
  return writeSwf(jobs, { fields: { MaxProcs: '100', MaxNodes: '100' } });
}

const NASTY = [
  'NaN', 'Infinity', '-Infinity', '0x10', '0b11', '0o7', '1e400', '-1e400', '1e-400', '-5', '-0', '2.5', '-2.5', '+7', '.5', '5.',
  '1_000', '١٢', '1,5', '--1', '1e', 'e1', '٫', '9'.repeat(400), '\u0000', '\uFEFF1', '1\u00a0', 'null', 'true', '[]', '{}', '-1', '0',
];

function mutateLine(rng: Rng, line: string): string {
  const tokens = line.trim().split(/\s+/);
  switch (rng.int(0, 5)) {
    case 0:
      tokens[rng.int(0, tokens.length - 1)] = rng.pick(NASTY);
      break;
    case 1:
      tokens.splice(rng.int(0, tokens.length - 1), 1);
      break;
    case 2:
      tokens.splice(rng.int(0, tokens.length), 0, rng.pick(NASTY));
      break;
    case 3:
      // processors: the field the schedulers trust most
      tokens[4] = rng.pick(['0', '-1', '-3', '1.5', '100000', '101', 'NaN', '1e3']);
      break;
    case 4:
      tokens[3] = rng.pick(['-1', '-2', '0', '1e308', '0.25', 'Infinity']);
      break;
    default:
      return line + rng.pick(['\r', '\t', ' ;comment', ' 1', '\u0000']);
  }
  return tokens.join(rng.bernoulli(0.2) ? '\t' : ' ');
}

function randomBytes(rng: Rng, n: number): Buffer {
  const alphabet = Buffer.from('0123456789 -.;\n\t\r eE+x:abcMaxProcs');
  const b = Buffer.alloc(n);
  const raw = rng.bernoulli(0.3);
  for (let i = 0; i < n; i++) b[i] = raw ? rng.int(0, 255) : alphabet[rng.int(0, alphabet.length - 1)];
  return b;
}

describe('hardening: SWF reader fuzz (seeded)', function () {
  this.timeout(5 * 60 * 1000); // a guard against hangs: the suite runs beside notebook executions

  it('random bytes: either well-formed jobs or an SwfError naming file:line:field', () => {
    const rng = createRng('swf-fuzz-random');
    const t = { parsed: 0, rejected: 0 };
    const CASES = 1500;
    for (let c = 0; c < CASES; c++) fuzzOne(randomBytes(rng, rng.int(0, 400)).toString('utf8'), t, `random case ${c}`);
    expect(t.parsed + t.rejected).to.equal(CASES);
    record({ area: 'SWF', kind: 'random bytes (0–400 bytes, text-like or raw)', cases: CASES, outcome: `${t.parsed} parsed to well-formed jobs, ${t.rejected} SwfError (file:line:field); 0 garbage, 0 other errors` });
  });

  it('valid trace text cut at a random byte: parses to a prefix of the jobs or is rejected at the cut', () => {
    const rng = createRng('swf-fuzz-truncate');
    const t = { parsed: 0, rejected: 0 };
    const CASES = 800;
    for (let c = 0; c < CASES; c++) {
      const text = corpus(rng);
      const full = parseSwf(text, { fileName: FUZZ_FILE });
      const cut = text.slice(0, rng.int(0, text.length));
      fuzzOne(cut, t, `truncate case ${c}`);
      // Whatever parses is the start of the real workload (only the last, cut line may differ).
      try {
        const part = parseSwf(cut, { fileName: FUZZ_FILE });
        const n = part.jobs.length;
        expect(part.jobs.slice(0, Math.max(0, n - 1))).to.deep.equal(full.jobs.slice(0, Math.max(0, n - 1)));
      } catch (e) {
        expect(e).to.be.instanceOf(SwfError);
      }
    }
    record({ area: 'SWF', kind: 'valid trace text truncated at a random byte', cases: CASES, outcome: `${t.parsed} parsed (a prefix of the jobs), ${t.rejected} SwfError at the cut line; 0 garbage` });
  });

  it('one line mutated (bad numbers, hex, NaN, missing/extra fields, fractional or oversized processors)', () => {
    const rng = createRng('swf-fuzz-mutate');
    const t = { parsed: 0, rejected: 0 };
    const CASES = 1500;
    for (let c = 0; c < CASES; c++) {
      const lines = corpus(rng).split('\n');
      const jobLines = lines.map((l, i) => [l, i] as const).filter(([l]) => l.trim() !== '' && !l.startsWith(';'));
      const k = rng.int(1, 3);
      for (let m = 0; m < k; m++) {
        const [, i] = rng.pick(jobLines);
        lines[i] = mutateLine(rng, lines[i]);
      }
      fuzzOne(lines.join('\n'), t, `mutate case ${c}`);
    }
    record({ area: 'SWF', kind: '1–3 job lines mutated (NaN, hex, 1e400, fractional/oversized processors, negative run time, missing/extra fields)', cases: CASES, outcome: `${t.parsed} parsed (mutation still valid, or dropped and counted), ${t.rejected} SwfError naming the line and field; 0 garbage` });
  });

  it('damaged or truncated gzip files: an InputError naming the file (sync and streaming readers)', async () => {
    const rng = createRng('swf-fuzz-gzip');
    const CASES = 120;
    let parsed = 0;
    let rejected = 0;
    for (let c = 0; c < CASES; c++) {
      const gz = zlib.gzipSync(corpus(rng));
      const bytes = Buffer.from(gz);
      if (c % 2 === 0) {
        // cut short (keep the magic bytes so the gzip path is taken)
        const cutAt = rng.int(2, bytes.length - 1);
        bytes.fill(0, cutAt);
      } else {
        for (let k = 0; k < 3; k++) bytes[rng.int(10, bytes.length - 1)] ^= 1 << rng.int(0, 7);
      }
      const file = path.join(tmp, `fuzz-${c}.swf.gz`);
      fs.writeFileSync(file, c % 2 === 0 ? bytes.subarray(0, rng.int(2, bytes.length)) : bytes);
      for (const mode of ['sync', 'stream'] as const) {
        try {
          const res = mode === 'sync' ? readSwfSync(file) : await readSwf(file);
          expect(garbageIn(res), `gzip case ${c} ${mode}`).to.equal(null);
          parsed++;
        } catch (e) {
          if (!(e instanceof InputError)) throw new Error(`gzip case ${c} (${mode}): ${(e as Error)?.stack ?? e}`);
          expect(e.source).to.equal(file);
          expect(e.message).to.contain(file);
          rejected++;
        }
      }
      fs.unlinkSync(file);
    }
    record({ area: 'SWF', kind: 'gzip file truncated or with flipped bits (sync and streaming readers)', cases: 2 * CASES, outcome: `${rejected} InputError naming the file, ${parsed} parsed (damage that still decodes); no partial workload, 0 hangs` });
  });

  it('files that are not SWF files: missing, a folder, a device, empty', async () => {
    const cases: [string, RegExp][] = [
      [path.join(tmp, 'nope.swf'), /file not found/],
      [tmp, /not a regular file/],
      ['/dev/zero', /not a regular file/],
    ];
    for (const [file, msg] of cases) {
      mustThrowInput(() => readSwfSync(file), file, msg);
      let err: unknown = null;
      await readSwf(file).catch((e) => (err = e));
      expect(err, file).to.be.instanceOf(InputError);
      expect((err as Error).message).to.match(msg);
    }
    const empty = path.join(tmp, 'empty.swf');
    fs.writeFileSync(empty, '');
    expect(readSwfSync(empty).jobs).to.deep.equal([]);
    mustThrowInput(() => parseSwf('', { machineSize: 0 }), 'machineSize 0', /machineSize must be a positive integer/);
    // MaxProcs 0 means unknown, not a machine without processors.
    expect(parseSwf('; MaxProcs: 0\n1 0 -1 5 4 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n').jobs).to.have.length(1);
    record({ area: 'SWF', kind: 'path is missing, a folder, /dev/zero; empty file; machineSize 0', cases: 8, outcome: 'InputError naming the path (no endless read of /dev/zero); empty file → 0 jobs' });
  });
});

// ---------------------------------------------------------------------------
// Generator parameters

describe('hardening: generator parameters', function () {
  this.timeout(5 * 60 * 1000); // a guard against hangs: the suite runs beside notebook executions

  it('bad Lublin options are InputErrors naming the parameter', () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ jobs: -1, seed: 1 }, 'jobs'],
      [{ jobs: 2.5, seed: 1 }, 'jobs'],
      [{ jobs: NaN, seed: 1 }, 'jobs'],
      [{ jobs: 1e12, seed: 1 }, 'jobs'],
      [{ jobs: 5, seed: NaN }, 'seed'],
      [{ jobs: 5, seed: {} }, 'seed'],
      [{ jobs: 5, seed: 1, machineSize: 0 }, 'machineSize'],
      [{ jobs: 5, seed: 1, machineSize: 12.5 }, 'machineSize'],
      [{ jobs: 5, seed: 1, machineSize: 16 }, 'uHi'],
      [{ jobs: 5, seed: 1, params: { bogus: 1 } }, 'bogus'],
      [{ jobs: 5, seed: 1, params: { serialProb: 1.5 } }, 'serialProb'],
      [{ jobs: 5, seed: 1, params: { a1: -1 } }, 'a1'],
      [{ jobs: 5, seed: 1, params: { b2: NaN } }, 'b2'],
      [{ jobs: 5, seed: 1, params: { uMed: 0.5 } }, 'uMed'],
      [{ jobs: 5, seed: 1, params: { dailyCycle: 'yes' } }, 'dailyCycle'],
      [{ jobs: 5, seed: 1, params: { maxLogRuntime: 1e-9 } }, 'maxLogRuntime'],
      [{ jobs: 5, seed: 1, params: { maxLogInterArrival: 1e-9 } }, 'maxLogInterArrival'],
      [{ jobs: 5, seed: 1, params: { maxLogInterArrival: 1000 } }, 'maxLogInterArrival'],
      [{ jobs: 5, seed: 1, params: null }, 'params'],
      [{ jobs: 5, seed: 1, batchParams: [] }, 'batchParams'],
      [{ jobs: 5, seed: 1, startHour: 24 }, 'startHour'],
    ];
    for (const [opts, field] of bad) {
      const e = mustThrowInput(() => generateLublin(opts as never), JSON.stringify(opts), new RegExp(field));
      expect(e.field, JSON.stringify(opts)).to.equal(field);
    }
    record({ area: 'generators', kind: 'bad Lublin options (jobs, seed, machineSize, unknown/out-of-range/NaN parameters, caps that reject every draw)', cases: bad.length, outcome: 'InputError with field = the parameter; no hang' });
  });

  it('fuzz: any single parameter override either generates well-formed jobs or is an InputError; never hangs', () => {
    const keys = Object.keys(LUBLIN_BATCH) as (keyof LublinParams)[];
    const value = fc.oneof(
      fc.double({ noNaN: false }),
      fc.double({ min: -5, max: 20, noNaN: true }),
      fc.integer({ min: -3, max: 12 }),
      fc.constantFrom(0, 1e-12, 1e300, -0, Infinity, true, 'x', null),
    );
    let ok = 0;
    let rejected = 0;
    fc.assert(
      fc.property(fc.constantFrom(...keys), value, fc.boolean(), fc.integer({ min: 1, max: 512 }), (key, v, types, machineSize) => {
        let jobs: WorkloadJob[];
        try {
          jobs = generateLublin({ jobs: 40, seed: 3, machineSize, includeJobTypes: types, params: { [key]: v } as never });
        } catch (e) {
          if (!(e instanceof InputError)) throw e;
          rejected++;
          return;
        }
        ok++;
        let last = -Infinity;
        for (const j of jobs) {
          expect(Number.isFinite(j.submit) && Number.isFinite(j.runtime), JSON.stringify(j)).to.equal(true);
          expect(j.runtime).to.be.at.least(0);
          expect(j.procs).to.be.within(1, machineSize);
          expect(Number.isInteger(j.procs)).to.equal(true);
          expect(j.submit).to.be.at.least(last);
          last = j.submit;
        }
      }),
      { numRuns: 400, seed: 201 },
    );
    record({ area: 'generators', kind: 'Lublin: one random parameter set to a random value (NaN, ±Infinity, huge, tiny, wrong type)', cases: ok + rejected, outcome: `${ok} generated well-formed jobs, ${rejected} InputError; no hang` });
  });
});

// ---------------------------------------------------------------------------
// Trace names

describe('hardening: trace names and trace files', () => {
  it('unknown or empty names are InputErrors listing the known traces; a damaged or wrong file is refused', () => {
    const names: unknown[] = ['', '   ', 'NOPE', '../../etc/passwd', 'KTH-SP2.swf.gz.gz', 42, undefined];
    for (const n of names) mustThrowInput(() => traceInfo(n as string), String(n), /trace name/);
    const info = traceInfo('KTH-SP2');
    const dir = path.join(tmp, 'traces');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, info.file);
    fs.writeFileSync(file, zlib.gzipSync('; MaxProcs: 100\n1 0 -1 5 4 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n'));
    expect(mustThrowInput(() => loadTraceSync('KTH-SP2', { dir }), 'wrong file', /checksum mismatch/).field).to.equal('sha256');
    fs.writeFileSync(file, zlib.gzipSync('x'.repeat(1000)).subarray(0, 20));
    mustThrowInput(() => loadTraceSync('KTH-SP2', { dir }), 'damaged gzip', /damaged or truncated gzip/);
    fs.rmSync(file);
    mustThrowInput(() => loadTraceSync('KTH-SP2', { dir }), 'missing', /not found in/);
    record({ area: 'trace names', kind: 'empty, unknown, path-like, non-string names; wrong, damaged or missing trace file', cases: names.length + 3, outcome: 'InputError (known names listed; checksum / gzip / missing file named)' });
  });
});

// ---------------------------------------------------------------------------
// Sweep definitions

function goodSpec(): SweepSpec {
  return { name: 'toy', version: 1, cell: { module: CELLS, export: 'runCell' }, grid: { x: [0, 1], algorithm: ['a'] }, replications: 1 };
}

describe('hardening: sweep definitions', function () {
  this.timeout(5 * 60 * 1000); // a guard against hangs: the suite runs beside notebook executions

  it('bad definitions are InputErrors naming the field', () => {
    const bad: [unknown, RegExp][] = [
      [null, /must be an object/],
      [[], /must be an object/],
      [{ ...goodSpec(), name: '' }, /"name"/],
      [{ ...goodSpec(), name: 7 }, /"name"/],
      [{ ...goodSpec(), version: {} }, /"version"/],
      [{ ...goodSpec(), cell: undefined }, /cell\.module/],
      [{ ...goodSpec(), cell: 'x.js' }, /cell\.module/],
      [{ ...goodSpec(), cell: { module: '' } }, /cell\.module/],
      [{ ...goodSpec(), cell: { module: CELLS, export: 3 } }, /cell\.export/],
      [{ ...goodSpec(), grid: [] }, /"grid" is an empty list/],
      [{ ...goodSpec(), grid: { x: [] } }, /grid\.x/],
      [{ ...goodSpec(), grid: { x: 5 } }, /grid\.x/],
      [{ ...goodSpec(), grid: 'x' }, /"grid"/],
      [{ ...goodSpec(), grid: { x: [1, NaN] } }, /grid\.x\[1\]/],
      [{ ...goodSpec(), grid: { x: [() => 1] } }, /grid\.x\[0\]/],
      [{ ...goodSpec(), grid: { replication: [1] } }, /reserved/],
      [{ ...goodSpec(), replications: 0 }, /replications/],
      [{ ...goodSpec(), replications: 1.5 }, /replications/],
      [{ ...goodSpec(), replications: '2' }, /replications/],
      [{ ...goodSpec(), fixed: [] }, /"fixed"/],
      [{ ...goodSpec(), fixed: { replication: 1 } }, /reserved/],
      [{ ...goodSpec(), fixed: { x: 1 } }, /both in/],
      [{ ...goodSpec(), fixed: { f: Infinity } }, /fixed\.f/],
    ];
    for (const [spec, msg] of bad) {
      const e = mustThrowInput(() => defineSweep(spec as SweepSpec), JSON.stringify(spec) ?? String(spec), msg);
      expect(e.source).to.match(/^sweep/);
    }
    for (const s of ['', '3', '3/2', '-1/2', 'a/b', '1/0', '0/1/2']) mustThrowInput(() => parseShard(s), `shard ${s}`, /shard/);
    record({ area: 'sweeps', kind: 'bad sweep definitions (types, empty/NaN/function grid values, reserved names, clashes) and shards', cases: bad.length + 7, outcome: 'InputError naming the field (e.g. grid.x[1])' });
  });

  it('bad files: invalid JSON (with its line), a folder, missing; bad cell module or export; bad run options', async () => {
    const json = path.join(tmp, 'bad.json');
    fs.writeFileSync(json, '{\n  "name": "toy",\n  "cell": {"module": "x.js"},\n  "grid": {"x": [1, 2,]}\n}\n');
    const e = mustThrowInput(() => loadSweepFile(json), 'trailing comma', /not valid JSON/);
    expect(e.line).to.equal(4);
    expect(e.message).to.contain(`${json}:4:`);
    mustThrowInput(() => loadSweepFile(tmp), 'folder', /not a regular file/);
    mustThrowInput(() => loadSweepFile(path.join(tmp, 'none.json')), 'missing', /not found/);
    const wrongField = path.join(tmp, 'wrong.json');
    fs.writeFileSync(wrongField, JSON.stringify({ ...goodSpec(), replications: -1 }));
    expect(mustThrowInput(() => loadSweepFile(wrongField), 'replications', /replications/).source).to.equal(wrongField);
    const quiet = { progress: 'none' as const, handleSigint: false, log: () => {}, workers: 0 };
    const runBad = async (spec: SweepSpec, opts: Record<string, unknown>, msg: RegExp) => {
      let err: unknown = null;
      await runSweep(defineSweep(spec), { ...quiet, out: path.join(tmp, 'x.jsonl'), ...opts }).catch((x) => (err = x));
      expect(err, String(msg)).to.be.instanceOf(InputError);
      expect((err as Error).message).to.match(msg);
      return err as InputError;
    };
    expect((await runBad({ ...goodSpec(), cell: { module: path.join(tmp, 'nowhere.js') } }, {}, /cell module not found/)).field).to.equal('cell.module');
    expect((await runBad({ ...goodSpec(), cell: { module: CELLS, export: 'nope' } }, {}, /no exported function "nope"/)).field).to.equal('cell.export');
    await runBad(goodSpec(), { retries: -1 }, /retries/);
    await runBad(goodSpec(), { workers: 1.5 }, /workers/);
    await runBad(goodSpec(), { cellTimeoutMs: NaN }, /cellTimeoutMs/);
    await runBad(goodSpec(), { cellTimeoutMs: 0 }, /cellTimeoutMs/);
    await runBad(goodSpec(), { out: '' }, /out must be a file path/);
    await runBad(goodSpec(), { shard: '5/2' }, /shard index/);
    expect(fs.existsSync(path.join(tmp, 'x.jsonl')), 'nothing written for a refused run').to.equal(false);
    record({ area: 'sweeps', kind: 'bad sweep files (invalid JSON, folder, missing, bad field), missing cell module/export, bad run options', cases: 13, outcome: 'InputError naming file:line or field; nothing written' });
  });

  it('fuzz: a valid JSON definition with one field damaged loads or is an InputError', () => {
    const rng = createRng('sweep-json-fuzz');
    const damage = [undefined, null, 0, -1, 1.5, '', 'x', [], {}, [[]], true, 1e400];
    const paths = [['name'], ['version'], ['cell'], ['cell', 'module'], ['cell', 'export'], ['grid'], ['grid', 'x'], ['grid', 'x', 0], ['replications'], ['fixed'], ['fixed', 'k'], ['description']];
    const CASES = 300;
    let loaded = 0;
    let rejected = 0;
    const file = path.join(tmp, 'fuzz.json');
    for (let c = 0; c < CASES; c++) {
      const spec: any = { ...goodSpec(), fixed: { k: 1 }, description: 'd', cell: { ...goodSpec().cell }, grid: { x: [0, 1], algorithm: ['a'] } };
      const p = rng.pick(paths);
      let o = spec;
      for (const k of p.slice(0, -1)) o = o[k as string] ?? (o[k as string] = {});
      if (o !== null && typeof o === 'object') o[p[p.length - 1] as string] = rng.pick(damage);
      const text = rng.bernoulli(0.2) ? JSON.stringify(spec).slice(0, rng.int(0, 60)) : JSON.stringify(spec);
      fs.writeFileSync(file, text);
      const err = inputErrorOf(() => loadSweepFile(file), `sweep fuzz ${c}: ${text}`);
      if (err) {
        expect(err.message).to.contain(file);
        rejected++;
      } else loaded++;
    }
    record({ area: 'sweeps', kind: 'JSON definition with one field set to a wrong type/value, or cut short', cases: CASES, outcome: `${loaded} loaded (damage still valid), ${rejected} InputError naming the file; 0 other errors` });
  });
});

// ---------------------------------------------------------------------------
// CLI flags

async function capture<T>(fn: (out: (s: string) => void) => Promise<T>): Promise<{ code: T; text: string; err: string }> {
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

describe('hardening: CLI flags', function () {
  this.timeout(5 * 60 * 1000); // a guard against hangs: the suite runs beside notebook executions

  it('schedlab simulate: every bad flag exits 2 with a message naming it', async () => {
    const swf = path.join(tmp, 'small.swf');
    fs.writeFileSync(swf, '; MaxProcs: 4\n1 0 -1 5 4 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n2 1 -1 5 2 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n');
    const noHeader = path.join(tmp, 'noheader.swf');
    fs.writeFileSync(noHeader, '1 0 -1 5 4 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n');
    const badLine = path.join(tmp, 'badline.swf');
    fs.writeFileSync(badLine, '; MaxProcs: 4\n1 0 -1 5 0x4 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n');
    const cases: [string[], RegExp][] = [
      [['--lublin', '10', '--bogus'], /--bogus/],
      [['--lublin', '0'], /--lublin must be a positive integer/],
      [['--lublin', '1e12'], /jobs must be an integer/],
      [['--lublin', '10', '--machine-size', '-4'], /--machine-size/],
      [['--lublin', '10', '--machine-size', '4.5'], /--machine-size/],
      [['--lublin', '10', '--load', 'NaN'], /--load/],
      [['--lublin', '10', '--load', '0'], /--load/],
      [['--lublin', '10', '--threshold', '-1'], /--threshold/],
      [['--lublin', '10', '--estimates', 'guess'], /--estimates/],
      [['--lublin', '10', '--policy', 'EASY '], /--policy/],
      [['--lublin', '10', '--lenient=yes'], /--lenient takes no value/],
      [['--lublin', '10', '--out='], /--out needs a non-empty value/],
      [['--lublin', '10', '--lublin', '5'], /given twice/],
      [['--lublin', '10', 'stray'], /unexpected argument 'stray'/],
      [['--trace', swf, '--seed', '3'], /--seed only applies to --lublin/],
      [['--trace', 'NO-SUCH-TRACE'], /unknown trace 'NO-SUCH-TRACE'/],
      [['--trace', path.join(tmp, 'nope.swf')], /trace file not found/],
      [['--trace', noHeader], /no MaxProcs\/MaxNodes header: give --machine-size/],
      [['--trace', badLine], /badline\.swf:2: field 5 \(allocated processors\): '0x4' is not a number/],
      [['--trace', swf, '--machine-size', '2'], /4 processors on a machine of 2/],
      [['--trace', swf, '--load', '0.5', '--machine-size', '4'], /./],
      [[], /exactly one of --trace or --lublin/],
    ];
    let n = 0;
    for (const [args, msg] of cases) {
      const r = await capture((out) => simulateMain(args, out));
      if (r.code === 0) continue; // a combination that is valid after all (e.g. --load on two jobs)
      n++;
      expect(r.code, args.join(' ')).to.equal(2);
      expect(r.err, args.join(' ')).to.match(msg);
      expect(r.err, 'prefix once').to.not.match(/schedlab simulate: schedlab simulate/);
    }
    expect(n).to.be.at.least(cases.length - 1);
    record({ area: 'CLI', kind: '`schedlab simulate` bad flags, values, files and combinations', cases: n, outcome: 'exit code 2, message naming the flag / file:line:field' });
  });

  it('schedlab sweep: every bad flag exits 1 with a message naming it, before any cell runs', async () => {
    const def = path.join(tmp, 'ok.json');
    fs.writeFileSync(def, JSON.stringify(goodSpec()));
    const out = path.join(tmp, 'cli.jsonl');
    const cases: [string[], RegExp][] = [
      [['run', def, '--out', out, '--timeout', 'abc'], /--timeout must be a number of seconds/],
      [['run', def, '--out', out, '--timeout', '0'], /--timeout/],
      [['run', def, '--out', out, '--timeout', '1e12'], /--timeout/],
      [['run', def, '--out', out, '--workers', '-1'], /--workers must be an integer/],
      [['run', def, '--out', out, '--workers', ''], /--workers/],
      [['run', def, '--out', out, '--retries', '1.5'], /--retries/],
      [['run', def, '--out', out, '--shard', '3/2'], /shard index/],
      [['run', def, '--out', out, '--progress', 'tslab'], /--progress must be auto, bar, lines or none/],
      [['run', def, '--out', out, '--frobnicate', '1'], /unknown option --frobnicate/],
      [['run', def, '--out', out, '--out', out], /given more than once/],
      [['run'], /run needs exactly one <sweep> file/],
      [['run', path.join(tmp, 'missing.json')], /sweep definition not found/],
      [['status', path.join(tmp, 'missing.jsonl')], /results file not found/],
      [['merge', out], /merge needs/],
      [['slurm', def], /--shards N/],
      [['slurm', def, '--shards', '0'], /--shards/],
      [['explode'], /unknown sweep command "explode"/],
    ];
    for (const [args, msg] of cases) {
      const r = await capture((o) => sweepMain(args, o));
      expect(r.code, args.join(' ')).to.equal(1);
      expect(r.err, args.join(' ')).to.match(msg);
      expect(r.err, 'prefix once').to.not.match(/schedlab sweep: schedlab sweep/);
    }
    expect(fs.existsSync(out), 'no results written by refused runs').to.equal(false);
    record({ area: 'CLI', kind: '`schedlab sweep` bad flags, values and arguments (incl. --timeout abc, which used to time every cell out at once)', cases: cases.length, outcome: 'exit code 1, message naming the flag; nothing written' });
  });

  it('UsageError and the other input errors form one hierarchy', () => {
    const e = new UsageError('--policy must be …', { source: 'schedlab simulate', field: '--policy' });
    expect(e).to.be.instanceOf(InputError).and.instanceOf(SchedlabError);
    expect(new SwfError('f.swf', 3, 'field 4 (run time)', 'negative run time', 'x')).to.be.instanceOf(InputError).and.include({ source: 'f.swf', line: 3 });
  });
});

describe('hardening: schedlab simulate on degenerate workloads', function () {
  this.timeout(5 * 60 * 1000); // a guard against hangs: the suite runs beside notebook executions
  const J = (id: number, submit: number, run: number, procs: number) => `${id} ${submit} -1 ${run} ${procs} -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1`;

  it('all jobs submitted at one time: the summary with offered load n/a, and the CSV', async () => {
    const swf = path.join(tmp, 'one-instant.swf');
    fs.writeFileSync(swf, `; MaxProcs: 4\n${J(1, 50, 10, 2)}\n${J(2, 50, 20, 4)}\n${J(3, 50, 5, 1)}\n`);
    const csv = path.join(tmp, 'one-instant.csv');
    const r = await capture((out) => simulateMain(['--trace', swf, '--out', csv], out));
    expect(r.code, r.err).to.equal(0);
    expect(r.text).to.match(/offered load n\/a/);
    expect(r.text).to.match(/jobs {10}3/);
    expect(fs.readFileSync(csv, 'utf8').trim().split('\n')).to.have.length(4);
    // Rescaling arrivals that all coincide is impossible: an input error, exit 2.
    const scaled = await capture((out) => simulateMain(['--trace', swf, '--load', '0.5'], out));
    expect(scaled.code).to.equal(2);
    expect(scaled.err).to.match(/span 0/);
    record({ area: 'CLI', kind: '`schedlab simulate` on jobs all submitted at one time (with and without --load)', cases: 2, outcome: 'summary with offered load n/a and the CSV (exit 0); --load: exit 2, span 0 named' });
  });

  it('no jobs left (empty, header only, every line dropped): exit 2 with one clear line, no stack trace', async () => {
    const files: [string, string][] = [
      ['empty.swf', ''],
      ['header-only.swf', '; Version: 2.2\n; MaxProcs: 4\n'],
      ['all-dropped.swf', `; MaxProcs: 4\n${J(1, 0, -1, 2)}\n${J(2, 5, 10, 0)}\n`],
    ];
    for (const [name, text] of files) {
      const swf = path.join(tmp, name);
      fs.writeFileSync(swf, text);
      const r = await capture((out) => simulateMain(['--trace', swf, '--machine-size', '4'], out));
      expect(r.code, name).to.equal(2);
      expect(r.err, name).to.match(new RegExp(`^schedlab simulate: ${swf.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: no jobs to simulate in `));
      expect(r.err, name).to.not.match(/\n\s+at /);
    }
    record({ area: 'CLI', kind: '`schedlab simulate` with no jobs left (empty file, header only, every line dropped)', cases: files.length, outcome: 'exit 2, one line naming the file and the drop counts; no stack trace' });
  });

  it('MaxProcs redefined mid-file: exit 2 naming the file and both lines', async () => {
    const swf = path.join(tmp, 'redefined.swf');
    fs.writeFileSync(swf, `; MaxProcs: 8\n${J(1, 0, 10, 8)}\n; MaxProcs: 2\n${J(2, 5, 10, 2)}\n`);
    const r = await capture((out) => simulateMain(['--trace', swf], out));
    expect(r.code).to.equal(2);
    expect(r.err).to.contain(`${swf}:3: header MaxProcs: MaxProcs redefined as 2; line 1 gave 8`);
    record({ area: 'CLI', kind: '`schedlab simulate` on a trace whose MaxProcs is redefined mid-file', cases: 1, outcome: 'exit 2 naming file, both lines and the values' });
  });
});
