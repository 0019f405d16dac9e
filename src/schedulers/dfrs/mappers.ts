/**
 * The built-in DFRS mappers (paper sections 4.2-4.3, 4.7) as the engine sees
 * every mapper: up to three event methods, each returning the jobs that run
 * next with their nodes, or undefined to keep the mapping. A method left out
 * means "no action" on that event (`onPeriod` present: the engine ticks).
 */
import type { McbCall } from './simulator';
import { ActiveJob, byPriority, GlobalMappingOptions, greedyPlace, isYoung, mcb8Mapping, mcb8StretchMapping, memoryRoom, NodeUsage, preemptiveGreedy } from './mapping';
import type { DfrsAlgorithm } from './names';

/** The engine's live state at a decision. Read it; only `usage` may be used as scratch (it is recomputed after). */
export interface MapperState {
  time: number;
  /** Jobs submitted and not finished, in submission order; their `priority` is this decision's. */
  active: ReadonlySet<ActiveJob>;
  /** The running subset of `active`. */
  running: ReadonlySet<ActiveJob>;
  /** Memory and CPU load per node of the running jobs. */
  usage: NodeUsage;
  /** The job just submitted (onSubmission). */
  submitted?: ActiveJob;
}

/** Jobs that run after the decision, with their nodes; all others wait. */
export type NextMapping = Map<ActiveJob, Int32Array>;

/** A DFRS mapping heuristic: places the tasks of arriving jobs on nodes given the current mapping. */
export interface DfrsMapper {
  onSubmission?(state: MapperState): NextMapping | undefined;
  onCompletion?(state: MapperState): NextMapping | undefined;
  onPeriod?(state: MapperState): NextMapping | undefined;
}

/** The running jobs where they are. */
function unchanged(running: ReadonlySet<ActiveJob>): NextMapping {
  const next: NextMapping = new Map();
  for (const r of running) next.set(r, r.nodes as Int32Array);
  return next;
}

/** Greedy: the submitted job on the least loaded nodes, if it fits beside the running ones. */
function greedySubmission(s: MapperState): NextMapping | undefined {
  const nodes = greedyPlace(s.submitted as ActiveJob, s.usage);
  if (!nodes) return undefined;
  const next = unchanged(s.running);
  next.set(s.submitted as ActiveJob, nodes);
  return next;
}

/** GreedyP / GreedyPM: pause (or move) lower-priority running jobs to make room. */
function preemptiveSubmission(migrate: boolean, kept?: (j: ActiveJob) => boolean) {
  return (s: MapperState): NextMapping | undefined => {
    const res = preemptiveGreedy(s.submitted as ActiveJob, [...s.running], s.usage, migrate, kept);
    if (!res.placed) return undefined;
    const next: NextMapping = new Map();
    const paused = new Set(res.paused);
    for (const r of s.running) {
      if (paused.has(r)) continue;
      next.set(r, res.moved.get(r) ?? (r.nodes as Int32Array));
    }
    next.set(s.submitted as ActiveJob, res.placed);
    return next;
  };
}

/** Greedy on every waiting job, by decreasing priority (the '*' completion action). */
function greedyWaiting(s: MapperState): NextMapping | undefined {
  const waiting = [...s.active].filter((j) => !s.running.has(j)).sort(byPriority);
  // Built at the first placement: most calls place nothing.
  let next: NextMapping | undefined;
  // Tasks of each memory size the nodes have room for (memoryRoom), until a job is placed:
  // a job that does not fit leaves the usage as it was, so the next ones of its size skip greedyPlace.
  const room = new Map<number, number>();
  for (const j of waiting) {
    if (j.mem > 0) {
      let r = room.get(j.mem);
      if (r === undefined) room.set(j.mem, (r = memoryRoom(j.mem, s.usage.mem)));
      if (r < j.tasks) continue; // greedyPlace would find that it does not fit in memory
    }
    const nodes = greedyPlace(j, s.usage);
    if (nodes) {
      (next ??= unchanged(s.running)).set(j, nodes);
      room.clear();
    }
  }
  return next;
}

/**
 * The mapper an algorithm name describes. `mcb` options go to MCB8; every
 * MCB8 call is reported to `onMcbCall` (with its wall time when `timeMcb`).
 */
export function builtinMapper(
  alg: DfrsAlgorithm,
  options: { mcb: GlobalMappingOptions; period: number; timeMcb: boolean; onMcbCall: (call: McbCall) => void },
): DfrsMapper {
  const global = (trigger: McbCall['trigger'], stretch: boolean) => (s: MapperState): NextMapping => {
    const t0 = options.timeMcb ? performance.now() : 0;
    const list = [...s.active];
    const res = stretch ? mcb8StretchMapping(list, options.period, options.mcb) : mcb8Mapping(list, options.mcb);
    const ms = options.timeMcb ? performance.now() - t0 : NaN;
    options.onMcbCall({ time: s.time, jobs: list.length, dropped: res.dropped, ms, trigger });
    return res.mapping;
  };
  const mapper: DfrsMapper = {};
  // limitProtects 'preemption' / 'both': the name's minvt/minft keeps young jobs running through GreedyP/GreedyPM too.
  const protects = options.mcb.limitProtects ?? 'migration';
  const young = alg.limit && protects !== 'migration' ? (j: ActiveJob) => isYoung(j, alg.limit) : undefined;
  if (alg.onSubmit === 'Greedy') mapper.onSubmission = greedySubmission;
  else if (alg.onSubmit === 'GreedyP' || alg.onSubmit === 'GreedyPM') mapper.onSubmission = preemptiveSubmission(alg.onSubmit === 'GreedyPM', young);
  else if (alg.onSubmit === 'MCB8') mapper.onSubmission = global('submission', false);
  if (alg.onCompletion === 'Greedy') mapper.onCompletion = greedyWaiting;
  else if (alg.onCompletion === 'MCB8') mapper.onCompletion = global('completion', false);
  if (alg.periodic !== 'none') mapper.onPeriod = global('periodic', alg.periodic === 'MCB8-stretch');
  return mapper;
}
