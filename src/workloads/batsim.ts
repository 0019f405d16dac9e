/**
 * Batsim JSON workloads (Batsim documentation, "Workload"): an object with
 * `nb_res` (positive integer), `jobs` (array) and `profiles` (object). A
 * job has `id` (string or number), `subtime` (s), `res` (positive integer),
 * `profile` (a key of `profiles`) and optionally `walltime` (s, relative to
 * the start; jobs running longer are killed).
 *
 * Reading rules (documented choices):
 *  - Only `delay` profiles (type `delay`, or `DelayProfile` in newer Batsim)
 *    give a run time: `delay` seconds, cut to the walltime when that is
 *    shorter (Batsim kills the job then: status 0, else 1). A job whose
 *    profile has another type is refused, naming the job and the profile.
 *  - Job numbers: the ids when every id is a whole number (a JSON number or
 *    digits, also as `workload!12`) and no two are equal; otherwise 1, 2, 3 …
 *    in file order. `batsimIds` keeps each id as written (as text).
 *  - Jobs are sorted by subtime (ties: file order); times are kept as given
 *    (not shifted to start at 0).
 *  - `walltime` -1 or absent means none (the requested time is left out).
 *  - Other job and profile fields are ignored. JSON is read whole (the
 *    format is one document); at most 1 GiB.
 *  - Bad input is an {@link InputError} naming the file and the field
 *    (`jobs[3].res`, `profiles.p1.delay`); a JSON syntax error names the line
 *    when the JSON parser gives its position.
 */
import { WorkloadJob } from './job';
import { InputError } from '../util/errors';
import { readUncompressedSync } from './swf';

/** A Batsim JSON workload read as jobs, with the machine size (`nb_res`). */
export interface BatsimReadResult {
  /** Resources of the platform the workload was made for (`nb_res`). */
  machineSize: number;
  jobs: WorkloadJob[];
  /** Each job's Batsim id, as text, aligned with `jobs`. */
  batsimIds: string[];
  /** Each job's profile name, aligned with `jobs`. */
  profiles: string[];
}

const DELAY_TYPES = new Set(['delay', 'DelayProfile']);

/** Parse a Batsim JSON workload held in memory; `fileName` names it in errors. */
export function parseBatsimWorkload(text: string, fileName = '<batsim>'): BatsimReadResult {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const pos = /position (\d+)/.exec(msg);
    const line = pos ? text.slice(0, Number(pos[1])).split(/\r\n|\r|\n/).length : undefined;
    throw new InputError(`${fileName}${line ? `:${line}` : ''}: not valid JSON: ${msg}`, { source: fileName, ...(line ? { line } : {}), field: 'json' });
  }
  const bad = (field: string, detail: string) => new InputError(`${fileName}: ${field}: ${detail}`, { source: fileName, field });
  if (!isObject(doc)) throw bad('workload', 'expected a JSON object with nb_res, jobs and profiles');
  const nbRes = doc.nb_res;
  if (!(typeof nbRes === 'number' && Number.isInteger(nbRes) && nbRes > 0 && nbRes <= 2 ** 31 - 1)) throw bad('nb_res', `expected a positive whole number of resources, got ${show(nbRes)}`);
  if (!Array.isArray(doc.jobs)) throw bad('jobs', `expected an array of jobs, got ${show(doc.jobs)}`);
  if (!isObject(doc.profiles)) throw bad('profiles', `expected an object of profiles by name, got ${show(doc.profiles)}`);
  const profiles = doc.profiles;

  const rows: { job: WorkloadJob; id: string; profile: string; order: number }[] = [];
  const seen = new Map<string, number>();
  doc.jobs.forEach((j: unknown, i: number) => {
    const at = `jobs[${i}]`;
    if (!isObject(j)) throw bad(at, `expected a job object, got ${show(j)}`);
    const id = j.id;
    if (!((typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isFinite(id)))) throw bad(`${at}.id`, `expected a job id (string or number), got ${show(id)}`);
    const idText = String(id);
    const name = `${at} (id ${idText})`;
    const earlier = seen.get(idText);
    if (earlier !== undefined) throw bad(`${at}.id`, `job id ${idText} is also the id of jobs[${earlier}]`);
    seen.set(idText, i);
    const subtime = j.subtime;
    if (!(typeof subtime === 'number' && Number.isFinite(subtime) && subtime >= 0 && subtime <= 2 ** 40)) throw bad(`${at}.subtime`, `${name}: expected a submission time in seconds (0 to 2^40), got ${show(subtime)}`);
    const res = j.res;
    if (!(typeof res === 'number' && Number.isInteger(res) && res > 0)) throw bad(`${at}.res`, `${name}: expected a positive whole number of resources, got ${show(res)}`);
    if (res > nbRes) throw bad(`${at}.res`, `${name}: ${res} resources on a platform of nb_res ${nbRes}`);
    const wall = j.walltime;
    if (wall !== undefined && wall !== -1 && !(typeof wall === 'number' && Number.isFinite(wall) && wall > 0 && wall <= 2 ** 40)) throw bad(`${at}.walltime`, `${name}: expected a positive walltime in seconds (or -1 for none), got ${show(wall)}`);
    const profileName = j.profile;
    if (typeof profileName !== 'string') throw bad(`${at}.profile`, `${name}: expected a profile name, got ${show(profileName)}`);
    if (!Object.prototype.hasOwnProperty.call(profiles, profileName)) throw bad(`${at}.profile`, `${name}: profile '${profileName}' is not defined in profiles`);
    const p = profiles[profileName];
    if (!isObject(p)) throw bad(`profiles.${profileName}`, `expected a profile object, got ${show(p)}`);
    if (!DELAY_TYPES.has(p.type as string)) {
      throw bad(`profiles.${profileName}.type`, `${name} uses profile '${profileName}' of type ${show(p.type)}: only delay profiles (type 'delay' or 'DelayProfile') give a run time schedlab can simulate`);
    }
    const delay = p.delay;
    if (!(typeof delay === 'number' && Number.isFinite(delay) && delay >= 0 && delay <= 2 ** 40)) throw bad(`profiles.${profileName}.delay`, `${name} uses profile '${profileName}', whose delay is not a run time in seconds: ${show(delay)}`);
    const walltime = typeof wall === 'number' && wall > 0 ? wall : undefined;
    const killed = walltime !== undefined && delay > walltime;
    const job: WorkloadJob = { id: 0, submit: subtime, runtime: killed ? (walltime as number) : delay, procs: res, status: killed ? 0 : 1 };
    if (walltime !== undefined) job.requestedTime = walltime;
    rows.push({ job, id: idText, profile: profileName, order: i });
  });

  // Whole-number ids (also `workload!12`) when all are and none repeats; else positions.
  const numeric = rows.map((r) => {
    const m = /^(?:.*!)?(\d{1,15})$/.exec(r.id);
    return m ? Number(m[1]) : NaN;
  });
  const useIds = numeric.every((x) => !Number.isNaN(x)) && new Set(numeric).size === numeric.length;
  rows.forEach((r, i) => (r.job.id = useIds ? numeric[i] : i + 1));
  rows.sort((a, b) => a.job.submit - b.job.submit || a.order - b.order);
  return { machineSize: nbRes, jobs: rows.map((r) => r.job), batsimIds: rows.map((r) => r.id), profiles: rows.map((r) => r.profile) };
}

