/**
 * Notebook 02 (VCSched, virtual clusters) at paper scale. Four parts, one per
 * instance set of the notebook:
 *
 *   small  144 specs × 10 instances (4 hosts) × 13 cells + EXACT       20,160 cells (Table 1, Figs. 2-5, 11-14)
 *   large  108 specs × 100 instances (64 hosts) × 13 cells            140,400 cells (Figs. 6-10, 15-18)
 *   milp   144 specs × 10 instances (4 hosts) × {MILP, EXACT}           2,880 cells (MILP check)
 *   par    108 parallel-job specs × 100 instances × {SG, SGB, MCB8}    32,400 cells (Figs. 19-22)
 *                                                                     195,840 cells
 *
 * The 14 heuristics take 13 cells per instance: RRND and RRNZ round the same
 * LP relaxation, so one cell (`algorithm: 'RRND+RRNZ'`) solves it once and
 * yields both records, each timed with the LP solve included, as when each
 * heuristic solves it itself (the paper's run times).
 *
 * At paper scale the MILP and the large sets' LP relaxations (RRND/RRNZ)
 * are solved with HiGHS (lpsolver.ts; javascript-lp-solver cannot solve the
 * 64-host LPs and needs up to a minute per 4 × 12 MILP); the relaxation in
 * its compact form (`buildVcschedRelaxation`, milp.ts) by the dual simplex. The MILP is bounded
 * by a node limit, which stops every machine at the same node; the notebook's
 * 600 s time limit stays as a backstop that the node limit reaches first on
 * any machine doing more than ~170 nodes/s (this one does 500-1,500 under load).
 * Quick scale keeps javascript-lp-solver and no RRND/RRNZ on 64 hosts, as
 * the notebook's in-process quick run does.
 *
 * One cell = one (instance, algorithm): `runVcschedExperiment([instance], [algorithm], options)`,
 * or both of RRND and RRNZ (`runVcschedExperiment([instance], ['RRND', 'RRNZ'], options)`, one LP).
 * The instance is generated from (instanceSeed, its key) exactly as
 * `vcschedInstanceSet` does, so the notebook's instance sets are the cells' instances.
 */
import { createRng } from '../../util/random';
import { defineSweep, Grid, Json, SweepDefinition } from '../grid';
import { SweepSummary } from '../run';
import { CVS, GeneratedInstance, generateVcInstance, instanceKey, LARGE_SET, SLACKS, SMALL_SET, VcInstanceSpec, VcTruncation } from '../../schedulers/vcsched/generator';
import { ExperimentOptions, runVcschedExperiment, VcAlgorithm, VcRunRecord } from '../../schedulers/vcsched/experiment';
import { VCSCHED_HEURISTICS } from '../../schedulers/vcsched/heuristics';
import { loadLpEngine } from '../../schedulers/vcsched/lpsolver';
import { solveVcschedLp } from '../../schedulers/vcsched/milp';
import { instanceTasks } from '../../schedulers/vcsched/model';
import { completeResults, PaperExperiment, PaperScale } from './common';

export const NOTEBOOK = '02-virtual-clusters';

/** The notebook's parameters, per scale. */
export const VCSCHED_PAPER_GRID = {
  paper: {
    seed: 2009,
    smallPerSpec: 10,
    largePerSpec: 100,
    parallelPerSpec: 100,
    smallBacktrackBudget: 500_000,
    largeBacktrackBudget: 500_000,
    milpTasks: [6, 8, 10, 12],
    milpPerSpec: 10,
    milpTimeLimitSeconds: 600,
    tolerance: 0.01,
  },
  // Quick: every algorithm, part, figure and table, small enough for the test suite's two quick executions of this
  // page; two instances per spec of the small set (was 3) still give every spec a spread, and every small-set cell is
  // also a cell of the ablation's clip-small and rounding-small parts.
  quick: {
    seed: 2009,
    smallPerSpec: 2,
    largePerSpec: 2,
    parallelPerSpec: 2,
    smallBacktrackBudget: 500_000,
    largeBacktrackBudget: 50_000,
    milpTasks: [6, 8],
    milpPerSpec: 1,
    milpTimeLimitSeconds: 5,
    tolerance: 0.01,
  },
};

