#!/usr/bin/env bash
# End-to-end test of sweeps on Slurm: starts a private Slurm cluster on this
# machine (munged + slurmctld + slurmd, own config, sockets, ports and state
# under a temporary folder), submits a sweep as a job array with `schedlab
# sweep slurm`, waits, merges the shard files with `schedlab sweep merge`,
# checks the merged results equal a local run of the same sweep, and stops the
# daemons it started.
#
# With --nodes 2 the cluster has two compute nodes, node1 and node2: each a
# slurmd in its own network namespace (own address on a veth link to the
# controller) and UTS namespace (own host name), both writing to the same
# results folder. The test checks that shards ran on both nodes, kills node1
# (its slurmd and every process it started) while it is in the middle of a
# shard, checks that cells are missing once the array has ended, submits the
# array again (finished cells are skipped; the killed shard resumes on node2)
# and compares the merge with a local run. With --requeue as well, the array
# is left to Slurm's own requeueing instead: the killed task is rerun on node2
# as the same job (a higher SLURM_RESTART_COUNT) and takes over its own lock.
#
#   bash scripts/slurm-test.sh [--nodes 1|2] [--requeue]  (as root: installs slurm-wlm and munge with apt-get if missing)
#   KEEP=1 bash scripts/slurm-test.sh         keep the temporary folder (logs, configs, results)
#   SHARDS=4 CELLS_X=20 DELAY_MS=5 ...        size of the test sweep (CELLS_X × 4 cells of DELAY_MS each)
#   SUBNET=10.213                             two nodes: node i at SUBNET.i.2, the controller at SUBNET.1.1
set -euo pipefail

NODES=${NODES:-1}
REQUEUE=0
while [ $# -gt 0 ]; do
  case $1 in
    --nodes) NODES=${2:-}; shift 2 ;;
    --nodes=*) NODES=${1#--nodes=}; shift ;;
    --requeue) REQUEUE=1; shift ;;
    *) echo "usage: bash scripts/slurm-test.sh [--nodes 1|2] [--requeue]" >&2; exit 2 ;;
  esac
done
case $NODES in 1 | 2) ;; *) echo "[slurm-test] --nodes must be 1 or 2, got '$NODES'" >&2; exit 2 ;; esac
[ "$REQUEUE" = 0 ] || [ "$NODES" = 2 ] || { echo "[slurm-test] --requeue needs --nodes 2" >&2; exit 2; }

ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ "$NODES" = 2 ]; then
  # Cells long enough that node1 can be caught in the middle of a shard.
  SHARDS=${SHARDS:-4}
  CELLS_X=${CELLS_X:-8}
  DELAY_MS=${DELAY_MS:-400}
else
  SHARDS=${SHARDS:-3}
  CELLS_X=${CELLS_X:-12}
  DELAY_MS=${DELAY_MS:-5}
fi
CELLS=$((CELLS_X * 4)) # x × 2 algorithms × 2 replications
TIMEOUT=${TIMEOUT:-300}
CTLD_PORT=${CTLD_PORT:-16817}
SLURMD_PORT=${SLURMD_PORT:-16818}
SUBNET=${SUBNET:-10.213}
WORK=$(mktemp -d /tmp/schedlab-slurm.XXXXXX)
TAG=$$ # names of this run's namespaces and links
NETNS=()
PIDS=()

log() { printf '[slurm-test] %s\n' "$*" >&2; }
die() { log "FAILED: $*"; exit 1; }
. "$ROOT/scripts/lib/private-daemons.sh"

# Kill every process in a node's network namespace (its slurmd and the jobs it started).
kill_node() { ip netns pids "$1" 2>/dev/null | xargs -r kill -9 2>/dev/null || true; }

