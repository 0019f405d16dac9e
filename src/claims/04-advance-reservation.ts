/**
 * Claims of Li et al., "Resource availability-aware advance reservation for
 * parallel jobs with deadlines", section 6.2 (Figures 2–7) and the
 * conclusion, on the notebook's model sweeps (Lublin model, 10,000 requests,
 * 5 replications per point). The figures are images without numbers, so every
 * claim is a direction; orderings are read from the replication means.
 */
import { linearRegression, rSquared, linearRegressionLine, sampleRankCorrelation } from 'simple-statistics';
import { ReservationRunRecord, ReservationSummaryRow, summarizeReservationRuns } from '../schedulers/reservation/experiment';
import { RESERVATION_POLICIES } from '../schedulers/reservation/policies';
import { experiment, ReservationPart } from '../sweep/papers/04-advance-reservation';
import type { Claim, ClaimRegistry, Measured } from './registry';
import { judge } from './registry';
import { everywhere, experimentView, fmt } from './measures';

type Sweep = 'uMed' | 'arrivalFactor' | 'flexibility';
type Metric = 'acceptanceRate' | 'averageSlowdown';
export type ReservationClaimsView = Record<Sweep, ReservationSummaryRow[]>;

/** "Almost identical" pairs: mean absolute difference of the means over a sweep's settings at most this (acceptance, percentage points; slowdown, relative). */
export const ALIKE = { acceptanceRate: 1, averageSlowdown: 0.05 };

const POLICIES: readonly string[] = RESERVATION_POLICIES;
const xsOf = (rows: readonly ReservationSummaryRow[]) => [...new Set(rows.map((r) => r.x))].sort((a, b) => a - b);
const at = (rows: readonly ReservationSummaryRow[], x: number, p: string) => rows.find((r) => r.x === x && r.policy === p)!;
const NAMES: Record<Sweep, string> = { uMed: 'UMed', arrivalFactor: 'arrival factor', flexibility: '{artime, deadline} factor' };
const FIG: Record<Sweep, Record<Metric, string>> = {
  uMed: { acceptanceRate: 'Figure 2', averageSlowdown: 'Figure 3' },
  arrivalFactor: { acceptanceRate: 'Figure 4', averageSlowdown: 'Figure 5' },
  flexibility: { acceptanceRate: 'Figure 6', averageSlowdown: 'Figure 7' },
};
const SEC: Record<Sweep, string> = { uMed: 'Section 6.2.1', arrivalFactor: 'Section 6.2.2', flexibility: 'Section 6.2.3' };

/** `policies` move in direction `dir` (+1 rises, −1 falls) between consecutive values of the sweep: margin = smallest step. */
function monotone(rows: readonly ReservationSummaryRow[], metric: Metric, dir: 1 | -1, policies: readonly string[] = POLICIES): Measured {
  const xs = xsOf(rows);
  const cases = policies.flatMap((p) => xs.slice(1).map((x, i) => ({ at: `${p}, ${xs[i]} → ${x}`, margin: dir * (at(rows, x, p)[metric] - at(rows, xs[i], p)[metric]) })));
  return everywhere(cases);
}

/** `policy` has the best value (highest acceptance / lowest slowdown) at every value of the sweep. */
function best(rows: readonly ReservationSummaryRow[], metric: Metric, policy: string, among: readonly string[] = POLICIES): Measured {
  const sign = metric === 'acceptanceRate' ? 1 : -1;
  return everywhere(xsOf(rows).map((x) => {
    const others = among.filter((p) => p !== policy).map((p) => ({ p, v: at(rows, x, p)[metric] }));
    const rival = others.reduce((a, b) => (sign * b.v > sign * a.v ? b : a));
    return { at: `${x} (next: ${rival.p})`, margin: sign * (at(rows, x, policy)[metric] - rival.v) };
  }));
}

/** Mean absolute difference of two policies' means over the sweep (relative to their mean for slowdown). */
function meanAbsDiff(rows: readonly ReservationSummaryRow[], metric: Metric, a: string, b: string): number {
  const xs = xsOf(rows);
  const d = xs.map((x) => {
    const va = at(rows, x, a)[metric];
    const vb = at(rows, x, b)[metric];
    return metric === 'acceptanceRate' ? Math.abs(va - vb) : Math.abs(va - vb) / ((va + vb) / 2);
  });
  return d.reduce((s, v) => s + v, 0) / d.length;
}

