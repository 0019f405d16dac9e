#!/usr/bin/env bash
# The test suite: set up, type-check, then run every mocha test (unit,
# property and notebook-execution tests). Ends with "N passed, N failed".
#
# With no arguments (the whole suite) the notebook executions are queued at
# the start and run beside the unit tests, two at a time
# (test/support/notebook-runs.ts), and the type-check runs beside mocha.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "[test] type-checking src/, test/ and bench/ (beside the tests)" >&2
tsc_log=$(mktemp)
node node_modules/typescript/bin/tsc -p tsconfig.test.json --noEmit >"$tsc_log" 2>&1 &
tsc_pid=$!
[ $# -eq 0 ] && export SCHEDLAB_PREFETCH_NOTEBOOKS=1
status=0
npx --no-install mocha --reporter test/support/reporter.js 'test/**/*.test.ts' "$@" || status=$?
if ! wait $tsc_pid; then
  echo "[test] type-check failed:" >&2
  cat "$tsc_log" >&2
  status=1
fi
rm -f "$tsc_log"
exit $status
