/**
 * Reading committed results without regenerating every cell or going through
 * a temporary file gives exactly what a plain reading gives: the same records
 * (same key order), the same damaged line named, the same cell keys.
 */
import { expect } from 'chai';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { defineSweep, sweepCellKeys, sweepCells, SweepDefinition } from '../../src/sweep';
import { loadCommittedResults, PAPER_EXPERIMENTS, PaperExperiment, publishPaperResults, readCommittedPair, runPaperSweep } from '../../src/sweep/papers';
import { orderKeys } from '../../src/sweep/papers/common';
import { isNullField, readResultsFile, ResultRecord, ResultsReader } from '../../src/sweep/store';
import { InputError } from '../../src/util/errors';

const FIXTURE = path.join(__dirname, 'fixtures', 'cells.ts');
const quiet = { progress: 'none' as const, log: () => {} };

/** The plain reading: inflate it all, split at newlines, JSON.parse each line; the first bad line's number. */
function reference(gz: string): { records: ResultRecord[]; firstBad: number | null } {
  const lines = zlib.gunzipSync(fs.readFileSync(gz)).toString('utf8').split('\n');
  const tail = lines.pop();
  const records: ResultRecord[] = [];
  let firstBad: number | null = null;
  lines.forEach((l, i) => {
    try {
      records.push(JSON.parse(l));
    } catch {
      firstBad ??= i + 1;
    }
  });
  if (tail !== '' && firstBad === null) firstBad = lines.length + 1;
  return { records, firstBad };
}

/** Records as text, key order included (deep equality ignores it). */
const text = (records: readonly ResultRecord[]) => records.map((r) => JSON.stringify(r));

