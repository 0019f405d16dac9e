/**
 * Batsim JSON workloads: read (delay profiles; other types refused naming
 * the job and the profile), written, and read back.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { batsimWorkloadJson, parseBatsimWorkload } from '../../src/workloads/batsim';
import { generateLublin } from '../../src/workloads/lublin';
import { InputError } from '../../src/util/errors';

/** A workload in the documented form: string ids, delay profiles of both spellings, a walltime shorter than its delay, a parallel profile unused. */
const WORKLOAD = {
  nb_res: 16,
  jobs: [
    { id: 'a', subtime: 10, walltime: 100, res: 4, profile: 'd20' },
    { id: 'b', subtime: 0, res: 16, profile: 'd5' },
    { id: 'c', subtime: 10, walltime: 15, res: 1, profile: 'd20', extra_data: '{"user": 3}' },
    { id: 'd', subtime: 12.5, walltime: -1, res: 2, profile: 'd5' },
  ],
  profiles: {
    d20: { type: 'delay', delay: 20.25 },
    d5: { type: 'DelayProfile', delay: 5 },
    par: { type: 'parallel_homogeneous', cpu: 1e6, com: 0 },
  },
};

function batsimError(doc: unknown): InputError {
  try {
    parseBatsimWorkload(typeof doc === 'string' ? doc : JSON.stringify(doc), 'w.json');
  } catch (e) {
    expect(e).to.be.instanceOf(InputError);
    return e as InputError;
  }
  throw new Error('accepted');
}

const withJob = (change: Record<string, unknown>, i = 0) => ({ ...WORKLOAD, jobs: WORKLOAD.jobs.map((j, k) => (k === i ? { ...j, ...change } : j)) });

