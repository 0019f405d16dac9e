#!/usr/bin/env bash
# One-time (idempotent) set-up of everything schedlab needs on a fresh machine:
# Debian's Jupyter + Chromium, npm packages, the compiled toolkit, and the
# tslab kernel registered against /usr/bin/python3. Each step is skipped when
# already done, so running it again costs a few seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
say() { printf '[setup] %s\n' "$*" >&2; }

# 1. Debian packages -----------------------------------------------------------
# texlive-latex-*: pdflatex + booktabs + rotating, to check that the LaTeX tables compile (about 25 s to install).
APT_PACKAGES=(jupyter-nbconvert jupyter-notebook python3-nbclient python3-ipykernel chromium fonts-dejavu-core texlive-latex-base texlive-latex-recommended)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    say "installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    say "installing Debian packages with sudo: ${missing[*]}"
    sudo DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    say "missing Debian packages: ${missing[*]}"
    say "ask an administrator to install them, or see environment.md ('Without root')"
    exit 1
  fi
fi

# 2. npm packages (reinstalled only when package-lock.json changes) --------------
stamp=node_modules/.schedlab-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  say "installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
  echo "$want" > "$stamp"
fi
# Notebooks import the toolkit by its package name; the link makes that resolve here.
[ "$(readlink node_modules/schedlab 2>/dev/null)" = ".." ] || ln -sfn .. node_modules/schedlab

# 3. Compile src/ to dist/ (incremental) ------------------------------------------
say "compiling the toolkit"
node node_modules/typescript/bin/tsc -p tsconfig.json --incremental --tsBuildInfoFile dist/.tsbuildinfo

# 4. Jupyter: this clone's tslab kernel and the live-chart extension ---------------
# The kernel gets a name of its own (schedlab-<folder>-<hash>): a shared "tslab"
# kernel would run whichever clone registered it last. The schedlab-plotly
# notebook extension renders charts from the local plotly bundle without trust.
say "registering the kernel and the notebook extension"
say "kernel $(bash scripts/kernel.sh)"
# The notebooks name "tslab" as their kernel: register it only where none exists.
has_tslab=
for d in "${JUPYTER_DATA_DIR:-$HOME/.local/share/jupyter}" /usr/local/share/jupyter /usr/share/jupyter; do
  [ -f "$d/kernels/tslab/kernel.json" ] && has_tslab=1
done
if [ -z "$has_tslab" ]; then
  TSLAB="$ROOT/node_modules/.bin/tslab"
  if [ "$(id -u)" = 0 ]; then
    "$TSLAB" install --python=/usr/bin/python3 --binary "$TSLAB" >/dev/null
  else
    "$TSLAB" install --user --python=/usr/bin/python3 --binary "$TSLAB" >/dev/null
  fi
fi
say "ready"
