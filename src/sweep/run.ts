/**
 * Local execution of a sweep on all cores (worker_threads), with a progress
 * display, resumable results and a clean stop on Ctrl-C.
 */
import * as os from 'os';
import * as path from 'path';
import { Worker } from 'worker_threads';
import { performance } from 'perf_hooks';
import { Cell, CellFilter, filterCells, formatShard, parseShard, Shard, shardCells, SweepDefinition, sweepCells, Json } from './grid';
import { loadCellFunction, resolveCellModule, toJsonResult, tsNodeOptions, tsNodePath } from './cellmodule';
import { latestRecords, readResultsFile, ResultRecord, ResultRow, ResultsWriter, RunInfo, toRows, toolkitVersion } from './store';
import { lineReporter, ProgressCallback, Reporter, SweepProgress, tslabReporter, ttyReporter } from './progress';
import { describeError, FromWorker, timeoutWhere, ToWorker, WorkerInit } from './worker';
import { createDecisionBeacon, DecisionBeacon } from '../util/policy-guard';
import { InputError, OutputError } from '../util/errors';

/** How `runSweep` reports progress: chosen automatically, a terminal bar, log lines, a notebook output, or nothing. */
export type ProgressMode = 'auto' | 'bar' | 'lines' | 'tslab' | 'none';

/** Options of `runSweep`: results file, workers, shard and cell filter, retries, cell time-out, progress and cancellation. */
export interface RunOptions {
  /** Results file (JSON lines). Default `out/sweeps/<name>.jsonl` (or `<name>.shard-i-of-n.jsonl`). */
  out?: string;
  /** Worker threads (default `os.availableParallelism()`); 0 runs cells in this thread, one by one. */
  workers?: number;
  /** Run only this slice of the sweep: `{index, count}` or `"i/n"` (0-based). */
  shard?: Shard | string;
  /** Run only the cells whose parameters take these values (e.g. `{ part: ['period'] }`); within the shard, if any. */
  where?: CellFilter;
  /** Extra attempts for a cell that throws or crashes its worker, within this run (default 0). */
  retries?: number;
  /** Also rerun cells recorded as failed by earlier runs (default false: they are skipped). */
  retryFailed?: boolean;
  /** Fail a cell that runs longer than this (its worker is terminated and replaced). */
  cellTimeoutMs?: number;
  /** Progress display: `auto` picks tslab in notebooks, a bar on a TTY, plain lines otherwise. */
  progress?: ProgressMode;
  /** Interval of the plain-line progress (default 15 s). */
  progressIntervalMs?: number;
  /** Called after every finished cell and about once a second. */
  onProgress?: ProgressCallback;
  /** Called with every record written by this run. */
  onRecord?: (record: ResultRecord) => void;
  /** Aborting stops dispatching; running cells finish and are saved. */
  signal?: AbortSignal;
  /** Handle Ctrl-C (SIGINT) while running (default true): first stops dispatching, second stops at once. */
  handleSigint?: boolean;
  /** How to resume, printed after an interruption (the CLI passes its command line). */
  resumeHint?: string;
  /** Take over a lock left by a run on another host (see `ResultsWriter`). */
  breakLock?: boolean;
  /** Messages (warnings, interruption notice); default writes to stderr. */
  log?: (message: string) => void;
}

/** What a sweep run did: cells total, skipped as already present, ok, failed and missing, whether it was interrupted, and the time taken. */
export interface SweepSummary {
  sweep: string;
  /** Absolute path of the results file. */
  out: string;
  shard: string | null;
  /** Cells in scope (whole sweep, this shard, or the cells `where` keeps). */
  total: number;
  /** Cells found finished in the results file and not rerun. */
  skipped: number;
  /** Cells this run finished successfully / recorded as failed. */
  ok: number;
  failed: number;
  /** Cells in scope still without a record (non-zero after an interruption). */
  missing: number;
  interrupted: boolean;
  elapsedMs: number;
  /** Latest record of every finished cell in scope, in enumeration order. */
  records: ResultRecord[];
  /** `toRows(records)`: flat rows of the successful cells, for dataframes. */
  rows: ResultRow[];
  warnings: string[];
}

