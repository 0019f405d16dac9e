#!/usr/bin/env bash
# Determinism check of the main job: execute the notebooks at quick scale into
# two different output folders (SCHEDLAB_OUT=<run>, executed copies in
# <run>/<name>/<name>.ipynb) and compare what the two runs wrote:
#   - every CSV table byte for byte, except the cells of run-time columns;
#   - the text outputs of the executed notebooks, apart from timings.
# The rule for "run time" is in test/determinism/compare.ts and
# docs/hardening-papers.md.
#
# Usage: scripts/determinism.sh [options] [notebooks/NN-topic.ipynb ...]   (default: every notebook)
#   --first DIR   take DIR (e.g. out, filled by `npm run notebooks`) as the first run instead of executing it
#   --work DIR    put the runs in DIR/run1 and DIR/run2 (default: a new temporary folder)
#   --keep        keep the temporary folder (its path is printed)
#   --no-setup    skip scripts/setup.sh (the caller has compiled the toolkit)
#   --runs-only   execute the runs and stop (no comparison)
# Exit status: 0 identical, 1 differences (listed on stdout), 2 a notebook failed to execute.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

first="" work="" keep=0 setup=1 compare=1
nbs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --first) first=$(cd "$2" && pwd); shift 2 ;;
    --work) mkdir -p "$2"; work=$(cd "$2" && pwd); shift 2 ;;
    --keep) keep=1; shift ;;
    --no-setup) setup=0; shift ;;
    --runs-only) compare=0; shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    -*) echo "determinism.sh: unknown option $1" >&2; exit 2 ;;
    *) nbs+=("$1"); shift ;;
  esac
done
[ ${#nbs[@]} -gt 0 ] || nbs=(notebooks/*.ipynb)
for nb in "${nbs[@]}"; do [ -f "$nb" ] || { echo "determinism.sh: no such notebook: $nb" >&2; exit 2; }; done

if [ -z "$work" ]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/schedlab-determinism.XXXXXX")
  [ $keep = 1 ] || trap 'rm -rf "$work"' EXIT
fi
[ $setup = 1 ] && bash scripts/setup.sh
# The kernel's name, computed once for every run-notebook.sh below.
export SCHEDLAB_KERNEL=${SCHEDLAB_KERNEL:-$(bash scripts/kernel.sh)}

# Execute one notebook with its outputs under $2 (SCHEDLAB_OUT) and the executed copy in $2/<name>/.
run_one() {
  local nb=$1 dest=$2
  SCHEDLAB_OUT="$dest" SCHEDLAB_SCALE=quick bash scripts/run-notebook.sh "$nb" || { echo "determinism.sh: $nb failed to execute (into $dest)" >&2; return 1; }
}

runs=()
if [ -n "$first" ]; then runs+=("$first"); else runs+=("$work/run1"); fi
runs+=("$work/run2")
for nb in "${nbs[@]}"; do
  [ -n "$first" ] || run_one "$nb" "$work/run1" || exit 2
  run_one "$nb" "$work/run2" || exit 2
done
[ $keep = 1 ] && echo "[determinism] runs kept in $work" >&2
[ $compare = 1 ] || exit 0

names=()
for nb in "${nbs[@]}"; do names+=("$(basename "$nb" .ipynb)"); done
npx --no-install ts-node --transpile-only test/determinism/compare.ts "${runs[0]}" "${runs[1]}" "${names[@]}"
