/** Locating the repository, for files that live beside the code (data/, out/). */
import * as fs from 'fs';
import * as path from 'path';

let cachedRoot: string | undefined;

/** The repository root: the nearest ancestor of this file holding schedlab's package.json. */
export function repoRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = __dirname;
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg)) {
      try {
        if (JSON.parse(fs.readFileSync(pkg, 'utf8')).name === 'schedlab') return (cachedRoot = dir);
      } catch {
        /* not ours; keep looking */
      }
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`cannot find the schedlab repository root above ${__dirname}`);
    dir = up;
  }
}
