#!/usr/bin/env bash
# The main job: set up, then execute every notebook in notebooks/ at its
# default (quick) scale. Results land in out/<notebook-name>/.
# SCHEDLAB_SCALE=paper runs the full paper-scale experiments instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
status=0
for nb in notebooks/*.ipynb; do
  bash scripts/run-notebook.sh "$nb" || status=1
done
exit $status
