#!/usr/bin/env bash
# Two clients on one reader: `cardscan watch --jsonl` reads a card tapped again and again
# while a second real PC/SC client (pyscard, Tests/LabSupport/rival_client.py) SELECTs
# another application on the same reader in a loop, with no transaction. The card is one
# application of several (`cardsim --multi-app`): a foreign SELECT really leaves the transit
# application, so a read not protected by its transaction would break.
#
#   scripts/two-clients.sh                   200 taps (about 3 minutes)
#   TWO_CLIENTS_TAPS=20 scripts/two-clients.sh   the quick form (make test)
#
# Checks: every report equal to the card's expected report (all keys but `exchanges`), no
# tap unread, and the rival never waits longer than one read (process start to exit of
# `cardscan --profile shanghai-transit`, the median of 10, measured first on the same card)
# plus pcsc-lite's lock poll (the rival's library looks again every 100 ms while another
# client's transaction holds the card: PCSCLITE_LOCK_POLL_RATE).
#
# The rival pauses TWO_CLIENTS_INTERVAL_MS (default 5) between SELECTs, 200 a second; with 0
# it asks as fast as pcscd answers (thousands a second) and starves cardscan's
# SCardBeginTransaction, which pcsc-lite also polls every 100 ms: taps go unread
# (docs/reliability.md §A second client has both).
# Prints the figures as Markdown (docs/reliability.md §A second client). Exits 1 otherwise.
#
# Environment: TWO_CLIENTS_TAPS (200), TWO_CLIENTS_INTERVAL_MS (5), CARDSCAN_BIN (the build folder).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
TAPS="${TWO_CLIENTS_TAPS:-200}"
INTERVAL="${TWO_CLIENTS_INTERVAL_MS:-5}"
OUT="${TWO_CLIENTS_DIR:-/tmp/cardscan-two-clients}"
NAME=two-clients
SHANGHAI=Tests/Fixtures/shanghai-transit/full-read.apdu
READER="Virtual PCD 00 00"
. scripts/lab-session.sh

# One read, for the bound: the card held steadily on the reader.
if [ -n "${TWO_CLIENTS_ONE_READ_MS:-}" ]; then one_read=$TWO_CLIENTS_ONE_READ_MS; else
(cardsim vpcd "$SHANGHAI" --port 35963 --multi-app > "$OUT/cardsim-steady.log" 2>&1) &
S=$!
pids=("$S")
one_read=$(python3 - "$BIN/cardscan" <<'EOF'
import subprocess, sys, time, statistics
times = []
for _ in range(10):
    a = time.perf_counter()
    subprocess.run([sys.argv[1], "--profile", "shanghai-transit", "--json", "--timeout", "5"], stdout=subprocess.DEVNULL, check=True)
    times.append((time.perf_counter() - a) * 1000)
print(f"{statistics.median(times):.1f}")
EOF
)
kill "$S"; wait "$S" 2>/dev/null || true
scripts/lab.sh stop-cards >&2
fi
say "one read (process start to exit, median of 10): $one_read ms"

(cardsim vpcd "$SHANGHAI" --port 35963 --multi-app --cycle 700:400 --taps "$TAPS" > "$OUT/cardsim.log" 2>&1) &
A=$!
"$BIN/cardscan" watch --jsonl ${TWO_CLIENTS_TRACE:+--trace} -r "$READER" > "$OUT/watch.jsonl" 2> "$OUT/watch.err" &
W=$!
if [ -e "$NETNS_PATH" ]; then RUN=(nsenter --net="$NETNS_PATH"); else RUN=(); fi
STOP="$OUT/rival.stop"
/usr/bin/python3 Tests/LabSupport/rival_client.py "$READER" "$STOP" "$OUT/rival.count" 3600 "$INTERVAL" > "$OUT/rival.log" 2>&1 &
R=$!
pids=("$A" "$W" "$R")
say "watch $W, cardsim $A ($TAPS taps of a multi-application Shanghai card), rival $R"
start=$(date +%s)
while kill -0 "$A" 2>/dev/null; do
  kill -0 "$W" 2>/dev/null || { say "watch exited: $(cat "$OUT/watch.err")"; exit 1; }
  sleep 0.25
done
sleep 1.5
touch "$STOP"
wait "$R" 2>/dev/null || true
kill -TERM "$W" 2>/dev/null || true
wait "$W" 2>/dev/null || true
elapsed=$(( $(date +%s) - start ))

python3 - "$OUT" "$TAPS" "$elapsed" "$one_read" "$INTERVAL" <<'EOF'
import json, sys
out, taps, elapsed, one_read, interval = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
POLL = 100.0  # ms, pcsc-lite's PCSCLITE_LOCK_POLL_RATE
expected = json.load(open("Tests/Fixtures/shanghai-transit/full-read.expected.json"))
core = lambda r: {k: v for k, v in r.items() if k not in ("exchanges", "reader", "readAt")}  # where and when differ
reports = [json.loads(l) for l in open(f"{out}/watch.jsonl") if l.strip()]
good = sum(1 for r in reports if core(r) == core(expected))
answered, refused, longest = open(f"{out}/rival.count").read().split()
answered, refused, longest = int(answered), int(refused), float(longest)
print("| taps | rival's pause | reports | equal to the expected report | rival SELECTs answered | rival's longest wait | one read |")
print("|---|---|---|---|---|---|---|")
print(f"| {taps} | {interval} ms | {len(reports)} | {good} | {answered} | {longest:.1f} ms | {one_read:.1f} ms |")
print()
print(f"{len(reports)} reports in {elapsed} s.")
problems = []
if good != len(reports):
    problems.append(f"{len(reports) - good} report(s) differ from the expected report")
if len(reports) < taps:
    problems.append(f"{taps - len(reports)} tap(s) gave no report")
if answered < taps:
    problems.append(f"the rival did not really run ({answered} SELECTs answered)")
if longest > one_read + POLL:
    problems.append(f"the rival waited {longest:.1f} ms, longer than one read ({one_read:.1f} ms) and pcsc-lite's {POLL:.0f} ms lock poll")
for p in problems:
    print("two-clients: FAILED: " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
EOF
