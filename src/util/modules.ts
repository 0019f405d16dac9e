/**
 * Loading user code by name: a module path (compiled JS, or .ts through
 * ts-node) and an export, as sweep cells and policies name it in JSON, or a
 * policy carried as source text (`portable`). Lives in util/ so that the
 * scheduler families can load user policies without importing the sweep.
 */
import * as fs from 'fs';
import * as path from 'path';
import { InputError } from './errors';
import { fromPortable, isPortableRef, PortableRef } from './portable';
import { notePolicyOrigin } from './policy-guard';

/** The schedlab package root (works from src/ under ts-node and from dist/). */
export const TOOLKIT_ROOT = path.resolve(__dirname, '..', '..');

function existingFile(p: string): string | null {
  for (const candidate of [p, p + '.js', p + '.ts']) {
    try {
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      /* try next */
    }
  }
  return null;
}

/**
 * Absolute path of a cell module. Relative paths are looked up in `baseDir`,
 * then (unless they start with ./ or ../) in the working directory and the
 * schedlab package root, then resolved as a package specifier.
 */
export function resolveModulePath(modulePath: string, baseDir: string): string {
  if (path.isAbsolute(modulePath)) {
    const found = existingFile(modulePath);
    if (found) return found;
    throw new InputError(`cell module not found: ${modulePath}`, { source: modulePath, field: 'cell.module' });
  }
  const explicit = modulePath.startsWith('./') || modulePath.startsWith('../');
  const dirs = explicit ? [baseDir] : [baseDir, process.cwd(), TOOLKIT_ROOT];
  for (const dir of dirs) {
    const found = existingFile(path.resolve(dir, modulePath));
    if (found) return found;
  }
  try {
    return require.resolve(modulePath, { paths: [baseDir, process.cwd()] });
  } catch {
    /* fall through */
  }
  const hint = modulePath.startsWith('dist/') ? ' (run `npm run build` to build dist/)' : '';
  throw new InputError(`cell module ${JSON.stringify(modulePath)} not found in ${[...new Set(dirs)].join(', ')}${hint}`, { source: modulePath, field: 'cell.module' });
}

/**
 * Path of the module whose `register(options)` makes worker threads load .ts
 * files: ts-node's package, or null when it is not installed. The tests name
 * a cached transpiler with the same interface in SCHEDLAB_TS_REGISTER
 * (test/support/ts-cache.js), so that each worker does not transpile the
 * toolkit again.
 */
export function tsNodePath(): string | null {
  if (process.env.SCHEDLAB_TS_REGISTER) return process.env.SCHEDLAB_TS_REGISTER;
  try {
    return require.resolve('ts-node', { paths: [TOOLKIT_ROOT, process.cwd()] });
  } catch {
    return null;
  }
}

/**
 * ts-node options for loading .ts cells: transpile only, CommonJS, whatever
 * the working directory (without a tsconfig.json ts-node would pick ESM
 * settings that cannot be `require`d).
 */
export function tsNodeOptions(): Record<string, unknown> {
  const project = path.join(TOOLKIT_ROOT, 'tsconfig.json');
  return {
    transpileOnly: true,
    ...(fs.existsSync(project) ? { project } : { skipProject: true }),
    compilerOptions: { module: 'commonjs', moduleResolution: 'node' },
  };
}

/** Make `require` understand .ts files (transpile only), once per thread. */
export function ensureTsNode(tsNode: string | null = tsNodePath()): void {
  if (require.extensions['.ts']) return; // ts-node (or the tests' transpiler) is registered
  if (!tsNode) throw new Error('loading a .ts cell module needs ts-node, which is not installed; build to dist/ and point at the .js file');
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  require(tsNode).register(tsNodeOptions());
}

/** `require` a module by absolute path (.ts through ts-node); `what` names it in errors ("cell", "policy"). */
export function requireModule(modulePath: string, what: string, field: string): any {
  if (modulePath.endsWith('.ts')) ensureTsNode();
  try {
    // eslint-disable-next-line @typescript-eslint/no-var-requires
    return require(modulePath);
  } catch (e) {
    throw new InputError(`cannot load ${what} module ${modulePath}: ${(e as Error).message}`, { source: modulePath, field: `${field}.module` });
  }
}

