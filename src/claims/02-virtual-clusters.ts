/**
 * Claims of Stillwell, Schanzenbach, Vivien & Casanova, "Resource allocation
 * algorithms for virtualized service hosting platforms" (VCSched), section 4:
 * Tables 1 and 7 (percent degradation from best of the eight MCB variants)
 * and the numbers and orderings the text states about Figures 11–22, with the
 * computations notebook 02 uses (src/schedulers/vcsched/analysis.ts).
 */
import { mean } from 'simple-statistics';
import { curveGapToBound, degradationTable, instanceId, meanGapToBound, meanRelativeGap, VcRunRecord } from '../schedulers/vcsched';
import { experiment, VcschedPart } from '../sweep/papers/02-virtual-clusters';
import type { Claim, ClaimRegistry, Measured, Published } from './registry';
import { experimentView, fmt } from './measures';
import { memoizeByArray } from '../util/memo';

type View = Record<VcschedPart, VcRunRecord[]>;
const MCB = ['MCB1', 'MCB2', 'MCB3', 'MCB4', 'MCB5', 'MCB6', 'MCB7', 'MCB8'];

/** Published Table 1 (small instances) and Table 7 (large): % degradation from best, average and maximum. */
const PUBLISHED_DEGRADATION: Record<'small' | 'large', Record<string, { avg: number; max: number }>> = {
  small: { MCB8: { avg: 1.06, max: 40.45 }, MCB5: { avg: 1.6, max: 38.67 }, MCB6: { avg: 1.83, max: 37.61 }, MCB7: { avg: 3.91, max: 40.71 }, MCB3: { avg: 11.76, max: 55.73 }, MCB2: { avg: 14.21, max: 48.3 }, MCB1: { avg: 14.9, max: 55.84 }, MCB4: { avg: 17.32, max: 46.95 } },
  large: { MCB8: { avg: 0.09, max: 3.16 }, MCB5: { avg: 0.25, max: 3.5 }, MCB6: { avg: 0.46, max: 16.68 }, MCB7: { avg: 1.04, max: 48.39 }, MCB3: { avg: 4.07, max: 64.71 }, MCB2: { avg: 8.68, max: 46.68 }, MCB1: { avg: 10.97, max: 73.33 }, MCB4: { avg: 14.8, max: 61.2 } },
};

/** Percentages: ±1 point or ±20 % (the paper's degradations are small numbers over few instances). */
const pct = (value: number): Published => ({ kind: 'value', value, unit: '%', tolerance: { absolute: 1, relative: 0.2 } });
const count = (value: number): Published => ({ kind: 'value', value, tolerance: { absolute: 0, relative: 0.2 } });
const timing = (what: string): Published => ({ kind: 'not comparable', reason: `${what} is a wall-clock time on the paper's 3.2 GHz Xeon with GLPK; ours is another machine and solver (bench/vcsched.ts times it)` });

/** Computed once per records array (memoizeByArray): 35 claims read Table 1 or 7 of the same view (and several the same instance grouping). */
const mcbTable = memoizeByArray((rs: readonly VcRunRecord[]) => degradationTable(rs, MCB));

function degradationClaim(set: 'small' | 'large', a: string, k: 'avg' | 'max'): Claim<View> {
  return {
    id: `table${set === 'small' ? 1 : 7}-${k}-${a}`, place: set === 'small' ? 'Table 1 (small instances)' : 'Table 7 (large instances)',
    headline: a === 'MCB8' && k === 'avg',
    statement: `${a}: ${k === 'avg' ? 'average' : 'maximum'} percent degradation from best (minimum yield) among the eight MCB variants`,
    published: pct(PUBLISHED_DEGRADATION[set][a][k]),
    ...(set === 'large' && k === 'max' && ['MCB8', 'MCB5', 'MCB6'].includes(a)
      ? { cause: "not the generator's truncation: with values clipped to [0, 1] instead of redrawn the maximum stays far above the published one (notebook 02, ablation); it is one near-infeasible instance at slack 0.1-0.2, where a small absolute difference is a large relative one" }
      : {}),
    measure: (v) => {
      const row = mcbTable(v[set]).find((r) => r.algorithm === a)!;
      return { value: k === 'avg' ? row.avgDegradation : row.maxDegradation, text: `${fmt(k === 'avg' ? row.avgDegradation : row.maxDegradation)}% (${row.solved} solved of ${row.instances} instances)` };
    },
  };
}