const unitOf = (metric: Metric) => (metric === 'acceptanceRate' ? ' points' : ' (relative)');

/** What notebook 04's ablation of the two unstated choices found, per claim. */
const CAUSES: Record<string, string> = {
  'alike-uMed-acceptance-PE_W-Du_B':
    "partly the end of an open rectangle: ending it at the last time slot instead of +∞ ('last-slot') moves Du_B most of the way to PE_W but not to almost identical, and loses three statements the default reproduces (the PE-Duration and PE_B/Du_W likenesses, PE_W or Du_B best at every UMed); random PEs do not move it (notebook 04, ablation)",
  'flex-others-unstable':
    "the end of an open rectangle: with 'last-slot' Du_W and PEDu_W flatten or dip at {4, 4} and the statement holds (FF and PE_B, which never look at durations, stay smooth); with +∞ (ours) every policy rises smoothly; random PEs do not change it (notebook 04, ablation)",
};

function alike(sweep: Sweep, metric: Metric, a: string, b: string, headline = false): Claim<ReservationClaimsView> {
  const id = `alike-${sweep}-${metric === 'acceptanceRate' ? 'acceptance' : 'slowdown'}-${a}-${b}`;
  return {
    ...(CAUSES[id] ? { cause: CAUSES[id] } : {}),
    id: `alike-${sweep}-${metric === 'acceptanceRate' ? 'acceptance' : 'slowdown'}-${a}-${b}`, place: `${FIG[sweep][metric]}; ${SEC[sweep]}`, headline,
    statement: `${a} and ${b} behave almost identically in ${metric === 'acceptanceRate' ? 'acceptance rate' : 'average slowdown'} (read: mean absolute difference ≤ ${ALIKE[metric]}${unitOf(metric)})`,
    published: { kind: 'direction' },
    measure: (v) => {
      const d = meanAbsDiff(v[sweep], metric, a, b);
      return { value: ALIKE[metric] - d, text: `mean |Δ| ${fmt(d)}${unitOf(metric)} over ${xsOf(v[sweep]).length} values of ${NAMES[sweep]}` };
    },
  };
}

function differ(sweep: Sweep, metric: Metric, a: string, b: string, statement: string): Claim<ReservationClaimsView> {
  return {
    id: `differ-${sweep}-${metric === 'acceptanceRate' ? 'acceptance' : 'slowdown'}-${a}-${b}`, place: `${FIG[sweep][metric]}; ${SEC[sweep]}`,
    statement: `${statement} (read: mean absolute difference > ${ALIKE[metric]}${unitOf(metric)})`,
    published: { kind: 'direction' },
    measure: (v) => {
      const d = meanAbsDiff(v[sweep], metric, a, b);
      return { value: d - ALIKE[metric], text: `mean |Δ| ${fmt(d)}${unitOf(metric)}` };
    },
  };
}

function beatsFF(p: string): Claim<ReservationClaimsView> {
  return {
    id: `beats-ff-${p}`, place: 'Figure 2; Section 6.2.1', statement: `${p} outperforms FF in acceptance rate (every UMed value)`,
    published: { kind: 'direction' },
    measure: (v) => everywhere(xsOf(v.uMed).map((x) => ({ at: `UMed ${x}`, margin: at(v.uMed, x, p).acceptanceRate - at(v.uMed, x, 'FF').acceptanceRate })), ' points'),
  };
}

function notBeatsFF(p: string): Claim<ReservationClaimsView> {
  return {
    id: `not-beats-ff-${p}`, place: 'Figure 2; Section 6.2.1', statement: `${p} does not outperform FF in acceptance rate (read: mean over the UMed values at most FF's)`,
    published: { kind: 'direction' },
    measure: (v) => {
      const xs = xsOf(v.uMed);
      const d = xs.map((x) => at(v.uMed, x, 'FF').acceptanceRate - at(v.uMed, x, p).acceptanceRate).reduce((a, b) => a + b, 0) / xs.length;
      // ≤ is the claim: equal means still hold.
      return { value: d >= 0 ? d + Number.EPSILON : d, text: `FF − ${p}: ${fmt(d)} points on average over UMed` };
    },
  };
}

