/**
 * Loading a sweep definition from a file: a JSON file with the `SweepSpec`
 * fields, or a JS/TS module exporting a sweep (`file.js#exportName`).
 */
import * as fs from 'fs';
import * as path from 'path';
import { defineSweep, SweepDefinition, SweepSpec } from './grid';
import { ensureTsNode } from './cellmodule';

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
  if (!fs.existsSync(file)) throw new Error(`sweep definition not found: ${file}`);
  const baseDir = path.dirname(file);
  if (file.endsWith('.json')) {
    let obj: unknown;
    try {
      obj = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (e) {
      throw new Error(`${file}: not valid JSON (${(e as Error).message})`);
    }
    try {
      return defineSweep(obj as SweepSpec, { baseDir });
    } catch (e) {
      throw new Error(`${file}: ${(e as Error).message}`);
    }
  }
  if (file.endsWith('.ts')) ensureTsNode();
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const mod = require(file);
  let value: unknown;
  if (exportName) {
    if (!(exportName in mod)) throw new Error(`${file} has no export ${JSON.stringify(exportName)}`);
    value = mod[exportName];
  } else if (isDefinition(mod.sweep) || isSpec(mod.sweep)) value = mod.sweep;
  else if (isDefinition(mod.default) || isSpec(mod.default)) value = mod.default;
  else {
    const found = Object.keys(mod).filter((k) => isDefinition(mod[k]) || isSpec(mod[k]));
    if (found.length !== 1) {
      throw new Error(
        found.length === 0
          ? `${file} exports no sweep (export one made with defineSweep, named "sweep")`
          : `${file} exports several sweeps (${found.join(', ')}); pick one with ${spec}#<name>`,
      );
    }
    value = mod[found[0]];
  }
  if (isDefinition(value)) return value;
  if (isSpec(value)) return defineSweep(value, { baseDir });
  throw new Error(`${spec} is not a sweep definition`);
}
