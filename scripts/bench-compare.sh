#!/usr/bin/env bash
# Before/after in one run: builds BASE (a git revision) in a temporary worktree next to the
# work tree, then measures both interleaved, so the noisy machine treats them alike:
#   1. per-APDU time through pcscd + vpcd + cardsim (C floor, BASE's and this tree's Swift client)
#   2. engine replay throughput (transcripts/s, parsed once) over the fixtures both trees have,
#      each build with its own tree's copy; and this tree's build over all of today's fixtures
#   3. `cardscan replay` wall time (median of 30)
#   4. `cardscan test` over a corpus of the fixtures both trees have (--jobs 1 and 2, each build
#      checking its own tree's copy) beside the Python parse+decode loop (scripts/bench/corpus.py)
# usage: scripts/bench-compare.sh BASE_REVISION     (e.g. scripts/bench-compare.sh 7399313)
#   BENCH_SECTIONS="2 3 4"  only these sections (default all; 1 needs the lab's pcscd)
#   BENCH_STATIC=1          also build both statically (as make install does) for section 3
#   BENCH_ROUNDS=5 BENCH_APDUS=2000 BENCH_CORPUS=20000
set -euo pipefail
cd "$(dirname "$0")/.."
BASE="${1:?usage: scripts/bench-compare.sh BASE_REVISION}"
N="${BENCH_APDUS:-2000}"
ROUNDS="${BENCH_ROUNDS:-5}"
SECTIONS=" ${BENCH_SECTIONS:-1 2 3 4} "
wants() { [[ "$SECTIONS" == *" $1 "* ]]; }
WT="$(mktemp -d /tmp/cardscan-base-XXXXXX)"
SHARED="$(mktemp -d /tmp/cardscan-shared-XXXXXX)"
cleanup() {
  scripts/lab.sh stop >/dev/null 2>&1 || true
  git worktree remove --force "$WT" >/dev/null 2>&1 || rm -rf "$WT"
  rm -rf "$SHARED"
}
trap cleanup EXIT
git worktree add --detach "$WT" "$BASE" >/dev/null 2>&1
echo "== building $BASE (in $WT) and the work tree, release"
for dir in "$WT" .; do
  (cd "$dir" && for p in CardscanBench cardscan cardsim; do swift build -c release --product "$p" >/dev/null 2>&1; done)
done
OLD="$(cd "$WT" && swift build -c release --show-bin-path)"
if [ -n "${BENCH_STATIC:-}" ]; then
  # The installed form (make install's static Swift runtime), for the replay wall times.
  for dir in "$WT" .; do
    (cd "$dir" && swift build -c release --static-swift-stdlib --scratch-path .build-static --product cardscan >/dev/null 2>&1)
  done
  STATIC_OLD="$WT/.build-static/release/cardscan" STATIC_NEW="$PWD/.build-static/release/cardscan"
fi
NEW="$(swift build -c release --show-bin-path)"
cc -O2 -o "$NEW/bench-floor" scripts/bench/floor.c $(pkg-config --cflags --libs libpcsclite)
FIX=Tests/Fixtures/shanghai-transit/full-read.apdu

if wants 1; then
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
fi

if wants 2; then
echo "== 2. engine replay throughput (parsed once; median of the rounds)"
# The fixtures both trees have, each build reading its own tree's copy with its own profiles.
(cd "$WT/Tests/Fixtures" && find . -name '*.apdu' -not -path '*bad-*') | while read -r f; do
  [ -f "Tests/Fixtures/$f" ] || continue
  for side in before after; do
    src="$WT/Tests/Fixtures"; [ "$side" = after ] && src=Tests/Fixtures
    mkdir -p "$SHARED/$side/$(dirname "$f")" && cp "$src/$f" "$SHARED/$side/$f"
  done
done
shared=$(find "$SHARED" -path "$SHARED/after/*" -name '*.apdu' | wc -l)
echo "  fixtures both trees have: $shared; today's: $(find Tests/Fixtures -name '*.apdu' -not -path '*bad-*' | wc -l)"
[ "$shared" -gt 0 ] || { echo "  $BASE has none of today's fixtures: nothing to compare" >&2; exit 1; }
for _ in $(seq 1 "$ROUNDS"); do
  echo "before $(BENCH_ENGINE_ONLY=1 "$OLD/CardscanBench" replay "$SHARED/before" "$WT/profiles" 1)"
  echo "after $(BENCH_ENGINE_ONLY=1 "$NEW/CardscanBench" replay "$SHARED/after" profiles 1)"
  echo "today $(BENCH_ENGINE_ONLY=1 "$NEW/CardscanBench" replay Tests/Fixtures profiles 1)"
done | /usr/bin/python3 -c '
import sys, statistics as st
rows = {}
for line in sys.stdin:
    k, v = line.split(); rows.setdefault(k, []).append(float(v))
b, a, t = st.median(rows["before"]), st.median(rows["after"]), st.median(rows["today"])
print(f"  before, shared fixtures {b:9.0f} transcripts/s"); print(f"  after,  shared fixtures {a:9.0f} transcripts/s   ({a / b:.2f}x)")
print(f"  after,  all of today fixtures {t:9.0f} transcripts/s")
'
fi

if wants 3; then
echo "== 3. cardscan replay, wall time (median of 30, interleaved; each build replays its own tree's copy)"
# The detected replay loads every built-in profile: each build its own tree's (counted below;
# a later tree's build cannot load an earlier tree's set, whose known-commands list is elsewhere).
echo "  built-in profiles: before $(ls "$WT"/profiles/*.yaml | wc -l), after $(ls profiles/*.yaml | wc -l)"
/usr/bin/python3 - "$OLD/cardscan" "$NEW/cardscan" "$WT" "${STATIC_OLD:-}" "${STATIC_NEW:-}" <<'PY'
import os, subprocess, sys, time, statistics as st
old, new, wt, static_old, static_new = sys.argv[1:6]
cases = [("names its profile", "Tests/Fixtures/shanghai-transit/full-read.apdu"),
         ("needs detection", "Tests/Fixtures/navigo/detected.apdu")]
builds = [("before", old, True, None), ("after", new, False, None)]
if static_old and static_new:
    builds += [("before, static", static_old, True, dict(os.environ, CARDSCAN_BUILTIN_PROFILES=f"{wt}/profiles")),
               ("after, static", static_new, False, dict(os.environ, CARDSCAN_BUILTIN_PROFILES=f"{os.getcwd()}/profiles"))]
for what, fix in cases:
    if not os.path.exists(f"{wt}/{fix}"):
        print(f"  {what:18} (the base has no {fix}: skipped)")
        continue
    times = {k: [] for k, *_ in builds}
    for _ in range(30):
        for k, exe, theirs, env in builds:
            path = f"{wt}/{fix}" if theirs else fix
            a = time.perf_counter(); subprocess.run([exe, "replay", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
            times[k].append((time.perf_counter() - a) * 1000)
    b = st.median(times["before"])
    for k, *_ in builds:
        m = st.median(times[k])
        print(f"  {what:18} {k:23} {m:5.1f} ms" + ("" if k == "before" else f"   ({m / b:.2f}x before)"))
PY
fi

if wants 4; then
echo "== 4. cardscan test over a corpus (transcripts/s, medians of the rounds)"
/usr/bin/python3 scripts/bench/corpus.py "$NEW/cardscan" "${BENCH_CORPUS:-20000}" "$ROUNDS" "before=$OLD/cardscan@$WT/Tests/Fixtures"
fi
