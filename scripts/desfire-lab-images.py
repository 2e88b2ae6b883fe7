#!/usr/bin/env python3
"""Write the DESFire lab card images of Tests/LabCards from named values, so each byte can be
checked by hand against docs/cards/opal.md and docs/cards/desfire.md.

    scripts/desfire-lab-images.py            rewrite the images
    scripts/desfire-lab-images.py --check    exit 1 if a committed image differs

The cards are invented (no real card's data).
"""
import datetime as dt
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab_images  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VERSION = "04 01 01 01 00 18 05 04 01 01 01 04 18 05 04 11 22 33 44 55 66 BA 44 39 52 80 40 09"


def hexs(data):
    return " ".join(f"{b:02X}" for b in data)


def pack(fields):
    """(value, bits) pairs, most significant bit first, into bytes; a negative value is
    written in two's complement of its width."""
    n = 0
    total = 0
    for value, bits in fields:
        n = n << bits | (value & ((1 << bits) - 1))
        total += bits
    assert total % 8 == 0
    return n.to_bytes(total // 8, "big")


def opal_file(weekly, auto, action, mode, when, balance, txn, last_digit, serial):
    """Opal's file 7: the fields of docs/cards/opal.md packed MSB first, then the 16 bytes
    reversed (the card stores them least significant first)."""
    day = (when.date() - dt.date(1980, 1, 1)).days
    minute = when.hour * 60 + when.minute
    packed = pack([(0x5A5A, 16), (weekly, 4), (auto, 1), (action, 4), (mode, 3), (minute, 11), (day, 15),
                   (balance, 21), (txn, 16), (0, 1), (last_digit, 4), (serial, 32)])
    return bytes(reversed(packed))


def opal():
    purse = opal_file(weekly=3, auto=1, action=7, mode=2, when=dt.datetime(2024, 3, 5, 8, 35), balance=-250,
                      txn=291, last_digit=7, serial=12_345_678)
    return {
        "technology": "desfire",
        "note": "Opal lab card: -A$2.50, 3 journeys this week, last a bus journey completed 2024-03-05 08:35; a locked application beside it; invented values",
        "uid": "04 11 22 33 44 55 66",
        "version": VERSION,
        "list-locked": False,
        "applications": [
            {"aid": "314553", "files": [
                {"id": 7, "type": "standard", "read": "free", "data": hexs(purse)},
                {"id": 1, "type": "standard", "read": "key", "data": hexs(bytes(32))},
            ]},
            {"aid": "F21030", "files-locked": True, "files": [{"id": 0, "type": "value", "read": "key", "value": 0}]},
        ],
    }


def opal_hidden():
    """The Opal card with its application list locked: a reader finds 314553 only by
    selecting it (the profiles name it)."""
    doc = opal()
    doc["note"] = "The Opal lab card with its application list locked (91 AE): applications must be probed"
    doc["list-locked"] = True
    return doc


IMAGES = {"opal-image.json": opal, "opal-hidden-image.json": opal_hidden}



if __name__ == "__main__":
    lab_images.main(IMAGES, "desfire-lab-images.py")
