#!/usr/bin/env bash
# Before/after in one run: builds BASE (a git revision) in a temporary worktree next to the
# work tree, then measures both interleaved, so the noisy machine treats them alike:
#   1. per-APDU time through pcscd + vpcd + cardsim (C floor, BASE's and this tree's Swift client)
#   2. engine replay throughput (transcripts/s, parsed once) over this tree's fixtures
#   3. `cardscan replay` wall time (median of 30)
# usage: scripts/bench-compare.sh BASE_REVISION     (e.g. scripts/bench-compare.sh 7399313)
set -euo pipefail
cd "$(dirname "$0")/.."
BASE="${1:?usage: scripts/bench-compare.sh BASE_REVISION}"
N="${BENCH_APDUS:-2000}"
ROUNDS="${BENCH_ROUNDS:-5}"
WT="$(mktemp -d /tmp/cardscan-base-XXXXXX)"
cleanup() { scripts/lab.sh stop >/dev/null 2>&1 || true; git worktree remove --force "$WT" >/dev/null 2>&1 || rm -rf "$WT"; }
trap cleanup EXIT
git worktree add --detach "$WT" "$BASE" >/dev/null 2>&1
echo "== building $BASE (in $WT) and the work tree, release"
for dir in "$WT" .; do
  (cd "$dir" && for p in CardscanBench cardscan cardsim; do swift build -c release --product "$p" >/dev/null 2>&1; done)
done
OLD="$(cd "$WT" && swift build -c release --show-bin-path)"
NEW="$(swift build -c release --show-bin-path)"
cc -O2 -o "$NEW/bench-floor" scripts/bench/floor.c $(pkg-config --cflags --libs libpcsclite)
FIX=Tests/Fixtures/shanghai-transit/full-read.apdu

echo "== 1. per-APDU time through pcscd + vpcd + cardsim ($N APDUs, $ROUNDS rounds, interleaved)"
CARDSCAN_BIN="$NEW" scripts/lab.sh start "$FIX" 35963 >/dev/null 2>&1
for _ in $(seq 1 "$ROUNDS"); do
  "$NEW/bench-floor" "Virtual PCD 00 00" "$N"
  "$OLD/CardscanBench" pcsc "Virtual PCD 00 00" "$N" | sed 's/^swift/before/'
  "$NEW/CardscanBench" pcsc "Virtual PCD 00 00" "$N" | sed 's/^swift/after/'
done | /usr/bin/python3 -c '
import sys, statistics as st
rows = {}
for line in sys.stdin:
    k, *v = line.split()
    rows.setdefault(k, []).append(float(v[1]))
floor = st.median(rows["c"])
for k in ["c", "before", "after"]:
    m = st.median(rows[k]); print(f"  {k:7} median {m:6.1f} us per APDU   ({m / floor:.2f}x the C floor)")
'
scripts/lab.sh stop >/dev/null 2>&1

echo "== 2. engine replay throughput over the fixtures (parsed once; median of the rounds' medians)"
for _ in $(seq 1 "$ROUNDS"); do
  echo "before $(BENCH_ENGINE_ONLY=1 "$OLD/CardscanBench" replay "$WT/Tests/Fixtures" "$WT/profiles" 1)"
  echo "after $(BENCH_ENGINE_ONLY=1 "$NEW/CardscanBench" replay Tests/Fixtures profiles 1)"
done | /usr/bin/python3 -c '
import sys, statistics as st
rows = {}
for line in sys.stdin:
    k, v = line.split(); rows.setdefault(k, []).append(float(v))
b, a = st.median(rows["before"]), st.median(rows["after"])
print(f"  before {b:9.0f} transcripts/s"); print(f"  after  {a:9.0f} transcripts/s   ({a / b:.2f}x)")
'

echo "== 3. cardscan replay, wall time (median of 30, interleaved)"
/usr/bin/python3 - "$OLD/cardscan" "$NEW/cardscan" "$FIX" <<'PY'
import subprocess, sys, time, statistics as st
old, new, fix = sys.argv[1:4]
times = {"before": [], "after": []}
for _ in range(30):
    for k, exe in (("before", old), ("after", new)):
        a = time.perf_counter(); subprocess.run([exe, "replay", fix], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times[k].append((time.perf_counter() - a) * 1000)
b, a = st.median(times["before"]), st.median(times["after"])
print(f"  before {b:5.1f} ms"); print(f"  after  {a:5.1f} ms   ({a / b:.2f}x)")
PY
