/**
 * Write docs/fidelity.md and the README's claims-count line from the claims
 * registries evaluated on the committed results (loading 01 takes about a
 * minute of CPU).
 *
 * Run: npx ts-node --transpile-only scripts/fidelity.ts [--check]
 * --check writes nothing and exits 1 when either file is out of date.
 */
import * as fs from 'fs';
import * as path from 'path';
import { CLAIM_REGISTRIES, claimsFor } from '../src/claims';
import { claimsCountLine, fidelityMarkdown, withClaimsCount } from '../src/claims/fidelity';

const root = path.join(__dirname, '..');
const evaluated = CLAIM_REGISTRIES.map((r) => claimsFor(r.notebook));
const files: [string, string][] = [
  [path.join(root, 'docs', 'fidelity.md'), fidelityMarkdown(evaluated)],
  [path.join(root, 'README.md'), withClaimsCount(fs.readFileSync(path.join(root, 'README.md'), 'utf8'), claimsCountLine(evaluated))],
];
let stale = 0;
for (const [file, text] of files) {
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (old === text) continue;
  if (process.argv.includes('--check')) {
    console.error(`${path.relative(root, file)} is out of date: run scripts/fidelity.ts`);
    stale++;
  } else {
    fs.writeFileSync(file, text);
    console.log(`wrote ${path.relative(root, file)}`);
  }
}
process.exit(stale ? 1 : 0);
