/**
 * The local Jupyter pieces a schedlab notebook needs, written as plain files
 * (no `jupyter` command, so they work for any Jupyter installation):
 *
 * - the `schedlab-plotly` classic-notebook extension: it renders plotly's MIME
 *   type from the installed plotly.js-dist bundle, served by Jupyter itself (no
 *   CDN, nothing inlined in notebooks). It is registered as a *safe* output
 *   type, so charts are live in untrusted notebooks (every notebook executed by
 *   nbconvert is untrusted);
 * - a tslab kernel spec with a distinct name per project or clone, so a
 *   notebook never silently runs on another checkout's tslab.
 *
 * Locations follow Jupyter's own variables: JUPYTER_DATA_DIR (default
 * ~/.local/share/jupyter) and JUPYTER_CONFIG_DIR (default ~/.jupyter).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { explainFsError, InputError, writeFileSafely } from '../util/errors';
import { repoRoot } from '../util/repo';
import { hashString } from '../util/random';
import { plotlyBundlePath } from './render';
import { PLOTLY_MIME } from './show';

/** Name of the classic-notebook extension that draws plotly charts without trust (`schedlab-plotly`). */
export const NBEXTENSION = 'schedlab-plotly';

/** Jupyter's data folder (kernels, nbextensions): JUPYTER_DATA_DIR, else ~/.local/share/jupyter. */
export function jupyterDataDir(): string {
  return process.env.JUPYTER_DATA_DIR ?? path.join(os.homedir(), '.local', 'share', 'jupyter');
}

/** Jupyter's configuration folder: JUPYTER_CONFIG_DIR, else ~/.jupyter. */
export function jupyterConfigDir(): string {
  return process.env.JUPYTER_CONFIG_DIR ?? path.join(os.homedir(), '.jupyter');
}

/**
 * The extension's entry point (an AMD module loaded by the classic notebook).
 * Outputs already drawn before it loaded (the notebook renders while
 * extensions load) are re-rendered once the MIME type is registered.
 */
const MAIN_JS = `// Renders ${PLOTLY_MIME} outputs with the local plotly bundle (written by schedlab).
define(['base/js/namespace', 'notebook/js/outputarea', 'require'], function (Jupyter, outputarea, requirejs) {
  var MIME = ${JSON.stringify(PLOTLY_MIME)};
  // Charts are drawn when they come near the screen, so a notebook with many charts opens as fast as one with few.
  var pending = typeof IntersectionObserver === 'function' ? new IntersectionObserver(function (entries) {
    entries.forEach(function (e) {
      if (!e.isIntersecting) return;
      pending.unobserve(e.target);
      e.target.schedlabDraw();
    });
  }, { rootMargin: '800px 0px' }) : null;
  function append(json, md, element) {
    // A chart never sits in a scroll box: the notebook folds an output taller
    // than 100 lines into one, and a chart below its fold stays blank until
    // the reader scrolls inside it. (A cell's saved "scrolled" metadata, read
    // after its outputs, still wins.)
    this.scroll_state = false;
    if (this.scrolled) this.unscroll_area();
    var sub = this.create_output_subarea(md, 'output_schedlab_plotly', MIME);
    var div = document.createElement('div');
    var layout = json.layout || {};
    if (layout.width) div.style.width = layout.width + 'px';
    if (layout.height) div.style.height = layout.height + 'px';
    div.schedlabDraw = function () {
      requirejs(['./plotly'], function (Plotly) {
        // plotly.js-dist is not an AMD module: it defines window.Plotly.
        Plotly = Plotly || window.Plotly;
        Plotly.newPlot(div, json.data, layout, json.config || { displaylogo: false });
      });
    };
    sub.append(div);
    element.append(sub);
    // Start loading plotly with the first chart output, while the rest of the notebook renders.
    requirejs(['./plotly'], function () {});
    if (pending) pending.observe(div);
    else div.schedlabDraw();
    return sub;
  }
  function load_ipython_extension() {
    var OutputArea = outputarea.OutputArea;
    if (OutputArea.append_map[MIME]) return;
    OutputArea.prototype.register_mime_type(MIME, append, { safe: true, index: 0 });
    var nb = Jupyter.notebook;
    if (!nb || !nb.get_cells) return;
    nb.get_cells().forEach(function (cell) {
      var area = cell.output_area;
      if (!area || !area.outputs) return;
      var has = area.outputs.some(function (o) { return o.data && o.data[MIME]; });
      if (!has) return;
      var outputs = area.toJSON();
      area.clear_output(false, true);
      area.fromJSON(outputs, area.trusted);
    });
  }
  return { load_ipython_extension: load_ipython_extension };
});
`;

