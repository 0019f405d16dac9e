/**
 * Experiment grids: a typed, plain-data description of a sweep
 * (parameters × algorithms × replications) and its expansion into cells.
 *
 * Every cell has a stable key (canonical JSON of its parameters, keys sorted)
 * and a seed derived from that key, so a cell gives the same result whoever
 * runs it, wherever, in any order, on any shard.
 */
import { createHash } from 'crypto';
import { hashString } from '../util/random';
import { InputError } from '../util/errors';

/** A JSON value (what cells receive as parameters and may return). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Parameters of one cell: grid values, fixed values and `replication`. */
export type CellParams = Record<string, Json>;

/** A cartesian grid: each dimension lists its values. */
export type Grid = Record<string, readonly Json[]>;

/**
 * Where the cell function lives. Workers load it by path, so it must be a
 * module file: compiled JS (e.g. `dist/schedulers/dfrs/experiment.js`) or a
 * `.ts` file (loaded through ts-node, meant for tests).
 */
export interface CellRef {
  /**
   * Module path. Absolute, or relative: looked up in the definition's
   * `baseDir` (the JSON file's folder, or the working directory), then in the
   * schedlab package root, then as a package specifier (`schedlab/dist/...`).
   */
  module: string;
  /** Exported function name (default `runCell`). */
  export?: string;
}

/** A cell function: a plain params object and a seed in, a plain record out. */
export type CellFunction = (params: CellParams, seed: number) => unknown | Promise<unknown>;

/** What a researcher writes (in code or in a JSON file). */
export interface SweepSpec {
  /** Name of the experiment (goes into every record). */
  name: string;
  /** Bump when the cell code changes meaning; results of different versions never mix. */
  version?: string | number;
  /** Free text, not part of the identity of the sweep. */
  description?: string;
  cell: CellRef;
  /** One cartesian grid, or a list of grids whose cells are united (duplicates dropped). */
  grid: Grid | readonly Grid[];
  /** Independent replications of every grid point (default 1); cells get `replication` 0..n-1. */
  replications?: number;
  /** Parameters shared by all cells. */
  fixed?: Record<string, Json>;
}

/** A validated sweep, ready to expand and run. */
export interface SweepDefinition {
  readonly name: string;
  readonly version: string | null;
  readonly description?: string;
  readonly cell: Required<CellRef>;
  readonly grids: readonly Grid[];
  readonly replications: number;
  readonly fixed: Record<string, Json>;
  /** Folder against which a relative `cell.module` is resolved first. */
  readonly baseDir: string;
  /**
   * Identity of the sweep: hash of name, version, grids, fixed values,
   * replications and cell export name. Results carry it; runs, resumes and
   * merges refuse to mix different fingerprints. (The module path is left out
   * on purpose: it differs between a laptop and a cluster.)
   */
  readonly fingerprint: string;
}

/** One simulation to run. */
export interface Cell {
  /** Position in the sweep's enumeration order. */
  readonly index: number;
  /** Canonical JSON of `params`. */
  readonly key: string;
  readonly params: CellParams;
  /** `hashString(key)`: a 32-bit seed that depends only on the parameters. */
  readonly seed: number;
}

/** Parameter name added by `replications`. */
export const REPLICATION = 'replication';

/**
 * JSON with object keys sorted at every level: the same value always gives the
 * same text. Rejects what JSON cannot carry faithfully (undefined, functions,
 * NaN, ±Infinity), naming the offending path.
 */
export function canonicalJson(value: unknown, path = '$'): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new InputError(`${path}: ${value} cannot be stored as JSON`, { source: path.split(/[.[]/)[0], field: path });
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return '[' + value.map((v, i) => canonicalJson(v, `${path}[${i}]`)).join(',') + ']';
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
      return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalJson(obj[k], `${path}.${k}`)).join(',') + '}';
    }
    default:
      throw new InputError(`${path}: a ${typeof value} cannot be stored as JSON`, { source: path.split(/[.[]/)[0], field: path });
  }
}

