#!/usr/bin/python3
"""A second PC/SC client on the same reader, as another program would be: it SELECTs
another application (a payment AID) in a loop, with no transaction, until STOP_FILE
appears or SECONDS pass. It writes to COUNT_FILE how many of its SELECTs the card answered,
how many were refused (another client's transaction held the card), and the longest it had
to wait, in milliseconds: pcsc-lite's client library itself waits inside SCardTransmit while
another client's transaction holds the card, so a wait is the longest call, or the time from
a first refusal to the next answer, whichever is longer. A card taken away (the
soak's taps) is looked for every 50 ms and connected to again; that time is not counted as
waiting. (Asking an absent card through vpcd thousands of times a second makes the vpcd
driver drop its simulator connection, so the next tap is never seen: a lab artefact.)

usage: rival_client.py READER STOP_FILE COUNT_FILE SECONDS [INTERVAL_MS]
INTERVAL_MS: pause between SELECTs (default 0: as fast as pcscd answers).
"""
import os, sys, time
from smartcard.scard import (SCardEstablishContext, SCardConnect, SCardTransmit, SCardDisconnect,
                             SCardReleaseContext, SCARD_SCOPE_USER, SCARD_SHARE_SHARED,
                             SCARD_PROTOCOL_T0, SCARD_PROTOCOL_T1, SCARD_LEAVE_CARD, SCARD_S_SUCCESS,
                             SCARD_E_SHARING_VIOLATION)

reader, stop_file, count_file, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
interval = float(sys.argv[5]) / 1000 if len(sys.argv) > 5 else 0.0
SELECT_OTHER = [0x00, 0xA4, 0x04, 0x00, 0x07, 0xA0, 0x00, 0x00, 0x00, 0x03, 0x10, 0x10, 0x00]
rv, ctx = SCardEstablishContext(SCARD_SCOPE_USER)
assert rv == SCARD_S_SUCCESS, rv
card = proto = None
answered = refused = 0
longest = 0.0
blocked_since = None
deadline = time.monotonic() + seconds
while time.monotonic() < deadline and not os.path.exists(stop_file):
    if card is None:
        rv, card, proto = SCardConnect(ctx, reader, SCARD_SHARE_SHARED, SCARD_PROTOCOL_T0 | SCARD_PROTOCOL_T1)
        if rv != SCARD_S_SUCCESS:
            card = None
            blocked_since = None   # no card (or pcscd away): not a wait caused by a transaction
            time.sleep(0.05)
            continue
    called = time.monotonic()
    rv, response = SCardTransmit(card, proto, SELECT_OTHER)
    longest = max(longest, time.monotonic() - called)
    if rv == SCARD_S_SUCCESS and response[-2:] == [0x90, 0x00]:
        answered += 1
        if interval:
            time.sleep(interval)
        if blocked_since is not None:
            longest = max(longest, time.monotonic() - blocked_since)
            blocked_since = None
    elif rv == SCARD_E_SHARING_VIOLATION or rv == SCARD_S_SUCCESS:
        refused += 1            # another client's transaction holds the card
        if blocked_since is None:
            blocked_since = time.monotonic()
        time.sleep(0.0005)
    else:                       # the card was taken away or reset: connect again, a little later
        SCardDisconnect(card, SCARD_LEAVE_CARD)
        card = None
        blocked_since = None
        time.sleep(0.05)        # as a program would: not a command a millisecond to an absent card
if card is not None:
    SCardDisconnect(card, SCARD_LEAVE_CARD)
SCardReleaseContext(ctx)
with open(count_file, "w") as f:
    f.write(f"{answered} {refused} {longest * 1000:.1f}\n")
