/**
 * One switch for invariant checking across the toolkit.
 *
 * With checks on, schedulers verify what must always hold (capacity never
 * exceeded, no job before its submit time, reservations kept, each job
 * receiving exactly its work, bounds and metrics in range) and throw an
 * {@link InvariantError} naming the invariant and the job/node/time when it
 * does not. With checks off (the default) the checking code is skipped: each
 * simulation reads the switch once when it starts and every check sits
 * behind that one boolean, so the cost is one branch per check site.
 *
 * Turn it on with `setInvariantChecks(true)` or, for a whole process (CLI,
 * notebooks, CI), with the environment variable SCHEDLAB_CHECK_INVARIANTS=1
 * (read when the toolkit is loaded).
 * An explicit `setInvariantChecks` call wins over the environment;
 * `setInvariantChecks(undefined)` goes back to the environment.
 */
import { SchedlabError } from './errors';

let explicit: boolean | undefined;
// Read once: process.env lookups are slow enough to matter in per-job code.
const fromEnvironment = process.env.SCHEDLAB_CHECK_INVARIANTS === '1';

/** Turn invariant checks on or off for this process (undefined: follow SCHEDLAB_CHECK_INVARIANTS). */
export function setInvariantChecks(on: boolean | undefined): void {
  explicit = on;
}

/**
 * Whether invariant checks are on: the explicit setting, else
 * SCHEDLAB_CHECK_INVARIANTS=1 as it was when the toolkit was loaded.
 */
export function invariantChecksEnabled(): boolean {
  return explicit ?? fromEnvironment;
}

/** Run `fn` with checks set to `on`, restoring the previous setting afterwards (also for async `fn`). */
export function withInvariantChecks<T>(on: boolean, fn: () => T): T {
  const before = explicit;
  explicit = on;
  let result: T;
  try {
    result = fn();
  } catch (e) {
    explicit = before;
    throw e;
  }
  if (result instanceof Promise) {
    return result.finally(() => {
      explicit = before;
    }) as unknown as T;
  }
  explicit = before;
  return result;
}

/** Where an invariant was broken. */
export interface InvariantContext {
  job?: number | string;
  node?: number | string;
  time?: number;
}

/** A scheduler broke an invariant: this is a bug in the scheduler, not bad input. */
export class InvariantError extends SchedlabError {
  readonly invariant: string;
  readonly job?: number | string;
  readonly node?: number | string;
  readonly time?: number;

  /**
   * @param invariant short name, e.g. `batch/capacity`
   * @param detail what was observed
   */
  constructor(invariant: string, detail: string, where: InvariantContext = {}) {
    const parts: string[] = [];
    if (where.job !== undefined) parts.push(`job ${where.job}`);
    if (where.node !== undefined) parts.push(`node ${where.node}`);
    if (where.time !== undefined) parts.push(`time ${where.time}`);
    super(`invariant ${invariant} broken${parts.length ? ` (${parts.join(', ')})` : ''}: ${detail}`);
    this.invariant = invariant;
    if (where.job !== undefined) this.job = where.job;
    if (where.node !== undefined) this.node = where.node;
    if (where.time !== undefined) this.time = where.time;
  }
}

/** Throw an InvariantError unless `condition` holds. `detail` is only built on failure. */
export function invariant(condition: boolean, name: string, detail: () => string, where: InvariantContext = {}): void {
  if (!condition) throw new InvariantError(name, detail(), where);
}
