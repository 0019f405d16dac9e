import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { claimsFor, claimsSummary, forgetClaims, headlineChart } from '../../src/claims';
import { committedStatus, findPaperExperiment, loadCommittedResults } from '../../src/sweep/papers';
import { openEntry, sealEntry, sha256File } from '../../src/util/cache';

// The first screen through the cache on the two smallest committed files (04: 875 cells, 05: 218).
describe('claims: the first screen through the cache', () => {
  let tmp = '';
  let saved: string | undefined;
  before(() => {
    saved = process.env.SCHEDLAB_CACHE;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-claims-cache-'));
    process.env.SCHEDLAB_CACHE = tmp;
    forgetClaims();
  });
  after(() => {
    if (saved === undefined) delete process.env.SCHEDLAB_CACHE;
    else process.env.SCHEDLAB_CACHE = saved;
    forgetClaims();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  const screen = (nb: string) => {
    forgetClaims();
    return { summary: claimsSummary(nb), chart: headlineChart(nb), status: committedStatus(findPaperExperiment(nb)) };
  };
  const entryOf = (kind: string, nb: string) => {
    const dir = path.join(tmp, kind);
    const files = fs.readdirSync(dir).filter((f) => f.startsWith(`${nb}-`) && f.endsWith('.json'));
    expect(files, `${kind} entries of ${nb}`).to.have.length(1);
    return path.join(dir, files[0]);
  };
  /** Rewrite an entry, validly sealed, with its value and recorded inputs changed by `edit`. */
  const plant = (file: string, edit: (e: { key: string; inputs: { file: string; sha256: string | null }[]; value: any }) => void) => {
    const entry = openEntry(fs.readFileSync(file, 'utf8'))!;
    const body = { key: entry.key, inputs: entry.inputs.map((i) => ({ ...i })), value: JSON.parse(entry.value) };
    edit(body);
    fs.writeFileSync(file, sealEntry(body));
  };

  for (const nb of ['04-advance-reservation', '05-measy']) {
    it(`${nb}: the same first screen with a cold and a warm cache, and as evaluated without it`, () => {
      const cold = screen(nb);
      const claimsEntry = entryOf('claims', nb);
      entryOf('status', nb);
      const warm = screen(nb);
      expect(warm).to.deep.equal(cold);
      expect(JSON.stringify(warm.chart)).to.equal(JSON.stringify(cold.chart));
      // ... and what the evaluation gives on the records directly (no cache involved)
      const committed = loadCommittedResults(findPaperExperiment(nb));
      expect(warm.summary).to.deep.equal(claimsSummary(nb, committed));
      expect(JSON.stringify(warm.chart)).to.equal(JSON.stringify(headlineChart(nb, committed)));
      expect(warm.status).to.equal(committed.status);
      // the entry names the committed pair it was computed from, with its digests
      const inputs = openEntry(fs.readFileSync(claimsEntry, 'utf8'))!.inputs;
      expect(inputs.map((i) => i.file)).to.include.members([committed.file, path.join(path.dirname(committed.file), 'provenance.json')]);
      expect(inputs.find((i) => i.file === committed.file)!.sha256).to.equal(sha256File(committed.file));
    });
  }

  it('a warm first screen is read from its entry, not evaluated again', () => {
    const nb = '05-measy';
    screen(nb);
    plant(entryOf('claims', nb), (e) => (e.value.paper = 'planted paper'));
    plant(entryOf('status', nb), (e) => (e.value = 'planted status'));
    const warm = screen(nb);
    expect(warm.summary.paper).to.equal('planted paper');
    expect(warm.status).to.equal('planted status');
  });

  it('an entry recorded for other bytes of a committed file is recomputed', () => {
    const nb = '05-measy';
    const gz = loadCommittedResults(findPaperExperiment(nb)).file;
    for (const kind of ['claims', 'status']) {
      plant(entryOf(kind, nb), (e) => {
        e.value = kind === 'claims' ? { ...e.value, paper: 'planted paper' } : 'planted status';
        const input = e.inputs.find((i) => i.file === gz)!;
        input.sha256 = '0'.repeat(64); // the results file it was computed from differed from today's
      });
    }
    const again = screen(nb);
    expect(again.summary.paper).to.not.equal('planted paper');
    expect(again.status).to.equal(loadCommittedResults(findPaperExperiment(nb)).status);
    // recomputed and written again, for today's bytes
    expect(openEntry(fs.readFileSync(entryOf('claims', nb), 'utf8'))!.inputs.find((i) => i.file === gz)!.sha256).to.equal(sha256File(gz));
    // an unfinished publication appearing beside the pair (recorded as absent) is a change too
    const next = `${gz}.next`;
    expect(openEntry(fs.readFileSync(entryOf('claims', nb), 'utf8'))!.inputs.find((i) => i.file === next)).to.deep.equal({ file: next, sha256: null });
  });

  it('an entry recorded by other code, or damaged, is recomputed', () => {
    const nb = '05-measy';
    screen(nb);
    plant(entryOf('claims', nb), (e) => {
      e.value.paper = 'planted paper';
      e.key = 'e'.repeat(64); // the key digest of other code (the file name is only its prefix)
    });
    expect(screen(nb).summary.paper).to.not.equal('planted paper');
    const file = entryOf('claims', nb);
    const whole = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, whole.slice(0, whole.length >> 1));
    const again = screen(nb);
    expect(again.summary.line).to.match(/^\d+ claims: /);
    expect(fs.readFileSync(file, 'utf8')).to.equal(whole); // rewritten whole
  });

  it('lives under SCHEDLAB_CACHE, and `off` neither reads nor writes it', () => {
    expect(fs.readdirSync(tmp).sort()).to.deep.equal(['claims', 'status']);
    const nb = '05-measy';
    screen(nb);
    plant(entryOf('claims', nb), (e) => (e.value.paper = 'planted paper'));
    const was = process.env.SCHEDLAB_CACHE;
    process.env.SCHEDLAB_CACHE = 'off';
    try {
      forgetClaims();
      expect(claimsFor(nb).paper).to.not.equal('planted paper');
    } finally {
      process.env.SCHEDLAB_CACHE = was;
    }
    forgetClaims();
    expect(claimsFor(nb).paper).to.equal('planted paper');
  });
});
