/**
 * Plain records to danfojs DataFrames. danfojs declares its types only through
 * package "exports", which classic module resolution (and so tslab) cannot
 * follow; importing the declaration file by path keeps full typing while the
 * runtime `require` goes through the package entry point.
 */
import type { DataFrame } from 'danfojs/dist/danfojs-browser/src/index';

export type { DataFrame };

/** One record of a table or DataFrame: column name to value. */
export type Row = Record<string, unknown>;

let danfo: typeof import('danfojs/dist/danfojs-browser/src/index') | undefined;

/** The danfojs module, loaded on first use (it pulls in TensorFlow.js, which is slow to load). */
export function danfojs(): typeof import('danfojs/dist/danfojs-browser/src/index') {
  if (!danfo) {
    // tfjs prints a banner about tfjs-node on load; it is noise here.
    const log = console.log;
    console.log = (...args: unknown[]) => {
      if (!String(args[0] ?? '').includes('tfjs-node')) log(...args);
    };
    try {
      // eslint-disable-next-line @typescript-eslint/no-var-requires
      danfo = require('danfojs');
    } finally {
      console.log = log;
    }
  }
  return danfo as typeof import('danfojs/dist/danfojs-browser/src/index');
}

/**
 * Build a DataFrame from an array of plain records (all records should share keys).
 *
 * @example
 * const df = toFrame([{ policy: 'easy', wait: 120 }, { policy: 'fcfs', wait: 300 }]);
 * const byPolicy = df.groupby(['policy']).agg({ wait: 'mean' });
 * show(byPolicy);
 */
export function toFrame(records: readonly Row[]): DataFrame {
  if (!Array.isArray(records)) throw new TypeError('toFrame expects an array of records');
  if (records.length === 0) throw new RangeError('toFrame: no records (danfojs cannot build an empty frame without columns)');
  return new (danfojs().DataFrame)(records as Row[]);
}

/** A DataFrame back to plain records. */
export function fromFrame(frame: DataFrame): Row[] {
  return danfojs().toJSON(frame, { format: 'column' }) as Row[];
}
