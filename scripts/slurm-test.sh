#!/usr/bin/env bash
# End-to-end test of sweeps on Slurm: starts a private one-node Slurm cluster
# on localhost (munged + slurmctld + slurmd, own config, sockets, ports and
# state under a temporary folder), submits a sweep as a job array with
# `schedlab sweep slurm`, waits, merges the shard files with `schedlab sweep
# merge`, checks the merged results equal a local run of the same sweep, and
# stops the daemons it started.
#
#   bash scripts/slurm-test.sh            (as root: installs slurm-wlm and munge with apt-get if missing)
#   KEEP=1 bash scripts/slurm-test.sh     keep the temporary folder (logs, configs, results)
#   SHARDS=4 CELLS_X=20 ...               size of the test sweep
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARDS=${SHARDS:-3}
CELLS_X=${CELLS_X:-12}
TIMEOUT=${TIMEOUT:-300}
CTLD_PORT=${CTLD_PORT:-16817}
SLURMD_PORT=${SLURMD_PORT:-16818}
WORK=$(mktemp -d /tmp/schedlab-slurm.XXXXXX)
PIDS=()

log() { printf '[slurm-test] %s\n' "$*" >&2; }
die() { log "FAILED: $*"; exit 1; }

cleanup() {
  local rc=$?
  if [ "${#PIDS[@]}" -gt 0 ]; then
    log "stopping daemons (pids ${PIDS[*]})"
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do kill "${PIDS[$i]}" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    done
  fi
  if [ "$rc" -ne 0 ]; then
    for f in "$WORK"/*.log "$WORK"/out/logs/*; do
      [ -f "$f" ] && { log "---- $f (last lines)"; tail -n 15 "$f" >&2; }
    done
  fi
  if [ "${KEEP:-0}" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- 1. packages --------------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  [ "$(id -u)" = 0 ] || die "slurm-wlm and munge are not installed and this is not root (apt-get install slurm-wlm munge)"
  log "installing slurm-wlm and munge (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends slurm-wlm munge >"$WORK/apt.log" 2>&1 ||
    { apt-get update >>"$WORK/apt.log" 2>&1 && apt-get install -y --no-install-recommends slurm-wlm munge >>"$WORK/apt.log" 2>&1; } ||
    die "apt-get install failed (see $WORK/apt.log)"
fi
log "$(slurmctld -V), $(munged --version 2>&1 | head -1 | awk '{print $1}')"

# --- 2. build the toolkit (the job runs compiled dist/cli/sweep.js) ----------
log "building dist/ (npm run build)"
(cd "$ROOT" && node node_modules/typescript/bin/tsc -p tsconfig.json >"$WORK/tsc.log" 2>&1) || log "tsc reported errors (see $WORK/tsc.log); using what it emitted"
CLI="$ROOT/dist/cli/sweep.js"
[ -f "$CLI" ] || die "$CLI was not built"

# --- 3. munge with a private key and socket ------------------------------------
USER_NAME=$(id -un)
mkdir -p "$WORK/munge"
chmod 700 "$WORK/munge"
dd if=/dev/urandom of="$WORK/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$WORK/munge/munge.key"
MUNGE_SOCKET="$WORK/munge/munge.socket"
munged --foreground --force \
  --socket="$MUNGE_SOCKET" --key-file="$WORK/munge/munge.key" \
  --pid-file="$WORK/munge/munged.pid" --seed-file="$WORK/munge/munge.seed" \
  --log-file="$WORK/munged.log" >/dev/null 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [ -S "$MUNGE_SOCKET" ] && break; sleep 0.1; done
[ -S "$MUNGE_SOCKET" ] || die "munged did not start"
munge --socket="$MUNGE_SOCKET" -n | unmunge --socket="$MUNGE_SOCKET" >/dev/null || die "munge round-trip failed"
log "munged up"

# --- 4. a one-node Slurm cluster on localhost ---------------------------------
NODE=$(hostname -s)
CPUS=$(nproc)
mkdir -p "$WORK/state" "$WORK/spool"
export SLURM_CONF="$WORK/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=schedlab-test
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=$USER_NAME
SlurmdUser=$USER_NAME
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE_SOCKET
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
MaxArraySize=1001
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=test Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -i -f "$SLURM_CONF" >/dev/null 2>&1 &
PIDS+=($!)
slurmd -D -f "$SLURM_CONF" -N "$NODE" >/dev/null 2>&1 &
PIDS+=($!)
ready=0
for _ in $(seq 100); do
  if sinfo -h -N -o '%t' 2>/dev/null | grep -Eq '^(idle|mix|alloc)'; then ready=1; break; fi
  sleep 0.3
done
[ "$ready" = 1 ] || die "the Slurm node did not become idle: $(sinfo -h -N -o '%N %t %E' 2>&1)"
log "slurm up: $(sinfo -h -N -o '%N %t %c cpus')"

# --- 5. the sweep, as a job array ----------------------------------------------
cat >"$WORK/sweep.json" <<EOF
{
  "name": "slurm-test",
  "version": 1,
  "cell": { "module": "$ROOT/test/sweep/fixtures/cells.ts", "export": "runCell" },
  "grid": { "x": [$(seq -s, 0 $((CELLS_X - 1)))], "algorithm": ["a", "b"] },
  "replications": 2,
  "fixed": { "delayMs": 5 }
}
EOF
cd "$WORK"
node "$CLI" slurm "$WORK/sweep.json" --shards "$SHARDS" --cpus-per-task 1 --time 00:10:00 \
  --out-dir "$WORK/out" --script "$WORK/job.sh" >&2
JOB=$(sbatch --parsable "$WORK/job.sh") || die "sbatch failed"
JOB=${JOB%%;*}
log "submitted job array $JOB ($SHARDS tasks)"
start=$(date +%s)
while squeue -h -j "$JOB" 2>/dev/null | grep -q .; do
  [ $(($(date +%s) - start)) -lt "$TIMEOUT" ] || die "job array $JOB still running after ${TIMEOUT}s: $(squeue -h -j "$JOB")"
  sleep 1
done
log "job array finished after $(($(date +%s) - start)) s"
for ((i = 0; i < SHARDS; i++)); do
  f="$WORK/out/slurm-test.shard-$i-of-$SHARDS.jsonl"
  [ -s "$f" ] || die "array task $i wrote no results ($f)"
done
ls "$WORK"/out/logs/* >/dev/null 2>&1 || die "no job logs in $WORK/out/logs"
grep -h 'done' "$WORK"/out/logs/* | sed 's/^/[slurm-test]   /' >&2 || true

# --- 6. merge and compare with a local run -------------------------------------
node "$CLI" merge "$WORK/out/merged.jsonl" "$WORK"/out/slurm-test.shard-*-of-"$SHARDS".jsonl --sweep "$WORK/sweep.json" >&2
node "$CLI" run "$WORK/sweep.json" --out "$WORK/local.jsonl" --workers 2 --progress none >&2
node -e '
const { readResultsFile, recordContent, canonicalJson } = require(process.argv[1]);
const set = (f) => { const r = readResultsFile(f); if (r.invalid.length || r.tornTail) throw new Error(f + ": bad lines");
  return r.records.map((x) => canonicalJson(recordContent(x))).sort(); };
const a = set(process.argv[2]), b = set(process.argv[3]);
const hosts = new Set(readResultsFile(process.argv[2]).records.map((r) => r.run.shard));
if (a.length !== b.length || a.some((x, i) => x !== b[i])) { console.error("merged Slurm results differ from the local run"); process.exit(1); }
console.error(`[slurm-test] merged results (${a.length} cells from shards ${[...hosts].sort().join(", ")}) equal the local run`);
' "$ROOT/dist/sweep/index.js" "$WORK/out/merged.jsonl" "$WORK/local.jsonl" || die "results differ"
log "PASSED"
