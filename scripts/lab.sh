#!/usr/bin/env bash
# The PC/SC lab: the real pcscd with the vsmartcard vpcd driver, and cardsim as the card.
#
#   scripts/lab.sh install                  apt-get the lab's packages (pcscd, vpcd, pcsc-tools)
#   scripts/lab.sh start [TRANSCRIPT [PORT [cardsim options…]]]
#                                           start pcscd (or reuse a running one) and, with a
#                                           transcript, cardsim on PORT (35963 = reader 00 00,
#                                           35964 = 00 01); waits until the card is present
#   scripts/lab.sh card TRANSCRIPT [PORT [options…]]   just (re)start cardsim on PORT
#   scripts/lab.sh stop                     stop what this script started (by PID)
#   scripts/lab.sh stop-cards               stop only the cards (cardsim) it started, and wait
#                                           until pcscd shows the readers empty; pcscd stays
#   scripts/lab.sh status
#   scripts/lab.sh system-vpcd on|off       let the system's own pcscd load vpcd (opt-in) or not
#
# The lab's pcscd runs in a network namespace of its own (`ip netns` cardscan-lab, loopback
# only) with its own reader configuration ($LAB/reader.conf.d), and cardsim joins that
# namespace: vpcd's ports 35963/35964 are never open on this machine's network. Where a
# namespace cannot be made (no root, no CAP_SYS_ADMIN), the lab refuses to start unless
# CARDSCAN_LAB_NETWORK=host says to open those ports on every interface.
#
# PIDs and logs live in $CARDSCAN_LAB_DIR (default /tmp/cardscan-lab). Exits non-zero with
# a message when something cannot start, so CI fails instead of skipping.
set -euo pipefail

LAB="${CARDSCAN_LAB_DIR:-/tmp/cardscan-lab}"
NETNS=cardscan-lab
NETNS_PATH="/run/netns/$NETNS"
# Where `system-vpcd off` keeps the vpcd driver's reader configuration, away from
# /etc/reader.conf.d (which every pcscd on the system reads).
VPCD_AWAY=/etc/cardscan/vpcd.reader.conf
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$LAB"

say() { printf 'lab: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

# Where cardscan and cardsim are (CARDSCAN_BIN, or the build folder), built or not.
bin_path() { echo "${CARDSCAN_BIN:-$(cd "$ROOT" && swift build --show-bin-path 2>/dev/null || true)}"; }

# The same, building them first when they are missing (unless CARDSCAN_BIN names them).
bin_dir() {
  local d; d="$(bin_path)"
  [ -n "${CARDSCAN_BIN:-}" ] || [ -x "$d/cardsim" ] || (cd "$ROOT" && swift build --product cardsim >&2 && swift build --product cardscan >&2)
  echo "$d"
}

install() {
  local need=()
  command -v pcscd >/dev/null || need+=(pcscd)
  [ -e /usr/lib/pcsc/drivers/serial/libifdvpcd.so ] || need+=(vsmartcard-vpcd)
  command -v pcsc_scan >/dev/null || need+=(pcsc-tools)
  command -v ip >/dev/null || need+=(iproute2)
  local had_vpcd=yes; vpcd_conf >/dev/null || had_vpcd=no
  [ -e /usr/include/PCSC/winscard.h ] || need+=(libpcsclite-dev)
  if [ ${#need[@]} -gt 0 ]; then
    say "installing ${need[*]}"
    local sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >&2 \
      || die "could not install ${need[*]} (apt-get failed)"
    # The package just installed tells the system's pcscd to listen on every interface:
    # keep the system as it was before (the lab has its own configuration).
    [ "$had_vpcd" = no ] && system_vpcd off
  fi
  true
}

# The vpcd driver's reader configuration, wherever it is.
vpcd_conf() {
  if [ -e /etc/reader.conf.d/vpcd ]; then echo /etc/reader.conf.d/vpcd
  elif [ -e "$VPCD_AWAY" ]; then echo "$VPCD_AWAY"
  else return 1; fi
}

system_vpcd() {
  local sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  case "$1" in
    off) if [ -e /etc/reader.conf.d/vpcd ]; then
           $sudo mkdir -p "$(dirname "$VPCD_AWAY")" && $sudo mv /etc/reader.conf.d/vpcd "$VPCD_AWAY"
           say "moved /etc/reader.conf.d/vpcd to $VPCD_AWAY: the system's pcscd does not open vpcd's ports (scripts/lab.sh system-vpcd on undoes it)"
         fi ;;
    on)  if [ -e "$VPCD_AWAY" ]; then
           $sudo mv "$VPCD_AWAY" /etc/reader.conf.d/vpcd
           say "restored /etc/reader.conf.d/vpcd: the system's pcscd (when it restarts) shows the virtual readers and listens on 0.0.0.0:35963 and 0.0.0.0:35964"
         fi ;;
    *) die "system-vpcd on|off" ;;
  esac
}

