/**
 * The one mechanism by which an engine calls a user policy (batch, DFRS,
 * reservation, two-tier): a {@link PolicyGuard} per run times each call and
 * turns what goes wrong into a {@link PolicyError} naming the policy, its
 * module, the decision and the simulated time. Built-in policies are called
 * directly and pay nothing.
 *
 * - A throw becomes a PolicyError (`kind: 'threw'`, the thrown value as
 *   `cause`). The engine's own InvariantErrors, raised while the policy acts
 *   through its context, pass through unchanged: they already name the policy.
 * - A call that returns after the decision time budget is a PolicyError
 *   (`kind: 'over-budget'`). The budget is 10 s by default; set it with
 *   {@link setPolicyBudget} or SCHEDLAB_POLICY_BUDGET (seconds, 0 = off).
 * - A call that never returns cannot be stopped from its own thread
 *   (synchronous JavaScript). Code that runs policies in a worker thread
 *   (`schedlab simulate --policy`, sweep workers) gives the worker a
 *   {@link DecisionBeacon}: every guarded call writes "inside decision X of
 *   policy P at time t since wall-clock w" into shared memory (a few stores,
 *   no message), and the owner thread reads it to stop the worker and say
 *   which decision hung ({@link watchDecisions}, {@link readDecisionBeacon}).
 *
 * Which module a policy came from is recorded when it is loaded
 * ({@link notePolicyOrigin}, called by util/modules.ts).
 */
import { performance } from 'perf_hooks';
import { PolicyCall, PolicyError } from './errors';
import { InvariantError } from './invariants';

// ---- where a policy object came from --------------------------------------------------------

const origins = new WeakMap<object, string>();

/** Remember that `policy` was loaded from `where` (`FILE#EXPORT`, `portable`). */
export function notePolicyOrigin(policy: unknown, where: string): void {
  if (policy !== null && typeof policy === 'object') origins.set(policy, where);
}

/** Where `policy` was loaded from, if it was loaded by reference. */
export function policyOrigin(policy: unknown): string | undefined {
  return policy !== null && typeof policy === 'object' ? origins.get(policy) : undefined;
}

// ---- the decision time budget ---------------------------------------------------------------

/** Default seconds a single policy decision may take. */
export const DEFAULT_POLICY_BUDGET = 10;

function budgetFromEnvironment(): number | undefined {
  const v = process.env.SCHEDLAB_POLICY_BUDGET;
  if (v === undefined || v.trim() === '') return undefined;
  const x = Number(v);
  return Number.isFinite(x) && x >= 0 ? x : undefined;
}
const fromEnvironment = budgetFromEnvironment();
let explicitBudget: number | undefined;

/** Seconds one policy decision may take (0: no limit); undefined goes back to SCHEDLAB_POLICY_BUDGET, else the default. */
export function setPolicyBudget(seconds: number | undefined): void {
  if (seconds !== undefined && !(seconds >= 0 && Number.isFinite(seconds))) throw new RangeError(`setPolicyBudget: seconds must be a finite number >= 0, got ${seconds}`);
  explicitBudget = seconds;
}

/** The decision time budget in seconds (0: off). */
export function policyBudget(): number {
  return explicitBudget ?? fromEnvironment ?? DEFAULT_POLICY_BUDGET;
}

// ---- the beacon a worker thread writes and its owner reads ------------------------------------

/** The decisions a guard reports, by number in the beacon. */
export const POLICY_DECISIONS = ['schedule', 'onJobSubmitted', 'onJobCompleted', 'priority', 'map', 'allocate', 'score', 'choose'] as const;
export type PolicyDecision = (typeof POLICY_DECISIONS)[number];
const DECISION_INDEX = new Map<string, number>(POLICY_DECISIONS.map((d, k) => [d, k]));

/**
 * Shared memory: Int32 [0] calls in progress, [1] calls entered, [2] decision
 * number, [3] label length; Float64 [2] simulated time, [3] wall-clock ms at
 * entry; bytes 32… the label (JSON `[policy, module]`).
 */
export type DecisionBeacon = SharedArrayBuffer;
const LABEL_AT = 32;
const LABEL_BYTES = 2048;

/** A new beacon for a worker thread (pass it in `workerData` and to {@link useDecisionBeacon} there). */
export function createDecisionBeacon(): DecisionBeacon {
  return new SharedArrayBuffer(LABEL_AT + LABEL_BYTES);
}

let beacon: { ints: Int32Array; floats: Float64Array; bytes: Uint8Array; owner: PolicyGuard | null } | null = null;

/** Report every guarded call of this thread in `b` (undefined: stop reporting). */
export function useDecisionBeacon(b: DecisionBeacon | undefined): void {
  beacon = b ? { ints: new Int32Array(b, 0, 4), floats: new Float64Array(b, 0, 4), bytes: new Uint8Array(b, LABEL_AT, LABEL_BYTES), owner: null } : null;
}

/** What a beacon says: the decision in progress, or undefined when no policy call is in progress. */
export interface DecisionInProgress extends PolicyCall {
  /** Wall-clock milliseconds since the call began. */
  elapsedMs: number;
  /** Calls entered so far (tells two calls of the same decision apart). */
  calls: number;
}

