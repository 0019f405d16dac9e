/**
 * Summaries of VCSched experiment records in the form the paper reports them:
 * percent degradation from best (Table 1), metric vs slack averaged over the
 * instances an algorithm solved, failure rates, run times.
 */
import { summarize, type SummaryRow } from '../../analysis/summarize';
import { VcRunRecord } from './experiment';

/** Key identifying one instance across algorithms. */
export function instanceId(r: VcRunRecord): string {
  return `${r.set}/${r.parallel ? 'p' : 's'}/${r.hosts}/${r.tasks}/${r.slack}/${r.memCv}/${r.cpuCv}/${r.instance}`;
}

function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    let g = m.get(k);
    if (!g) m.set(k, (g = []));
    g.push(x);
  }
  return m;
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** An algorithm's degradation from the best (or the bound) on one instance. */
export interface DegradationRow {
  algorithm: string;
  /** Average percent degradation from best over the instances the algorithm solved. */
  avgDegradation: number;
  maxDegradation: number;
  /** Instances solved by the algorithm (and counted). */
  solved: number;
  /** Instances solved by at least one of the compared algorithms. */
  instances: number;
}

/** One algorithm on one instance: its percent degradation from the best minimum yield among the compared algorithms. */
export type InstanceDegradation = {
  instance: string;
  algorithm: string;
  degradation: number;
};

/**
 * Percent degradation from best of the minimum yield (paper, Table 1), one row
 * per instance and algorithm that solved it: best = the largest minimum yield
 * among `algorithms` on the instance; an algorithm's degradation is
 * 100 x (best - its yield) / best. Instances no algorithm solved with a
 * positive yield have no rows (failures are counted as failure rates).
 */
export function degradationRecords(records: readonly VcRunRecord[], algorithms: readonly string[]): InstanceDegradation[] {
  const compared = new Set(algorithms);
  const chosen = records.filter((r) => compared.has(r.algorithm) && r.status === 'ok' && r.minYield !== null);
  const rows: InstanceDegradation[] = [];
  for (const [instance, rs] of groupBy(chosen, instanceId)) {
    let best = -Infinity;
    for (const r of rs) best = Math.max(best, r.minYield!);
    if (!(best > 0)) continue;
    for (const r of rs) rows.push({ instance, algorithm: r.algorithm, degradation: (100 * (best - r.minYield!)) / best });
  }
  return rows;
}

/**
 * Table 1: average and maximum of {@link degradationRecords} per algorithm over
 * the instances it solved (the grouped summary), with the number of instances
 * solved by at least one of `algorithms`. Sorted by average degradation.
 */
export function degradationTable(records: readonly VcRunRecord[], algorithms: readonly string[]): DegradationRow[] {
  const rows = degradationRecords(records, algorithms);
  return degradationRows(rows.length ? summarize(rows, { by: ['algorithm'], value: 'degradation' }) : [], algorithms, new Set(rows.map((r) => r.instance)).size);
}

/** Table 1's rows from the grouped summary of {@link degradationRecords} (an algorithm that solved nothing: NaN, 0 solved), sorted by average. */
export function degradationRows(summary: readonly SummaryRow[], algorithms: readonly string[], instances: number): DegradationRow[] {
  return algorithms
    .map((algorithm) => {
      const s = summary.find((r) => r.algorithm === algorithm);
      return { algorithm, avgDegradation: s?.mean ?? NaN, maxDegradation: s?.max ?? NaN, solved: s?.n ?? 0, instances };
    })
    .sort((a, b) => a.avgDegradation - b.avgDegradation);
}

/** One point of a VCSched curve: an algorithm at one slack, with its mean and CI. */
export interface CurveRow {
  algorithm: string;
  x: number;
  mean: number;
  n: number;
  [key: string]: unknown;
}

/**
 * Mean of `value` ('minYield' | 'avgYield' | 'seconds') per algorithm and `x`
 * field ('slack' | 'tasks'), over records with status 'ok' (the paper averages
 * yields over successfully solved instances). `milliseconds: true` scales seconds.
 */
export function curve(
  records: readonly VcRunRecord[],
  options: { value: 'minYield' | 'avgYield' | 'seconds'; x: 'slack' | 'tasks'; algorithms?: readonly string[]; milliseconds?: boolean },
): CurveRow[] {
  const rs = records.filter(
    (r) => (!options.algorithms || options.algorithms.includes(r.algorithm)) && r.status === 'ok' && r[options.value] !== null,
  );
  const out: CurveRow[] = [];
  for (const [, g] of groupBy(rs, (r) => `${r.algorithm}|${r[options.x]}`)) {
    const vals = g.map((r) => (r[options.value] as number) * (options.milliseconds ? 1000 : 1));
    out.push({ algorithm: g[0].algorithm, x: g[0][options.x], mean: mean(vals), n: vals.length });
  }
  return sortCurve(out, options.algorithms);
}

