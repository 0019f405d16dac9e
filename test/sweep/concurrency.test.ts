/**
 * Results-store races between processes, each repeated 50–100 times: the lock is
 * never held by two runs at once (fresh or stale lock), a merge or a second
 * paper run never rewrites a file another run is writing, and big files are
 * read in bounded chunks.
 */
import { expect } from 'chai';
import { ChildProcess, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { defineSweep, mergeResults, readResultsFile, ResultsWriter, runSweep } from '../../src/sweep';
import { lockResults, processStartTicks, unlockResults } from '../../src/sweep/store';
import { PaperExperiment, runPaperSweep } from '../../src/sweep/papers';

const ROOT = path.resolve(__dirname, '..', '..');
/** The children load src/ (through the tests' cached transpiler), never a dist/ that may be stale. */
const SRC = path.join(ROOT, 'src');
const TS_REGISTER = path.join(ROOT, 'test', 'support', 'ts-register.js');
const CHILD = path.join(__dirname, 'fixtures', 'lock-child.js');
const CELLS = path.join(__dirname, 'fixtures', 'cells.ts');
const REPS = 50;
/** Rounds of each three-way lock race (a round costs one 30 ms hold, no process start). */
const RACES = 100;

/**
 * A child process kept for every round of a race: each round it tries to take a
 * file's lock, holds it `holdMs` and answers "won" or "lost". The three racers
 * of a round get their line at the same moment, so they contend more tightly
 * than three processes started together (whose start-up times differ by more than
 * the hold), and a round costs no process start.
 */
class Racer {
  private readonly proc: ChildProcess;
  private readonly waiting: ((answer: string) => void)[] = [];
  private buffer = '';
  constructor() {
    this.proc = spawn(process.execPath, ['-r', TS_REGISTER, CHILD, SRC], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.proc.stdout!.on('data', (d) => {
      this.buffer += d;
      for (let i = this.buffer.indexOf('\n'); i >= 0; i = this.buffer.indexOf('\n')) {
        const line = this.buffer.slice(0, i);
        this.buffer = this.buffer.slice(i + 1);
        this.waiting.shift()?.(line);
      }
    });
    this.proc.on('exit', (code) => {
      for (const answer of this.waiting.splice(0)) answer(`racer exited (${code})`);
    });
  }
  race(file: string, holdMs: number): Promise<string> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.proc.stdin!.write(`${file} ${holdMs}\n`);
    });
  }
  close(): void {
    this.proc.stdin!.end();
  }
}

/** `rounds` rounds of three racers on the file `name(r)` (after `prepare(file)`), each round checked by `check`. */
async function race(rounds: number, name: (r: number) => string, prepare: (file: string) => void, check: (file: string, outcomes: string[], r: number) => void): Promise<void> {
  const racers = [new Racer(), new Racer(), new Racer()];
  try {
    for (let r = 0; r < rounds; r++) {
      const file = name(r);
      prepare(file);
      check(file, await Promise.all(racers.map((x) => x.race(file, 30))), r);
    }
  } finally {
    for (const x of racers) x.close();
  }
}

/** Holders must alternate start/end of one pid: any overlap means two held the lock. */
function overlaps(file: string): string | null {
  const lines = fs.existsSync(`${file}.owners`) ? fs.readFileSync(`${file}.owners`, 'utf8').trim().split('\n') : [];
  for (let i = 0; i < lines.length; i += 2) {
    const [pa, sa] = lines[i].split(' ');
    const [pb, sb] = (lines[i + 1] ?? '').split(' ');
    if (sa !== 'start' || sb !== 'end' || pa !== pb) return lines.slice(i, i + 3).join(' | ');
  }
  return null;
}

function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(r.stdout.toString());
}

/** A process holding `file`'s lock until killed. */
function holder(file: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['-r', TS_REGISTER, CHILD, SRC, file, '600000'], { stdio: ['ignore', 'pipe', 'inherit'] });
    p.on('error', reject);
    const poll = setInterval(() => {
      if (fs.existsSync(`${file}.owners`)) {
        clearInterval(poll);
        resolve(p);
      }
    }, 10);
  });
}

