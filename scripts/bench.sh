#!/usr/bin/env bash
# Run every benchmark in bench/; each writes bench/results/<name>.json.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
mkdir -p bench/results
for b in bench/*.ts; do
  echo "== $b" >&2
  npx --no-install ts-node --transpile-only -P tsconfig.json "$b"
done
