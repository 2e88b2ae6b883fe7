#!/usr/bin/python3
"""The same APDU sequence through pyscard (Debian's python3-pyscard), the Python peer.
Prints "pyscard Q1 MEDIAN Q3" in microseconds per APDU. Usage: pyscard_client.py READER N"""
import sys, time
from smartcard.System import readers

name, n = sys.argv[1], int(sys.argv[2])
reader = next(r for r in readers() if str(r) == name)
conn = reader.createConnection()
conn.connect()
seq = [[0x00, 0xA4, 0x04, 0x00, 0x09, 0xA0, 0x00, 0x00, 0x00, 0x03, 0x86, 0x98, 0x07, 0x01, 0x00], [0x80, 0x5C, 0x00, 0x02, 0x04]]
seq += [[0x00, 0xB2, r, 0xC4, 0x17] for r in range(1, 11)]
for c in seq:
    conn.transmit(c)
times = []
for i in range(n):
    a = time.perf_counter()
    data, sw1, sw2 = conn.transmit(seq[i % len(seq)])
    times.append((time.perf_counter() - a) * 1e6)
    assert sw1 == 0x90
times.sort()
print("pyscard %.1f %.1f %.1f" % (times[n // 4], times[n // 2], times[3 * n // 4]))
