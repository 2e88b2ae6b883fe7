#!/usr/bin/env bash
# Fuzzes every parser of outside bytes with libFuzzer + AddressSanitizer (leaks included):
# builds Fuzz/ (release, -sanitize=fuzzer,address), then runs each target for FUZZ_SECONDS
# (default 60) from its seeds in Fuzz/Corpus/TARGET and prints, per target: executions,
# crashes, leaks and the slowest input. A crash or leak leaves its input in
# fuzz-artifacts/ and makes the script exit 1. docs/reliability.md has the campaign.
#   FUZZ_SECONDS=5 scripts/fuzz.sh            every target, 5 s each (CI's smoke run)
#   FUZZ_TARGETS="hex atr" scripts/fuzz.sh    only these
#   FUZZ_RUNS=10000000 FUZZ_SECONDS=3600 scripts/fuzz.sh   a campaign: 10 M inputs each (at most an hour)
#   FUZZ_BIN=/tmp/CardscanFuzz scripts/fuzz.sh             use that binary instead of building one
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH="${FUZZ_SECONDS:-60}"
if [ -n "${FUZZ_BIN:-}" ]; then
  BIN="$FUZZ_BIN"  # a binary built earlier (a long campaign running while the tree changes)
else
  # The coverage is asked for explicitly: swiftc's -sanitize=fuzzer adds it to a module compiled
  # file by file, but not under whole-module optimisation (release builds), where the Swift code
  # would run uninstrumented and libFuzzer would mutate blind (measured with Swift 6.3.1).
  FLAGS=(-c release --sanitize fuzzer --sanitize address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp)
  (cd Fuzz && swift build "${FLAGS[@]}" 2>&1 | grep -E "error|warning: var" || true)
  BIN="$(cd Fuzz && swift build "${FLAGS[@]}" --show-bin-path)/CardscanFuzz"
fi
[ -x "$BIN" ] || { echo "fuzz: the fuzz binary did not build" >&2; exit 1; }
TARGETS="${FUZZ_TARGETS:-$(ls Fuzz/Corpus)}"
# A binary without coverage counters for the Swift code fuzzes blind: refuse it before any run.
# Fully instrumented it has about 113,000 (2026-11-24); without the flags above, 6,000 (the C
# code only); one built part-way with them, 51,000.
counters=$(FUZZ_TARGET=hex "$BIN" -runs=0 2>&1 | grep -o 'Loaded 1 modules *([0-9]* inline' | grep -o '[0-9]*' | tail -1 || true)
if [ "${counters:-0}" -lt 90000 ]; then
  echo "fuzz: $BIN has ${counters:-no} coverage counters: the Swift code is not instrumented (see the build flags above)" >&2
  exit 1
fi
mkdir -p fuzz-artifacts
WORK="$(mktemp -d /tmp/cardscan-fuzz-XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
status=0
printf '%-18s %14s %10s %8s %6s %12s\n' target executions "exec/s" crashes leaks "slowest ms"
# Inputs up to 4 kB, except where a target's unit is smaller: a bit-layout record is at most
# 29 bytes (En1545), so 512 bytes already make 17 records for the report builder.
max_len_of() { case "$1" in bit-layout) echo 512 ;; *) echo 4096 ;; esac; }
for t in $TARGETS; do
  mkdir -p "$WORK/$t"
  set +e
  FUZZ_TARGET="$t" ASAN_OPTIONS="detect_leaks=1" "$BIN" -max_total_time="$SECONDS_EACH" -runs="${FUZZ_RUNS:--1}" -print_final_stats=1 \
    -timeout=5 -rss_limit_mb=2048 -max_len="$(max_len_of "$t")" -report_slow_units=1000 -artifact_prefix="fuzz-artifacts/$t-" \
    "$WORK/$t" "Fuzz/Corpus/$t" > "$WORK/$t.log" 2>&1
  rc=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$WORK/$t.log" | grep -o '[0-9]*$' | tail -1 || echo 0)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$WORK/$t.log" | grep -o '[0-9]*$' | tail -1 || echo 0)
  slow=$(grep -o 'slowest input [0-9.]* ms' "$WORK/$t.log" | grep -o '[0-9.]*' | tail -1 || echo 0)
  leaks=0; crashes=0
  if grep -q "LeakSanitizer" "$WORK/$t.log"; then leaks=1; fi
  if [ $rc -ne 0 ] && [ $leaks -eq 0 ]; then crashes=1; fi
  printf '%-18s %14s %10s %8s %6s %12s\n' "$t" "${runs:-0}" "${rate:-0}" "$crashes" "$leaks" "${slow:-?}"
  if [ $rc -ne 0 ]; then
    status=1
    cp "$WORK/$t.log" "fuzz-artifacts/$t.log"
    grep -m3 -E "ERROR|SUMMARY|Test unit written" "$WORK/$t.log" | sed 's/^/    /' || true
  fi
done
exit $status
