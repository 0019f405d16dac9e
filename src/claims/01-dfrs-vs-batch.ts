/**
 * Claims of Stillwell, Vivien & Casanova, "Dynamic Fractional Resource
 * Scheduling vs. Batch Scheduling" (INRIA RR-7659): every cell of Table 2
 * (degradation from bound: average, standard deviation and maximum per
 * algorithm and trace set), Table 3 (preemption and migration costs), Table 4
 * (normalized underutilization), and the orderings section 6 draws from them.
 * The published values are the labelled tables of src/schedulers/dfrs/published.ts
 * (read off the paper, never used to compute a result).
 */
import { mean } from 'simple-statistics';
import { DfrsCellRecord } from '../schedulers/dfrs/experiment';
import { PUBLISHED_FIGURE1_NOTES, PUBLISHED_FIGURE3_TEXT, PUBLISHED_TABLE2, PUBLISHED_TABLE3, PUBLISHED_TABLE4, PublishedTraceSet } from '../schedulers/dfrs/published';
import { DFRS_BEST, DFRS_PAPER_GRID, DFRS_TABLE2_ALGORITHMS, experiment, MAXIMA_ABLATION, publishedBatchExperiment } from '../sweep/papers/01-dfrs-vs-batch';
import { loadCommittedResults } from '../sweep/papers/committed';
import { crossoverPeriod } from '../schedulers/dfrs/period';
import { FIGURE1_ALGORITHMS, PUBLISHED_BATCH_ALGORITHMS } from '../schedulers/dfrs/names';
import { breakdownLoad } from '../schedulers/dfrs/load';
import type { ResultRecord } from '../sweep/store';
import { confidenceHalfWidth } from '../analysis/summarize';
import type { Claim, ClaimRegistry, Measured } from './registry';
import { experimentView, fmt } from './measures';

/** Per (algorithm, trace set): the per-trace values of each metric. */
export type DfrsClaimsView = Map<string, DfrsCellRecord[]>;

const SETS: readonly PublishedTraceSet[] = ['hpc2n', 'unscaled', 'scaled'];
const SET_NAME: Record<PublishedTraceSet, string> = { hpc2n: 'HPC2N weeks', unscaled: 'unscaled synthetic', scaled: 'scaled synthetic' };
/** Table 3's scope: scaled synthetic traces with load ≥ 0.7. */
const COST_SET = 'scaled>=0.7';

const rows = (v: DfrsClaimsView, a: string, s: string) => v.get(`${a}|${s}`) ?? [];
const values = (v: DfrsClaimsView, a: string, s: string, k: keyof DfrsCellRecord) => rows(v, a, s).map((r) => r[k] as number).filter(Number.isFinite);

/** Sample standard deviation (n − 1), as `summarize` gives the notebook's tables. */
function std(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean([...xs]);
  return Math.sqrt(xs.reduce((t, x) => t + (x - m) ** 2, 0) / (xs.length - 1));
}

function stat(xs: readonly number[], s: 'avg' | 'std' | 'max'): number {
  if (xs.length === 0) return NaN;
  return s === 'avg' ? mean([...xs]) : s === 'std' ? std(xs) : Math.max(...xs);
}

function statText(xs: readonly number[], s: 'avg' | 'std' | 'max', digits = 3): string {
  const v = stat(xs, s);
  return s === 'avg' && xs.length > 1 ? `${fmt(v, digits)} ± ${fmt(confidenceHalfWidth(xs), 2)} (95% CI, ${xs.length} traces)` : `${fmt(v, digits)} (${xs.length} traces)`;
}

/** Relative tolerance of Table 2–4 values: ±10 % (averages also reproduce when the published value is inside our 95 % CI). */
export const DFRS_TOLERANCE = 0.1;

/**
 * The batch rows as the paper's own simulator ran them (whole-node tasks, an
 * EASY without the shadow-time rule; docs/batch-variants.md), each judged
 * against the paper's row of the same name: a claim of its own beside the
 * textbook row's, testing that cause of the gap.
 */
const AS_PUBLISHED: Record<string, string> = Object.fromEntries(PUBLISHED_BATCH_ALGORITHMS.map((a) => [a, a.replace(' (as published)', '')]));
const asPublishedNote = (a: string) => (AS_PUBLISHED[a] ? ` (${a}: the paper's simulator's rules — every task on a whole node${a.startsWith('EASY') ? ', no shadow-time rule' : ''} — as the cause of the gap to the textbook row)` : '');

/**
 * Why the synthetic maxima of the minvt=600 and MCB8 rows differ (issue 25;
 * notebook 01's maxima ablation, results/01-dfrs-vs-batch/*-maxima-ablation).
 */
