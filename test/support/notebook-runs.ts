/**
 * Notebook executions shared by the suites that check them (test/notebooks/,
 * test/determinism/). Each execution is a child process (scripts/run-notebook.sh)
 * started at most once per test process and awaited by every test that needs it,
 * so the suites never execute a notebook twice for the same purpose.
 *
 * Up to SCHEDLAB_NOTEBOOK_JOBS executions (default: 2, capped at the cores) run at
 * once. When the whole suite runs (scripts/test.sh sets SCHEDLAB_PREFETCH_NOTEBOOKS=1),
 * every execution is queued when this module loads, longest first: the notebooks
 * then execute beside the unit tests instead of after them. A child writes to files,
 * not pipes, so a unit test that holds the event loop never stalls a notebook.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { registerFolderKernel } from '../../src/analysis/jupyter';
import { SharedBrowser, startSharedBrowser } from '../../src/analysis/render';
import { committedRoot, PAPER_EXPERIMENTS, paperResultsFile } from '../../src/sweep/papers';

export const root = path.resolve(__dirname, '../..');

export const notebooks: readonly string[] = fs
  .readdirSync(path.join(root, 'notebooks'))
  .filter((f) => f.endsWith('.ipynb'))
  .sort();

export interface Execution {
  file: string;
  /** SCHEDLAB_OUT of the run: the executed copy is `<outRoot>/<name>/<name>.ipynb`. */
  outRoot: string;
  status: number | null;
  /** What the run wrote on stderr (the last 64 KiB). */
  stderr: string;
  seconds: number;
  /** When the run started (ms since the epoch). */
  started: number;
  /** CPU seconds (user + system) of the run and everything it waited for, as scripts/run-notebook.sh reports them (null if it did not finish). */
  cpuSeconds: number | null;
}

/** The three kinds of execution the suites check. */
export type Purpose = 'quick' | 'default' | 'determinism';

const limit = Math.max(1, Math.min(Number(process.env.SCHEDLAB_NOTEBOOK_JOBS ?? 2) || 1, os.availableParallelism()));
let active = 0;
const queue: (() => void)[] = [];
const started = new Map<string, Promise<Execution>>();
const finished: (Execution & { purpose: Purpose })[] = [];

/** What each execution of this process took: printed when the process exits, and written as JSON to SCHEDLAB_TEST_TIMES's `.notebooks.json` sibling. */
process.on('exit', () => {
  if (finished.length === 0) return;
  const lines = finished.map((r) => `${r.seconds.toFixed(0).padStart(6)} ${String(r.cpuSeconds ?? '?').padStart(6)}  ${r.purpose} ${r.file}`);
  const cpu = finished.reduce((n, r) => n + (r.cpuSeconds ?? 0), 0);
  process.stderr.write(`\nnotebook executions (wall s, CPU s): ${finished.length}, ${cpu} s CPU\n${lines.join('\n')}\n`);
  const times = process.env.SCHEDLAB_TEST_TIMES;
  if (times) fs.writeFileSync(times.replace(/(\.json)?$/, '.notebooks.json'), JSON.stringify(finished.map(({ stderr, ...r }) => r), null, 1) + '\n');
});
let scratch: string | null = null;

/** A temporary folder for this process's runs other than the quick one (removed at exit). */
function scratchDir(): string {
  if (scratch === null) {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-notebook-runs-'));
    const dir = scratch;
    process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return scratch;
}

/** Where a purpose's run writes: the quick run into out/ (what `npm run notebooks` gives), the others into scratch folders. */
function outRootFor(purpose: Purpose): string {
  return purpose === 'quick' ? path.join(root, 'out') : path.join(scratchDir(), purpose);
}

/** The environment as the test process got it: tests that set variables for a moment must not leak into a notebook started meanwhile. */
const baseEnv: NodeJS.ProcessEnv = { ...process.env };

let kernel: string | undefined = baseEnv.SCHEDLAB_KERNEL;

let browser: Promise<SharedBrowser> | undefined;

/**
 * One Chromium for every execution's figures: each kernel draws in a context
 * of its own there instead of launching a browser (about 4 CPU s a kernel,
 * bench/results/shared-browser.json). Killed when the test process exits.
 */
function sharedBrowser(): Promise<SharedBrowser> {
  browser ??= startSharedBrowser().then((b) => {
    process.on('exit', b.kill);
    return b;
  });
  return browser;
}

async function envFor(purpose: Purpose, outRoot: string): Promise<NodeJS.ProcessEnv> {
  // This clone's kernel, registered once here rather than by each run (a node process apiece).
  kernel ??= registerFolderKernel(root);
  const env: NodeJS.ProcessEnv = { ...baseEnv, SCHEDLAB_OUT: outRoot, SCHEDLAB_KERNEL: kernel, SCHEDLAB_BROWSER: (await sharedBrowser()).endpoint };
  delete env.SCHEDLAB_PREFETCH_NOTEBOOKS;
  // The default run picks its own scale (paper when results are committed); the two quick runs are compared.
  if (purpose === 'default') delete env.SCHEDLAB_SCALE;
  else env.SCHEDLAB_SCALE = 'quick';
  // The determinism run compares tables and text, not images: no figure drawn, no Chromium. The others' images are checked.
  env.SCHEDLAB_IMAGES = purpose === 'determinism' ? 'off' : 'on';
  return env;
}

async function runNow(file: string, purpose: Purpose): Promise<Execution> {
  const outRoot = outRootFor(purpose);
  const env = await envFor(purpose, outRoot);
  const name = path.basename(file, '.ipynb');
  fs.mkdirSync(path.join(outRoot, name), { recursive: true });
  const log = path.join(scratchDir(), `${purpose}-${name}.stderr`);
  const fd = fs.openSync(log, 'w');
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn('bash', ['scripts/run-notebook.sh', `notebooks/${file}`], { cwd: root, env, stdio: ['ignore', fd, fd] });
    const done = (status: number | null) => {
      fs.closeSync(fd);
      const text = fs.readFileSync(log, 'utf8');
      const cpu = /\[notebook\] .*: ok in \d+ s \((\d+) s CPU\)/.exec(text);
      const run: Execution = { file, outRoot, status, stderr: text.slice(-65536), seconds: (Date.now() - t0) / 1000, started: t0, cpuSeconds: cpu ? Number(cpu[1]) : null };
      finished.push({ purpose, ...run });
      resolve(run);
    };
    child.on('error', (e) => {
      fs.appendFileSync(log, `could not start: ${e.message}\n`);
      done(null);
    });
    child.on('exit', (code) => done(code));
  });
}