/** Default results path for a sweep (relative to the working directory). */
export function defaultOutFile(sweep: SweepDefinition, shard?: Shard | null): string {
  const safe = sweep.name.replace(/[^A-Za-z0-9._-]+/g, '_');
  const suffix = shard && shard.count > 1 ? `.shard-${shard.index}-of-${shard.count}` : '';
  return path.join('out', 'sweeps', `${safe}${suffix}.jsonl`);
}

const BOOTSTRAP = `
const { workerData } = require('worker_threads');
if (workerData.tsNode) require(workerData.tsNode).register(workerData.tsNodeOptions);
require(workerData.workerFile);
`;

interface QueueItem {
  cell: Cell;
  tries: number;
}

interface Slot {
  id: number;
  worker: Worker;
  ready: boolean;
  job: { item: QueueItem; timer?: NodeJS.Timeout } | null;
  terminating: boolean;
  timedOut: boolean;
  lastError: Error | null;
  /** Where the worker's policy calls are (util/policy-guard.ts): a time-out names the decision. */
  beacon: DecisionBeacon;
}

/** A cell's outcome as recorded: its JSON result, or the error it ended with. */
type Outcome = { ok: true; result: Json } | { ok: false; error: { name: string; message: string; stack?: string } };
type CellRun = Omit<RunInfo, 'host' | 'pid' | 'shard'>;
type CellFunction = ReturnType<typeof loadCellFunction>;

/** What a run does, from its options, checked before anything is written. */
interface RunPlan {
  /** Cells in scope (shard, then `where`). */
  cells: Cell[];
  out: string;
  shardText: string | null;
  retries: number;
  workers: number;
  toolkit: string;
  modulePath: string;
  cellFunction: CellFunction;
}

function planRun(sweep: SweepDefinition, options: RunOptions): RunPlan {
  const shard = typeof options.shard === 'string' ? parseShard(options.shard) : options.shard ?? null;
  const allCells = sweepCells(sweep);
  const sliced = shard ? shardCells(allCells, shard) : allCells;
  const cells = options.where ? filterCells(sliced, options.where) : sliced;
  if (options.out !== undefined && (typeof options.out !== 'string' || options.out.trim() === '')) {
    throw new InputError(`runSweep: out must be a file path, got ${JSON.stringify(options.out)}`, { source: 'runSweep', field: 'out' });
  }
  const out = path.resolve(options.out ?? defaultOutFile(sweep, shard));
  const retries = options.retries ?? 0;
  if (!Number.isInteger(retries) || retries < 0) throw new InputError(`runSweep: retries must be an integer ≥ 0, got ${retries}`, { source: 'runSweep', field: 'retries' });
  const workers = options.workers ?? os.availableParallelism();
  if (!Number.isInteger(workers) || workers < 0) {
    throw new InputError(`runSweep: workers must be an integer ≥ 0, got ${workers}`, { source: 'runSweep', field: 'workers' });
  }
  if (options.cellTimeoutMs !== undefined && !(options.cellTimeoutMs > 0 && options.cellTimeoutMs <= 2 ** 31 - 1)) {
    // setTimeout treats NaN, 0 and values above 2^31-1 ms as "at once": every cell would time out.
    throw new InputError(`runSweep: cellTimeoutMs must be a number of milliseconds in (0, ${2 ** 31 - 1}], got ${options.cellTimeoutMs}`, { source: 'runSweep', field: 'cellTimeoutMs' });
  }
  const toolkit = toolkitVersion();
  const modulePath = resolveCellModule(sweep);
  // Load the cell function here once, before anything is written: a missing
  // export is reported as bad input instead of as a failure of every cell.
  const cellFunction = loadCellFunction(modulePath, sweep.cell.export);
  return { cells, out, shardText: shard ? formatShard(shard) : null, retries, workers, toolkit, modulePath, cellFunction };
}

/**
 * Read what the results file already holds (cutting off a torn last line),
 * refuse records of another sweep, definition or toolkit, and return the
 * latest record per cell and the cells still to run.
 */
