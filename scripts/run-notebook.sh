#!/usr/bin/env bash
# Execute one notebook headlessly: writes out/<name>/<name>.ipynb (plus whatever
# tables and figures the notebook writes there) and fails on any cell error.
# Usage: scripts/run-notebook.sh notebooks/NN-topic.ipynb
set -euo pipefail
nb=${1:?usage: run-notebook.sh notebooks/NN-topic.ipynb}
cd "$(dirname "$0")/.."
[ -f "$nb" ] || { echo "no such notebook: $nb" >&2; exit 2; }
name=$(basename "$nb" .ipynb)
out=$(realpath -m "${SCHEDLAB_OUT:-$PWD/out}")
mkdir -p "$out/$name"
# This clone's own kernel (registered here if the set-up has not done it yet), so
# the notebook never runs on the tslab of another checkout registered as "tslab".
# Callers that run many notebooks register it once and pass its name.
kernel=${SCHEDLAB_KERNEL:-$(bash scripts/kernel.sh)}
start=$(date +%s)
# Cells run with notebooks/ as the working directory, as in Jupyter.
# NBCONVERT_DISABLE_CONFIG_EXPORTERS: nbconvert does not build every exporter it has
# (twice) to list the enabled ones; --to names its exporter (0.2 s CPU a run).
# startup_timeout: a kernel on a loaded machine can take over nbconvert's default 60 s to start.
( cd "$(dirname "$nb")" && NBCONVERT_DISABLE_CONFIG_EXPORTERS=1 /usr/bin/jupyter-nbconvert --to notebook --execute "$(basename "$nb")" \
    --output-dir "$out/$name" --output "$name" \
    --ExecutePreprocessor.kernel_name="$kernel" \
    --ExecutePreprocessor.timeout="${SCHEDLAB_CELL_TIMEOUT:-3600}" --ExecutePreprocessor.startup_timeout=300 2> >(grep -v -e MissingIDFieldWarning -e 'validate(nb)' -e nodedir >&2) )
# The Python nbconvert runs on (a python3 found first on PATH may be a version-manager shim costing a second).
/usr/bin/python3 - "$out/$name/$name.ipynb" <<'PY'
import json, sys
path = sys.argv[1]
nb = json.load(open(path))
code = [c for c in nb["cells"] if c.get("cell_type") == "code"]
# tslab sends no execute_input message, so nbconvert leaves every count null. The
# kernel counts one execution per non-empty code cell, in order: write that count.
n = 0
for c in code:
    # Outputs holding charts are never folded into a scroll box (Jupyter folds
    # outputs taller than 100 lines; a chart below the fold stays blank).
    if any("application/vnd.plotly.v1+json" in o.get("data", {}) for o in c.get("outputs", [])):
        c.setdefault("metadata", {})["scrolled"] = False
for c in code:
    if "".join(c.get("source", "")).strip():
        n += 1
        c["execution_count"] = n
        for o in c.get("outputs", []):
            if o.get("output_type") == "execute_result":
                o["execution_count"] = n
with open(path, "w") as f:
    json.dump(nb, f, indent=1, ensure_ascii=False)
    f.write("\n")
bad = [c for c in code if any(o.get("output_type") == "error" for o in c.get("outputs", []))]
if bad:
    print(f"{path}: {len(bad)} cell(s) with errors", file=sys.stderr)
    sys.exit(1)
PY
# CPU time (user + system) of everything this script ran and waited for: nbconvert, the kernel and its workers.
# (`times` in this shell, not in a pipe: a subshell has no children of its own yet.)
times_file=$(mktemp)
times >"$times_file"
cpu=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.0f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$times_file")
rm -f "$times_file"
echo "[notebook] $name: ok in $(( $(date +%s) - start )) s ($cpu s CPU), $(( $(stat -c %s "$out/$name/$name.ipynb") / 1024 )) kB -> $out/$name/" >&2