/** Spearman correlation of the policies' mean rank (by `metric`) in two sweeps. */
function sameOrder(a: Sweep, b: Sweep, metric: Metric): Claim<ReservationClaimsView> {
  return {
    id: `same-order-${a}-${b}-${metric === 'acceptanceRate' ? 'acceptance' : 'slowdown'}`, place: `${FIG[a][metric]} vs ${FIG[b][metric]}; Section 6.2.2`,
    statement: `the relative performance of the algorithms is similar in the ${NAMES[a]} and the ${NAMES[b]} experiments (read: Spearman correlation of the policies' averages ≥ 0.8)`,
    published: { kind: 'direction' },
    measure: (v) => {
      const avg = (s: Sweep) => POLICIES.map((p) => { const r = v[s].filter((row) => row.policy === p); return r.reduce((t, row) => t + row[metric], 0) / r.length; });
      const rho = sampleRankCorrelation(avg(a), avg(b));
      return { value: rho - 0.8, text: `Spearman ${fmt(rho)}` };
    },
  };
}

const STABLE = ['PE_W', 'Du_B', 'PEDu_B'];
const r2 = (rows: readonly ReservationSummaryRow[], p: string) => {
  const pts = xsOf(rows).map((x) => [x, at(rows, x, p).acceptanceRate]);
  return rSquared(pts, linearRegressionLine(linearRegression(pts)));
};