/**
 * A file a Jupyter set-up step writes: `content`, or a copy of `copyFrom`.
 * Steps are computed first and written after, so that `schedlab init` can
 * check every file it reads before it writes anything (and undo what it wrote).
 */
export interface PlannedFile {
  path: string;
  content?: string;
  copyFrom?: string;
}

/** True when `f` already holds what the plan would write. */
export function plannedFileCurrent(f: PlannedFile): boolean {
  if (!fs.existsSync(f.path)) return false;
  if (f.content !== undefined) return fs.readFileSync(f.path).equals(Buffer.from(f.content));
  const target = fs.statSync(f.path);
  const source = fs.statSync(f.copyFrom as string);
  return target.size === source.size && target.mtimeMs >= source.mtimeMs;
}

/** Write the planned files that differ from what is there (each one whole or not at all). */
export function writePlannedFiles(files: readonly PlannedFile[]): void {
  for (const f of files) {
    if (plannedFileCurrent(f)) continue;
    writeFileSafely(f.path, f.content ?? fs.readFileSync(f.copyFrom as string));
  }
}

/**
 * The classic notebook's `nbconfig/notebook.json`, read as a user file: an
 * empty file is an empty configuration; anything that is not a JSON object is
 * an InputError naming the file (nothing is written over it).
 */
export function readNotebookConfig(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new InputError(`cannot read the Jupyter configuration: ${explainFsError(e)}`, { source: file });
  }
  if (text.trim() === '') return {};
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (e) {
    throw new InputError(`not valid JSON (${(e as Error).message}); fix or remove this Jupyter configuration file`, { source: file });
  }
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw new InputError('a Jupyter configuration file must hold a JSON object; fix or remove it', { source: file });
  }
  const load = (config as Record<string, unknown>).load_extensions;
  if (load !== undefined && (load === null || typeof load !== 'object' || Array.isArray(load))) {
    throw new InputError('"load_extensions" must be a JSON object; fix or remove it', { source: file, field: 'load_extensions' });
  }
  return config as Record<string, unknown>;
}

/** The files that install and enable the `schedlab-plotly` extension (reads and checks notebook.json). */
export function notebookExtensionFiles(dataDir = jupyterDataDir(), configDir = jupyterConfigDir()): PlannedFile[] {
  const dir = path.join(dataDir, 'nbextensions', NBEXTENSION);
  const files: PlannedFile[] = [
    { path: path.join(dir, 'main.js'), content: MAIN_JS },
    { path: path.join(dir, 'plotly.js'), copyFrom: plotlyBundlePath() },
  ];
  const file = path.join(configDir, 'nbconfig', 'notebook.json');
  const config = readNotebookConfig(file);
  const load = (config.load_extensions ?? {}) as Record<string, unknown>;
  if (load[`${NBEXTENSION}/main`] !== true) {
    files.push({ path: file, content: JSON.stringify({ ...config, load_extensions: { ...load, [`${NBEXTENSION}/main`]: true } }, null, 2) + '\n' });
  }
  return files;
}

/**
 * Install and enable the `schedlab-plotly` extension for the classic notebook.
 * Idempotent. Returns the extension folder.
 */
