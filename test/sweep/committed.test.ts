import { expect } from 'chai';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { defineSweep, Grid } from '../../src/sweep';
import {
  completeResults,
  loadCommittedResults,
  PaperExperiment,
  publishPaperResults,
  rotatingSample,
  runSpanMs,
  runPaperSweep,
  sampleCells,
  verifyCommittedSample,
} from '../../src/sweep/papers';
import { ResultRecord, serializeRecord } from '../../src/sweep/store';

const FIXTURE = path.join(__dirname, 'fixtures', 'cells.ts');
const quiet = { progress: 'none' as const, log: () => {} };

function experiment(name: string, version: number, grid: Grid): PaperExperiment {
  const sweep = defineSweep({ name, version, cell: { module: FIXTURE, export: 'runCell' }, grid });
  return { notebook: name, summary: 'test', sweep: () => sweep, exports: { paper: 'x', quick: 'x' }, stratifyBy: 'algorithm', results: (s) => s };
}

describe('committed paper-scale results', () => {
  let tmp: string;
  let work: string;
  let committed: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-committed-'));
    work = path.join(tmp, 'work');
    committed = path.join(tmp, 'committed');
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const grid = { x: [1, 2, 3, 4, 5, 6], algorithm: ['a', 'b'] };

  it('publishes a finished sweep with provenance, reads it back, and a notebook run takes it instead of recomputing', async () => {
    const exp = experiment('committed-a', 1, grid);
    const live = await runPaperSweep(exp, { ...quiet, workers: 0, resultsRoot: work, source: 'run' });
    const prov = publishPaperResults(exp, { resultsRoot: work, committedRoot: committed });
    expect(prov).to.include({ cells: 12, ok: 12, failed: 0, missing: 0, sweepVersion: '1' });
    expect(prov.machine.cores).to.be.greaterThan(0);
    expect(fs.existsSync(path.join(committed, 'committed-a', 'provenance.json'))).to.equal(true);
    // Same records → same bytes (gzip without name or time).
    const bytes = fs.readFileSync(path.join(committed, 'committed-a', 'committed-a.jsonl.gz'));
    publishPaperResults(exp, { resultsRoot: work, committedRoot: committed });
    expect(fs.readFileSync(path.join(committed, 'committed-a', 'committed-a.jsonl.gz')).equals(bytes)).to.equal(true);

    const c = loadCommittedResults(exp, { committedRoot: committed });
    expect(c.missing).to.equal(0);
    expect(c.status).to.match(/complete \(12 cells/);
    const summary = await runPaperSweep(exp, { ...quiet, resultsRoot: path.join(tmp, 'elsewhere'), committedRoot: committed, verifySample: 5 });
    expect(summary.ok).to.equal(0); // nothing computed
    expect(summary.verified).to.have.length(5);
    expect(completeResults(summary)).to.deep.equal(completeResults(live));
  });

  it('the wall time of a published run spans 300,000 records (02 has 195,840: spreading them into Math.max overflowed the stack)', () => {
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    const records = Array.from({ length: 300_000 }, (_, i) => ({ run: { startedAt: new Date(t0 + ((i * 7919) % 300_000)).toISOString(), durationMs: 5 } }));
    expect(runSpanMs(records)).to.equal(299_999 + 5);
    expect(runSpanMs([])).to.equal(0);
  });

  it('a sample re-run fails loudly, naming the cell, when a committed result differs from what the code computes', async () => {
    const exp = experiment('committed-b', 1, grid);
    await runPaperSweep(exp, { ...quiet, workers: 0, resultsRoot: work, source: 'run' });
    publishPaperResults(exp, { resultsRoot: work, committedRoot: committed });
    const file = path.join(committed, 'committed-b', 'committed-b.jsonl.gz');
    const lines = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    lines[3].result.score += 1e-12; // a change a rounding difference would make
    fs.writeFileSync(file, zlib.gzipSync(lines.map((r) => serializeRecord(r)).join('')));
    // With the provenance's digest made to match (else the file is refused before any re-run).
    const provFile = path.join(committed, 'committed-b', 'provenance.json');
    const body = fs.readFileSync(file);
    fs.writeFileSync(provFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(provFile, 'utf8')), sha256: createHash('sha256').update(body).digest('hex'), bytes: body.length }));
    const c = loadCommittedResults(exp, { committedRoot: committed });
    let err: Error | undefined;
    try {
      await verifyCommittedSample(exp, c, { sample: 12 });
    } catch (e) {
      err = e as Error;
    }
    expect(err?.message).to.match(/1 of 12 re-run cells differ/).and.to.include(lines[3].key);
  });

  it('results of another sweep version are reported stale, never mixed in', async () => {
    const v1 = experiment('committed-c', 1, grid);
    await runPaperSweep(v1, { ...quiet, workers: 0, resultsRoot: work, source: 'run' });
    publishPaperResults(v1, { resultsRoot: work, committedRoot: committed });
    const v2 = experiment('committed-c', 2, grid);
    const c = loadCommittedResults(v2, { committedRoot: committed });
    expect(c.records).to.have.length(0);
    expect(c.stale).to.equal(12);
    expect(c.status).to.match(/another version/);
    let err: Error | undefined;
    try {
      await runPaperSweep(v2, { ...quiet, resultsRoot: work, committedRoot: committed, source: 'committed' });
    } catch (e) {
      err = e as Error;
    }
    expect(err?.message).to.match(/another version/);
  });

  it('partial results are published with their coverage, shown as such, and a later run resumes from them', async () => {
    const full = experiment('committed-d', 1, grid);
    const part = experiment('committed-d', 1, grid);
    // Only the first shard is computed, then merged as the working file.
    await runPaperSweep(part, { ...quiet, workers: 0, resultsRoot: work, shard: '0/3', source: 'run' });
    const shardFile = fs.readdirSync(path.join(work, 'committed-d')).find((f) => f.includes('shard'))!;
    fs.renameSync(path.join(work, 'committed-d', shardFile), path.join(work, 'committed-d', 'committed-d.jsonl'));
    const prov = publishPaperResults(full, { resultsRoot: work, committedRoot: committed });
    expect(prov.missing).to.equal(8);
    const c = loadCommittedResults(full, { committedRoot: committed });
    expect(c.status).to.match(/INCOMPLETE — 4 of 12 cells \(33\.3%\)/);
    const shown = await runPaperSweep(full, { ...quiet, resultsRoot: path.join(tmp, 'x'), committedRoot: committed, verifySample: 2 });
    expect(shown.partial).to.equal(true);
    expect(completeResults(shown)).to.have.length(4);
    // A fresh working folder resumes from the committed 4 and computes only the 8 missing.
    const resumed = await runPaperSweep(full, { ...quiet, workers: 0, resultsRoot: path.join(tmp, 'fresh'), committedRoot: committed, source: 'run' });
    expect(resumed.skipped).to.equal(4);
    expect(resumed.ok).to.equal(8);
  });

  it('the sample is seeded and covers every value of the stratifying parameter', async () => {
    const exp = experiment('committed-e', 1, { x: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], algorithm: ['a', 'b', 'c'] });
    await runPaperSweep(exp, { ...quiet, workers: 0, resultsRoot: work, source: 'run' });
    publishPaperResults(exp, { resultsRoot: work, committedRoot: committed });
    const c = loadCommittedResults(exp, { committedRoot: committed });
    const a = sampleCells(c.records, 2, 7, 'algorithm').map((r) => r.key);
    expect(sampleCells(c.records, 2, 7, 'algorithm').map((r) => r.key)).to.deep.equal(a);
    expect(a).to.have.length(3); // at least one per algorithm, even above the requested size
    expect(new Set(sampleCells(c.records, 2, 7, 'algorithm').map((r) => r.params.algorithm))).to.deep.equal(new Set(['a', 'b', 'c']));
    expect(sampleCells(c.records, 5, 8).map((r) => r.key)).to.not.deep.equal(sampleCells(c.records, 5, 9).map((r) => r.key));
  });

  it("the rotating sample: the size asked for, of distinct cheap cells, on every day; every stratum once every `blocks` days", () => {
    // Strata of 6, 7 and 1 cells, run times 1..n ms: the cheap half of each is at most its median.
    const record = (algorithm: string, x: number, ms: number) => ({ key: `${algorithm}${x}`, params: { algorithm, x }, run: { durationMs: ms } }) as unknown as ResultRecord;
    const records = [...[1, 2, 3, 4, 5, 6].map((x) => record('a', x, x)), ...[1, 2, 3, 4, 5, 6, 7].map((x) => record('b', x, x)), record('c', 1, 1)];
    const cheapCount = 3 + 4 + 1;
    for (let rotation = -3; rotation < 12; rotation++) {
      for (const size of [1, 2, 3, 5, 8, 20]) {
        const s = rotatingSample(records, size, { stratify: 'algorithm', rotation });
        const keys = s.cells.map((r) => r.key);
        expect(new Set(keys).size, `rotation ${rotation}, size ${size}: distinct`).to.equal(keys.length);
        // One per stratum first, then more cheap ones until the size is reached or none is left.
        expect(keys, `rotation ${rotation}, size ${size}`).to.have.length(size < 3 ? size : Math.min(size, cheapCount));
        for (const r of s.cells) expect(r.run.durationMs, r.key).to.be.at.most(r.params.algorithm === 'b' ? 4 : 3);
      }
    }
    // One cell a day: each of the three strata once every three days.
    const days = [0, 1, 2].map((rotation) => rotatingSample(records, 1, { stratify: 'algorithm', rotation }));
    expect(days[0].blocks).to.equal(3);
    expect(new Set(days.flatMap((d) => d.covered))).to.deep.equal(new Set(['"a"', '"b"', '"c"']));
    // The budget bounds the extra cells only: one per stratum always, more while the total stays within it.
    for (const budgetMs of [0, 8, 12]) {
      const lean = rotatingSample(records, 8, { stratify: 'algorithm', rotation: 0, budgetMs });
      const total = lean.cells.reduce((a, r) => a + r.run.durationMs, 0);
      expect(lean.cells.length === 3 || total <= budgetMs, `budget ${budgetMs}: ${lean.cells.length} cells, ${total} ms`).to.equal(true);
      expect(lean.cells.length, `budget ${budgetMs}`).to.be.at.least(3);
    }
    expect(rotatingSample(records, 8, { stratify: 'algorithm', rotation: 0, budgetMs: 0 }).cells).to.have.length(3);
  });
});