function resume(writer: ResultsWriter, sweep: SweepDefinition, plan: RunPlan, retryFailed: boolean, warn: (m: string) => void): { latest: Map<string, ResultRecord>; pending: Cell[] } {
  const { out, toolkit } = plan;
  const existing = readResultsFile(out);
  existing.warnings.forEach(warn);
  if (existing.tornTail) writer.truncateTo(existing.validLength);
  for (const r of existing.records) {
    const what =
      r.sweep !== sweep.name
        ? `sweep "${r.sweep}", not "${sweep.name}"`
        : r.definition !== sweep.fingerprint
          ? `a different definition of "${sweep.name}" (fingerprint ${r.definition}, now ${sweep.fingerprint}: grid, fixed values, replications, version or cell export changed)`
          : r.toolkit !== toolkit
            ? `schedlab ${r.toolkit}, not ${toolkit}`
            : null;
    if (what) {
      throw new InputError(
        `${out} holds results of ${what}; results of different sweeps are never mixed. ` +
          `Use another output file (--out), or delete this one to start over.`,
        { source: out, field: 'out' },
      );
    }
  }
  const latest = new Map<string, ResultRecord>();
  for (const r of latestRecords(existing.records)) latest.set(r.key, r);
  const pending = plan.cells.filter((c) => {
    const r = latest.get(c.key);
    return !r || (r.status === 'failed' && retryFailed);
  });
  return { latest, pending };
}

/** Counts of a run and their display (reporter, `onProgress`). */
class RunProgress {
  readonly counts = { ok: 0, failed: 0, running: 0 };
  interrupted = false;
  private readonly reporter: Reporter | null;
  private readonly onProgress?: ProgressCallback;

  constructor(
    private readonly sweep: string,
    private readonly total: number,
    private readonly skipped: number,
    private readonly t0: number,
    options: RunOptions,
  ) {
    this.reporter = makeReporter(options.progress ?? 'auto', options.progressIntervalMs);
    this.onProgress = options.onProgress;
  }

  snapshot(finished: boolean): SweepProgress {
    const { counts, skipped, total } = this;
    const elapsedMs = performance.now() - this.t0;
    const done = counts.ok + counts.failed;
    const remaining = total - skipped - done;
    const rate = done > 0 ? done / (elapsedMs / 1000) : 0;
    return {
      sweep: this.sweep,
      total,
      skipped,
      done,
      ok: counts.ok,
      failed: counts.failed,
      running: counts.running,
      remaining,
      elapsedMs,
      rate,
      etaMs: rate > 0 ? (1000 * remaining) / rate : null,
      finished,
      interrupted: this.interrupted,
    };
  }

  emit(finished = false): void {
    const p = this.snapshot(finished);
    if (this.reporter) (finished ? this.reporter.end(p) : this.reporter.update(p));
    this.onProgress?.(p);
  }
}

/**
 * What the executors (inline, pool) share: the plan, the queue's fate for a
 * finished cell (recorded, or retried), progress, and how far to stop
 * (0 running, 1 stop dispatching, 2 stop now).
 */
class RunState {
  stopLevel = 0;
  /** Called when the stop level rises (the pool sets it). */
  onStop: (level: number) => void = () => {};
  private readonly base: Pick<ResultRecord, 'sweep' | 'sweepVersion' | 'definition' | 'toolkit'>;

  constructor(
    readonly sweep: SweepDefinition,
    readonly plan: RunPlan,
    readonly options: RunOptions,
    readonly progress: RunProgress,
    readonly latest: Map<string, ResultRecord>,
    private readonly writer: ResultsWriter,
    readonly log: (m: string) => void,
  ) {
    this.base = { sweep: sweep.name, sweepVersion: sweep.version, definition: sweep.fingerprint, toolkit: plan.toolkit };
  }

  requestStop(level: number): void {
    if (level <= this.stopLevel) return;
    this.stopLevel = level;
    this.progress.interrupted = true;
    this.onStop(level);
  }

