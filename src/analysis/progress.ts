/**
 * Progress of a plain loop in a notebook cell, drawn by the sweep engine's
 * reporters (src/sweep/progress.ts): one in-place bar in a tslab notebook,
 * a line every 15 s elsewhere.
 */
import { lineReporter, tslabReporter, type SweepProgress } from '../sweep/progress';

/** A progress line for a plain loop: `step()` per step, `end()` at the end. */
export interface LoopProgress {
  /** One more item done. */
  step(): void;
  /** The loop is over (draws the final state). */
  end(): void;
}

/** A progress line for a loop of `total` steps named `name` (a live bar in a notebook, occasional lines elsewhere). */
export function loopProgress(name: string, total: number): LoopProgress {
  const reporter = tslabReporter() ?? lineReporter();
  const started = Date.now();
  let done = 0;
  const state = (finished: boolean): SweepProgress => {
    const elapsedMs = Date.now() - started;
    const rate = done > 0 && elapsedMs > 0 ? (1000 * done) / elapsedMs : 0;
    return {
      sweep: name, total, skipped: 0, done, ok: done, failed: 0, running: finished ? 0 : 1, remaining: total - done,
      elapsedMs, rate, etaMs: rate > 0 ? (1000 * (total - done)) / rate : null, finished, interrupted: false,
    };
  };
  return {
    step() {
      done++;
      reporter.update(state(false));
    },
    end() {
      reporter.end(state(true));
    },
  };
}
