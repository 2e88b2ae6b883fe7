#!/usr/bin/env python3
"""Write the KS X 6924 lab card images of Tests/LabCards (T-money, Cashbee, Snapper) from
named values, so every byte can be checked by hand against docs/cards/korea.md.

    scripts/korea-lab-images.py            rewrite the images
    scripts/korea-lab-images.py --check    exit 1 if a committed image differs

The cards are invented (no real card's data).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab_images  # noqa: E402
from lab_images import hexs  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
T_MONEY_AID = "D4100000030001"
CASHBEE_AID = "D4100000140001"


def bcd(digits):
    return bytes.fromhex(digits)


def atr_type_a(historical):
    """A contactless ISO 14443-4 card through PC/SC (PC/SC part 3 §3.1.3.2.3.2): 3B 8n 80 01
    then the ATS historical bytes and the check byte."""
    body = [0x80 | len(historical), 0x80, 0x01] + list(historical)
    tck = 0
    for b in body:
        tck ^= b
    return hexs(bytes([0x3B] + body + [tck]))


def purse_info(issuer, csn, issued, expiry, user=0x01, card_type=0x00, max_balance=500_000, limit=100_000):
    """KS X 6924 purse information, 47 bytes (the FCI's B0), field by field."""
    b = bytes([card_type, 0x10, 0x01, issuer])  # card type, algorithm (3DES), key version, issuer
    b += bytes.fromhex(csn)                      # card number, 8 bytes
    b += bcd("0000000001")                       # idtr, 5 bytes BCD
    b += bcd(issued) + bcd(expiry)               # YYYYMMDD each
    b += bytes([user, 0x00])                     # user code, discount rate
    b += max_balance.to_bytes(4, "big") + bcd("0000") + limit.to_bytes(4, "big")
    b += bytes([0x00, 0x00]) + bytes(8)          # telecom, card company, RFU
    assert len(b) == 47
    return b


def fci(info):
    b0 = bytes([0xB0, len(info)]) + info
    return bytes([0x6F, len(b0)]) + b0


def transaction(kind, balance, counter, amount, time=None, operator=b"", tail_ff=False):
    """A 46-byte SFI 4 record: type @0, balance after @2, counter @6, amount @10, (Snapper's
    operator @14), date-time @26 (7 bytes BCD, FF×7 = none)."""
    b = bytearray(46)
    b[0] = kind
    b[1] = 0x2C
    b[2:6] = balance.to_bytes(4, "big")
    b[6:10] = counter.to_bytes(4, "big")
    b[10:14] = amount.to_bytes(4, "big")
    b[14:14 + len(operator)] = operator
    if tail_ff:
        b[26:46] = b"\xff" * 20
    else:
        b[26:33] = bcd(time) if time else b"\xff" * 7
    return hexs(bytes(b))


def tap(seq, journey, time, tap_on):
    """A 52-byte Snapper SFI 3 record: sequence @4, journey @5, time @13 (BCD), tap-on bit
    0x10 of byte 51."""
    b = bytearray(52)
    b[4] = seq
    b[5] = journey
    b[13:20] = bcd(time)
    b[51] = 0x10 if tap_on else 0x00
    return hexs(bytes(b))


def image(note, aid, info, balance, files):
    return {
        "technology": "iso7816",
        "note": note,
        "atr": atr_type_a(b"\x00\x4B\x53\x58"),
        "files": [{"aid": aid, "fid": "4100", "fci": hexs(fci(info)), "files": files}],
        "answers": [{"command": "90 4C 00 00 04", "response": hexs(balance.to_bytes(4, "big") + b"\x90\x00")}],
    }


def t_money():
    records = [
        transaction(0x01, 12_350, 9, 1_400, "20241105083012"),
        transaction(0x01, 13_750, 8, 1_250, "20241104181545"),
        transaction(0x02, 15_000, 7, 10_000),            # a top-up the card logged with no time
        transaction(0x01, 5_000, 6, 1_400, "20241101075900"),
        transaction(0x00, 0, 0, 0),                      # unused: no amount, no time
    ]
    info = purse_info(0x08, "1010030000987654", "20230315", "20280314")
    return image("T-money lab card: ₩12,350 and four transactions; invented values", T_MONEY_AID, info, 12_350,
                 [{"fid": "0004", "sfi": 4, "records": records}])


def cashbee():
    records = [
        transaction(0x01, 8_800, 3, 1_500, "20240920123000"),
        transaction(0x02, 10_300, 2, 10_000, "20240918090000"),
    ]
    info = purse_info(0x0B, "1040000000112233", "20240101", "20290101", user=0x01)
    return image("Cashbee lab card: ₩8,800, a fare and a top-up; invented values", CASHBEE_AID, info, 8_800,
                 [{"fid": "0004", "sfi": 4, "records": records}])


def snapper():
    op = bytes.fromhex("0000123456")
    fares = [
        transaction(0x01, 1_830, 12, 0, operator=op, tail_ff=True),      # tap-off, nothing more to pay
        transaction(0x01, 1_830, 11, 220, operator=op, tail_ff=True),    # tap-on, NZ$2.20
        transaction(0x02, 2_050, 10, 2_000, operator=op, tail_ff=True),  # top-up NZ$20.00
        transaction(0x01, 50, 9, 350, operator=op, tail_ff=True),        # tap-on, NZ$3.50
    ]
    taps = [
        tap(0, 0x21, "20241106173005", tap_on=False),
        tap(0, 0x21, "20241106171210", tap_on=True),
        tap(0, 0x20, "20241105120000", tap_on=False),
        tap(0, 0x1F, "20241104080130", tap_on=True),
    ]
    info = purse_info(0x02, "0131000012345678", "20220601", "20320531")
    return image("Snapper lab card: NZ$18.30, taps on and off, a top-up; invented values", T_MONEY_AID, info, 1_830,
                 [{"fid": "0003", "sfi": 3, "records": taps}, {"fid": "0004", "sfi": 4, "records": fares}])


IMAGES = {"t-money-image.json": t_money, "cashbee-image.json": cashbee, "snapper-image.json": snapper}



if __name__ == "__main__":
    lab_images.main(IMAGES, "korea-lab-images.py")
