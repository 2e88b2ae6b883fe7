#!/usr/bin/python3
"""The baseline for a corpus run: what a user would otherwise write in Python, in-process —
parse each transcript and decode the Shanghai fields (card number, validity, balance, trips)
from its answers (scripts/bench/replay_baseline.py prints the same for one file). No expected
report is compared, so this does less than `cardscan test`."""
import sys


def parse(path):
    ex, cmd = [], None
    with open(path) as f:
        for line in f:
            line = line.split(" #")[0].strip()
            if line.startswith(">"):
                cmd = bytes.fromhex(line[1:].replace(":", " "))
            elif line.startswith("<"):
                ex.append((cmd, bytes.fromhex(line[1:].replace(":", " ").replace("..", "00"))))  # .. : a byte the recording hid
    return ex


def decode(ex):
    info = balance = None
    trips = []
    for cmd, resp in ex:
        data, sw = resp[:-2], resp[-2:]
        if sw != b"\x90\x00" or cmd is None or len(cmd) < 2:
            continue
        if cmd[1] == 0xA4 and b"\x9f\x0c\x1e" in data:
            i = data.index(b"\x9f\x0c\x1e") + 3
            info = data[i:i + 30]
        elif cmd[:2] == b"\x80\x5c":
            v = int.from_bytes(data[:4], "big") & 0x7FFFFFFF
            balance = v - (1 << 31) if v & 0x40000000 else v
        elif cmd[1] == 0xB2:
            for o in range(0, len(data) - 22, 23):
                r = data[o:o + 23]
                amount = int.from_bytes(r[5:9], "big") & 0x7FFFFFFF
                kind = "top-up" if r[9] in (1, 2) else "purchase"
                d = r[16:23].hex()
                trips.append({"time": f"{d[0:4]}-{d[4:6]}-{d[6:8]}T{d[8:10]}:{d[10:12]}:{d[12:14]}+08:00",
                              "kind": kind, "amount": amount if kind == "top-up" else -amount,
                              "terminal": r[10:16].hex().upper(), "sequence": int.from_bytes(r[0:2], "big")})
    return info, balance, trips


def run(files):
    for path in files:
        decode(parse(path))
    return len(files)


if __name__ == "__main__":
    import os
    import time
    root = sys.argv[1]
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".apdu"))
    a = time.perf_counter()
    n = run(files)
    print(f"{n / (time.perf_counter() - a):.0f} transcripts/s")
