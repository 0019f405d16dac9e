/**
 * Bad input in the paper families: scheduler names, generator parameters,
 * instance shapes, simulation options. Every case must be rejected with an
 * InputError (src/util/errors.ts) whose `field` names what is wrong and
 * whose message says where (`source`). A seeded fuzz mutates valid DFRS
 * names: each mutant either parses (and round-trips) or is rejected that way.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { InputError, SchedlabError } from '../../src/util/errors';
import { parseAlgorithm, formatAlgorithm, allAlgorithmNames, simulateDfrs, simulateDfrsBatch, degradationFromBound, underutilization } from '../../src/schedulers/dfrs';
import type { DfrsJob } from '../../src/workloads/dfrs';
import {
  VcInstance,
  runVcschedHeuristic,
  solveVcschedExact,
  solveVcschedMilp,
  solveVcschedLp,
  generateVcInstance,
  VcInstanceSpec,
  VcHeuristic,
  runLp,
} from '../../src/schedulers/vcsched';
import { packVectors, maximizeMinYield } from '../../src/schedulers/packing';
import {
  simulateReservations,
  ReservationRequest,
  ReservationPolicy,
  toReservationRequests,
  lublinReservationRequests,
  traceReservationRequests,
  lanlCm5SizeParams,
  runtimeClassCuts,
  AvailabilityProfile,
  confidenceInterval95,
} from '../../src/schedulers/reservation';
import { simulateTwoTier, TwoTierJob, TwoTierOptions, assignCpuUsage, batchMeans } from '../../src/schedulers/twotier';
import { generateFeitelson96, calibrateFeitelson96, FEITELSON96_PARAMS, MEASY_FWLOAD_TARGETS } from '../../src/workloads/feitelson96';
import { generateJann97, JANN97_PARAMS, Jann97Params } from '../../src/workloads/jann97';
import { tsafrirEstimates } from '../../src/workloads/tsafrir05';
import { createRng } from '../../src/util/random';
import { record } from './tally';

type Case = [label: string, run: () => unknown, field: string | RegExp];

/**
 * Run every case: each must throw an InputError (a SchedlabError) whose
 * `field` matches and whose message names the source. Returns the count.
 */
function expectRejected(cases: Case[]): number {
  for (const [label, run, field] of cases) {
    let err: unknown;
    try {
      run();
    } catch (e) {
      err = e;
    }
    expect(err, `${label}: accepted`).to.be.instanceOf(InputError);
    const e = err as InputError;
    expect(e, label).to.be.instanceOf(SchedlabError);
    if (typeof field === 'string') expect(e.field, `${label}: ${e.message}`).to.equal(field);
    else expect(e.field, `${label}: ${e.message}`).to.match(field);
    expect(e.source, label).to.be.a('string').and.not.equal('');
    expect(e.message.startsWith(e.source), `${label}: message "${e.message}" does not start with its source`).to.equal(true);
  }
  return cases.length;
}

const job = (over: Partial<DfrsJob> = {}): DfrsJob => ({ id: 1, submit: 0, runtime: 100, tasks: 1, cpuNeed: 0.5, mem: 0.2, ...over });

