#!/usr/bin/env bash
# The test suite: set up, type-check, then run every mocha test (unit,
# property and notebook-execution tests). Ends with "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "[test] type-checking src/, test/ and bench/" >&2
node node_modules/typescript/bin/tsc -p tsconfig.test.json --noEmit
npx --no-install mocha --reporter test/support/reporter.js 'test/**/*.test.ts' "$@"
