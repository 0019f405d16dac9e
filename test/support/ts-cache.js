// Transpile-only loading of .ts files with an on-disk cache, for the mocha
// process and the worker threads and child processes the tests start. Under ts-node every new worker
// loaded TypeScript (about 0.6 s CPU) and transpiled the toolkit again (about
// 1 s); with this cache a worker reads JavaScript transpiled once and loads
// TypeScript only for a file it has not seen. Same interface as ts-node's
// `register(options)` (the `project` and `compilerOptions` options), so the
// toolkit's workers take it by path (SCHEDLAB_TS_REGISTER, see
// src/util/modules.ts: tsNodePath). Type-checking is done once by tsc in the
// suite, as under ts-node's transpile-only mode.
//
// An entry's name is the hash of the source text, its path, the TypeScript
// version, the tsconfig.json text and the options: an edited file is a new
// entry, never stale JavaScript.
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const TYPESCRIPT = require.resolve('typescript', { paths: [ROOT] });
const TS_VERSION = JSON.parse(fs.readFileSync(path.join(path.dirname(TYPESCRIPT), '..', 'package.json'), 'utf8')).version;
const CACHE = process.env.SCHEDLAB_TS_CACHE || path.join(os.tmpdir(), `schedlab-ts-cache-${process.getuid ? process.getuid() : 'user'}`);

function readText(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The compiler options (loads TypeScript: only on a cache miss). */
function compilerOptions(ts, options) {
  let base = {};
  if (options.project) {
    const { config, error } = ts.readConfigFile(options.project, ts.sys.readFile);
    if (error) throw new Error(`cannot read ${options.project}: ${ts.flattenDiagnosticMessageText(error.messageText, '\n')}`);
    base = ts.convertCompilerOptionsFromJson(config.compilerOptions || {}, path.dirname(options.project)).options;
  }
  const extra = ts.convertCompilerOptionsFromJson(options.compilerOptions || {}, ROOT).options;
  // Stack traces point into the .ts source (as under ts-node): an inline map, applied by Node.
  return { ...base, ...extra, sourceMap: false, inlineSourceMap: true, inlineSources: false, declaration: false, declarationMap: false, noEmit: false };
}

let registered = false;

/** Make `require` load .ts files (transpile only, cached). A no-op where .ts files already load (ts-node). */
function register(options = {}) {
  if (registered || require.extensions['.ts']) return;
  registered = true;
  const salt = JSON.stringify([TS_VERSION, options, options.project ? readText(options.project) : null]);
  let transpile = null;
  require.extensions['.ts'] = function (module, filename) {
    const source = fs.readFileSync(filename, 'utf8');
    const entry = path.join(CACHE, crypto.createHash('sha256').update(salt).update('\0').update(filename).update('\0').update(source).digest('hex') + '.js');
    let js = readText(entry);
    if (js === null) {
      if (!transpile) {
        const ts = require(TYPESCRIPT);
        const opts = compilerOptions(ts, options);
        transpile = (text, file) => ts.transpileModule(text, { compilerOptions: opts, fileName: file }).outputText;
      }
      js = transpile(source, filename);
      // Write then rename: another worker may read the entry at the same time.
      // An unwritable cache only costs the next worker a transpilation.
      const tmp = `${entry}.${process.pid}.${require('worker_threads').threadId}.tmp`;
      try {
        fs.mkdirSync(CACHE, { recursive: true });
        fs.writeFileSync(tmp, js);
        fs.renameSync(tmp, entry);
      } catch {
        try {
          fs.rmSync(tmp, { force: true });
        } catch {
          /* nothing was written */
        }
      }
    }
    module._compile(js, filename);
  };
  process.setSourceMapsEnabled(true);
}

module.exports = { register };