/** Stable key of a cell: canonical JSON of its parameters. */
export function cellKey(params: CellParams): string {
  return canonicalJson(params, 'params');
}

/** Seed of a cell: a hash of its key (independent of order, machine, shard). */
export function cellSeed(key: string): number {
  return hashString(key);
}

/** A bad sweep definition: the message names the field (`"grid.x"`); `field` carries it too. */
function fail(name: string, msg: string, field?: string): never {
  const guessed = field ?? /^"([^"]+)"/.exec(msg)?.[1] ?? /^(\S+?): /.exec(msg)?.[1];
  throw new InputError(`sweep ${JSON.stringify(name)}: ${msg}`, { source: `sweep ${JSON.stringify(name)}`, ...(guessed ? { field: guessed } : {}) });
}

/**
 * Validate a sweep description. `baseDir` is where a relative `cell.module`
 * is looked up first (defaults to the working directory).
 *
 * ```ts
 * const sweep = defineSweep({
 *   name: 'dfrs-stretch',
 *   cell: { module: 'dist/schedulers/dfrs/experiment.js', export: 'runCell' },
 *   grid: { load: [0.1, 0.5, 0.9], algorithm: ['FCFS', 'EASY'] },
 *   replications: 10,
 * });
 * ```
 */
export function defineSweep(spec: SweepSpec, options: { baseDir?: string } = {}): SweepDefinition {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) throw new InputError('sweep definition must be an object', { source: 'sweep definition' });
  const name = spec.name;
  if (typeof name !== 'string' || name.trim() === '') throw new InputError('sweep definition: "name" must be a non-empty string', { source: 'sweep definition', field: 'name' });
  if (spec.version !== undefined && typeof spec.version !== 'string' && typeof spec.version !== 'number') {
    fail(name, '"version" must be a string or a number');
  }
  const cell = spec.cell;
  if (!cell || typeof cell !== 'object' || typeof cell.module !== 'string' || cell.module === '') fail(name, '"cell.module" must be a module path');
  if (cell.export !== undefined && (typeof cell.export !== 'string' || cell.export === '')) {
    fail(name, '"cell.export" must be a non-empty string');
  }
  const replications = spec.replications ?? 1;
  if (!Number.isInteger(replications) || replications < 1) fail(name, `"replications" must be an integer ≥ 1, got ${replications}`);
  const fixed = spec.fixed ?? {};
  if (fixed === null || typeof fixed !== 'object' || Array.isArray(fixed)) fail(name, '"fixed" must be an object');
  if (REPLICATION in fixed) fail(name, `"fixed.${REPLICATION}" is reserved (use "replications")`);
  const grids = (Array.isArray(spec.grid) ? spec.grid : [spec.grid]) as Grid[];
  if (grids.length === 0) fail(name, '"grid" is an empty list');
  grids.forEach((grid, g) => {
    const where = grids.length > 1 ? `grid[${g}]` : 'grid';
    if (grid === null || typeof grid !== 'object' || Array.isArray(grid)) fail(name, `"${where}" must be an object of value lists`);
    for (const [dim, values] of Object.entries(grid)) {
      if (!Array.isArray(values) || values.length === 0) fail(name, `"${where}.${dim}" must be a non-empty array`);
      if (dim === REPLICATION) fail(name, `"${where}.${REPLICATION}" is reserved (use "replications")`);
      if (dim in fixed) fail(name, `"${dim}" is both in "${where}" and in "fixed"`);
      try {
        canonicalJson(values, `${where}.${dim}`);
      } catch (e) {
        fail(name, (e as Error).message);
      }
    }
  });
  try {
    canonicalJson(fixed, 'fixed');
  } catch (e) {
    fail(name, (e as Error).message);
  }
  const version = spec.version === undefined ? null : String(spec.version);
  const exportName = cell.export ?? 'runCell';
  const fingerprint = createHash('sha256')
    .update(canonicalJson({ name, version, export: exportName, grids, fixed, replications }))
    .digest('hex')
    .slice(0, 16);
  return {
    name,
    version,
    ...(spec.description !== undefined ? { description: spec.description } : {}),
    cell: { module: cell.module, export: exportName },
    grids,
    replications,
    fixed,
    baseDir: options.baseDir ?? process.cwd(),
    fingerprint,
  };
}