describe('Batsim JSON workloads', () => {
  it('reads delay jobs: run time = delay cut at the walltime, sorted by subtime, ids as positions when not numbers', () => {
    const r = parseBatsimWorkload(JSON.stringify(WORKLOAD), 'w.json');
    expect(r.machineSize).to.equal(16);
    expect(r.batsimIds).to.deep.equal(['b', 'a', 'c', 'd']);
    expect(r.profiles).to.deep.equal(['d5', 'd20', 'd20', 'd5']);
    expect(r.jobs).to.deep.equal([
      { id: 2, submit: 0, runtime: 5, procs: 16, status: 1 },
      { id: 1, submit: 10, runtime: 20.25, procs: 4, status: 1, requestedTime: 100 },
      { id: 3, submit: 10, runtime: 15, procs: 1, status: 0, requestedTime: 15 },
      { id: 4, submit: 12.5, runtime: 5, procs: 2, status: 1 },
    ]);
  });

  it('keeps whole-number ids (also workload!n) as job numbers', () => {
    const doc = { ...WORKLOAD, jobs: WORKLOAD.jobs.map((j, i) => ({ ...j, id: i % 2 ? `w0!${40 + i}` : 40 + i })) };
    expect(parseBatsimWorkload(JSON.stringify(doc)).jobs.map((j) => j.id)).to.deep.equal([41, 40, 42, 43]);
  });

  it('refuses other profile types, naming the job and the profile', () => {
    const e = batsimError(withJob({ profile: 'par' }, 2));
    expect(e.message).to.equal("w.json: profiles.par.type: jobs[2] (id c) uses profile 'par' of type \"parallel_homogeneous\": only delay profiles (type 'delay' or 'DelayProfile') give a run time schedlab can simulate");
    expect(e.field).to.equal('profiles.par.type');
  });

  it('names the field of every other mistake', () => {
    const cases: [unknown, string][] = [
      ['{"nb_res": 4,\n "jobs": [\n 1 2]}', 'w.json:3: not valid JSON'],
      ['{"nb_res": 4,\n "jobs": [\n}', 'w.json: not valid JSON'],
      [[], 'w.json: workload: expected a JSON object'],
      [{ ...WORKLOAD, nb_res: 0 }, 'w.json: nb_res: expected a positive whole number'],
      [{ ...WORKLOAD, jobs: {} }, 'w.json: jobs: expected an array'],
      [{ ...WORKLOAD, profiles: [] }, 'w.json: profiles: expected an object'],
      [withJob({ id: null }), 'w.json: jobs[0].id: expected a job id'],
      [withJob({ id: 'b' }), 'w.json: jobs[1].id: job id b is also the id of jobs[0]'],
      [withJob({ subtime: -1 }), 'w.json: jobs[0].subtime: jobs[0] (id a): expected a submission time'],
      [withJob({ res: 2.5 }), 'w.json: jobs[0].res: jobs[0] (id a): expected a positive whole number'],
      [withJob({ res: 17 }), 'w.json: jobs[0].res: jobs[0] (id a): 17 resources on a platform of nb_res 16'],
      [withJob({ walltime: 0 }), 'w.json: jobs[0].walltime: jobs[0] (id a): expected a positive walltime'],
      [withJob({ profile: 'nope' }), "w.json: jobs[0].profile: jobs[0] (id a): profile 'nope' is not defined"],
      [{ ...WORKLOAD, profiles: { ...WORKLOAD.profiles, d5: { type: 'delay', delay: 'x' } } }, "w.json: profiles.d5.delay: jobs[1] (id b) uses profile 'd5', whose delay is not a run time"],
    ];
    for (const [doc, start] of cases) expect(batsimError(doc).message.startsWith(start), batsimError(doc).message).to.equal(true);
  });

  it('on mutated workloads: well-formed jobs or an InputError naming the field, never garbage', () => {
    let rejected = 0;
    fc.assert(
      fc.property(fc.nat(3), fc.constantFrom('id', 'subtime', 'res', 'walltime', 'profile'), fc.jsonValue(), (i, key, value) => {
        let r;
        try {
          r = parseBatsimWorkload(JSON.stringify(withJob({ [key]: value }, i)), 'w.json');
        } catch (e) {
          expect(e).to.be.instanceOf(InputError);
          expect((e as InputError).field).to.match(/^(jobs\[\d\]\.\w+|profiles\.\w+\.\w+)$/);
          rejected++;
          return;
        }
        expect(r.jobs).to.have.length(4);
        expect(new Set(r.jobs.map((j) => j.id)).size).to.equal(4);
        for (const j of r.jobs) {
          expect(Number.isFinite(j.submit) && j.submit >= 0 && Number.isFinite(j.runtime) && j.runtime >= 0).to.equal(true);
          expect(Number.isInteger(j.procs) && j.procs >= 1 && j.procs <= 16).to.equal(true);
          if (j.requestedTime !== undefined) expect(j.requestedTime > 0 && j.runtime <= j.requestedTime).to.equal(true);
        }
      }),
      { numRuns: 400, seed: 5 },
    );
    expect(rejected).to.be.above(200);
  });

  it('writes a workload Batsim reads, and reads it back to the same jobs (walltime raised to the run time)', () => {
    const jobs = generateLublin({ jobs: 200, seed: 3, machineSize: 64 });
    const text = [...batsimWorkloadJson(jobs, { machineSize: 64 })].join('');
    const doc = JSON.parse(text);
    expect(doc.nb_res).to.equal(64);
    expect(doc.jobs).to.have.length(200);
    for (const p of Object.values(doc.profiles) as { type: string; delay: number }[]) expect(p.type).to.equal('delay');
    const back = parseBatsimWorkload(text).jobs;
    expect(back.map((j) => [j.id, j.submit, j.runtime, j.procs])).to.deep.equal(jobs.map((j) => [j.id, j.submit, j.runtime, j.procs]));
    back.forEach((j, i) => expect(j.requestedTime).to.equal(jobs[i].requestedTime === undefined ? undefined : Math.max(jobs[i].requestedTime as number, jobs[i].runtime)));
    expect(() => [...batsimWorkloadJson(jobs, { machineSize: 8 })]).to.throw(InputError, 'on a platform of 8');
  });
});
