#!/usr/bin/env python3
"""Writes Tests/LabCards/shanghai-tap-1.apdu, -2 and -3: one Shanghai card tapped three times,
its balance and its ten-record log moving between the taps (two trips, then a top-up and a
trip, are added; the oldest fall off the log). The history test saves the three reads and
expects one merged list of 14 trips, sequence 16 down to 3, none twice.

Each transcript is Tests/Fixtures/shanghai-transit/full-read.apdu with the balance (GET
BALANCE, 80 5C) and the log records (READ RECORD SFI 0x18) written anew. A log record (23
bytes, PBOC / JR/T 0025): sequence (2), overdraft limit (3), amount in fen (4), type (1: 06
purchase, 02 top-up), terminal (6), date and time (BCD YYYYMMDDhhmmss, 7).

Run: python3 scripts/history-lab-transcripts.py
"""
import importlib.util
import os

ROOT = os.path.join(os.path.dirname(__file__), "..")
SOURCE = os.path.join(ROOT, "Tests", "Fixtures", "shanghai-transit", "full-read.apdu")
# The fixtures' Shanghai log and its record encoding (scripts/make-fixtures.py).
_spec = importlib.util.spec_from_file_location("make_fixtures", os.path.join(os.path.dirname(__file__), "make-fixtures.py"))
fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fixtures)

# The card's trips, newest last: the fixture's ten (sequence 3 to 12), then those added later.
TRIPS = fixtures.SH_TRIPS[::-1] + [
    # After the first tap: two more trips.
    (13, 200, 0x06, "115000000123", "20240305180000"),
    (14, 300, 0x06, "110111000001", "20240306083000"),
    # After the second tap: a top-up, then a trip.
    (15, 2000, 0x02, "120000000005", "20240307120000"),
    (16, 400, 0x06, "110222000014", "20240307180000"),
]
# Each tap: the newest sequence number on the card, and its balance in fen.
TAPS = [(12, 5710), (14, 5210), (16, 6810)]


def record(trip):
    return " ".join(f"{x:02X}" for x in fixtures.record(*trip)) + " 90 00"


def main():
    lines = open(SOURCE, encoding="utf-8").read().split("\n")
    for n, (newest, balance) in enumerate(TAPS, start=1):
        log = [t for t in TRIPS if t[0] <= newest][::-1][:10]
        out = []
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.startswith("# recorded:"):
                line = f"# recorded: 2026-11-27T0{n}:00:00Z"
            out.append(line)
            if line == "> 80 5C 00 02 04":
                out.append("< " + " ".join(f"{x:02X}" for x in balance.to_bytes(4, "big")) + " 90 00")
                i += 2
                continue
            if line.startswith("> 00 B2 ") and line.endswith(" C4 17"):
                k = int(line.split()[3], 16)
                out.append("< " + (record(log[k - 1]) if k <= len(log) else "6A 83"))
                i += 2
                continue
            i += 1
        path = os.path.join(ROOT, "Tests", "LabCards", f"shanghai-tap-{n}.apdu")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(out))
        print("wrote", path)


main()
