/**
 * Invariants of a batch (space-sharing) schedule, checked from the result
 * alone, independently of the scheduler's own bookkeeping: `simulateBatch`
 * calls this when invariant checks are on (see util/invariants.ts), and
 * tests can call it on any schedule.
 */
import { InvariantError } from '../../util/invariants';
import { WorkloadJob } from '../../workloads/job';
import type { BatchJobResult } from './simulate';

/**
 * Throw an InvariantError unless `results` is a valid schedule of `jobs` on
 * `machineSize` processors:
 *  - one result per job, in input order, with the job's id, submit, run time and processors;
 *  - start and end finite, no job starts before its submit time (`batch/release`);
 *  - each job runs exactly its run time: end − start = runtime up to the
 *    rounding of start + runtime (`batch/work`);
 *  - at no instant do running jobs use more than `machineSize` processors
 *    (`batch/capacity`; a job ending at t frees its processors for a job starting at t).
 */
export function verifyBatchSchedule(jobs: readonly WorkloadJob[], results: readonly BatchJobResult[], machineSize: number): void {
  if (results.length !== jobs.length) {
    throw new InvariantError('batch/jobs', `${results.length} results for ${jobs.length} jobs`);
  }
  const n = jobs.length;
  for (let i = 0; i < n; i++) {
    const j = jobs[i];
    const r = results[i];
    const where = { job: j.id, time: r.start };
    if (r.id !== j.id || r.submit !== j.submit || r.procs !== j.procs || r.runtime !== j.runtime) {
      throw new InvariantError('batch/jobs', `result ${i} (${JSON.stringify(r)}) does not describe job ${j.id} (${JSON.stringify(j)})`, where);
    }
    if (!Number.isFinite(r.start) || !Number.isFinite(r.end)) {
      throw new InvariantError('batch/started', `start ${r.start}, end ${r.end}: the job never ran`, where);
    }
    if (r.start < j.submit) throw new InvariantError('batch/release', `started at ${r.start}, before its submit time ${j.submit}`, where);
    // end = start + runtime in floating point: allow the rounding of that one addition.
    if (Math.abs(r.end - r.start - j.runtime) > 2 * Number.EPSILON * Math.max(Math.abs(r.start), Math.abs(r.end))) {
      throw new InvariantError('batch/work', `ran ${r.end - r.start} s (from ${r.start} to ${r.end}), its run time is ${j.runtime} s`, where);
    }
    if (r.wait !== r.start - r.submit) throw new InvariantError('batch/wait', `wait ${r.wait} differs from start − submit = ${r.start - r.submit}`, where);
  }
  // Sweep over start/end events; at equal times ends come first.
  const events = new Float64Array(2 * n);
  const order = new Int32Array(2 * n);
  for (let i = 0; i < n; i++) {
    events[2 * i] = results[i].start;
    events[2 * i + 1] = results[i].end;
    order[2 * i] = 2 * i;
    order[2 * i + 1] = 2 * i + 1;
  }
  const idx = Array.from(order).sort((a, b) => events[a] - events[b] || (b & 1) - (a & 1) || a - b);
  let used = 0;
  for (const e of idx) {
    const i = e >> 1;
    // Zero-length jobs hold no processors (start = end, and the end sorts first).
    if (results[i].end === results[i].start) continue;
    if (e & 1) used -= results[i].procs;
    else {
      used += results[i].procs;
      if (used > machineSize) {
        throw new InvariantError('batch/capacity', `${used} processors in use on a machine of ${machineSize}`, { job: results[i].id, time: events[e] });
      }
    }
  }
}

/**
 * Throw an InvariantError (`batch/processors`) unless every job names exactly
 * `procs` distinct processors in [0, machineSize) and no processor runs two
 * jobs at once (a job ending at t frees its processors for one starting at t).
 */
export function verifyProcessorNames(results: readonly BatchJobResult[], machineSize: number): void {
  const events: [number, number, number][] = []; // time, 0 = end / 1 = start, result index
  results.forEach((r, k) => {
    const ids = r.processors;
    if (!ids || ids.length !== r.procs || new Set(ids).size !== ids.length || ids.some((p) => !Number.isInteger(p) || p < 0 || p >= machineSize)) {
      throw new InvariantError('batch/processors', `names ${ids ? ids.length : 'no'} processors for ${r.procs} (or a duplicate or out-of-range id)`, { job: r.id, time: r.start });
    }
    if (r.end > r.start) events.push([r.start, 1, k], [r.end, 0, k]); // a zero-length job overlaps nothing
  });
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const owner = new Map<number, number>();
  for (const [time, kind, k] of events) {
    const r = results[k];
    for (const p of r.processors as number[]) {
      if (kind === 0) owner.delete(p);
      else if (owner.has(p)) {
        throw new InvariantError('batch/processors', `processor ${p} already runs job ${results[owner.get(p) as number].id}`, { job: r.id, time });
      } else owner.set(p, k);
    }
  }
}