/** Read a Batsim JSON workload file (plain or gzip). */
export function readBatsimWorkload(path: string): BatsimReadResult {
  return parseBatsimWorkload(readUncompressedSync(path, 'readBatsimWorkload').toString('utf8'), path);
}

/** Options of {@link batsimWorkloadJson}. */
export interface BatsimWorkloadOptions {
  /** `nb_res`: resources of the platform. */
  machineSize: number;
  /** Job ids to write (default: the job numbers), aligned with the jobs. */
  ids?: readonly string[];
  /** Text for the workload's `description` field. */
  description?: string;
}

/**
 * A workload as Batsim JSON, one piece at a time (write it with
 * `writeFileSafely`). Each job gets a delay profile of its run time
 * (`delay<run time>`, shared by jobs of equal run time) and, when it has a
 * requested time, `walltime` = max(requested time, run time): Batsim kills a
 * job at its walltime, while schedlab's batch schedulers (and the traces'
 * own logs) let it run, so the walltime is raised as schedlab's `requested`
 * estimates are.
 */
export function* batsimWorkloadJson(jobs: readonly WorkloadJob[], options: BatsimWorkloadOptions): Generator<string> {
  const { machineSize, ids } = options;
  if (!(Number.isInteger(machineSize) && machineSize > 0)) throw new InputError(`batsimWorkloadJson: machineSize must be a positive integer, got ${machineSize}`, { source: 'batsimWorkloadJson', field: 'machineSize' });
  if (ids && ids.length !== jobs.length) throw new InputError(`batsimWorkloadJson: ${ids.length} ids for ${jobs.length} jobs`, { source: 'batsimWorkloadJson', field: 'ids' });
  yield `{\n  "nb_res": ${machineSize},\n`;
  if (options.description !== undefined) yield `  "description": ${JSON.stringify(options.description)},\n`;
  yield '  "jobs": [';
  const delays = new Set<number>();
  for (let i = 0; i < jobs.length; i++) {
    const j = jobs[i];
    if (j.procs > machineSize) throw new InputError(`batsimWorkloadJson: job ${j.id} needs ${j.procs} resources on a platform of ${machineSize}`, { source: 'batsimWorkloadJson', field: `jobs[${i}].procs` });
    delays.add(j.runtime);
    const wall = j.requestedTime !== undefined && j.requestedTime > 0 ? `, "walltime": ${Math.max(j.requestedTime, j.runtime)}` : '';
    yield `${i === 0 ? '' : ','}\n    {"id": ${JSON.stringify(ids ? ids[i] : String(j.id))}, "subtime": ${j.submit}, "res": ${j.procs}${wall}, "profile": "${delayProfile(j.runtime)}"}`;
  }
  yield '\n  ],\n  "profiles": {';
  let first = true;
  for (const d of [...delays].sort((a, b) => a - b)) {
    yield `${first ? '' : ','}\n    "${delayProfile(d)}": {"type": "delay", "delay": ${d}}`;
    first = false;
  }
  yield '\n  }\n}\n';
}

/** The name of the delay profile of a run time. */
export const delayProfile = (runtime: number): string => `delay${runtime}`;

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function show(x: unknown): string {
  if (x === undefined) return 'nothing';
  const s = JSON.stringify(x);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}
