#!/usr/bin/env bash
# Release-build benchmarks, all measured in one run so the ratios compare like with like
# (the machines are noisy: medians, and baselines measured alongside). See docs/performance.md.
#   1. per-APDU time through pcscd + vpcd + cardsim: a C client calling SCardTransmit
#      (the floor), PCSCTransport + the exchange layer (Swift), pyscard (Python)
#   2. profile-engine replay throughput and exchanges per full Shanghai read
#   3. wall time of `cardscan replay`, `cardscan --help`, and a Python replay+decode baseline
#   4. a full Suica read through libnfc and the emulated PN532
#   5. naming a Suica-family card's issuer (one Request Service) against enumerating its nodes
#   6. regression runs at scale: `cardscan test` over a generated corpus (BENCH_CORPUS, default
#      20,000 transcripts) at --jobs 1 and 2, beside a Python parse+decode loop on the same files
#   7. loading the YAML data files: the shape check, Yams' tree, a whole profile load
#   8. `cardscan serve`: the page's queries over a 100,000-trip history, beside the page itself
set -euo pipefail
cd "$(dirname "$0")/.."
N="${BENCH_APDUS:-3000}"
ROUNDS="${BENCH_ROUNDS:-5}"
swift build -c release --product cardscan >/dev/null
swift build -c release --product cardsim >/dev/null
swift build -c release --product CardscanBench >/dev/null
REL="$(swift build -c release --show-bin-path)"
cc -O2 -o "$REL/bench-floor" scripts/bench/floor.c $(pkg-config --cflags --libs libpcsclite)
FIX=Tests/Fixtures/shanghai-transit/full-read.apdu

echo "== 1. per-APDU time through pcscd + vpcd + cardsim ($N APDUs per client, $ROUNDS rounds, interleaved)"
trap 'scripts/lab.sh stop >/dev/null 2>&1 || true' EXIT
CARDSCAN_BIN="$REL" scripts/lab.sh start "$FIX" 35963 >/dev/null 2>&1
READER="Virtual PCD 00 00"
for r in $(seq 1 "$ROUNDS"); do
  "$REL/bench-floor" "$READER" "$N"
  "$REL/CardscanBench" pcsc "$READER" "$N"
  /usr/bin/python3 scripts/bench/pyscard_client.py "$READER" "$N"
done | /usr/bin/python3 scripts/bench/summarize.py
scripts/lab.sh stop >/dev/null 2>&1

echo "== 2. profile engine"
"$REL/CardscanBench" replay Tests/Fixtures profiles 3 | sed 's/^/  /'

echo "== 3. wall time, process start to exit (median of 30 runs each, interleaved)"
swift build -c release --static-swift-stdlib --scratch-path .build-static --product cardscan >/dev/null 2>&1
/usr/bin/python3 - "$REL/cardscan" "$FIX" .build-static/release/cardscan <<'PY'
import subprocess, sys, time, statistics as st
cardscan, fix, static = sys.argv[1], sys.argv[2], sys.argv[3]
cmds = {
    "cardscan replay": [cardscan, "replay", fix],
    "cardscan replay --json": [cardscan, "replay", "--json", fix],
    "cardscan --help": [cardscan, "--help"],
    "installed (static) replay": [static, "replay", fix],
    "installed (static) --help": [static, "--help"],
    "python3 baseline replay+decode": ["/usr/bin/python3", "scripts/bench/replay_baseline.py", fix],
}
times = {k: [] for k in cmds}
for _ in range(30):
    for k, c in cmds.items():
        a = time.perf_counter(); subprocess.run(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True); times[k].append((time.perf_counter() - a) * 1000)
base = st.median(times["python3 baseline replay+decode"])
for k, v in times.items():
    print(f"  {k:32} median {st.median(v):6.1f} ms   ({st.median(v) / base:.2f}x the Python baseline)")
PY

echo "== 4. a full Suica read through the real libnfc + cardsim's emulated PN532 (median of 20 runs)"
swift build -c release --product cardsim >/dev/null 2>&1
PTY="/tmp/cardscan-bench-pn532"
"$REL/cardsim" pn532 --pty "$PTY" Tests/Fixtures/suica/full-read.apdu >/dev/null 2>&1 &
SIM=$!
trap 'kill $SIM 2>/dev/null || true; scripts/lab.sh stop >/dev/null 2>&1 || true' EXIT
for _ in $(seq 1 100); do [ -e "$PTY" ] && break; sleep 0.05; done
LIBNFC_AUTO_SCAN=false /usr/bin/python3 - "$REL/cardscan" "pn532_uart:$PTY" <<'PY'
import json, subprocess, sys, time, statistics as st
cardscan, device = sys.argv[1], sys.argv[2]
times, exchanges = [], None
for _ in range(20):
    a = time.perf_counter()
    r = subprocess.run([cardscan, "--device", device, "--json", "--timeout", "5"], capture_output=True, text=True, check=True)
    times.append((time.perf_counter() - a) * 1000)
    exchanges = json.loads(r.stdout)["exchanges"]
# Which commands: one more read, recorded (the second byte of a frame is its command code).
rec = "/tmp/cardscan-bench-suica.apdu"
subprocess.run([cardscan, "--device", device, "--json", "--timeout", "5", "--record", rec], capture_output=True, check=True)
codes = [line.split()[2] for line in open(rec) if line.startswith("> ")]
print(f"  Read Without Encryption commands per read (balance + 20 history blocks): {codes.count('06')}")
print(f"  all commands: {exchanges} ({codes.count('02')} Request Service naming the issuer)")
print(f"  wall time, process start to report: median {st.median(times):.1f} ms (min {min(times):.1f}, max {max(times):.1f})")
PY
kill $SIM 2>/dev/null || true

echo "== 5. naming a Suica-family card's issuer, through pcscd + vpcd (cardsim as an ACS reader, the PASMO image; median of 20 runs)"
CARDSCAN_BIN="$REL" scripts/lab.sh start Tests/LabCards/pasmo-image.json 35963 >/dev/null 2>&1
/usr/bin/python3 - "$REL/cardscan" <<'PY'
import json, subprocess, sys, statistics as st, time
cardscan = sys.argv[1]
def run(args):
    times, out = [], None
    for _ in range(20):
        a = time.perf_counter()
        out = subprocess.run([cardscan] + args, capture_output=True, text=True, check=True).stdout
        times.append((time.perf_counter() - a) * 1000)
    return st.median(times), json.loads(out)
read, report = run(["--profile", "suica", "--json", "--timeout", "5"])
walk, survey = run(["felica", "--json", "--timeout", "5"])
print(f"  full read, issuer named by one Request Service: {report['name']}, {report['exchanges']} exchanges, median {read:.1f} ms")
print(f"  enumerating every node first (Search Service Code, as Metrodroid does): {survey['exchanges']} exchanges, median {walk:.1f} ms ({walk / read:.2f}x the full read)")
PY
scripts/lab.sh stop >/dev/null 2>&1

echo "== 6. regression runs at scale: cardscan test over a generated corpus, medians of $ROUNDS rounds"
/usr/bin/python3 scripts/bench/corpus.py "$REL/cardscan" "${BENCH_CORPUS:-20000}" "$ROUNDS"

echo "== 7. loading the YAML data files (one core, medians of 11 passes over the files)"
"$REL/CardscanBench" profiles profiles | sed 's/^/  /'

echo "== 8. cardscan serve over a history of 100,000 trips (the installed build; medians of 20, curl through loopback)"
/usr/bin/python3 scripts/serve-bench.py .build-static/release 100000
