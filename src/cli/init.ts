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
import { installNotebookExtension, kernelNameFor, registerKernel } from '../analysis/jupyter';
import { repoRoot } from '../util/repo';
import { makeFolder, UsageError } from '../util/errors';

export const INIT_USAGE = `usage: schedlab init DIR [--force]
  Makes DIR a schedlab notebook project: links the toolkit into DIR/node_modules,
  registers a tslab kernel for DIR (in JUPYTER_DATA_DIR, default ~/.local/share/jupyter),
  installs the live-chart notebook extension and writes DIR/schedlab-start.ipynb.
  --force   overwrite DIR/schedlab-start.ipynb
  Then: cd DIR && jupyter-notebook   (or execute: jupyter-nbconvert --to notebook --execute schedlab-start.ipynb)`;

export const STARTER = 'schedlab-start.ipynb';

const STARTER_CELLS: [kind: 'markdown' | 'code', source: string][] = [
  ['markdown', '# schedlab starter\n\nEASY backfilling on a small synthetic workload (Lublin–Feitelson 2003 model).'],
  [
    'code',
    `import { generateLublin, simulateBatch, summarizeRun, lineChart, show, exportFigure, figuresDir } from 'schedlab';

const MACHINE = 128;
const jobs = generateLublin({ jobs: 500, seed: 1, machineSize: MACHINE });
const easy = simulateBatch(jobs, { machineSize: MACHINE, policy: 'easy' });
const summary = summarizeRun(easy, { machineSize: MACHINE });
console.log(\`\${summary.jobs} jobs, mean wait \${summary.meanWait.toFixed(0)} s, utilization \${(100 * summary.utilization).toFixed(1)}%\`);`,
  ],
  [
    'code',
    `// Wait time of each job in submission order.
const fig = lineChart({ data: easy.map((j, i) => ({ job: i + 1, wait: j.wait / 3600 })), x: 'job', y: 'wait', markers: false,
  title: 'EASY: wait per job', xLabel: 'job (submission order)', yLabel: 'wait (h)' });
await show(fig);
const written = await exportFigure(fig, \`\${figuresDir('schedlab-start')}/fig01-easy-wait\`);
console.log(written.map((f) => f.slice(process.cwd().length + 1)).join('\\n'));`,
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

/** Set up DIR; returns what was written, for the caller to print. */
export function initProject(dir: string, options: { force?: boolean } = {}): { kernel: string; kernelFile: string; link: string; notebook?: string } {
  const abs = path.resolve(dir);
  makeFolder(path.join(abs, 'node_modules'));
  const link = path.join(abs, 'node_modules', 'schedlab');
  const root = repoRoot();
  if (!fs.existsSync(path.join(root, 'dist', 'index.d.ts'))) {
    throw new Error(`the toolkit at ${root} is not compiled (no dist/index.d.ts): run npm run build there first`);
  }
  let current: string | undefined;
  try {
    current = fs.readlinkSync(link);
  } catch {
    current = undefined;
  }
  if (current !== root) {
    if (fs.existsSync(link) && current === undefined) throw new Error(`${link} exists and is not a link: remove it or choose another folder`);
    if (current !== undefined) fs.unlinkSync(link);
    fs.symlinkSync(root, link, 'dir');
  }
  const kernel = kernelNameFor(abs);
  const displayName = `TypeScript (schedlab: ${path.basename(abs)})`;
  const kernelFile = registerKernel(kernel, displayName);
  installNotebookExtension();
  const nbFile = path.join(abs, STARTER);
  let notebook: string | undefined;
  if (options.force || !fs.existsSync(nbFile)) {
    fs.writeFileSync(nbFile, starterNotebook(kernel, displayName));
    notebook = nbFile;
  }
  return { kernel, kernelFile, link, notebook };
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
  const r = initProject(dirs[0], { force: argv.includes('--force') });
  process.stdout.write(
    `toolkit linked: ${r.link}\nkernel registered: ${r.kernel} (${r.kernelFile})\n` +
      (r.notebook ? `starter notebook: ${r.notebook}\n` : '') +
      `next: cd ${path.resolve(dirs[0])} && jupyter-notebook\n`,
  );
  return 0;
}
