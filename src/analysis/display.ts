/**
 * Rich output in notebooks. Under the tslab kernel a MIME bundle is sent as one
 * `display_data` message, so a viewer picks the richest type it can show (an
 * interactive chart in Jupyter, the embedded PNG elsewhere). Outside a
 * notebook the text/plain part is printed.
 */

export type MimeBundle = Record<string, string>;

interface TslabJupyter {
  lastWriteDisplayData: ((data: unknown, update: boolean) => void) | null;
}

function tslabJupyter(): TslabJupyter | undefined {
  try {
    // The kernel and this module resolve the same file, so they share its state.
    // eslint-disable-next-line @typescript-eslint/no-var-requires
    const j = require('tslab/dist/jupyter') as TslabJupyter;
    return j.lastWriteDisplayData ? j : undefined;
  } catch {
    return undefined;
  }
}

/** True when running inside a tslab notebook kernel. */
export function inNotebook(): boolean {
  return tslabJupyter() !== undefined;
}

/** Display a MIME bundle (e.g. {'text/html': ..., 'image/png': base64, 'text/plain': ...}). */
export function display(bundle: MimeBundle): void {
  const j = tslabJupyter();
  if (j && j.lastWriteDisplayData) {
    j.lastWriteDisplayData({ data: bundle, metadata: {}, transient: {} }, false);
    return;
  }
  const text = bundle['text/plain'];
  if (text !== undefined) console.log(text);
}
