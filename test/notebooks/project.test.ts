/**
 * The toolkit from an empty folder outside the clone: `schedlab init DIR`, then
 * the starter notebook executes (import from 'schedlab', EASY on a Lublin
 * workload, a chart, a figure written beside the notebook). The executed,
 * untrusted notebook is then opened in Debian's Jupyter with headless Chromium:
 * plotly must draw an interactive chart that answers a hover, and the same file
 * must carry a static PNG for viewers without JavaScript.
 *
 * Jupyter's data and config folders are temporary (JUPYTER_DATA_DIR,
 * JUPYTER_CONFIG_DIR), so the test leaves the user's Jupyter untouched.
 */
import { expect } from 'chai';
import { spawn, spawnSync, ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CHROMIUM_ARGS, chromiumPath } from '../../src/analysis/render';
import { PLOTLY_MIME } from '../../src/analysis/show';
import { assertDistFresh } from '../support/dist';
import { openInBrowser, startJupyter } from '../support/jupyter-browser';

const root = path.resolve(__dirname, '../..');

describe('a notebook project outside the clone (schedlab init)', function () {
  this.timeout(5 * 60 * 1000);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-project-'));
  const project = path.join(tmp, 'my study');
  const dataDir = path.join(tmp, 'jupyter-data');
  const env: NodeJS.ProcessEnv = { ...process.env, JUPYTER_DATA_DIR: dataDir, JUPYTER_CONFIG_DIR: path.join(tmp, 'jupyter-config') };
  delete env.SCHEDLAB_OUT;
  const executed = path.join(project, 'executed.ipynb');

  before(assertDistFresh); // init and the kernel run dist/
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('init makes the folder a project and the starter notebook runs there, writing its figure beside it', () => {
    const init = spawnSync(process.execPath, [path.join(root, 'dist/bin/schedlab.js'), 'init', project], { env, encoding: 'utf8' });
    expect(init.status, init.stderr).to.equal(0);
    const kernel = /kernel registered: (\S+)/.exec(init.stdout)?.[1];
    expect(kernel).to.match(/^schedlab-my-study-[0-9a-f]{8}$/);
    const spec = JSON.parse(fs.readFileSync(path.join(dataDir, 'kernels', kernel as string, 'kernel.json'), 'utf8'));
    // The kernel runs this installation's kernel entry (tslab with readable errors) through a launcher in its folder.
    expect(spec.argv[1]).to.equal(path.join(dataDir, 'kernels', kernel as string, 'launch.js'));
    expect(fs.readFileSync(spec.argv[1], 'utf8')).to.contain(JSON.stringify(path.join(root, 'dist/bin/kernel.js')));
    expect(spec.display_name).to.match(/^TypeScript \(schedlab: my study, [0-9a-f]{8}\)$/);

    // A temporary folder of the run's own: the renderer's Chromium profile is made there.
    const runTmp = path.join(tmp, 'run-tmp');
    fs.mkdirSync(runTmp);
    const run = spawnSync('/usr/bin/jupyter-nbconvert', ['--to', 'notebook', '--execute', 'schedlab-start.ipynb', '--output', 'executed'], { cwd: project, env: { ...env, TMPDIR: runTmp }, encoding: 'utf8' });
    expect(run.status, run.stderr.slice(-3000)).to.equal(0);
    // The kernel closed the renderer when Jupyter shut it down (not killed with Chromium running, its profile left behind).
    expect(fs.readdirSync(runTmp).filter((f) => f.startsWith('schedlab-chromium-'))).to.deep.equal([]);
    const nb = JSON.parse(fs.readFileSync(executed, 'utf8'));
    const outputs = nb.cells.flatMap((c: { outputs?: unknown[] }) => c.outputs ?? []) as { output_type: string; text?: string[]; data?: Record<string, unknown> }[];
    expect(outputs.filter((o) => o.output_type === 'error')).to.deep.equal([]);
    expect(outputs.map((o) => (o.text ?? []).join('')).join('')).to.match(/500 jobs, mean wait \d+ s/);
    // danfojs used directly (a groupby at top level), shown as a table; the written table echoed in one short line.
    // nbformat stores multi-line strings as lists of lines.
    const joined = (v: unknown) => (Array.isArray(v) ? v.join('') : String(v ?? ''));
    const tables = outputs.filter((o) => joined(o.data?.['text/html']).includes('<table'));
    expect(tables).to.have.length(1);
    expect(joined(tables[0].data?.['text/plain'])).to.match(/procs \| wait_mean \| wait_count/).and.match(/\d+ rows × 3 columns/);
    const text = outputs.map((o) => (o.text ?? []).join('')).join('');
    expect(text).to.contain('[table written: out/schedlab-start/tables/extra-wait-by-size.csv, .md, .tex]');
    expect(text).not.to.match(/Promise|\/tmp\//);
    const charts = outputs.filter((o) => o.data?.[PLOTLY_MIME]);
    expect(charts).to.have.length(1);
    expect(Buffer.from(charts[0].data?.['image/png'] as string, 'base64').subarray(1, 4).toString()).to.equal('PNG');
    for (const ext of ['svg', 'png', 'pdf']) {
      expect(fs.existsSync(path.join(project, 'out/schedlab-start/figures', `extra-easy-wait.${ext}`)), ext).to.equal(true);
    }
  });

  it("a cell's TypeScript error is reported with the compiler's message and line by plain nbconvert; --allow-errors runs the cells after it", function () {
    if (!fs.existsSync(executed)) this.skip(); // the first test failed and said why
    const starter = JSON.parse(fs.readFileSync(path.join(project, 'schedlab-start.ipynb'), 'utf8'));
    const cells = ["const x: number = 'one';", "console.log('after the error');", "throw new RangeError('out of range here');", "console.log('still running');"];
    starter.cells = cells.map((source, i) => ({ cell_type: 'code', id: `e${i}`, metadata: {}, source, execution_count: null, outputs: [] }));
    fs.writeFileSync(path.join(project, 'errors.ipynb'), JSON.stringify(starter));
    // nbconvert waits 60 s for a kernel to answer by default: too little beside two notebook executions on a loaded machine.
    const startup = '--ExecutePreprocessor.startup_timeout=300';
    const plain = spawnSync('/usr/bin/jupyter-nbconvert', ['--to', 'notebook', '--execute', 'errors.ipynb', startup, '--output', 'errors-plain'], { cwd: project, env, encoding: 'utf8' });
    expect(plain.status).not.to.equal(0);
    expect(plain.stderr, plain.stderr.slice(-2000)).to.contain("TypeScript: line 1, column 7: Type 'string' is not assignable to type 'number'.");
    const all = spawnSync('/usr/bin/jupyter-nbconvert', ['--to', 'notebook', '--execute', 'errors.ipynb', '--allow-errors', startup, '--output', 'errors-all'], { cwd: project, env, encoding: 'utf8' });
    expect(all.status, all.stderr.slice(-2000)).to.equal(0);
    const nb = JSON.parse(fs.readFileSync(path.join(project, 'errors-all.ipynb'), 'utf8'));
    const errors = nb.cells.map((c: { outputs: { output_type: string; ename?: string; evalue?: string }[] }) => c.outputs.filter((o) => o.output_type === 'error').map((o) => `${o.ename}: ${o.evalue}`));
    expect(errors).to.deep.equal([["TypeScript: line 1, column 7: Type 'string' is not assignable to type 'number'."], [], ['RangeError: out of range here'], []]);
    const said = nb.cells.map((c: { outputs: { name?: string; text?: string[] }[] }) => c.outputs.filter((o) => o.name === 'stdout').map((o) => (o.text ?? []).join('')).join(''));
    expect(said[1]).to.equal('after the error\n');
    expect(said[3]).to.equal('still running\n');
  });

  it('the executed (untrusted) notebook opens in Jupyter with a live plotly chart', async function () {
    if (!fs.existsSync(executed)) this.skip(); // the previous test failed and said why
    const { server, port, token } = await startJupyter(project, env);
    try {
      const opened = await openInBrowser(port, token, 'executed.ipynb');
      expect(opened.charts).to.equal(1);
      expect(opened.hovered, 'plotly hover label').to.equal(true);
      console.log(`      chart drawn ${opened.chartMs} ms after navigation; notebook ${(fs.statSync(executed).size / 1024).toFixed(0)} kB`);
    } finally {
      server.kill();
    }
  });
});