const MAXIMA_CAUSE =
  "each worst trace's maximum is one job of a few seconds paused seconds after its start for an arriving job, then charged the 300 s penalty at its resume; " +
  'of the three rules that would spare it (switches, none the paper\'s), none alone fits both sets: a 60 s bounded-stretch threshold brings the maxima that were above the published ones near them (all but MCB8 */opt=min/minvt=600 on the unscaled set) ' +
  'and the unscaled averages nearer, but lowers the scaled averages and the scaled maxima that were already below; no penalty below 600 s of virtual time overshoots on the scaled set (maxima and averages far below the published); ' +
  'minvt keeping young jobs from pauses makes every row worse (notebook 01, maxima ablation, on the worst traces and a seeded sample)';
const MAXIMA_ROWS = new Set(MAXIMA_ABLATION.algorithms);

/** Table 2's cell of `a` (an '(as published)' batch row is judged against the paper's row of the same name). */
function table2Claim(a: string, s: PublishedTraceSet, k: 'avg' | 'std' | 'max'): Claim<DfrsClaimsView> {
  return {
    id: `table2-${s}-${k}-${a}`, place: `Table 2 (${SET_NAME[s]})`,
    ...(k === 'max' && s !== 'hpc2n' && MAXIMA_ROWS.has(a) ? { cause: MAXIMA_CAUSE } : {}),
    headline: (a === DFRS_BEST || a === 'EASY') && s === 'scaled' && k === 'avg',
    statement: `${AS_PUBLISHED[a] ?? a}: ${k === 'avg' ? 'average' : k === 'std' ? 'standard deviation of the' : 'maximum'} degradation from bound on the ${SET_NAME[s]} traces${asPublishedNote(a)}`,
    published: { kind: 'value', value: PUBLISHED_TABLE2[AS_PUBLISHED[a] ?? a][s][k], tolerance: { relative: DFRS_TOLERANCE } },
    measure: (v) => {
      const xs = values(v, a, s, 'degradation');
      return { value: stat(xs, k), samples: k === 'avg' ? xs : undefined, text: statText(xs, k) };
    },
  };
}

const COST_KEYS = [['pmtnGBps', 'pmtn_gbps', 'preemption bandwidth (GB/s)'], ['migGBps', 'mig_gbps', 'migration bandwidth (GB/s)'], ['pmtnPerHour', 'pmtn_per_hour', 'preemptions per hour'], ['migPerHour', 'mig_per_hour', 'migrations per hour'], ['pmtnPerJob', 'pmtn_per_job', 'preemptions per job'], ['migPerJob', 'mig_per_job', 'migrations per job']] as const;

function table3Claims(a: string): Claim<DfrsClaimsView>[] {
  const pub = PUBLISHED_TABLE3[a];
  return COST_KEYS.flatMap(([pk, rk, label]) => (['avg', 'max'] as const).map((k): Claim<DfrsClaimsView> => ({
    id: `table3-${k}-${pk}-${a}`, place: 'Table 3 (scaled synthetic, load ≥ 0.7)',
    statement: `${a}: ${k === 'avg' ? 'average' : 'maximum'} ${label}`,
    // 0.01 absolute: the table's printed precision.
    published: { kind: 'value', value: k === 'avg' ? pub[pk] : pub.max[pk], tolerance: { relative: DFRS_TOLERANCE, absolute: 0.01 } },
    measure: (v) => {
      const xs = values(v, a, COST_SET, rk);
      return { value: stat(xs, k), samples: k === 'avg' ? xs : undefined, text: statText(xs, k) };
    },
  })));
}

function table4Claim(a: string, s: PublishedTraceSet): Claim<DfrsClaimsView> {
  return {
    id: `table4-${s}-${a}`, place: `Table 4 (${SET_NAME[s]})`, headline: a === 'EASY' && s === 'hpc2n',
    statement: `${AS_PUBLISHED[a] ?? a}: average normalized underutilization on the ${SET_NAME[s]} traces${asPublishedNote(a)}`,
    published: { kind: 'value', value: PUBLISHED_TABLE4[AS_PUBLISHED[a] ?? a][s], tolerance: { relative: DFRS_TOLERANCE } },
    measure: (v) => {
      const xs = values(v, a, s, 'norm_underutilization');
      return { value: stat(xs, 'avg'), samples: xs, text: statText(xs, 'avg') };
    },
  };
}

