/**
 * Benchmark: findAllocation + addAllocation throughput of the advance-
 * reservation availability structure with 10,000 live reservations on a
 * 1,024-PE machine, for each of the seven policies.
 *
 * State: AR requests from the Lublin model (LANL-CM5 parameters, UMed 7,
 * {artime, deadline} = {3, 3}) are all booked in advance at time 0 (their
 * ready times follow the model's arrival process) until 10,000 are accepted
 * by PE Worst Fit; this fills about 50 days of the machine close to
 * saturation. Then, per policy, each of PROBES requests from an independent
 * stream over the same horizon is searched and added (timed; the system
 * grows to 10,000 + accepted probes), then all are deleted again (timed
 * separately), which restores the 10,000-reservation state exactly. Times
 * are CPU time of this process, median of REPEATS passes.
 *
 * Container check: the same state and probes with the record list in blocks
 * of 32, 128 (the default) and 512 records, and as one flat sorted array.
 *
 * Target: at least 1,000 find+add operations per second for every policy
 * (≤ 1 ms per request: fast enough for online admission).
 * Writes bench/results/reservation.json.
 */
import * as fs from 'fs';
import * as path from 'path';
import {
  AvailabilityProfile,
  RESERVATION_POLICIES,
  ReservationAllocation,
  ReservationPolicy,
  ReservationRequest,
  lublinReservationRequests,
} from '../src/schedulers/reservation';

const PES = 1024;
const LIVE = 10000;
const PROBES = 1000;
const TARGET_OPS = 1000;
const DEFAULT_BLOCK = 128;
const REPEATS = 5;

// Requests booked in advance: everything arrives at 0, ready times spread out.
const stream: ReservationRequest[] = lublinReservationRequests({ jobs: 40000, seed: 'bench-reservation', uMed: 7, artimeFactor: 3, deadlineFactor: 3 });

function build(blockSize: number): { profile: AvailabilityProfile; next: number; buildMs: number } {
  const t0 = process.hrtime.bigint();
  const profile = new AvailabilityProfile(PES, { now: 0, blockSize });
  let next = 0;
  let accepted = 0;
  while (accepted < LIVE) {
    if (next >= stream.length) throw new Error(`stream exhausted after ${accepted} reservations`);
    const r = stream[next++];
    const a = profile.findAllocation(r.ready, r.duration, r.deadline, r.pes, 'PE_W');
    if (a) {
      profile.addAllocation(a.start, a.end, a.pes);
      accepted++;
    }
  }
  profile.checkInvariants();
  return { profile, next, buildMs: Number(process.hrtime.bigint() - t0) / 1e6 };
}

/**
 * Time find+add of every probe under each policy (the system grows from
 * 10,000 reservations by the accepted probes during a pass), then delete the
 * accepted probes again (timed separately), which restores the records exactly.
 */
function measure(profile: AvailabilityProfile, probes: ReservationRequest[], policies: readonly ReservationPolicy[]) {
  const records = profile.size;
  // Warm-up.
  for (const policy of policies) profile.findAllocation(probes[0].ready, probes[0].duration, probes[0].deadline, probes[0].pes, policy);
  return policies.map((policy) => {
    // Each pass times every probe once; the pass with the median find+add
    // time is reported, so that a busy neighbour process does not decide.
    const passes = Array.from({ length: REPEATS }, () => {
      // CPU time of this process (user + system), less disturbed than wall
      // time by other processes on a shared machine; wall time kept as well.
      const allocs: ReservationAllocation[] = [];
      const cpu0 = process.cpuUsage();
      const w0 = process.hrtime.bigint();
      for (const r of probes) {
        const a = profile.findAllocation(r.ready, r.duration, r.deadline, r.pes, policy);
        if (a) {
          profile.addAllocation(a.start, a.end, a.pes);
          allocs.push(a);
        }
      }
      const w1 = process.hrtime.bigint();
      const cpu1 = process.cpuUsage(cpu0);
      const cpu2 = process.cpuUsage();
      for (const a of allocs) profile.deleteAllocation(a.start, a.end, a.pes);
      const cpu3 = process.cpuUsage(cpu2);
      return {
        findAddUs: cpu1.user + cpu1.system,
        findAddWallUs: Number(w1 - w0) / 1e3,
        deleteUs: cpu3.user + cpu3.system,
        ok: allocs.length,
      };
    });
    passes.sort((x, y) => x.findAddUs - y.findAddUs);
    const { findAddUs, findAddWallUs, deleteUs, ok } = passes[REPEATS >> 1];
    let candidates = 0;
    for (const r of probes) candidates += profile.candidateStartTimes(r.ready, r.duration, r.deadline).length;
    if (profile.size !== records) throw new Error(`${policy}: delete did not restore the record count`);
    const findAddOpsPerSec = probes.length / (findAddUs / 1e6);
    return {
      policy,
      probes: probes.length,
      acceptedProbes: ok,
      meanCandidates: candidates / probes.length,
      findAddOpsPerSec,
      meanFindAddUs: findAddUs / probes.length,
      wallFindAddOpsPerSec: probes.length / (findAddWallUs / 1e6),
      deleteOpsPerSec: ok > 0 && deleteUs > 0 ? ok / (deleteUs / 1e6) : null,
      meetsTarget: findAddOpsPerSec >= TARGET_OPS,
    };
  });
}

