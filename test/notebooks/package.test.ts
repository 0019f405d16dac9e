/**
 * schedlab as an installed package, outside any clone: `npm pack`, the
 * tarball installed into an empty folder, `npx schedlab init .`, the CLI, and
 * a TypeScript study using danfojs directly with `show` and `writeTable`,
 * compiled by the TypeScript the project got with tslab (with declarations,
 * as tslab compiles cells) and run.
 *
 * Then one notebook is executed there headless, on the kernel init registered
 * (the installed copy's): danfojs imported directly with unannotated top-level
 * values, `show(df)`, a Gantt chart saved and a Batsim jobs CSV written beside
 * it. The starter notebook itself is executed by project.test.ts (for a linked
 * project). npm installs with --prefer-offline: from the npm cache where it
 * holds the packages, else from the registry.
 */
import { expect } from 'chai';
import { spawnSync, SpawnSyncOptions } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PLOTLY_MIME } from '../../src/analysis/show';
import { assertDistFresh } from '../support/dist';

const root = path.resolve(__dirname, '../..');

function run(cmd: string, args: string[], opts: SpawnSyncOptions): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  return { status: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
}

describe('schedlab as an installed package (npm pack, npm install, npx schedlab init)', function () {
  this.timeout(15 * 60 * 1000);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-package-'));
  const project = path.join(tmp, 'my study');
  const env: NodeJS.ProcessEnv = { ...process.env, JUPYTER_DATA_DIR: path.join(tmp, 'jupyter-data'), JUPYTER_CONFIG_DIR: path.join(tmp, 'jupyter-config') };
  delete env.SCHEDLAB_OUT;
  delete env.SCHEDLAB_TS_REGISTER; // the installed copy loads .ts files with its own means, not the clone's test loader
  before(assertDistFresh); // the package is dist/
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('packs the compiled toolkit with its types and CLI, builds it before packing, and nothing else', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(pkg.scripts.prepack).to.match(/tsc -p tsconfig\.json/);
    // --ignore-scripts: dist/ is the one the set-up compiled (prepack would compile it again).
    const r = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: root });
    expect(r.status, r.stderr).to.equal(0);
    const [info] = JSON.parse(r.stdout) as { filename: string; files: { path: string }[] }[];
    const files = info.files.map((f) => f.path);
    for (const f of ['package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/bin/schedlab.js', 'dist/bin/kernel.js', 'dist/analysis/show.d.ts', 'data/traces.json', 'README.md']) {
      expect(files, f).to.include(f);
    }
    expect(files.filter((f) => /^(src|test|bench|results|notebooks|node_modules)\//.test(f) || f.endsWith('.map') || f.endsWith('.tsbuildinfo'))).to.deep.equal([]);
    fs.renameSync(path.join(tmp, info.filename), path.join(tmp, 'schedlab.tgz'));
  });

  it('installs into an empty folder, where npx schedlab init makes a project whose kernel runs the installed copy', () => {
    expect(fs.existsSync(path.join(tmp, 'schedlab.tgz')), 'packed by the previous test').to.equal(true);
    fs.mkdirSync(project);
    // danfojs names xlsx by a CDN tarball; the override (documented in the README) takes the registry's package.
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ private: true, overrides: { xlsx: 'npm:xlsx@0.18.5' } }, null, 2));
    const install = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(tmp, 'schedlab.tgz')], { cwd: project, env });
    expect(install.status, install.stderr.slice(-3000)).to.equal(0);
    expect(fs.lstatSync(path.join(project, 'node_modules', 'schedlab')).isSymbolicLink()).to.equal(false);

    const init = run('npx', ['schedlab', 'init', '.'], { cwd: project, env });
    expect(init.status, init.stderr).to.equal(0);
    const kernel = /kernel registered: (\S+)/.exec(init.stdout)?.[1] as string;
    const launcher = fs.readFileSync(path.join(tmp, 'jupyter-data', 'kernels', kernel, 'launch.js'), 'utf8');
    // Independent of the clone: the kernel runs the project's own copy.
    expect(launcher).to.contain(JSON.stringify(path.join(project, 'node_modules', 'schedlab', 'dist', 'bin', 'kernel.js')));
    expect(launcher).not.to.contain(root + path.sep);
    expect(fs.existsSync(path.join(project, 'schedlab-start.ipynb'))).to.equal(true);

    const sim = run('npx', ['schedlab', 'simulate', '--lublin', '200', '--machine-size', '64'], { cwd: project, env });
    expect(sim.status, sim.stderr).to.equal(0);
    expect(sim.stdout).to.match(/jobs\s+200/);
  });

  it('a TypeScript study there uses danfojs directly, show(frame) and writeTable, compiled with declarations like a notebook cell', () => {
    expect(fs.existsSync(path.join(project, 'node_modules', 'schedlab')), 'installed by the previous test').to.equal(true);
    fs.writeFileSync(
      path.join(project, 'study.ts'),
      `import * as dfd from 'danfojs';
import { generateLublin, simulateBatch, show, writeTable, tablesDir, fromFrame } from 'schedlab';

const run = simulateBatch(generateLublin({ jobs: 300, seed: 2, machineSize: 64 }), { machineSize: 64, policy: 'easy' });
const df = new dfd.DataFrame(run.map((j) => ({ procs: j.procs, wait: j.wait })));
export const bySize = df.groupby(['procs']).agg({ wait: 'mean' });
show(bySize, { rows: 6 });
console.log(writeTable(fromFrame(bySize), tablesDir('study'), 'wait-by-size'));
`,
    );
    // The project's TypeScript is tslab's (node_modules/.bin/tsc); tslab compiles cells with declarations and Node10 resolution.
    const tsc = run(process.execPath, [path.join(project, 'node_modules', '.bin', 'tsc'), '--strict', '--declaration', '--esModuleInterop', '--module', 'commonjs', '--moduleResolution', 'node10', '--target', 'es2022', '--skipLibCheck', 'study.ts'], { cwd: project, env });
    expect(tsc.status, tsc.stdout + tsc.stderr).to.equal(0);
    expect(fs.readFileSync(path.join(project, 'study.d.ts'), 'utf8')).to.match(/export declare const bySize: import\("danfojs\//);
    const node = run(process.execPath, ['study.js'], { cwd: project, env });
    expect(node.status, node.stderr).to.equal(0);
    expect(node.stdout).to.match(/\| {2}\| procs \| wait_mean \|/).and.match(/rows × 2 columns; \d+ rows hidden/);
    expect(node.stdout).to.contain('[table written: out/study/tables/extra-wait-by-size.csv, .md, .tex]');
    expect(fs.readFileSync(path.join(project, 'out', 'study', 'tables', 'extra-wait-by-size.csv'), 'utf8')).to.match(/^procs,wait_mean\n1,/);
  });

  it('a notebook there uses danfojs directly, shows a frame, saves a Gantt chart and writes a Batsim CSV beside it, executed headless on the project kernel', () => {
    expect(fs.existsSync(path.join(project, 'schedlab-start.ipynb')), 'made by npx schedlab init').to.equal(true);
    const starter = JSON.parse(fs.readFileSync(path.join(project, 'schedlab-start.ipynb'), 'utf8'));
    const cells = [
      `import * as dfd from 'danfojs';
import { generateLublin, simulateBatch } from 'schedlab';

const MACHINE = 32;
const jobs = generateLublin({ jobs: 80, seed: 7, machineSize: MACHINE });
const run = simulateBatch(jobs, { machineSize: MACHINE, policy: 'easy', assignProcessors: true });`,
      `import { show } from 'schedlab';

const df = new dfd.DataFrame(run.map((j) => ({ id: j.id, procs: j.procs, wait: j.wait })));
const bySize = df.groupby(['procs']).agg({ wait: 'mean' });
const wide = df.query(df['procs'].gt(4));
show(df);`,
      `import { ganttChart, processorGanttRows, saveFigure } from 'schedlab';

const bars = processorGanttRows(run, { from: 0, to: 86400 }).map((b) => ({ ...b, label: \`job \${b.job}\` }));
await saveFigure(ganttChart({ data: bars, row: 'processor', start: 'start', end: 'end', label: 'label', title: 'EASY, first day' }), 'study', 'gantt');`,
      `import { writeSchedule } from 'schedlab';

writeSchedule(run, 'easy_jobs.csv', { format: 'batsim' });`,
    ];
    const nb = { ...starter, cells: cells.map((source, i) => ({ cell_type: 'code', id: `s${i}`, metadata: {}, source, execution_count: null, outputs: [] })) };
    fs.writeFileSync(path.join(project, 'study.ipynb'), JSON.stringify(nb));
    // The notebook names the project's kernel (as the starter does): plain nbconvert, no kernel option.
    const exec = run('/usr/bin/jupyter-nbconvert', ['--to', 'notebook', '--execute', 'study.ipynb', '--output', 'study-executed'], { cwd: project, env });
    expect(exec.status, exec.stderr.slice(-3000)).to.equal(0);
    const executed = JSON.parse(fs.readFileSync(path.join(project, 'study-executed.ipynb'), 'utf8'));
    const outputs = executed.cells.flatMap((c: { outputs: unknown[] }) => c.outputs) as { output_type: string; data?: Record<string, unknown> }[];
    expect(outputs.filter((o) => o.output_type === 'error')).to.deep.equal([]);
    const joined = (v: unknown) => (Array.isArray(v) ? v.join('') : String(v ?? ''));
    // show(df): one table, paged (80 rows: the first page shown, the rest counted).
    const tables = outputs.filter((o) => joined(o.data?.['text/html']).includes('<table'));
    expect(tables).to.have.length(1);
    expect(joined(tables[0].data?.['text/plain'])).to.match(/80 rows × 3 columns; \d+ rows hidden/);
    expect(outputs.filter((o) => o.data?.[PLOTLY_MIME])).to.have.length(1);
    for (const ext of ['svg', 'png', 'pdf']) expect(fs.existsSync(path.join(project, 'out', 'study', 'figures', `extra-gantt.${ext}`)), ext).to.equal(true);
    const csv = fs.readFileSync(path.join(project, 'easy_jobs.csv'), 'utf8').trim().split('\n');
    // Batsim's out_jobs.csv schema, as its documentation lists it.
    expect(csv[0]).to.equal('job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,metadata');
    expect(csv).to.have.length(81);
  });
});
