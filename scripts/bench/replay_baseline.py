#!/usr/bin/python3
"""The baseline a user would otherwise write: read a Shanghai transcript and decode the
balance, card details and trips in plain Python. Prints the same numbers cardscan does."""
import json, sys

def parse(path):
    ex, cmd = [], None
    for line in open(path):
        line = line.split(" #")[0].strip()
        if line.startswith(">"):
            cmd = bytes.fromhex(line[1:].replace(":", " "))
        elif line.startswith("<"):
            ex.append((cmd, bytes.fromhex(line[1:].replace(":", " "))))
    return ex

def bcd(b):
    return b.hex()

ex = parse(sys.argv[1])
info = balance = None
trips = []
for cmd, resp in ex:
    data, sw = resp[:-2], resp[-2:]
    if sw != b"\x90\x00":
        continue
    if cmd[1] == 0xA4 and b"\x9f\x0c\x1e" in data:
        i = data.index(b"\x9f\x0c\x1e") + 3
        info = data[i:i + 30]
    elif cmd[:2] == b"\x80\x5c":
        v = int.from_bytes(data[:4], "big") & 0x7FFFFFFF
        balance = v - (1 << 31) if v & 0x40000000 else v
    elif cmd[1] == 0xB2:
        for o in range(0, len(data), 23):
            r = data[o:o + 23]
            amount = int.from_bytes(r[5:9], "big") & 0x7FFFFFFF
            kind = "top-up" if r[9] in (1, 2) else "purchase"
            d = bcd(r[16:23])
            trips.append({"time": f"{d[0:4]}-{d[4:6]}-{d[6:8]}T{d[8:10]}:{d[10:12]}:{d[12:14]}+08:00",
                          "kind": kind, "amount": amount if kind == "top-up" else -amount,
                          "terminal": r[10:16].hex().upper(), "sequence": int.from_bytes(r[0:2], "big")})
d = bcd(info[20:28])
print(json.dumps({"profile": "shanghai-transit", "card": {"number": str(int.from_bytes(info[16:20], "big")),
                  "validFrom": f"{d[0:4]}-{d[4:6]}-{d[6:8]}", "validUntil": f"{d[8:12]}-{d[12:14]}-{d[14:16]}"},
                  "balance": {"amount": balance, "currency": "CNY"}, "trips": trips}, indent=2))
