/**
 * Progress display for sweeps: a bar with rate and ETA on a terminal, plain
 * periodic lines in logs (Slurm, CI), and a single in-place display in tslab
 * notebooks.
 */

export interface SweepProgress {
  sweep: string;
  /** Cells in this run's scope (the whole sweep, or this shard). */
  total: number;
  /** Cells already in the results file when the run started. */
  skipped: number;
  /** Cells finished by this run (ok + failed). */
  done: number;
  ok: number;
  failed: number;
  running: number;
  /** total - skipped - done. */
  remaining: number;
  elapsedMs: number;
  /** Cells per second finished by this run (0 until the first one). */
  rate: number;
  /** Estimated time left, null until a rate is known. */
  etaMs: number | null;
  /** The run is over (finished or interrupted). */
  finished: boolean;
  interrupted: boolean;
}

/** Called with the sweep progress as cells finish. */
export type ProgressCallback = (p: SweepProgress) => void;

/** `1h02m`, `4m05s`, `12s`. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '--';
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${h}h${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m${String(sec).padStart(2, '0')}s`;
  return `${sec}s`;
}

function formatRate(rate: number): string {
  if (rate === 0) return '-- cells/s';
  return rate >= 1 ? `${rate.toFixed(1)} cells/s` : `${(60 * rate).toFixed(1)} cells/min`;
}

/** One-line text summary: `412/900 (46%) 3.2 cells/s ETA 2m31s failed 1`. */
export function progressText(p: SweepProgress): string {
  const finished = p.skipped + p.done;
  const pct = p.total === 0 ? 100 : (100 * finished) / p.total;
  let s = `${finished}/${p.total} (${pct.toFixed(0)}%) ${formatRate(p.rate)}`;
  s += p.finished ? ` in ${formatDuration(p.elapsedMs)}` : ` ETA ${formatDuration(p.etaMs)}`;
  if (p.failed) s += ` failed ${p.failed}`;
  if (p.skipped) s += ` (${p.skipped} from earlier runs)`;
  return s;
}

/** A text bar of `width` characters. */
export function progressBar(p: SweepProgress, width = 24): string {
  const frac = p.total === 0 ? 1 : (p.skipped + p.done) / p.total;
  const full = Math.round(frac * width);
  return '[' + '#'.repeat(full) + '.'.repeat(width - full) + ']';
}

/** Shows sweep progress: `update` as cells finish, `end` once. */
export interface Reporter {
  update(p: SweepProgress): void;
  /** Final state (also prints/updates one last time). */
  end(p: SweepProgress): void;
}

/** `fn`, called at most once every `everyMs` (first call allowed after `start`). */
function throttled<T>(fn: (arg: T) => void, everyMs: number, start = 0): (arg: T) => void {
  let last = start;
  return (arg) => {
    const now = Date.now();
    if (now - last < everyMs) return;
    last = now;
    fn(arg);
  };
}

/** A redrawn bar on a TTY (throttled), e.g. `[######..] 412/900 …`. */
export function ttyReporter(stream: NodeJS.WriteStream = process.stderr, everyMs = 200): Reporter {
  const draw = (p: SweepProgress) => {
    const cols = stream.columns || 100;
    const line = `${p.sweep} ${progressBar(p)} ${progressText(p)}`.slice(0, cols - 1);
    stream.write('\r' + line + '\x1b[K');
  };
  return {
    update: throttled(draw, everyMs),
    end(p) {
      draw(p);
      stream.write('\n');
    },
  };
}

/** A plain line every `everyMs` (for logs, where redrawing makes no sense). */
export function lineReporter(write: (line: string) => void = (l) => process.stderr.write(l + '\n'), everyMs = 15000): Reporter {
  return {
    update: throttled((p: SweepProgress) => write(`[${new Date().toISOString()}] ${p.sweep}: ${progressText(p)}`), everyMs, Date.now()),
    end(p) {
      write(`[${new Date().toISOString()}] ${p.sweep}: ${p.interrupted ? 'interrupted at ' : 'done '}${progressText(p)}`);
    },
  };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
}

/** The tslab kernel's display module, or null when not running inside tslab. */
function tslabModule(): { newDisplay(): { html(s: string): void } } | null {
  try {
    // The kernel and the toolkit share node_modules/tslab; `lastWriteDisplayData`
    // is set only once the kernel has started executing cells.
    // eslint-disable-next-line @typescript-eslint/no-var-requires
    const jupyter = require('tslab/dist/jupyter');
    if (!jupyter || jupyter.lastWriteDisplayData == null) return null;
    // eslint-disable-next-line @typescript-eslint/no-var-requires
    return require('tslab');
  } catch {
    return null;
  }
}

/** True when running inside a tslab (Jupyter) kernel. */
export function inTslab(): boolean {
  return tslabModule() !== null;
}

/**
 * HTML of a progress display (a <progress> bar and the summary text). The
 * final state leaves out rate, time and cells found from earlier runs: it is
 * what stays in a saved notebook, and must read the same on every run.
 */
export function progressHtml(p: SweepProgress): string {
  const finished = p.skipped + p.done;
  const text = p.finished
    ? `${finished}/${p.total} cells${p.failed ? ` failed ${p.failed}` : ''}${p.interrupted ? ' — interrupted' : ' — done'}`
    : progressText(p);
  return (
    `<div style="font-family:monospace">` +
    `<b>${escapeHtml(p.sweep)}</b> <progress value="${finished}" max="${Math.max(1, p.total)}" style="width:16em"></progress> ` +
    `${escapeHtml(text)}</div>`
  );
}

/**
 * A progress callback that redraws one display entry in place in a tslab
 * notebook (throttled to every `everyMs`). Returns null outside tslab, so:
 * `runSweep(sweep, { onProgress: tslabProgress() ?? undefined })`.
 * (`runSweep` already does this by default when it detects tslab.)
 */
export function tslabProgress(everyMs = 500): ProgressCallback | null {
  const reporter = tslabReporter(everyMs);
  if (!reporter) return null;
  return (p) => (p.finished ? reporter.end(p) : reporter.update(p));
}

/** A progress reporter that updates one notebook output in place, or null outside a tslab kernel. */
export function tslabReporter(everyMs = 500): Reporter | null {
  const tslab = tslabModule();
  if (!tslab) return null;
  let display: { html(s: string): void } | null = null;
  const draw = (p: SweepProgress) => {
    try {
      display ??= tslab.newDisplay();
      display.html(progressHtml(p));
    } catch {
      /* the kernel refused the display; progress is cosmetic */
    }
  };
  return {
    update: throttled(draw, everyMs),
    end: draw,
  };
}
