import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Cell, defineSweep, Grid, SweepDefinition, sweepCells as expandCells } from '../../src/sweep';
import {
  advanceReservation,
  batchBaselines,
  dfrsVsBatch,
  evolvingApplications,
  measy,
  virtualClusters,
  findPaperExperiment,
  PAPER_EXPERIMENTS,
  PaperExperiment,
  codeHash,
  records,
  runPaperSweep,
} from '../../src/sweep/papers';
import { paperMain } from '../../src/cli/paper';
import { committedRoot, paperResultsFile } from '../../src/sweep/papers';
import { provenanceOf } from '../../src/sweep/papers/seal';
import { dfrsTraceLabels, prepareDfrsTrace, runDfrsCell } from '../../src/schedulers/dfrs/experiment';
import { offeredLoad } from '../../src/workloads/dfrs';

let tmp: string;
before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-papers-'));
});
after(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});
const quiet = { progress: 'none' as const, log: () => {} };

/** Expanding a sweep takes a while for the big ones: do it once per sweep. */
const expanded = new Map<string, Cell[]>();
function sweepCells(s: SweepDefinition): Cell[] {
  let cells = expanded.get(s.fingerprint);
  if (!cells) expanded.set(s.fingerprint, (cells = expandCells(s)));
  return cells;
}

/**
 * Cells of a sweep whose grids never overlap (each has its own `part` or
 * trace values), counted without expanding 150,000+ cells; checked against
 * the expansion on the smaller sweeps below.
 */
function countCells(s: SweepDefinition): number {
  return s.replications * s.grids.reduce((n, g) => n + Object.values(g).reduce((m, v) => m * v.length, 1), 0);
}

/** Cells of the grids that match `where` (a dimension fixed to one value), without expanding the whole sweep. */
function gridCells(s: SweepDefinition, where: Record<string, unknown>): Record<string, any>[] {
  const out: Record<string, any>[] = [];
  for (const g of s.grids) {
    if (!Object.entries(where).every(([k, v]) => (g[k] ?? [s.fixed[k]]).some((x) => x === v))) continue;
    const one = defineSweep({ name: 'part', cell: s.cell, grid: { ...g, ...Object.fromEntries(Object.entries(where).filter(([k]) => k in g).map(([k, v]) => [k, [v as any]])) }, fixed: s.fixed });
    out.push(...expandCells(one).map((c) => c.params));
  }
  return out;
}

/** The same cell as `base`'s paper sweep, on a small grid (for end-to-end runs in tests). */
function tiny<R>(base: PaperExperiment<R>, grid: Grid | Grid[], fixed?: Record<string, any>): PaperExperiment<R> {
  const full = base.sweep('paper');
  const sweep = defineSweep({ name: `tiny-${base.notebook}`, version: 1, cell: full.cell, grid, fixed: fixed ?? full.fixed });
  return { ...base, notebook: `tiny-${base.notebook}`, sweep: () => sweep };
}

/** Run `cmd` with stderr captured. */
async function capture(fn: (out: string[]) => Promise<number>): Promise<{ code: number; stderr: string; stdout: string[] }> {
  const write = process.stderr.write.bind(process.stderr);
  let stderr = '';
  (process.stderr as any).write = (s: string) => ((stderr += s), true);
  try {
    const stdout: string[] = [];
    const code = await fn(stdout);
    return { code, stderr, stdout };
  } finally {
    (process.stderr as any).write = write;
  }
}