describe('reading committed results: same records as a plain reading', function () {
  this.timeout(5 * 60 * 1000); // a guard against hangs: the suite runs beside notebook executions
  let tmp: string;
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-read-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('sweepCellKeys gives the keys of sweepCells, same text and order: overlapping grids, fixed objects, unicode names, replications, every notebook sweep', () => {
    const mixed = defineSweep({
      name: 'keys',
      cell: { module: FIXTURE },
      grid: [
        { b: [2, 1.5, -0], a: ['x', 'é"\\', null], z: [[1, { q: 2, p: [true] }]] },
        { a: ['x'], b: [2], z: [[1, { p: [true], q: 2 }]] }, // every cell already in the first grid: dropped
        { zé: [{}, []], A: [1e21, 0.1] },
      ],
      fixed: { m: { y: 1, x: [null, 'a'] }, Z: 'fixed' },
      replications: 3,
    });
    const sweeps: SweepDefinition[] = [mixed, ...PAPER_EXPERIMENTS.map((e) => e.sweep('quick'))];
    for (const s of sweeps) expect(sweepCellKeys(s), s.name).to.deep.equal(sweepCells(s).map((c) => c.key));
    expect(sweepCellKeys(mixed)).to.have.length(3 * (3 * 3 * 1 + 2 * 2));
    // Same fingerprint, dimensions in another order: the same keys enumerated in that order.
    const flipped = defineSweep({ name: 'keys', cell: { module: FIXTURE }, grid: [{ a: ['x', 'y'], b: [1, 2] }] });
    const straight = defineSweep({ name: 'keys', cell: { module: FIXTURE }, grid: [{ b: [1, 2], a: ['x', 'y'] }] });
    expect(flipped.fingerprint).to.equal(straight.fingerprint);
    expect(sweepCellKeys(straight)).to.deep.equal(sweepCells(straight).map((c) => c.key));
    expect(sweepCellKeys(flipped)).to.deep.equal(sweepCells(flipped).map((c) => c.key));
  });

  it('ResultsReader gives the report of one whole reading whatever the pieces: lines split anywhere, multi-byte characters cut, blank, invalid and torn lines', () => {
    const good = (i: number) => JSON.stringify({ key: `{"i":${i}}`, crc: '00000000', sweep: 'é→', sweepVersion: null, definition: 'd', toolkit: 't', params: { i, s: '日本語'.repeat(i) }, seed: i, status: 'ok', run: {} });
    const body = Buffer.from([good(1), '', good(2), '  ', '{"key":', good(3), 'not json', good(4), good(5).slice(0, 30)].join('\n'), 'utf8');
    const whole = new ResultsReader('f', false);
    whole.push(body);
    const expected = whole.finish();
    expect(expected.records.map((r) => r.seed)).to.deep.equal([1, 2, 3, 4]);
    expect(expected.invalid).to.deep.equal([
      { line: 5, reason: 'not valid JSON' },
      { line: 7, reason: 'not valid JSON' },
    ]);
    expect(expected.tornTail).to.deep.equal({ line: 9, bytes: Buffer.byteLength(good(5).slice(0, 30)) });
    expect(expected.validLength).to.equal(body.length - Buffer.byteLength(good(5).slice(0, 30)));
    for (const size of [1, 2, 3, 7, 64, 200]) {
      const reader = new ResultsReader('f', false);
      for (let at = 0; at < body.length; at += size) reader.push(body.subarray(at, at + size));
      expect(reader.finish(), `pieces of ${size} bytes`).to.deep.equal(expected);
    }
    // readResultsFile reads a file through the same reader, in chunks of any size.
    const file = path.join(tmp, 'r.jsonl');
    fs.writeFileSync(file, body);
    const named = { ...expected, warnings: expected.warnings.map((w) => w.replace(/^f:/, `${file}:`)) };
    for (const chunkBytes of [5, 1 << 20]) expect(readResultsFile(file, { checksums: false, chunkBytes })).to.deep.equal(named);
  });

  it('deferred fields: each record equals the eagerly parsed one (deep, JSON text, key order) with the field, without it, null or empty; a field not parsed stays unparsed through orderKeys', () => {
    const calls = [{ jobs: 1, ms: 0.07589299976825714, trigger: 'submission' }, { jobs: 2, ms: 1e-7, trigger: 'a "]" [in} text\\', extra: { x: null } }];
    const record = (i: number, result: Record<string, unknown>, params: Record<string, unknown> = {}) =>
      JSON.stringify({ key: `{"i":${i}}`, crc: '00000000', definition: 'd', params: { i, ...params }, result, run: {}, seed: i, status: 'ok', sweep: 's', sweepVersion: null, toolkit: 't' });
    const lines = [
      record(1, { a: 1, mcb_call_list: calls, mcb_calls: 2, z: 'é' }), // the field, keys after it
      record(2, { a: 1, mcb_calls: 0 }), // without it
      record(3, { a: 1, mcb_call_list: null, mcb_calls: 0 }),
      record(4, { a: 1, mcb_call_list: [], mcb_calls: 0 }),
      record(5, { mcb_call_list: [[1, 2], [3]] }), // arrays inside: parsed whole
      record(6, { mcb_call_list: [1] }, { mcb_call_list: [2] }), // the name twice on the line: parsed whole
      JSON.stringify({ key: '{"i":7}', crc: '0', mcb_call_list: [1], params: { i: 7 }, result: 3, run: {}, sweep: 's', sweepVersion: null, definition: 'd', toolkit: 't', status: 'ok' }), // not in result
      record(8, { note: 'the text "mcb_call_list":[1] in a string', mcb_call_list: [{ q: ']' }] }),
    ];
    const body = Buffer.from(lines.join('\n') + '\n', 'utf8');
    const read = (deferred: string[], size = body.length) => {
      const reader = new ResultsReader('f.jsonl', false, deferred);
      for (let at = 0; at < body.length; at += size) reader.push(body.subarray(at, at + size));
      return reader.finish();
    };
    const eager = read([]);
    expect(eager.records).to.have.length(8);
    const results = (rs: readonly ResultRecord[]) => rs.map((r) => (r.result && typeof r.result === 'object' ? r.result : {}) as Record<string, unknown>);
    const deferredAt = (rs: readonly ResultRecord[]) => rs.map((r) => Boolean(r.result && typeof r.result === 'object' && Object.getOwnPropertyDescriptor(r.result, 'mcb_call_list')?.get));
    for (const size of [body.length, 7]) {
      const lazy = read(['mcb_call_list'], size);
      expect(lazy.invalid).to.deep.equal([]);
      expect(deferredAt(lazy.records), `pieces of ${size} bytes`).to.deep.equal([true, false, false, true, false, false, false, true]);
      // Key order and key lists read nothing.
      expect(results(lazy.records).map((r) => Object.keys(r))).to.deep.equal(results(eager.records).map((r) => Object.keys(r)));
      const copies = orderKeys(results(lazy.records), ['z', 'mcb_calls']);
      expect(deferredAt(copies.map((c) => ({ result: c }) as unknown as ResultRecord))).to.deep.equal([true, false, false, true, false, false, false, true]);
      expect(copies.map((c) => Object.keys(c))).to.deep.equal(orderKeys(results(eager.records), ['z', 'mcb_calls']).map((c) => Object.keys(c)));
      expect(isNullField(lazy.records[2].result as object, 'mcb_call_list')).to.equal(true);
      expect(isNullField(lazy.records[0].result as object, 'mcb_call_list')).to.equal(false);
      expect(deferredAt(lazy.records)[0], 'isNullField parses nothing').to.equal(true);
      // Read: the same values, the same text; then plain fields, the copy sharing the parsed value.
      if (size === 7) expect(lazy.records).to.deep.equal(eager.records);
      expect(text(lazy.records)).to.deep.equal(text(eager.records));
      expect(lazy.records).to.deep.equal(eager.records);
      expect(deferredAt(lazy.records).some(Boolean)).to.equal(false);
      expect(copies[0].mcb_call_list).to.equal((lazy.records[0].result as Record<string, unknown>).mcb_call_list);
      expect(copies[0].mcb_call_list).to.deep.equal(calls);
    }
    // Assigned before it is read: the assigned value, at the same place.
    const lazy = read(['mcb_call_list']).records[0].result as Record<string, unknown>;
    lazy.mcb_call_list = 'x';
    expect(Object.keys(lazy)).to.deep.equal(['a', 'mcb_call_list', 'mcb_calls', 'z']);
    expect(JSON.stringify(lazy)).to.equal('{"a":1,"mcb_call_list":"x","mcb_calls":2,"z":"é"}');
    // Deferred text that is not JSON: an InputError naming file, line and field when it is read.
    const broken = new ResultsReader('f.jsonl', false, ['mcb_call_list']);
    broken.push(Buffer.from(lines[0] + '\n' + lines[0].replace('"jobs":2', '"jobs":2,') + '\n'));
    const held = broken.finish().records[1].result as Record<string, unknown>;
    expect(() => held.mcb_call_list).to.throw(InputError, /^f\.jsonl:2: field mcb_call_list is not valid JSON/);
    expect(() => new ResultsReader('f.jsonl', true, ['mcb_call_list'])).to.throw('deferred fields need checksums off');
  });

  async function published(nb: string): Promise<{ exp: PaperExperiment; gz: string; prov: string }> {
    const sweep = defineSweep({ name: nb, version: 1, cell: { module: FIXTURE, export: 'runCell' }, grid: { x: [1, 2, 3, 4, 5, 6], algorithm: ['a', 'b'] } });
    const exp: PaperExperiment = { notebook: nb, summary: 'test', sweep: () => sweep, exports: { paper: 'x', quick: 'x' }, stratifyBy: 'algorithm', results: (s) => s };
    await runPaperSweep(exp, { ...quiet, workers: 0, resultsRoot: path.join(tmp, 'work'), source: 'run' });
    publishPaperResults(exp, { resultsRoot: path.join(tmp, 'work'), committedRoot: path.join(tmp, 'committed') });
    return { exp, gz: path.join(tmp, 'committed', nb, `${nb}.jsonl.gz`), prov: path.join(tmp, 'committed', nb, 'provenance.json') };
  }

  /** Replace the committed bytes, with the provenance's digest and size made to match (so the records themselves are what is checked). */
  function forge(gz: string, prov: string, body: Buffer): void {
    fs.writeFileSync(gz, body);
    const p = JSON.parse(fs.readFileSync(prov, 'utf8'));
    fs.writeFileSync(prov, JSON.stringify({ ...p, sha256: createHash('sha256').update(body).digest('hex'), bytes: body.length }, null, 2));
  }

  it('a committed pair reads as the plain reading does; a damaged one is refused at the line the plain reading fails on', async () => {
    const { exp, gz, prov } = await published('read-pair');
    const plain = reference(gz);
    expect(plain.records).to.have.length(12);
    expect(text(readCommittedPair(gz, exp.sweep('paper'), 'read-pair').records)).to.deep.equal(text(plain.records));
    expect(text(loadCommittedResults(exp, { committedRoot: path.join(tmp, 'committed') }).records)).to.deep.equal(text(plain.records));

    const lines = zlib.gunzipSync(fs.readFileSync(gz)).toString('utf8').split('\n');
    const damaged = (edit: (ls: string[]) => string[]) => forge(gz, prov, zlib.gzipSync(edit([...lines]).join('\n')));
    // A line cut in the middle (invalid JSON), a torn last line, a truncated gzip stream: each named by file (and line).
    damaged((ls) => ((ls[6] = ls[6].slice(0, 40)), ls));
    const bad = reference(gz).firstBad;
    expect(bad).to.equal(7);
    expect(() => readCommittedPair(gz, exp.sweep('paper'), 'read-pair')).to.throw(`${gz}:${bad}: not valid JSON (1 invalid record(s) in all); the committed file is damaged`);
    damaged((ls) => ls.slice(0, -1));
    expect(reference(gz).firstBad).to.equal(12);
    expect(() => readCommittedPair(gz, exp.sweep('paper'), 'read-pair')).to.throw(`${gz}:12: torn last line; the committed file is damaged`);
    const whole = zlib.gzipSync(lines.join('\n'));
    forge(gz, prov, whole.subarray(0, whole.length - 30));
    expect(() => zlib.gunzipSync(fs.readFileSync(gz))).to.throw('unexpected end of file');
    expect(() => readCommittedPair(gz, exp.sweep('paper'), 'read-pair')).to.throw(/not a readable gzip file \(unexpected end of file\)/);
  });
  it('an experiment\'s deferred fields read from a committed pair: the same records (text and key order) as the eager reading, parsed only when read', async () => {
    const { exp, gz, prov } = await published('read-deferred');
    const lines = zlib.gunzipSync(fs.readFileSync(gz)).toString('utf8').split('\n');
    // Lists in some results (as DFRS's per-call lists), null or empty in others.
    const withLists = lines.map((l, i) => (l === '' ? l : l.replace('"result":{', `"result":{"calls":${JSON.stringify(i % 3 === 0 ? [{ i, t: 'x]' }, { i: i + 0.5 }] : i % 3 === 1 ? null : [])},`)));
    forge(gz, prov, zlib.gzipSync(withLists.join('\n')));
    const eager = readCommittedPair(gz, exp.sweep('paper'), 'read-deferred').records;
    const deferredExp = { ...exp, deferredFields: ['calls'] };
    const lazy = loadCommittedResults(deferredExp, { committedRoot: path.join(tmp, 'committed') }).records;
    const unparsed = lazy.filter((r) => Object.getOwnPropertyDescriptor(r.result, 'calls')?.get).length;
    expect(unparsed).to.equal(eager.filter((r) => Array.isArray((r.result as Record<string, unknown>).calls)).length);
    expect(unparsed).to.be.greaterThan(0);
    const byKey = new Map(eager.map((r) => [r.key, r]));
    expect(text(lazy)).to.deep.equal(text(lazy.map((r) => byKey.get(r.key)!)));
  });
});
