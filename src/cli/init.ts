/**
 * `schedlab init DIR`: start a notebook project in any folder.
 *
 * - `DIR/node_modules/schedlab` links to this installation, so a notebook in
 *   DIR writes `import { … } from 'schedlab'` and gets the compiled toolkit with
 *   its types (tslab resolves packages from the notebook's folder);
 * - a tslab kernel named after DIR (`schedlab-<name>-<hash>`) is registered to
 *   run this installation's tslab, and the starter notebook asks for it, so the
 *   notebook never runs on another checkout's kernel;
 * - the `schedlab-plotly` notebook extension is installed so charts are live;
 * - `DIR/schedlab-start.ipynb` (unless it exists) runs EASY on a small Lublin
 *   workload, shows a chart and writes its figure to DIR/out/schedlab-start/.
 */
import * as fs from 'fs';
import * as path from 'path';
import { kernelDisplayName, kernelNameFor, kernelSpecFiles, notebookExtensionFiles, PlannedFile, plannedFileCurrent, writePlannedFiles } from '../analysis/jupyter';
import { repoRoot } from '../util/repo';
import { explainFsError, InputError, makeFolder, OutputError, UsageError } from '../util/errors';

export const INIT_USAGE = `usage: schedlab init DIR [--force]
  Makes DIR a schedlab notebook project: links the toolkit into DIR/node_modules,
  registers a tslab kernel for DIR (in JUPYTER_DATA_DIR, default ~/.local/share/jupyter),
  installs the live-chart notebook extension and writes DIR/schedlab-start.ipynb.
  Also makes danfojs importable with types in DIR (import * as dfd from 'danfojs').
  Re-running is harmless; a failure changes nothing.
  --force   overwrite DIR/schedlab-start.ipynb
  Then: cd DIR && jupyter-notebook   (as root: jupyter-notebook --allow-root)
  Or execute headlessly: jupyter-nbconvert --to notebook --execute schedlab-start.ipynb
  (cell errors show the TypeScript message and line; --allow-errors runs the cells after an error)`;

export const STARTER = 'schedlab-start.ipynb';

const STARTER_CELLS: [kind: 'markdown' | 'code', source: string][] = [
  ['markdown', '# schedlab starter\n\nEASY backfilling on a small synthetic workload (Lublin–Feitelson 2003 model), its jobs as a danfojs DataFrame, a chart and a table written beside this notebook.'],
  [
    'code',
    `import { generateLublin, simulateBatch, summarizeRun } from 'schedlab';

const MACHINE = 128;
const jobs = generateLublin({ jobs: 500, seed: 1, machineSize: MACHINE });
const easy = simulateBatch(jobs, { machineSize: MACHINE, policy: 'easy' });
const summary = summarizeRun(easy, { machineSize: MACHINE });
console.log(\`\${summary.jobs} jobs, mean wait \${summary.meanWait.toFixed(0)} s, utilization \${(100 * summary.utilization).toFixed(1)}%\`);`,
  ],
  [
    'code',
    `// Wait time of each job in submission order: shown, and saved as SVG, PNG and PDF in out/schedlab-start/figures/.
import { lineChart, saveFigure } from 'schedlab';

const fig = lineChart({ data: easy.map((j, i) => ({ job: i + 1, wait: j.wait / 3600 })), x: 'job', y: 'wait', markers: false,
  title: 'EASY: wait per job', xLabel: 'job (submission order)', yLabel: 'wait (h)' });
await saveFigure(fig, 'schedlab-start', 'easy-wait');`,
  ],
  [
    'code',
    `// danfojs directly: a DataFrame of the jobs, mean wait by job size. show() draws a frame as a table;
// writeTable writes it as CSV, Markdown and LaTeX in out/schedlab-start/tables/.
import * as dfd from 'danfojs';
import { show, writeTable, tablesDir, fromFrame } from 'schedlab';

const df = new dfd.DataFrame(easy.map((j) => ({ procs: j.procs, wait: j.wait / 3600 })));
const bySize = df.groupby(['procs']).agg({ wait: ['mean', 'count'] });
show(bySize);
writeTable(fromFrame(bySize), tablesDir('schedlab-start'), 'wait-by-size', { digits: 2 });`,
  ],
];

