#!/usr/bin/env bash
# make release VERSION=x.y.z: writes the version to VERSION and turns CHANGELOG.md's
# "## [Unreleased]" section into "## [x.y.z] - today" under a new, empty Unreleased (Keep a
# Changelog). make then builds the package. Commit and tag (vx.y.z) yourself once it is right.
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:?usage: scripts/release.sh x.y.z}"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || { echo "release: '$version' is not a version (x.y.z)" >&2; exit 64; }
grep -q "^## \[$version\]" CHANGELOG.md && { echo "release: CHANGELOG.md has $version already" >&2; exit 65; }
grep -q '^## \[Unreleased\]$' CHANGELOG.md || { echo "release: CHANGELOG.md has no '## [Unreleased]' heading" >&2; exit 65; }
echo "$version" > VERSION
today="$(date -u +%Y-%m-%d)"
python3 - "$version" "$today" <<'PY'
import sys
version, today = sys.argv[1:]
text = open("CHANGELOG.md", encoding="utf-8").read()
text = text.replace("## [Unreleased]\n", f"## [Unreleased]\n\n## [{version}] - {today}\n", 1)
open("CHANGELOG.md", "w", encoding="utf-8").write(text)
PY
echo "release: VERSION $version, CHANGELOG.md section $version - $today"
