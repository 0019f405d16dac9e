/**
 * `schedlab simulate --policy FILE#EXPORT` runs the simulation in a worker
 * thread, so that a policy that never returns can be stopped: every call of
 * the policy writes which decision it is in to a shared beacon
 * (util/policy-guard.ts), and this thread stops the worker when one call has
 * lasted longer than the decision budget, naming the policy, its module,
 * the decision and the simulated time. A throw or a slow call that returns
 * is reported from inside the worker, the same way as in-thread.
 */
import * as path from 'path';
import { isMainThread, parentPort, Worker, workerData } from 'worker_threads';
import { simulateBatchColumns, BatchEstimates, BatchQueueOrder } from '../schedulers/batch/simulate';
import type { BatchPolicySpec } from '../schedulers/batch/policies';
import type { JobColumns } from '../workloads/columns';
import { InputError, PolicyError } from '../util/errors';
import { createDecisionBeacon, DecisionBeacon, setPolicyBudget, useDecisionBeacon, watchDecisions } from '../util/policy-guard';
import { tsNodeOptions, tsNodePath } from '../util/modules';

interface SimulateJob {
  jobs: JobColumns;
  options: { machineSize: number; policy: BatchPolicySpec; estimates: BatchEstimates; order: BatchQueueOrder };
  /** Seconds per decision (0: no limit). */
  budget: number;
  beacon: DecisionBeacon;
  tsNode?: string | null;
  tsNodeOptions?: Record<string, unknown>;
}

type Reply = { ok: true; start: Float64Array } | { ok: false; message: string; input: boolean };

/** The outcome of a run in a worker: start times, or an error message and whether it is the input's fault (exit 2). */
export type WorkerOutcome = Reply;

// Registers ts-node in the worker when this file runs from src/ (tests), then loads it.
const BOOTSTRAP = `
const { workerData } = require('worker_threads');
if (workerData.tsNode) require(workerData.tsNode).register(workerData.tsNodeOptions);
require(workerData.file);
`;

/** Run `simulateBatchColumns` in a worker thread, stopped after `budget` s inside one policy call (0: never). */
export function simulateInWorker(jobs: JobColumns, options: SimulateJob['options'], budget: number): Promise<WorkerOutcome> {
  const beacon = createDecisionBeacon();
  const file = __filename;
  const fromSource = path.extname(file) === '.ts';
  const data: SimulateJob & { file: string } = {
    file,
    jobs,
    options,
    budget,
    beacon,
    ...(fromSource ? { tsNode: tsNodePath(), tsNodeOptions: tsNodeOptions() } : {}),
  };
  return new Promise((resolve) => {
    let done = false;
    const settle = (r: WorkerOutcome) => {
      if (done) return;
      done = true;
      stopWatching();
      resolve(r);
    };
    const worker = new Worker(BOOTSTRAP, { eval: true, workerData: data });
    const stopWatching =
      budget > 0
        ? watchDecisions(beacon, budget, (d) => {
            const err = new PolicyError('no-return', d, `did not return within the decision time budget of ${budget} s (--policy-budget; 0 = off): stopped`);
            settle({ ok: false, message: err.message, input: false });
            void worker.terminate();
          })
        : () => undefined;
    worker.on('message', (r: Reply) => {
      settle(r);
      void worker.terminate();
    });
    worker.on('error', (e) => settle({ ok: false, message: e.message, input: false }));
    worker.on('exit', (code) => settle({ ok: false, message: `the simulation stopped unexpectedly (exit code ${code})`, input: false }));
  });
}

function workerMain(): void {
  const job = workerData as SimulateJob;
  useDecisionBeacon(job.beacon);
  setPolicyBudget(job.budget);
  let reply: Reply;
  try {
    const start = simulateBatchColumns(job.jobs, job.options);
    reply = { ok: true, start };
  } catch (e) {
    reply = { ok: false, message: (e as Error)?.message ?? String(e), input: e instanceof InputError };
  }
  parentPort!.postMessage(reply, reply.ok ? [reply.start.buffer as ArrayBuffer] : []);
}

if (!isMainThread && (workerData as { file?: string } | null)?.file === __filename) workerMain();
