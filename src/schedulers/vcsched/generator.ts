/**
 * Synthetic VCSched instances (paper section 4.1, parallel jobs section 5.2).
 *
 * Per-task (or per-job) CPU needs and memory requirements are drawn from normal
 * distributions truncated to [0, 1]: by redrawing (default), or by clipping a
 * draw outside [0, 1] to the nearer end (`truncation: 'clip'`, the other
 * reading of the paper's "truncated so that values are between 0 and 1",
 * which puts mass at exactly 0 and 1). The CPU mean is 0.5; the
 * memory mean is (1 - slack) x hosts / tasks, so the expected free memory
 * fraction of the platform is about `slack`. Standard deviation = CV x mean.
 * Instances are not guaranteed to be feasible (as in the paper).
 *
 * Parallel jobs: job sizes (tasks per job) come from the Lublin-Feitelson
 * model's size distribution (two-stage log-uniform biased to powers of two),
 * batch-stream parameters with uHi = log2(64): 1..64 tasks. Jobs are drawn until
 * the task count is reached; the last job is truncated so that the instance has
 * exactly `tasks` tasks (our choice; the paper does not say).
 */
import { Rng, createRng } from '../../util/random';
import { LUBLIN_BATCH, lublinParams, sampleLublinSize } from '../../workloads/lublin';
import { VcInstance, VcJob } from './model';
import { InputError } from '../../util/errors';

/** Parameters of a generated VCSched instance: hosts, tasks, slack, CPU coefficient of variation and mean. */
export interface VcInstanceSpec {
  hosts: number;
  /** Total number of tasks. */
  tasks: number;
  /** Memory slack in (0, 1). */
  slack: number;
  /** Coefficient of variation of memory requirements. */
  memCv: number;
  /** Coefficient of variation of CPU needs. */
  cpuCv: number;
  /** Mean CPU need (default 0.5). */
  cpuMean?: number;
  /** Parallel jobs with Lublin sizes (default false: sequential jobs). */
  parallel?: boolean;
  /** Largest parallel job (default 64). */
  maxJobSize?: number;
  /** How a draw outside [0, 1] is brought inside: 'redraw' (default) or 'clip'. */
  truncation?: VcTruncation;
}

/** The two readings of "truncated so that values are between 0 and 1". */
export type VcTruncation = 'redraw' | 'clip';

/** The small VCSched instance set (solved exactly): 4 hosts, 6 to 12 tasks, 10 instances per spec. */
export const SMALL_SET = { hosts: 4, tasks: [6, 8, 10, 12], instancesPerSpec: 10 } as const;
/** The large VCSched instance set: 64 hosts, 100 to 500 tasks, 100 instances per spec. */
export const LARGE_SET = { hosts: 64, tasks: [100, 250, 500], instancesPerSpec: 100 } as const;
/** Memory slacks of the VCSched instance sets. */
export const SLACKS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] as const;
/** Coefficients of variation of CPU needs in the VCSched instance sets. */
export const CVS = [0.25, 0.75] as const;

function checkSpec(s: VcInstanceSpec): void {
  const bad = (field: string, message: string) => new InputError(`VcInstanceSpec.${field} ${message}`, { source: 'generateVcInstance', field });
  if (s === null || typeof s !== 'object') throw new InputError(`generateVcInstance: spec must be an object, got ${String(s)}`, { source: 'generateVcInstance' });
  if (!Number.isInteger(s.hosts) || s.hosts < 1) throw bad('hosts', `must be a positive integer, got ${s.hosts}`);
  if (!Number.isInteger(s.tasks) || s.tasks < 1) throw bad('tasks', `must be a positive integer, got ${s.tasks}`);
  if (!(s.slack >= 0 && s.slack < 1)) throw bad('slack', `must be in [0, 1), got ${s.slack}`);
  if (!(s.memCv >= 0 && Number.isFinite(s.memCv))) throw bad('memCv', `must be a finite number >= 0, got ${s.memCv}`);
  if (!(s.cpuCv >= 0 && Number.isFinite(s.cpuCv))) throw bad('cpuCv', `must be a finite number >= 0, got ${s.cpuCv}`);
  if (s.cpuMean !== undefined && !(s.cpuMean > 0 && s.cpuMean <= 1)) throw bad('cpuMean', `must be in (0, 1], got ${s.cpuMean}`);
  if (s.truncation !== undefined && s.truncation !== 'redraw' && s.truncation !== 'clip') throw bad('truncation', `must be 'redraw' or 'clip', got ${JSON.stringify(s.truncation)}`);
  if (s.maxJobSize !== undefined && !(Number.isInteger(s.maxJobSize) && s.maxJobSize >= 1)) {
    throw bad('maxJobSize', `must be a positive integer, got ${s.maxJobSize}`);
  }
}

