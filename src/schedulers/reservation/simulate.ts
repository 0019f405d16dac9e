/**
 * Online admission of advance-reservation (AR) requests with deadlines on one
 * space-shared machine (Li et al., section 6): requests arrive over time;
 * each is either given a start time and PEs at once (accepted) or rejected.
 * Accepted jobs never move. When a job ends its allocation is deleted.
 */
import { Simulation } from '../../engine/events';
import { AvailabilityProfile, ReservationRules } from './availability';
import { PeSet, peIds, peSetToString } from './pe-set';
import { InputError } from '../../util/errors';
import { InvariantError, invariantChecksEnabled } from '../../util/invariants';
import { ReservedInterval, verifyNoOverlap, verifyReservation } from './invariants';
import { ReservationPolicySpec, isBuiltinReservationPolicy, resolveReservationPolicy } from './policies';

/** One AR request: the paper's tuple (t_a, t_r, t_du, t_dl, n_pe) plus an id. */
export interface ReservationRequest {
  id: number;
  /** t_a: when the request reaches the scheduler. */
  arrival: number;
  /** t_r ≥ t_a: earliest start. */
  ready: number;
  /** t_du: run time. */
  duration: number;
  /** t_dl ≥ t_r + t_du: latest completion. */
  deadline: number;
  /** n_pe: number of PEs. */
  pes: number;
}

/** A request and what the scheduler decided. */
export interface ReservationOutcome extends ReservationRequest {
  accepted: boolean;
  /** Start and end of the reservation (accepted jobs only). */
  start?: number;
  end?: number;
  /** start − ready (accepted jobs only). */
  wait?: number;
  /** (wait + duration) / duration (accepted jobs only). */
  slowdown?: number;
  /** Reserved PEs as text ("0-31,64-95"), only with `recordPes`. */
  allocatedPes?: string;
  /** Number of records in the availability list just after this decision (only with `recordSize`). */
  records?: number;
}

/** Options of the advance-reservation simulation: machine size, policy, what to record and the profile block size. */
export interface ReservationSimulationOptions extends ReservationRules {
  machineSize: number;
  /**
   * A built-in policy's name, a policy object, or `{ module, export }` naming
   * one (see policies.ts). Invariant checks are always on for a policy that
   * is not one of the seven built-ins.
   */
  policy: ReservationPolicySpec;
  /** Keep the reserved PE ids of each accepted job (for Gantt charts; default false). */
  recordPes?: boolean;
  /** Record the size of the availability list after each decision (default false). */
  recordSize?: boolean;
  /** Block size of the record container (see AvailabilityProfile; default 128). */
  blockSize?: number;
}

/** Throw an InputError naming the request (`source`) and the field that is wrong. */
export function validateReservationRequest(r: ReservationRequest, machineSize: number, index?: number): void {
  const where = `reservation request ${r?.id}${index !== undefined ? ` (index ${index})` : ''}`;
  const bad = (field: string, message: string) => new InputError(`${where}: ${message}`, { source: where, field });
  if (r === null || typeof r !== 'object') throw new InputError(`${where}: must be an object, got ${String(r)}`, { source: where });
  for (const f of ['arrival', 'ready', 'duration', 'deadline', 'pes'] as const) {
    if (typeof r[f] !== 'number' || !Number.isFinite(r[f])) throw bad(f, `field ${f} must be a finite number, got ${r[f]}`);
  }
  if (r.ready < r.arrival) throw bad('ready', `ready ${r.ready} is before arrival ${r.arrival}`);
  if (!(r.duration > 0)) throw bad('duration', `duration must be > 0, got ${r.duration}`);
  if (r.deadline < r.ready + r.duration) throw bad('deadline', `deadline ${r.deadline} < ready + duration ${r.ready + r.duration}`);
  if (!Number.isInteger(r.pes) || r.pes < 1 || r.pes > machineSize) {
    throw bad('pes', `pes must be an integer in 1..${machineSize}, got ${r.pes}`);
  }
}

/**
 * Run the requests through the availability structure under one policy.
 * Requests are handled in arrival order (ties: input order); a job's end
 * (deleteAllocation) is processed before an arrival at the same instant.
 * Outcomes come back in input order.
 */
