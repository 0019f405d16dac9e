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

export type ProgressMode = 'auto' | 'bar' | 'lines' | 'tslab' | 'none';

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

/**
 * Run (or resume) a sweep. Cells already in the results file are skipped;
 * every finished cell is appended at once, so stopping at any moment (even
 * kill -9) loses at most the cells that were running.
 */
export async function runSweep(sweep: SweepDefinition, options: RunOptions = {}): Promise<SweepSummary> {
  const t0 = performance.now();
  const log = options.log ?? ((m: string) => process.stderr.write(m + '\n'));
  const shard = typeof options.shard === 'string' ? parseShard(options.shard) : options.shard ?? null;
  const shardText = shard ? formatShard(shard) : null;
  const allCells = sweepCells(sweep);
  const sliced = shard ? shardCells(allCells, shard) : allCells;
  const cells = options.where ? filterCells(sliced, options.where) : sliced;
  if (options.out !== undefined && (typeof options.out !== 'string' || options.out.trim() === '')) {
    throw new InputError(`runSweep: out must be a file path, got ${JSON.stringify(options.out)}`, { source: 'runSweep', field: 'out' });
  }
  const out = path.resolve(options.out ?? defaultOutFile(sweep, shard));
  const retries = options.retries ?? 0;
  if (!Number.isInteger(retries) || retries < 0) throw new InputError(`runSweep: retries must be an integer ≥ 0, got ${retries}`, { source: 'runSweep', field: 'retries' });
  const requestedWorkers = options.workers ?? os.availableParallelism();
  if (!Number.isInteger(requestedWorkers) || requestedWorkers < 0) {
    throw new InputError(`runSweep: workers must be an integer ≥ 0, got ${requestedWorkers}`, { source: 'runSweep', field: 'workers' });
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
  const latest = new Map<string, ResultRecord>();
  let pending: Cell[];
  try {
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
    for (const r of latestRecords(existing.records)) latest.set(r.key, r);
    pending = cells.filter((c) => {
      const r = latest.get(c.key);
      return !r || (r.status === 'failed' && options.retryFailed);
    });
  } catch (e) {
    close();
    throw e;
  }
  const skipped = cells.length - pending.length;

  // --- progress -------------------------------------------------------------
  const counts = { ok: 0, failed: 0, running: 0 };
  let interrupted = false;
  const progressNow = (finished: boolean): SweepProgress => {
    const elapsedMs = performance.now() - t0;
    const done = counts.ok + counts.failed;
    const remaining = cells.length - skipped - done;
    const rate = done > 0 ? done / (elapsedMs / 1000) : 0;
    return {
      sweep: sweep.name,
      total: cells.length,
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
      interrupted,
    };
  };
  const reporter = makeReporter(options.progress ?? 'auto', options.progressIntervalMs);
  const emit = (finished = false) => {
    const p = progressNow(finished);
    if (reporter) (finished ? reporter.end(p) : reporter.update(p));
    options.onProgress?.(p);
  };

  // --- recording ------------------------------------------------------------
  const base = { sweep: sweep.name, sweepVersion: sweep.version, definition: sweep.fingerprint, toolkit };
  const record = (
    cell: Cell,
    outcome: { ok: true; result: Json } | { ok: false; error: { name: string; message: string; stack?: string } },
    run: Omit<RunInfo, 'host' | 'pid' | 'shard'>,
  ) => {
    const runInfo: RunInfo = { ...run, host: os.hostname(), pid: process.pid, ...(shardText ? { shard: shardText } : {}) };
    if (!outcome.ok) log(`cell ${cell.key} failed after ${run.attempts} attempt(s): ${outcome.error.name}: ${outcome.error.message}`);
    const entry: Omit<ResultRecord, 'crc'> = outcome.ok
      ? { key: cell.key, ...base, params: cell.params, seed: cell.seed, status: 'ok', result: outcome.result, run: runInfo }
      : {
          key: cell.key,
          ...base,
          params: cell.params,
          seed: cell.seed,
          status: 'failed',
          error: { name: outcome.error.name, message: outcome.error.message },
          run: outcome.error.stack ? { ...runInfo, stack: outcome.error.stack } : runInfo,
        };
    let rec: ResultRecord;
    try {
      rec = writer.append(entry);
    } catch (e) {
      // Stop the run: the cells finished so far are complete lines in the file, and a rerun resumes from them.
      if (!(e instanceof OutputError)) throw e;
      const inScope = new Set(cells.map((c) => c.key));
      const saved = [...latest.keys()].filter((k) => inScope.has(k)).length;
      throw new OutputError(e.operation, e.path, e.cause ?? e, `the ${saved} cell(s) finished before are saved there; free space or fix the folder, then rerun to resume`);
    }
    const prev = latest.get(rec.key);
    if (!prev || !(prev.status === 'ok' && rec.status === 'failed')) latest.set(rec.key, rec);
    if (rec.status === 'ok') counts.ok++;
    else counts.failed++;
    options.onRecord?.(rec);
    emit();
  };

  // --- stopping -------------------------------------------------------------
  let stopLevel = 0; // 0 running, 1 stop dispatching, 2 stop now
  let onStop: (level: number) => void = () => {};
  const requestStop = (level: number) => {
    if (level <= stopLevel) return;
    stopLevel = level;
    interrupted = true;
    onStop(level);
  };
  const sigint = () => {
    if (stopLevel === 0) {
      log(`\n${sweep.name}: interrupted — waiting for ${counts.running} running cell(s) to finish (Ctrl-C again to stop at once)`);
      requestStop(1);
    } else {
      log(`\n${sweep.name}: stopping now; running cells are abandoned and will rerun on resume`);
      requestStop(2);
    }
  };
  const onAbort = () => requestStop(1);
  if (options.handleSigint ?? true) process.on('SIGINT', sigint);
  if (options.signal) {
    if (options.signal.aborted) requestStop(1);
    else options.signal.addEventListener('abort', onAbort);
  }
  const ticker = setInterval(() => emit(), 1000);
  ticker.unref();

  try {
    if (pending.length > 0) {
      const queue: QueueItem[] = pending.map((cell) => ({ cell, tries: 0 }));
      if (requestedWorkers === 0) {
        await runInline(queue);
      } else {
        await runPool(queue, Math.min(requestedWorkers, pending.length));
      }
    }
  } finally {
    clearInterval(ticker);
    process.removeListener('SIGINT', sigint);
    options.signal?.removeEventListener('abort', onAbort);
    close();
  }

  emit(true);
  const records = cells.map((c) => latest.get(c.key)).filter((r): r is ResultRecord => r !== undefined);
  const missing = cells.length - records.length;
  if (interrupted && missing > 0) {
    log(
      `${sweep.name}: stopped with ${cells.length - missing}/${cells.length} cells saved in ${out}. ` +
        `Resume with ${options.resumeHint ?? 'the same runSweep call (same out file)'}: finished cells are skipped.`,
    );
  }
  return {
    sweep: sweep.name,
    out,
    shard: shardText,
    total: cells.length,
    skipped,
    ok: counts.ok,
    failed: counts.failed,
    missing,
    interrupted: interrupted && missing > 0,
    elapsedMs: performance.now() - t0,
    records,
    rows: toRows(records),
    warnings,
  };

  // --- executors --------------------------------------------------------------

  /** A cell that threw: retry it, or record it as failed. */
  function failed(item: QueueItem, queue: QueueItem[], error: ReturnType<typeof describeError>, run: Omit<RunInfo, 'host' | 'pid' | 'shard'>) {
    if (item.tries <= retries && stopLevel === 0) {
      log(`cell ${item.cell.key} failed (attempt ${item.tries} of ${retries + 1}), will retry: ${error.name}: ${error.message}`);
      queue.push(item);
    } else record(item.cell, { ok: false, error }, run);
  }

  async function runInline(queue: QueueItem[]): Promise<void> {
    const fn = cellFunction;
    while (queue.length > 0 && stopLevel === 0) {
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
      if (outcome.ok) record(item.cell, outcome, run);
      else failed(item, queue, outcome.error, run);
      // Let signal handlers run between cells.
      await new Promise((r) => setImmediate(r));
    }
  }

  function runPool(queue: QueueItem[], size: number): Promise<void> {
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
        if (!busy && (queue.length === 0 || stopLevel > 0)) finish();
      };
      onStop = (level) => {
        if (level >= 2) finish();
        else maybeFinish();
      };

      const dispatch = (slot: Slot) => {
        if (settled || slot.job || !slot.ready) return;
        if (stopLevel > 0 || queue.length === 0) return maybeFinish();
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
              if (msg.ok) record(item.cell, { ok: true, result: JSON.parse(msg.result) as Json }, run);
              else failed(item, queue, msg.error, run);
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
              failed(item, queue, { name: slot.timedOut ? 'CellTimeout' : 'WorkerCrash', message: why }, {
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
              return finish(
                new Error(`workers keep dying while loading ${modulePath}: ${slot.lastError?.message ?? `exit code ${code}`}`),
              );
            }
          }
          // Replace the lost worker if there is still work for it.
          if (stopLevel === 0 && queue.length > 0 && slots.size < size) {
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
      if (stopLevel > 0) maybeFinish();
    });
  }
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