/** Read a beacon (from any thread). */
export function readDecisionBeacon(b: DecisionBeacon): DecisionInProgress | undefined {
  const ints = new Int32Array(b, 0, 4);
  if (Atomics.load(ints, 0) <= 0) return undefined;
  const floats = new Float64Array(b, 0, 4);
  const length = Atomics.load(ints, 3);
  let policy = '?';
  let module: string | undefined;
  try {
    const text = Buffer.from(new Uint8Array(b, LABEL_AT, Math.min(length, LABEL_BYTES))).toString('utf8');
    [policy, module] = JSON.parse(text) as [string, string | undefined];
  } catch {
    /* label being rewritten: keep '?' */
  }
  return {
    policy,
    ...(module ? { module } : {}),
    decision: POLICY_DECISIONS[Atomics.load(ints, 2)] ?? '?',
    time: floats[2],
    elapsedMs: Date.now() - floats[3],
    calls: Atomics.load(ints, 1),
  };
}

/** "policy 'p' (FILE#EXPORT): schedule at simulated time t", for messages about a stopped worker. */
export function describeDecision(d: PolicyCall): string {
  return `policy '${d.policy}'${d.module ? ` (${d.module})` : ''}: ${d.decision} at simulated time ${d.time}`;
}

/**
 * Watch a worker's beacon every `pollMs`: when one call has been in progress
 * for more than `budgetSeconds`, call `onHang` once with it (the caller stops
 * the worker). Returns the function that stops watching.
 */
export function watchDecisions(b: DecisionBeacon, budgetSeconds: number, onHang: (d: DecisionInProgress) => void, pollMs = 50): () => void {
  const timer = setInterval(() => {
    const d = readDecisionBeacon(b);
    if (d && d.elapsedMs > budgetSeconds * 1000) {
      clearInterval(timer);
      onHang(d);
    }
  }, pollMs);
  timer.unref();
  return () => clearInterval(timer);
}

// ---- the guard --------------------------------------------------------------------------------

/**
 * Calls one user policy for one run. `clock` gives the simulated time of the
 * decision being made.
 */
export class PolicyGuard {
  readonly policy: string;
  readonly module: string | undefined;
  /** Milliseconds per decision (0: no limit), read once per run. */
  readonly budgetMs: number;
  private label: Uint8Array | undefined;

  constructor(policy: { name: string }, private readonly clock: () => number) {
    this.policy = policy.name;
    this.module = policyOrigin(policy);
    this.budgetMs = policyBudget() * 1000;
  }

  /** Run `fn`, the policy's `decision` (no arguments: a closure), under the guard. */
  call<R>(decision: PolicyDecision, fn: () => R): R {
    const b = beacon;
    if (b) this.enter(b, decision);
    const t0 = this.budgetMs > 0 ? performance.now() : 0;
    let result: R;
    try {
      result = fn();
    } catch (e) {
      if (b) Atomics.sub(b.ints, 0, 1);
      if (e instanceof InvariantError || e instanceof PolicyError) throw e;
      const what = e instanceof Error ? `${e.name}: ${e.message}` : `threw ${describeThrown(e)}`;
      throw new PolicyError('threw', this.where(decision), what, e);
    }
    if (b) Atomics.sub(b.ints, 0, 1);
    if (this.budgetMs > 0) {
      const ms = performance.now() - t0;
      if (ms > this.budgetMs) {
        throw new PolicyError('over-budget', this.where(decision), `took ${(ms / 1000).toFixed(3)} s, over the decision time budget of ${this.budgetMs / 1000} s (setPolicyBudget, SCHEDLAB_POLICY_BUDGET; 0 = off)`);
      }
    }
    return result;
  }

  /** The call as a PolicyError names it. */
  where(decision: string): PolicyCall {
    return { policy: this.policy, ...(this.module ? { module: this.module } : {}), decision, time: this.clock() };
  }

  private enter(b: NonNullable<typeof beacon>, decision: PolicyDecision): void {
    if (b.owner !== this) {
      // The label is written once per run (and again only if another run's guard wrote in between).
      this.label ??= Buffer.from(JSON.stringify([this.policy, this.module]).slice(0, LABEL_BYTES), 'utf8').subarray(0, LABEL_BYTES);
      b.bytes.set(this.label);
      Atomics.store(b.ints, 3, this.label.length);
      b.owner = this;
    }
    b.floats[2] = this.clock();
    b.floats[3] = Date.now();
    Atomics.store(b.ints, 2, DECISION_INDEX.get(decision) ?? -1);
    Atomics.add(b.ints, 1, 1);
    Atomics.add(b.ints, 0, 1);
  }
}

function describeThrown(e: unknown): string {
  try {
    return typeof e === 'string' ? JSON.stringify(e) : (JSON.stringify(e) ?? String(e));
  } catch {
    return String(e);
  }
}

/**
 * A read-only copy of an array for a policy: writing to it is an error in
 * strict code (`reverse`, `sort`, `push` always) and never reaches the engine.
 */
export function frozenCopy<T>(items: ArrayLike<T> | Iterable<T>): readonly T[] {
  return Object.freeze(Array.from(items as ArrayLike<T>));
}