function sortCurve(rows: CurveRow[], algorithms?: readonly string[]): CurveRow[] {
  const order = (a: string) => (algorithms ? algorithms.indexOf(a) : 0);
  return rows.sort((a, b) => order(a.algorithm) - order(b.algorithm) || a.algorithm.localeCompare(b.algorithm) || a.x - b.x);
}

/**
 * The LP-relaxation curve ('LP bound') of `lpMinYield` or `lpAvgYield` vs x,
 * averaged over distinct instances whose relaxation is feasible.
 */
export function boundCurve(records: readonly VcRunRecord[], options: { value: 'lpMinYield' | 'lpAvgYield'; x: 'slack' | 'tasks'; label?: string }): CurveRow[] {
  const perInstance = new Map<string, VcRunRecord>();
  for (const r of records) if (!perInstance.has(instanceId(r))) perInstance.set(instanceId(r), r);
  const rs = [...perInstance.values()].filter((r) => r[options.value] !== null);
  const out: CurveRow[] = [];
  for (const [, g] of groupBy(rs, (r) => String(r[options.x]))) {
    out.push({ algorithm: options.label ?? 'LP bound', x: g[0][options.x], mean: mean(g.map((r) => r[options.value] as number)), n: g.length });
  }
  return out.sort((a, b) => a.x - b.x);
}

/**
 * Failure rate (%) per algorithm and x: share of instances with status 'failed'
 * among those with status 'ok' or 'failed' (skipped and timed-out runs excluded).
 */
export function failureCurve(records: readonly VcRunRecord[], options: { x: 'slack' | 'tasks'; algorithms?: readonly string[] }): CurveRow[] {
  const rs = records.filter((r) => (!options.algorithms || options.algorithms.includes(r.algorithm)) && (r.status === 'ok' || r.status === 'failed'));
  const out: CurveRow[] = [];
  for (const [, g] of groupBy(rs, (r) => `${r.algorithm}|${r[options.x]}`)) {
    const failed = g.filter((r) => r.status === 'failed').length;
    out.push({ algorithm: g[0].algorithm, x: g[0][options.x], mean: (100 * failed) / g.length, n: g.length });
  }
  return sortCurve(out, options.algorithms);
}

/**
 * Mean relative gap (%) of algorithm `a` above algorithm `b` on minimum yield,
 * over instances both solved: 100 x mean((y_a - y_b) / y_b).
 */
export function meanRelativeGap(records: readonly VcRunRecord[], a: string, b: string, field: 'minYield' | 'avgYield' = 'minYield'): { gap: number; n: number } {
  const gaps: number[] = [];
  for (const rs of groupBy(records, instanceId).values()) {
    const ra = rs.find((r) => r.algorithm === a && r.status === 'ok');
    const rb = rs.find((r) => r.algorithm === b && r.status === 'ok');
    if (ra && rb && ra[field] !== null && rb[field]! > 0) gaps.push((100 * (ra[field]! - rb[field]!)) / rb[field]!);
  }
  return { gap: gaps.length ? mean(gaps) : NaN, n: gaps.length };
}

/** Same as {@link meanRelativeGap} but against the LP relaxation bound of each instance. */
export function meanGapToBound(records: readonly VcRunRecord[], algorithm: string, options: { minSlack?: number; maxSlack?: number } = {}): { gap: number; n: number } {
  const gaps = records
    .filter(
      (r) =>
        r.algorithm === algorithm &&
        r.status === 'ok' &&
        r.lpMinYield !== null &&
        r.minYield !== null &&
        r.slack >= (options.minSlack ?? -Infinity) - 1e-9 &&
        r.slack <= (options.maxSlack ?? Infinity) + 1e-9,
    )
    .map((r) => (100 * (r.lpMinYield! - r.minYield!)) / r.lpMinYield!);
  return { gap: gaps.length ? mean(gaps) : NaN, n: gaps.length };
}

/**
 * Gap (%) between the average curves of the LP bound and of `algorithm` at
 * one slack, as read off a figure like the paper's Figure 15:
 * 100 x (mean bound − mean yield) / mean bound, the bound averaged over every
 * instance with a feasible relaxation (boundCurve) and the yield over the
 * instances the algorithm solved (curve). Unlike meanGapToBound (the mean of
 * per-instance gaps), a few near-zero yields weigh no more than their size.
 */
export function curveGapToBound(records: readonly VcRunRecord[], algorithm: string, slack: number): { gap: number; bound: number; yield: number; boundN: number; n: number } {
  const atSlack = records.filter((r) => Math.abs(r.slack - slack) < 1e-9);
  const b = boundCurve(atSlack, { value: 'lpMinYield', x: 'slack' })[0];
  const y = curve(atSlack, { value: 'minYield', x: 'slack', algorithms: [algorithm] })[0];
  if (!b || !y) return { gap: NaN, bound: b?.mean ?? NaN, yield: y?.mean ?? NaN, boundN: b?.n ?? 0, n: y?.n ?? 0 };
  return { gap: (100 * (b.mean - y.mean)) / b.mean, bound: b.mean, yield: y.mean, boundN: b.n, n: y.n };
}
