#!/usr/bin/env bash
# Run a paper notebook's full-scale experiment through the sweep engine:
# builds dist/, then `schedlab paper <notebook> [options]` writes (or resumes)
# results/<notebook>/<notebook>.jsonl on all cores. The notebook, executed with
# SCHEDLAB_SCALE=paper, reads those results.
#
#   bash scripts/paper.sh 03-evolving-applications              # all cores, resumable (Ctrl-C, rerun)
#   bash scripts/paper.sh 03 --workers 2 --shard 0/50             # one slice
#   bash scripts/paper.sh 03 --slurm 50 --time 01:00:00 --script evolving.sbatch
#   bash scripts/paper.sh list                                    # notebooks and cell counts
#   SCHEDLAB_SCALE=paper bash scripts/run-notebook.sh notebooks/03-evolving-applications.ipynb
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: scripts/paper.sh <notebook>|list [--workers N] [--shard i/n] [--scale quick|paper] [--slurm N]" >&2; exit 2; }
cd "$(dirname "$0")/.."
# tsc emits even when unrelated files have type errors; only a missing entry point stops us.
node node_modules/typescript/bin/tsc -p tsconfig.json >/dev/null 2>&1 || true
[ -f dist/bin/schedlab.js ] && [ -f dist/cli/paper.js ] || { echo "build failed: dist/cli/paper.js missing (run npx tsc -p tsconfig.json)" >&2; exit 1; }
exec node dist/bin/schedlab.js paper "$@"