/** The execution of `file` for `purpose`, started now or queued (once per process). */
export function execution(file: string, purpose: Purpose): Promise<Execution> {
  const id = `${purpose}:${file}`;
  let p = started.get(id);
  if (!p) {
    p = new Promise<void>((go) => {
      if (active < limit) {
        active++;
        go();
      } else queue.push(go);
    }).then(async () => {
      try {
        return await runNow(file, purpose);
      } finally {
        active--;
        const next = queue.shift();
        if (next) {
          active++;
          next();
        }
      }
    });
    started.set(id, p);
  }
  return p;
}

/**
 * The notebooks whose paper-scale results are committed for the current sweep
 * definition: they render those by default. Read from provenance.json, which
 * names the definition, instead of decoding every record.
 */
export function committedNotebooks(): string[] {
  return notebooks.filter((f) => {
    const name = path.basename(f, '.ipynb');
    const e = PAPER_EXPERIMENTS.find((x) => x.notebook === name);
    if (!e) return false;
    const sweep = e.sweep('paper');
    const gz = paperResultsFile(name, sweep, null, committedRoot()) + '.gz';
    const prov = path.join(path.dirname(gz), 'provenance.json');
    if (!fs.existsSync(gz) || !fs.existsSync(prov)) return false;
    try {
      return JSON.parse(fs.readFileSync(prov, 'utf8')).definition === sweep.fingerprint;
    } catch {
      return false;
    }
  });
}

/** Queue every execution the suites will ask for, in executionOrder. */
export function prefetch(defaultRuns: readonly string[]): void {
  for (const [f, p] of executionOrder(defaultRuns)) void execution(f, p);
}

/**
 * The order in which prefetch queues the executions, which is the order they
 * finish in, near enough: the long ones first, so that two runners stay busy
 * to the end. The runners take the notebooks a group at a time (as many
 * notebooks as runners) and the executions of a group in turns (first of
 * each, then second of each, ...): two executions of one notebook never start
 * together, so only a notebook's first execution evaluates its claims (its
 * default one, which reads the paper-scale records anyway) and the later ones
 * find them in the cache (src/util/cache.ts).
 */
export function executionOrder(defaultRuns: readonly string[]): [string, Purpose][] {
  // Heaviest first, by the CPU of their three executions in the last CI run (bench/results/suite.json).
  const heaviest = ['01', '05', '02', '04', '00-batch', '03', '06', '00-quick'];
  const weight = (f: string) => {
    const i = heaviest.findIndex((p) => f.startsWith(p));
    return i < 0 ? heaviest.length : i;
  };
  const byWeight = (a: string, b: string) => weight(a) - weight(b) || a.localeCompare(b);
  const runs = [...notebooks].sort(byWeight).map((f) => [...(defaultRuns.includes(f) ? ['default' as const] : []), 'quick' as const, 'determinism' as const].map((p): [string, Purpose] => [f, p]));
  const order: [string, Purpose][] = [];
  for (let g = 0; g < runs.length; g += limit) {
    const group = runs.slice(g, g + limit);
    for (let turn = 0; group.some((r) => turn < r.length); turn++) for (const r of group) if (turn < r.length) order.push(r[turn]);
  }
  return order;
}

export const prefetchRequested = process.env.SCHEDLAB_PREFETCH_NOTEBOOKS === '1';

/** Each runLast suite's rank: among the suites run last, lower ranks run first. */
const lastRank = new Map<Mocha.Suite, number>();

/**
 * Run `suite` after every other suite: its tests wait for notebook executions,
 * and mocha runs one test at a time, so waiting early would hold back the unit
 * tests that can run beside the notebooks. Among such suites, lower `rank`s
 * run first (equal ranks in the order the files load). (Called at a file's
 * top level: the hook is a root hook, run before any test.)
 */
export function runLast(suite: Mocha.Suite, rank = 0): void {
  // One root hook orders them all, once every file has registered its suites.
  if (lastRank.size === 0) {
    before(function () {
      const parent = suite.parent; // the root suite, as for every suite run last
      if (!parent) return;
      const last = parent.suites.filter((s) => lastRank.has(s)).sort((a, b) => lastRank.get(a)! - lastRank.get(b)!);
      parent.suites.splice(0, parent.suites.length, ...parent.suites.filter((s) => !lastRank.has(s)), ...last);
    });
  }
  lastRank.set(suite, rank);
}
