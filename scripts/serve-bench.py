#!/usr/bin/env python3
"""The serve bench (make bench, docs/performance.md): a history of 100,000 trips for one card
(written with Python's sqlite3 into the schema cardscan made), and the page's queries against a
running `cardscan serve`: the card list, the card (its balances and trips), its CSV. Medians of
20 runs each, with curl, through loopback, beside the baseline of the same run: the page itself,
which the server sends from memory (the HTTP floor: no query).

    /usr/bin/python3 scripts/serve-bench.py CARDSCAN_BIN_DIR [TRIPS]
"""
import json, os, shutil, sqlite3, statistics, subprocess, sys, tempfile, time

bin_dir = sys.argv[1]
trips = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
work = tempfile.mkdtemp(prefix="cardscan-serve-bench-")
env = dict(os.environ, XDG_DATA_HOME=work)
db = os.path.join(work, "cardscan", "history.sqlite")
subprocess.run([os.path.join(bin_dir, "cardscan"), "history"], env=env, check=True, capture_output=True)  # makes the schema
c = sqlite3.connect(db)
c.execute("INSERT INTO card (key, profile, name, number, currency, firstSeen, lastSeen) VALUES "
          "('shanghai-transit:305419896', 'shanghai-transit', 'Shanghai Public Transportation Card', '305419896', 'CNY', "
          "'2020-01-01T00:00:00Z', '2026-11-27T00:00:00Z')")
card = c.execute("SELECT id FROM card").fetchone()[0]
reads = trips // 10
c.executemany("INSERT INTO read (cardId, time, reader, profile, balance, currency, partial, report) VALUES (?, ?, 'bench', "
              "'shanghai-transit', ?, 'CNY', 0, '{}')",
              [(card, f"2020-01-01T00:00:{i:07d}Z", 5000 + i % 1000) for i in range(reads)])
rows = []
for i in range(trips):
    t = f"20{20 + i // 400000:02d}-{1 + (i // 30000) % 12:02d}-{1 + (i // 1000) % 28:02d}T{(i // 60) % 24:02d}:{i % 60:02d}:00+08:00"
    trip = {"time": t, "kind": "purchase", "amount": -300, "terminal": "110111000001", "sequence": i}
    rows.append((card, f"time={t}|sequence={i}", t, "purchase", -300, "CNY", json.dumps(trip), 1))
c.executemany("INSERT INTO trip (cardId, identity, time, kind, amount, currency, json, firstReadId) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
# What HistoryStore.save keeps as it adds trips: the spending per month and week.
c.execute("INSERT INTO spending (cardId, period, amount) SELECT cardId, 'month ' || substr(time, 1, 7), -SUM(amount) FROM trip "
          "WHERE amount < 0 GROUP BY cardId, substr(time, 1, 7)")
c.execute("INSERT INTO spending (cardId, period, amount) SELECT cardId, 'week of ' || date(substr(time, 1, 10), 'weekday 0', '-6 days'), "
          "-SUM(amount) FROM trip WHERE amount < 0 GROUP BY cardId, date(substr(time, 1, 10), 'weekday 0', '-6 days')")
c.commit()
c.close()
port = "18790"
server = subprocess.Popen([os.path.join(bin_dir, "cardscan"), "serve", "--port", port],
                          env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(100):
        if subprocess.run(["curl", "-s", "-o", "/dev/null", f"http://127.0.0.1:{port}/api/cards"]).returncode == 0:
            break
        time.sleep(0.1)
    floor = None
    for name, path in [("the page (baseline: no query)", "/"), ("cards list", "/api/cards"),
                       ("one card: balances and trips", f"/api/cards/{card}"), ("its trips as CSV", f"/api/cards/{card}/trips.csv")]:
        times, size = [], 0
        for _ in range(20):
            r = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{time_total} %{size_download}", f"http://127.0.0.1:{port}{path}"],
                               capture_output=True, text=True, check=True)
            t, size = r.stdout.split()
            times.append(float(t) * 1000)
        median = statistics.median(times)
        floor = floor or median
        print(f"  {name}: median {median:.1f} ms, {median / floor:.1f}x the baseline ({int(size):,} bytes; {trips:,} trips, {reads:,} reads)")
finally:
    server.terminate()
    server.wait(10)
    shutil.rmtree(work, ignore_errors=True)
