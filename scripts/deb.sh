#!/usr/bin/env bash
# Builds the Debian package of cardscan (make deb): cardscan_VERSION_ARCH.deb in the working
# tree, from the release build with the Swift runtime linked in statically (as make install).
#   /usr/bin/cardscan, /usr/bin/cardsim            stripped
#   /usr/share/cardscan/profiles/...               the built-in profiles, layouts, types, tables
#   /usr/share/man/man1/cardscan.1.gz, cardscan-COMMAND.1.gz (one a command), cardsim*.1.gz
#   /usr/share/bash-completion/completions/cardscan, /usr/share/zsh/vendor-completions/_cardscan,
#   /usr/share/fish/vendor_completions.d/cardscan.fish
#   /usr/share/doc/cardscan/{copyright,changelog.gz,changelog.Debian.gz,NOTICE}
# Depends are worked out by dpkg-shlibdeps from the libraries the binaries load (pcsc-lite,
# libnfc, the C and C++ runtimes). Then lintian checks the package: any error fails the build;
# the warnings kept are listed in scripts/deb/lintian-overrides with the reason for each.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION="$(tr -d ' \n' < VERSION)"
ARCH="$(dpkg --print-architecture)"
DEB="cardscan_${VERSION}_${ARCH}.deb"
STAGE="$(mktemp -d /tmp/cardscan-deb-XXXXXX)"
trap 'rm -rf "$STAGE"' EXIT

swift build -c release --static-swift-stdlib --scratch-path .build-static --product cardscan >/dev/null
swift build -c release --static-swift-stdlib --scratch-path .build-static --product cardsim >/dev/null
[ -z "${DEB_BUILD_ONLY:-}" ] || exit 0   # DEB_BUILD_ONLY=1: the builds only (scripts/background-builds.sh)
make --no-print-directory install DESTDIR="$STAGE/root" PREFIX=/usr INSTALL_BIN=.build-static/release >/dev/null
R="$STAGE/root"
# Debian's places: zsh's vendor completions; man pages compressed; binaries stripped.
mkdir -p "$R/usr/share/zsh/vendor-completions"
mv "$R/usr/share/zsh/site-functions/_cardscan" "$R/usr/share/zsh/vendor-completions/_cardscan"
rmdir "$R/usr/share/zsh/site-functions"
gzip -9n "$R"/usr/share/man/man1/*.1
# bash-completion sources the file: no interpreter line.
sed -i '1{/^#!/d}' "$R/usr/share/bash-completion/completions/cardscan"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$R/usr/bin/cardscan" "$R/usr/bin/cardsim"
DOC="$R/usr/share/doc/cardscan"
mkdir -p "$DOC"
{
  echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
  echo "Upstream-Name: cardscan"
  echo "Source: https://github.com/cardscan/cardscan"
  echo
  echo "Files: *"
  echo "Copyright: 2026 the cardscan authors"
  echo "License: Apache-2.0"
  echo
  echo "License: Apache-2.0"
  echo " Licensed under the Apache License, Version 2.0 (the \"License\"); you may not use"
  echo " this file except in compliance with the License. You may obtain a copy of the"
  echo " License at http://www.apache.org/licenses/LICENSE-2.0"
  echo " ."
  echo " Unless required by applicable law or agreed to in writing, software distributed"
  echo " under the License is distributed on an \"AS IS\" BASIS, WITHOUT WARRANTIES OR"
  echo " CONDITIONS OF ANY KIND, either express or implied. See the License for the"
  echo " specific language governing permissions and limitations under the License."
  echo " ."
  echo " On Debian systems, the complete text of the Apache License, Version 2.0 can be"
  echo " found in \"/usr/share/common-licenses/Apache-2.0\"."
} > "$DOC/copyright"
install -m 644 NOTICE "$DOC/NOTICE"
gzip -9n -c CHANGELOG.md > "$DOC/changelog.gz"
{
  echo "cardscan ($VERSION) unstable; urgency=medium"
  echo
  echo "  * Release $VERSION: see /usr/share/doc/cardscan/changelog.gz."
  echo
  echo " -- cardscan maintainers <cardscan@users.noreply.github.com>  $(date -R -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")"
} | gzip -9n > "$DOC/changelog.Debian.gz"
# Lintian's notes on what this package does on purpose.
install -d "$R/usr/share/lintian/overrides"
install -m 644 scripts/deb/lintian-overrides "$R/usr/share/lintian/overrides/cardscan"
chmod -R u+rwX,go+rX,go-w "$R"

# Dependencies from the binaries' dynamic libraries.
mkdir -p "$STAGE/src/debian"
printf 'Source: cardscan\n\nPackage: cardscan\nArchitecture: any\n' > "$STAGE/src/debian/control"
DEPENDS="$(cd "$STAGE/src" && dpkg-shlibdeps -O "$R/usr/bin/cardscan" "$R/usr/bin/cardsim" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')"
mkdir -p "$R/DEBIAN"
(cd "$R" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$R/DEBIAN/md5sums"
cat > "$R/DEBIAN/control" <<CONTROL
Package: cardscan
Version: $VERSION
Architecture: $ARCH
Maintainer: cardscan maintainers <cardscan@users.noreply.github.com>
Installed-Size: $(du -sk --exclude=DEBIAN "$R" | cut -f1)
Depends: $DEPENDS
Recommends: pcscd
Suggests: pcsc-tools, libnfc-bin, vsmartcard-vpcd
Section: utils
Priority: optional
Homepage: https://github.com/cardscan/cardscan
Description: read smart cards and transit cards
 cardscan reads contactless transit cards (Suica, Octopus, Navigo, Opal,
 Shanghai and 40 more), payment cards and NFC tags through PC/SC readers
 (pcsc-lite) and libnfc devices (PN532, ACR122U), and prints their balance,
 details and trips, as text, JSON or CSV. Cards are described by profile data
 files; recorded APDU transcripts replay as regression tests; cardsim serves a
 virtual card to the real pcscd for testing without hardware.
 .
 cardscan never sends a command that changes a card unless asked, and hides
 personal data and payment card numbers by default.
CONTROL
dpkg-deb --root-owner-group -Zxz --build "$R" "$DEB" >/dev/null
echo "built $DEB ($(du -h "$DEB" | cut -f1))"
if command -v lintian >/dev/null; then
  lintian --fail-on error --display-info --tag-display-limit 0 "$DEB" 2>&1 | grep -v "^running with root privileges"; [ "${PIPESTATUS[0]}" -eq 0 ]
  echo "lintian: no error"
else
  echo "lintian is not installed (make setup installs it)" >&2
  exit 1
fi