/** A ratio of two averages on one trace set, judged as a direction: margin = how far it is on the claimed side of `threshold` (log scale). */
function ratioClaim(id: string, s: PublishedTraceSet, statement: string, num: string, den: string, test: 'below' | 'above' | 'near', threshold: number): Claim<DfrsClaimsView> {
  return {
    id: `${id}-${s}`, place: `Section 6 (${SET_NAME[s]})`, statement: `${SET_NAME[s]}: ${statement}`,
    published: { kind: 'direction' },
    measure: (v): Measured => {
      const r = stat(values(v, num, s, 'degradation'), 'avg') / stat(values(v, den, s, 'degradation'), 'avg');
      const pubR = PUBLISHED_TABLE2[num][s].avg / PUBLISHED_TABLE2[den][s].avg;
      const l = Math.log(r);
      const margin = test === 'below' ? Math.log(threshold) - l : test === 'above' ? l - Math.log(threshold) : Math.log(threshold) - Math.abs(l);
      return { value: margin, text: `${num} / ${den} average degradation: ${fmt(r)} (published ${fmt(pubR)})` };
    },
  };
}

const PERIODS = DFRS_PAPER_GRID.paper.periods;
const BASE_PERIOD = DFRS_PAPER_GRID.paper.period;
/** The best algorithm's records at one period (Table 2's runs at the base period, the period sweep's otherwise). */
const atPeriod = (v: DfrsClaimsView, s: string, p: number) => rows(v, DFRS_BEST, `${s}|period ${p}`);
const avgAt = (v: DfrsClaimsView, s: string, p: number, k: keyof DfrsCellRecord) => stat(atPeriod(v, s, p).map((r) => r[k] as number).filter(Number.isFinite), 'avg');
const longest = Math.max(...PERIODS);

/** Figure 4: the growth of the best algorithm's average degradation from the base period to the longest, below `limit`. */
function periodGrowth(s: PublishedTraceSet, limit: number): Claim<DfrsClaimsView> {
  return {
    id: `period-degradation-growth-${s}`, place: `Figure 4; Section 6.4 (${SET_NAME[s]})`,
    statement: `${SET_NAME[s]}: a 20-fold increase of the period raises ${DFRS_BEST}'s average degradation by less than a factor ${limit}`,
    published: { kind: 'direction' },
    measure: (v) => { const r = avgAt(v, s, longest, 'degradation') / avgAt(v, s, BASE_PERIOD, 'degradation'); return { value: limit - r, text: `factor ${fmt(r)} from ${BASE_PERIOD} s to ${longest} s` }; },
  };
}