const feasibleIdsOf = memoizeByArray((rs: readonly VcRunRecord[]) => new Set(rs.filter((r) => r.algorithm === 'EXACT' && r.status === 'ok').map(instanceId)));
const feasibleIds = (v: View) => feasibleIdsOf(v.small);
const failsOnFeasible = (v: View, a: string) => {
  const f = feasibleIds(v);
  return v.small.filter((r) => r.algorithm === a && f.has(instanceId(r)) && r.status === 'failed').length;
};
const failRate = (rs: readonly VcRunRecord[], a: string, maxSlack = Infinity) => {
  const xs = rs.filter((r) => r.algorithm === a && r.slack <= maxSlack + 1e-9 && (r.status === 'ok' || r.status === 'failed'));
  return xs.filter((r) => r.status === 'failed').length / xs.length;
};
const gapToBound = (rs: readonly VcRunRecord[], a: string, o: { minSlack?: number; maxSlack?: number }): Measured => {
  const g = meanGapToBound(rs, a, o);
  return { value: g.gap, text: `${fmt(g.gap)}% below the LP bound (${g.n} instances)` };
};

/** The paper reads its gaps off Figure 15's average curves: the comparable quantity is the gap between the curves (the per-instance mean beside it). */
const curveGap = (rs: readonly VcRunRecord[], slack: number): Measured => {
  const c = curveGapToBound(rs, 'MCB8', slack);
  const paired = meanGapToBound(rs, 'MCB8', { minSlack: slack, maxSlack: slack });
  return { value: c.gap, text: `${fmt(c.gap)}% between the average curves (bound over ${c.boundN}, MCB8 over ${c.n} solved instances); mean per-instance gap ${fmt(paired.gap)}%` };
};
const CURVE_GAP_CAUSE = 'measured as the paper shows it, the gap between the average curves of Figure 15 (the mean of per-instance gaps, compared before, is another quantity); what remains is the low-slack instances our generator makes feasible';

