#!/usr/bin/env bash
# Records a real Slurm accounting log for the sacct reader's tests
# (test/workloads/fixtures/sacct-real.txt): starts a private one-node Slurm
# with accounting (munged + MariaDB + slurmdbd + slurmctld + slurmd, own
# configs, sockets, ports and state under a temporary folder, as
# scripts/slurm-test.sh does), submits jobs of several sizes, a failed job, a
# time-out, a job cancelled while running and one cancelled before it
# started, a job array, a heterogeneous job (cancelled: see below), a job with steps, and leaves one
# job running and one pending; then writes
#
#   TZ=UTC sacct --allusers --parsable2 --duplicates --starttime <start> --format <FIELDS>
#
# to the output file and stops the daemons it started.
#
#   bash scripts/record-sacct.sh [OUT]   (as root: installs slurm-wlm, slurmdbd, munge, mariadb-server if missing)
#   KEEP=1 bash scripts/record-sacct.sh  keep the temporary folder
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$ROOT/test/workloads/fixtures/sacct-real.txt}
CTLD_PORT=${CTLD_PORT:-16917}
SLURMD_PORT=${SLURMD_PORT:-16918}
DBD_PORT=${DBD_PORT:-16919}
DB_PORT=${DB_PORT:-16906}
FIELDS=JobID,JobIDRaw,JobName,Partition,User,Group,Submit,Eligible,Start,End,Elapsed,ElapsedRaw,Timelimit,TimelimitRaw,AllocCPUS,ReqCPUS,AllocNodes,ReqNodes,NNodes,State,ExitCode
WORK=$(mktemp -d /tmp/schedlab-sacct.XXXXXX)
PIDS=()
export TZ=UTC

log() { printf '[record-sacct] %s\n' "$*" >&2; }
die() { log "FAILED: $*"; exit 1; }
. "$ROOT/scripts/lib/private-daemons.sh"

