/**
 * Finding and loading the module that holds a sweep's cell function, in the
 * main thread or in a worker (compiled JS from dist/, or .ts via ts-node).
 * The general loading of user modules lives in util/modules.ts.
 */
import type { SweepDefinition } from './grid';
import { InputError } from '../util/errors';
import { requireModule, resolveModulePath } from '../util/modules';

export {
  TOOLKIT_ROOT, resolveModulePath, tsNodePath, tsNodeOptions, ensureTsNode, loadModuleExport,
  ModuleExportRef, isModuleExportRef, loadModuleExportRef,
} from '../util/modules';

/** Absolute path of the sweep's cell module. */
export function resolveCellModule(sweep: SweepDefinition): string {
  return resolveModulePath(sweep.cell.module, sweep.baseDir);
}

/** Load `exportName` from `modulePath` (absolute) and check it is a function. */
export function loadCellFunction(modulePath: string, exportName: string): (params: any, seed: number) => unknown {
  const mod = requireModule(modulePath, 'cell', 'cell');
  const fn = mod?.[exportName];
  if (typeof fn !== 'function') {
    const names = mod && typeof mod === 'object' ? Object.keys(mod).filter((k) => typeof mod[k] === 'function') : [];
    throw new InputError(
      `cell module ${modulePath} has no exported function ${JSON.stringify(exportName)}` +
        (names.length ? ` (exported functions: ${names.join(', ')})` : ''),
      { source: modulePath, field: 'cell.export' },
    );
  }
  return fn;
}

/**
 * A cell's return value as JSON text, the way it will be stored
 * (`undefined` becomes null; NaN and ±Infinity become null, as in JSON).
 */
export function toJsonResult(result: unknown): string {
  const text = JSON.stringify(result === undefined ? null : result);
  if (text === undefined) throw new TypeError(`cell returned a ${typeof result}, which cannot be stored as JSON`);
  return text;
}