const claims: Claim<View>[] = [
  ...(['small', 'large'] as const).flatMap((set) => MCB.flatMap((a) => (['avg', 'max'] as const).map((k) => degradationClaim(set, a, k)))),
  {
    id: 'mcb8-best-small', place: 'Table 1; Section 4.2.1', statement: 'MCB8 has the lowest average percent degradation from best (small instances)', published: { kind: 'direction' },
    measure: (v) => { const t = mcbTable(v.small); const o = t.filter((r) => r.algorithm !== 'MCB8'); const m8 = t.find((r) => r.algorithm === 'MCB8')!.avgDegradation; return { value: Math.min(...o.map((r) => r.avgDegradation)) - m8, text: `MCB8 ${fmt(m8)}%, next ${fmt(Math.min(...o.map((r) => r.avgDegradation)))}%` }; },
  },
  {
    id: 'mcb8-best-large', place: 'Table 7; Section 4.2.1', statement: 'according to both metrics (average and maximum degradation) MCB8 is the best algorithm on large instances', published: { kind: 'direction' },
    measure: (v) => {
      const t = mcbTable(v.large);
      const m8 = t.find((r) => r.algorithm === 'MCB8')!;
      const o = t.filter((r) => r.algorithm !== 'MCB8');
      const margin = Math.min(Math.min(...o.map((r) => r.avgDegradation)) - m8.avgDegradation, Math.min(...o.map((r) => r.maxDegradation)) - m8.maxDegradation);
      return { value: margin === 0 ? Number.EPSILON : margin, text: `MCB8 avg ${fmt(m8.avgDegradation)}%, max ${fmt(m8.maxDegradation)}%; others' lowest avg ${fmt(Math.min(...o.map((r) => r.avgDegradation)))}%, max ${fmt(Math.min(...o.map((r) => r.maxDegradation)))}%` };
    },
  },
  {
    id: 'descending-beats-ascending', place: 'Figure 2; Section 4.2.1', statement: 'the four MCB algorithms that sort tasks in descending order (MCB5–8) outperform the four ascending ones (MCB1–4) (read: every descending variant has a lower average degradation than every ascending one, small instances)', published: { kind: 'direction' },
    measure: (v) => { const t = mcbTable(v.small); const d = (as: string[]) => as.map((a) => t.find((r) => r.algorithm === a)!.avgDegradation); return { value: Math.min(...d(['MCB1', 'MCB2', 'MCB3', 'MCB4'])) - Math.max(...d(['MCB5', 'MCB6', 'MCB7', 'MCB8'])), text: `worst descending ${fmt(Math.max(...d(['MCB5', 'MCB6', 'MCB7', 'MCB8'])))}%, best ascending ${fmt(Math.min(...d(['MCB1', 'MCB2', 'MCB3', 'MCB4'])))}%` }; },
  },
  {
    id: 'mcb8-solved-small', place: 'Section 4.2.1', statement: 'MCB8 solved 1,379 of the small instances', published: count(1379),
    measure: (v) => { const n = v.small.filter((r) => r.algorithm === 'MCB8' && r.status === 'ok').length; return { value: n, text: `${n} solved` }; },
  },
  ...([[3, 155], [10, 19]] as const).map(([above, n]): Claim<View> => ({
    id: `mcb8-degradation-above-${above}`, place: 'Section 4.2.1', statement: `MCB8's degradation from best exceeds ${above}% on only ${n} small instances`, published: count(n),
    measure: (v) => {
      const chosen = v.small.filter((r) => MCB.includes(r.algorithm) && r.status === 'ok' && r.minYield !== null);
      const by = new Map<string, VcRunRecord[]>();
      for (const r of chosen) by.set(instanceId(r), [...(by.get(instanceId(r)) ?? []), r]);
      let k = 0;
      for (const rs of by.values()) {
        const best = Math.max(...rs.map((r) => r.minYield!));
        const m8 = rs.find((r) => r.algorithm === 'MCB8');
        if (best > 0 && m8 && (100 * (best - m8.minYield!)) / best > above) k++;
      }
      return { value: k, text: `${k} instances` };
    },
  })),
  { id: 'mcb-runtime-small', place: 'Figure 5; Section 4.2.1', statement: 'all MCB algorithms run in under 0.18 ms on average, MCB8 the fastest by a tiny margin', published: timing('the MCB run time') },
  { id: 'mcb-runtime-large', place: 'Figure 10; Section 4.2.1', statement: 'run times under one-half second for 500 tasks for all MCB algorithms, MCB8 fastest', published: timing('the MCB run time') },
  {
    id: 'lp-above-milp', place: 'Figure 11; Section 4.2.2', statement: 'the LP solution is only about 4% higher on average than the MILP (optimal) minimum yield', published: pct(4),
    measure: (v) => { const xs = v.small.filter((r) => r.algorithm === 'EXACT' && r.status === 'ok' && r.lpMinYield !== null && r.minYield! > 0).map((r) => (100 * (r.lpMinYield! - r.minYield!)) / r.minYield!); return { value: mean(xs), samples: xs, text: `${fmt(mean(xs))}% (${xs.length} instances)` }; },
  },
  {
    id: 'milp-above-mcb8', place: 'Figure 11; Section 4.2.2', headline: true, statement: 'on average the exact MILP solution is about 2% better than MCB8', published: pct(2),
    measure: (v) => { const g = meanRelativeGap(v.small, 'EXACT', 'MCB8'); return { value: g.gap, text: `${fmt(g.gap)}% (${g.n} instances)` }; },
  },
  ...['GR', 'SG', 'GB', 'SGB'].map((a): Claim<View> => ({
    id: `milp-above-${a}`, place: 'Figure 11; Section 4.2.2', statement: `the MILP solution is about 11% to 13% better than the greedy algorithms (${a}; published: the middle, 12%)`,
    published: { kind: 'value', value: 12, unit: '%', tolerance: { absolute: 1 } },
    measure: (v) => { const g = meanRelativeGap(v.small, 'EXACT', a); return { value: g.gap, text: `${fmt(g.gap)}% (${g.n} instances)` }; },
  })),
  {
    id: 'rrnz-above-rrnd', place: 'Figure 11; Section 4.2.2', statement: 'RRNZ slightly outperforms RRND (minimum yield, small instances)', published: { kind: 'direction' },
    measure: (v) => { const g = meanRelativeGap(v.small, 'RRNZ', 'RRND'); return { value: g.gap, text: `RRNZ ${fmt(g.gap)}% above RRND (${g.n} instances)` }; },
    cause: "RRNZ draws from a random stream of its own (our choice): on the instances where RRND's draws happened to fit, an independent rounding is worse. With RRNZ drawing from RRND's stream (roundingStream 'shared') it is slightly better than RRND, as published; RRNZ's epsilon alone does not do it (notebook 02, ablation)",
  },
  {
    id: 'infeasible-small', place: 'Figure 13; Section 4.2.2', statement: '60 of the 1,440 small instances were infeasible (no solution found by the exact solver)', published: count(60),
    measure: (v) => { const all = new Set(v.small.map(instanceId)).size; const n = all - feasibleIds(v).size; return { value: n, text: `${n} of ${all}` }; },
    cause: 'partly the reading of "truncated so that values are between 0 and 1": clipping instead of redrawing gives fewer infeasible instances, still more than published (notebook 02, ablation); the rest is unexplained (seeds, the paper\'s exact generator)',
  },
  ...([['GB', 0], ['SGB', 0], ['MCB8', 1], ['SG', 15]] as const).map(([a, n]): Claim<View> => ({
    id: `fails-feasible-${a}`, place: 'Figure 13; Section 4.2.2', statement: `out of the feasible small instances, ${a} fails ${n === 0 ? 'never' : n === 1 ? 'once' : `${n} times`}`, published: { kind: 'value', value: n, tolerance: { absolute: n === 0 ? 0 : Math.max(1, Math.round(0.2 * n)) } },
    measure: (v) => { const k = failsOnFeasible(v, a); return { value: k, text: `${k} failures on ${feasibleIds(v).size} feasible instances` }; },
  })),
  { id: 'milp-time', place: 'Figure 14; Section 4.2.2', statement: 'the exact MILP took 28.7 s on average; 9 instances over 500 s; one 11,549.29 s', published: timing('the MILP solve time') },
  { id: 'greedy-runtime-small', place: 'Figure 14; Section 4.2.2', statement: 'greedy and MCB8 run times under 0.15 ms on average; RRND and RRNZ a little over 2 ms', published: timing('the heuristics\' run time') },
  { id: 'mcb8-bound-slack-0.2', place: 'Figure 15; Section 4.2.3', statement: 'MCB8 is only 8% away from the LP upper bound at slack 0.2 (large instances)', published: pct(8), measure: (v) => curveGap(v.large, 0.2), cause: CURVE_GAP_CAUSE },
  { id: 'mcb8-bound-slack-0.1', place: 'Figure 15; Section 4.2.3', statement: 'MCB8 is 37% away from the LP upper bound at slack 0.1 (large instances)', published: pct(37), measure: (v) => curveGap(v.large, 0.1), cause: CURVE_GAP_CAUSE },
  { id: 'mcb8-bound-slack-0.3+', place: 'Figure 15; Section 4.2.3', statement: 'MCB8 is extremely close to the upper bound as soon as the slack is 0.3 or larger (read: within 1%)', published: { kind: 'direction' }, measure: (v) => { const g = meanGapToBound(v.large, 'MCB8', { minSlack: 0.3 }); return { value: 1 - g.gap, text: `${fmt(g.gap)}% below the bound (${g.n} instances)` }; } },
  ...['GR', 'SG', 'GB', 'SGB'].map((a): Claim<View> => ({ id: `greedy-bound-${a}`, place: 'Figure 15; Section 4.2.3', statement: `the greedy algorithms (${a}) are on average 20% below the LP bound for slack larger than 0.2`, published: pct(20), measure: (v) => gapToBound(v.large, a, { minSlack: 0.3 }) })),
  {
    id: 'gr-gb-identical-large', place: 'Figure 15; Section 4.2.3', statement: 'GR and GB perform nearly identically on large instances (read: mean minimum yields within 1%)', published: { kind: 'direction' },
    measure: (v) => { const g = meanRelativeGap(v.large, 'GB', 'GR'); return { value: 1 - Math.abs(g.gap), text: `GB ${fmt(g.gap)}% vs GR (${g.n} instances)` }; },
  },
  {
    id: 'rrnz-drops-with-slack', place: 'Figure 15; Section 4.2.3', statement: 'RRNZ\'s minimum yield unexpectedly drops as slack increases (read: lower at slack 0.9 than at 0.5)', published: { kind: 'direction' },
    measure: (v) => { const at = (s: number) => mean(v.large.filter((r) => r.algorithm === 'RRNZ' && r.status === 'ok' && Math.abs(r.slack - s) < 1e-9).map((r) => r.minYield!)); return { value: at(0.5) - at(0.9), text: `RRNZ mean minimum yield ${fmt(at(0.5))} at slack 0.5, ${fmt(at(0.9))} at 0.9` }; },
  },
  {
    id: 'rrnd-fails-low-slack', place: 'Figure 15; Section 4.2.3', statement: 'RRND failed to solve any large instance for slack values less than 0.4', published: { kind: 'direction' },
    measure: (v) => { const solved = v.large.filter((r) => r.algorithm === 'RRND' && r.status === 'ok' && r.slack < 0.4 - 1e-9).length; return { value: solved === 0 ? 1 : -solved, text: `${solved} large instances with slack < 0.4 solved by RRND` }; },
    cause: "the optimal vertex of the relaxation that RRND rounds, not a rounding rule (none changes RRND's draws): from the vertex HiGHS's interior point method with crossover ends at, RRND solves none of the 500-task instances at slack 0.3 that it solves some of from our dual-simplex vertex (notebook 02, ablation)",
  },
  {
    id: 'greedy-higher-avg-yield', place: 'Figure 16; Section 4.2.3', statement: 'the greedy algorithms achieve higher average yields than MCB8 on large instances (read: GR and SG mean average yield above MCB8\'s)', published: { kind: 'direction' },
    measure: (v) => { const g = Math.min(meanRelativeGap(v.large, 'GR', 'MCB8', 'avgYield').gap, meanRelativeGap(v.large, 'SG', 'MCB8', 'avgYield').gap); return { value: g, text: `smallest gap of GR/SG over MCB8 in average yield: ${fmt(g)}%` }; },
  },
  {
    id: 'failures-40pct-lower', place: 'Figure 17; Section 4.2.3', statement: 'SG, SGB and MCB8 have failure rates about 40% lower than the other greedy algorithms and RRNZ (large instances)', published: pct(40),
    measure: (v) => {
      const low = mean(['SG', 'SGB', 'MCB8'].map((a) => failRate(v.large, a)));
      const high = mean(['GR', 'GB', 'RRNZ'].map((a) => failRate(v.large, a)));
      return { value: (100 * (high - low)) / high, text: `failure rate ${fmt(100 * low)}% vs ${fmt(100 * high)}%: ${fmt((100 * (high - low)) / high)}% lower` };
    },
  },
  {
    id: 'rrnd-14x-failures', place: 'Figure 17; Section 4.2.3', statement: 'RRND\'s failure rate is more than 14 times that of SG, SGB and MCB8 (large instances)', published: { kind: 'direction' },
    measure: (v) => { const low = Math.max(...['SG', 'SGB', 'MCB8'].map((a) => failRate(v.large, a))); const r = failRate(v.large, 'RRND') / low; return { value: r - 14, text: `RRND / highest of SG, SGB, MCB8: ${fmt(r)}×` }; },
  },
  { id: 'rr-runtime-large', place: 'Figure 18; Section 4.2.3', statement: 'RRND and RRNZ need up to roughly 650 s on average for 500 tasks', published: timing('the randomized rounding run time') },
  { id: 'greedy-runtime-large', place: 'Figure 18; Section 4.2.3', statement: 'greedy algorithms return in 15 to 20 ms for 500 tasks, MCB8 in nearly half a second', published: timing('the heuristics\' run time') },
  {
    id: 'par-failures-identical', place: 'Figure 21; Section 4.3', statement: 'the failure rates of MCB8 and SG are identical (parallel jobs)', published: { kind: 'direction' },
    measure: (v) => { const d = Math.abs(failRate(v.par, 'MCB8') - failRate(v.par, 'SG')); return { value: d === 0 ? 1 : -d, text: `MCB8 ${fmt(100 * failRate(v.par, 'MCB8'))}%, SG ${fmt(100 * failRate(v.par, 'SG'))}%` }; },
  },
  {
    id: 'par-mcb8-above-sg', place: 'Figure 19; Section 4.3', statement: 'MCB8 outperforms SG in minimum yield for parallel jobs', published: { kind: 'direction' },
    measure: (v) => { const g = meanRelativeGap(v.par, 'MCB8', 'SG'); return { value: g.gap, text: `MCB8 ${fmt(g.gap)}% above SG (${g.n} instances)` }; },
  },
  { id: 'par-sg-32x-faster', place: 'Figure 22; Section 4.3', statement: 'SG is roughly 32 times faster than MCB8 for 500 tasks; MCB8 under half a second', published: timing('the run-time ratio') },
];

export const registry: ClaimRegistry<View> = {
  notebook: experiment.notebook,
  paper: 'Stillwell, Schanzenbach, Vivien & Casanova, Resource allocation algorithms for virtualized service hosting platforms (VCSched)',
  view: (records) => experimentView(experiment, records),
  claims,
  chart: {
    kind: 'claims', place: 'Table 1 (small instances)', title: 'average % degradation from best, the eight MCB variants', xLabel: 'algorithm', yLabel: 'average degradation from best (%)',
    ids: (id) => id.startsWith('table1-avg-'),
    label: (r) => r.id.slice('table1-avg-'.length),
  },
};
