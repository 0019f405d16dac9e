/**
 * Invariants of advance-reservation admission, checked by
 * `simulateReservations` when invariant checks are on
 * (`invariantChecksEnabled()`, util/invariants.ts; SCHEDLAB_CHECK_INVARIANTS=1),
 * and usable on any list of outcomes. A violation throws an
 * {@link InvariantError} naming the invariant and the job, PE and time.
 */
import { InvariantError } from '../../util/invariants';
import { parsePeRanges } from './simulate';
import type { ReservationOutcome, ReservationRequest } from './simulate';

/**
 * Check one accepted reservation against its request:
 *  - it lies within [ready, deadline] and lasts exactly its duration, and
 *    was not placed before the request arrived (`reservation/window`);
 *  - it holds exactly the requested number of PEs, all on the machine (`reservation/pes`).
 * @param pes ids of the reserved PEs
 * @param policy name of the policy that placed it (put in front of error details)
 */
export function verifyReservation(r: ReservationRequest, start: number, end: number, pes: readonly number[], machineSize: number, policy?: string): void {
  const at = { job: r.id, time: start };
  const by = policy === undefined ? '' : `policy ${policy}: `;
  if (!(start >= r.ready && start >= r.arrival)) throw new InvariantError('reservation/window', `${by}starts at ${start}, before its ready time ${r.ready} (arrival ${r.arrival})`, at);
  if (!(end <= r.deadline)) throw new InvariantError('reservation/window', `${by}ends at ${end}, after its deadline ${r.deadline}`, at);
  if (end - start !== r.duration) throw new InvariantError('reservation/window', `${by}reserved for ${end - start} s, its duration is ${r.duration} s`, at);
  if (pes.length !== r.pes) throw new InvariantError('reservation/pes', `${by}holds ${pes.length} PEs, asked for ${r.pes}`, at);
  for (const pe of pes) {
    if (!(Number.isInteger(pe) && pe >= 0 && pe < machineSize)) throw new InvariantError('reservation/pes', `${by}holds PE ${pe}, outside 0..${machineSize - 1}`, { ...at, node: pe });
  }
}

/** An accepted reservation: interval and PE ids. */
export interface ReservedInterval {
  id: number;
  start: number;
  end: number;
  pes: readonly number[];
}

/**
 * No two accepted reservations share a PE at the same time
 * (`reservation/overlap`): per PE, the reservations holding it, in start
 * order, each start at or after the end of every earlier one.
 */
export function verifyNoOverlap(reserved: readonly ReservedInterval[], machineSize: number, policy?: string): void {
  const by = policy === undefined ? '' : `policy ${policy}: `;
  const order = reserved.map((_, i) => i).sort((a, b) => reserved[a].start - reserved[b].start || a - b);
  const busyUntil = new Float64Array(machineSize).fill(-Infinity);
  const holder = new Int32Array(machineSize).fill(-1);
  for (const i of order) {
    const r = reserved[i];
    for (const pe of r.pes) {
      if (busyUntil[pe] > r.start) {
        throw new InvariantError('reservation/overlap', `${by}PE ${pe} is reserved by job ${reserved[holder[pe]].id} until ${busyUntil[pe]} and by job ${r.id} from ${r.start}`, {
          job: r.id,
          node: pe,
          time: r.start,
        });
      }
      busyUntil[pe] = r.end;
      holder[pe] = i;
    }
  }
}

/**
 * Check a whole run from its outcomes (simulated with `recordPes: true`):
 * one outcome per request with the request's fields, every accepted one
 * valid ({@link verifyReservation}) and no PE double-booked ({@link verifyNoOverlap}).
 */
export function verifyReservationOutcomes(requests: readonly ReservationRequest[], outcomes: readonly ReservationOutcome[], machineSize: number): void {
  if (outcomes.length !== requests.length) throw new InvariantError('reservation/outcomes', `${outcomes.length} outcomes for ${requests.length} requests`);
  const reserved: ReservedInterval[] = [];
  requests.forEach((r, i) => {
    const o = outcomes[i];
    if (o === undefined || o.id !== r.id) throw new InvariantError('reservation/outcomes', `outcome ${i} does not describe request ${r.id}`, { job: r.id });
    if (!o.accepted) return;
    if (o.start === undefined || o.end === undefined || o.allocatedPes === undefined) {
      throw new InvariantError('reservation/outcomes', 'accepted without start, end or PE list (simulate with recordPes: true)', { job: r.id });
    }
    const pes = parsePeRanges(o.allocatedPes);
    verifyReservation(r, o.start, o.end, pes, machineSize);
    reserved.push({ id: r.id, start: o.start, end: o.end, pes });
  });
  verifyNoOverlap(reserved, machineSize);
}