function starterNotebook(kernelName: string, displayName: string): string {
  const nb = {
    cells: STARTER_CELLS.map(([kind, source], i) => ({
      cell_type: kind,
      id: `cell-${i}`,
      metadata: {},
      source: source.split(/(?<=\n)/),
      ...(kind === 'code' ? { execution_count: null, outputs: [] } : {}),
    })),
    metadata: { kernelspec: { name: kernelName, display_name: displayName, language: 'typescript' }, language_info: { name: 'typescript' } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  return JSON.stringify(nb, null, 1) + '\n';
}

/** A path as one shell word: quoted when it holds anything but [A-Za-z0-9_./@%+=:,-]. */
export function shellQuote(p: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}

/**
 * What init changes, recorded so that a failure part-way undoes it: files get
 * their old content back (or are removed), links and folders it made are
 * removed. Every user file init reads is read and checked before the first
 * write, so a bad one stops init with nothing changed.
 */
class Changes {
  private readonly undo: (() => void)[] = [];

  /** Make `dir` and its missing parents, remembering the ones made. */
  folder(dir: string): void {
    const missing: string[] = [];
    for (let d = path.resolve(dir); !fs.existsSync(d); d = path.dirname(d)) missing.unshift(d);
    makeFolder(dir);
    for (const d of missing) this.undo.push(() => fs.rmdirSync(d));
  }

  file(f: PlannedFile): void {
    if (plannedFileCurrent(f)) return;
    this.folder(path.dirname(f.path));
    const old = fs.existsSync(f.path) ? fs.readFileSync(f.path) : undefined;
    writePlannedFiles([f]);
    this.undo.push(() => (old === undefined ? fs.unlinkSync(f.path) : fs.writeFileSync(f.path, old)));
  }

  link(target: string, link: string): void {
    let old: string | undefined;
    try {
      old = fs.readlinkSync(link);
    } catch {
      old = undefined;
    }
    if (old === target) return;
    this.folder(path.dirname(link));
    try {
      if (old !== undefined) fs.unlinkSync(link);
      fs.symlinkSync(target, link, 'dir');
    } catch (e) {
      throw new OutputError('link the toolkit as', link, e);
    }
    this.undo.push(() => {
      fs.unlinkSync(link);
      if (old !== undefined) fs.symlinkSync(old, link, 'dir');
    });
  }

  rollback(): void {
    for (const u of this.undo.reverse()) {
      try {
        u();
      } catch {
        /* best effort: the error that caused the rollback is what gets reported */
      }
    }
  }
}

/** An existing path that is not a folder, or a link that is not ours, stops init before it changes anything. */
function checkFolder(dir: string): void {
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(dir);
  } catch (e) {
    // ENOTDIR: a parent is a file, named by the loop below.
    if (!['ENOENT', 'ENOTDIR'].includes((e as NodeJS.ErrnoException).code as string)) throw new InputError(`cannot use this folder: ${explainFsError(e)}`, { source: dir });
  }
  if (st && !st.isDirectory()) throw new InputError('exists and is not a folder: give a folder (new or existing) for the project', { source: dir });
  // The nearest existing ancestor must be a folder too (init /some/file/sub).
  for (let d = path.dirname(dir); !st; d = path.dirname(d)) {
    if (fs.existsSync(d)) {
      if (!fs.statSync(d).isDirectory()) throw new InputError(`cannot make a folder here: ${d} is not a folder`, { source: dir });
      break;
    }
    if (path.dirname(d) === d) break;
  }
}

/** `node_modules/NAME` in the project may be a link (made by init: replaced) or absent; anything else is the user's. */
function checkLinkSlot(link: string): 'link' | 'absent' | 'other' {
  try {
    const st = fs.lstatSync(link);
    if (st.isSymbolicLink()) return 'link';
    return 'other';
  } catch {
    return 'absent';
  }
}

/**
 * danfojs in the project: `node_modules/danfojs` (a link to the toolkit's
 * copy unless the project has its own) and `node_modules/@types/danfojs`,
 * a declaration-only package pointing at danfojs's declarations. danfojs
 * declares its types only through package "exports", which tslab's module
 * resolution (Node10) does not read: with the declaration package,
 * `import { DataFrame } from 'danfojs'` has types, and the types of danfojs
 * values are nameable from the project (`danfojs/dist/...`), so tslab can
 * declare a top-level `const g = df.groupby(...)` (before: TS2742).
 */
export function danfojsFiles(project: string): { link?: { target: string; path: string }; files: PlannedFile[] } {
  const own = path.join(project, 'node_modules', 'danfojs');
  // danfojs exports no './package.json': find its folder from the entry point.
  let toolkitCopy = require.resolve('danfojs', { paths: [repoRoot()] });
  while (path.basename(toolkitCopy) !== 'danfojs' && path.dirname(toolkitCopy) !== toolkitCopy) toolkitCopy = path.dirname(toolkitCopy);
  const slot = checkLinkSlot(own);
  const link = slot === 'other' || fs.realpathSync(toolkitCopy) === path.resolve(own) ? undefined : { target: fs.realpathSync(toolkitCopy), path: own };
  const typesDir = path.join(project, 'node_modules', '@types', 'danfojs');
  return {
    ...(link ? { link } : {}),
    files: [
      { path: path.join(typesDir, 'package.json'), content: JSON.stringify({ name: '@types/danfojs', version: '0.0.0-schedlab', description: "danfojs's own declarations, for module resolutions that do not read package exports (written by schedlab init)", types: 'index.d.ts' }, null, 1) + '\n' },
      { path: path.join(typesDir, 'index.d.ts'), content: "// Written by schedlab init: danfojs's own declarations (danfojs declares them only through package exports).\nexport * from 'danfojs/dist/danfojs-browser/src/index';\n" },
    ],
  };
}

export interface InitResult {
  kernel: string;
  displayName: string;
  kernelFile: string;
  link: string;
  /** True when schedlab is npm-installed in the project (its own copy), false when linked to an installation. */
  installed: boolean;
  notebook?: string;
}

/**
 * Set up DIR, all or nothing: every path and user file is checked first, and
 * a failure while writing undoes what was written. Re-running is harmless.
 * Returns what was done, for the caller to print.
 */
export function initProject(dir: string, options: { force?: boolean } = {}): InitResult {
  const abs = path.resolve(dir);
  const root = repoRoot();
  if (!fs.existsSync(path.join(root, 'dist', 'index.d.ts'))) {
    throw new InputError(`the toolkit is not compiled (no dist/index.d.ts): run npm run build there first`, { source: root });
  }
  // 1. Check: nothing is written before every check has passed.
  checkFolder(abs);
  const link = path.join(abs, 'node_modules', 'schedlab');
  const installed = path.resolve(root) === link || fs.existsSync(link) && fs.realpathSync(link) === fs.realpathSync(root);
  if (!installed && checkLinkSlot(link) === 'other') {
    throw new InputError('exists and is not a link to a schedlab installation: remove it or choose another folder', { source: link });
  }
  const nbFile = path.join(abs, STARTER);
  if (fs.existsSync(nbFile) && !fs.statSync(nbFile).isFile()) throw new InputError('exists and is not a file', { source: nbFile });
  const kernel = kernelNameFor(abs);
  const displayName = kernelDisplayName(abs);
  const kernelFiles = kernelSpecFiles(kernel, displayName, { repair: `Install schedlab into the project (npm install <schedlab tarball>) and run: npx schedlab init ${shellQuote(abs)}` });
  const extensionFiles = notebookExtensionFiles(); // reads and checks the user's nbconfig/notebook.json
  const danfojs = danfojsFiles(abs);
  const writeStarter = options.force || !fs.existsSync(nbFile);

  // 2. Write, undoing everything on a failure.
  const changes = new Changes();
  try {
    changes.folder(abs);
    if (!installed) changes.link(root, link);
    if (danfojs.link) changes.link(danfojs.link.target, danfojs.link.path);
    for (const f of [...danfojs.files, ...kernelFiles, ...extensionFiles]) changes.file(f);
    if (writeStarter) changes.file({ path: nbFile, content: starterNotebook(kernel, displayName) });
  } catch (e) {
    changes.rollback();
    throw e;
  }
  return { kernel, displayName, kernelFile: kernelFiles[kernelFiles.length - 1].path, link, installed, ...(writeStarter ? { notebook: nbFile } : {}) };
}

/** The command that opens the project: quoted for the shell, with --allow-root when run as root. */
export function openCommand(dir: string, uid = process.getuid?.() ?? -1): string {
  return `cd ${shellQuote(path.resolve(dir))} && jupyter-notebook${uid === 0 ? ' --allow-root' : ''}`;
}

export async function initMain(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(INIT_USAGE + '\n');
    return 0;
  }
  const dirs = argv.filter((a) => !a.startsWith('--'));
  const unknown = argv.filter((a) => a.startsWith('--') && a !== '--force');
  if (unknown.length) throw new UsageError(`schedlab init: unknown option ${unknown[0]}\n${INIT_USAGE}`, { source: 'schedlab init', field: unknown[0] });
  if (dirs.length !== 1) throw new UsageError(`schedlab init: give exactly one folder\n${INIT_USAGE}`, { source: 'schedlab init', field: 'DIR' });
  let r: InitResult;
  try {
    r = initProject(dirs[0], { force: argv.includes('--force') });
  } catch (e) {
    // Bad input or an unwritable place: one line naming the file, and nothing changed.
    if (!(e instanceof InputError) && !(e instanceof OutputError)) throw e;
    process.stderr.write(`schedlab init: ${e.message}\n`);
    return e instanceof InputError ? 2 : 1;
  }
  process.stdout.write(
    `toolkit ${r.installed ? 'installed' : 'linked'}: ${r.link}\nkernel registered: ${r.kernel} "${r.displayName}" (${r.kernelFile})\n` +
      (r.notebook ? `starter notebook: ${r.notebook}\n` : '') +
      `next: ${openCommand(dirs[0])}\n`,
  );
  return 0;
}