/** Paper-scale MILP node limit: deterministic, unlike the time limit (see the header). */
export const MILP_NODE_LIMIT = 100_000;

export type VcschedPart = 'small' | 'large' | 'milp' | 'par';

/** The cell that runs RRND and RRNZ on one instance, sharing its LP relaxation. */
export const RRND_RRNZ = 'RRND+RRNZ';
export type VcschedCellAlgorithm = VcAlgorithm | typeof RRND_RRNZ;

/** The algorithms of a cell, in record order. */
export function cellAlgorithms(algorithm: VcschedCellAlgorithm): VcAlgorithm[] {
  return algorithm === RRND_RRNZ ? ['RRND', 'RRNZ'] : [algorithm];
}

/** The heuristics as cells: RRND and RRNZ in one (in their place in the list). */
function heuristicCells(algorithms: readonly VcAlgorithm[]): VcschedCellAlgorithm[] {
  const out: VcschedCellAlgorithm[] = [];
  for (const a of algorithms) {
    if (a === 'RRNZ' && algorithms.includes('RRND')) continue;
    out.push(a === 'RRND' && algorithms.includes('RRNZ') ? RRND_RRNZ : a);
  }
  return out;
}

export interface VcschedCellParams {
  part: VcschedPart;
  set: 'small' | 'large';
  parallel: boolean;
  tasks: number;
  slack: number;
  memCv: number;
  cpuCv: number;
  instance: number;
  algorithm: VcschedCellAlgorithm;
  /** Seed of the instance generator (the notebook's SEED). */
  instanceSeed: number;
  /** The options the notebook passes to `runVcschedExperiment` for this part. */
  options: ExperimentOptions;
  /** Generator reading (ablation only; absent = 'redraw'). */
  truncation?: VcTruncation;
}

/** The instance of a cell, as `vcschedInstanceSet` generates it. */
export function vcschedCellInstance(p: VcschedCellParams): GeneratedInstance {
  const hosts = p.set === 'small' ? SMALL_SET.hosts : LARGE_SET.hosts;
  const spec: VcInstanceSpec = { hosts, tasks: p.tasks, slack: p.slack, memCv: p.memCv, cpuCv: p.cpuCv, parallel: p.parallel, ...(p.truncation ? { truncation: p.truncation } : {}) };
  const rng = createRng(`${p.instanceSeed}/${instanceKey(p.set, spec, p.instance)}`);
  return { set: p.set, spec, index: p.instance, instance: generateVcInstance(spec, rng) };
}

/**
 * Cell adapter: one algorithm on one generated instance, one record; the
 * RRND+RRNZ cell gives both records, [RRND, RRNZ] (HiGHS is loaded once per
 * thread when the cell asks for it).
 */
export async function vcschedCell(p: VcschedCellParams): Promise<VcRunRecord | VcRunRecord[]> {
  if (p.options.lpEngine) await loadLpEngine(p.options.lpEngine);
  const records = runVcschedExperiment([vcschedCellInstance(p)], cellAlgorithms(p.algorithm), p.options);
  return p.algorithm === RRND_RRNZ ? records : records[0];
}

function specGrid(part: VcschedPart, set: 'small' | 'large', parallel: boolean, perSpec: number, algorithms: readonly string[], options: ExperimentOptions, tasks?: readonly number[]): Grid {
  return {
    part: [part],
    set: [set],
    parallel: [parallel],
    tasks: [...(tasks ?? (set === 'small' ? SMALL_SET.tasks : LARGE_SET.tasks))],
    slack: [...SLACKS],
    memCv: [...CVS],
    cpuCv: [...CVS],
    instance: Array.from({ length: perSpec }, (_, i) => i),
    algorithm: [...algorithms],
    options: [options as unknown as Json],
  };
}

