/**
 * A workload as columns of typed arrays: 36 bytes a job instead of the ~100
 * of a `WorkloadJob` object plus its array slot, for traces of millions of
 * jobs (`schedlab simulate` on a file, `simulateBatchColumns`). Only the
 * fields the batch schedulers use are kept.
 */
import { WorkloadJob } from './job';
import { InputError } from '../util/errors';

export interface JobColumns {
  readonly length: number;
  readonly id: Float64Array;
  readonly submit: Float64Array;
  readonly runtime: Float64Array;
  readonly procs: Int32Array;
  /** Requested time (SWF field 9); NaN where the job has none. */
  readonly requestedTime: Float64Array;
}

/** Receives the 18 SWF fields of each kept job line (the SWF reader's columnar mode). */
export interface SwfJobSink {
  add(fields: ArrayLike<number>): void;
  /** The number of jobs the header announces (MaxRecords), before the first one is added. */
  expect?(jobs: number): void;
}

/** Builds `JobColumns` one job at a time, growing its arrays by half when full. */
export class JobColumnsBuilder implements SwfJobSink {
  /** `maxExpected`: the most jobs an announced count is believed for (0: announcements are ignored). */
  constructor(private readonly maxExpected = 0) {}

  private n = 0;
  private id = new Float64Array(1024);
  private submit = new Float64Array(1024);
  private runtime = new Float64Array(1024);
  private procs = new Int32Array(1024);
  private requested = new Float64Array(1024);

  get length(): number {
    return this.n;
  }

  /** Add a job from its SWF fields (0 id, 1 submit, 3 run time, 4 processors, 8 requested time; −1 = missing). */
  add(v: ArrayLike<number>): void {
    this.push(v[0], v[1], v[3], v[4], v[8] === -1 ? NaN : v[8]);
  }

  push(id: number, submit: number, runtime: number, procs: number, requestedTime = NaN): void {
    if (this.n === this.id.length) this.grow();
    const i = this.n++;
    this.id[i] = id;
    this.submit[i] = submit;
    this.runtime[i] = runtime;
    this.procs[i] = procs;
    this.requested[i] = requestedTime;
  }

  /**
   * Room for `jobs` in all, allocated once: a trace whose header gives its
   * count is read without growing and handed over without a copy (fresh
   * memory is a large part of reading a trace).
   */
  expect(jobs: number): void {
    if (this.n === 0 && jobs > this.id.length && jobs <= this.maxExpected) this.grow(jobs);
  }

  private grow(size = Math.ceil(this.id.length * 1.5)): void {
    // ×1.5 rather than ×2: the peak while copying is 2.5 columns' worth, not 3.
    const f64 = (a: Float64Array) => {
      const b = new Float64Array(size);
      b.set(a);
      return b;
    };
    this.id = f64(this.id);
    this.submit = f64(this.submit);
    this.runtime = f64(this.runtime);
    this.requested = f64(this.requested);
    const p = new Int32Array(size);
    p.set(this.procs);
    this.procs = p;
  }

  /** The columns, trimmed to the jobs added (copied one at a time, so the slack is freed as it goes). */
  finish(): JobColumns {
    const n = this.n;
    if (n === this.id.length) {
      const whole = { length: n, id: this.id, submit: this.submit, runtime: this.runtime, procs: this.procs, requestedTime: this.requested };
      this.id = this.submit = this.runtime = this.requested = new Float64Array(0);
      this.procs = new Int32Array(0);
      this.n = 0;
      return whole;
    }
    const id = this.id.slice(0, n);
    this.id = new Float64Array(0);
    const submit = this.submit.slice(0, n);
    this.submit = new Float64Array(0);
    const runtime = this.runtime.slice(0, n);
    this.runtime = new Float64Array(0);
    const procs = this.procs.slice(0, n);
    this.procs = new Int32Array(0);
    const requestedTime = this.requested.slice(0, n);
    this.requested = new Float64Array(0);
    this.n = 0;
    return { length: n, id, submit, runtime, procs, requestedTime };
  }
}

/** Columns of job objects. */
export function toColumns(jobs: readonly WorkloadJob[]): JobColumns {
  const b = new JobColumnsBuilder();
  for (const j of jobs) b.push(j.id, j.submit, j.runtime, j.procs, j.requestedTime ?? NaN);
  return b.finish();
}

/** Job `i` of the columns as an object (fields the columns keep). */
export function columnJob(c: JobColumns, i: number): WorkloadJob {
  const job: WorkloadJob = { id: c.id[i], submit: c.submit[i], runtime: c.runtime[i], procs: c.procs[i] };
  if (!Number.isNaN(c.requestedTime[i])) job.requestedTime = c.requestedTime[i];
  return job;
}

/** True for `JobColumns` (as opposed to an array of jobs). */
export function isJobColumns(x: unknown): x is JobColumns {
  return x !== null && typeof x === 'object' && !Array.isArray(x) && (x as JobColumns).submit instanceof Float64Array;
}

/**
 * Offered load of columns: exactly `offeredLoadIfDefined` of the same jobs
 * (same summation order), or undefined for fewer than 2 jobs or a span of 0.
 */
export function columnsOfferedLoad(c: JobColumns, machineSize: number): number | undefined {
  let lo = Infinity;
  let hi = -Infinity;
  let work = 0;
  for (let i = 0; i < c.length; i++) {
    const s = c.submit[i];
    if (s < lo) lo = s;
    if (s > hi) hi = s;
    work += c.runtime[i] * c.procs[i];
  }
  return hi > lo ? work / (machineSize * (hi - lo)) : undefined;
}

/**
 * Columns with inter-arrival times scaled so the offered load becomes
 * `targetLoad`: exactly `scaleToLoad` of the same jobs (offsets from the
 * earliest submit time scaled; unsorted jobs keep their order).
 */
export function columnsScaledToLoad(c: JobColumns, machineSize: number, targetLoad: number): JobColumns {
  if (!(targetLoad > 0)) throw new InputError(`scaleToLoad: targetLoad must be > 0, got ${targetLoad}`, { source: 'scaleToLoad' });
  if (!(machineSize > 0)) throw new InputError(`offeredLoad: machineSize must be > 0, got ${machineSize}`, { source: 'offeredLoad' });
  const load = columnsOfferedLoad(c, machineSize);
  if (load === undefined) {
    if (c.length < 2) throw new InputError(`offeredLoad: needs at least 2 jobs, got ${c.length}`, { source: 'offeredLoad' });
    throw new InputError('offeredLoad: all jobs are submitted at the same time (span 0)', { source: 'offeredLoad' });
  }
  const factor = load / targetLoad;
  const submit = new Float64Array(c.length);
  let first = Infinity;
  for (let i = 0; i < c.length; i++) if (c.submit[i] < first) first = c.submit[i];
  for (let i = 0; i < c.length; i++) submit[i] = first + (c.submit[i] - first) * factor;
  return { ...c, submit };
}
