#!/usr/bin/env bash
# Runs `swift test` with its whole output streamed as usual, and when it fails, repeats the
# failed tests' lines (each "✘ … recorded an issue" with the lines after it) at the very end:
# a CI log that keeps only its tail still says which test failed and why.
set -uo pipefail
log="$(mktemp -t cardscan-swift-test.XXXXXX)"
trap 'rm -f "$log"' EXIT
swift test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
    echo
    echo "=== swift test failed (exit $status); the failures again: ==="
    # Each "✘" line with the lines under it up to the next test's line (an error's message
    # can run over several lines, and its reason is often on the last); a crash's "Fatal
    # error" lines too.
    awk '/^✘/ { print; keep = 1; next } keep && !/^(◇|✔)/ { print; next } { keep = 0 } /Fatal error|error: / { print }' "$log" | head -300
fi
exit "$status"