describe('results store: races between processes (100 rounds of each race, 50 repetitions of each refusal)', function () {
  this.timeout(600_000);
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-races-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('three runs started together on one file: never two holders at once', async () => {
    await race(RACES, (r) => path.join(tmp, `fresh-${r}.jsonl`), () => {}, (file, outcomes, r) => {
      expect(overlaps(file), `repetition ${r}`).to.equal(null);
      expect(outcomes.filter((o) => o === 'won').length, `repetition ${r}: ${outcomes}`).to.be.at.least(1);
      expect(outcomes.every((o) => o === 'won' || o === 'lost'), `repetition ${r}: ${outcomes}`).to.equal(true);
      expect(fs.existsSync(`${file}.lock`), 'lock released').to.equal(false);
    });
  });

  it('three runs racing to take over a stale lock (its process is dead): never two holders at once', async () => {
    const dead = deadPid();
    const stale = (file: string) => fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: dead, host: os.hostname(), startedAt: new Date(0).toISOString() }));
    await race(RACES, (r) => path.join(tmp, `stale-${r}.jsonl`), stale, (file, outcomes, r) => {
      expect(overlaps(file), `repetition ${r}`).to.equal(null);
      expect(outcomes.filter((o) => o === 'won').length, `repetition ${r}: ${outcomes}`).to.be.at.least(1);
      expect(outcomes.every((o) => o === 'won' || o === 'lost'), `repetition ${r}: ${outcomes}`).to.equal(true);
    });
  });

  it('merge F F while another process writes F is refused, and F keeps every record', async () => {
    const file = path.join(tmp, 'merge-target.jsonl');
    const sweep = defineSweep({ name: 'race-merge', version: 1, cell: { module: CELLS }, grid: { x: [1, 2, 3, 4, 5, 6], algorithm: ['a', 'b'] } });
    await runSweep(sweep, { out: file, workers: 0, progress: 'none', log: () => {} });
    const before = fs.readFileSync(file);
    const p = await holder(file);
    try {
      for (let r = 0; r < REPS; r++) {
        expect(() => mergeResults(file, [file], { log: () => {} }), `repetition ${r}`).to.throw(/being written by process/);
      }
    } finally {
      // Wait for the exit itself: on a loaded machine a killed process can outlive a fixed pause.
      const exited = new Promise((r) => p.once('exit', r));
      p.kill('SIGKILL');
      await exited;
    }
    expect(fs.readFileSync(file).equals(before)).to.equal(true);
    // The killed writer left a stale lock: the next merge takes it over.
    expect(mergeResults(file, [file], { log: () => {} }).records).to.equal(12);
  });

  it('a second paper run while the first writes stops before merging shard files', async () => {
    const root = path.join(tmp, 'paper');
    const sweep = defineSweep({ name: 'race-paper', version: 1, cell: { module: CELLS }, grid: { x: [1, 2, 3, 4], algorithm: ['a', 'b'] } });
    const exp: PaperExperiment = { notebook: 'race-paper', summary: 'test', sweep: () => sweep, exports: { paper: 'x', quick: 'x' }, results: (s) => s };
    await runPaperSweep(exp, { resultsRoot: root, workers: 0, shard: '0/2', progress: 'none', log: () => {}, source: 'run' });
    const out = path.join(root, 'race-paper', 'race-paper.jsonl');
    fs.writeFileSync(out, '');
    const p = await holder(out);
    try {
      for (let r = 0; r < REPS; r++) {
        let err: Error | undefined;
        try {
          await runPaperSweep(exp, { resultsRoot: root, workers: 0, progress: 'none', log: () => {}, source: 'run' });
        } catch (e) {
          err = e as Error;
        }
        expect(err?.message, `repetition ${r}`).to.match(/being written by process/);
        expect(fs.readFileSync(out, 'utf8'), `repetition ${r}: nothing merged into the file being written`).to.equal('');
      }
    } finally {
      p.kill('SIGKILL');
    }
  });
});

