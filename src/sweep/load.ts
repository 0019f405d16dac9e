/**
 * Loading a sweep definition from a file: a JSON file with the `SweepSpec`
 * fields, or a JS/TS module exporting a sweep (`file.js#exportName`).
 */
import * as fs from 'fs';
import * as path from 'path';
import { defineSweep, SweepDefinition, SweepSpec } from './grid';
import { ensureTsNode } from './cellmodule';
import { InputError } from '../util/errors';

/**
 * Offset of the first JSON syntax error in `text` (undefined when it parses).
 * Node 20's JSON.parse does not always say where it failed ("Unexpected
 * token ']'"), so a small recursive-descent scan finds the place.
 */
export function jsonErrorOffset(text: string): number | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const str = () => {
    i++; // opening quote
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail();
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) fail();
      }
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const num = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail();
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        str();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else fail();
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else fail();
      }
    } else if (c === '"') str();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else num();
  };
  try {
    value();
    ws();
    return i < text.length ? i : undefined;
  } catch (at) {
    return typeof at === 'number' ? Math.min(at, text.length) : undefined;
  }
}

/** 1-based line of character `offset` in `text`. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function isDefinition(v: any): v is SweepDefinition {
  return v && typeof v === 'object' && typeof v.fingerprint === 'string' && Array.isArray(v.grids);
}

function isSpec(v: any): v is SweepSpec {
  return v && typeof v === 'object' && typeof v.name === 'string' && v.cell && v.grid;
}

/**
 * Read a sweep from `file.json`, or from a module: `file.js#name` picks an
 * export; without `#name` the export `sweep`, then `default`, then the only
 * exported sweep. Relative cell modules in a JSON file are looked up next to
 * the file first.
 */
export function loadSweepFile(spec: string): SweepDefinition {
  const hash = spec.lastIndexOf('#');
  const file = path.resolve(hash > 0 ? spec.slice(0, hash) : spec);
  const exportName = hash > 0 ? spec.slice(hash + 1) : null;
  if (!fs.existsSync(file)) throw new InputError(`sweep definition not found: ${file}`, { source: file });
  if (!fs.statSync(file).isFile()) throw new InputError(`sweep definition ${file} is not a regular file`, { source: file });
  const baseDir = path.dirname(file);
  if (file.endsWith('.json')) {
    let obj: unknown;
    const text = fs.readFileSync(file, 'utf8');
    try {
      obj = JSON.parse(text);
    } catch (e) {
      const msg = (e as Error).message.replace(/\s+/g, ' ').slice(0, 200);
      const at = jsonErrorOffset(text);
      const line = at !== undefined ? lineOf(text, at) : undefined;
      throw new InputError(`${file}${line !== undefined ? `:${line}` : ''}: not valid JSON (${msg})`, { source: file, ...(line !== undefined ? { line } : {}) });
    }
    try {
      return defineSweep(obj as SweepSpec, { baseDir });
    } catch (e) {
      const err = e as InputError;
      throw new InputError(`${file}: ${err.message}`, { source: file, ...(err.field !== undefined ? { field: err.field } : {}) });
    }
  }
  if (file.endsWith('.ts')) ensureTsNode();
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const mod = require(file);
  let value: unknown;
  if (exportName) {
    if (!(exportName in mod)) throw new InputError(`${file} has no export ${JSON.stringify(exportName)}`, { source: file, field: exportName });
    value = mod[exportName];
  } else if (isDefinition(mod.sweep) || isSpec(mod.sweep)) value = mod.sweep;
  else if (isDefinition(mod.default) || isSpec(mod.default)) value = mod.default;
  else {
    const found = Object.keys(mod).filter((k) => isDefinition(mod[k]) || isSpec(mod[k]));
    if (found.length !== 1) {
      throw new InputError(
        found.length === 0
          ? `${file} exports no sweep (export one made with defineSweep, named "sweep")`
          : `${file} exports several sweeps (${found.join(', ')}); pick one with ${spec}#<name>`,
        { source: file },
      );
    }
    value = mod[found[0]];
  }
  if (isDefinition(value)) return value;
  if (isSpec(value)) return defineSweep(value, { baseDir });
  throw new InputError(`${spec} is not a sweep definition`, { source: file });
}
