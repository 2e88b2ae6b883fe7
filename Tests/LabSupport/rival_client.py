#!/usr/bin/python3
"""A second PC/SC client on the same reader, as another program would be: it SELECTs
another application (a payment AID) in a loop, with no transaction, until STOP_FILE
appears or SECONDS pass. It writes how many of its SELECTs the card answered to COUNT_FILE.

usage: rival_client.py READER STOP_FILE COUNT_FILE SECONDS
"""
import os, sys, time
from smartcard.scard import (SCardEstablishContext, SCardConnect, SCardTransmit, SCardDisconnect,
                             SCardReleaseContext, SCARD_SCOPE_USER, SCARD_SHARE_SHARED,
                             SCARD_PROTOCOL_T0, SCARD_PROTOCOL_T1, SCARD_LEAVE_CARD, SCARD_S_SUCCESS)

reader, stop_file, count_file, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
SELECT_OTHER = [0x00, 0xA4, 0x04, 0x00, 0x07, 0xA0, 0x00, 0x00, 0x00, 0x03, 0x10, 0x10, 0x00]
rv, ctx = SCardEstablishContext(SCARD_SCOPE_USER)
assert rv == SCARD_S_SUCCESS, rv
rv, card, proto = SCardConnect(ctx, reader, SCARD_SHARE_SHARED, SCARD_PROTOCOL_T0 | SCARD_PROTOCOL_T1)
assert rv == SCARD_S_SUCCESS, rv
answered = refused = 0
deadline = time.monotonic() + seconds
while time.monotonic() < deadline and not os.path.exists(stop_file):
    rv, response = SCardTransmit(card, proto, SELECT_OTHER)
    if rv == SCARD_S_SUCCESS and response[-2:] == [0x90, 0x00]:
        answered += 1
    else:
        refused += 1            # another client's transaction holds the card: sharing violation
        time.sleep(0.0005)
SCardDisconnect(card, SCARD_LEAVE_CARD)
SCardReleaseContext(ctx)
with open(count_file, "w") as f:
    f.write(f"{answered} {refused}\n")