/** The four grids of a scale, in the notebook's order. */
export function vcschedGrids(scale: PaperScale): Grid[] {
  const g = VCSCHED_PAPER_GRID[scale];
  const all = [...VCSCHED_HEURISTICS];
  const paper = scale === 'paper';
  return [
    specGrid('small', 'small', false, g.smallPerSpec, heuristicCells([...all, 'EXACT']), { seed: g.seed, tolerance: g.tolerance, backtrackBudget: g.smallBacktrackBudget }),
    specGrid('large', 'large', false, g.largePerSpec, heuristicCells(paper ? all : all.filter((a) => a !== 'RRND' && a !== 'RRNZ')), {
      seed: g.seed,
      tolerance: g.tolerance,
      backtrackBudget: g.largeBacktrackBudget,
      ...(paper ? { lpEngine: 'highs' as const } : {}),
    }),
    specGrid('milp', 'small', false, g.milpPerSpec, ['MILP', 'EXACT'], {
      milpTimeLimitSeconds: g.milpTimeLimitSeconds,
      ...(paper ? { lpEngine: 'highs' as const, milpNodeLimit: MILP_NODE_LIMIT } : {}),
    }, g.milpTasks),
    specGrid('par', 'large', true, g.parallelPerSpec, ['SG', 'SGB', 'MCB8'], { tolerance: g.tolerance, backtrackBudget: g.largeBacktrackBudget }),
  ];
}

function makeSweep(scale: PaperScale): SweepDefinition {
  return defineSweep({
    name: scale === 'paper' ? NOTEBOOK : `${NOTEBOOK}-quick`,
    // 3: HiGHS for the paper-scale MILP (node limit) and RRND/RRNZ on the 64-host set.
    // 4: the relaxation in compact form (dual simplex on HiGHS: another optimal vertex, so other RRND/RRNZ
    //    placements); RRND and RRNZ in one cell per instance.
    version: 4,
    description: 'VCSched: heuristics, exact search and MILP on the small, large and parallel-job instance sets',
    cell: { module: __filename, export: 'vcschedCell' },
    grid: vcschedGrids(scale),
    fixed: { instanceSeed: VCSCHED_PAPER_GRID[scale].seed },
  });
}

export const paperSweep = makeSweep('paper');
export const quickSweep = makeSweep('quick');

export const experiment: PaperExperiment<Record<VcschedPart, VcRunRecord[]>> = {
  notebook: NOTEBOOK,
  summary: 'VCSched: small (1,440 instances x 14 cells), large (10,800 x 13), MILP check (1,440 x 2), parallel jobs (10,800 x 3); RRND and RRNZ share a cell',
  sweep: (scale) => (scale === 'paper' ? paperSweep : quickSweep),
  exports: { paper: 'paperSweep', quick: 'quickSweep' },
  timingFields: ['seconds'],
  stratifyBy: 'algorithm',
  results: (summary) => vcschedResultsFrom(summary),
};

/** The records of each part (instance by instance, algorithms in the listed order; an RRND+RRNZ cell gives two). */
export function vcschedResultsFrom(summary: SweepSummary): Record<VcschedPart, VcRunRecord[]> {
  const results = completeResults<VcRunRecord | VcRunRecord[]>(summary);
  const out: Record<VcschedPart, VcRunRecord[]> = { small: [], large: [], milp: [], par: [] };
  summary.records.forEach((rec, i) => {
    const r = results[i];
    out[rec.params.part as VcschedPart].push(...(Array.isArray(r) ? r : [r]));
  });
  return out;
}

// ---------------------------------------------------------------------------
// Ablation (issue: published results not reproduced): the generator's
// truncation and the rounding rules of RRND/RRNZ.