# Becomes a command run in the lab's network namespace when there is one. Only for `&`
# (a subshell): it execs, so `$!` is the command's own PID (nsenter execs it too).
in_lab_net() {
  if [ -e "$NETNS_PATH" ]; then exec nsenter --net="$NETNS_PATH" "$@"; else exec "$@"; fi
}

make_netns() {
  if [ "${CARDSCAN_LAB_NETWORK:-}" = host ]; then
    say "CARDSCAN_LAB_NETWORK=host: vpcd's ports 35963 and 35964 listen on every interface"
    return
  fi
  command -v ip >/dev/null || die "ip (iproute2) is not installed: run scripts/lab.sh install"
  if [ ! -e "$NETNS_PATH" ]; then
    ip netns add "$NETNS" 2> "$LAB/netns.log" || die "could not make the lab's network namespace ($(cat "$LAB/netns.log")): it needs root (CAP_SYS_ADMIN). The lab keeps vpcd's ports off the network this way; CARDSCAN_LAB_NETWORK=host runs it on the host network instead, with ports 35963 and 35964 open to every host that can reach this one"
  fi
  ip -n "$NETNS" link set lo up || die "could not bring up the loopback interface of the lab's network namespace"
}

# Whether process $1 still runs: a zombie does not (pcscd's parent, lab.sh, is gone, and a
# container's init may take a second or more to reap it; kill -0 succeeds on a zombie).
running() {
  local stat; stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
  stat="${stat##*) }"
  [ "${stat%% *}" != Z ]
}

# Waits up to $2 × 20 ms for process $1 to be gone; fails if it still runs.
wait_gone() {
  for _ in $(seq 1 "$2"); do running "$1" || return 0; sleep 0.02; done
  ! running "$1"
}

# Stops process $1 if it is still a $2 (/proc/PID/comm: a pid file outlives its process, and
# the PID may since be anyone's): SIGTERM, and SIGKILL if it still runs after $3 × 20 ms; returns
# once it is gone.
terminate() {
  [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ] || return 0
  kill "$1" 2>/dev/null || true
  wait_gone "$1" "$3" && return 0
  say "$2 (pid $1) did not stop within $(( $3 / 50 )) s of SIGTERM: killing it"
  kill -KILL "$1" 2>/dev/null || true
  wait_gone "$1" 250 || true
}

pcscd_up() { [ -S /run/pcscd/pcscd.comm ] && pidof pcscd >/dev/null; }

# A pcscd that died without cleaning up (killed, crashed) leaves its socket behind, and the
# next pcscd then refuses to start ("file /run/pcscd/pcscd.comm already exists"). With no
# pcscd running and nothing listening on it, the socket is nobody's: remove it. (systemd's
# pcscd.socket listens there with no pcscd running until a client comes: that one is left.)
clear_stale_socket() {
  [ -e /run/pcscd/pcscd.comm ] && ! pidof pcscd >/dev/null || return 0
  local listeners
  listeners="$(ss -xl 2>/dev/null)" || { say "cannot run ss to see whether /run/pcscd/pcscd.comm is listened on: left as it is"; return 0; }
  if ! grep -qF " /run/pcscd/pcscd.comm " <<< "$listeners"; then
    rm -f /run/pcscd/pcscd.comm /run/pcscd/pcscd.pid
    say "removed the socket a pcscd that is no longer running left in /run/pcscd"
  fi
}

# Whether the running pcscd is the one this script started (not the system's own).
ours_pcscd() { [ -f "$LAB/pcscd.pid" ] && [ "$(pidof pcscd)" = "$(cat "$LAB/pcscd.pid")" ]; }

start_pcscd() {
  if pcscd_up; then
    if ours_pcscd; then say "reusing running pcscd (pid $(pidof pcscd))"
    else say "reusing a pcscd this script did not start (pid $(pidof pcscd)): its readers are the lab's only if it loads vpcd"; fi
    return
  fi
  command -v pcscd >/dev/null || die "pcscd is not installed: run scripts/lab.sh install"
  clear_stale_socket
  local conf; conf="$(vpcd_conf)" || die "the vpcd driver's reader configuration is missing: run scripts/lab.sh install"
  mkdir -p /run/pcscd "$LAB/reader.conf.d"
  cp "$conf" "$LAB/reader.conf.d/vpcd"
  make_netns
  in_lab_net pcscd -f -a -c "$LAB/reader.conf.d" > "$LAB/pcscd.log" 2>&1 &
  echo $! > "$LAB/pcscd.pid"
  for _ in $(seq 1 100); do pcscd_up && break; sleep 0.05; done
  pcscd_up || die "pcscd did not start within 5 s; the end of $LAB/pcscd.log: $(tail -n 5 "$LAB/pcscd.log" | tr '\n' ' ')"
  say "pcscd started (pid $(cat "$LAB/pcscd.pid"))"
}

reader_for_port() { case "$1" in 35963) echo "Virtual PCD 00 00";; 35964) echo "Virtual PCD 00 01";; *) echo "";; esac; }

