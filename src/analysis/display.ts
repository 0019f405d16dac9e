/**
 * Rich output in notebooks. Under the tslab kernel a MIME bundle is sent as one
 * `display_data` message, so a viewer picks the richest type it can show (an
 * interactive chart in Jupyter, the embedded PNG elsewhere). Outside a
 * notebook the text/plain part is printed, with the reason rich output was not
 * possible.
 */
import * as path from 'path';

/** Notebook output by MIME type (`text/html`, `image/png` as base64, `text/plain`, …), as `display` sends it. */
export type MimeBundle = Record<string, unknown>;

interface TslabJupyter {
  lastWriteDisplayData: ((data: unknown, update: boolean) => void) | null;
}

const JUPYTER_MODULE = `${path.sep}tslab${path.sep}dist${path.sep}jupyter.js`;

/**
 * The running kernel's tslab module. The kernel may be a tslab other than the
 * one next to this file (a kernel registered from another clone, or a user's
 * own installation), so this looks through every tslab already loaded in the
 * process rather than requiring its own copy, whose state the kernel never set.
 */
function tslabJupyter(): TslabJupyter | undefined {
  for (const [file, mod] of Object.entries(require.cache)) {
    if (!file.endsWith(JUPYTER_MODULE) || !mod) continue;
    const j = mod.exports as TslabJupyter;
    if (typeof j.lastWriteDisplayData === 'function') return j;
  }
  return undefined;
}

/** Why rich output is unavailable here, or undefined when it is available. */
export function displayUnavailableReason(): string | undefined {
  if (tslabJupyter()) return undefined;
  const loaded = Object.keys(require.cache).filter((f) => f.endsWith(JUPYTER_MODULE));
  if (loaded.length === 0) return 'not running inside a tslab notebook kernel';
  return `a tslab kernel module is loaded (${loaded.join(', ')}) but has not started a Jupyter session`;
}

/** True when running inside a tslab notebook kernel. */
export function inNotebook(): boolean {
  return tslabJupyter() !== undefined;
}

/** Display a MIME bundle (e.g. {'text/html': ..., 'image/png': base64, 'text/plain': ...}). */
export function display(bundle: MimeBundle, metadata: Record<string, unknown> = {}): void {
  const j = tslabJupyter();
  if (j && j.lastWriteDisplayData) {
    j.lastWriteDisplayData({ data: bundle, metadata, transient: {} }, false);
    return;
  }
  const text = bundle['text/plain'];
  if (typeof text === 'string') console.log(text);
}

/**
 * Display markdown as a cell's output (a sentence rendered from results, so it
 * changes with them). Outside a notebook the markdown is printed as it is.
 */
export function showMarkdown(markdown: string): void {
  display({ 'text/markdown': markdown, 'text/plain': markdown });
}