describe('results store: reading and merging', () => {
  let tmp: string;
  before(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-read-'))));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('reads line by line in chunks of any size: records split across chunks, torn tail, bad lines', async () => {
    const file = path.join(tmp, 'chunks.jsonl');
    const sweep = defineSweep({ name: 'chunks', version: 1, cell: { module: CELLS }, grid: { x: [1, 2, 3, 4, 5, 6, 7], algorithm: ['a', 'b'] } });
    await runSweep(sweep, { out: file, workers: 0, progress: 'none', log: () => {} });
    fs.appendFileSync(file, 'not json\n{"key":"torn');
    const whole = readResultsFile(file);
    expect(whole.records).to.have.length(14);
    expect(whole.invalid).to.deep.equal([{ line: 15, reason: 'not valid JSON' }]);
    expect(whole.tornTail).to.deep.equal({ line: 16, bytes: 12 });
    for (const chunkBytes of [1, 7, 64, 333, 4096]) {
      const r = readResultsFile(file, { chunkBytes });
      expect(r.records.map((x) => x.key), `chunk ${chunkBytes}`).to.deep.equal(whole.records.map((x) => x.key));
      expect(r.invalid).to.deep.equal(whole.invalid);
      expect(r.tornTail).to.deep.equal(whole.tornTail);
      expect(r.validLength).to.equal(fs.statSync(file).size - 12);
    }
  });

  it('merging shard files with a shard missing warns, naming it, even without the sweep definition', async () => {
    const sweep = defineSweep({ name: 'shards', version: 1, cell: { module: CELLS }, grid: { x: [1, 2, 3, 4, 5, 6], algorithm: ['a', 'b'] } });
    const files = [0, 2].map((i) => path.join(tmp, `s${i}.jsonl`));
    for (const [k, f] of files.entries()) await runSweep(sweep, { out: f, workers: 0, shard: `${k * 2}/3`, progress: 'none', log: () => {} });
    const warnings: string[] = [];
    const m = mergeResults(path.join(tmp, 'merged.jsonl'), files, { log: (w) => warnings.push(w) });
    expect(m.warnings.join('\n')).to.match(/no records of shard 1\/3/);
    expect(warnings.join('\n')).to.match(/no records of shard 1\/3/);
  });

  it('a lock whose pid now belongs to another process (pid reused after a crash) is stale; its true holder is not', () => {
    const ppid = process.ppid; // alive, and not this process
    const started = processStartTicks(ppid);
    expect(started, '/proc/<pid>/stat readable').to.be.a('number');
    const file = path.join(tmp, 'reused.jsonl');
    const lock = (pidStart: number) => fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: ppid, host: os.hostname(), startedAt: '2026-01-01T00:00:00Z', pidStart }));
    lock(started!);
    expect(() => lockResults(file)).to.throw(/being written by process/);
    lock(started! + 1);
    lockResults(file);
    expect(JSON.parse(fs.readFileSync(`${file}.lock`, 'utf8')).pid).to.equal(process.pid);
    unlockResults(file);
    expect(fs.existsSync(`${file}.lock`)).to.equal(false);
  });

  describe('a lock taken by a Slurm job on another node', () => {
    const saved = { PATH: process.env.PATH, SLURM_JOB_ID: process.env.SLURM_JOB_ID, SLURM_RESTART_COUNT: process.env.SLURM_RESTART_COUNT };
    let bin: string;
    /** A stand-in `squeue` on PATH: prints `out` (or writes `err` and fails), and records its arguments. */
    const squeue = (out: string, err?: string) =>
      fs.writeFileSync(path.join(bin, 'squeue'), `#!/bin/sh\necho "$@" >> "${bin}/calls"\n${err ? `echo '${err}' >&2; exit 1` : `printf '${out}'`}\n`, { mode: 0o755 });
    const lockOf = (file: string, holder: Record<string, unknown>) =>
      fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: 999999, host: 'another-node', startedAt: '2026-01-01T00:00:00Z', ...holder }));
    const takes = (file: string) => {
      lockResults(file);
      const lock = JSON.parse(fs.readFileSync(`${file}.lock`, 'utf8'));
      unlockResults(file);
      return lock;
    };

    beforeEach(() => {
      bin = fs.mkdtempSync(path.join(tmp, 'bin-'));
      process.env.PATH = `${bin}${path.delimiter}${saved.PATH}`;
      delete process.env.SLURM_JOB_ID;
      delete process.env.SLURM_RESTART_COUNT;
    });
    afterEach(() => {
      for (const [k, v] of Object.entries(saved)) v === undefined ? delete process.env[k] : (process.env[k] = v);
    });

    it('is kept while squeue reports the job running, and taken over once it has ended or been purged', () => {
      const file = path.join(tmp, 'slurm-ended.jsonl');
      squeue('RUNNING\n');
      lockOf(file, { slurmJob: '4242' });
      expect(() => lockResults(file)).to.throw(/process 999999 on another-node \(Slurm job 4242\)/);
      expect(fs.readFileSync(path.join(bin, 'calls'), 'utf8')).to.match(/--jobs 4242/);
      for (const ended of ['NODE_FAIL\n', 'CANCELLED\n', 'PENDING\n']) {
        squeue(ended);
        lockOf(file, { slurmJob: '4242' });
        expect(takes(file).pid, ended).to.equal(process.pid);
      }
      squeue('', 'slurm_load_jobs error: Invalid job id specified');
      lockOf(file, { slurmJob: '4242' });
      expect(takes(file).pid).to.equal(process.pid);
    });

    it('is kept when squeue cannot tell (controller down), and without a Slurm job (another host)', () => {
      const file = path.join(tmp, 'slurm-unknown.jsonl');
      squeue('', 'slurm_load_jobs error: Unable to contact slurm controller (connect failure)');
      lockOf(file, { slurmJob: '4242' });
      expect(() => lockResults(file)).to.throw(/Slurm job 4242/);
      squeue('NODE_FAIL\n');
      lockOf(file, {});
      expect(() => lockResults(file)).to.throw(/being written by process 999999 on another-node since/);
      fs.rmSync(`${file}.lock`);
    });

    it('an earlier run of this very job (requeued by Slurm) is over; a run of the same job at the same restart is not', () => {
      const file = path.join(tmp, 'slurm-requeued.jsonl');
      squeue('RUNNING\n'); // this job is running: the holder is only over if it ran before a restart
      process.env.SLURM_JOB_ID = '4242';
      process.env.SLURM_RESTART_COUNT = '1';
      lockOf(file, { slurmJob: '4242', slurmRestart: 0 });
      const mine = takes(file);
      expect([mine.pid, mine.slurmJob, mine.slurmRestart]).to.deep.equal([process.pid, '4242', 1]);
      lockOf(file, { slurmJob: '4242', slurmRestart: 1 });
      expect(() => lockResults(file)).to.throw(/Slurm job 4242/);
      fs.rmSync(`${file}.lock`);
    });
  });
});
