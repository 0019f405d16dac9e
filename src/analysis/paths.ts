/**
 * Where a notebook's outputs go: `out/<notebook>/`, with `tables/` and
 * `figures/` inside, next to the notebook (its kernel's working directory).
 * The repository's own notebooks (in notebooks/) write to the repository's
 * out/ folder instead, where the run scripts and tests look.
 */
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from '../util/repo';
import { makeFolder } from '../util/errors';

function ensureDir(dir: string): string {
  makeFolder(dir); // an OutputError naming the folder if it cannot be made
  return dir;
}

function checkName(notebook: string): void {
  if (!/^[A-Za-z0-9._-]+$/.test(notebook)) {
    throw new Error(`notebook name must be a plain file name such as "01-dfrs-vs-batch", got "${notebook}"`);
  }
}

/** The folder holding every notebook's out/ folders: SCHEDLAB_OUT, else see above. */
export function outBase(cwd = process.cwd()): string {
  if (process.env.SCHEDLAB_OUT) return path.resolve(process.env.SCHEDLAB_OUT);
  const repoNotebooks = path.join(repoRoot(), 'notebooks');
  const inRepoNotebooks = path.resolve(cwd) === repoNotebooks || path.resolve(cwd) === repoRoot();
  return inRepoNotebooks ? path.join(repoRoot(), 'out') : path.join(path.resolve(cwd), 'out');
}

/** `<out base>/<notebook>/` (created). Override the base folder with SCHEDLAB_OUT. */
export function outDir(notebook: string): string {
  checkName(notebook);
  return ensureDir(path.join(outBase(), notebook));
}

/** `out/<notebook>/tables/` (created). */
export function tablesDir(notebook: string): string {
  return ensureDir(path.join(outDir(notebook), 'tables'));
}

/** `out/<notebook>/figures/` (created). */
export function figuresDir(notebook: string): string {
  return ensureDir(path.join(outDir(notebook), 'figures'));
}

/** The experiment scale chosen by SCHEDLAB_SCALE: 'quick' (default) or 'paper'. */
export function scale(): 'quick' | 'paper' {
  const s = process.env.SCHEDLAB_SCALE ?? 'quick';
  if (s !== 'quick' && s !== 'paper') throw new Error(`SCHEDLAB_SCALE must be "quick" or "paper", got "${s}"`);
  return s;
}