/** RRND/RRNZ rounding variants applied to one relaxation: RRNZ's ε and whether RRNZ draws from RRND's stream. */
export const ROUNDING_VARIANTS = {
  'ε 0.01 (ours)': { rrnzEpsilon: 0.01, roundingStream: 'per-heuristic' },
  'ε 0.001': { rrnzEpsilon: 0.001, roundingStream: 'per-heuristic' },
  'ε 0.0001': { rrnzEpsilon: 0.0001, roundingStream: 'per-heuristic' },
  'shared stream, ε 0.01': { rrnzEpsilon: 0.01, roundingStream: 'shared' },
  'shared stream, ε 0.0001': { rrnzEpsilon: 0.0001, roundingStream: 'shared' },
} as const;
export type RoundingVariant = keyof typeof ROUNDING_VARIANTS;

/** Parameters of a rounding-ablation cell: an instance and the HiGHS method of its relaxation. */
export type VcschedRoundingCellParams = VcschedCellParams & { lpMethod: 'dual-simplex' | 'ipm' };

/** A VCSched record of the ablation, with what produced it. */
export type VcAblationRecord = VcRunRecord & { part: string; truncation: VcTruncation; lpMethod: string | null; rounding: RoundingVariant | null };

/**
 * One relaxation (solved once, by `lpMethod` on HiGHS for the large set) and
 * RRND and RRNZ on it under every rounding variant: 2 records per variant.
 */
export async function vcschedRoundingCell(p: VcschedRoundingCellParams): Promise<(VcRunRecord & { rounding: RoundingVariant })[]> {
  if (p.options.lpEngine) await loadLpEngine(p.options.lpEngine);
  const gi = vcschedCellInstance(p);
  const pairs = instanceTasks(gi.instance).length * gi.instance.hosts;
  const lp = p.options.lpEngine === 'highs' || pairs <= (p.options.lpMaxPairs ?? 400) ? solveVcschedLp(gi.instance, { engine: p.options.lpEngine, method: p.lpMethod }) : undefined;
  return (Object.keys(ROUNDING_VARIANTS) as RoundingVariant[]).flatMap((rounding) =>
    runVcschedExperiment([gi], ['RRND', 'RRNZ'], { ...p.options, ...ROUNDING_VARIANTS[rounding], lp }).map((r) => ({ ...r, rounding })),
  );
}

/**
 * Large-set instances per spec of the rounding ablation: 500 tasks at slack
 * 0.3, where 94 of our 107 RRND successes below slack 0.4 are (the paper: none).
 */
export const ROUNDING_LARGE_PER_SPEC = 5;

/**
 * What one ablation cell runs on its instance: 'rounding' (vcschedRoundingCell),
 * 'clip-all' (every heuristic and the exact search: the small set) or
 * 'clip-mcb' (MCB1-8 and SG: the large set's maxima).
 */
export type VcschedAblationCellKind = 'rounding' | 'clip-all' | 'clip-mcb';
const CLIP_ALGORITHMS: Record<'clip-all' | 'clip-mcb', VcAlgorithm[]> = {
  'clip-all': [...VCSCHED_HEURISTICS, 'EXACT'],
  'clip-mcb': [...VCSCHED_HEURISTICS.filter((a) => a.startsWith('MCB')), 'SG'],
};

