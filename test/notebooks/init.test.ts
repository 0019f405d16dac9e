/**
 * `schedlab init` against hostile paths and user files: one-line errors naming
 * the file, all or nothing, re-runnable; kernels told apart across clones;
 * danfojs usable with types in the project (checked with tslab's own
 * compiler, without starting Jupyter).
 *
 * Jupyter's data and config folders are temporary (JUPYTER_DATA_DIR,
 * JUPYTER_CONFIG_DIR), so the user's Jupyter is left untouched.
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { initMain, openCommand, shellQuote } from '../../src/cli/init';
import { kernelDisplayName, kernelNameFor, kernelSpecFiles, writePlannedFiles } from '../../src/analysis/jupyter';
import { describeFailure } from '../../src/bin/kernel';
import { assertDistFresh } from '../support/dist';

const root = path.resolve(__dirname, '../..');

/** Every file and link under `dir` (relative), to compare before and after. */
function listing(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      out.push(path.relative(dir, p) + (e.isSymbolicLink() ? ' -> ' + fs.readlinkSync(p) : ''));
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out.sort();
}

describe('schedlab init: hostile paths and user files', () => {
  let tmp: string;
  let saved: NodeJS.ProcessEnv;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-init-'));
    saved = { ...process.env };
    process.env.JUPYTER_DATA_DIR = path.join(tmp, 'jupyter-data');
    process.env.JUPYTER_CONFIG_DIR = path.join(tmp, 'jupyter-config');
  });
  afterEach(() => {
    process.env.JUPYTER_DATA_DIR = saved.JUPYTER_DATA_DIR;
    process.env.JUPYTER_CONFIG_DIR = saved.JUPYTER_CONFIG_DIR;
    if (saved.JUPYTER_DATA_DIR === undefined) delete process.env.JUPYTER_DATA_DIR;
    if (saved.JUPYTER_CONFIG_DIR === undefined) delete process.env.JUPYTER_CONFIG_DIR;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function init(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const w = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
    (process.stdout as unknown as { write: (s: string) => boolean }).write = (s: string) => (out.push(String(s)), true);
    (process.stderr as unknown as { write: (s: string) => boolean }).write = (s: string) => (err.push(String(s)), true);
    try {
      const code = await initMain(args);
      return { code, out: out.join(''), err: err.join('') };
    } finally {
      process.stdout.write = w.out;
      process.stderr.write = w.err;
    }
  }

  it('a regular file as the folder: one line naming it, exit 2, nothing written', async () => {
    const file = path.join(tmp, 'notes.txt');
    fs.writeFileSync(file, 'mine');
    const before = listing(tmp);
    const r = await init(file);
    expect(r.code).to.equal(2);
    expect(r.err).to.equal(`schedlab init: ${file}: exists and is not a folder: give a folder (new or existing) for the project\n`);
    expect(listing(tmp)).to.deep.equal(before);
    // Below a file, too.
    const below = await init(path.join(file, 'study'));
    expect(below.code).to.equal(2);
    expect(below.err).to.match(/notes\.txt is not a folder\n$/).and.not.match(/\n    at /);
  });

  it("an empty nbconfig/notebook.json is an empty configuration; other content is kept", async () => {
    const nbconfig = path.join(tmp, 'jupyter-config', 'nbconfig');
    fs.mkdirSync(nbconfig, { recursive: true });
    fs.writeFileSync(path.join(nbconfig, 'notebook.json'), '');
    expect((await init(path.join(tmp, 'a'))).code).to.equal(0);
    expect(JSON.parse(fs.readFileSync(path.join(nbconfig, 'notebook.json'), 'utf8'))).to.deep.equal({ load_extensions: { 'schedlab-plotly/main': true } });
    fs.writeFileSync(path.join(nbconfig, 'notebook.json'), '{"load_extensions": {"other/main": true}, "x": 1}');
    expect((await init(path.join(tmp, 'a'))).code).to.equal(0);
    expect(JSON.parse(fs.readFileSync(path.join(nbconfig, 'notebook.json'), 'utf8'))).to.deep.equal({ load_extensions: { 'other/main': true, 'schedlab-plotly/main': true }, x: 1 });
  });

  it('a notebook.json that is not a JSON object: one line naming the file, nothing written anywhere', async () => {
    const file = path.join(tmp, 'jupyter-config', 'nbconfig', 'notebook.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    for (const [content, why] of [
      ['{"load_extensions": ', /not valid JSON/],
      ['[1, 2]', /must hold a JSON object/],
      ['{"load_extensions": true}', /"load_extensions" must be a JSON object/],
    ] as [string, RegExp][]) {
      fs.writeFileSync(file, content);
      const before = listing(tmp);
      const r = await init(path.join(tmp, 'study'));
      expect(r.code, content).to.equal(2);
      expect(r.err.startsWith(`schedlab init: ${file}: `), r.err).to.equal(true);
      expect(r.err).to.match(why);
      expect(r.err.trim().split('\n'), 'one line').to.have.length(1);
      expect(listing(tmp), 'nothing written').to.deep.equal(before);
      expect(fs.readFileSync(file, 'utf8')).to.equal(content);
    }
  });

  it('a failure part-way undoes what init wrote; once the cause is gone it succeeds, and again', async () => {
    const project = path.join(tmp, 'my study');
    // The kernels folder is a file: writing the kernel spec fails after the project folder and links were made.
    fs.mkdirSync(path.join(tmp, 'jupyter-data'), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'jupyter-data', 'kernels'), '');
    const before = listing(tmp);
    const failed = await init(project);
    expect(failed.code).to.equal(1);
    expect(failed.err).to.match(/^schedlab init: .*kernels.*\n$/).and.not.match(/\n    at /);
    expect(listing(tmp), 'rolled back').to.deep.equal(before);

    fs.rmSync(path.join(tmp, 'jupyter-data', 'kernels'));
    expect((await init(project)).code).to.equal(0);
    const starter = path.join(project, 'schedlab-start.ipynb');
    fs.writeFileSync(starter, fs.readFileSync(starter, 'utf8').replace('schedlab starter', 'my own notes'));
    const after = listing(tmp);
    const again = await init(project);
    expect(again.code).to.equal(0);
    expect(listing(tmp)).to.deep.equal(after);
    expect(fs.readFileSync(starter, 'utf8')).to.match(/my own notes/); // kept without --force
  });

  it('prints a `next:` command that works in bash for a folder with spaces and quotes (and --allow-root as root)', async () => {
    const project = path.join(tmp, "it's my study (2)");
    const r = await init(project);
    expect(r.code, r.err).to.equal(0);
    const next = /^next: (.*)$/m.exec(r.out)?.[1] ?? '';
    expect(next).to.equal(openCommand(project));
    const cd = next.replace(/ && jupyter-notebook.*$/, ' && pwd');
    const sh = spawnSync('bash', ['-c', cd], { encoding: 'utf8' });
    expect(sh.status, sh.stderr).to.equal(0);
    expect(sh.stdout.trim()).to.equal(project);
    expect(openCommand('/a b', 0)).to.equal("cd '/a b' && jupyter-notebook --allow-root");
    expect(openCommand('/ab', 1000)).to.equal('cd /ab && jupyter-notebook');
    expect(shellQuote("a'b")).to.equal(`'a'\\''b'`);
  });

  it('a node_modules/schedlab that is not a link is the user\'s: refused by name, nothing written', async () => {
    const project = path.join(tmp, 'p');
    fs.mkdirSync(path.join(project, 'node_modules', 'schedlab'), { recursive: true });
    const before = listing(tmp);
    const r = await init(project);
    expect(r.code).to.equal(2);
    expect(r.err).to.match(/node_modules\/schedlab: exists and is not a link to a schedlab installation/);
    expect(listing(tmp)).to.deep.equal(before);
  });
});