  /** Append a finished cell's record; a failure to save stops the run (OutputError). */
  record(cell: Cell, outcome: Outcome, run: CellRun): void {
    const { log, options, plan } = this;
    const runInfo: RunInfo = { ...run, host: os.hostname(), pid: process.pid, ...(plan.shardText ? { shard: plan.shardText } : {}) };
    if (!outcome.ok) log(`cell ${cell.key} failed after ${run.attempts} attempt(s): ${outcome.error.name}: ${outcome.error.message}`);
    const entry: Omit<ResultRecord, 'crc'> = outcome.ok
      ? { key: cell.key, ...this.base, params: cell.params, seed: cell.seed, status: 'ok', result: outcome.result, run: runInfo }
      : {
          key: cell.key,
          ...this.base,
          params: cell.params,
          seed: cell.seed,
          status: 'failed',
          error: { name: outcome.error.name, message: outcome.error.message },
          run: outcome.error.stack ? { ...runInfo, stack: outcome.error.stack } : runInfo,
        };
    let rec: ResultRecord;
    try {
      rec = this.writer.append(entry);
    } catch (e) {
      // Stop the run: the cells finished so far are complete lines in the file, and a rerun resumes from them.
      if (!(e instanceof OutputError)) throw e;
      const inScope = new Set(plan.cells.map((c) => c.key));
      const saved = [...this.latest.keys()].filter((k) => inScope.has(k)).length;
      throw new OutputError(e.operation, e.path, e.cause ?? e, `the ${saved} cell(s) finished before are saved there; free space or fix the folder, then rerun to resume`);
    }
    const prev = this.latest.get(rec.key);
    if (!prev || !(prev.status === 'ok' && rec.status === 'failed')) this.latest.set(rec.key, rec);
    if (rec.status === 'ok') this.progress.counts.ok++;
    else this.progress.counts.failed++;
    options.onRecord?.(rec);
    this.progress.emit();
  }

  /** A cell that threw: retry it, or record it as failed. */
  failed(item: QueueItem, queue: QueueItem[], error: ReturnType<typeof describeError>, run: CellRun): void {
    const { retries } = this.plan;
    if (item.tries <= retries && this.stopLevel === 0) {
      this.log(`cell ${item.cell.key} failed (attempt ${item.tries} of ${retries + 1}), will retry: ${error.name}: ${error.message}`);
      queue.push(item);
    } else this.record(item.cell, { ok: false, error }, run);
  }
}

/** Ctrl-C and the abort signal raise the stop level; returns what removes the handlers. */
function listenForStop(state: RunState): () => void {
  const { options, log, sweep, progress } = state;
  const sigint = () => {
    if (state.stopLevel === 0) {
      log(`\n${sweep.name}: interrupted — waiting for ${progress.counts.running} running cell(s) to finish (Ctrl-C again to stop at once)`);
      state.requestStop(1);
    } else {
      log(`\n${sweep.name}: stopping now; running cells are abandoned and will rerun on resume`);
      state.requestStop(2);
    }
  };
  const onAbort = () => state.requestStop(1);
  if (options.handleSigint ?? true) process.on('SIGINT', sigint);
  if (options.signal) {
    if (options.signal.aborted) state.requestStop(1);
    else options.signal.addEventListener('abort', onAbort);
  }
  return () => {
    process.removeListener('SIGINT', sigint);
    options.signal?.removeEventListener('abort', onAbort);
  };
}

/**
 * Run (or resume) a sweep. Cells already in the results file are skipped;
 * every finished cell is appended at once, so stopping at any moment (even
 * kill -9) loses at most the cells that were running.
 */