/**
 * All cells of a sweep in enumeration order: replication outermost (so a
 * partial run already covers every grid point), then the grid dimensions in
 * the order written, the last varying fastest.
 */
export function sweepCells(sweep: SweepDefinition): Cell[] {
  const cells: Cell[] = [];
  const seen = new Set<string>();
  forEachGridPoint(sweep, (r, grid, dims, idx) => {
    const params: CellParams = { ...sweep.fixed };
    dims.forEach((d, i) => (params[d] = grid[d][idx[i]] as Json));
    params[REPLICATION] = r;
    const key = cellKey(params);
    if (!seen.has(key)) {
      seen.add(key);
      cells.push({ index: cells.length, key, params, seed: cellSeed(key) });
    }
  });
  return cells;
}

/** Visit every grid point of every replication in enumeration order (see `sweepCells`), duplicates included. */
function forEachGridPoint(sweep: SweepDefinition, visit: (replication: number, grid: Grid, dims: string[], idx: number[]) => void): void {
  for (let r = 0; r < sweep.replications; r++) {
    for (const grid of sweep.grids) {
      const dims = Object.keys(grid);
      const idx = dims.map(() => 0);
      for (;;) {
        visit(r, grid, dims, idx);
        let i = dims.length - 1;
        while (i >= 0 && ++idx[i] >= grid[dims[i]].length) idx[i--] = 0;
        if (i < 0) break;
      }
    }
  }
}

/** Keys of the last few sweeps asked for, by fingerprint and dimension order (together they decide the keys and their order). */
const cellKeysMemo = new Map<string, readonly string[]>();

/**
 * The keys of `sweepCells(sweep)`, same text, same order, without building
 * the cells: each parameter's `"name":value` text is made once per grid and
 * a key is those texts joined in sorted name order, not a canonical JSON of
 * each cell's parameters (checking that a record is a cell of the sweep needs
 * only this). Memoized: the array is shared, do not change it.
 */
export function sweepCellKeys(sweep: SweepDefinition): readonly string[] {
  const memo = `${sweep.fingerprint}\0${JSON.stringify(sweep.grids.map((g) => Object.keys(g)))}`;
  const known = cellKeysMemo.get(memo);
  if (known) return known;
  const keys: string[] = [];
  const seen = new Set<string>();
  const member = (name: string, value: Json | undefined) => (value === undefined ? '' : JSON.stringify(name) + ':' + canonicalJson(value, `params.${name}`));
  const plans = new Map<Grid, (string | number)[]>();
  const texts = new Map<Grid, string[][]>();
  forEachGridPoint(sweep, (r, grid, dims, idx) => {
    // Per grid: the sorted parameter names, each a fixed text or the position of its dimension (-1: the replication).
    let plan = plans.get(grid);
    if (!plan) {
      const names = [...new Set([...Object.keys(sweep.fixed), ...dims, REPLICATION])].sort();
      plan = names.map((n) => (n === REPLICATION ? -1 : dims.includes(n) ? dims.indexOf(n) : member(n, sweep.fixed[n])));
      texts.set(grid, dims.map((d) => grid[d].map((v) => member(d, v as Json))));
      plans.set(grid, plan);
    }
    const dimTexts = texts.get(grid) as string[][];
    // canonicalJson's output: names sorted, undefined values left out.
    const parts: string[] = [];
    for (const p of plan) {
      const text = typeof p === 'string' ? p : p < 0 ? `"${REPLICATION}":${r}` : dimTexts[p][idx[p]];
      if (text !== '') parts.push(text);
    }
    const key = '{' + parts.join(',') + '}';
    if (!seen.has(key)) {
      seen.add(key);
      keys.push(key);
    }
  });
  if (cellKeysMemo.size >= 8) cellKeysMemo.delete(cellKeysMemo.keys().next().value as string);
  cellKeysMemo.set(memo, keys);
  return keys;
}

