/**
 * The two-tier processor model of the MEASY paper (Section 2.1 and 3.2).
 *
 * Each physical processor hosts a foreground (fg, highest CPU priority) and a
 * background (bg, lowest priority) VM. Progress is measured in seconds of
 * dedicated-processor execution: a job whose `runtime` is 100 s needs 100 units
 * of progress, and on a dedicated processor it gains one unit per second.
 *
 * - A fg process loses `loss` ~ U(0.5%, 4%) of its speed while a bg VM on the
 *   same processor holds a process (context-switch overhead).
 * - A bg process gains `e · g(R, U)` per second, where R is the share of cycles
 *   the fg VM leaves idle (1 when the fg VM is empty, 1 − usage of the fg
 *   process otherwise), U is the bg process's own CPU usage on a dedicated
 *   processor and e is the efficiency with which a preempted VM turns idle
 *   cycles into progress.
 * - A job progresses at the pace of its slowest process.
 */
import { Rng } from '../../util/random';

/** Range of the fg performance loss (uniform), Section 2.1 (1). */
export const FOREGROUND_LOSS_RANGE: readonly [number, number] = [0.005, 0.04];

/** Range of e for single-process bg jobs (uniform), Section 2.1 (2). */
export const SINGLE_PROCESS_EFFICIENCY_RANGE: readonly [number, number] = [0.8, 0.92];

/** Observed range of e for multi-process bg jobs, Section 2.1 (2). */
export const MULTI_PROCESS_EFFICIENCY_RANGE: readonly [number, number] = [0.198, 0.766];

/**
 * Normal distribution of e for multi-process jobs. The paper's mean and
 * standard deviation did not survive text extraction; only the observed range
 * 19.8%–76.6% did. We take the range as mean ± 3σ (99.7% of a normal falls
 * there): mean = midpoint, σ = width / 6, and we truncate draws to the range
 * so that no draw falls outside what was observed.
 */
export function multiProcessEfficiencyDistribution(
  range: readonly [number, number] = MULTI_PROCESS_EFFICIENCY_RANGE,
): { mean: number; sd: number; low: number; high: number } {
  const [low, high] = range;
  return { mean: (low + high) / 2, sd: (high - low) / 6, low, high };
}

/** Foreground CPU usage above which no bg process may be placed (Section 2.1 (3)). */
export const BACKGROUND_PLACEMENT_THRESHOLD = 0.96;

/**
 * How a bg process's idle-cycle share R and CPU usage U combine:
 * - 'demand' (default): rate = e · min(1, R / U). A process that needs U of a
 *   processor's cycles runs at full (dedicated) pace when R ≥ U and is
 *   throttled in proportion when R < U. On an idle fg (R = 1) it runs at its
 *   dedicated speed less the overhead e. For single-process jobs (U = 1) it is
 *   identical to the literal product below.
 * - 'product': rate = e · U · R, the literal product of the three quantities
 *   the paper names (its formula was lost in extraction). It makes low-usage
 *   processes slower even on an idle processor, which is why it is not the
 *   default.
 */
export type BackgroundProgressModel = 'demand' | 'product';

/** Parameters of the two-tier progress model (all have paper defaults). */
export interface TwoTierModelOptions {
  /** Uniform range of the fg loss. */
  lossRange?: readonly [number, number];
  /** Uniform range of e for single-process jobs. */
  singleEfficiencyRange?: readonly [number, number];
  /** Truncated normal of e for multi-process jobs. */
  multiEfficiency?: { mean: number; sd: number; low: number; high: number };
  /** How R and U combine for a bg process. */
  backgroundModel?: BackgroundProgressModel;
  /**
   * Override of the bg rate (used to replay the paper's idealised worked
   * example, whose progress numbers are assumptions rather than the model).
   */
  backgroundRate?: (p: { efficiency: number; usage: number; idleShare: number }) => number;
}

/** Draw a job's fg loss. */
export function drawForegroundLoss(rng: Rng, range: readonly [number, number] = FOREGROUND_LOSS_RANGE): number {
  return range[0] === range[1] ? range[0] : rng.uniform(range[0], range[1]);
}

/**
 * Draw a job's bg efficiency e. One value per job (not per process or per
 * time slice): the paper reports one measured e per job type, and a job moves
 * at the pace of its slowest process anyway.
 */
export function drawBackgroundEfficiency(rng: Rng, procs: number, options: TwoTierModelOptions = {}): number {
  if (procs <= 1) {
    const [lo, hi] = options.singleEfficiencyRange ?? SINGLE_PROCESS_EFFICIENCY_RANGE;
    return lo === hi ? lo : rng.uniform(lo, hi);
  }
  const d = options.multiEfficiency ?? multiProcessEfficiencyDistribution();
  return rng.truncatedNormal(d.mean, d.sd, d.low, d.high);
}

/** Progress per second of a fg process; `coLocated` says whether the bg VM holds a process. */
export function foregroundRate(loss: number, coLocated: boolean): number {
  return coLocated ? 1 - loss : 1;
}

/** Progress per second of one bg process. */
export function backgroundRate(
  efficiency: number,
  usage: number,
  idleShare: number,
  model: BackgroundProgressModel = 'demand',
): number {
  const r = Math.max(0, Math.min(1, idleShare));
  if (model === 'product') return efficiency * usage * r;
  if (usage <= 0) return efficiency;
  return efficiency * Math.min(1, r / usage);
}
