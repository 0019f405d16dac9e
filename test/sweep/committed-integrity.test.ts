/**
 * Committed results are checked before they are trusted: a changed digit, a
 * record of another sweep version, a provenance that lies, a truncated file
 * or a cut provenance are each refused naming the file and what is wrong (and
 * a notebook falls back to quick scale); `--verify all` tells a wrong record
 * from a code change; a legacy provenance is resealed without touching the
 * `.gz`; the lock refusal's advice (`--break-lock`) works.
 */
import { expect } from 'chai';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { defineSweep, Grid } from '../../src/sweep';
import {
  CommittedMismatch,
  loadCommittedResults,
  notebookScale,
  PaperExperiment,
  publishPaperResults,
  resealCommittedResults,
  runPaperSweep,
  verifyCommittedSample,
} from '../../src/sweep/papers';
import { processStartTicks, ResultRecord, serializeRecord } from '../../src/sweep/store';
import { paperMain } from '../../src/cli/paper';
import { sweepMain } from '../../src/cli/sweep';

const FIXTURE = path.join(__dirname, 'fixtures', 'cells.ts');
const quiet = { progress: 'none' as const, log: () => {} };
const grid = { x: [1, 2, 3, 4, 5, 6], algorithm: ['a', 'b'] };

function experiment(name: string, version: number, g: Grid = grid): PaperExperiment {
  const sweep = defineSweep({ name, version, cell: { module: FIXTURE, export: 'runCell' }, grid: g });
  return { notebook: name, summary: 'test', sweep: () => sweep, exports: { paper: 'x', quick: 'x' }, stratifyBy: 'algorithm', results: (s) => s };
}

async function rejection(p: Promise<unknown> | (() => unknown)): Promise<Error> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