/** One slice of a sweep for one machine: `index` in 0..count-1. */
export interface Shard {
  index: number;
  count: number;
}

/** Parse `"i/n"` (0-based, as Slurm array task ids are). */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new InputError(`shard must look like "i/n" (e.g. "0/4"), got ${JSON.stringify(text)}`, { source: 'shard', field: 'shard' });
  return checkShard({ index: Number(m[1]), count: Number(m[2]) });
}

/** Check a shard `{ index, count }` (0 <= index < count); returns it, or an InputError. */
export function checkShard(shard: Shard): Shard {
  const { index, count } = shard;
  if (!Number.isInteger(count) || count < 1) throw new InputError(`shard count must be an integer ≥ 1, got ${count}`, { source: 'shard', field: 'shard' });
  if (!Number.isInteger(index) || index < 0 || index >= count) {
    throw new InputError(`shard index must be an integer in 0..${count - 1}, got ${index}`, { source: 'shard', field: 'shard' });
  }
  return shard;
}

/** A shard as the CLI writes it: `i/n`, 1-based. */
export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/**
 * The deterministic slice of `cells` that shard `index` of `count` runs.
 * Cells are dealt round-robin in key order, so the split depends only on the
 * set of cells (not on the order dimensions were written) and every shard gets
 * a balanced mix of parameter values. Returned in enumeration order.
 */
/** A cell filter: parameter name → the values kept (a cell is kept when it matches every name). */
export type CellFilter = Record<string, readonly Json[]>;

/**
 * The cells whose parameters match `where` (values compared as canonical JSON,
 * so 0.5 and "0.5" differ). An unknown parameter name, or a filter that keeps
 * no cell, is an InputError naming it: a typo never runs an empty sweep.
 */
export function filterCells(cells: readonly Cell[], where: CellFilter): Cell[] {
  const names = Object.keys(where);
  if (names.length === 0) return cells.slice();
  const known = new Set(cells.flatMap((c) => Object.keys(c.params)));
  for (const n of names) {
    if (!known.has(n)) throw new InputError(`where: unknown parameter "${n}" (the sweep's parameters: ${[...known].sort().join(', ')})`, { source: 'where', field: n });
  }
  const wanted = names.map((n) => new Set(where[n].map((v) => JSON.stringify(v))));
  const kept = cells.filter((c) => names.every((n, i) => wanted[i].has(JSON.stringify(c.params[n] ?? null))));
  if (kept.length === 0) {
    throw new InputError(`where: no cell has ${names.map((n) => `${n} in [${where[n].map((v) => JSON.stringify(v)).join(', ')}]`).join(' and ')}`, { source: 'where' });
  }
  return kept;
}

/**
 * Parse `name=v1,v2` (the CLI's --where): each value is read as JSON when it
 * parses (numbers, null, true), otherwise kept as a string.
 */
export function parseWhere(specs: readonly string[]): CellFilter {
  const where: Record<string, Json[]> = {};
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    if (eq <= 0) throw new InputError(`--where must look like name=value[,value...], got ${JSON.stringify(spec)}`, { source: '--where' });
    const name = spec.slice(0, eq).trim();
    const values = spec
      .slice(eq + 1)
      .split(',')
      .map((v): Json => {
        try {
          return JSON.parse(v) as Json;
        } catch {
          return v;
        }
      });
    (where[name] ??= []).push(...values);
  }
  return where;
}

/** The cells of a grid that belong to one shard (every n-th cell, stable across runs). */
export function shardCells(cells: readonly Cell[], shard: Shard): Cell[] {
  checkShard(shard);
  if (shard.count === 1) return cells.slice();
  const sorted = cells.slice().sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const mine = new Set<string>();
  sorted.forEach((c, i) => {
    if (i % shard.count === shard.index) mine.add(c.key);
  });
  return cells.filter((c) => mine.has(c.key));
}
