# Sourced by the lab's long runs (scripts/soak.sh, scripts/two-clients.sh): the build to use,
# a fresh output folder, the lab's pcscd with empty readers, `cardsim` run inside the lab's
# network namespace, and every process started kept in `pids` and stopped on exit.
# Expects ROOT (the repository, the current directory), OUT and NAME (for messages).
NETNS_PATH=/run/netns/cardscan-lab
BIN="${CARDSCAN_BIN:-$(swift build --show-bin-path)}"
[ -x "$BIN/cardscan" ] && [ -x "$BIN/cardsim" ] || { swift build >&2; BIN="$(swift build --show-bin-path)"; }
rm -rf "$OUT" && mkdir -p "$OUT"
say() { printf '%s: %s\n' "$NAME" "$*" >&2; }

# A lab this run starts (and the pcscd a soak starts again halfway) is stopped when it ends; one
# that was running before is left running, with its readers empty.
[ -f "${CARDSCAN_LAB_DIR:-/tmp/cardscan-lab}/pcscd.pid" ] && lab_was_running=yes || lab_was_running=no
scripts/lab.sh start >&2
scripts/lab.sh stop-cards >&2

# A cardsim in the lab's network namespace (when there is one); `exec` keeps $! its own PID.
cardsim() {
  if [ -e "$NETNS_PATH" ]; then exec nsenter --net="$NETNS_PATH" "$BIN/cardsim" "$@"; else exec "$BIN/cardsim" "$@"; fi
}
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if [ "$lab_was_running" = no ]; then scripts/lab.sh stop >&2 || true; else scripts/lab.sh stop-cards >&2 || true; fi
}
trap cleanup EXIT