describe('kernels of clones and projects', () => {
  it('two folders of the same name get different kernel names and display names', () => {
    const a = '/srv/one/schedlab';
    const b = '/srv/two/schedlab';
    expect(kernelNameFor(a)).not.to.equal(kernelNameFor(b));
    expect(kernelDisplayName(a)).not.to.equal(kernelDisplayName(b));
    expect(kernelDisplayName(a)).to.match(/^TypeScript \(schedlab: schedlab, [0-9a-f]{8}\)$/);
    expect(kernelDisplayName(a)).to.contain(kernelNameFor(a).slice(-8));
  });

  it('a kernel whose installation is gone says so, names the kernel and how to repair, instead of a module trace', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-kernel-'));
    try {
      const files = kernelSpecFiles('schedlab-p-12345678', 'TypeScript (schedlab: p, 12345678)', { dataDir, repair: 'Run: npx schedlab init /p' });
      writePlannedFiles(files);
      const spec = JSON.parse(fs.readFileSync(path.join(dataDir, 'kernels', 'schedlab-p-12345678', 'kernel.json'), 'utf8'));
      expect(spec.display_name).to.equal('TypeScript (schedlab: p, 12345678)');
      expect(spec.argv.slice(2)).to.deep.equal(['{connection_file}']);
      const launcher = spec.argv[1] as string;
      expect(fs.readFileSync(launcher, 'utf8')).to.contain(JSON.stringify(path.join(root, 'dist', 'bin', 'kernel.js')));
      // The same launcher after its installation was deleted.
      fs.writeFileSync(launcher, fs.readFileSync(launcher, 'utf8').split(JSON.stringify(path.join(root, 'dist', 'bin', 'kernel.js'))).join(JSON.stringify('/gone/schedlab/dist/bin/kernel.js')));
      const r = spawnSync(process.execPath, [launcher, '/nonexistent/connection.json'], { encoding: 'utf8' });
      expect(r.status).to.equal(1);
      expect(r.stderr).to.match(/^schedlab kernel schedlab-p-12345678: the schedlab installation it runs is gone \(.*not found\)\. Run: npx schedlab init \/p\n$/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("a failed cell's stderr becomes a named error with the compiler's message and location", () => {
    expect(describeFailure("2:7 - Cannot find name 'x'.\n3:1 - Type 'string' is not assignable to type 'number'.\n")).to.deep.equal({
      ename: 'TypeScript',
      evalue: "line 2, column 7: Cannot find name 'x'. (and 1 more)",
      traceback: ["TypeScript: line 2, column 7: Cannot find name 'x'.", "TypeScript: line 3, column 1: Type 'string' is not assignable to type 'number'."],
    });
    const thrown = describeFailure('evalmachine.<anonymous>:2\nthrow e;\n^\n\nInputError: trace.swf:3: field 4 (run time): not a number\n    at evalmachine.<anonymous>:2:7\n    at Script.runInThisContext (node:vm:135:14)\n    at Object.execute (/x/node_modules/tslab/dist/executor.js:160:38)\n');
    expect(thrown.ename).to.equal('InputError');
    expect(thrown.evalue).to.equal('trace.swf:3: field 4 (run time): not a number');
    expect(thrown.traceback.join('\n')).not.to.match(/node:vm|tslab/);
    expect(describeFailure('').evalue).to.match(/without a message/);
  });
});

describe('danfojs in an init project (tslab compiler)', function () {
  this.timeout(120000);
  // The project's schedlab is this clone's dist/: it must be the src/ under test.
  before(() => assertDistFresh());
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-danfo-'));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('top-level danfojs values compile without annotations, and danfojs imports with types', async () => {
    const project = path.join(tmp, 'study');
    const saved = { data: process.env.JUPYTER_DATA_DIR, config: process.env.JUPYTER_CONFIG_DIR };
    process.env.JUPYTER_DATA_DIR = path.join(tmp, 'jd');
    process.env.JUPYTER_CONFIG_DIR = path.join(tmp, 'jc');
    const write = process.stdout.write.bind(process.stdout);
    (process.stdout as unknown as { write: () => boolean }).write = () => true;
    try {
      expect(await initMain([project])).to.equal(0);
    } finally {
      process.stdout.write = write;
      for (const [k, v] of [['JUPYTER_DATA_DIR', saved.data], ['JUPYTER_CONFIG_DIR', saved.config]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    // Cells compiled one after the other by tslab's converter, as its kernel does (declarations carried over).
    const cells = [
      "import { toFrame } from 'schedlab';\nconst df = toFrame([{ size: 1, wait: 2 }, { size: 1, wait: 4 }, { size: 8, wait: 1 }]);",
      "const g = df.groupby(['size']).agg({ wait: 'mean' });",
      "import * as dfd from 'danfojs';\nconst own = new dfd.DataFrame([{ a: 1 }]);\nconst s = own.column('a');\nconst n: number = g.shape[0];",
    ];
    const script = `const conv = require(${JSON.stringify(path.join(root, 'node_modules/tslab/dist/converter'))}).createConverter();
let decl = '';
const out = [];
for (const src of ${JSON.stringify(cells)}) {
  const r = conv.convert(decl, src);
  out.push(r.diagnostics.map((d) => d.code + ' ' + d.messageText));
  if (!r.diagnostics.length) decl = r.declOutput;
}
conv.close();
console.log(JSON.stringify(out));`;
    const r = spawnSync(process.execPath, ['-e', script], { cwd: project, encoding: 'utf8' });
    expect(r.status, r.stderr).to.equal(0);
    expect(JSON.parse(r.stdout.trim().split('\n').pop() as string)).to.deep.equal([[], [], []]);
    // And at run time, danfojs from the project is the toolkit's danfojs (one copy, one DataFrame class).
    const run = spawnSync(process.execPath, ['-e', "const d = require('danfojs'); const s = require('schedlab'); console.log(s.toFrame([{a: 1}]) instanceof d.DataFrame)"], { cwd: project, encoding: 'utf8' });
    expect(run.stdout.trim().split('\n').pop()).to.equal('true');
  });
});