/** One instance from a spec; all randomness from `rng`. */
export function generateVcInstance(spec: VcInstanceSpec, rng: Rng): VcInstance {
  checkSpec(spec);
  const cpuMean = spec.cpuMean ?? 0.5;
  const memMean = ((1 - spec.slack) * spec.hosts) / spec.tasks;
  const value =
    spec.truncation === 'clip'
      ? (mean: number, sd: number) => Math.min(1, Math.max(0, rng.normal(mean, sd)))
      : (mean: number, sd: number) => rng.truncatedNormal(mean, sd, 0, 1);
  const draw = () => ({ cpuNeed: value(cpuMean, spec.cpuCv * cpuMean), mem: value(memMean, spec.memCv * memMean) });
  const jobs: VcJob[] = [];
  if (!spec.parallel) {
    for (let i = 0; i < spec.tasks; i++) jobs.push(draw());
  } else {
    const maxSize = spec.maxJobSize ?? 64;
    const params = lublinParams(LUBLIN_BATCH, { uHi: Math.log2(maxSize), uMed: Math.min(LUBLIN_BATCH.uMed, Math.log2(maxSize)) }, 'VCSched parallel sizes');
    const sizeRng = rng.fork('sizes');
    let left = spec.tasks;
    while (left > 0) {
      const size = Math.min(left, sampleLublinSize(sizeRng, params, maxSize));
      jobs.push({ ...draw(), tasks: size });
      left -= size;
    }
  }
  return { hosts: spec.hosts, jobs };
}

/** All problem specifications of the small (144) or large (108) set. */
export function vcschedSpecs(set: 'small' | 'large', options: { parallel?: boolean; truncation?: VcTruncation } = {}): VcInstanceSpec[] {
  const base = set === 'small' ? SMALL_SET : LARGE_SET;
  const out: VcInstanceSpec[] = [];
  for (const tasks of base.tasks)
    for (const slack of SLACKS)
      for (const memCv of CVS)
        for (const cpuCv of CVS) out.push({ hosts: base.hosts, tasks, slack, memCv, cpuCv, parallel: options.parallel ?? false, ...(options.truncation ? { truncation: options.truncation } : {}) });
  return out;
}

/** A generated VCSched instance with the set, spec and index it came from. */
export interface GeneratedInstance {
  set: string;
  spec: VcInstanceSpec;
  /** Index of the instance within its spec (0-based). */
  index: number;
  instance: VcInstance;
}

/** Stable seed key of one instance: the same instance whatever subset is generated. */
export function instanceKey(set: string, spec: VcInstanceSpec, index: number): string {
  return `vcsched/${set}/${spec.parallel ? 'par' : 'seq'}/${spec.hosts}/${spec.tasks}/${spec.slack}/${spec.memCv}/${spec.cpuCv}/${index}`;
}

/**
 * The instances of a set: `instancesPerSpec` (default: 10 small, 100 large) per
 * spec, each seeded from (seed, its key) so subsets are consistent.
 */
export function vcschedInstanceSet(
  set: 'small' | 'large',
  options: { instancesPerSpec?: number; seed?: number | string; parallel?: boolean; taskCounts?: number[]; slacks?: number[]; truncation?: VcTruncation } = {},
): GeneratedInstance[] {
  const per = options.instancesPerSpec ?? (set === 'small' ? SMALL_SET.instancesPerSpec : LARGE_SET.instancesPerSpec);
  const seed = options.seed ?? 2009;
  const out: GeneratedInstance[] = [];
  for (const spec of vcschedSpecs(set, { parallel: options.parallel, truncation: options.truncation })) {
    if (options.taskCounts && !options.taskCounts.includes(spec.tasks)) continue;
    if (options.slacks && !options.slacks.some((s) => Math.abs(s - spec.slack) < 1e-9)) continue;
    for (let index = 0; index < per; index++) {
      const rng = createRng(`${seed}/${instanceKey(set, spec, index)}`);
      out.push({ set, spec, index, instance: generateVcInstance(spec, rng) });
    }
  }
  return out;
}