describe('hardening (papers): bad input is rejected with a typed error naming what and where', () => {
  it('DFRS algorithm names: typos, unknown tokens, bad numbers, impossible combinations', () => {
    const bad: [string, string][] = [
      // [name, offending part reported as `field`]
      ['GreedPM */per/opt=min/minvt=600', 'GreedPM *'],
      ['GreedyPM */pr/opt=min/minvt=600', 'pr'],
      ['GreedyPM */per/opt=mn/minvt=600', 'opt=mn'],
      ['GreedyPM */per/opt=min/minvt=6OO', 'minvt=6OO'],
      ['GreedyPM */per/opt=min/minvt=-600', 'minvt=-600'],
      ['GreedyPM */per/opt=min/minvt=0', 'minvt=0'],
      ['GreedyPM */per/opt=min/minvt=1e3', 'minvt=1e3'],
      ['GreedyPM */per/opt=min/minvt=', 'minvt='],
      ['GreedyPM */per/opt=min/minvt=600/minvt=600', 'minvt=600'],
      ['GreedyPM */per/opt=min/minvt=600/minft=300', 'minft=300'],
      ['GreedyPM */per/opt=min/maxvt=600', 'maxvt=600'],
      ['GreedyPM */per/opt=min/minvt=600/', ''],
      ['GreedyPM **/per', 'GreedyPM **'],
      ['GreedyPM * */per', 'GreedyPM * *'],
      ['MCB9 */per', 'MCB9 *'],
      ['mcb8 */per', 'mcb8 *'],
      ['greedy *', 'greedy *'],
      ['Greedy', 'Greedy'],
      ['MCB8', 'MCB8'],
      ['', ''],
      ['/', ''],
      ['*/per', '*'],
      ['/per/period=0', 'period=0'],
      ['/per/period=abc', 'period=abc'],
      ['Greedy */period=900', 'period=900'],
      ['Greedy */opt=min/minvt=600', 'minvt=600'],
      ['/stretch-per/opt=min', 'opt=min'],
      ['/per/opt=max', 'opt=max'],
      ['GreedyP */stretch-per', 'GreedyP *'],
      ['/opt=min/per', 'per'],
      ['Greedy */per/per', 'per'],
      ['GreedyPM */per/opt=min minvt=600', 'opt=min minvt=600'],
    ];
    const n = expectRejected(bad.map(([name, part]): Case => [`"${name}"`, () => parseAlgorithm(name), part]));
    // the source is the whole name, so a message always shows it
    expect(() => parseAlgorithm('GreedPM */per')).to.throw(/^algorithm name "GreedPM \*\/per": unknown submission policy "GreedPM"/);
    const m = expectRejected([
      ['a number', () => parseAlgorithm(42 as unknown as string), 'name'],
      ['undefined', () => parseAlgorithm(undefined as unknown as string), 'name'],
      ['through simulateDfrs', () => simulateDfrs([job()], { nodes: 1, algorithm: 'GreedyPM */per/opt=min/minvt=6OO' }), 'minvt=6OO'],
    ]);
    record({ family: 'DFRS', kind: 'malformed algorithm names (typos, unknown tokens, bad numbers, repeats, non-Table-1 combinations)', cases: n + m, outcome: 'InputError naming the name and the offending part' });
  });

  it('DFRS algorithm names: a seeded fuzz of mutated valid names either parses and round-trips or is rejected with an InputError', () => {
    const valid = allAlgorithmNames();
    const alphabet = 'GreedyPMCB8 */=permintvfaxsch-0123456789.';
    let parsed = 0;
    let rejected = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...valid),
        fc.array(fc.record({ op: fc.constantFrom('insert', 'delete', 'replace'), at: fc.nat(), ch: fc.constantFrom(...alphabet.split('')) }), { minLength: 1, maxLength: 3 }),
        (name, edits) => {
          let s = name;
          for (const { op, at, ch } of edits) {
            const k = s.length === 0 ? 0 : at % (s.length + (op === 'insert' ? 1 : 0));
            if (op === 'insert') s = s.slice(0, k) + ch + s.slice(k);
            else if (op === 'delete') s = s.slice(0, k) + s.slice(k + 1);
            else s = s.slice(0, k) + ch + s.slice(k + 1);
          }
          let alg;
          try {
            alg = parseAlgorithm(s);
          } catch (e) {
            expect(e, `"${s}": ${String(e)}`).to.be.instanceOf(InputError);
            expect((e as InputError).source).to.equal(`algorithm name "${s}"`);
            rejected++;
            return;
          }
          parsed++;
          // what parses means one thing: its canonical name parses to the same algorithm
          expect(parseAlgorithm(alg.name), s).to.deep.equal(alg);
          expect(formatAlgorithm(alg)).to.equal(alg.name);
        },
      ),
      { numRuns: 3000, seed: 2301 },
    );
    expect(rejected).to.be.greaterThan(0);
    record({ family: 'DFRS', kind: 'fuzzed algorithm names (1-3 random edits of the 116 appendix names)', cases: parsed + rejected, outcome: `${rejected} rejected with InputError, ${parsed} parsed and round-tripped` });
  });

  it('DFRS simulation options and job lists', () => {
    const n = expectRejected([
      ['nodes 0', () => simulateDfrs([job()], { nodes: 0, algorithm: 'Greedy */opt=min' }), 'nodes'],
      ['nodes 1.5', () => simulateDfrs([job()], { nodes: 1.5, algorithm: 'Greedy */opt=min' }), 'nodes'],
      ['nodes NaN', () => simulateDfrs([job()], { nodes: NaN, algorithm: 'Greedy */opt=min' }), 'nodes'],
      ['period 0', () => simulateDfrs([job()], { nodes: 1, algorithm: '/per', period: 0 }), 'period'],
      ['period Infinity', () => simulateDfrs([job()], { nodes: 1, algorithm: '/per', period: Infinity }), 'period'],
      ['penalty -1', () => simulateDfrs([job()], { nodes: 1, algorithm: 'Greedy */opt=min', penalty: -1 }), 'penalty'],
      ['penalty NaN', () => simulateDfrs([job()], { nodes: 1, algorithm: 'Greedy */opt=min', penalty: NaN }), 'penalty'],
      ['cores 0', () => simulateDfrs([job()], { nodes: 1, algorithm: 'Greedy */opt=min', cores: 0 }), 'cores'],
      ['jobs not an array', () => simulateDfrs(null as unknown as DfrsJob[], { nodes: 1, algorithm: 'Greedy */opt=min' }), 'jobs'],
      ['submit NaN', () => simulateDfrs([job({ submit: NaN })], { nodes: 1, algorithm: 'Greedy */opt=min' }), 'jobs[0].submit'],
      ['runtime -1', () => simulateDfrs([job(), job({ id: 2, runtime: -1 })], { nodes: 1, algorithm: 'Greedy */opt=min' }), 'jobs[1].runtime'],
      ['runtime Infinity', () => simulateDfrs([job({ runtime: Infinity })], { nodes: 1, algorithm: 'Greedy */opt=min' }), 'jobs[0].runtime'],
      ['tasks 0', () => simulateDfrs([job({ tasks: 0 })], { nodes: 1, algorithm: 'Greedy */opt=min' }), 'jobs[0].tasks'],
      ['tasks 1.5', () => simulateDfrs([job({ tasks: 1.5 })], { nodes: 1, algorithm: 'Greedy */opt=min' }), 'jobs[0].tasks'],
      ['cpuNeed 0', () => simulateDfrs([job({ cpuNeed: 0 })], { nodes: 1, algorithm: 'Greedy */opt=min' }), 'jobs[0].cpuNeed'],
      ['cpuNeed 1.5', () => simulateDfrs([job({ cpuNeed: 1.5 })], { nodes: 1, algorithm: 'Greedy */opt=min' }), 'jobs[0].cpuNeed'],
      ['mem > 1', () => simulateDfrs([job({ mem: 1.5 })], { nodes: 1, algorithm: 'Greedy */opt=min' }), 'jobs[0].mem'],
      ['mem negative', () => simulateDfrs([job({ mem: -0.2 })], { nodes: 1, algorithm: 'Greedy */opt=min' }), 'jobs[0].mem'],
      ['duplicate id', () => simulateDfrs([job(), job()], { nodes: 1, algorithm: 'Greedy */opt=min' }), 'jobs[1].id'],
      ['does not fit in memory', () => simulateDfrs([job({ tasks: 3, mem: 0.6 })], { nodes: 2, algorithm: 'Greedy */opt=min' }), 'jobs[0].tasks'],
      ['batch: too wide', () => simulateDfrsBatch([job({ tasks: 5 })], { nodes: 2, policy: 'EASY' }), 'jobs[0].tasks'],
      ['batch: cores 0', () => simulateDfrsBatch([job()], { nodes: 2, policy: 'EASY', unit: 'core', cores: 0 }), 'cores'],
      ['degradation: bound 0.5', () => degradationFromBound(2, 0.5), 'bound'],
      ['underutilization: capacity 0', () => underutilization([], 0), 'capacity'],
      ['underutilization: completion before submit', () => underutilization([{ submit: 10, completion: 5, runtime: 1, tasks: 1, cpuNeed: 1 }], 1), 'jobs[0].completion'],
    ]);
    record({ family: 'DFRS', kind: 'bad simulation options and job fields (nodes, period, penalty, cores, submit, runtime, tasks, cpuNeed, mem > 1, duplicates, too big)', cases: n, outcome: 'InputError naming the option or jobs[i].field' });
  });

  it('VCSched instance shapes, generator parameters and heuristic names; packing inputs', () => {
    const inst = (over: Partial<VcInstance>): VcInstance => ({ hosts: 2, jobs: [{ cpuNeed: 0.5, mem: 0.3 }], ...over });
    const shapes: [string, VcInstance, string][] = [
      ['zero hosts', inst({ hosts: 0 }), 'hosts'],
      ['negative hosts', inst({ hosts: -2 }), 'hosts'],
      ['fractional hosts', inst({ hosts: 1.5 }), 'hosts'],
      ['jobs not an array', inst({ jobs: {} as unknown as VcInstance['jobs'] }), 'jobs'],
      ['negative need', inst({ jobs: [{ cpuNeed: -0.1, mem: 0.3 }] }), 'jobs[0].cpuNeed'],
      ['need > 1', inst({ jobs: [{ cpuNeed: 0.5, mem: 0.3 }, { cpuNeed: 1.2, mem: 0.3 }] }), 'jobs[1].cpuNeed'],
      ['need NaN', inst({ jobs: [{ cpuNeed: NaN, mem: 0.3 }] }), 'jobs[0].cpuNeed'],
      ['memory > 1', inst({ jobs: [{ cpuNeed: 0.5, mem: 1.5 }] }), 'jobs[0].mem'],
      ['negative memory', inst({ jobs: [{ cpuNeed: 0.5, mem: -0.5 }] }), 'jobs[0].mem'],
      ['zero tasks', inst({ jobs: [{ cpuNeed: 0.5, mem: 0.3, tasks: 0 }] }), 'jobs[0].tasks'],
      ['fractional tasks', inst({ jobs: [{ cpuNeed: 0.5, mem: 0.3, tasks: 2.5 }] }), 'jobs[0].tasks'],
      ['null job', inst({ jobs: [null as unknown as VcInstance['jobs'][0]] }), 'jobs[0]'],
    ];
    const entryPoints: [string, (i: VcInstance) => unknown][] = [
      ['MCB8', (i) => runVcschedHeuristic(i, 'MCB8')],
      ['GR', (i) => runVcschedHeuristic(i, 'GR')],
      ['MILP', (i) => solveVcschedMilp(i, { timeLimitSeconds: 1 })],
      ['LP', (i) => solveVcschedLp(i)],
      ['EXACT', (i) => solveVcschedExact(i)],
    ];
    const n1 = expectRejected(shapes.flatMap(([label, i, field]) => entryPoints.map(([ep, run]): Case => [`${ep}: ${label}`, () => run(i), field])));
    const spec: VcInstanceSpec = { hosts: 4, tasks: 8, slack: 0.5, memCv: 0.25, cpuCv: 0.25 };
    const rng = createRng(1);
    const n2 = expectRejected([
      ['hosts 0', () => generateVcInstance({ ...spec, hosts: 0 }, rng), 'hosts'],
      ['tasks 0', () => generateVcInstance({ ...spec, tasks: 0 }, rng), 'tasks'],
      ['tasks 2.5', () => generateVcInstance({ ...spec, tasks: 2.5 }, rng), 'tasks'],
      ['slack 1', () => generateVcInstance({ ...spec, slack: 1 }, rng), 'slack'],
      ['slack -0.1', () => generateVcInstance({ ...spec, slack: -0.1 }, rng), 'slack'],
      ['memCv -1', () => generateVcInstance({ ...spec, memCv: -1 }, rng), 'memCv'],
      ['cpuCv NaN', () => generateVcInstance({ ...spec, cpuCv: NaN }, rng), 'cpuCv'],
      ['cpuCv Infinity', () => generateVcInstance({ ...spec, cpuCv: Infinity }, rng), 'cpuCv'],
      ['cpuMean 0', () => generateVcInstance({ ...spec, cpuMean: 0 }, rng), 'cpuMean'],
      ['maxJobSize 0', () => generateVcInstance({ ...spec, parallel: true, maxJobSize: 0 }, rng), 'maxJobSize'],
      ['unknown heuristic', () => runVcschedHeuristic(inst({}), 'MCB9' as VcHeuristic), 'algorithm'],
      ['lower-case heuristic', () => runVcschedHeuristic(inst({}), 'mcb8' as VcHeuristic), 'algorithm'],
      ['LP time limit 0', () => runLp({ optimize: 'x', opType: 'max', constraints: {}, variables: {} }, 0), 'timeLimitSeconds'],
      ['packing: negative cpu', () => packVectors([{ cpu: -0.1, mem: 0.2 }], 2), 'items[0]'],
      ['packing: NaN memory', () => packVectors([{ cpu: 0.1, mem: 0.2 }, { cpu: 0.1, mem: NaN }], 2), 'items[1]'],
      ['packing: bins -1', () => packVectors([], -1), 'binCount'],
      ['packing: variant 9', () => packVectors([], 2, { variant: 9 as 1 }), 'variant'],
      ['packing: variant 2.5', () => packVectors([], 2, { variant: 2.5 as 1 }), 'variant'],
      ['yield: tolerance 0', () => maximizeMinYield([], 2, { tolerance: 0 }), 'tolerance'],
      ['yield: hosts -1', () => maximizeMinYield([], -1), 'hosts'],
      ['yield: fixedHost length', () => maximizeMinYield([{ job: 0, cpuNeed: 0.5, mem: 0.2 }], 2, { fixedHost: [0, 1] }), 'fixedHost'],
      ['yield: fixedHost out of range', () => maximizeMinYield([{ job: 0, cpuNeed: 0.5, mem: 0.2 }], 2, { fixedHost: [5] }), 'fixedHost[0]'],
      ['yield: negative need', () => maximizeMinYield([{ job: 0, cpuNeed: -1, mem: 0.2 }], 2), 'tasks[0]'],
    ]);
    record({ family: 'VCSched / packing', kind: `bad instance shapes (zero hosts, negative needs, memory > 1, …) × ${entryPoints.length} entry points`, cases: n1, outcome: 'InputError naming VcInstance.jobs[i].field' });
    record({ family: 'VCSched / packing', kind: 'bad generator parameters, heuristic names, packing and yield-search inputs', cases: n2, outcome: 'InputError naming the parameter' });
  });

  it('reservation: requests, machine, policy, workload factors', () => {
    const req = (over: Partial<ReservationRequest> = {}): ReservationRequest => ({ id: 7, arrival: 0, ready: 10, duration: 50, deadline: 100, pes: 4, ...over });
    const sim = (r: ReservationRequest[], machineSize = 8, policy: ReservationPolicy = 'FF') => () => simulateReservations(r, { machineSize, policy });
    const jobs = [{ id: 1, submit: 0, runtime: 100, procs: 32 }];
    const n = expectRejected([
      ['arrival NaN', sim([req({ arrival: NaN })]), 'arrival'],
      ['ready before arrival', sim([req({ arrival: 20 })]), 'ready'],
      ['duration 0', sim([req({ duration: 0 })]), 'duration'],
      ['duration negative', sim([req({ duration: -5 })]), 'duration'],
      ['deadline too early', sim([req({ deadline: 59 })]), 'deadline'],
      ['pes 0', sim([req({ pes: 0 })]), 'pes'],
      ['pes above the machine', sim([req({ pes: 9 })]), 'pes'],
      ['pes fractional', sim([req({ pes: 1.5 })]), 'pes'],
      ['pes missing', sim([{ ...req(), pes: undefined as unknown as number }]), 'pes'],
      ['machine 0', sim([req()], 0), 'machineSize'],
      ['machine 2.5', sim([req()], 2.5), 'machineSize'],
      ['unknown policy', sim([req()], 8, 'BF' as ReservationPolicy), 'policy'],
      ['policy lower case', sim([req()], 8, 'ff' as ReservationPolicy), 'policy'],
      ['arrivalFactor 0', () => toReservationRequests(jobs, { seed: 1, arrivalFactor: 0 }), 'arrivalFactor'],
      ['arrivalFactor -1', () => toReservationRequests(jobs, { seed: 1, arrivalFactor: -1 }), 'arrivalFactor'],
      ['arrivalFactor Infinity', () => toReservationRequests(jobs, { seed: 1, arrivalFactor: Infinity }), 'arrivalFactor'],
      ['artimeFactor -1', () => toReservationRequests(jobs, { seed: 1, artimeFactor: -1 }), 'artimeFactor'],
      ['deadlineFactor NaN', () => toReservationRequests(jobs, { seed: 1, deadlineFactor: NaN }), 'deadlineFactor'],
      ['Lublin requests: bad factor', () => lublinReservationRequests({ jobs: 5, seed: 1, deadlineFactor: -2 }), 'deadlineFactor'],
      ['uMed 3', () => lanlCm5SizeParams(3), 'uMed'],
      ['uMed 11', () => lanlCm5SizeParams(11), 'uMed'],
      ['trace offset -1', () => traceReservationRequests(jobs, { seed: 1, offset: -1 }), 'offset'],
      ['trace offset past the end', () => traceReservationRequests(jobs, { seed: 1, offset: 5 }), 'offset'],
      ['class shares not summing to 1', () => runtimeClassCuts([1, 2, 3], [0.5, 0.5, 0.5, 0, 0, 0]), 'shares'],
      ['class shares count', () => runtimeClassCuts([1, 2, 3], [1]), 'shares'],
      ['profile: machine 0', () => new AvailabilityProfile(0), 'machineSize'],
      ['profile: deadline before ready + duration', () => new AvailabilityProfile(8).findAllocation(0, 10, 5, 1, 'FF'), 'deadline'],
      ['profile: time going back', () => new AvailabilityProfile(8, { now: 10 }).advanceTo(5), 'now'],
      ['CI of nothing', () => confidenceInterval95([]), 'values'],
    ]);
    record({ family: 'reservation', kind: 'bad requests (NaN, ready < arrival, duration <= 0, deadline too early, PE counts), machine sizes, policy names, workload factors, class maps', cases: n, outcome: 'InputError naming the request and field' });
  });

  it('two-tier: options, jobs, CPU usage; workload generators (Feitelson, Jann, Tsafrir)', () => {
    const jobs: TwoTierJob[] = [{ id: 1, submit: 0, runtime: 10, procs: 2, cpuUsage: [0.5, 0.6] }];
    const opts: TwoTierOptions = { machineSize: 4, policy: 'measy' };
    const sim = (j: TwoTierJob[], o: Partial<TwoTierOptions> = {}) => () => simulateTwoTier(j, { ...opts, ...o });
    const n1 = expectRejected([
      ['machine 0', sim(jobs, { machineSize: 0 }), 'machineSize'],
      ['unknown policy', sim(jobs, { policy: 'measyy' as 'measy' }), 'policy'],
      ['migration cost -1', sim(jobs, { migrationCost: -1 }), 'migrationCost'],
      ['time slice -1', sim(jobs, { timeSlice: -1 }), 'timeSlice'],
      ['estimates', sim(jobs, { estimates: 'guess' as 'exact' }), 'estimates'],
      ['cpuInfo', sim(jobs, { cpuInfo: 'some' as 'none' }), 'cpuInfo'],
      ['threshold 0', sim(jobs, { placementThreshold: 0 }), 'placementThreshold'],
      ['threshold 1.5', sim(jobs, { placementThreshold: 1.5 }), 'placementThreshold'],
      ['loss range reversed', sim(jobs, { lossRange: [0.5, 0.1] }), 'lossRange'],
      ['loss range negative', sim(jobs, { lossRange: [-1, 0] }), 'lossRange'],
      ['efficiency range above 1', sim(jobs, { singleEfficiencyRange: [0.5, 2] }), 'singleEfficiencyRange'],
      ['procs 0', sim([{ ...jobs[0], procs: 0, cpuUsage: undefined }]), 'jobs[0].procs'],
      ['procs above the machine', sim([{ ...jobs[0], procs: 5, cpuUsage: undefined }]), 'jobs[0].procs'],
      ['submit NaN', sim([{ ...jobs[0], submit: NaN }]), 'jobs[0].submit'],
      ['runtime -1', sim([{ ...jobs[0], runtime: -1 }]), 'jobs[0].runtime'],
      ['cpuUsage length', sim([{ ...jobs[0], cpuUsage: [0.5] }]), 'jobs[0].cpuUsage'],
      ['cpuUsage 0', sim([{ ...jobs[0], cpuUsage: [0.5, 0] }]), 'jobs[0].cpuUsage[1]'],
      ['cpuUsage 1.5', sim([{ ...jobs[0], cpuUsage: [1.5, 0.5] }]), 'jobs[0].cpuUsage[0]'],
      ['assignCpuUsage mode', () => assignCpuUsage(jobs, { mode: 'half' as 'full' }), 'mode'],
      ['assignCpuUsage range', () => assignCpuUsage(jobs, { range: [0, 1] }), 'range'],
      ['batch means: 1 batch', () => batchMeans([1, 2, 3], { batches: 1 }), 'batches'],
      ['batch means: too few values', () => batchMeans([1, 2, 3], { batches: 10 }), 'values'],
    ]);
    const F = FEITELSON96_PARAMS;
    const J = JANN97_PARAMS;
    const jann = (mut: (p: Jann97Params) => void): Jann97Params => {
      const p: Jann97Params = JSON.parse(JSON.stringify(J));
      mut(p);
      return p;
    };
    const n2 = expectRejected([
      ['Feitelson jobs -1', () => generateFeitelson96({ jobs: -1 }), 'jobs'],
      ['Feitelson jobs 1.5', () => generateFeitelson96({ jobs: 1.5 }), 'jobs'],
      ['Feitelson jobs NaN', () => generateFeitelson96({ jobs: NaN }), 'jobs'],
      ['Feitelson machine 0', () => generateFeitelson96({ jobs: 5, params: { ...F, machineSize: 0 } }), 'machineSize'],
      ['Feitelson serial share 1.5', () => generateFeitelson96({ jobs: 5, params: { ...F, serialFraction: 1.5 } }), 'serialFraction'],
      ['Feitelson short mean -1', () => generateFeitelson96({ jobs: 5, params: { ...F, shortMean: -1 } }), 'shortMean'],
      ['Feitelson long mean NaN', () => generateFeitelson96({ jobs: 5, params: { ...F, longMean: NaN } }), 'longMean'],
      ['Feitelson repeats 0', () => generateFeitelson96({ jobs: 5, params: { ...F, maxRepeats: 0 } }), 'maxRepeats'],
      ['Feitelson inter-arrival 0', () => generateFeitelson96({ jobs: 5, params: { ...F, meanInterarrival: 0 } }), 'meanInterarrival'],
      ['Feitelson target serial 0', () => calibrateFeitelson96({ ...MEASY_FWLOAD_TARGETS, serialFraction: 0 }), 'serialFraction'],
      ['Feitelson target CV 0.5', () => calibrateFeitelson96({ ...MEASY_FWLOAD_TARGETS, runtimeCv: 0.5 }), 'runtimeCv'],
      ['Feitelson target mean size out of reach', () => calibrateFeitelson96({ ...MEASY_FWLOAD_TARGETS, meanProcs: 400 }), 'meanProcs'],
      ['Feitelson target machine 1', () => calibrateFeitelson96({ ...MEASY_FWLOAD_TARGETS, machineSize: 1 }), 'machineSize'],
      ['Jann jobs -1', () => generateJann97({ jobs: -1 }), 'jobs'],
      ['Jann no ranges', () => generateJann97({ jobs: 5, params: { ranges: [], minRuntime: 1 } }), 'ranges'],
      ['Jann range low 0', () => generateJann97({ jobs: 5, params: jann((p) => (p.ranges[0].low = 0)) }), 'ranges[0].low'],
      ['Jann order 0', () => generateJann97({ jobs: 5, params: jann((p) => (p.ranges[1].runtime.order = 0)) }), 'ranges[1].runtime.order'],
      ['Jann p 1.5', () => generateJann97({ jobs: 5, params: jann((p) => (p.ranges[2].interarrival.p = 1.5)) }), 'ranges[2].interarrival.p'],
      ['Jann scale -1', () => generateJann97({ jobs: 5, params: jann((p) => (p.ranges[0].interarrival.scale2 = -1)) }), 'ranges[0].interarrival.scale2'],
      ['Jann min runtime -1', () => generateJann97({ jobs: 5, params: jann((p) => (p.minRuntime = -1)) }), 'minRuntime'],
      ['Tsafrir runtime -1', () => tsafrirEstimates([10, -1]), 'runtimes[1]'],
      ['Tsafrir runtime NaN', () => tsafrirEstimates([NaN]), 'runtimes[0]'],
      ['Tsafrir max estimate 100', () => tsafrirEstimates([10], { maxEstimate: 100 }), 'maxEstimate'],
      ['Tsafrir max estimate below a runtime', () => tsafrirEstimates([5000], { maxEstimate: 4000 }), 'maxEstimate'],
      ['Tsafrir max estimate NaN', () => tsafrirEstimates([10], { maxEstimate: NaN }), 'maxEstimate'],
    ]);
    record({ family: 'two-tier', kind: 'bad simulation options, job fields and CPU usages', cases: n1, outcome: 'InputError naming the option or jobs[i].field' });
    record({ family: 'workload models', kind: 'bad Feitelson 1996, Jann 1997 and Tsafrir 2005 parameters', cases: n2, outcome: 'InputError naming the parameter (ranges[i].runtime.order, …)' });
  });
});
