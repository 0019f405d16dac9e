/**
 * Online admission of advance-reservation (AR) requests with deadlines on one
 * space-shared machine (Li et al., section 6): requests arrive over time;
 * each is either given a start time and PEs at once (accepted) or rejected.
 * Accepted jobs never move. When a job ends its allocation is deleted.
 */
import { Simulation } from '../../engine/events';
import { AvailabilityProfile } from './availability';
import { peSetToString } from './pe-set';
import { ReservationPolicy, checkReservationPolicy } from './policies';

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

export interface ReservationSimulationOptions {
  machineSize: number;
  policy: ReservationPolicy;
  /** Keep the reserved PE ids of each accepted job (for Gantt charts; default false). */
  recordPes?: boolean;
  /** Record the size of the availability list after each decision (default false). */
  recordSize?: boolean;
  /** Block size of the record container (see AvailabilityProfile; default 128). */
  blockSize?: number;
}

/** Throw an error naming the request and field that is wrong. */
export function validateReservationRequest(r: ReservationRequest, machineSize: number): void {
  const where = `reservation request ${r.id}`;
  for (const f of ['arrival', 'ready', 'duration', 'deadline', 'pes'] as const) {
    if (typeof r[f] !== 'number' || !Number.isFinite(r[f])) throw new RangeError(`${where}: field ${f} must be a finite number, got ${r[f]}`);
  }
  if (r.ready < r.arrival) throw new RangeError(`${where}: ready ${r.ready} is before arrival ${r.arrival}`);
  if (!(r.duration > 0)) throw new RangeError(`${where}: duration must be > 0, got ${r.duration}`);
  if (r.deadline < r.ready + r.duration) throw new RangeError(`${where}: deadline ${r.deadline} < ready + duration ${r.ready + r.duration}`);
  if (!Number.isInteger(r.pes) || r.pes < 1 || r.pes > machineSize) {
    throw new RangeError(`${where}: pes must be an integer in 1..${machineSize}, got ${r.pes}`);
  }
}

/**
 * Run the requests through the availability structure under one policy.
 * Requests are handled in arrival order (ties: input order); a job's end
 * (deleteAllocation) is processed before an arrival at the same instant.
 * Outcomes come back in input order.
 */
export function simulateReservations(requests: readonly ReservationRequest[], options: ReservationSimulationOptions): ReservationOutcome[] {
  const policy = checkReservationPolicy(options.policy);
  const machineSize = options.machineSize;
  for (const r of requests) validateReservationRequest(r, machineSize);
  const profile = new AvailabilityProfile(machineSize, { blockSize: options.blockSize });
  const sim = new Simulation();
  const outcomes: ReservationOutcome[] = new Array(requests.length);
  const END = 0;
  const ARRIVAL = 1;

  requests.forEach((r, index) => {
    sim.at(
      r.arrival,
      (s) => {
        profile.advanceTo(s.now);
        const alloc = profile.findAllocation(r.ready, r.duration, r.deadline, r.pes, policy);
        const out: ReservationOutcome = { ...r, accepted: alloc !== null };
        if (alloc) {
          profile.addAllocation(alloc.start, alloc.end, alloc.pes);
          out.start = alloc.start;
          out.end = alloc.end;
          out.wait = alloc.start - r.ready;
          out.slowdown = (out.wait + r.duration) / r.duration;
          if (options.recordPes) out.allocatedPes = peSetToString(alloc.pes);
          const pes = alloc.pes;
          s.at(
            alloc.end,
            (s2) => {
              profile.deleteAllocation(alloc.start, alloc.end, pes);
              profile.advanceTo(s2.now);
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
  sim.run();
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
  if (!Number.isInteger(group) || group < 1) throw new RangeError(`reservationGanttRows: peGroup must be a positive integer, got ${group}`);
  const rows: ReservationGanttRow[] = [];
  for (const o of outcomes) {
    if (!o.accepted) continue;
    if (o.allocatedPes === undefined) throw new Error(`reservationGanttRows: job ${o.id} has no PE list; simulate with recordPes: true`);
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
    if (!m) throw new RangeError(`PE range list: cannot read '${part}' in '${text}'`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    for (let i = a; i <= b; i++) out.push(i);
  }
  return out;
}

