#!/usr/bin/env bash
# Fails when a process of the project's is still running (the end of make test): the lab's
# pcscd (which owns /run/pcscd/pcscd.comm while it lives, so the next PC/SC program on the
# machine would talk to it), a cardsim, a cardscan, or the lab's network namespace.
set -uo pipefail
left="$(pgrep -a -f 'pcscd .*cardscan-lab|/cardsim |/cardscan (watch|scan|test|replay|serve)' 2>/dev/null | grep -v "pgrep\|nothing-running" || true)"
[ -e /run/netns/cardscan-lab ] && left="$left
the network namespace cardscan-lab"
if [ -n "${left//[$'\n ']/}" ]; then
  echo "left running after the run (make lab-stop stops the lab):" >&2
  echo "$left" >&2
  exit 1
fi
echo "nothing of the project's is left running"
