#!/usr/bin/python3
"""The baseline a user would otherwise write: read a Shanghai transcript and decode the
balance, card details and trips in plain Python (the parse and decode of
corpus_baseline.py). Prints the same numbers cardscan does."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_baseline import decode, parse  # noqa: E402

info, balance, trips = decode(parse(sys.argv[1]))
d = info[20:28].hex()
print(json.dumps({"profile": "shanghai-transit", "card": {"number": str(int.from_bytes(info[16:20], "big")),
                  "validFrom": f"{d[0:4]}-{d[4:6]}-{d[6:8]}", "validUntil": f"{d[8:12]}-{d[12:14]}-{d[14:16]}"},
                  "balance": {"amount": balance, "currency": "CNY"}, "trips": trips}, indent=2))