export async function runSweep(sweep: SweepDefinition, options: RunOptions = {}): Promise<SweepSummary> {
  const t0 = performance.now();
  const log = options.log ?? ((m: string) => process.stderr.write(m + '\n'));
  const plan = planRun(sweep, options);
  const { cells, out } = plan;
  const warnings: string[] = [];
  const warn = (m: string) => {
    warnings.push(m);
    log(`warning: ${m}`);
  };

  const writer = new ResultsWriter(out, { breakLock: options.breakLock });
  let closed = false;
  const close = () => {
    if (!closed) writer.close();
    closed = true;
  };
  let resumed: ReturnType<typeof resume>;
  try {
    resumed = resume(writer, sweep, plan, options.retryFailed ?? false, warn);
  } catch (e) {
    close();
    throw e;
  }
  const { latest, pending } = resumed;
  const skipped = cells.length - pending.length;
  const progress = new RunProgress(sweep.name, cells.length, skipped, t0, options);
  const state = new RunState(sweep, plan, options, progress, latest, writer, log);
  const stopListening = listenForStop(state);
  const ticker = setInterval(() => progress.emit(), 1000);
  ticker.unref();

  try {
    if (pending.length > 0) {
      const queue: QueueItem[] = pending.map((cell) => ({ cell, tries: 0 }));
      if (plan.workers === 0) {
        await runInline(state, queue);
      } else {
        await runPool(state, queue, Math.min(plan.workers, pending.length));
      }
    }
  } finally {
    clearInterval(ticker);
    stopListening();
    close();
  }

  progress.emit(true);
  const records = cells.map((c) => latest.get(c.key)).filter((r): r is ResultRecord => r !== undefined);
  const missing = cells.length - records.length;
  const interrupted = progress.interrupted;
  if (interrupted && missing > 0) {
    log(
      `${sweep.name}: stopped with ${cells.length - missing}/${cells.length} cells saved in ${out}. ` +
        `Resume with ${options.resumeHint ?? 'the same runSweep call (same out file)'}: finished cells are skipped.`,
    );
  }
  return {
    sweep: sweep.name,
    out,
    shard: plan.shardText,
    total: cells.length,
    skipped,
    ok: progress.counts.ok,
    failed: progress.counts.failed,
    missing,
    interrupted: interrupted && missing > 0,
    elapsedMs: performance.now() - t0,
    records,
    rows: toRows(records),
    warnings,
  };
}

/** Run the cells one by one in this thread (`workers: 0`). */
async function runInline(state: RunState, queue: QueueItem[]): Promise<void> {
  const fn = state.plan.cellFunction;
  const counts = state.progress.counts;
  while (queue.length > 0 && state.stopLevel === 0) {
    const item = queue.shift() as QueueItem;
    item.tries++;
    const startedAt = new Date().toISOString();
    const c0 = performance.now();
    counts.running = 1;
    let outcome: { ok: true; result: Json } | { ok: false; error: ReturnType<typeof describeError> };
    try {
      outcome = { ok: true, result: JSON.parse(toJsonResult(await fn({ ...item.cell.params }, item.cell.seed))) as Json };
    } catch (e) {
      outcome = { ok: false, error: describeError(e) };
    }
    counts.running = 0;
    // Outside the try: a failure to save (full disk) stops the run instead of counting as a cell failure.
    const run = { startedAt, durationMs: performance.now() - c0, attempts: item.tries, worker: 0 };
    if (outcome.ok) state.record(item.cell, outcome, run);
    else state.failed(item, queue, outcome.error, run);
    // Let signal handlers run between cells.
    await new Promise((r) => setImmediate(r));
  }
}

/**
 * Run the cells on `size` worker threads: each worker takes the next cell
 * when it is done; a worker that crashes or times out fails its cell (which
 * may be retried) and is replaced.
 */
