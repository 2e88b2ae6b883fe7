#!/usr/bin/env bash
# Installs the package make deb built with dpkg, uses it as a user would, then purges it and
# checks that nothing it installed is left (make deb-test; part of make test). The package's
# dependencies are the lab's packages, which make setup installs.
#   scripts/deb-install-test.sh [cardscan_VERSION_ARCH.deb]
set -euo pipefail
cd "$(dirname "$0")/.."
DEB="${1:-cardscan_$(tr -d ' \n' < VERSION)_$(dpkg --print-architecture).deb}"
[ -f "$DEB" ] || { echo "deb-test: no $DEB (make deb builds it)" >&2; exit 1; }
if dpkg -s cardscan >/dev/null 2>&1; then echo "deb-test: a cardscan package is installed already: dpkg --purge cardscan first" >&2; exit 1; fi
FILES="$(dpkg-deb -c "$DEB" | awk '{print substr($6, 2)}' | grep -v '/$')"
WORK="$(mktemp -d /tmp/cardscan-deb-test-XXXXXX)"
cleanup() { dpkg --purge cardscan >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT
dpkg -i "$DEB" >/dev/null
cp Tests/Fixtures/shanghai-transit/full-read.apdu "$WORK/card.apdu"
cd "$WORK"
# As installed: by name through PATH, from another folder, with no build tree around.
env -i PATH=/usr/bin:/bin HOME="$WORK" cardscan --version
env -i PATH=/usr/bin:/bin HOME="$WORK" cardscan profiles list > profiles.txt
grep -q "shanghai-transit" profiles.txt || { echo "deb-test: profiles list has no shanghai-transit" >&2; exit 1; }
echo "profiles list: $(grep -c built-in profiles.txt) built-in profiles"
env -i PATH=/usr/bin:/bin HOME="$WORK" cardscan replay card.apdu > replay.txt
sed -n 1,4p replay.txt
grep -q "Balance  ¥57.10" replay.txt || { echo "deb-test: the replay did not give the Shanghai card's balance" >&2; exit 1; }
man -w cardscan >/dev/null && man -w cardsim >/dev/null
[ -f /usr/share/bash-completion/completions/cardscan ] && [ -f /usr/share/zsh/vendor-completions/_cardscan ] && [ -f /usr/share/fish/vendor_completions.d/cardscan.fish ]
cd - >/dev/null
dpkg --purge cardscan >/dev/null
left=""
for f in $FILES; do [ -e "$f" ] && left="$left $f"; done
[ -d /usr/share/cardscan ] && left="$left /usr/share/cardscan"
[ -d /usr/share/doc/cardscan ] && left="$left /usr/share/doc/cardscan"
if [ -n "$left" ]; then echo "deb-test: left after purge:$left" >&2; exit 1; fi
echo "deb-test: installed, used, purged; nothing left of its $(echo "$FILES" | wc -l) files"
