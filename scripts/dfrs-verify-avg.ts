/**
 * Re-run a seeded sample of notebook 01's committed opt=avg cells (every
 * algorithm whose name has opt=avg, /stretch-per ones included; at least one
 * cell per algorithm) and compare each record with the committed one,
 * timing fields aside. Prints how many are identical and, for the others,
 * the largest relative difference over the numeric fields. Exits 1 when any
 * cell differs. Used to show that a change to the opt=avg LP changes no
 * result (`schedlab paper 01 --verify N` samples all algorithms instead).
 *
 * Run: npx ts-node --transpile-only -P tsconfig.json scripts/dfrs-verify-avg.ts [N=120] [seed=1] [trace_set|all] [algorithm part] [trace indices]
 *      e.g. `... 30 1 hpc2n /stretch-per/opt=avg 3,4,6`: the weeks whose LPs fell back to HiGHS
 *      SCHEDLAB_AVG_LP=javascript-lp-solver ... re-runs with the library instead of the port.
 */
import { canonicalJson, Json } from '../src/sweep/grid';
import { toJsonResult } from '../src/sweep/cellmodule';
import { loadCommittedResults, sampleCells } from '../src/sweep/papers/committed';
import { DfrsCellParams, dfrsCell, experiment } from '../src/sweep/papers/01-dfrs-vs-batch';
import { AvgLpSolver, setAvgLpSolver } from '../src/schedulers/dfrs/allocation';

const size = Number(process.argv[2] ?? 120);
const seed = Number(process.argv[3] ?? 1);
const traceSet = process.argv[4] === 'all' ? undefined : process.argv[4];
const algorithmPart = process.argv[5] ?? 'opt=avg';
const traceIndices = process.argv[6]?.split(',').map(Number);
if (process.env.SCHEDLAB_AVG_LP) setAvgLpSolver(process.env.SCHEDLAB_AVG_LP as AvgLpSolver);
const timing = new Set(experiment.timingFields ?? []);

function withoutTiming(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutTiming);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([k]) => !timing.has(k)).map(([k, v]) => [k, withoutTiming(v)]));
  return value;
}

/** Largest relative difference between two JSON values' numbers (Infinity when their shapes differ). */
function maxRelativeDifference(a: Json, b: Json): number {
  if (typeof a === 'number' && typeof b === 'number') return a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length !== b.length ? Infinity : Math.max(0, ...a.map((x, i) => maxRelativeDifference(x, b[i])));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    let worst = 0;
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (!timing.has(k)) worst = Math.max(worst, k in a && k in b ? maxRelativeDifference(a[k], b[k]) : Infinity);
    return worst;
  }
  return canonicalJson(a) === canonicalJson(b) ? 0 : Infinity;
}

async function main(): Promise<void> {
  const committed = loadCommittedResults(experiment, { scale: 'paper' });
  console.error(committed.status);
  const avg = committed.records.filter((r) => r.status === 'ok' && String(r.params.algorithm).includes('opt=avg') && String(r.params.algorithm).includes(algorithmPart) && (!traceSet || r.params.trace_set === traceSet) && (!traceIndices || traceIndices.includes(r.params.trace_index as number)));
  const picked = sampleCells(avg, size, seed, 'algorithm');
  console.error(`${avg.length} committed opt=avg cells${traceSet ? ` on ${traceSet}` : ''}; re-running ${picked.length} (seed ${seed})`);
  let identical = 0;
  let worst = 0;
  let ms = 0;
  for (const r of picked) {
    const t0 = performance.now();
    const live = JSON.parse(toJsonResult(await dfrsCell(r.params as unknown as DfrsCellParams))) as Json;
    ms += performance.now() - t0;
    if (canonicalJson(withoutTiming(r.result as Json)) === canonicalJson(withoutTiming(live))) {
      identical++;
      continue;
    }
    const d = maxRelativeDifference(r.result as Json, live);
    console.log(`DIFFERS ${r.key}: max relative difference ${d}`);
    worst = Math.max(worst, d);
  }
  console.log(
    `${picked.length} opt=avg cells re-run (${new Set(picked.map((r) => r.params.algorithm)).size} algorithms): ${identical} identical, ` +
      `${picked.length - identical} differ (max relative difference ${worst}); ${(ms / 1000).toFixed(1)} s of cell time`,
  );
  process.exit(identical === picked.length ? 0 : 1);
}

void main();