function runPool(state: RunState, queue: QueueItem[], size: number): Promise<void> {
  const { options, plan, sweep } = state;
  const { modulePath } = plan;
  const counts = state.progress.counts;
  return new Promise<void>((resolve, reject) => {
    const init: WorkerInit = {
      workerFile: require.resolve('./worker'),
      tsNode: null,
      module: modulePath,
      export: sweep.cell.export,
    };
    if (init.workerFile.endsWith('.ts') || modulePath.endsWith('.ts')) {
      init.tsNode = tsNodePath();
      init.tsNodeOptions = tsNodeOptions();
      if (!init.tsNode) throw new Error('running .ts files in workers needs ts-node, which is not installed');
    }
    const slots = new Set<Slot>();
    let nextId = 1;
    let earlyCrashes = 0;
    let settled = false;
    let nextMsgId = 1;

    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      for (const s of slots) {
        s.terminating = true;
        if (s.job?.timer) clearTimeout(s.job.timer);
        void s.worker.terminate();
      }
      counts.running = 0;
      if (err) reject(err);
      else resolve();
    };
    const maybeFinish = () => {
      if (settled) return;
      const busy = [...slots].some((s) => s.job !== null);
      if (!busy && (queue.length === 0 || state.stopLevel > 0)) finish();
    };
    state.onStop = (level) => {
      if (level >= 2) finish();
      else maybeFinish();
    };

    const dispatch = (slot: Slot) => {
      if (settled || slot.job || !slot.ready) return;
      if (state.stopLevel > 0 || queue.length === 0) return maybeFinish();
      const item = queue.shift() as QueueItem;
      item.tries++;
      const job: Slot['job'] = { item };
      slot.job = job;
      counts.running++;
      if (options.cellTimeoutMs !== undefined) {
        job.timer = setTimeout(() => {
          slot.timedOut = true;
          void slot.worker.terminate();
        }, options.cellTimeoutMs);
      }
      const msg: ToWorker = { type: 'run', id: nextMsgId++, params: item.cell.params, seed: item.cell.seed };
      slot.worker.postMessage(msg);
    };

    const spawn = () => {
      const beacon = createDecisionBeacon();
      const worker = new Worker(BOOTSTRAP, { eval: true, workerData: { ...init, beacon } });
      const slot: Slot = { id: nextId++, worker, ready: false, job: null, terminating: false, timedOut: false, lastError: null, beacon };
      slots.add(slot);
      worker.on('message', (msg: FromWorker) => {
        if (settled) return;
        if (msg.type === 'ready') {
          slot.ready = true;
          dispatch(slot);
        } else if (msg.type === 'loadError') {
          finish(new InputError(msg.message, { source: modulePath, field: 'cell.module' }));
        } else if (msg.type === 'done' && slot.job) {
          const { item, timer } = slot.job;
          if (timer) clearTimeout(timer);
          slot.job = null;
          counts.running--;
          const run = { startedAt: msg.startedAt, durationMs: msg.durationMs, attempts: item.tries, worker: slot.id };
          try {
            if (msg.ok) state.record(item.cell, { ok: true, result: JSON.parse(msg.result) as Json }, run);
            else state.failed(item, queue, msg.error, run);
          } catch (e) {
            return finish(e as Error);
          }
          dispatch(slot);
        }
      });
      worker.on('error', (err) => {
        slot.lastError = err;
      });
      worker.on('exit', (code) => {
        slots.delete(slot);
        if (settled || slot.terminating) return;
        if (slot.job) {
          const { item, timer } = slot.job;
          if (timer) clearTimeout(timer);
          slot.job = null;
          counts.running--;
          const why = slot.timedOut
            ? `cell timed out after ${((options.cellTimeoutMs ?? 0) / 1000).toFixed(1)} s (worker terminated)${timeoutWhere(slot.beacon, item.cell.params)}`
            : `worker crashed (exit code ${code})${slot.lastError ? ': ' + slot.lastError.message : ''}`;
          try {
            state.failed(item, queue, { name: slot.timedOut ? 'CellTimeout' : 'WorkerCrash', message: why }, {
              startedAt: new Date().toISOString(),
              durationMs: 0,
              attempts: item.tries,
              worker: slot.id,
            });
          } catch (e) {
            return finish(e as Error);
          }
        } else if (!slot.ready) {
          earlyCrashes++;
          if (earlyCrashes > 3) {
            return finish(new Error(`workers keep dying while loading ${modulePath}: ${slot.lastError?.message ?? `exit code ${code}`}`));
          }
        }
        // Replace the lost worker if there is still work for it.
        if (state.stopLevel === 0 && queue.length > 0 && slots.size < size) {
          try {
            spawn();
          } catch (e) {
            return finish(e as Error);
          }
        }
        maybeFinish();
      });
    };
    try {
      for (let i = 0; i < size; i++) spawn();
    } catch (e) {
      finish(e as Error);
    }
    if (state.stopLevel > 0) maybeFinish();
  });
}

function makeReporter(mode: ProgressMode, intervalMs?: number): Reporter | null {
  switch (mode) {
    case 'none':
      return null;
    case 'bar':
      return ttyReporter();
    case 'lines':
      return lineReporter(undefined, intervalMs);
    case 'tslab':
      return tslabReporter();
    case 'auto':
      return tslabReporter() ?? (process.stderr.isTTY ? ttyReporter() : lineReporter(undefined, intervalMs));
    default:
      throw new InputError(`progress must be one of auto, bar, lines, tslab, none; got ${JSON.stringify(mode)}`, { source: 'runSweep', field: 'progress' });
  }
}