cleanup() {
  local rc=$?
  for ns in "${NETNS[@]}"; do kill_node "$ns"; done
  stop_daemons 50
  for ns in "${NETNS[@]}"; do ip netns del "$ns" 2>/dev/null || true; done # also removes its veth pair
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
if [ "$NODES" = 2 ]; then
  [ "$(id -u)" = 0 ] || die "--nodes 2 creates network namespaces: run it as root"
  command -v ip >/dev/null && command -v unshare >/dev/null && command -v nsenter >/dev/null ||
    die "--nodes 2 needs ip (iproute2), unshare and nsenter (util-linux)"
fi
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
start_munge
log "munged up"

# --- 4. the Slurm cluster ---------------------------------------------------------
CTLD_HOST=$(hostname -s)
if [ "$NODES" = 1 ]; then
  CTLD_ADDR=127.0.0.1
  NODE_NAMES=("$CTLD_HOST")
  NODE_LINES="NodeName=$CTLD_HOST NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN"
else
  # node<i> lives in its own network namespace at SUBNET.<i>.2, on a veth link
  # whose host end (SUBNET.<i>.1) leads to the controller. One CPU each, so
  # the array's tasks spread over both nodes.
  CTLD_ADDR=$SUBNET.1.1
  NODE_NAMES=(node1 node2)
  NODE_LINES=""
  for i in 1 2; do
    ns=schedlab-$TAG-n$i
    ip netns add "$ns" || die "ip netns add $ns failed"
    NETNS+=("$ns")
    ip link add "sl${TAG}h$i" type veth peer name "sl${TAG}n$i"
    ip link set "sl${TAG}n$i" netns "$ns"
    ip addr add "$SUBNET.$i.1/24" dev "sl${TAG}h$i"
    ip link set "sl${TAG}h$i" up
    ip netns exec "$ns" ip addr add "$SUBNET.$i.2/24" dev "sl${TAG}n$i"
    ip netns exec "$ns" ip link set "sl${TAG}n$i" up
    ip netns exec "$ns" ip link set lo up
    ip netns exec "$ns" ip route add default via "$SUBNET.$i.1"
    NODE_LINES+="NodeName=node$i NodeAddr=$SUBNET.$i.2 CPUs=1 State=UNKNOWN"$'\n'
  done
  log "nodes in network namespaces ${NETNS[*]} ($SUBNET.1.2, $SUBNET.2.2), controller at $CTLD_ADDR"
fi
mkdir -p "$WORK/state"
for n in "${NODE_NAMES[@]}"; do mkdir -p "$WORK/spool/$n"; done
export SLURM_CONF="$WORK/slurm.conf"
# A requeued job waits for its credentials to expire (120 s by default) before it restarts.
CRED_EXPIRE=$([ "$REQUEUE" = 1 ] && echo ,cred_expire=20 || true)
# %n: each slurmd has its own spool folder, pid file and log.
# SlurmdTimeout: a dead node is declared DOWN (and its jobs NODE_FAIL) after 10 s.
cat >"$SLURM_CONF" <<EOF
ClusterName=schedlab-test
SlurmctldHost=$CTLD_HOST($CTLD_ADDR)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=$USER_NAME
SlurmdUser=$USER_NAME
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE_SOCKET$CRED_EXPIRE
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool/%n
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd-%n.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
SlurmdTimeout=10
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
$NODE_LINES
PartitionName=test Nodes=$(IFS=,; echo "${NODE_NAMES[*]}") Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -i -f "$SLURM_CONF" >/dev/null 2>&1 &
PIDS+=($!)
if [ "$NODES" = 1 ]; then
  slurmd -D -f "$SLURM_CONF" -N "$CTLD_HOST" >/dev/null 2>&1 &
  PIDS+=($!)
else
  # Each node also gets its own host name: records (run.host) show which node
  # ran a cell. (nsenter, not `ip netns exec`, which remounts /sys without cgroups.)
  for i in 1 2; do
    nsenter --net="/run/netns/${NETNS[$((i - 1))]}" unshare --uts sh -c "hostname node$i && exec slurmd -D -f '$SLURM_CONF' -N node$i" >/dev/null 2>&1 &
    PIDS+=($!)
    disown # no job-control notice when the test kills it
  done
fi
ready=0
for _ in $(seq 100); do
  if [ "$(sinfo -h -N -o '%t' 2>/dev/null | grep -Ec '^(idle|mix|alloc)$')" = "${#NODE_NAMES[@]}" ]; then ready=1; break; fi
  sleep 0.3
done
[ "$ready" = 1 ] || die "the Slurm nodes did not become idle: $(sinfo -h -N -o '%N %t %E' 2>&1)"
log "slurm up: $(sinfo -h -N -o '%N %t %c cpus' | paste -sd ';')"

# --- 5. the sweep, as a job array ----------------------------------------------
cat >"$WORK/sweep.json" <<EOF
{
  "name": "slurm-test",
  "version": 1,
  "cell": { "module": "$ROOT/test/sweep/fixtures/cells.ts", "export": "runCell" },
  "grid": { "x": [$(seq -s, 0 $((CELLS_X - 1)))], "algorithm": ["a", "b"] },
  "replications": 2,
  "fixed": { "delayMs": $DELAY_MS }
}
EOF
cd "$WORK"
# --no-requeue: the test resumes the array itself (unless --requeue: Slurm
# requeues a batch job whose node failed by default).
NO_REQUEUE=()
[ "$REQUEUE" = 1 ] || NO_REQUEUE=(--sbatch --no-requeue)
node "$CLI" slurm "$WORK/sweep.json" --shards "$SHARDS" --cpus-per-task 1 --time 00:10:00 \
  --out-dir "$WORK/out" --script "$WORK/job.sh" "${NO_REQUEUE[@]}" >&2
[ "$REQUEUE" = 1 ] || grep -qx '#SBATCH --no-requeue' "$WORK/job.sh" || die "--sbatch did not reach the script"
SHARD_FILES=()
for ((i = 0; i < SHARDS; i++)); do SHARD_FILES+=("$WORK/out/slurm-test.shard-$i-of-$SHARDS.jsonl"); done

# `node -e` helpers over the results files (the toolkit's own reader).
results() { node -e "const s = require('$ROOT/dist/sweep/index.js'); $1" "${@:2}"; }
# Cells with an ok record in the given files.
cells_done() { results 'const k = new Set(); for (const f of process.argv.slice(1)) if (require("fs").existsSync(f)) for (const r of s.readResultsFile(f).records) if (r.status === "ok") k.add(r.key); console.log(k.size)' "$@"; }
# The hosts (run.host) that wrote records of the given files, sorted, comma-separated.
hosts_of() { results 'const h = new Set(); for (const f of process.argv.slice(1)) for (const r of s.readResultsFile(f).records) h.add(r.run.host); console.log([...h].sort().join(","))' "$@"; }

# Submit the array; wait until it has left the queue.
submit_array() {
  JOB=$(sbatch --parsable "$WORK/job.sh") || die "sbatch failed"
  JOB=${JOB%%;*}
  log "submitted job array $JOB ($SHARDS tasks)"
}
wait_array() {
  local start
  start=$(date +%s)
  while squeue -h -j "$JOB" 2>/dev/null | grep -q .; do
    [ $(($(date +%s) - start)) -lt "$TIMEOUT" ] || die "job array $JOB still running after ${TIMEOUT}s: $(squeue -h -j "$JOB")"
    sleep 1
  done
  log "job array $JOB finished after $(($(date +%s) - start)) s"
}

submit_array
if [ "$NODES" = 2 ]; then
  # Kill node1 while it is in the middle of a shard: some of its cells written, not all.
  per_shard=$(((CELLS + SHARDS - 1) / SHARDS))
  start=$(date +%s)
  victim=""
  while [ -z "$victim" ]; do
    squeue -h -j "$JOB" 2>/dev/null | grep -q . || die "the array ended before node1 was caught in the middle of a shard (raise DELAY_MS)"
    [ $(($(date +%s) - start)) -lt "$TIMEOUT" ] || die "node1 never ran a shard within ${TIMEOUT}s: $(squeue -h -j "$JOB" -o '%i %T %N')"
    read -r task id < <(squeue -h -j "$JOB" -w node1 -t RUNNING -o '%K %A' 2>/dev/null | head -1) || true
    if [ -n "${task:-}" ]; then
      f="$WORK/out/slurm-test.shard-$task-of-$SHARDS.jsonl"
      n=$([ -f "$f" ] && wc -l <"$f" || echo 0)
      [ "$n" -ge 1 ] && [ "$n" -le $((per_shard - 2)) ] && victim=$task
    fi
    [ -n "$victim" ] || sleep 0.2
  done
  kill_node "${NETNS[0]}"
  log "killed node1 (slurmd and its job steps) in the middle of array task $victim (job $id), $n of its $per_shard cells written"
fi
if [ "$NODES" = 2 ] && [ "$REQUEUE" = 0 ]; then
  wait_array
  log "node1: $(sinfo -h -n node1 -o '%t %E'); task $victim: $(scontrol show job "$id" 2>/dev/null | grep -o 'JobState=[A-Z_]*' || echo gone)"
  done_after_kill=$(cells_done "${SHARD_FILES[@]}")
  log "after the kill: $done_after_kill of $CELLS cells done"
  [ "$done_after_kill" -lt "$CELLS" ] || die "no cells missing after node1 was killed mid-shard"
  [ "$(hosts_of "${SHARD_FILES[@]}")" = node1,node2 ] || die "shards did not run on both nodes (hosts: $(hosts_of "${SHARD_FILES[@]}"))"
  # Resume: the same array again. Finished shards skip all their cells; the
  # killed shard takes over node1's lock (its Slurm job has ended) on node2.
  submit_array
fi
wait_array
for f in "${SHARD_FILES[@]}"; do [ -s "$f" ] || die "an array task wrote no results ($f)"; done
ls "$WORK"/out/logs/* >/dev/null 2>&1 || die "no job logs in $WORK/out/logs"
grep -h 'done' "$WORK"/out/logs/* | sed 's/^/[slurm-test]   /' >&2 || true
[ "$(cells_done "${SHARD_FILES[@]}")" = "$CELLS" ] || die "cells still missing after the array: $(cells_done "${SHARD_FILES[@]}") of $CELLS done"
if [ "$NODES" = 2 ]; then
  victim_file=$WORK/out/slurm-test.shard-$victim-of-$SHARDS.jsonl
  [ "$(hosts_of "$victim_file")" = node1,node2 ] || die "the killed shard was not resumed on node2 (hosts: $(hosts_of "$victim_file"))"
  if [ "$REQUEUE" = 1 ]; then
    restarts=$(scontrol show job "$id" 2>/dev/null | grep -o 'Restarts=[0-9]*' || echo 'Restarts=?')
    [ "$restarts" = Restarts=1 ] || die "task $victim (job $id) was not requeued once by Slurm ($restarts)"
    log "shard $victim: started on node1, finished on node2 when Slurm requeued job $id ($restarts)"
  else
    log "shard $victim: started on node1, finished on node2 after the resubmission"
  fi
fi

# --- 6. merge and compare with a local run -------------------------------------
node "$CLI" merge "$WORK/out/merged.jsonl" "${SHARD_FILES[@]}" --sweep "$WORK/sweep.json" >&2
node "$CLI" run "$WORK/sweep.json" --out "$WORK/local.jsonl" --workers 2 --progress none >&2
results '
const [merged, local] = process.argv.slice(1);
const set = (f) => { const r = s.readResultsFile(f); if (r.invalid.length || r.tornTail) throw new Error(f + ": bad lines");
  return r.records.map((x) => s.canonicalJson(s.recordContent(x))).sort(); };
const a = set(merged), b = set(local);
const records = s.readResultsFile(merged).records;
const shards = new Set(records.map((r) => r.run.shard)), hosts = new Set(records.map((r) => r.run.host));
if (a.length !== b.length || a.some((x, i) => x !== b[i])) { console.error("merged Slurm results differ from the local run"); process.exit(1); }
console.error(`[slurm-test] merged results (${a.length} cells from shards ${[...shards].sort().join(", ")} on ${[...hosts].sort().join(", ")}) equal the local run`);
' "$WORK/out/merged.jsonl" "$WORK/local.jsonl" || die "results differ"
log "PASSED"