function makeAblationSweep(scale: PaperScale): SweepDefinition {
  const g = VCSCHED_PAPER_GRID[scale];
  const [small, large] = vcschedGrids(scale);
  const paper = scale === 'paper';
  const roundingOptions = { seed: g.seed, tolerance: g.tolerance, backtrackBudget: g.largeBacktrackBudget, lpEngine: 'highs' as const };
  return defineSweep({
    name: paper ? `${NOTEBOOK}-ablation` : `${NOTEBOOK}-ablation-quick`,
    version: 1,
    description: 'VCSched ablation: instances clipped to [0, 1] instead of redrawn (small set: every algorithm; large set at slack <= 0.3: MCB1-8 and SG); RRND/RRNZ rounding variants on two optimal vertices of the relaxation',
    cell: { module: __filename, export: 'vcschedAblationCell' },
    grid: [
      { ...small, part: ['clip-small'], truncation: ['clip'], algorithm: ['clip-all'] },
      { ...small, part: ['rounding-small'], algorithm: ['rounding'], lpMethod: ['dual-simplex'] },
      // The large set's maxima are all at slack 0.1-0.2 (redrawn); 0.3 is kept as a margin.
      { ...large, part: ['clip-large'], slack: SLACKS.filter((s) => s <= 0.3), truncation: ['clip'], algorithm: ['clip-mcb'] },
      {
        ...large,
        part: ['rounding-large'],
        tasks: [500],
        slack: [0.3],
        // Quick scale: one CV pair (0.25, 0.25) of the 4. Its 2 cells, one per relaxation vertex, still fill every row of the
        // rounding table, RRND succeeding on the dual-simplex vertex and not on the ipm one (as on the other pairs); the
        // other pairs' 500-task relaxations were most of the quick ablation's CPU and add nothing the page shows but counts.
        ...(paper ? {} : { memCv: [0.25], cpuCv: [0.25] }),
        instance: Array.from({ length: paper ? ROUNDING_LARGE_PER_SPEC : 1 }, (_, i) => i),
        algorithm: ['rounding'],
        lpMethod: ['dual-simplex', 'ipm'],
        options: [roundingOptions as unknown as Json],
      },
    ],
    fixed: { instanceSeed: g.seed },
  });
}

/** Cell of the ablation sweep: a rounding cell, or several algorithms on one clipped instance (RRND and RRNZ share the relaxation). */
export async function vcschedAblationCell(p: Omit<VcschedRoundingCellParams, 'algorithm'> & { algorithm: VcschedAblationCellKind }): Promise<VcRunRecord[]> {
  if (p.algorithm === 'rounding') return vcschedRoundingCell(p as unknown as VcschedRoundingCellParams);
  if (p.options.lpEngine) await loadLpEngine(p.options.lpEngine);
  return runVcschedExperiment([vcschedCellInstance(p as unknown as VcschedCellParams)], CLIP_ALGORITHMS[p.algorithm], p.options);
}

export const ablationPaperSweep = makeAblationSweep('paper');
export const ablationQuickSweep = makeAblationSweep('quick');

/** The ablation's records, flat, each with its part, truncation, relaxation method and rounding variant. */
export function vcschedAblationFrom(summary: SweepSummary): VcAblationRecord[] {
  const results = completeResults<VcRunRecord | (VcRunRecord & { rounding: RoundingVariant })[]>(summary);
  return summary.records.flatMap((rec, i) => {
    const p = rec.params as unknown as VcschedRoundingCellParams;
    const r = results[i];
    return (Array.isArray(r) ? r : [r]).map((x) => ({
      ...x,
      part: p.part,
      truncation: p.truncation ?? 'redraw',
      lpMethod: p.lpMethod ?? null,
      rounding: (x as { rounding?: RoundingVariant }).rounding ?? null,
    }));
  });
}

/**
 * The ablation, committed as `results/02-virtual-clusters/02-virtual-clusters-ablation.jsonl.gz`
 * with its `.provenance.json`; run with `npx ts-node --transpile-only scripts/vcsched-ablation.ts`.
 */
export const ablationExperiment: PaperExperiment<VcAblationRecord[]> = {
  notebook: NOTEBOOK,
  summary: 'VCSched ablation: clipped instances (small set, large MCBs and SG) and RRND/RRNZ rounding variants (small set; large set: 500 tasks at slack 0.3)',
  sweep: (scale) => (scale === 'paper' ? ablationPaperSweep : ablationQuickSweep),
  exports: { paper: 'ablationPaperSweep', quick: 'ablationQuickSweep' },
  timingFields: ['seconds'],
  stratifyBy: 'part',
  results: vcschedAblationFrom,
};
