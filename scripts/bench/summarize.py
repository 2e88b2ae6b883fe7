#!/usr/bin/python3
"""Reads "NAME Q1 MEDIAN Q3" lines (µs per APDU) from the clients and prints the medians
of the round medians and the ratios against the C floor measured in the same run."""
import statistics as st
import sys

rows = {}
for line in sys.stdin:
    name, q1, med, q3 = line.split()
    rows.setdefault(name, []).append(float(med))
m = {k: st.median(v) for k, v in rows.items()}
for k in ("c", "swift", "pyscard"):
    rounds = ", ".join("%.1f" % x for x in rows[k])
    print("  %-8s median per APDU %7.1f us   (round medians: %s)" % (k, m[k], rounds))
print("  PCSCTransport / C floor: %.3f   pyscard / C floor: %.3f   PCSCTransport / pyscard: %.3f"
      % (m["swift"] / m["c"], m["pyscard"] / m["c"], m["swift"] / m["pyscard"]))
