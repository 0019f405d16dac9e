/**
 * Figures 3 and 4 of the DFRS paper against more than one batch baseline:
 * the best DFRS algorithm's average underutilization and degradation at each
 * scheduling period, beside each baseline (which does not depend on the
 * period), and the period at which the DFRS algorithm overtakes each one.
 * Notebook 01 and its claims read the same computation.
 */
import { summarize } from '../../analysis/summarize';

/** One (trace set, period) point of a period sweep: the average of a metric over the set's traces. */
export interface PeriodPoint {
  period: number;
  value: number;
}

/**
 * The shortest period at which `curve` is below `reference` (the paper's
 * "as the period becomes larger than 900 s, [it] achieves a lower
 * underutilization than EASY"); NaN when it never is. A non-finite reference
 * or point never counts as overtaken.
 */
export function crossoverPeriod(curve: readonly PeriodPoint[], reference: number): number {
  let best = NaN;
  for (const p of curve) if (Number.isFinite(p.value) && Number.isFinite(reference) && p.value < reference && !(best <= p.period)) best = p.period;
  return best;
}

/** One row of {@link periodAgainstBaselines}: a trace set at one period, the DFRS algorithm and every baseline. */
export interface PeriodComparisonRow {
  trace_set: string;
  period: number;
  /** Average normalized underutilization of the DFRS algorithm at this period. */
  underutilization: number;
  /** Average degradation from bound of the DFRS algorithm at this period. */
  degradation: number;
  /** Per baseline: `<baseline> underutilization` and `<baseline> / DFRS degradation` (how many times further from the bound). */
  [column: string]: string | number;
}

/** Per trace set and baseline: the period at which the DFRS algorithm's underutilization falls below the baseline's. */
export type PeriodCrossover = {
  trace_set: string;
  baseline: string;
  /** The baseline's average normalized underutilization (period-independent). */
  baseline_underutilization: number;
  /** Shortest swept period with a lower average underutilization than the baseline; NaN: never. */
  crossover_period: number;
};

/**
 * The best DFRS algorithm's period sweep (`periodRecords`: one record per
 * trace and period, fields `trace_set`, `period`, `norm_underutilization`,
 * `degradation`) beside each batch baseline of `baselineRecords` (field
 * `algorithm` one of `baselines`): rows per (set, period) and the crossover
 * period per (set, baseline). Sets and periods keep their order of first
 * appearance, periods sorted ascending within a set.
 */
export function periodAgainstBaselines(
  periodRecords: readonly Record<string, unknown>[],
  baselineRecords: readonly Record<string, unknown>[],
  baselines: readonly string[],
): { rows: PeriodComparisonRow[]; crossovers: PeriodCrossover[] } {
  const uu = summarize(periodRecords, { by: ['trace_set', 'period'], value: 'norm_underutilization' });
  const deg = summarize(periodRecords, { by: ['trace_set', 'period'], value: 'degradation' });
  const picked = baselineRecords.filter((r) => baselines.includes(r.algorithm as string));
  const baseUU = summarize(picked, { by: ['algorithm', 'trace_set'], value: 'norm_underutilization' });
  const baseDeg = summarize(picked, { by: ['algorithm', 'trace_set'], value: 'degradation' });
  const baseOf = (list: typeof baseUU, a: string, s: string) => list.find((r) => r.algorithm === a && r.trace_set === s)?.mean ?? NaN;
  const sets = [...new Set(uu.map((r) => r.trace_set as string))];
  const rows: PeriodComparisonRow[] = [];
  const crossovers: PeriodCrossover[] = [];
  for (const s of sets) {
    const points = uu.filter((r) => r.trace_set === s).sort((a, b) => (a.period as number) - (b.period as number));
    for (const p of points) {
      const d = deg.find((r) => r.trace_set === s && r.period === p.period)?.mean ?? NaN;
      const row: PeriodComparisonRow = { trace_set: s, period: p.period as number, underutilization: p.mean, degradation: d };
      for (const b of baselines) {
        row[`${b} underutilization`] = baseOf(baseUU, b, s);
        row[`${b} / DFRS degradation`] = baseOf(baseDeg, b, s) / d;
      }
      rows.push(row);
    }
    const curve = points.map((p) => ({ period: p.period as number, value: p.mean }));
    for (const b of baselines) {
      const reference = baseOf(baseUU, b, s);
      crossovers.push({ trace_set: s, baseline: b, baseline_underutilization: reference, crossover_period: crossoverPeriod(curve, reference) });
    }
  }
  return { rows, crossovers };
}