cleanup() {
  local rc=$?
  stop_daemons 100
  if [ "$rc" -ne 0 ]; then
    for f in "$WORK"/*.log; do [ -f "$f" ] && { log "---- $f (last lines)"; tail -n 15 "$f" >&2; }; done
  fi
  if [ "${KEEP:-0}" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- packages -------------------------------------------------------------------
need=()
command -v slurmctld >/dev/null && command -v sbatch >/dev/null || need+=(slurm-wlm)
command -v slurmdbd >/dev/null || need+=(slurmdbd)
command -v munged >/dev/null || need+=(munge)
command -v mariadbd >/dev/null || need+=(mariadb-server)
if [ "${#need[@]}" -gt 0 ]; then
  [ "$(id -u)" = 0 ] || die "missing packages (${need[*]}) and this is not root"
  log "installing ${need[*]} (apt-get)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" >"$WORK/apt.log" 2>&1 || die "apt-get install failed"
fi
log "$(slurmctld -V)"
USER_NAME=$(id -un)

# --- munge ------------------------------------------------------------------------
start_munge

# --- MariaDB on a private port and socket (a throwaway database) -----------------
DB_SOCKET="$WORK/db/mysqld.sock"
mariadb-install-db --no-defaults --datadir="$WORK/db" --user="$USER_NAME" --auth-root-authentication-method=socket >"$WORK/db-install.log" 2>&1 || die "mariadb-install-db failed"
mariadbd --no-defaults --datadir="$WORK/db" --user="$USER_NAME" --socket="$DB_SOCKET" --port="$DB_PORT" \
  --bind-address=127.0.0.1 --pid-file="$WORK/db/mysqld.pid" --log-error="$WORK/mariadb.log" --innodb-buffer-pool-size=32M >/dev/null 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do mariadb --no-defaults --socket="$DB_SOCKET" -e 'select 1' >/dev/null 2>&1 && break; sleep 0.2; done
DB_PASS=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
mariadb --no-defaults --socket="$DB_SOCKET" -e "CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY '$DB_PASS'; GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';" ||
  die "MariaDB did not start"
log "mariadb up"

# --- slurmdbd, slurmctld, slurmd -------------------------------------------------------
NODE=$(hostname -s)
mkdir -p "$WORK/state" "$WORK/spool"
export SLURM_CONF="$WORK/slurm.conf"
cat >"$WORK/slurmdbd.conf" <<EOF
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCKET
DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort=$DBD_PORT
SlurmUser=$USER_NAME
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$DB_PORT
StorageUser=slurm
StoragePass=$DB_PASS
StorageLoc=slurm_acct_db
PidFile=$WORK/slurmdbd.pid
LogFile=$WORK/slurmdbd.log
DebugLevel=info
EOF
chmod 600 "$WORK/slurmdbd.conf"
# Eight CPUs declared on the 2-core machine (config_overrides): the jobs only sleep.
cat >"$SLURM_CONF" <<EOF
ClusterName=schedlab-rec
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
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
AccountingStoragePort=$DBD_PORT
# For slurmdbd, the "password" is the munge socket to use.
AccountingStoragePass=$MUNGE_SOCKET
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
MpiDefault=none
ReturnToService=2
MaxArraySize=1001
KillWait=2
OverTimeLimit=0
InactiveLimit=0
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=8 State=UNKNOWN
PartitionName=batch Nodes=$NODE Default=YES MaxTime=2-00:00:00 State=UP
PartitionName=long Nodes=$NODE MaxTime=INFINITE State=UP
EOF
slurmdbd -D >/dev/null 2>&1 &
PIDS+=($!)
for _ in $(seq 30); do timeout 10 sacctmgr -n list cluster >/dev/null 2>&1 && break; sleep 0.5; done
sacctmgr -i add cluster schedlab-rec >"$WORK/sacctmgr.log" 2>&1 || true
sacctmgr -n -P list cluster format=cluster >>"$WORK/sacctmgr.log" 2>&1
grep -q '^schedlab-rec$' "$WORK/sacctmgr.log" || die "slurmdbd did not take the cluster: $(cat "$WORK/sacctmgr.log")"
log "slurmdbd up"
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

# --- the jobs -------------------------------------------------------------------------------
START=$(date -u +%Y-%m-%dT%H:%M:%S)
cd "$WORK"
sub() { sbatch --parsable -o /dev/null -e /dev/null "$@" | cut -d';' -f1; }
sub -J small -n 1 -t 00:05:00 --wrap 'sleep 4' >/dev/null
sub -J medium -n 2 -t 10 --wrap 'sleep 6' >/dev/null
sub -J wide -n 8 -t 1-00:00:00 --wrap 'sleep 3' >/dev/null          # waits for the others
sub -J steps -n 2 -t 00:02:00 --wrap 'srun -n 2 sleep 1; srun -n 1 true' >/dev/null
sub -J failed -n 1 --wrap 'sleep 1; exit 3' >/dev/null
sub -J timeout -n 1 -t 1 --wrap 'sleep 300' >/dev/null              # killed at its 1-minute limit
sub -J array -n 1 -t 00:01:00 --array 0-3 --wrap 'sleep 2' >/dev/null
# Slurm puts the components of a heterogeneous job on distinct nodes: on one
# node it never starts, and is cancelled with the held job (a heterogeneous
# job cancelled before it started).
het=$(sbatch --parsable -o /dev/null -e /dev/null -J het -t 00:01:00 -n 1 : -n 2 --wrap 'sleep 2' | cut -d';' -f1)
sub -J unlimited -p long -n 1 -t UNLIMITED --wrap 'sleep 2' >/dev/null
held=$(sub -J cancelled-pending -n 1 -H --wrap 'sleep 1')
kill_running=$(sub -J cancelled-running -n 1 --wrap 'sleep 300')
sleep 3
scancel "$held" "$het"
for _ in $(seq 60); do [ "$(squeue -h -j "$kill_running" -o %T 2>/dev/null)" = RUNNING ] && break; sleep 1; done
sleep 2
scancel "$kill_running"
log "waiting for the time-out (about 70 s)"
for _ in $(seq 180); do
  left=$(squeue -h -o %j | { grep -v -E '^(het|still-running|still-pending)$' || true; } | wc -l)
  [ "$left" = 0 ] && break
  sleep 1
done
# One job still running and one still pending when the log is taken.
sub -J still-running -n 8 --wrap 'sleep 300' >/dev/null
sub -J still-pending -n 1 --wrap 'sleep 1' >/dev/null
for _ in $(seq 30); do squeue -h -o %T | grep -q RUNNING && break; sleep 1; done
sleep 3
mkdir -p "$(dirname "$OUT")"
sacct --allusers --parsable2 --duplicates --starttime "$START" --format "$FIELDS" >"$OUT" || die "sacct failed"
log "wrote $OUT ($(wc -l <"$OUT") lines)"
scancel --user "$USER_NAME" 2>/dev/null || true
