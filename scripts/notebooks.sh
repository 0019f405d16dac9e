#!/usr/bin/env bash
# The main job: set up, then execute every notebook in notebooks/ at its
# default scale (paper scale from committed results where they exist, quick
# otherwise). Results land in out/<notebook-name>/.
# SCHEDLAB_NOTEBOOK_JOBS notebooks run at once (default 2, at most the cores),
# the long ones first; each one's log is printed when it finishes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The kernel's name, computed once for every run-notebook.sh below.
export SCHEDLAB_KERNEL=${SCHEDLAB_KERNEL:-$(bash scripts/kernel.sh)}
cores=$(nproc)
jobs=${SCHEDLAB_NOTEBOOK_JOBS:-2}
[ "$jobs" -gt "$cores" ] && jobs=$cores
[ "$jobs" -ge 1 ] || jobs=1
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
# Longest first, so that the last notebook to finish is a short one (the order of
# their times at rest, bench/results/main-job.json); notebooks not listed come last.
longest=(01 05 02 03 04 00-batch 06 00-quickstart)
order=()
for p in "${longest[@]}"; do for nb in notebooks/$p*.ipynb; do [ -f "$nb" ] && order+=("$nb"); done; done
for nb in notebooks/*.ipynb; do [[ " ${order[*]} " == *" $nb "* ]] || order+=("$nb"); done
start=$(date +%s)
status=0
declare -A pid_of=()
finish() {  # one notebook finished (pid $1, exit status $2): print its log, record failure
  local done_pid=$1 rc=$2 nb=${pid_of[$1]}
  cat "$logs/$(basename "$nb").log" >&2
  [ $rc -eq 0 ] || { echo "[notebooks] $nb FAILED (exit $rc)" >&2; status=1; }
  unset "pid_of[$done_pid]"
}
for nb in "${order[@]}"; do
  while [ ${#pid_of[@]} -ge "$jobs" ]; do
    rc=0; wait -n -p done_pid "${!pid_of[@]}" || rc=$?
    finish "$done_pid" $rc
  done
  bash scripts/run-notebook.sh "$nb" >"$logs/$(basename "$nb").log" 2>&1 &
  pid_of[$!]=$nb
done
while [ ${#pid_of[@]} -gt 0 ]; do
  rc=0; wait -n -p done_pid "${!pid_of[@]}" || rc=$?
  finish "$done_pid" $rc
done
echo "[notebooks] ${#order[@]} notebooks in $(( $(date +%s) - start )) s ($jobs at a time)" >&2
exit $status
