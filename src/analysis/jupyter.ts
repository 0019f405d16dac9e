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
import { makeFolder } from '../util/errors';
import { hashString } from '../util/random';
import { plotlyBundlePath } from './render';
import { PLOTLY_MIME } from './show';

export const NBEXTENSION = 'schedlab-plotly';

export function jupyterDataDir(): string {
  return process.env.JUPYTER_DATA_DIR ?? path.join(os.homedir(), '.local', 'share', 'jupyter');
}

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

function writeIfChanged(file: string, content: string | Buffer): void {
  if (fs.existsSync(file) && fs.readFileSync(file).equals(Buffer.isBuffer(content) ? content : Buffer.from(content))) return;
  fs.writeFileSync(file, content);
}

/**
 * Install and enable the `schedlab-plotly` extension for the classic notebook.
 * Idempotent. Returns the extension folder.
 */
export function installNotebookExtension(dataDir = jupyterDataDir(), configDir = jupyterConfigDir()): string {
  const dir = path.join(dataDir, 'nbextensions', NBEXTENSION);
  makeFolder(dir);
  writeIfChanged(path.join(dir, 'main.js'), MAIN_JS);
  const bundle = plotlyBundlePath();
  const target = path.join(dir, 'plotly.js');
  const stale = !fs.existsSync(target) || fs.statSync(target).size !== fs.statSync(bundle).size || fs.statSync(target).mtimeMs < fs.statSync(bundle).mtimeMs;
  if (stale) fs.copyFileSync(bundle, target);

  const nbconfig = path.join(configDir, 'nbconfig');
  makeFolder(nbconfig);
  const file = path.join(nbconfig, 'notebook.json');
  const config = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  const load = (config.load_extensions ?? {}) as Record<string, boolean>;
  if (load[`${NBEXTENSION}/main`] !== true) {
    config.load_extensions = { ...load, [`${NBEXTENSION}/main`]: true };
    fs.writeFileSync(file, JSON.stringify(config, null, 2) + '\n');
  }
  return dir;
}

/** A kernel name unique to a folder: `schedlab-<folder name>-<hash of its path>`. */
export function kernelNameFor(folder: string): string {
  const abs = path.resolve(folder);
  const slug = path.basename(abs).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 24) || 'project';
  return `schedlab-${slug}-${(hashString(abs) >>> 0).toString(16).padStart(8, '0').slice(0, 8)}`;
}

/** The tslab command of this installation (its own node_modules). */
export function tslabCommand(): string[] {
  const pkg = require.resolve('tslab/package.json');
  return [process.execPath, path.join(path.dirname(pkg), 'bin', 'tslab')];
}

/**
 * Register a tslab kernel spec `name` running this installation's tslab.
 * Idempotent. Returns the kernel.json path.
 */
export function registerKernel(name: string, displayName: string, dataDir = jupyterDataDir()): string {
  const dir = path.join(dataDir, 'kernels', name);
  makeFolder(dir);
  const spec = { argv: [...tslabCommand(), 'kernel', '--config-path', '{connection_file}'], display_name: displayName, language: 'typescript' };
  const file = path.join(dir, 'kernel.json');
  writeIfChanged(file, JSON.stringify(spec, null, 1) + '\n');
  return file;
}
