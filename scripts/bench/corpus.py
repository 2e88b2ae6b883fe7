#!/usr/bin/python3
"""Regression runs at scale (docs/performance.md): a corpus of at least N transcripts made by
copying the fixtures (each with its expected report) into a temporary folder, then, in
interleaved rounds, `cardscan test CORPUS --jobs 1` and `--jobs 2` and the Python baseline (a
plain loop that parses every transcript and decodes the Shanghai fields, in-process).
Prints medians of transcripts per second and the ratios.

    scripts/bench/corpus.py CARDSCAN [N] [ROUNDS] [LABEL=OTHER_CARDSCAN ...]

Further binaries (say an older build, `before=/tmp/before/.build/release/cardscan`) are run
in the same rounds on the same corpus, so before and after compare like with like. An older
build that cannot read today's fixtures (families added since) brings its own:
`before=BINARY@OLD_TREE/Tests/Fixtures`. The corpus is then made of the fixtures both trees
have, and each build checks its own tree's copy of them (transcript and expected report), so
both do the same reads and each passes; the Python loop reads this tree's copy.
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
HERE = os.path.join(ROOT, "Tests", "Fixtures")
binaries = {"cardscan": (cardscan, HERE)}
for extra in sys.argv[4:]:
    label, path = extra.split("=", 1)
    binary, _, tree = path.partition("@")
    binaries[label] = (binary, tree or HERE)


def fixture_names(tree):
    """Each fixture with an expected report, as a path relative to `tree` without its extension."""
    out = set()
    for d, _, files in os.walk(tree):
        for f in files:
            if f.endswith(".apdu") and "bad-" not in d and os.path.exists(os.path.join(d, f[:-5] + ".expected.json")):
                out.add(os.path.relpath(os.path.join(d, f[:-5]), tree))
    return out


trees = sorted({tree for _, tree in binaries.values()})
fixtures = sorted(set.intersection(*(fixture_names(t) for t in trees)))
if not fixtures:
    sys.exit(f"corpus.py: the trees share no fixture with an expected report ({', '.join(trees)})")
copies = -(-want // len(fixtures))
root = tempfile.mkdtemp(prefix="cardscan-corpus-")
corpora = {tree: os.path.join(root, f"tree{i}") for i, tree in enumerate(trees)}
try:
    for tree, corpus in corpora.items():
        for c in range(copies):
            folder = os.path.join(corpus, f"{c:04d}")
            os.makedirs(folder, exist_ok=True)
            for i, rel in enumerate(fixtures):
                name = f"{i:03d}-" + os.path.basename(rel)
                for ext in (".apdu", ".expected.json"):
                    shutil.copyfile(os.path.join(tree, rel) + ext, os.path.join(folder, name + ext))
    total = copies * len(fixtures)
    mixed = f", from {len(trees)} trees: the fixtures they share" if len(trees) > 1 else ""
    print(f"  corpus: {total} transcripts ({copies} copies of the {len(fixtures)} fixtures{mixed}) in {root}")
    corpus = corpora[HERE]

    sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))
    from corpus_baseline import run as baseline

    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(corpus) for f in fs if f.endswith(".apdu"))
    # An older build without --jobs runs on one core: it gets the --jobs 1 row only.
    runs = []
    for label, (binary, tree) in binaries.items():
        parallel = "--jobs" in subprocess.run([binary, "test", "--help"], capture_output=True, text=True).stdout
        mine = corpora[tree]
        runs.append((f"{label} test --jobs 1", [binary, "test", mine] + (["--jobs", "1"] if parallel else [])))
        if parallel:
            runs.append((f"{label} test --jobs 2", [binary, "test", mine, "--jobs", "2"]))
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
    shutil.rmtree(root, ignore_errors=True)