export function simulateReservations(requests: readonly ReservationRequest[], options: ReservationSimulationOptions): ReservationOutcome[] {
  const policy = resolveReservationPolicy(options.policy, 'simulateReservations');
  const machineSize = options.machineSize;
  if (!Number.isInteger(machineSize) || machineSize < 1) {
    throw new InputError(`simulateReservations: machineSize must be a positive integer, got ${machineSize}`, { source: 'simulateReservations', field: 'machineSize' });
  }
  if (!Array.isArray(requests)) throw new InputError('simulateReservations: requests must be an array', { source: 'simulateReservations', field: 'requests' });
  requests.forEach((r, i) => validateReservationRequest(r, machineSize, i));
  // Read once per run; every check below sits behind this boolean. A user policy is always checked.
  const checks = invariantChecksEnabled() || !isBuiltinReservationPolicy(policy);
  const name = policy.name;
  const reserved: ReservedInterval[] = [];
  const structure = (what: string, time: number, job: number) => {
    try {
      profile.checkInvariants();
    } catch (e) {
      throw new InvariantError('reservation/structure', `policy ${name}: after ${what}: ${(e as Error).message}`, { job, time });
    }
  };
  const profile = new AvailabilityProfile(machineSize, { blockSize: options.blockSize, openRectangleEnd: options.openRectangleEnd, peSelection: options.peSelection, peSeed: options.peSeed });
  const sim = new Simulation();
  const outcomes: ReservationOutcome[] = new Array(requests.length);
  const END = 0;
  const ARRIVAL = 1;

  requests.forEach((r, index) => {
    sim.at(
      r.arrival,
      (s) => {
        profile.advanceTo(s.now);
        const alloc = profile.findAllocation(r.ready, r.duration, r.deadline, r.pes, policy, r.id);
        const out: ReservationOutcome = { ...r, accepted: alloc !== null };
        if (alloc) {
          if (checks) {
            const ids = peIds(alloc.pes);
            verifyReservation(r, alloc.start, alloc.end, ids, machineSize, name);
            reserved.push({ id: r.id, start: alloc.start, end: alloc.end, pes: ids });
          }
          profile.addAllocation(alloc.start, alloc.end, alloc.pes);
          if (checks) structure('adding the reservation', s.now, r.id);
          out.start = alloc.start;
          out.end = alloc.end;
          out.wait = alloc.start - r.ready;
          out.slowdown = (out.wait + r.duration) / r.duration;
          if (options.recordPes) out.allocatedPes = peSetToString(alloc.pes);
          const pes = alloc.pes;
          s.at(
            alloc.end,
            (s2) => {
              if (checks) release(alloc.start, alloc.end, pes, r.id, s2.now);
              else profile.deleteAllocation(alloc.start, alloc.end, pes);
              profile.advanceTo(s2.now);
              if (checks) structure('ending the reservation', s2.now, r.id);
            },
            { priority: END, kind: 'end' },
          );
        }
        if (options.recordSize) out.records = profile.size;
        outcomes[index] = out;
      },
      { priority: ARRIVAL, kind: 'arrival' },
    );
  });
  /** deleteAllocation, where a failure means the reservation was not kept intact until its end. */
  function release(start: number, end: number, pes: PeSet, job: number, now: number): void {
    try {
      profile.deleteAllocation(start, end, pes);
    } catch (e) {
      throw new InvariantError('reservation/kept', `policy ${name}: reservation [${start}, ${end}) on PEs ${peSetToString(pes)} was not intact at its end: ${(e as Error).message}`, {
        job,
        time: now,
      });
    }
  }
  sim.run();
  if (checks) verifyNoOverlap(reserved, machineSize, name);
  return outcomes;
}

/** One bar of a Gantt chart of reservations. */
export interface ReservationGanttRow {
  /** PE group label, e.g. "PEs 0032–0063". */
  row: string;
  job: string;
  start: number;
  end: number;
  pes: number;
}

/**
 * Bars for a Gantt chart of a schedule: one per (accepted job, group of
 * `peGroup` consecutive PEs it uses). With peGroup 1 every PE is a row; with
 * the LANL-CM5 sizes (multiples of 32) and lowest-numbered allocation, every
 * reservation is a union of aligned 32-PE groups, so 32 rows show it exactly.
 * Needs outcomes simulated with `recordPes`.
 */
export function reservationGanttRows(outcomes: readonly ReservationOutcome[], options: { peGroup?: number } = {}): ReservationGanttRow[] {
  const group = options.peGroup ?? 1;
  if (!Number.isInteger(group) || group < 1) throw new InputError(`reservationGanttRows: peGroup must be a positive integer, got ${group}`, { source: 'reservationGanttRows', field: 'peGroup' });
  const rows: ReservationGanttRow[] = [];
  for (const o of outcomes) {
    if (!o.accepted) continue;
    if (o.allocatedPes === undefined) throw new InputError(`reservationGanttRows: job ${o.id} has no PE list; simulate with recordPes: true`, { source: 'reservationGanttRows', field: 'outcomes' });
    const groups = [...new Set(parsePeRanges(o.allocatedPes).map((pe) => Math.floor(pe / group)))];
    for (const g of groups) {
      const lo = g * group;
      const label = group === 1 ? `PE ${String(lo).padStart(4, '0')}` : `PEs ${String(lo).padStart(4, '0')}–${String(lo + group - 1).padStart(4, '0')}`;
      rows.push({ row: label, job: `job ${o.id}`, start: o.start as number, end: o.end as number, pes: o.pes });
    }
  }
  return rows;
}

/** "0-3,8" → [0, 1, 2, 3, 8]. */
export function parsePeRanges(text: string): number[] {
  if (text.trim() === '') return [];
  const out: number[] = [];
  for (const part of text.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) throw new InputError(`PE range list: cannot read '${part}' in '${text}'`, { source: 'PE range list', field: 'text' });
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    for (let i = a; i <= b; i++) out.push(i);
  }
  return out;
}

