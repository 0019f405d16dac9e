/**
 * Tests that run the compiled toolkit (dist/) as a user would check first that
 * it was compiled from the src/ under test: otherwise they would silently test
 * old code. scripts/setup.sh (run by `npm test`) compiles incrementally and
 * records in dist/.tsbuildinfo the SHA-256 of every source file it compiled.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');
export const DIST = path.join(ROOT, 'dist');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** Throw an Error naming the first src/ file that dist/ was not compiled from (or a missing build). */
export function assertDistFresh(): void {
  const rebuild = 'run `bash scripts/setup.sh` (it compiles src/ to dist/)';
  const info = path.join(DIST, '.tsbuildinfo');
  if (!fs.existsSync(info)) throw new Error(`dist/ is not built (no ${info}): ${rebuild}`);
  const build = JSON.parse(fs.readFileSync(info, 'utf8')) as { fileNames?: string[]; fileInfos?: (string | { version: string })[] };
  const compiled = new Map<string, string>();
  (build.fileNames ?? []).forEach((name, i) => {
    const v = build.fileInfos?.[i];
    if (v !== undefined) compiled.set(path.resolve(DIST, name), typeof v === 'string' ? v : v.version);
  });
  for (const file of sourceFiles(path.join(ROOT, 'src'))) {
    const want = compiled.get(file);
    const rel = path.relative(ROOT, file);
    if (want === undefined) throw new Error(`dist/ is stale: ${rel} is not in the last build: ${rebuild}`);
    if (createHash('sha256').update(fs.readFileSync(file, 'utf8')).digest('hex') !== want) {
      throw new Error(`dist/ is stale: ${rel} changed since the last build: ${rebuild}`);
    }
  }
}
