/**
 * Running a set of VCSched algorithms over generated instances, one flat record
 * per (instance, algorithm), ready for dataframes and tables.
 */
import { vcschedRelaxedAverageYield, vcschedRelaxedMinYield } from '../../bounds/vcsched';
import { GeneratedInstance } from './generator';
import { HeuristicOptions, VcHeuristic, VCSCHED_HEURISTICS, finishPlacement, runVcschedHeuristic } from './heuristics';
import { solveVcschedLp, solveVcschedMilp, LpRelaxationResult } from './milp';
import { solveVcschedExact } from './exact';
import { instanceTasks } from './model';
import { InputError } from '../../util/errors';

/** Heuristics plus the exact methods: MILP (options.lpEngine) and EXACT (combinatorial branch-and-bound). */
export type VcAlgorithm = VcHeuristic | 'MILP' | 'EXACT';

/** One VCSched run: the instance, algorithm, its minimum yield and run time. */
export interface VcRunRecord {
  set: string;
  parallel: boolean;
  hosts: number;
  tasks: number;
  jobs: number;
  slack: number;
  memCv: number;
  cpuCv: number;
  instance: number;
  algorithm: VcAlgorithm;
  /**
   * ok: allocation found (for MILP/EXACT: proven optimal); failed: none found
   * (for MILP/EXACT: proven infeasible); timeout: MILP time limit / EXACT node
   * limit hit (yields, if any, are from an unproven incumbent); skipped: not run
   * (message says why); invalid: the MILP solver's answer failed verification.
   */
  status: 'ok' | 'failed' | 'timeout' | 'skipped' | 'invalid';
  minYield: number | null;
  avgYield: number | null;
  seconds: number;
  /** Closed-form LP-relaxation bound on the minimum yield (null: total memory too large). */
  lpMinYield: number | null;
  /** Average yield of the relaxation's second phase. */
  lpAvgYield: number | null;
  message: string;
}

/** Options of a VCSched experiment: the heuristics options plus MILP and exact-solver limits and a per-instance callback. */
export interface ExperimentOptions extends HeuristicOptions {
  /** MILP time limit in seconds (default 60). */
  milpTimeLimitSeconds?: number;
  /** MILP branch-and-bound node limit (HiGHS only; deterministic, unlike the time limit). */
  milpNodeLimit?: number;
  /** HiGHS method of the RRND/RRNZ relaxation (default 'dual-simplex'; 'ipm' ends at another optimal vertex). */
  lpMethod?: 'dual-simplex' | 'ipm';
  /** EXACT node limit (default 5,000,000). */
  exactNodeLimit?: number;
  /** Called after every instance (progress reporting). */
  onInstance?: (done: number, total: number) => void;
}

/** Run every requested algorithm on each instance and return one record per run. */
export function runVcschedExperiment(
  instances: readonly GeneratedInstance[],
  algorithms: readonly VcAlgorithm[],
  options: ExperimentOptions = {},
): VcRunRecord[] {
  const known = new Set<string>([...VCSCHED_HEURISTICS, 'MILP', 'EXACT']);
  for (const a of algorithms) if (!known.has(a)) throw new RangeError(`runVcschedExperiment: unknown algorithm '${a}'`);
  if (options.lp && instances.length !== 1) throw new InputError(`runVcschedExperiment: options.lp is one instance's relaxation, got ${instances.length} instances`, { source: 'runVcschedExperiment', field: 'lp' });
  const records: VcRunRecord[] = [];
  instances.forEach((gi, n) => {
    const inst = gi.instance;
    const base = {
      set: gi.set,
      parallel: gi.spec.parallel ?? false,
      hosts: inst.hosts,
      tasks: instanceTasks(inst).length,
      jobs: inst.jobs.length,
      slack: gi.spec.slack,
      memCv: gi.spec.memCv,
      cpuCv: gi.spec.cpuCv,
      instance: gi.index,
      lpMinYield: vcschedRelaxedMinYield(inst),
      lpAvgYield: vcschedRelaxedAverageYield(inst),
    };
    // A relaxation solved beforehand (options.lp) belongs to one instance.
    let lp: LpRelaxationResult | undefined = options.lp;
    const wantsLp = algorithms.includes('RRND') || algorithms.includes('RRNZ');
    const maxPairs = options.lpMaxPairs ?? (options.lpEngine === 'highs' ? Infinity : 400);
    if (!lp && wantsLp && base.tasks * inst.hosts <= maxPairs) lp = solveVcschedLp(inst, { engine: options.lpEngine, method: options.lpMethod });
    for (const algorithm of algorithms) {
      if (algorithm === 'MILP') {
        const r = solveVcschedMilp(inst, { timeLimitSeconds: options.milpTimeLimitSeconds, nodeLimit: options.milpNodeLimit, engine: options.lpEngine });
        const status = r.status === 'optimal' ? 'ok' : r.status === 'infeasible' ? 'failed' : r.status === 'invalid' ? 'invalid' : 'timeout';
        const fin = r.placement && r.status !== 'invalid' ? finishPlacement(inst, r.placement, options.improve ?? 'greedy') : null;
        records.push({ ...base, algorithm, status, minYield: fin?.minYield ?? null, avgYield: fin?.avgYield ?? null, seconds: r.seconds, message: r.message ?? r.status });
      } else if (algorithm === 'EXACT') {
        const t0 = process.hrtime.bigint();
        const r = solveVcschedExact(inst, { nodeLimit: options.exactNodeLimit });
        const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
        const status = r.status === 'optimal' ? 'ok' : r.status === 'infeasible' ? 'failed' : 'timeout';
        const fin = r.placement ? finishPlacement(inst, r.placement, options.improve ?? 'greedy') : null;
        records.push({ ...base, algorithm, status, minYield: fin?.minYield ?? null, avgYield: fin?.avgYield ?? null, seconds, message: `${r.nodes} nodes` });
      } else {
        const r = runVcschedHeuristic(inst, algorithm, { ...options, lp });
        const seconds = r.seconds + ((algorithm === 'RRND' || algorithm === 'RRNZ') && lp ? lp.seconds : 0);
        records.push({ ...base, algorithm, status: r.status, minYield: r.minYield, avgYield: r.avgYield, seconds, message: r.message ?? '' });
      }
    }
    options.onInstance?.(n + 1, instances.length);
  });
  return records;
}