const claims: Claim<DfrsClaimsView>[] = [
  ...SETS.flatMap((s) => DFRS_TABLE2_ALGORITHMS.flatMap((a) => (['avg', 'std', 'max'] as const).map((k) => table2Claim(a, s, k)))),
  ...Object.keys(PUBLISHED_TABLE3).flatMap(table3Claims),
  ...Object.keys(PUBLISHED_TABLE4).flatMap((a) => SETS.map((s) => table4Claim(a, s))),
  ...SETS.flatMap((s) => PUBLISHED_BATCH_ALGORITHMS.flatMap((a) => (['avg', 'std', 'max'] as const).map((k) => table2Claim(a, s, k)))),
  ...SETS.map((s) => table4Claim('EASY (as published)', s)),
  ...SETS.flatMap((s): Claim<DfrsClaimsView>[] => [
    ratioClaim('easy-beats-fcfs', s, 'EASY degrades less than FCFS (average)', 'EASY', 'FCFS', 'below', 1),
    ratioClaim('dfrs-orders-of-magnitude', s, `the best DFRS algorithm (${DFRS_BEST}) beats EASY by orders of magnitude (read: EASY's average ≥ 10× its own)`, 'EASY', DFRS_BEST, 'above', 10),
    ratioClaim('preemption-helps', s, 'preemption helps: GreedyP * degrades less than Greedy * (average)', 'GreedyP */opt=min', 'Greedy */opt=min', 'below', 1),
    ratioClaim('minvt-helps', s, `a minimum virtual time of 600 s helps GreedyPM */per (average no larger)`, DFRS_BEST, 'GreedyPM */per/opt=min', 'below', 1 + 1e-9),
    ratioClaim('react-to-submissions', s, `reacting to submissions matters: /per/opt=min/minvt=600 degrades more than ${DFRS_BEST} (average)`, '/per/opt=min/minvt=600', DFRS_BEST, 'above', 1),
    {
      id: `periodic-tames-worst-case-${s}`, place: `Table 2; Section 6.1 (${SET_NAME[s]})`, statement: `${SET_NAME[s]}: periodic MCB8 remapping tames the worst case (GreedyP */per/opt=min has a smaller maximum degradation than GreedyP */opt=min)`,
      published: { kind: 'direction' },
      measure: (v) => { const a = stat(values(v, 'GreedyP */per/opt=min', s, 'degradation'), 'max'); const b = stat(values(v, 'GreedyP */opt=min', s, 'degradation'), 'max'); return { value: b - a, text: `maximum ${fmt(a)} vs ${fmt(b)}` }; },
    },
    {
      id: `dfrs-more-underutilization-${s}`, place: `Table 4; Section 6.4 (${SET_NAME[s]})`, statement: `${SET_NAME[s]}: at a 600 s period ${DFRS_BEST} has a higher normalized underutilization than EASY`,
      published: { kind: 'direction' },
      measure: (v) => { const a = stat(values(v, DFRS_BEST, s, 'norm_underutilization'), 'avg'); const e = stat(values(v, 'EASY', s, 'norm_underutilization'), 'avg'); return { value: a - e, text: `${fmt(a)} vs EASY ${fmt(e)}` }; },
    },
    {
      id: `underutilization-falls-with-period-${s}`, place: `Figure 3; Section 6.4 (${SET_NAME[s]})`, statement: `${SET_NAME[s]}: normalized underutilization of ${DFRS_BEST} decreases as the period grows from 600 to 12,000 s (read: lower at the longest period)`,
      published: { kind: 'direction' },
      measure: (v) => { const a = avgAt(v, s, BASE_PERIOD, 'norm_underutilization'); const b = avgAt(v, s, longest, 'norm_underutilization'); return { value: a - b, text: `${fmt(a)} at ${BASE_PERIOD} s, ${fmt(b)} at ${longest} s` }; },
    },
    {
      id: `two-orders-at-longest-period-${s}`, place: `Figure 4; Section 6.4 (${SET_NAME[s]})`, statement: `${SET_NAME[s]}: even at a 20× period ${DFRS_BEST} outperforms EASY by at least two orders of magnitude on average`,
      published: { kind: 'direction' },
      measure: (v) => { const r = stat(values(v, 'EASY', s, 'degradation'), 'avg') / avgAt(v, s, longest, 'degradation'); return { value: Math.log(r) - Math.log(100), text: `EASY / ${DFRS_BEST} at ${longest} s: ${fmt(r)}×` }; },
    },
    ratioClaim('stretch-per-on-par', s, '/stretch-per/opt=max/minvt=600 is on par with /per/opt=min/minvt=600 (read: averages within a factor 2)', '/stretch-per/opt=max/minvt=600', '/per/opt=min/minvt=600', 'near', 2),
  ]),
  {
    id: 'figure1-greedypm-star-breakdown', place: 'Figure 1; Section 6.1 (scaled synthetic)',
    statement: 'GreedyPM */opt=min performs well under low load but quickly becomes worse than most other algorithms of Figure 1 as the load becomes larger than 0.3 (read: the last load before a run, up to 0.9, where its average is above more than half of the others; tolerance one load step, 0.1)',
    published: { kind: 'value', value: PUBLISHED_FIGURE1_NOTES.greedyPmStarBreakdownLoad, tolerance: { absolute: 0.1 + 1e-9 } },
    measure: (v) => {
      const points = FIGURE1_ALGORITHMS.flatMap((a) => {
        const byLoad = new Map<number, number[]>();
        for (const r of rows(v, a, 'scaled')) byLoad.set(r.load as number, [...(byLoad.get(r.load as number) ?? []), r.degradation]);
        return [...byLoad].map(([load, xs]) => ({ algorithm: a, load, degradation: stat(xs, 'avg') }));
      });
      const b = breakdownLoad(points, 'GreedyPM */opt=min');
      return { value: b.lastGood, text: `worse than most of the other ${FIGURE1_ALGORITHMS.length - 1} from load ${b.firstBad} on (offered load as ours: CPU need over the submission span)` };
    },
  },
  periodGrowth('scaled', 3),
  periodGrowth('unscaled', 1.5),
  periodGrowth('hpc2n', 2),
  {
    id: 'plateau-hpc2n', place: 'Figure 3; Section 6.4 (HPC2N weeks)', statement: `HPC2N: ${DFRS_BEST}'s underutilization plateaus at around 11.8% (read: its lowest average over the periods)`,
    published: { kind: 'value', value: PUBLISHED_FIGURE3_TEXT.plateauHpc2n, tolerance: { relative: DFRS_TOLERANCE } },
    measure: (v) => { const m = Math.min(...PERIODS.map((p) => avgAt(v, 'hpc2n', p, 'norm_underutilization'))); return { value: m, text: `${fmt(m)} (lowest over ${PERIODS.length} periods)` }; },
  },
  {
    id: 'above-easy-every-period-hpc2n', place: 'Figure 3; Section 6.4 (HPC2N weeks)', statement: `HPC2N: ${DFRS_BEST} has a higher underutilization than EASY regardless of the period`,
    published: { kind: 'direction' },
    measure: (v) => { const e = stat(values(v, 'EASY', 'hpc2n', 'norm_underutilization'), 'avg'); const m = Math.min(...PERIODS.map((p) => avgAt(v, 'hpc2n', p, 'norm_underutilization'))); return { value: m - e, text: `lowest ${fmt(m)} vs EASY ${fmt(e)}` }; },
  },
  ...(['unscaled', 'scaled'] as const).flatMap((s) => ['EASY', 'EASY (as published)'].map((easy): Claim<DfrsClaimsView> => ({
    id: `crossover-period-${s}${easy === 'EASY' ? '' : '-as-published'}`, place: `Figure 3; Section 6.4 (${SET_NAME[s]})`,
    statement: `${SET_NAME[s]}: as the period becomes larger than 900 s, ${DFRS_BEST} achieves a lower underutilization than EASY (read: the shortest swept period at which it does; tolerance one step of the sweep, 300 s)${asPublishedNote(easy)}`,
    published: { kind: 'value', value: PUBLISHED_FIGURE3_TEXT.crossoverPeriodSynthetic, unit: 's', tolerance: { absolute: 300 } },
    measure: (v) => {
      const e = stat(values(v, easy, s, 'norm_underutilization'), 'avg');
      const p = crossoverPeriod(PERIODS.map((period) => ({ period, value: avgAt(v, s, period, 'norm_underutilization') })), e);
      // Never below EASY: a negative value, so the verdict is "contradicted", not "not comparable".
      return Number.isFinite(p) ? { value: p, text: `${p} s (${easy} ${fmt(e)})` } : { value: -1, text: `never below ${easy} (${fmt(e)}) up to ${longest} s` };
    },
  }))),
];