const main = build(DEFAULT_BLOCK);
const { profile } = main;
const records = profile.size;
const horizon = stream[main.next - 1].ready;
// Probes: an independent request stream over the same booked horizon,
// spread evenly over it (the next requests of the booking stream would fall
// after every reservation, where the machine is empty).
const probePool = lublinReservationRequests({ jobs: 40000, seed: 'bench-reservation-probes', uMed: 7, artimeFactor: 3, deadlineFactor: 3 }).filter(
  (r) => r.ready < horizon,
);
if (probePool.length < PROBES) throw new Error(`only ${probePool.length} probe requests inside the booked horizon`);
const probes = Array.from({ length: PROBES }, (_, i) => probePool[Math.floor((i * probePool.length) / PROBES)]);
const variants = measure(profile, probes, RESERVATION_POLICIES);

// Container comparison: the same state and probes with other block sizes
// (Infinity = one flat sorted array), two policies.
const containers = [Infinity, 32, DEFAULT_BLOCK, 512].map((blockSize) => {
  const built = blockSize === DEFAULT_BLOCK ? main : build(blockSize);
  const rows = measure(built.profile, probes, ['FF', 'PE_W']);
  return {
    blockSize: Number.isFinite(blockSize) ? blockSize : 'flat array',
    buildMs: built.buildMs,
    FF: rows[0].findAddOpsPerSec,
    PE_W: rows[1].findAddOpsPerSec,
  };
});

const result = {
  benchmark: 'reservation',
  description: `findAllocation + addAllocation with ${LIVE} live reservations on ${PES} PEs (Lublin LANL-CM5 requests booked in advance); ${PROBES} probe requests per policy, then deleted again; CPU time, median of ${REPEATS} passes`,
  targetOpsPerSec: TARGET_OPS,
  node: process.version,
  date: new Date().toISOString(),
  liveReservations: LIVE,
  records,
  bookedHorizonDays: horizon / 86400,
  blockSize: DEFAULT_BLOCK,
  buildMs: main.buildMs,
  variants,
  containers,
};
const out = path.join(__dirname, 'results', 'reservation.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');

console.log(`reservation: ${LIVE} live reservations, ${records} records over ${(horizon / 86400).toFixed(0)} days (built in ${(main.buildMs / 1000).toFixed(1)} s)`);
for (const v of variants) {
  console.log(
    `  ${v.policy.padEnd(7)} find+add ${v.findAddOpsPerSec.toFixed(0).padStart(6)} ops/s (${v.meanFindAddUs.toFixed(0)} µs, ${v.meanCandidates.toFixed(0)} candidates)` +
      `  delete ${v.deleteOpsPerSec === null ? '-' : v.deleteOpsPerSec.toFixed(0)} ops/s  ${v.meetsTarget ? 'ok' : 'BELOW TARGET'}`,
  );
}
console.log('  container (find+add ops/s):');
for (const c of containers) console.log(`    block ${String(c.blockSize).padEnd(10)} FF ${c.FF.toFixed(0).padStart(6)}  PE_W ${c.PE_W.toFixed(0).padStart(6)}`);
console.log(`wrote ${out}`);