# Stops the cardsim this script started on port $1 (a cardsim's pid file outlives it when it
# ends on its own, with --once or --remove-after; nsenter execs cardsim, so its name is
# cardsim's), and waits until pcscd shows its reader empty.
stop_card() {
  local port="$1" f="$LAB/cardsim-$1.pid"
  [ -f "$f" ] || return 0
  terminate "$(cat "$f")" cardsim 100
  rm -f "$f"
  # The process gone is not the card gone: wait until pcscd shows the reader empty, so that
  # whoever uses it next does not meet the card still there.
  local reader bin; reader="$(reader_for_port "$port")"; bin="$(bin_path)"
  if [ -n "$reader" ] && pcscd_up && [ -x "$bin/cardscan" ]; then
    for _ in $(seq 1 100); do
      card_present "$bin" "$reader" || [ $? = 2 ] || return 0
      sleep 0.05
    done
    say "pcscd still shows a card on $reader 5 s after its cardsim stopped"
    return 1
  fi
}

# Whether pcscd shows a card on the reader (SCardGetStatusChange inside `cardscan readers`):
# 0 yes, 1 no, 2 cannot tell (`cardscan readers` failed).
card_present() {
  local out; out="$("$1/cardscan" readers --json 2>/dev/null)" || return 2
  grep -q "\"name\":\"${2// /}\",\"present\":true" <<< "$(tr -d " \n" <<< "$out")"
}

start_card() {
  local transcript="$1" port="${2:-35963}"; shift 2 || shift $#
  [ -f "$transcript" ] || die "$transcript: no such transcript"
  local bin; bin="$(bin_dir)"
  stop_card "$port" || die "the card on $(reader_for_port "$port") did not leave: not starting another"
  local reader; reader="$(reader_for_port "$port")"
  # A card this script did not start (a cardsim run by hand or left by a test) holds the port:
  # a new cardsim would wait behind it in vpcd's queue while the old card answers.
  if [ -n "$reader" ] && pcscd_up && card_present "$bin" "$reader"; then
    die "a card this script did not start is on $reader: stop it first (pkill -f 'cardsim vpcd')"
  fi
  in_lab_net "$bin/cardsim" vpcd "$transcript" --port "$port" "$@" > "$LAB/cardsim-$port.log" 2>&1 &
  echo $! > "$LAB/cardsim-$port.pid"
  [ -n "$reader" ] || return 0
  # Wait for pcscd to see the card (SCardGetStatusChange inside `cardscan readers`), not a sleep.
  for _ in $(seq 1 100); do
    if card_present "$bin" "$reader"; then
      say "card present on $reader (cardsim pid $(cat "$LAB/cardsim-$port.pid"))"; return 0
    fi
    if ! running "$(cat "$LAB/cardsim-$port.pid")"; then
      rm -f "$LAB/cardsim-$port.pid"; die "cardsim exited: $(cat "$LAB/cardsim-$port.log")"
    fi
    sleep 0.05
  done
  local why="see $LAB/cardsim-$port.log"
  ours_pcscd || why="the running pcscd (pid $(pidof pcscd)) is not the lab's: stop it (systemctl stop pcscd.socket pcscd) and run scripts/lab.sh start again, or let it load vpcd with scripts/lab.sh system-vpcd on"
  die "the card did not appear on $reader within 5 s ($why)"
}

stop() {
  stop_card 35963 || true; stop_card 35964 || true
  for f in "$LAB"/cardsim-*.pid; do
    [ -f "$f" ] || continue
    terminate "$(cat "$f")" cardsim 100
    rm -f "$f"
  done
  if [ -f "$LAB/pcscd.pid" ]; then
    # Gone before this returns (SIGKILL after 10 s), so that a `start` right after never meets
    # a pcscd still exiting.
    terminate "$(cat "$LAB/pcscd.pid")" pcscd 500
    rm -f "$LAB/pcscd.pid"
    say "pcscd stopped"
  fi
  clear_stale_socket
  if [ -e "$NETNS_PATH" ] && ! pidof pcscd >/dev/null; then ip netns del "$NETNS" 2>/dev/null || true; fi
}

case "${1:-}" in
  install) install ;;
  start) install; start_pcscd; if [ $# -ge 2 ]; then shift; t="$1"; shift; p="${1:-35963}"; shift || true; start_card "$t" "$p" "$@"; fi ;;
  card) shift; t="$1"; shift; p="${1:-35963}"; shift || true; start_card "$t" "$p" "$@" ;;
  stop) stop ;;
  stop-cards) s=0; stop_card 35963 || s=1; stop_card 35964 || s=1; exit $s ;;
  system-vpcd) system_vpcd "${2:-}" ;;
  status) pcscd_up && echo "pcscd: running (pid $(pidof pcscd))" || echo "pcscd: not running"
          for f in "$LAB"/cardsim-*.pid; do [ -f "$f" ] && echo "cardsim: $(basename "$f" .pid) pid $(cat "$f")"; done; true ;;
  *) sed -n '2,23p' "$0"; exit 64 ;;
esac
