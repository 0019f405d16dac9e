/**
 * FCFS and EASY on DFRS workloads (the batch rows of the DFRS paper's tables),
 * through the shared batch simulator (src/schedulers/batch).
 *
 * In batch mode a job gets whole resources exclusively for its run time. How
 * many, is a choice (the paper only says FCFS/EASY "assign nodes"):
 *  - unit 'node' (synthetic traces): a job of t tasks uses t nodes, the machine
 *    has `nodes` nodes;
 *  - unit 'core' (HPC2N): the job gets back the processors it asked for in the
 *    original log: t × round(cpuNeed × cores) processors on a machine of
 *    nodes × cores processors (a one-core task uses one processor, a
 *    multi-threaded task a whole node).
 * EASY gets perfect run-time knowledge (the paper's assumption).
 *
 * 'FCFS (as published)' and 'EASY (as published)' are the batch rows as the
 * paper's own simulator computed them (a reading of its public code, issue 25):
 *  - every task takes a whole node, HPC2N's one-core tasks too (unit 'node'
 *    whatever `unit` says);
 *  - its EASY never applies the shadow-time rule (the test compares with a
 *    start time not yet set, so it is always false): a job is backfilled only
 *    onto free nodes outside the head's reservation, which takes the nodes that
 *    free up last. Counting nodes, that is the "extra" rule alone (batch
 *    variant 'published'): the free nodes outside such a reservation are
 *    min(free now, free at the shadow time − the head's need).
 */
import { simulateBatch } from '../batch';
import type { BatchAlgorithm } from './names';
import { InputError } from '../../util/errors';
import type { WorkloadJob } from '../../workloads/job';
import type { DfrsJob } from '../../workloads/dfrs';
import type { DfrsJobOutcome } from './simulator';

/** What a batch job of the DFRS comparison occupies: whole nodes or single cores. */
export type BatchUnit = 'node' | 'core';

/** Options of the batch baseline run on DFRS jobs: nodes, cores, batch policy and allocation unit. */
export interface DfrsBatchOptions {
  nodes: number;
  policy: BatchAlgorithm;
  /** Resource unit of the batch machine (default 'node'; the '(as published)' policies always use 'node'). */
  unit?: BatchUnit;
  /** Cores per node, needed for unit 'core'. */
  cores?: number;
}

/** Processors a DFRS job asks a batch scheduler for. */
export function batchProcessors(job: DfrsJob, unit: BatchUnit, cores = 1): number {
  if (unit === 'node') return job.tasks;
  return job.tasks * Math.max(1, Math.round(job.cpuNeed * cores));
}

/** Run FCFS or EASY on a DFRS job list; outcomes have no preemption or migration. */
export function simulateDfrsBatch(jobs: readonly DfrsJob[], options: DfrsBatchOptions): DfrsJobOutcome[] {
  const published = options.policy === 'FCFS (as published)' || options.policy === 'EASY (as published)';
  const unit = published ? 'node' : options.unit ?? 'node';
  const cores = options.cores ?? 1;
  if (unit === 'core' && !(Number.isInteger(cores) && cores >= 1)) {
    throw new InputError(`simulateDfrsBatch: unit 'core' needs cores >= 1, got ${options.cores}`, { source: 'simulateDfrsBatch', field: 'cores' });
  }
  const machineSize = unit === 'node' ? options.nodes : options.nodes * cores;
  const batchJobs: WorkloadJob[] = jobs.map((j, i) => {
    const procs = batchProcessors(j, unit, cores);
    if (procs > machineSize) {
      throw new InputError(`simulateDfrsBatch: job at index ${i} (id ${j.id}) needs ${procs} processors, the machine has ${machineSize}`, {
        source: 'simulateDfrsBatch',
        field: `jobs[${i}].tasks`,
      });
    }
    return { id: j.id, submit: j.submit, runtime: j.runtime, procs, requestedTime: j.estimate ?? j.runtime };
  });
  const easy = options.policy === 'EASY' || options.policy === 'EASY (as published)';
  const res = simulateBatch(batchJobs, { machineSize, policy: easy ? 'easy' : 'fcfs', estimates: 'exact', ...(published && easy ? { variant: 'published' as const } : {}) });
  return res.map((r, i) => ({
    id: r.id,
    submit: r.submit,
    start: r.start,
    completion: r.end,
    runtime: jobs[i].runtime,
    tasks: jobs[i].tasks,
    cpuNeed: jobs[i].cpuNeed,
    mem: jobs[i].mem,
    preemptions: 0,
    migrations: 0,
    tasksPreempted: 0,
    tasksMigrated: 0,
    penaltySeconds: 0,
  }));
}
