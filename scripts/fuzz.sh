#!/usr/bin/env bash
# Fuzzes every parser of outside bytes with libFuzzer + AddressSanitizer (leaks included):
# builds Fuzz/ (release, -sanitize=fuzzer,address), then runs each target for FUZZ_SECONDS
# (default 60) from its seeds in Fuzz/Corpus/TARGET and prints, per target: executions,
# crashes, leaks and the slowest input. A crash or leak leaves its input in
# fuzz-artifacts/ and makes the script exit 1. docs/reliability.md has the campaign.
#   FUZZ_SECONDS=3 scripts/fuzz.sh            every target, 3 s each (CI's smoke run, make fuzz-smoke)
#   FUZZ_TARGETS="hex atr" scripts/fuzz.sh    only these
#   FUZZ_RUNS=10000000 FUZZ_SECONDS=3600 scripts/fuzz.sh   a campaign: 10 M inputs each (at most an hour)
#   FUZZ_BIN=/tmp/CardscanFuzz scripts/fuzz.sh             use that binary instead of building one
#   FUZZ_KEEP=/var/tmp/cardscan-corpus scripts/fuzz.sh     keep each target's corpus there (a campaign
#                                                          in several runs goes on from what it found)
#   With FUZZ_KEEP, each run is also written to DIR/TARGET.runs (date, the binary's SHA-256,
#   executions, crashes, leaks, slowest ms), and the executions on that corpus by that binary
#   are added up: the account of a campaign in several sittings.
#   FUZZ_TIMEOUT=30 scripts/fuzz.sh   an input running longer (wall time) is a hang (default 5 s; a
#                                     campaign at nice 19 beside builds can be starved that long)
# A timeout's input is run again alone, and its time printed: a hang times out again.
set -euo pipefail
cd "$(dirname "$0")/.."
# Memory kept for the process's life that LeakSanitizer cannot see referenced (the file says which).
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
SECONDS_EACH="${FUZZ_SECONDS:-60}"
if [ -n "${FUZZ_BIN:-}" ]; then
  BIN="$FUZZ_BIN"  # a binary built earlier (a long campaign running while the tree changes)
else
  # The sanitizers are named twice: SwiftPM's --sanitize passes each to swiftc as its own
  # `-sanitize=` option, in no fixed order, and swiftc keeps only the last one, so a build had
  # either AddressSanitizer or libFuzzer's coverage in its Swift code, never both (measured with
  # Swift 6.3.1 and SwiftPM 6.3). The one comma-separated option after them gives both.
  FLAGS=(-c release --sanitize fuzzer --sanitize address -Xswiftc -sanitize=fuzzer,address)
  (cd Fuzz && swift build "${FLAGS[@]}" 2>&1 | grep -E "error|warning: var" || true)
  BIN="$(cd Fuzz && swift build "${FLAGS[@]}" --show-bin-path)/CardscanFuzz"
fi
[ -x "$BIN" ] || { echo "fuzz: the fuzz binary did not build" >&2; exit 1; }
[ -z "${FUZZ_BUILD_ONLY:-}" ] || exit 0   # FUZZ_BUILD_ONLY=1: the build only (scripts/background-builds.sh)
TARGETS="${FUZZ_TARGETS:-$(ls Fuzz/Corpus)}"
# A binary whose Swift code is not instrumented fuzzes blind, or misses memory errors: refuse
# it before any run. libFuzzer lists every function it has coverage for (-print_coverage): each
# of cardscan's modules must be among them. And a planted heap overflow must be reported by
# AddressSanitizer. (The counter total is no test: 53,000 with coverage alone, 113,000 with ASan's
# checks instrumented too, 6,000 for Yams' C code alone.)
functions="$(FUZZ_TARGET=hex "$BIN" -runs=0 -print_coverage=1 Fuzz/Corpus/hex 2>&1 | grep -E '^(UN)?COVERED_FUNC:' || true)"
for module in APDU FeliCaCommands NDEF ProfileLanguage CardReports ReadEngine CardReading PCSCTransport DESFireCommands CardSimulator CardDumps MIFARECommands CardscanFuzz; do
  if ! grep -qF " \$s${#module}${module}" <<< "$functions"; then
    echo "fuzz: $BIN has no coverage instrumentation in $module: the Swift code would be fuzzed blind (see the build flags above)" >&2
    exit 1
  fi
done
if ! grep -qE '^COVERED_FUNC: hits: [1-9][0-9]* .*\$s4APDU3Hex' <<< "$functions"; then
  echo "fuzz: the hex target's seeds did not reach Hex.parse: the binary does not run its targets" >&2
  exit 1
fi
WORK="$(mktemp -d /tmp/cardscan-fuzz-XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
canary="$(FUZZ_TARGET=asan-canary "$BIN" -runs=1 -artifact_prefix="$WORK/canary-" 2>&1 || true)"
if ! grep -q 'AddressSanitizer: heap-buffer-overflow' <<< "$canary"; then
  echo "fuzz: $BIN does not catch a heap overflow in Swift code: AddressSanitizer is missing (see the build flags above)" >&2
  exit 1
