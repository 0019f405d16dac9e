#!/usr/bin/env bash
# Register this clone's tslab kernel and the schedlab-plotly notebook extension
# (idempotent: files already current are not rewritten) and print the kernel's
# name (schedlab-<folder>-<hash>, analysis/jupyter.ts). Needs dist/ compiled.
# A script that executes several notebooks runs this once and passes the name
# to each scripts/run-notebook.sh as SCHEDLAB_KERNEL.
set -euo pipefail
cd "$(dirname "$0")/.."
node -e 'console.log(require("./dist/analysis/jupyter").registerFolderKernel(process.cwd()))'
