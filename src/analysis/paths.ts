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

/**
 * The one rule for the file name (without extension) of a figure or table a
 * notebook writes. A name or title that starts with a paper's figure or table
 * number keeps it, two digits wide: `fig03-…` is the paper's Figure 3 (also
 * for a table of that figure's data), `table02-…` its Table 2, a panel letter
 * kept (`fig06a-…`). Anything else is `extra-<slug>`: never a number that
 * could be read as the paper's.
 *
 * @example
 * outputStem('figure3a-underutilization'); // 'fig03a-underutilization'
 * outputStem('mcb-small-minyield', 'Fig. 2: minimum yield vs slack'); // 'fig02-mcb-small-minyield'
 * outputStem('Table 2', undefined); // 'table02'
 * outputStem('load-curve'); // 'extra-load-curve'
 */
export function outputStem(name: string, title?: string): string {
  // Slugs are lower-case words joined by '-' ("Section 6.2 CDF" -> "section-6-2-cdf").
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (!slug) throw new Error(`output name "${name}" has no letters or digits for a file slug`);
  const numbered = /^(fig|figs|figure|figures|tab|table|tables)-?(\d+)([a-z]?)(?:-(.*))?$/.exec(slug);
  const stem = (kind: string, n: string, panel: string, rest: string) =>
    `${kind.startsWith('fig') ? 'fig' : 'table'}${n.padStart(2, '0')}${panel}${rest ? `-${rest}` : ''}`;
  if (numbered) return stem(numbered[1], numbered[2], numbered[3], numbered[4] ?? '');
  const titled = /^\s*(fig(?:ure)?s?|tab(?:le)?s?)\.?\s*(\d+)([a-z]?)\b/i.exec(String(title ?? '').replace(/<[^>]*>/g, ''));
  if (titled) return stem(titled[1].toLowerCase(), titled[2], titled[3].toLowerCase(), slug);
  return `extra-${slug}`;
}
