#!/usr/bin/env python3
"""Write the FeliCa lab card images of Tests/LabCards for Edy, KMT and MRT Jakarta from
named values, so each block can be checked by hand against docs/cards/edy-kmt.md.

    scripts/felica-lab-images.py            rewrite the images
    scripts/felica-lab-images.py --check    exit 1 if a committed image differs

The cards are invented (no real card's data).
"""
import datetime as dt
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab_images  # noqa: E402
from lab_images import hexs  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PMM = "00 F1 00 00 00 01 43 00"


def edy_time(y, mo, d, h, mi, s):
    """15 bits of days since 2000-01-01 and 17 bits of seconds of the day (Japan time)."""
    days = (dt.date(y, mo, d) - dt.date(2000, 1, 1)).days
    return (days << 17 | (h * 3600 + mi * 60 + s)).to_bytes(4, "big")


def edy_history(kind, seq, when, amount, balance):
    return hexs(bytes([kind]) + seq.to_bytes(3, "big") + edy_time(*when) + amount.to_bytes(4, "big") + balance.to_bytes(4, "big"))


def kmt_seconds(wib, shifted):
    """Seconds since 2000-01-01T00:00Z for a Jakarta (UTC+7) time; a card before 2019 kept
    its clock 6 hours ahead, which `clock-shift` undoes."""
    moment = dt.datetime(*wib, tzinfo=dt.timezone(dt.timedelta(hours=7)))
    count = int((moment - dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc)).total_seconds())
    return count + (6 * 3600 if shifted else 0)


def kmt_history(wib, amount, station, kind, seq, shifted=False):
    b = kmt_seconds(wib, shifted).to_bytes(4, "big") + amount.to_bytes(4, "big") + station.to_bytes(2, "big")
    b += bytes(2) + bytes([kind]) + seq.to_bytes(3, "big")
    return hexs(b)


def purse(balance, last, counter):
    """KMT / MRTJ balance block: balance and last amount little-endian, counter big-endian @13."""
    return hexs(balance.to_bytes(4, "little") + last.to_bytes(4, "little") + bytes(5) + counter.to_bytes(3, "big"))


def image(note, idm, code, services):
    return {"technology": "felica", "note": note, "idm": idm, "pmm": PMM, "systems": [{"code": code, "services": services}]}


def edy():
    number = bytes.fromhex("1234567890ABCDEF")
    history = [
        edy_history(0x20, 41, (2024, 10, 3, 12, 15, 30), 850, 4_150),
        edy_history(0x02, 40, (2024, 10, 1, 9, 0, 0), 5_000, 5_000),
        edy_history(0x20, 39, (2024, 9, 28, 23, 59, 59), 120, 0),
        edy_history(0x04, 38, (2024, 9, 1, 0, 0, 1), 120, 120),
    ]
    return image(
        "Rakuten Edy lab card: ¥4,150, two payments, a charge and a gift; invented values",
        "01 2E 00 00 11 22 33 44", "FE00",
        {"110B": [hexs(bytes(2) + number + bytes(6))], "1317": [hexs((4_150).to_bytes(4, "little") + bytes(12))],
         "170F": history})


def kmt():
    history = [
        kmt_history((2024, 5, 6, 7, 30, 0), 3_000, 0x0102, 1, 17),
        kmt_history((2024, 5, 5, 18, 2, 10), 50_000, 0x0033, 0, 16),
        kmt_history((2018, 12, 30, 8, 0, 0), 2_000, 0x0105, 1, 15, shifted=True),
    ]
    return image(
        "Kartu Multi Trip lab card: Rp 37,500, a fare, a top-up and a fare from before 2019; invented values",
        "01 2E 00 00 55 66 77 88", "90B7",
        {"300B": [hexs(b"0195000012345678")], "1017": [purse(37_500, 3_000, 17)], "200F": history})


def mrtj():
    return image(
        "MRT Jakarta lab card: Rp 24,000 after a fare of Rp 14,000; invented values",
        "01 2E 00 00 99 AA BB CC", "9373",
        {"100B": [hexs(bytes(16))], "10D7": [purse(24_000, 14_000, 5)]})


def pasmo_edy():
    """The PASMO lab card with Edy in its common area (FE00): one IDm, two purses."""
    doc = json.load(open(os.path.join(ROOT, "Tests", "LabCards", "pasmo-image.json"), encoding="utf-8"))
    doc["note"] = "The PASMO lab card (pasmo-image.json) with the Edy lab card's services in system FE00: two purses on one IDm"
    for system in doc["systems"]:
        if system["code"] == "FE00":
            system["services"] = edy()["systems"][0]["services"]
    return doc


IMAGES = {"edy-image.json": edy, "kmt-image.json": kmt, "mrt-jakarta-image.json": mrtj, "pasmo-edy-image.json": pasmo_edy}



if __name__ == "__main__":
    lab_images.main(IMAGES, "felica-lab-images.py")