const claims: Claim<ReservationClaimsView>[] = [
  { id: 'acceptance-falls-umed', place: 'Figure 2; Section 6.2.1', statement: 'as UMed grows from low to high, the acceptance rates of all strategies decrease', published: { kind: 'direction' }, measure: (v) => monotone(v.uMed, 'acceptanceRate', -1) },
  alike('uMed', 'acceptanceRate', 'PE_W', 'Du_B'),
  alike('uMed', 'acceptanceRate', 'PEDu_B', 'PEDu_W'),
  alike('uMed', 'acceptanceRate', 'PE_B', 'Du_W'),
  ...['PE_W', 'Du_B', 'PEDu_B', 'PEDu_W'].map(beatsFF),
  ...['PE_B', 'Du_W'].map(notBeatsFF),
  {
    id: 'best-umed', place: 'Figure 2; Section 6.2.1', statement: 'PE_W and Du_B perform much better than FF and are the best strategies for all UMed values (read: one of the two has the highest acceptance at every UMed)',
    published: { kind: 'direction' },
    measure: (v) => everywhere(xsOf(v.uMed).map((x) => {
      const top = Math.max(at(v.uMed, x, 'PE_W').acceptanceRate, at(v.uMed, x, 'Du_B').acceptanceRate);
      const rest = Math.max(...POLICIES.filter((p) => p !== 'PE_W' && p !== 'Du_B').map((p) => at(v.uMed, x, p).acceptanceRate));
      return { at: `UMed ${x}`, margin: top - rest };
    }), ' points'),
  },
  differ('uMed', 'acceptanceRate', 'PE_B', 'PE_W', 'the performance of PE_B and PE_W is quite different'),
  differ('uMed', 'acceptanceRate', 'Du_B', 'Du_W', 'the performance of Du_B and Du_W is quite different'),
  { id: 'slowdown-grows-umed', place: 'Figure 3; Section 6.2.1', statement: 'as UMed grows, the average slowdown of all strategies increases in general (read: highest UMed above lowest, every policy)', published: { kind: 'direction' }, measure: (v) => {
    const xs = xsOf(v.uMed);
    return everywhere(POLICIES.map((p) => ({ at: p, margin: at(v.uMed, xs[xs.length - 1], p).averageSlowdown - at(v.uMed, xs[0], p).averageSlowdown })));
  } },
  { id: 'ff-lowest-slowdown-umed', place: 'Figure 3; Section 6.2.1', statement: 'jobs with FF experience the lowest average slowdown (every UMed value)', published: { kind: 'direction' }, measure: (v) => best(v.uMed, 'averageSlowdown', 'FF') },
  alike('uMed', 'averageSlowdown', 'PE_W', 'Du_B'),
  alike('uMed', 'averageSlowdown', 'PE_B', 'Du_W'),
  differ('uMed', 'averageSlowdown', 'PEDu_B', 'PEDu_W', 'the slowdowns of PEDu_B and PEDu_W are surprisingly different'),
  { id: 'acceptance-falls-af', place: 'Figure 4; Section 6.2.2', statement: 'as the arrival factor grows, the acceptance rates of all strategies degrade', published: { kind: 'direction' }, measure: (v) => monotone(v.arrivalFactor, 'acceptanceRate', -1) },
  { id: 'slowdown-grows-af', place: 'Figure 5; Section 6.2.2', statement: 'as the arrival factor grows, the slowdowns of all strategies degrade (increase)', published: { kind: 'direction' }, measure: (v) => monotone(v.arrivalFactor, 'averageSlowdown', 1) },
  sameOrder('uMed', 'arrivalFactor', 'acceptanceRate'),
  sameOrder('uMed', 'arrivalFactor', 'averageSlowdown'),
  { id: 'acceptance-rises-flex-stable', place: 'Figure 6; Section 6.2.3', statement: 'as flexibility grows, the acceptance rates of PE_W, Du_B and PEDu_B increase almost linearly (read: monotone, and a linear fit with R² ≥ 0.9)', published: { kind: 'direction' }, measure: (v) => {
    const m = monotone(v.flexibility, 'acceptanceRate', 1, STABLE);
    const fits = STABLE.map((p) => ({ p, r: r2(v.flexibility, p) }));
    const worst = fits.reduce((a, b) => (b.r < a.r ? b : a));
    return { value: Math.min(m.value, worst.r - 0.9), text: `${m.text}; lowest R² ${fmt(worst.r)} (${worst.p})` };
  } },
  { id: 'flex-others-unstable', cause: CAUSES['flex-others-unstable'], place: 'Figure 6; Section 6.2.3', statement: 'the improvements of the other four strategies are not stable (read: their mean R² of a linear fit is below the lowest R² of PE_W, Du_B and PEDu_B)', published: { kind: 'direction' }, measure: (v) => {
    const others = POLICIES.filter((p) => !STABLE.includes(p)).map((p) => r2(v.flexibility, p));
    const meanOthers = others.reduce((a, b) => a + b, 0) / others.length;
    const minStable = Math.min(...STABLE.map((p) => r2(v.flexibility, p)));
    return { value: minStable - meanOthers, text: `R²: others ${fmt(meanOthers)} on average, stable three ≥ ${fmt(minStable)}` };
  } },
  { id: 'pew-best-flex', place: 'Figure 6; Section 6.2.3', headline: true, statement: 'PE_W is the best algorithm with the highest acceptance rate, throughout the range of flexibilities', published: { kind: 'direction' }, measure: (v) => best(v.flexibility, 'acceptanceRate', 'PE_W') },
  { id: 'pew-over-dub-grows', place: 'Figure 6; Section 6.2.3', statement: 'PE_W performs better than Du_B as flexibility increases (read: the gap PE_W − Du_B is larger at {5,5} than at {1,1})', published: { kind: 'direction' }, measure: (v) => {
    const xs = xsOf(v.flexibility);
    const gap = (x: number) => at(v.flexibility, x, 'PE_W').acceptanceRate - at(v.flexibility, x, 'Du_B').acceptanceRate;
    return { value: gap(xs[xs.length - 1]) - gap(xs[0]), text: `gap ${fmt(gap(xs[0]))} → ${fmt(gap(xs[xs.length - 1]))} points` };
  } },
  { id: 'slowdown-grows-flex', place: 'Figure 7; Section 6.2.3', statement: 'as flexibility increases, the average slowdowns of all strategies increase', published: { kind: 'direction' }, measure: (v) => monotone(v.flexibility, 'averageSlowdown', 1) },
  { id: 'ff-lowest-slowdown-flex', place: 'Figure 7; Section 6.2.3', statement: 'FF is always the one with the smallest slowdown', published: { kind: 'direction' }, measure: (v) => best(v.flexibility, 'averageSlowdown', 'FF') },
  { id: 'pew-best-overall', place: 'Section 7 (conclusion)', headline: true, statement: 'PE Worst Fit is the best algorithm, with the highest acceptance rate (every setting of the three sweeps)', published: { kind: 'direction' }, measure: (v) => {
    const parts = (['uMed', 'arrivalFactor', 'flexibility'] as const).map((s) => best(v[s], 'acceptanceRate', 'PE_W'));
    const worst = parts.reduce((a, b) => (b.value < a.value ? b : a));
    return { value: worst.value, text: parts.map((p, i) => `${NAMES[(['uMed', 'arrivalFactor', 'flexibility'] as const)[i]]}: ${p.text}`).join('; ') };
  } },
  { id: 'ff-lowest-slowdown-overall', place: 'Section 7 (conclusion)', headline: true, statement: 'jobs with First Fit experience the lowest average slowdown (every setting of the three sweeps)', published: { kind: 'direction' }, measure: (v) => {
    const parts = (['uMed', 'arrivalFactor', 'flexibility'] as const).map((s) => best(v[s], 'averageSlowdown', 'FF'));
    const worst = parts.reduce((a, b) => (b.value < a.value ? b : a));
    return { value: worst.value, text: parts.map((p, i) => `${NAMES[(['uMed', 'arrivalFactor', 'flexibility'] as const)[i]]}: ${p.text}`).join('; ') };
  } },
  { id: 'confidence-intervals', place: 'Section 6.2', statement: 'results are given with 95% confidence intervals', published: { kind: 'not comparable', reason: 'the intervals are drawn in the figures only; no number can be read from the extracted text' } },
];

