#!/usr/bin/env bash
# The release builds of make test's last steps — the Debian package's (scripts/deb.sh) and the
# fuzzers' (scripts/fuzz.sh) — started at the lowest priority while the tests run: the tests
# mostly wait on the lab's virtual cards, so the builds take the cores they leave idle (on CI's
# two cores the run is minutes shorter). The later steps build again: they find the builds done,
# or SwiftPM's lock makes them wait for these.
#   scripts/background-builds.sh start    start both (their logs: /tmp/cardscan-background-*.log)
#   scripts/background-builds.sh stop     stop them if they still run (make test failed early)
set -uo pipefail
cd "$(dirname "$0")/.."
PIDS=/tmp/cardscan-background-builds.pids
case "${1:-}" in
  start)
    : > "$PIDS"
    DEB_BUILD_ONLY=1 setsid nice -n 19 scripts/deb.sh > /tmp/cardscan-background-deb.log 2>&1 & echo $! >> "$PIDS"
    FUZZ_BUILD_ONLY=1 setsid nice -n 19 scripts/fuzz.sh > /tmp/cardscan-background-fuzz.log 2>&1 & echo $! >> "$PIDS"
    echo "background builds started (nice 19): the package's and the fuzzers' release builds"
    ;;
  stop)
    [ -f "$PIDS" ] || exit 0
    while read -r pid; do kill -- "-$pid" 2>/dev/null || true; done < "$PIDS"
    rm -f "$PIDS"
    ;;
  *) echo "usage: scripts/background-builds.sh start|stop" >&2; exit 64 ;;
esac