describe('committed results are checked before they are trusted', function () {
  this.timeout(5 * 60 * 1000); // a guard against hangs: the suite runs beside notebook executions
  let tmp: string;
  let work: string;
  let committed: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-integrity-'));
    work = path.join(tmp, 'work');
    committed = path.join(tmp, 'committed');
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const gzOf = (nb: string) => path.join(committed, nb, `${nb}.jsonl.gz`);
  const provOf = (nb: string) => path.join(committed, nb, 'provenance.json');
  const readProv = (nb: string) => JSON.parse(fs.readFileSync(provOf(nb), 'utf8'));
  const writeProv = (nb: string, p: object) => fs.writeFileSync(provOf(nb), JSON.stringify(p, null, 2) + '\n');
  const recordsOf = (nb: string): ResultRecord[] => zlib.gunzipSync(fs.readFileSync(gzOf(nb))).toString('utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
  /** Rewrite the committed records (checksums recomputed); `reseal` also makes the provenance's digest and size match, as a careful forger would. */
  const rewrite = (nb: string, records: ResultRecord[], reseal: boolean) => {
    const body = zlib.gzipSync(records.map((r) => serializeRecord(r)).join(''));
    fs.writeFileSync(gzOf(nb), body);
    if (reseal) writeProv(nb, { ...readProv(nb), sha256: createHash('sha256').update(body).digest('hex'), bytes: body.length, records: records.length });
  };
  async function published(nb: string, version = 1, g: Grid = grid): Promise<PaperExperiment> {
    const exp = experiment(nb, version, g);
    await runPaperSweep(exp, { ...quiet, workers: 0, resultsRoot: work, source: 'run' });
    publishPaperResults(exp, { resultsRoot: work, committedRoot: committed });
    return exp;
  }
  /** The committed pair is not used: no records, the status and `damaged` name the file and the problem, and the notebook renders at quick scale. */
  function refused(exp: PaperExperiment, file: string, problem: RegExp): string {
    const c = loadCommittedResults(exp, { committedRoot: committed });
    expect(c.records, c.status).to.have.length(0);
    expect(c.damaged).to.be.a('string');
    expect(c.damaged).to.include(file).and.to.match(problem);
    expect(c.status).to.include('NOT USED').and.to.include(file);
    expect(notebookScale(exp, { committedRoot: committed })).to.equal('quick');
    expect(() => loadCommittedResults(exp, { committedRoot: committed, strict: true })).to.throw(problem);
    return c.damaged!;
  }

  it('provenance records the SHA-256, size and record count of the .gz, as sha256sum sees it', async () => {
    const exp = await published('int-seal');
    const p = readProv('int-seal');
    const body = fs.readFileSync(gzOf('int-seal'));
    expect(p).to.include({ sha256: createHash('sha256').update(body).digest('hex'), bytes: body.length, records: 12 });
    expect(p.sourceDigest).to.match(/^[0-9a-f]{64}$/);
    expect(loadCommittedResults(exp, { committedRoot: committed }).status).to.match(/complete \(12 cells.*sha256 [0-9a-f]{12} checked/);
  });

  it('one digit changed in one record (its checksum recomputed) is refused by the digest, naming the file', async () => {
    const exp = await published('int-digit');
    const records = recordsOf('int-digit');
    const r = records[5].result as { score: number };
    r.score = Number(String(r.score).replace(/\d(?=\d*$)/, (d) => String((Number(d) + 1) % 10)));
    rewrite('int-digit', records, false);
    refused(exp, gzOf('int-digit'), /changed since it was published: .*, but .*provenance\.json says/);
    // Asked for paper scale explicitly, the run refuses instead of silently recomputing.
    expect((await rejection(runPaperSweep(exp, { ...quiet, resultsRoot: work, committedRoot: committed }))).message).to.include('NOT USED');
  });

  it('--verify all: a record that differs from a re-run of unchanged code is reported as a wrong record, not as a code change', async () => {
    const exp = await published('int-verify');
    const records = recordsOf('int-verify');
    (records[7].result as { draws: number }).draws += 1;
    rewrite('int-verify', records, true); // digest forged too: only a re-run can tell
    const c = loadCommittedResults(exp, { committedRoot: committed });
    expect(c.records).to.have.length(12);
    const err = await rejection(verifyCommittedSample(exp, c, { sample: 'all' }));
    expect(err).to.be.instanceOf(CommittedMismatch);
    expect((err as CommittedMismatch).reason).to.equal('record');
    expect((err as CommittedMismatch).cells).to.have.length(12);
    expect(err.message).to.match(/1 of 12 re-run cells differ/).and.to.include('RECORD DIFFERS FROM A RE-RUN').and.to.include(records[7].key).and.not.to.include('CODE CHANGED');
    // The same difference after the sources changed since publishing is reported as a code change.
    writeProv('int-verify', { ...readProv('int-verify'), sourceDigest: 'f'.repeat(64) });
    const changed = await rejection(verifyCommittedSample(exp, loadCommittedResults(exp, { committedRoot: committed }), { sample: 'all' }));
    expect((changed as CommittedMismatch).reason).to.equal('code');
    expect(changed.message).to.include('CODE CHANGED SINCE PUBLISH').and.to.include('must bump the sweep');
  });

  it('a record of another sweep version is a named error (line, field), never a silent drop, even with the digest forged', async () => {
    const other = await published('int-version', 2);
    const stranger = recordsOf('int-version')[4];
    fs.rmSync(path.join(committed, 'int-version'), { recursive: true });
    fs.rmSync(work, { recursive: true });
    const exp = await published('int-version', 1);
    const records = recordsOf('int-version');
    records[4] = stranger;
    expect(stranger.sweepVersion).to.equal('2');
    expect(other.sweep('paper').fingerprint).to.not.equal(exp.sweep('paper').fingerprint);
    rewrite('int-version', records, false);
    refused(exp, gzOf('int-version'), /changed since it was published/);
    rewrite('int-version', records, true);
    const msg = refused(exp, gzOf('int-version'), /:5: record .* has sweepVersion "2", but provenance\.json says "1"/);
    expect(msg).to.not.match(/11 of 12/);
  });

  it('a provenance with a wrong fingerprint, version and commit is refused, and its commit is never quoted', async () => {
    const exp = await published('int-prov');
    const good = readProv('int-prov');
    const fake = '0123456789abcdef0123456789abcdef01234567';
    writeProv('int-prov', { ...good, definition: 'ffffffffffffffff', sweepVersion: '9', commit: fake });
    refused(exp, provOf('int-prov'), /commit 0123456789abcdef0123456789abcdef01234567 is not a commit of this repository/);
    expect(loadCommittedResults(exp, { committedRoot: committed }).status).to.not.match(/computed at commit/);
    // With a real commit, the fingerprint and version still contradict the records: named, with the line.
    writeProv('int-prov', { ...good, definition: 'ffffffffffffffff', sweepVersion: '9' });
    refused(exp, gzOf('int-prov'), /:1: record .* has sweepVersion "1", but provenance\.json says "9"/);
    writeProv('int-prov', { ...good, definition: 'ffffffffffffffff' });
    refused(exp, gzOf('int-prov'), /:1: record .* has definition "[0-9a-f]+", but provenance\.json says "ffffffffffffffff"/);
    // Counts that do not add up, or that differ from the file.
    writeProv('int-prov', { ...good, ok: 11, failed: 1 });
    refused(exp, gzOf('int-prov'), /12 ok and 0 failed records, but provenance\.json says 11 and 1/);
    writeProv('int-prov', { ...good, records: 13, ok: 13, cells: 13 });
    refused(exp, gzOf('int-prov'), /12 records, but provenance\.json says 13/);
    // Another notebook's provenance copied in.
    writeProv('int-prov', { ...good, notebook: 'int-other', sweep: 'int-other' });
    refused(exp, provOf('int-prov'), /describes int-other \/ sweep int-other, not int-prov/);
  });

  it('a truncated .gz and a cut provenance.json name the damaged file; the notebook still renders (quick scale)', async () => {
    const exp = await published('int-cut');
    const gz = fs.readFileSync(gzOf('int-cut'));
    const prov = fs.readFileSync(provOf('int-cut'));
    fs.writeFileSync(gzOf('int-cut'), gz.subarray(0, gz.length - 20));
    refused(exp, gzOf('int-cut'), new RegExp(`truncated: ${gz.length - 20} bytes, but .*provenance\\.json says ${gz.length}`));
    fs.writeFileSync(gzOf('int-cut'), gz);
    fs.writeFileSync(provOf('int-cut'), prov.subarray(0, prov.length / 2));
    refused(exp, provOf('int-cut'), /not valid JSON .*cut or edited/);
    fs.writeFileSync(provOf('int-cut'), '');
    refused(exp, provOf('int-cut'), /not valid JSON/);
    // A .gz without any provenance is not taken on trust either.
    fs.rmSync(provOf('int-cut'));
    refused(exp, gzOf('int-cut'), /has no provenance\.json beside it/);
  });

  it('the same cell twice (digest forged) is refused instead of silently deduplicated', async () => {
    const exp = await published('int-dup');
    const records = recordsOf('int-dup');
    records[3] = records[2];
    rewrite('int-dup', records, true);
    refused(exp, gzOf('int-dup'), /:4: cell .* appears twice/);
  });

  it('coverage is rounded down: 3,999 of 4,000 cells is 99.9%, not 100.0%', async () => {
    const exp = experiment('int-cover', 1, { x: Array.from({ length: 2000 }, (_, i) => i), algorithm: ['a', 'b'] });
    await runPaperSweep(exp, { ...quiet, workers: 0, resultsRoot: work, source: 'run' });
    const file = path.join(work, 'int-cover', 'int-cover.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines.splice(100, 1);
    fs.writeFileSync(file, lines.join('\n'));
    publishPaperResults(exp, { resultsRoot: work, committedRoot: committed });
    expect(loadCommittedResults(exp, { committedRoot: committed }).status).to.include('INCOMPLETE — 3999 of 4000 cells (99.9%)');
  });

  it('--reseal adds the digest to a provenance published without one, checking every record, and leaves the .gz byte for byte', async () => {
    const exp = await published('int-reseal');
    const { sha256, bytes, records, sourceDigest, ...legacy } = readProv('int-reseal');
    writeProv('int-reseal', legacy);
    const refusal = refused(exp, provOf('int-reseal'), /field "sha256" is missing .*--reseal/);
    expect(refusal).to.include('schedlab paper int-reseal --reseal');
    const before = fs.readFileSync(gzOf('int-reseal'));
    const p = resealCommittedResults(exp, { committedRoot: committed });
    expect(fs.readFileSync(gzOf('int-reseal')).equals(before)).to.equal(true);
    expect(p).to.include({ sha256, bytes, records });
    expect(p.sourceDigest === null || /^[0-9a-f]{64}$/.test(p.sourceDigest)).to.equal(true);
    expect(loadCommittedResults(exp, { committedRoot: committed }).records).to.have.length(12);
    // A file that no longer matches a recorded digest is not resealed.
    fs.writeFileSync(gzOf('int-reseal'), before.subarray(0, 100));
    expect(() => resealCommittedResults(exp, { committedRoot: committed })).to.throw(/truncated/);
    // Nor is a legacy file whose records contradict the provenance.
    fs.writeFileSync(gzOf('int-reseal'), before);
    writeProv('int-reseal', { ...legacy, sweepVersion: '7' });
    expect(() => resealCommittedResults(exp, { committedRoot: committed })).to.throw(/sweepVersion "1", but provenance\.json says "7"/);
  });

  it('the lock refusal advises --break-lock, and schedlab paper and schedlab sweep merge accept it', async () => {
    const exp = experiment('int-lock', 1);
    const out = path.join(work, 'int-lock', 'int-lock.jsonl');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    // Held by a live process on this host (the test runner's parent).
    const liveLock = (f: string) => fs.writeFileSync(`${f}.lock`, JSON.stringify({ pid: process.ppid, host: os.hostname(), startedAt: new Date().toISOString(), pidStart: processStartTicks(process.ppid) }));
    liveLock(out);
    const err = await rejection(runPaperSweep(exp, { ...quiet, workers: 0, resultsRoot: work, source: 'run' }));
    expect(err.message).to.include('pass --break-lock');
    const s = await runPaperSweep(exp, { ...quiet, workers: 0, resultsRoot: work, source: 'run', breakLock: true });
    expect(s.ok).to.equal(12);
    const printed: string[] = [];
    expect(await paperMain(['--help', '--break-lock'], (l) => printed.push(l))).to.equal(0);
    expect(printed.join('\n')).to.include('--break-lock takes over the lock');
    // `schedlab sweep merge` gives the same advice, and takes it too.
    const target = path.join(work, 'merged.jsonl');
    liveLock(target);
    const stderr: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    (process.stderr as { write: unknown }).write = (t: string) => stderr.push(String(t)) > 0;
    let refusedCode: number, tookCode: number;
    try {
      refusedCode = await sweepMain(['merge', target, out], () => {});
      tookCode = await sweepMain(['merge', target, out, '--break-lock'], () => {});
    } finally {
      (process.stderr as { write: unknown }).write = write;
    }
    expect(refusedCode).to.not.equal(0);
    expect(stderr.join('')).to.include('pass --break-lock');
    expect(tookCode, stderr.join('')).to.equal(0);
    expect(fs.readFileSync(target, 'utf8').split('\n').filter(Boolean)).to.have.length(12);
  });
});
