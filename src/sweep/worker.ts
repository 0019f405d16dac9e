/**
 * Worker-thread side of the sweep pool: loads the cell module once, then runs
 * one cell per message and posts back a JSON-safe result or the error.
 */
import { parentPort, workerData } from 'worker_threads';
import { performance } from 'perf_hooks';
import { loadCellFunction, toJsonResult } from './cellmodule';
import { DecisionBeacon, describeDecision, readDecisionBeacon, useDecisionBeacon } from '../util/policy-guard';
import { isModuleExportRef } from '../util/modules';
import { isPortableRef } from '../util/portable';

export interface WorkerInit {
  workerFile: string;
  tsNode: string | null;
  tsNodeOptions?: Record<string, unknown>;
  module: string;
  export: string;
  /** Written by every user policy call of the worker (set by the pool per worker). */
  beacon?: DecisionBeacon;
}

export type ToWorker = { type: 'run'; id: number; params: Record<string, unknown>; seed: number };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'loadError'; message: string }
  | { type: 'done'; id: number; ok: true; result: string; startedAt: string; durationMs: number }
  | {
      type: 'done';
      id: number;
      ok: false;
      error: { name: string; message: string; stack?: string };
      startedAt: string;
      durationMs: number;
    };

/** Serialize a thrown value (which need not be an Error). */
export function describeError(e: unknown): { name: string; message: string; stack?: string } {
  if (e instanceof Error) return { name: e.name, message: e.message, ...(e.stack ? { stack: e.stack } : {}) };
  return { name: 'Error', message: typeof e === 'string' ? e : safeString(e) };
}

/**
 * What a timed-out cell was doing, for its failure message: the policy call in
 * progress when it was stopped (from the worker's beacon), else the policy
 * its parameters name.
 */
export function timeoutWhere(beacon: DecisionBeacon, params: Record<string, unknown>): string {
  const d = readDecisionBeacon(beacon);
  if (d) return ` in ${describeDecision(d)}, running for ${(d.elapsedMs / 1000).toFixed(1)} s`;
  const p = params.policy ?? params.algorithm;
  if (typeof p === 'string') return `; policy ${p}`;
  if (isModuleExportRef(p)) return `; policy ${p.module}#${p.export}`;
  if (isPortableRef(p)) return '; a portable policy';
  return '';
}

function safeString(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

function main(): void {
  const port = parentPort;
  if (!port) return;
  const init = workerData as WorkerInit;
  useDecisionBeacon(init.beacon);
  let fn: (params: any, seed: number) => unknown;
  try {
    fn = loadCellFunction(init.module, init.export);
  } catch (e) {
    port.postMessage({ type: 'loadError', message: (e as Error).message } satisfies FromWorker);
    return;
  }
  port.on('message', async (msg: ToWorker) => {
    if (msg.type !== 'run') return;
    const startedAt = new Date().toISOString();
    const t0 = performance.now();
    let reply: FromWorker;
    try {
      const result = await fn(msg.params, msg.seed);
      reply = { type: 'done', id: msg.id, ok: true, result: toJsonResult(result), startedAt, durationMs: performance.now() - t0 };
    } catch (e) {
      reply = { type: 'done', id: msg.id, ok: false, error: describeError(e), startedAt, durationMs: performance.now() - t0 };
    }
    port.postMessage(reply);
  });
  port.postMessage({ type: 'ready' } satisfies FromWorker);
}

// Only as the pool's own entry (run.ts names this file in workerData): a cell
// module can load another copy of schedlab, whose run.ts imports its own copy
// of this file in the same worker, and two listeners would answer every cell.
if ((workerData as WorkerInit | undefined)?.workerFile === __filename) main();
