#!/usr/bin/env bash
# Execute one notebook headlessly: writes out/<name>/<name>.ipynb (plus whatever
# tables and figures the notebook writes there) and fails on any cell error.
# Usage: scripts/run-notebook.sh notebooks/NN-topic.ipynb
set -euo pipefail
nb=${1:?usage: run-notebook.sh notebooks/NN-topic.ipynb}
cd "$(dirname "$0")/.."
[ -f "$nb" ] || { echo "no such notebook: $nb" >&2; exit 2; }
name=$(basename "$nb" .ipynb)
mkdir -p "out/$name"
start=$(date +%s)
# Cells run with notebooks/ as the working directory, as in Jupyter.
( cd "$(dirname "$nb")" && /usr/bin/jupyter-nbconvert --to notebook --execute "$(basename "$nb")" \
    --output-dir "$PWD/../out/$name" --output "$name" \
    --ExecutePreprocessor.kernel_name=tslab \
    --ExecutePreprocessor.timeout="${SCHEDLAB_CELL_TIMEOUT:-3600}" 2> >(grep -v -e MissingIDFieldWarning -e 'validate(nb)' -e nodedir >&2) )
python3 - "out/$name/$name.ipynb" <<'PY'
import json, sys
nb = json.load(open(sys.argv[1]))
bad = [c for c in nb["cells"] if c.get("cell_type") == "code" and any(o.get("output_type") == "error" for o in c.get("outputs", []))]
if bad:
    print(f"{sys.argv[1]}: {len(bad)} cell(s) with errors", file=sys.stderr)
    sys.exit(1)
PY
echo "[notebook] $name: ok in $(( $(date +%s) - start )) s -> out/$name/" >&2
