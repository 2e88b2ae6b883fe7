#!/usr/bin/env bash
# Records the Ultralight fixtures from the lab cards (scripts/ultralight-lab-images.py writes
# them): each `cardscan read IMAGE --record` by detection among every built-in profile, so the
# transcripts hold the READs detection sends. Run after a profile is added or its steps change,
# then `cardscan test Tests/Fixtures --update` and check the reports against
# docs/cards/ultralight-tickets.md and docs/cards/nextfare-ultralight.md.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${CARDSCAN:-$(swift build --show-bin-path)/cardscan}"
while read -r image fixture; do
  [ -n "$image" ] || continue
  mkdir -p "Tests/Fixtures/$(dirname "$fixture")"
  "$BIN" read "Tests/LabCards/$image-image.json" --record "Tests/Fixtures/$fixture.apdu" > /dev/null
done <<'LIST'
compass compass/detected
compass-sale compass/sale
ventra ventra/detected
ventra-single ventra/single
nextfare-ul nextfare-ul/detected
troika-ul troika-ul/detected
troika-ul-single troika-ul/layout-a
clipper-ul clipper-ul/detected
clipper-ul-single clipper-ul/single-ride
mrt-singapore-ul mrt-singapore-ul/detected
mrt-singapore-ul-high mrt-singapore-ul/top-bit
pisa-ul pisa-ul/detected
pisa-ul-one pisa-ul/one-event
venezia-ul venezia-ul/detected
venezia-ul-new venezia-ul/not-validated
ovc-ul ovc-ul/detected
ovc-ul-purchase ovc-ul/purchase
hsl-ul hsl-ul/detected
hsl-ul-v1 hsl-ul/version-1
LIST