describe('paper-scale sweeps', () => {
  it('every paper experiment defines a valid sweep at both scales, with distinct names', () => {
    const names = new Set<string>();
    for (const e of PAPER_EXPERIMENTS) {
      for (const scale of ['paper', 'quick'] as const) {
        const s = e.sweep(scale);
        expect(s.fingerprint).to.match(/^[0-9a-f]{16}$/);
        expect(countCells(s)).to.be.greaterThan(0);
        if (countCells(s) < 20000) expect(sweepCells(s).length, s.name).to.equal(countCells(s));
        expect(names.has(s.name), s.name).to.equal(false);
        names.add(s.name);
      }
      expect(countCells(e.sweep('quick'))).to.be.lessThan(countCells(e.sweep('paper')));
    }
  });

  it('finds notebooks by name, file name or unique prefix and rejects unknown ones', () => {
    expect(findPaperExperiment('03-evolving-applications').notebook).to.equal('03-evolving-applications');
    expect(findPaperExperiment('notebooks/03-evolving-applications.ipynb').notebook).to.equal('03-evolving-applications');
    expect(findPaperExperiment('03').notebook).to.equal('03-evolving-applications');
    expect(() => findPaperExperiment('99-nothing')).to.throw(/no paper-scale experiment for notebook "99-nothing"; known notebooks: .*03-evolving-applications/);
  });

  it('`schedlab paper` rejects an unknown notebook with a clear message', async () => {
    const r = await capture((out) => paperMain(['07-unknown', '--workers', '1'], (s) => out.push(s)));
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(/no paper-scale experiment for notebook "07-unknown"; known notebooks:/);
  });

  it('`schedlab paper` rejects a bad scale and a bad shard', async () => {
    const a = await capture((out) => paperMain(['03', '--scale', 'huge'], (s) => out.push(s)));
    expect(a.code).to.equal(1);
    expect(a.stderr).to.match(/--scale must be quick or paper/);
    const b = await capture((out) => paperMain(['03', '--shard', '5/5'], (s) => out.push(s)));
    expect(b.code).to.equal(1);
    expect(b.stderr).to.match(/shard index must be an integer in 0..4/);
  });

  it('`schedlab paper --slurm` writes a job array over the notebook sweep into results/<notebook>/', async () => {
    process.env.SCHEDLAB_RESULTS = path.join(tmp, 'slurm-results'); // the log folder is created there
    let r;
    try {
      r = await capture((out) => paperMain(['03', '--slurm', '10', '--cpus-per-task', '4'], (s) => out.push(s)));
    } finally {
      delete process.env.SCHEDLAB_RESULTS;
    }
    expect(r.code).to.equal(0);
    expect(fs.existsSync(path.join(tmp, 'slurm-results', '03-evolving-applications', 'logs'))).to.equal(true);
    const text = r.stdout.join('\n');
    expect(text).to.match(/#SBATCH --array=0-9/);
    expect(text).to.match(/03-evolving-applications\.js#paperSweep/);
    expect(text).to.match(/slurm-results\/03-evolving-applications\/03-evolving-applications\.shard-\$\{SLURM_ARRAY_TASK_ID\}-of-10\.jsonl/);
  });
});

describe('records: one sweep path at every scale', () => {
  it('quick scale runs the sweep into <out>/<notebook>/sweeps/, keyed by fingerprint and code; reuses it; drops it when the grid changes', async () => {
    const prev = process.env.SCHEDLAB_OUT;
    process.env.SCHEDLAB_OUT = path.join(tmp, 'quick-out');
    try {
      const exp = tiny(evolvingApplications.experiment, { clusterNodes: [75], test: [0, 1], algorithm: ['rigid', '2X'] });
      const dir = path.join(tmp, 'quick-out', exp.notebook, 'sweeps');
      const a = await records(exp, 'quick', { ...quiet, workers: 0 });
      expect(a.get(75)!.system.map((s) => [s.test, s.algorithm])).to.deep.equal([[0, 'rigid'], [0, '2X'], [1, 'rigid'], [1, '2X']]);
      const file = `${exp.notebook}.${exp.sweep('quick').fingerprint}-${codeHash()}.jsonl`;
      expect(fs.readdirSync(dir)).to.deep.equal([file]);
      const cached = fs.readFileSync(path.join(dir, file), 'utf8');
      // A second call runs nothing (the file is unchanged) and gives the same records, measured times included.
      expect(await records(exp, 'quick', { ...quiet, workers: 0 })).to.deep.equal(a);
      expect(fs.readFileSync(path.join(dir, file), 'utf8')).to.equal(cached);
      const other = tiny(evolvingApplications.experiment, { clusterNodes: [75], test: [0], algorithm: ['noX'] });
      expect(other.sweep('quick').name).to.equal(exp.sweep('quick').name);
      expect((await records(other, 'quick', { ...quiet, workers: 0 })).get(75)!.system.map((s) => s.algorithm)).to.deep.equal(['noX']);
      expect(fs.readdirSync(dir)).to.deep.equal([`${exp.notebook}.${other.sweep('quick').fingerprint}-${codeHash()}.jsonl`]);
    } finally {
      if (prev === undefined) delete process.env.SCHEDLAB_OUT;
      else process.env.SCHEDLAB_OUT = prev;
    }
  });
});

describe('03-evolving-applications', () => {
  const E = evolvingApplications;

  it('paper grid: 1000 tests x 6 algorithms on 75 and 150 nodes', () => {
    const cells = sweepCells(E.paperSweep);
    expect(cells.length).to.equal(1000 * 6 * 2);
    expect(new Set(cells.map((c) => c.params.algorithm))).to.deep.equal(new Set(['rigid', 'noX', '2X', '2X+c', 'infX', 'infX+c']));
    expect(new Set(cells.map((c) => c.params.clusterNodes))).to.deep.equal(new Set([75, 150]));
  });

  it('cells return the system and per-application fields Tables 1-2 use', () => {
    for (const c of sweepCells(E.paperSweep).slice(0, 3)) {
      const r = E.evolvingCell(c.params as any);
      expect(r.system).to.include.keys('algorithm', 'test', 'makespan', 'resourceUtilization', 'effectiveUtilization', 'resourceWaste', 'schedulingTime');
      expect(r.system.algorithm).to.equal(c.params.algorithm);
      expect(r.apps.length).to.equal(r.system.apps);
      expect(r.apps[0]).to.include.keys('waste', 'completionTime', 'waitingTime', 'expandedSteps', 'expansion', 'test');
    }
  });

  it('a sharded then resumed run regroups into one result per cluster size', async () => {
    const exp = tiny(E.experiment, { clusterNodes: [75], test: [0, 1], algorithm: ['rigid', '2X'] });
    const root = path.join(tmp, 'evolving');
    const shard = await runPaperSweep(exp, { ...quiet, workers: 0, shard: '0/2', resultsRoot: root });
    expect(shard.total).to.equal(2);
    const all = await runPaperSweep(exp, { ...quiet, workers: 0, resultsRoot: root });
    expect(all.skipped).to.equal(2); // the shard file was merged in first
    expect(all.ok).to.equal(2);
    const m = E.evolvingResultsFrom(all).get(75)!;
    expect(m.tests).to.equal(2);
    expect(m.system.map((s) => [s.test, s.algorithm])).to.deep.equal([[0, 'rigid'], [0, '2X'], [1, 'rigid'], [1, '2X']]);
    const { evolvingTestCase, scheduleByName, appMetrics } = await import('../../src/schedulers/evolving');
    const direct = appMetrics(scheduleByName(evolvingTestCase(E.EVOLVING_SEED, 1), 75, '2X'));
    expect(m.apps.filter((a) => a.test === 1 && a.algorithm === '2X').map((a) => a.waste)).to.deep.equal(direct.map((a) => a.waste));
  });
});

describe('05-measy', () => {
  const M = measy;

  it('paper grid: 80 main + 40 no-CPU-info + 60 full-CPU + 22 migration-cost + 16 CTC-SP2 cells', () => {
    const cells = sweepCells(M.paperSweep);
    expect(cells.length).to.equal(218);
    const count = (part: string) => cells.filter((c) => c.params.part === part).length;
    expect([count('main'), count('noInfo'), count('full'), count('costs'), count('ctc')]).to.deep.equal([80, 40, 60, 22, 16]);
    const fw = cells.filter((c) => c.params.workload === 'feitelson');
    expect(new Set(fw.map((c) => c.params.jobs))).to.deep.equal(new Set([200000]));
    expect(new Set(cells.filter((c) => c.params.part === 'costs' && c.params.policy === 'measy').map((c) => c.params.migrationCost)).size).to.equal(10);
  });

  it('cells (tiny workloads) return the fields of Figures 6-14 and policies share one workload', () => {
    const base = sweepCells(M.paperSweep).find((c) => c.params.part === 'main')!.params as any;
    const rows = (['easy', 'measy'] as const).map((policy) => M.measyCell({ ...base, jobs: 400, load: 0.8, policy }));
    for (const r of rows) {
      expect(r).to.include.keys('meanResponse', 'responseCi95', 'meanBoundedSlowdown', 'slowdownCi95', 'migrations', 'migrationsPerJob', 'kills', 'swaps', 'backgroundShare', 'finishedInBackground');
      expect(r.jobs).to.equal(400);
      expect(r.meanResponse).to.be.greaterThan(0);
    }
    expect(rows[0].offeredLoad).to.equal(rows[1].offeredLoad);
    expect(rows[0].migrations).to.equal(0);
  });

  it('regroups records by part in grid order', async () => {
    const exp = tiny(M.experiment, [
      { part: ['main'], workload: ['jann'], jobs: [300], cpuUsage: ['paper'], cpuInfo: ['exact'], load: [0.6], policy: ['easy', 'keasy'], migrationCost: [20] },
      { part: ['costs'], workload: ['jann'], jobs: [300], cpuUsage: ['paper'], cpuInfo: ['exact'], load: [0.6], policy: ['measy'], migrationCost: [0, 60] },
    ]);
    const sum = await runPaperSweep(exp, { ...quiet, workers: 0, resultsRoot: path.join(tmp, 'measy') });
    const parts = M.measyResultsFrom(sum);
    expect(parts.main.map((r) => r.policy)).to.deep.equal(['easy', 'keasy']);
    expect(parts.costs.map((r) => r.migrationCost)).to.deep.equal([0, 60]);
    expect(parts.ctc).to.deep.equal([]);
  });
});

describe('02-virtual-clusters', () => {
  const V = virtualClusters;

  it('paper grid: 1,440 small x 14 + 10,800 large x 13 + 1,440 MILP x 2 + 10,800 parallel x 3 cells (RRND and RRNZ in one cell)', () => {
    const count = (part: string) => countCells({ ...V.paperSweep, grids: V.paperSweep.grids.filter((g) => g.part[0] === part) });
    expect([count('small'), count('large'), count('milp'), count('par')]).to.deep.equal([1440 * 14, 10800 * 13, 1440 * 2, 10800 * 3]);
    expect(countCells(V.paperSweep)).to.equal(195840);
    for (const g of V.paperSweep.grids.filter((x) => x.part[0] === 'small' || x.part[0] === 'large')) {
      expect(g.algorithm).to.include(V.RRND_RRNZ).and.not.include('RRND').and.not.include('RRNZ');
      expect(g.algorithm.flatMap((a) => V.cellAlgorithms(a as virtualClusters.VcschedCellAlgorithm))).to.include.members(['RRND', 'RRNZ']);
    }
    expect(V.quickSweep.grids.find((g) => g.part[0] === 'large')!.algorithm).to.not.include(V.RRND_RRNZ);
    const milp = gridCells(V.paperSweep, { part: 'milp', algorithm: 'MILP' });
    expect(milp.length).to.equal(1440);
    expect(new Set(milp.map((c) => c.tasks))).to.deep.equal(new Set([6, 8, 10, 12]));
    expect(milp[0].options).to.include({ lpEngine: 'highs', milpNodeLimit: V.MILP_NODE_LIMIT });
    expect(gridCells(V.paperSweep, { part: 'large', algorithm: V.RRND_RRNZ }).map((c) => c.options.lpEngine)).to.satisfy((e: string[]) => e.length === 10800 && e.every((x) => x === 'highs'));
  });

  it('cells return the fields of the degradation tables and curves, for the instance vcschedInstanceSet generates', async () => {
    const { vcschedInstanceSet, runVcschedExperiment } = await import('../../src/schedulers/vcsched');
    const picks = ['MCB8', 'EXACT', V.RRND_RRNZ].map((algorithm) => ({ params: gridCells(V.paperSweep, { part: 'small', tasks: 6, slack: 0.1, instance: 0, algorithm })[0] }));
    const set = vcschedInstanceSet('small', { instancesPerSpec: 1, taskCounts: [6], slacks: [0.1], seed: 2009 });
    for (const c of picks) {
      const out = await V.vcschedCell(c.params as any);
      const records = Array.isArray(out) ? out : [out];
      const algorithms = V.cellAlgorithms(c.params.algorithm as virtualClusters.VcschedCellAlgorithm);
      // one record per algorithm of the cell: an array exactly for the RRND+RRNZ cell
      expect(Array.isArray(out)).to.equal(c.params.algorithm === V.RRND_RRNZ);
      expect(records.map((r) => r.algorithm)).to.deep.equal(algorithms);
      const gi = set.find((g) => g.spec.memCv === c.params.memCv && g.spec.cpuCv === c.params.cpuCv)!;
      records.forEach((r, k) => {
        expect(r).to.include.keys('algorithm', 'status', 'minYield', 'avgYield', 'seconds', 'lpMinYield', 'lpAvgYield', 'slack', 'tasks', 'instance');
        // the same record as the algorithm alone (its own LP solve)
        const [direct] = runVcschedExperiment([gi], [algorithms[k]], (c.params as any).options);
        expect({ ...r, seconds: 0 }).to.deep.equal({ ...direct, seconds: 0 });
      });
    }
  });

  it('HiGHS cells (MILP, RRND/RRNZ on 64 hosts) give the same records in two worker threads as in process', async () => {
    const base = { set: ['small'], parallel: [false], slack: [0.5], memCv: [0.75], cpuCv: [0.75], instance: [0, 1] };
    const grids: Grid[] = [
      { ...base, part: ['milp'], tasks: [8], algorithm: ['MILP'], options: [{ lpEngine: 'highs', milpNodeLimit: V.MILP_NODE_LIMIT, milpTimeLimitSeconds: 600 }] },
      { ...base, part: ['large'], set: ['large'], tasks: [100], instance: [0], algorithm: [V.RRND_RRNZ], options: [{ seed: 2009, tolerance: 0.01, backtrackBudget: 1000, lpEngine: 'highs' }] },
    ];
    const records = async (workers: number) => {
      const exp = tiny(V.experiment, grids);
      const parts = V.vcschedResultsFrom(await runPaperSweep(exp, { ...quiet, workers, resultsRoot: path.join(tmp, `vcsched-highs-${workers}`) }));
      return [...parts.milp, ...parts.large].map((r) => ({ ...r, seconds: 0 }));
    };
    const inline = await records(0);
    expect(inline.map((r) => [r.algorithm, r.status])).to.deep.equal([['MILP', 'ok'], ['MILP', 'ok'], ['RRND', inline[2].status], ['RRNZ', 'ok']]);
    expect(await records(2)).to.deep.equal(inline);
  });

  it('regroups records by part', async () => {
    const opts = { seed: 2009, tolerance: 0.01, backtrackBudget: 1000 };
    const exp = tiny(V.experiment, [
      { part: ['small'], set: ['small'], parallel: [false], tasks: [6], slack: [0.5], memCv: [0.25], cpuCv: [0.25], instance: [0, 1], algorithm: ['SG'], options: [opts] },
      { part: ['par'], set: ['large'], parallel: [true], tasks: [100], slack: [0.5], memCv: [0.25], cpuCv: [0.25], instance: [0], algorithm: ['MCB8'], options: [opts] },
    ]);
    const parts = V.vcschedResultsFrom(await runPaperSweep(exp, { ...quiet, workers: 0, resultsRoot: path.join(tmp, 'vcsched') }));
    expect(parts.small.map((r) => [r.instance, r.algorithm])).to.deep.equal([[0, 'SG'], [1, 'SG']]);
    expect(parts.par.map((r) => [r.parallel, r.hosts, r.algorithm])).to.deep.equal([[true, 64, 'MCB8']]);
    expect(parts.large).to.deep.equal([]);
  });
});

describe('00-batch-baselines', () => {
  const B = batchBaselines;

  it('paper grid: 6 workloads x 3 policies x 2 estimate kinds + 6 workloads x 6 loads x 3 policies, whole traces', () => {
    const cells = sweepCells(B.paperSweep);
    expect(cells.length).to.equal(6 * 3 * 2 + 6 * 6 * 3);
    expect(cells.filter((c) => c.params.part === 'curves').length).to.equal(108);
    expect(new Set(cells.map((c) => c.params.jobsPerTrace))).to.deep.equal(new Set([null]));
    expect(new Set(cells.map((c) => c.params.workload)).size).to.equal(6);
  });

  it('cells (small workloads) return the summary and curve rows the notebook tabulates', () => {
    const cells = sweepCells(B.paperSweep);
    const summary = cells.find((c) => c.params.part === 'summary' && c.params.workload === 'Lublin' && c.params.policy === 'easy')!;
    const curve = cells.find((c) => c.params.part === 'curves' && c.params.workload === 'KTH-SP2' && c.params.policy === 'conservative')!;
    const small = { jobsPerTrace: 300, lublin: { jobs: 300, machineSize: 128, seed: 'batch-baselines' } };
    const a = B.batchCell({ ...(summary.params as any), ...small });
    expect(Object.keys(a)).to.deep.equal(['workload', 'policy', 'estimates', 'meanWait', 'maxWait', 'meanResponse', 'meanBsld', 'maxBsld', 'utilization', 'makespanDays']);
    expect(a.workload).to.equal('Lublin');
    const b = B.batchCell({ ...(curve.params as any), ...small }) as any;
    expect(Object.keys(b)).to.deep.equal(['workload', 'policy', 'load', 'meanBsld', 'meanWait', 'utilization']);
    expect(b.meanBsld).to.be.at.least(1);
    expect(B.batchWorkload({ workload: 'KTH-SP2', ...small }).jobs.length).to.equal(300);
  });
});

describe('04-advance-reservation', () => {
  const R = advanceReservation;

  it('paper grid: 5 sweeps x 5 values x 5 replications x 7 policies, 10,000 requests', () => {
    const cells = sweepCells(R.paperSweep);
    expect(cells.length).to.equal(5 * 5 * 5 * 7);
    expect(new Set(cells.map((c) => c.params.jobs))).to.deep.equal(new Set([10000]));
    expect(cells.filter((c) => c.params.source === 'LANL-CM5').length).to.equal(2 * 175);
  });

  it('cells (few requests) return the records the summaries and paired differences use; policies share requests', () => {
    const base = sweepCells(R.paperSweep).find((c) => c.params.experiment === 'flexibility' && c.params.source === 'LANL-CM5')!.params as any;
    const rows = (['FF', 'PE_W'] as const).map((policy) => R.reservationCell({ ...base, jobs: 150, rep: 1, policy }));
    for (const r of rows) {
      expect(r).to.include.keys('experiment', 'x', 'policy', 'replication', 'acceptanceRate', 'averageSlowdown', 'utilization', 'requests');
      expect(r.replication).to.equal(1);
      expect(r.source).to.equal('LANL-CM5 trace');
      expect(r.requests).to.equal(150);
    }
    expect(rows[0].acceptanceRate).to.be.within(0, 100);
  });
});

describe('01-dfrs-vs-batch', () => {
  const D = dfrsVsBatch;

  it('paper grid: 1,182 traces x (20 + 98 algorithms + 11 periods); the scaled synthetic Table 2 is 900 x 20', () => {
    expect(countCells(D.paperSweep)).to.equal(1182 * (20 + 98 + 11));
    const t2 = gridCells(D.paperSweep, { part: 'table2' });
    expect(t2.length).to.equal(1182 * 20);
    expect(t2.filter((c) => c.trace_set === 'scaled').length).to.equal(900 * 20);
    expect(new Set(t2.filter((c) => c.trace_set === 'hpc2n').map((c) => c.trace_index)).size).to.equal(182);
    expect(new Set(gridCells(D.paperSweep, { part: 'appendix', trace_set: 'unscaled', trace_index: 0 }).map((c) => c.algorithm)).size).to.equal(98);
    expect(gridCells(D.paperSweep, { part: 'period', trace_set: 'unscaled', trace_index: 0 }).map((c) => c.period)).to.deep.equal(
      [900, 1200, 1800, 2400, 3600, 4800, 6000, 7200, 9000, 10800, 12000],
    );
  });

  it('traces built lazily: the labels of the built traces, and the traces table read from records equals the one computed from the jobs', () => {
    const specs = [
      { trace_set: 'unscaled' as const, trace_index: 3, jobs_per_trace: 60, base_seed: 7 },
      { trace_set: 'scaled' as const, trace_index: 1, load: 0.7, jobs_per_trace: 60, base_seed: 7 },
    ];
    const built = specs.map((s) => prepareDfrsTrace(s));
    const lazy = specs.map((s) => D.lazyDfrsTrace(s));
    expect(lazy.map((t) => t.labels)).to.deep.equal(built.map((t) => t.labels));
    expect(dfrsTraceLabels({ trace_set: 'hpc2n', trace_index: 12 })).to.deep.equal({ trace_set: 'hpc2n', trace: 'week-12', load: null });
    const records = built.map((t) => runDfrsCell({ jobs: t.jobs, nodes: t.nodes, cores: t.cores, algorithm: 'FCFS', bound: t.bound, batchUnit: t.batchUnit, labels: t.labels }));
    const fromJobs = built.map((t) => ({ set: t.labels.trace_set, trace: t.labels.trace, jobs: t.jobs.length, nodes: t.nodes, offered_load: offeredLoad(t.jobs, t.nodes), bound: t.bound }));
    expect(D.dfrsTraceRows(lazy, records)).to.deep.equal(fromJobs);
    // no record of a trace: computed from its jobs
    expect(D.dfrsTraceRows(lazy, records.slice(0, 1))).to.deep.equal(fromJobs);
    expect(lazy[1].jobs).to.deep.equal(built[1].jobs);
  });

  it('parts regrouped once per set of stored records: each caller gets arrays of its own, other records are regrouped', () => {
    const stored = (degradation: number) => ['table2', 'appendix', 'period'].map((part, i) => ({ key: String(i), params: { part }, status: 'ok', result: { trace_set: 'unscaled', trace: 'lublin-0', algorithm: 'EASY', degradation, bound: null } }));
    const summary = (records: unknown[]) => ({ records, partial: true, missing: 0 }) as any;
    const records = stored(2);
    const a = D.dfrsResultsFrom(summary(records));
    const b = D.dfrsResultsFrom(summary([...records]));
    expect(b.table2[0]).to.equal(a.table2[0]); // shared, not regrouped
    expect(a.table2[0].bound).to.be.NaN;
    a.table2.push(a.appendix[0]); // a caller's own array
    expect(D.dfrsResultsFrom(summary(records)).table2).to.have.length(1);
    const other = stored(3);
    expect(D.dfrsResultsFrom(summary([records[0], other[1], other[2]])).appendix[0].degradation).to.equal(3);
  });

  it('cells (short traces) return the Table 2-4 fields; MCB8 * appendix cells keep their call lists', async () => {
    const pick = (part: string, algorithm: string) => gridCells(D.paperSweep, { part, trace_set: 'scaled', trace_index: 0, load: 0.1, algorithm })[0] as any;
    const short = { jobs_per_trace: 40, load: 0.5 };
    const easy = await D.dfrsCell({ ...pick('table2', 'EASY'), ...short });
    const best = await D.dfrsCell({ ...pick('table2', D.DFRS_BEST), ...short });
    const mcb = await D.dfrsCell({ ...pick('appendix', D.DFRS_MCB_CALLS_ALGORITHM), ...short });
    for (const r of [easy, best, mcb]) {
      expect(r).to.include.keys('trace_set', 'trace', 'load', 'algorithm', 'bound', 'degradation', 'norm_underutilization', 'pmtn_per_hour', 'mig_per_hour', 'pmtn_gbps', 'mig_gbps');
      expect(r.bound).to.equal(easy.bound); // one trace, one bound
      expect(r.degradation).to.be.at.least(1 - 1e-9);
    }
    expect(best.trace).to.equal('lublin-0@0.5');
    expect(best.mcb_call_list).to.equal(undefined);
    expect(mcb.mcb_call_list).to.be.an('array');
  });

  it("the '(as published)' batch rows are a sweep of their own on Table 2's traces: the committed sweep keeps its fingerprint", () => {
    // The committed 152,478 records were computed for this definition; a second sweep leaves it alone.
    const provenance = JSON.parse(fs.readFileSync(path.join(__dirname, '../../results/01-dfrs-vs-batch/provenance.json'), 'utf8'));
    expect(D.paperSweep.fingerprint).to.equal(provenance.definition);
    const trace = (c: Record<string, unknown>) => JSON.stringify([c.trace_set, c.trace_index, c.load, c.jobs_per_trace, c.base_seed, c.max_jobs, c.period, c.penalty]);
    for (const scale of ['paper', 'quick'] as const) {
      const published = expandCells(D.publishedBatchExperiment.sweep(scale)).map((c) => c.params);
      const easy = gridCells(D.experiment.sweep(scale), { part: 'table2', algorithm: 'EASY' });
      expect(published.length, scale).to.equal(2 * easy.length);
      expect(new Set(published.map((c) => c.algorithm))).to.deep.equal(new Set(['FCFS (as published)', 'EASY (as published)']));
      expect(published.filter((c) => c.algorithm === 'EASY (as published)').map(trace), scale).to.deep.equal(easy.map(trace));
    }
    // Its own provenance file beside the notebook's, so each pair is sealed and locked on its own.
    const gz = paperResultsFile(D.publishedBatchExperiment.notebook, D.publishedBatchPaperSweep, null, committedRoot()) + '.gz';
    expect(path.basename(provenanceOf(gz))).to.equal('01-dfrs-vs-batch-published-batch.provenance.json');
  });

  it('the HPC2N ablation runs each switch on the same weeks, its default variant on exactly Table 2\'s cells, under a provenance of its own', () => {
    const cells = expandCells(D.hpc2nAblationExperiment.sweep('paper')).map((c) => c.params);
    expect(cells).to.have.length(D.HPC2N_ABLATION.variants.reduce((n, v) => n + v.algorithms.length, 0) * D.HPC2N_ABLATION.weeks.paper.length);
    const weeksOf = (v: { spanning: string; tasks: string }) => [...new Set(cells.filter((c) => c.spanning === v.spanning && c.tasks === v.tasks).map((c) => c.trace_index))];
    for (const v of D.HPC2N_ABLATION.variants) expect(weeksOf(v), JSON.stringify(v)).to.deep.equal(D.HPC2N_ABLATION.weeks.paper);
    // the default variant's cells are Table 2's, with the two switches added
    const canon = (o: Record<string, unknown>) => JSON.stringify(Object.keys(o).filter((k) => k !== 'spanning' && k !== 'tasks').sort().map((k) => [k, o[k]]));
    const table2 = new Set(gridCells(D.experiment.sweep('paper'), { part: 'table2' }).map(canon));
    const defaults = cells.filter((x) => x.spanning === 'keep' && x.tasks === 'paper');
    expect(defaults).to.have.length(D.HPC2N_ABLATION.weeks.paper.length * D.HPC2N_ABLATION.algorithms.length);
    // one task per processor: the DFRS algorithm only (whole-node batch tasks do not fit the machine)
    expect(new Set(cells.filter((x) => x.tasks === 'per-processor').map((x) => x.algorithm))).to.deep.equal(new Set([D.DFRS_BEST]));
    for (const c of defaults.filter((x) => x.algorithm !== 'EASY (as published)')) expect(table2.has(canon(c)), canon(c)).to.equal(true);
    const gz = paperResultsFile(D.hpc2nAblationExperiment.notebook, D.hpc2nAblationPaperSweep, null, committedRoot()) + '.gz';
    expect(path.basename(provenanceOf(gz))).to.equal('01-dfrs-vs-batch-hpc2n-ablation.provenance.json');
  });

  it("the maxima ablation runs each switch on the same traces (every load of the scaled set), each cell Table 2's but for one switch", () => {
    const cells = expandCells(D.maximaAblationExperiment.sweep('paper')).map((c) => c.params);
    const switches = ['penalty_min_age', 'limit_protects', 'stretch_threshold'];
    const traceOf = (c: Record<string, unknown>) => `${String(c.trace_set)}/${String(c.trace_index)}/${String(c.load)}`;
    const tracesOf = (k: string) => [...new Set(cells.filter((c) => c[k] !== undefined).map(traceOf))].sort();
    const all = tracesOf(switches[0]);
    for (const k of switches) expect(tracesOf(k), k).to.deep.equal(all);
    expect(cells).to.have.length(all.length * switches.length * D.MAXIMA_ABLATION.algorithms.length);
    expect(new Set(cells.filter((c) => c.trace_set === 'scaled').map((c) => c.load))).to.deep.equal(new Set(D.DFRS_PAPER_GRID.paper.loads));
    // each cell changes exactly one switch; without it, it is one of Table 2's cells (the default variant is read from there)
    const canon = (o: Record<string, unknown>) => JSON.stringify(Object.keys(o).filter((k) => !switches.includes(k) && k !== 'trace_pick').sort().map((k) => [k, o[k]]));
    const table2 = new Set(gridCells(D.experiment.sweep('paper'), { part: 'table2' }).map(canon));
    for (const c of cells) {
      expect(switches.filter((k) => c[k] !== undefined), canon(c)).to.have.length(1);
      expect(table2.has(canon(c)), canon(c)).to.equal(true);
    }
    // the worst traces come first, then the seeded sample; same seed, same traces
    expect(D.maximaAblationTraces('paper')).to.deep.equal(D.maximaAblationTraces('paper'));
    expect(new Set(cells.map((c) => c.trace_pick))).to.deep.equal(new Set(D.MAXIMA_PICKS));
  });
});
