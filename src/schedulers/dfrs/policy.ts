/**
 * The open DFRS policy interface: a user replaces any of the three parts of
 * a DFRS algorithm (priority, mapper, CPU allocation) with a function of a
 * read-only view of the system, and the engine checks what it returns.
 *
 * A policy object, as in pybatsim, overrides only what it changes:
 *   { name, priority?(job, time), map?(view), periodic?, allocate?(view) }
 * The parts it leaves out come from the algorithm name given beside it
 * (`simulateDfrs(jobs, { algorithm, policy })`).
 */
import { InputError } from '../../util/errors';
import { InvariantError } from '../../util/invariants';
import { isPolicyRef, loadPolicyRef, PolicyRef } from '../../util/modules';
import { CAPACITY_EPSILON } from '../packing';
import { jobPriority } from './mapping';

/** A job as a policy sees it (a copy: writing to it changes nothing). */
export interface DfrsJobView {
  id: number;
  submit: number;
  tasks: number;
  cpuNeed: number;
  mem: number;
  /** Time since submission, seconds. */
  flowTime: number;
  /** Integral of the job's yield, seconds. */
  virtualTime: number;
  /** The policy's priority of the job at this decision (higher runs first). */
  priority: number;
  /** Node of each task while running, null while waiting. */
  nodes: number[] | null;
  /** CPU fraction per CPU need the job gets now (0 while waiting). */
  yield: number;
}

/** What a policy sees at a decision (a copy). */
export interface DfrsDecisionView {
  time: number;
  /** Number of nodes (node indices are 0 .. nodeCount - 1). */
  nodeCount: number;
  trigger: 'submission' | 'completion' | 'periodic';
  /** The submitted job (trigger 'submission'). */
  submitted?: DfrsJobView;
  /** Every job in the system (submitted, not finished), by decreasing priority, ties by submission. */
  jobs: DfrsJobView[];
  /** Per node: memory used and CPU load (sum of the CPU needs of its tasks) under the current mapping. */
  usage: { mem: Float64Array; load: Float64Array };
}

/** Job id → node of each of its tasks. Jobs left out wait (running ones are paused). */
export type DfrsMapping = ReadonlyMap<number, ArrayLike<number>>;

/** A DFRS policy: any of the three parts, the others coming from the algorithm name. */
export interface DfrsPolicy {
  name: string;
  /** Priority of a job (higher first). Default: the paper's flow time / virtual time² (infinite before the first run). */
  priority?(job: Readonly<Omit<DfrsJobView, 'priority'>>, time: number): number;
  /**
   * The mapping after a submission, a completion or a periodic tick, or
   * undefined to keep the current one. Default: the algorithm name's mappers.
   */
  map?(view: DfrsDecisionView): DfrsMapping | undefined;
  /** With `map`: also call it every scheduling period (default false). */
  periodic?: boolean;
  /**
   * Yield of every running job (`view.jobs` with nodes), as job id → yield:
   * a task then gets yield × cpuNeed of its node's CPU. Default: the name's opt=.
   */
  allocate?(view: DfrsDecisionView): ReadonlyMap<number, number>;
}

/** A policy object or `{ module, export }` naming one (sweep cells in worker threads). */
export type DfrsPolicySpec = DfrsPolicy | PolicyRef;

/** The paper's priority (section 4.1): flow time / virtual time², infinite before the job first runs. */
export function paperPriority(job: { flowTime: number; virtualTime: number }): number {
  return jobPriority(job.flowTime, job.virtualTime);
}

/** The policy object of a spec; throws an InputError naming the source when it is not usable. */
export function resolveDfrsPolicy(spec: DfrsPolicySpec, source = 'simulateDfrs'): DfrsPolicy {
  const loaded = isPolicyRef(spec) ? loadPolicyRef(spec) : { value: spec, where: source };
  const where = loaded.where;
  const p = loaded.value as Partial<DfrsPolicy> | null;
  if (p === null || typeof p !== 'object') throw new InputError(`${where}: a DFRS policy must be an object, got ${String(p)}`, { source: where, field: 'policy' });
  if (typeof p.name !== 'string' || p.name === '') throw new InputError(`${where}: a DFRS policy needs a non-empty string 'name'`, { source: where, field: 'policy.name' });
  for (const m of ['priority', 'map', 'allocate'] as const) {
    if (p[m] !== undefined && typeof p[m] !== 'function') throw new InputError(`${where}: policy '${p.name}': ${m} must be a function`, { source: where, field: `policy.${m}` });
  }
  if (p.periodic !== undefined && typeof p.periodic !== 'boolean') throw new InputError(`${where}: policy '${p.name}': periodic must be a boolean`, { source: where, field: 'policy.periodic' });
  if (p.periodic && !p.map) throw new InputError(`${where}: policy '${p.name}': periodic needs map`, { source: where, field: 'policy.periodic' });
  return p as DfrsPolicy;
}

/** A job the engine knows, for checking a mapping. */
export interface MappableJob {
  id: number;
  submit: number;
  tasks: number;
  mem: number;
  submitted: boolean;
  done: boolean;
}

/**
 * Check a policy's mapping and return it as node arrays: every job known,
 * submitted and unfinished (`dfrs/policy`, `dfrs/release`), one integer node
 * in range per task (`dfrs/tasks`, `dfrs/node`), memory per node at most 1
 * (`dfrs/memory`). Errors start with `policy <name>:` and name job and time.
 */
export function checkPolicyMapping(
  policy: string,
  mapping: unknown,
  byId: (id: number) => MappableJob | undefined,
  nodeCount: number,
  time: number,
): Map<number, Int32Array> {
  const who = `policy ${policy}`;
  if (!(mapping instanceof Map)) throw new InvariantError('dfrs/policy', `${who}: map() must return a Map of job id to nodes or undefined, got ${String(mapping)}`, { time });
  const out = new Map<number, Int32Array>();
  const mem = new Float64Array(nodeCount);
  for (const [id, nodes] of mapping as Map<unknown, unknown>) {
    const j = byId(id as number);
    if (!j) throw new InvariantError('dfrs/policy', `${who}: mapped job ${String(id)} is not in the workload`, { job: String(id), time });
    if (!j.submitted || time < j.submit) throw new InvariantError('dfrs/release', `${who}: mapped at ${time}, before its submission at ${j.submit}`, { job: j.id, time });
    if (j.done) throw new InvariantError('dfrs/policy', `${who}: mapped a finished job`, { job: j.id, time });
    const list = nodes as ArrayLike<number> | null;
    if (list === null || typeof list !== 'object' || list.length !== j.tasks) {
      throw new InvariantError('dfrs/tasks', `${who}: ${list && typeof list === 'object' ? list.length : 'no'} nodes for ${j.tasks} tasks`, { job: j.id, time });
    }
    const arr = new Int32Array(j.tasks);
    for (let k = 0; k < j.tasks; k++) {
      const n = list[k];
      if (!(Number.isInteger(n) && n >= 0 && n < nodeCount)) throw new InvariantError('dfrs/node', `${who}: task ${k} on node ${n}, outside 0..${nodeCount - 1}`, { job: j.id, time });
      arr[k] = n;
      mem[n] += j.mem;
      if (mem[n] > 1 + CAPACITY_EPSILON) throw new InvariantError('dfrs/memory', `${who}: node ${n} memory at ${(mem[n] * 100).toFixed(6)}% (> 100%)`, { job: j.id, node: n, time });
    }
    out.set(j.id, arr);
  }
  return out;
}
