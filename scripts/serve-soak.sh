#!/usr/bin/env bash
# The serve soak (make soak-serve): `cardscan serve` through the real pcscd while a virtual reader
# taps the Shanghai card again and again (cardsim vpcd --cycle), with an events client (curl -N)
# and a page (headless Chromium, when installed) open all along.
#
#   scripts/serve-soak.sh                     1,000 taps: RSS and descriptors flat, every tap saved
#   SERVE_SOAK_KILL=200 scripts/serve-soak.sh 200 taps, serve killed with SIGKILL halfway: every
#                                             read the events reported before the kill is in the
#                                             history, and PRAGMA integrity_check says ok
#
# Prints a Markdown table of the samples (every 100 reads: the server's RSS and open descriptors)
# and exits 1 when a read is lost, the file is damaged, or descriptors grow.
# Environment: SERVE_SOAK_TAPS (1000), SERVE_SOAK_KILL (unset), SOAK_PRESENT_MS (700),
# SOAK_ABSENT_MS (400), SOAK_DIR (/tmp/cardscan-serve-soak), CARDSCAN_BIN (the build folder).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
TAPS="${SERVE_SOAK_TAPS:-1000}"
KILL_AT="${SERVE_SOAK_KILL:-}"
[ -n "$KILL_AT" ] && TAPS="$KILL_AT"
PRESENT="${SOAK_PRESENT_MS:-700}"
ABSENT="${SOAK_ABSENT_MS:-400}"
OUT="${SOAK_DIR:-/tmp/cardscan-serve-soak}"
NAME=serve-soak
PORT=18780
SHANGHAI=Tests/Fixtures/shanghai-transit/full-read.apdu
. scripts/lab-session.sh
export XDG_DATA_HOME="$OUT/data"
DB="$XDG_DATA_HOME/cardscan/history.sqlite"

start_serve() {
  "$BIN/cardscan" serve --port "$PORT" >> "$OUT/serve.out" 2>> "$OUT/serve.err" &
  S=$!
  pids+=("$S")
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/api/readers" && break; sleep 0.1; done
}
start_serve
(curl -s -N "http://127.0.0.1:$PORT/api/events" > "$OUT/events.txt" 2>/dev/null || true) &
pids+=($!)
if [ -x /usr/bin/chromium ]; then
  # `exec`: the PID kept is the browser's, which takes its helpers with it when stopped.
  (exec chromium --headless=new --no-sandbox --disable-gpu --disable-crash-reporter --disable-breakpad \
    --remote-debugging-port=0 "http://127.0.0.1:$PORT/" > /dev/null 2>&1) &
  pids+=($!)
fi
(cardsim vpcd "$SHANGHAI" --port 35963 --cycle "$PRESENT:$ABSENT" --taps "$TAPS" > "$OUT/cardsim.log" 2>&1) &
C=$!
pids+=("$C")
say "serve pid $S on port $PORT; cardsim $C (Shanghai on 00 00); $TAPS taps, ${PRESENT} ms on, ${ABSENT} ms off"

# The reads the events reported with a report (a read that failed before anything was read, the
# card gone at once, has nothing to keep: its event says `"report":null`).
reports() { grep '"type":"report"' "$OUT/events.txt" 2>/dev/null | grep -c '"report":{' || true; }
echo "| reads | RSS kB | open fds |" > "$OUT/samples.md"
echo "|---|---|---|" >> "$OUT/samples.md"
next=100
killed=no
while kill -0 "$C" 2>/dev/null; do
  n=$(reports)
  if [ -n "$KILL_AT" ] && [ "$killed" = no ] && [ "$n" -ge $((KILL_AT / 2)) ]; then
    before=$(reports)
    kill -9 "$S"
    killed=yes
    say "killed serve (SIGKILL) after $before reported reads"
    sqlite_reads=$(/usr/bin/python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('select count(*) from read').fetchone()[0]); print(c.execute('pragma integrity_check').fetchone()[0])" "$DB")
    echo "after the kill: $sqlite_reads" | tr '\n' ' '; echo
    saved=$(echo "$sqlite_reads" | head -1); check=$(echo "$sqlite_reads" | tail -1)
    [ "$check" = ok ] || { say "FAIL integrity_check: $check"; exit 1; }
    [ "$saved" -ge "$before" ] || { say "FAIL $before reads reported, $saved in the history"; exit 1; }
    say "ok: $before reported, $saved kept, integrity_check ok"
    break
  fi
  if [ "$n" -ge "$next" ] && [ "$killed" = no ]; then
    rss=$(awk '/VmRSS/ {print $2}' "/proc/$S/status"); fds=$(ls "/proc/$S/fd" | wc -l)
    echo "| $n | $rss | $fds |" >> "$OUT/samples.md"
    next=$((next + 100))
  fi
  sleep 0.2
done
if [ -z "$KILL_AT" ]; then
  sleep 2
  n=$(reports)
  saved=$(/usr/bin/python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from read').fetchone()[0])" "$DB")
  cat "$OUT/samples.md"
  echo
  echo "$TAPS taps; $n reads reported; $saved kept in the history"
  [ "$saved" -ge "$n" ] || { say "FAIL: $n reported, $saved kept"; exit 1; }
  first=$(sed -n 3p "$OUT/samples.md" | awk -F'|' '{print $4+0}'); last=$(tail -1 "$OUT/samples.md" | awk -F'|' '{print $4+0}')
  [ "$last" -le $((first + 2)) ] || { say "FAIL: descriptors grew from $first to $last"; exit 1; }
fi
say "done"
