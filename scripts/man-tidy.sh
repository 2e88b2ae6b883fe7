#!/bin/sh
# Tidies the pages swift-argument-parser writes (make man, make man-check): a blank line in a
# command's discussion becomes a paragraph break (.Pp), which mdoc wants (man and lintian warn
# "Empty input line" otherwise).
#   scripts/man-tidy.sh DIR
set -eu
for page in "$1"/*.1; do
  sed -i 's/^$/.Pp/' "$page"
done