/**
 * The claims about the UMed and flexibility sweeps that notebook 04's
 * ablation of the two unstated choices (ReservationRules) answers.
 */
export const ABLATION_CLAIM_IDS: readonly string[] = [
  'alike-uMed-acceptance-PE_W-Du_B', 'alike-uMed-acceptance-PEDu_B-PEDu_W', 'alike-uMed-acceptance-PE_B-Du_W', 'best-umed',
  'acceptance-rises-flex-stable', 'flex-others-unstable', 'pew-best-flex',
];

/** Claims `ids` measured and judged on any set of runs (e.g. one variant of the ablation) holding the UMed and flexibility sweeps. */
export function reservationClaimsOn(runs: readonly ReservationRunRecord[], ids: readonly string[] = ABLATION_CLAIM_IDS): { id: string; statement: string; verdict: string; ours: string }[] {
  const part = (e: Sweep) => summarizeReservationRuns(runs.filter((r) => r.experiment === e));
  const view: ReservationClaimsView = { uMed: part('uMed'), arrivalFactor: part('arrivalFactor'), flexibility: part('flexibility') };
  return ids.map((id) => {
    const c = claims.find((x) => x.id === id);
    if (!c || !c.measure) throw new RangeError(`reservationClaimsOn: no measured claim '${id}'`);
    const m = c.measure(view);
    return { id, statement: c.statement, verdict: judge(c.published, m).verdict, ours: m.text };
  });
}

export const registry: ClaimRegistry<ReservationClaimsView> = {
  notebook: experiment.notebook,
  paper: 'Li et al., Resource availability-aware advance reservation for parallel jobs with deadlines',
  view: (records) => {
    const parts: Record<ReservationPart, ReservationRunRecord[]> = experimentView(experiment, records);
    return { uMed: summarizeReservationRuns(parts.uMed), arrivalFactor: summarizeReservationRuns(parts.arrivalFactor), flexibility: summarizeReservationRuns(parts.flexibility) };
  },
  claims,
  chart: {
    kind: 'ours', place: 'Figure 6', title: 'acceptance rate against flexibility (95% CI)', xLabel: '{artime, deadline} factor', yLabel: 'acceptance rate (%)',
    points: (v) => v.flexibility.map((r) => ({ x: r.x, series: r.policy, y: r.acceptanceRate, ci95: r.acceptanceRateCi95 })),
  },
};
