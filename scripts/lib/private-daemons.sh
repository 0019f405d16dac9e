# Shared by scripts/slurm-test.sh and scripts/record-sacct.sh: daemons started
# under a private folder ($WORK) and stopped in reverse order on exit.
# The caller sets WORK, declares PIDS=() and defines log/die.

# Stops every pid in PIDS, last started first; kill -9 after WAIT_TENTHS tenths of a second.
stop_daemons() {
  local wait_tenths=${1:-50} i pid
  [ "${#PIDS[@]}" -gt 0 ] || return 0
  log "stopping daemons (pids ${PIDS[*]})"
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do kill "${PIDS[$i]}" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq "$wait_tenths"); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
}

# Starts munged with a fresh key and its own socket; sets MUNGE_SOCKET.
start_munge() {
  mkdir -p "$WORK/munge" && chmod 700 "$WORK/munge"
  dd if=/dev/urandom of="$WORK/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$WORK/munge/munge.key"
  MUNGE_SOCKET="$WORK/munge/munge.socket"
  munged --foreground --force --socket="$MUNGE_SOCKET" --key-file="$WORK/munge/munge.key" \
    --pid-file="$WORK/munge/munged.pid" --seed-file="$WORK/munge/munge.seed" --log-file="$WORK/munged.log" >/dev/null 2>&1 &
  PIDS+=($!)
  for _ in $(seq 50); do [ -S "$MUNGE_SOCKET" ] && break; sleep 0.1; done
  [ -S "$MUNGE_SOCKET" ] || die "munged did not start"
  munge --socket="$MUNGE_SOCKET" -n | unmunge --socket="$MUNGE_SOCKET" >/dev/null || die "munge round-trip failed"
}