export function installNotebookExtension(dataDir = jupyterDataDir(), configDir = jupyterConfigDir()): string {
  writePlannedFiles(notebookExtensionFiles(dataDir, configDir));
  return path.join(dataDir, 'nbextensions', NBEXTENSION);
}

function folderHash(folder: string): string {
  return (hashString(path.resolve(folder)) >>> 0).toString(16).padStart(8, '0').slice(0, 8);
}

/** A kernel name unique to a folder: `schedlab-<folder name>-<hash of its path>`. */
export function kernelNameFor(folder: string): string {
  const abs = path.resolve(folder);
  const slug = path.basename(abs).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 24) || 'project';
  return `schedlab-${slug}-${folderHash(abs)}`;
}

/**
 * The name Jupyter's kernel menu shows for a folder's kernel:
 * `TypeScript (schedlab: <folder name>, <hash of its path>)`, so two clones
 * or projects with the same folder name are told apart.
 */
export function kernelDisplayName(folder: string): string {
  return `TypeScript (schedlab: ${path.basename(path.resolve(folder))}, ${folderHash(folder)})`;
}

/** The tslab command of this installation (its own node_modules). */
export function tslabCommand(): string[] {
  const pkg = require.resolve('tslab/package.json');
  return [process.execPath, path.join(path.dirname(pkg), 'bin', 'tslab')];
}

/** The installation whose kernel entry point a kernel spec runs (the one this file belongs to). */
function kernelEntry(): string {
  return path.join(repoRoot(), 'dist', 'bin', 'kernel.js');
}

/**
 * The launcher kept in the kernel's folder: it runs this installation's
 * kernel (tslab with readable errors, bin/kernel.ts), and when that
 * installation is gone it says so and how to repair the project instead of
 * failing with a module-not-found trace.
 */
function kernelLauncher(name: string, repair: string): string {
  const entry = kernelEntry();
  return `// Jupyter kernel "${name}", written by schedlab: runs the schedlab installation at ${path.dirname(path.dirname(path.dirname(entry)))}.
const entry = ${JSON.stringify(entry)};
if (!require('fs').existsSync(entry)) {
  process.stderr.write(${JSON.stringify(`schedlab kernel ${name}: the schedlab installation it runs is gone (${entry} not found). ${repair}\n`)});
  process.exit(1);
}
require(entry).startKernel(process.argv[2]);
`;
}

/** The kernel spec files of `name`: kernel.json and its launcher. */
export function kernelSpecFiles(name: string, displayName: string, options: { dataDir?: string; repair?: string } = {}): PlannedFile[] {
  const dir = path.join(options.dataDir ?? jupyterDataDir(), 'kernels', name);
  const launcher = path.join(dir, 'launch.js');
  const spec = { argv: [process.execPath, launcher, '{connection_file}'], display_name: displayName, language: 'typescript' };
  const repair = options.repair ?? 'Run the schedlab set-up again from an installation that exists.';
  return [
    { path: launcher, content: kernelLauncher(name, repair) },
    { path: path.join(dir, 'kernel.json'), content: JSON.stringify(spec, null, 1) + '\n' },
  ];
}

/**
 * Register a tslab kernel spec `name` running this installation's tslab.
 * Idempotent. Returns the kernel.json path.
 */
export function registerKernel(name: string, displayName: string, dataDir = jupyterDataDir()): string {
  const files = kernelSpecFiles(name, displayName, { dataDir });
  writePlannedFiles(files);
  return files[files.length - 1].path;
}

/**
 * Register this installation's kernel under `folder`'s name (kernelNameFor)
 * and the `schedlab-plotly` extension; returns the kernel's name. What
 * scripts that execute notebooks do once before running them (scripts/kernel.sh).
 */
export function registerFolderKernel(folder: string): string {
  const name = kernelNameFor(folder);
  registerKernel(name, kernelDisplayName(folder));
  installNotebookExtension();
  return name;
}