/** The rows of Table 2 the paper's discussion turns on: the batch baselines, Greedy with and without preemption, and the best periodic algorithms. */
const CHART_ALGORITHMS = ['FCFS', 'EASY', 'Greedy */opt=min', 'GreedyP */opt=min', DFRS_BEST, 'MCB8 */per/opt=min/minvt=600', '/per/opt=min/minvt=600'];

/** The committed '(as published)' batch records (none when the file is absent or stale: those claims are then not comparable). */
function publishedBatchRecords(): DfrsCellRecord[] {
  const committed: readonly ResultRecord[] = loadCommittedResults(publishedBatchExperiment).records;
  return committed.length ? experimentView(publishedBatchExperiment, committed) : [];
}

export const registry: ClaimRegistry<DfrsClaimsView> = {
  notebook: experiment.notebook,
  paper: 'Stillwell, Vivien & Casanova, Dynamic Fractional Resource Scheduling vs. Batch Scheduling',
  view: (records) => {
    // Tables 2-4 read the table2 part and, for Table 3's extra algorithms, the appendix; Figures 3-4 the period sweep.
    // The '(as published)' batch rows are a committed sweep of their own, read here unless the records hold them.
    const parts = experimentView(experiment, records);
    const table2 = parts.table2.some((r) => AS_PUBLISHED[r.algorithm]) ? parts.table2 : [...parts.table2, ...publishedBatchRecords()];
    const out: DfrsClaimsView = new Map();
    const add = (k: string, r: DfrsCellRecord) => {
      const list = out.get(k);
      if (list) list.push(r);
      else out.set(k, [r]);
    };
    for (const r of [...table2, ...parts.appendix]) {
      const set = r.trace_set as string;
      add(`${r.algorithm}|${set}`, r);
      if (set === 'scaled' && (r.load as number) >= 0.7) add(`${r.algorithm}|${COST_SET}`, r);
      if (r.algorithm === DFRS_BEST) add(`${DFRS_BEST}|${set}|period ${r.period}`, r);
    }
    for (const r of parts.period) add(`${DFRS_BEST}|${r.trace_set as string}|period ${r.period}`, r);
    return out;
  },
  claims,
  chart: {
    kind: 'claims', place: 'Table 2 (scaled synthetic)', title: 'average degradation from bound', xLabel: 'algorithm', yLabel: 'average degradation from bound (log)', logY: true,
    ids: (id) => CHART_ALGORITHMS.some((a) => id === `table2-scaled-avg-${a}`),
    label: (r) => r.id.slice('table2-scaled-avg-'.length).replace('/opt=min', '').replace('=600', ''),
  },
};
