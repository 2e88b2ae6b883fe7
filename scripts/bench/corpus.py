#!/usr/bin/python3
"""Regression runs at scale (docs/performance.md): a corpus of at least N transcripts made by
copying the fixtures (each with its expected report) into a temporary folder, then, in
interleaved rounds, `cardscan test CORPUS --jobs 1` and `--jobs 2` and the Python baseline (a
plain loop that parses every transcript and decodes the Shanghai fields, in-process).
Prints medians of transcripts per second and the ratios.

    scripts/bench/corpus.py CARDSCAN [N] [ROUNDS] [LABEL=OTHER_CARDSCAN ...]

Further binaries (say an older build, `before=/tmp/before/.build/release/cardscan`) are run
in the same rounds on the same corpus, so before and after compare like with like.
"""
import os
import shutil
import statistics as st
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
cardscan = sys.argv[1]
want = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
binaries = {"cardscan": cardscan}
for extra in sys.argv[4:]:
    label, path = extra.split("=", 1)
    binaries[label] = path

fixtures = []
for d, _, files in os.walk(os.path.join(ROOT, "Tests", "Fixtures")):
    for f in files:
        if f.endswith(".apdu") and "bad-" not in d and os.path.exists(os.path.join(d, f[:-5] + ".expected.json")):
            fixtures.append(os.path.join(d, f[:-5]))
fixtures.sort()
copies = -(-want // len(fixtures))
corpus = tempfile.mkdtemp(prefix="cardscan-corpus-")
try:
    for c in range(copies):
        for i, base in enumerate(fixtures):
            folder = os.path.join(corpus, f"{c:04d}")
            os.makedirs(folder, exist_ok=True)
            name = f"{i:03d}-" + os.path.basename(base)
            for ext in (".apdu", ".expected.json"):
                shutil.copyfile(base + ext, os.path.join(folder, name + ext))
    total = copies * len(fixtures)
    print(f"  corpus: {total} transcripts ({copies} copies of the {len(fixtures)} fixtures) in {corpus}")

    sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))
    from corpus_baseline import run as baseline

    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(corpus) for f in fs if f.endswith(".apdu"))
    # An older build without --jobs runs on one core: it gets the --jobs 1 row only.
    runs = []
    for label, binary in binaries.items():
        parallel = "--jobs" in subprocess.run([binary, "test", "--help"], capture_output=True, text=True).stdout
        runs.append((f"{label} test --jobs 1", [binary, "test", corpus] + (["--jobs", "1"] if parallel else [])))
        if parallel:
            runs.append((f"{label} test --jobs 2", [binary, "test", corpus, "--jobs", "2"]))
    rates = {name: [] for name, _ in runs}
    rates["python3 parse+decode loop"] = []
    for _ in range(rounds):
        for name, args in runs:
            a = time.perf_counter()
            r = subprocess.run(args, capture_output=True, text=True)
            elapsed = time.perf_counter() - a
            last = r.stdout.strip().splitlines()[-1]
            assert last == f"{total} passed, 0 failed", f"{name}: {last}"
            rates[name].append(total / elapsed)
        a = time.perf_counter()
        n = baseline(files)
        rates["python3 parse+decode loop"].append(n / (time.perf_counter() - a))
    rates = {k: v for k, v in rates.items() if v}
    base = st.median(rates["python3 parse+decode loop"])
    one = st.median(rates["cardscan test --jobs 1"])
    for k, v in rates.items():
        print(f"  {k:28} median {st.median(v):9.0f} transcripts/s   ({st.median(v) / base:.2f}x the Python loop, {st.median(v) / one:.2f}x --jobs 1)")
finally:
    shutil.rmtree(corpus, ignore_errors=True)