fi
mkdir -p fuzz-artifacts
status=0
binary_id="$(sha256sum "$BIN" | cut -c1-16)"
# Writes this run to the kept corpus's ledger and prints the corpus's total for this binary.
account() {  # target executions crashes leaks slowest
  [ -n "${FUZZ_KEEP:-}" ] || return 0
  local ledger="$FUZZ_KEEP/$1.runs"
  [ -f "$ledger" ] || echo "# date binary-sha256 executions crashes leaks slowest-ms" > "$ledger"
  echo "$(date -u +%FT%TZ) $binary_id $2 $3 $4 ${5:--}" >> "$ledger"
  awk -v id="$binary_id" '$2 == id { n += $3; k++; if ($4 + $5 > 0) bad++ }
    END { printf "    on this corpus by this binary: %.0f executions in %d run(s), %d with a crash or leak (%s)\n", n, k, bad, FILENAME }' "$ledger"
}
# Inputs over the campaign's 100 ms bound are kept by the harness (libFuzzer keeps only those
# that add coverage); each is run again alone, which tells a slow input from a busy machine.
# The harness writes them to this run's own folder (runs side by side share fuzz-artifacts/);
# each is then kept in fuzz-artifacts/ as TARGET-slow-….
rerun_slow() {  # target
  local f kept again
  for f in "$WORK/slow-$1"/slow-*; do
    [ -f "$f" ] || continue
    kept="fuzz-artifacts/$1-$(basename "$f")"
    cp "$f" "$kept"
    again="$(FUZZ_TARGET="$1" "$BIN" -runs=1 "$kept" 2>&1 | grep -o 'slowest input [0-9.]* ms' | tail -1 || true)"
    echo "    over 100 ms: $kept; run again alone: ${again:-did not run}"
  done
}
printf '%-18s %14s %10s %8s %6s %12s\n' target executions "exec/s" crashes leaks "slowest ms"
# Inputs up to 4 kB, except where a target's unit is smaller: a bit-layout record is at most
# 29 bytes (En1545), so 512 bytes already make 17 records for the report builder.
max_len_of() { case "$1" in bit-layout) echo 512 ;; *) echo 4096 ;; esac; }
for t in $TARGETS; do
  corpus="${FUZZ_KEEP:-$WORK}/$t"
  mkdir -p "$corpus"
  set +e
  mkdir -p "$WORK/slow-$t"
  FUZZ_TARGET="$t" FUZZ_SLOW_DIR="$WORK/slow-$t" ASAN_OPTIONS="detect_leaks=1" "$BIN" -max_total_time="$SECONDS_EACH" -runs="${FUZZ_RUNS:--1}" -print_final_stats=1 \
    -timeout="${FUZZ_TIMEOUT:-5}" -rss_limit_mb=2048 -max_len="$(max_len_of "$t")" -report_slow_units=1000 -artifact_prefix="fuzz-artifacts/$t-" \
    "$corpus" "Fuzz/Corpus/$t" > "$WORK/$t.log" 2>&1
  rc=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$WORK/$t.log" | grep -o '[0-9]*$' | tail -1 || echo 0)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$WORK/$t.log" | grep -o '[0-9]*$' | tail -1 || echo 0)
  slow=$(grep -oE 'slowest input (so far )?[0-9.]* ms' "$WORK/$t.log" | grep -oE '[0-9.]+' | tail -1 || true)
  leaks=0; crashes=0
  if grep -q "LeakSanitizer" "$WORK/$t.log"; then leaks=1; fi
  if [ $leaks -eq 0 ] && grep -q "libFuzzer: run interrupted" "$WORK/$t.log"; then
    # Stopped by a SIGINT (a campaign cut at a session's end): no crash; the slowest input so
    # far (printed by the harness as it happens, over 1 ms), marked as the run's "stopped".
    printf '%-18s %14s %10s %8s %6s %12s\n' "$t" "${runs:-0}" "${rate:-0}" 0 "$leaks" "${slow:-<1} stopped"
    account "$t" "${runs:-0}" 0 0 "${slow:-}"
    rerun_slow "$t"
    continue
  fi
  if [ $rc -ne 0 ] && [ $leaks -eq 0 ]; then crashes=1; fi
  printf '%-18s %14s %10s %8s %6s %12s\n' "$t" "${runs:-0}" "${rate:-0}" "$crashes" "$leaks" "${slow:-?}"
  account "$t" "${runs:-0}" "$crashes" "$leaks" "${slow:-}"
  rerun_slow "$t"
  if [ $rc -ne 0 ]; then
    status=1
    cp "$WORK/$t.log" "fuzz-artifacts/$t.log"
    grep -m3 -E "ERROR|SUMMARY|Test unit written" "$WORK/$t.log" | sed 's/^/    /' || true
    unit="$(grep -o 'Test unit written to [^ ]*' "$WORK/$t.log" | tail -1 | sed 's/^Test unit written to //')"
    if grep -q "libFuzzer: timeout" "$WORK/$t.log" && [ -f "$unit" ]; then
      # A machine too busy to run the fuzzer looks like a hang: tell them apart.
      again="$(FUZZ_TARGET="$t" "$BIN" -runs=1 -timeout="${FUZZ_TIMEOUT:-5}" "$unit" 2>&1 || true)"
      if grep -q "libFuzzer: timeout" <<< "$again"; then
        echo "    run again alone, it times out again: a hang"
      else
        echo "    run again alone: $(grep -o 'slowest input [0-9.]* ms' <<< "$again" | tail -1) (not a hang: the fuzzer was starved of CPU)"
      fi
    fi
  fi
done
exit $status