/** Load export `exportName` of `modulePath` (absolute), whatever its type; `what`/`field` name it in errors. */
export function loadModuleExport(modulePath: string, exportName: string, what: string, field: string): unknown {
  const mod = requireModule(modulePath, what, field);
  if (mod === null || mod === undefined || !(exportName in Object(mod))) {
    const names = mod && typeof mod === 'object' ? Object.keys(mod) : [];
    throw new InputError(`${what} module ${modulePath} has no export ${JSON.stringify(exportName)}` + (names.length ? ` (exports: ${names.join(', ')})` : ''), {
      source: modulePath,
      field: `${field}.export`,
    });
  }
  return mod[exportName];
}

/** A value exported by a module, named in JSON (sweep params must be JSON): `{ module, export }`. */
export interface ModuleExportRef {
  module: string;
  export: string;
}

/** True for `{ module: string, export: string }`. */
export function isModuleExportRef(x: unknown): x is ModuleExportRef {
  const o = x as Partial<ModuleExportRef> | null;
  return o !== null && typeof o === 'object' && typeof o.module === 'string' && typeof o.export === 'string';
}

/**
 * Load what a `{ module, export }` reference names; the module path is
 * resolved as a cell module's is (absolute, or relative to `baseDir`, the
 * working directory or the schedlab root). Each thread loads it once (require cache).
 */
export function loadModuleExportRef(ref: ModuleExportRef, what: string, baseDir = process.cwd()): unknown {
  return loadModuleExport(resolveModulePath(ref.module, baseDir), ref.export, what, what);
}

/** How a policy is named where only JSON goes (sweep parameters): a module export, or source text from `portable()`. */
export type PolicyRef = ModuleExportRef | PortableRef;

/** True for `{ module, export }` and for what `portable()` returns. */
export function isPolicyRef(x: unknown): x is PolicyRef {
  return isModuleExportRef(x) || isPortableRef(x);
}

/** The policy object a reference names, and how to name it in errors. */
export function loadPolicyRef(ref: PolicyRef, what = 'policy'): { value: unknown; where: string } {
  const loaded = isPortableRef(ref) ? { value: fromPortable(ref), where: `portable ${what}` } : { value: loadModuleExportRef(ref, what), where: `${ref.module}#${ref.export}` };
  // Errors raised while the policy runs name where it came from (util/policy-guard.ts).
  notePolicyOrigin(loaded.value, isPortableRef(ref) ? 'portable' : loaded.where);
  return loaded;
}

/**
 * The policy object a spec that is not a built-in name stands for (loaded if
 * it is a reference), checked to be an object with a non-empty `name`, the
 * `required` methods and, where present, the `optional` ones. Throws an
 * InputError naming the source and the field.
 */
export function eventPolicyObject<T>(spec: unknown, source: string, methods: { required: readonly string[]; optional?: readonly string[] }): T {
  const { value, where } = isPolicyRef(spec) ? loadPolicyRef(spec) : { value: spec, where: source };
  const p = value as Record<string, unknown> | null;
  if (p === null || typeof p !== 'object') throw new InputError(`${where}: a policy must be a built-in name or an object, got ${String(p)}`, { source: where, field: 'policy' });
  if (typeof p.name !== 'string' || p.name === '') throw new InputError(`${where}: a policy object needs a non-empty string 'name'`, { source: where, field: 'policy.name' });
  for (const m of methods.required) {
    if (typeof p[m] !== 'function') throw new InputError(`${where}: policy '${p.name}' needs a ${m}(ctx) method`, { source: where, field: `policy.${m}` });
  }
  for (const m of methods.optional ?? []) {
    if (p[m] !== undefined && typeof p[m] !== 'function') throw new InputError(`${where}: policy '${p.name}': ${m} must be a method`, { source: where, field: `policy.${m}` });
  }
  return p as T;
}
