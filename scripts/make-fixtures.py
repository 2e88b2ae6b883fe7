#!/usr/bin/env python3
"""Writes the transcripts in Tests/Fixtures from the layouts in docs/cards/, with
values chosen by hand (no real card data). Each fixture's decoded values were checked by
hand once; `cardscan test --update Tests/Fixtures` writes the expected reports.

Run: python3 scripts/make-fixtures.py  (rewrites the .apdu files only)
"""
import os

ROOT = os.path.join(os.path.dirname(__file__), "..", "Tests", "Fixtures")

def h(s):
    return bytes.fromhex(s.replace(" ", "").replace(":", ""))

def sp(b):
    return " ".join(f"{x:02X}" for x in b)

class T:
    def __init__(self, profile, atr, headers=None):
        self.lines = ["# cardscan transcript 1", "# technology: iso7816", f"# atr: {atr}",
                      "# reader: Virtual PCD 00 00", "# protocol: T=1",
                      "# recorded: 2026-11-22T00:00:00Z"]
        if profile:
            self.lines.append(f"# profile: {profile}")
        for k, v in (headers or {}).items():
            self.lines.append(f"# {k}: {v}")

    def x(self, cmd, resp):
        self.lines.append("> " + sp(h(cmd) if isinstance(cmd, str) else cmd))
        self.lines.append("< " + sp(h(resp) if isinstance(resp, str) else resp))
        return self

    def fail(self, cmd, what="removed"):
        self.lines.append("> " + sp(h(cmd)))
        self.lines.append("! " + what)
        return self

    def write(self, name):
        path = os.path.join(ROOT, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("\n".join(self.lines) + "\n")

OK = h("9000")

def record(seq, amount, ttype, terminal, when):
    """A 23-byte PBOC e-purse log record (docs/cards/china.md, the transaction record)."""
    return (seq.to_bytes(2, "big") + b"\0\0\0" + amount.to_bytes(4, "big") + bytes([ttype])
            + h(terminal) + h(when))

# Ten Shanghai trips, newest first: (seq, fen, type, terminal, YYYYMMDDhhmmss).
SH_TRIPS = [
    (12, 300, 0x06, "110111000001", "20240305083015"),
    (11, 200, 0x06, "115000000123", "20240304190144"),
    (10, 5000, 0x02, "120000000005", "20240304180000"),
    (9, 400, 0x06, "110222000014", "20240303081122"),
    (8, 200, 0x06, "115000000123", "20240302075959"),
    (7, 300, 0x06, "110111000001", "20240301233000"),
    (6, 1000, 0x09, "260100000002", "20240229120000"),
    (5, 200, 0x06, "115000000123", "20240228070101"),
    (4, 10000, 0x02, "120000000005", "20240227100000"),
    (3, 300, 0x06, "110111000001", "20240226090909"),
]

SELECT_CU = "00 A4 04 00 09 A0 00 00 00 03 86 98 07 01 00"
CU_AID = "A0 00 00 00 03 86 98 07 01"
SH_ATR = "3B 8B 80 01 20 85 00 8B 03 0F E0 9A A0 E0 40 52"

def ef15(city, serial, start, end, version=1):
    b = bytearray(30)
    b[0:2] = h("0200"); b[2:4] = h(city); b[9] = version
    b[12:16] = h("31045920"); b[16:20] = h(serial); b[20:24] = h(start); b[24:28] = h(end)
    return bytes(b)

def fci(aid, inner):
    a5 = h("9F 08 01 02") + (h("9F 0C") + bytes([len(inner)]) + inner if inner else b"")
    body = h("84") + bytes([len(h(aid))]) + h(aid) + h("A5") + bytes([len(a5)]) + a5
    return h("6F") + bytes([len(body)]) + body

def pboc_log(t, trips, all_records, sfi=0x18):
    """The log read as the China profiles do: "all records" first; else record by record
    until 6A 83, or until a record numbered 1 (the card's first transaction: none older)."""
    p2_all = (sfi << 3) | 5
    p2_one = (sfi << 3) | 4
    if all_records:
        t.x(f"00 B2 01 {p2_all:02X} 00", b"".join(record(*r) for r in trips) + OK)
        return t
    t.x(f"00 B2 01 {p2_all:02X} 00", "6A 86")
    for i, r in enumerate(trips, 1):
        t.x(f"00 B2 {i:02X} {p2_one:02X} 17", record(*r) + OK)
    if not trips or trips[-1][0] != 1:
        t.x(f"00 B2 {len(trips) + 1:02X} {p2_one:02X} 17", "6A 83")
    return t

def shanghai():
    info = ef15("2000", "12345678", "20190301", "20290301")
    # 1. Full read, record by record, EF 0x15 in the FCI: 14 exchanges.
    t = T("shanghai-transit", SH_ATR)
    t.x(SELECT_CU, fci(CU_AID, info) + OK).x("80 5C 00 02 04", h("8000164E") + OK)
    pboc_log(t, SH_TRIPS, all_records=False).write("shanghai-transit/full-read.apdu")
    # 1b. A new card with exactly its first ten transactions (numbered 10…1): record 10 is
    #     transaction 1, so no eleventh READ RECORD is sent (13 exchanges, not 14).
    t = T("shanghai-transit", SH_ATR)
    t.x(SELECT_CU, fci(CU_AID, info) + OK).x("80 5C 00 02 04", h("8000164E") + OK)
    first_ten = [(10 - i,) + tuple(r[1:]) for i, r in enumerate(SH_TRIPS)]
    pboc_log(t, first_ten, all_records=False).write("shanghai-transit/first-ten.apdu")
    # 2. A card that answers "all records from P1": 3 exchanges.
    t = T("shanghai-transit", SH_ATR)
    t.x(SELECT_CU, fci(CU_AID, info) + OK).x("80 5C 00 02 04", h("0000164E") + OK)
    pboc_log(t, SH_TRIPS, all_records=True).write("shanghai-transit/all-records.apdu")
    # 3. A T=0 card: SELECT answers 61 xx (GET RESPONSE), no EF 0x15 in the FCI, READ
    #    BINARY answers 6C 1E first; an overdrawn purse (-2.50 yuan); 3 trips then 6A83.
    short_fci = fci(CU_AID, b"")
    t = T("shanghai-transit", "3B 02 14 50", {"protocol": "T=0"})
    t.lines = [l for l in t.lines if l != "# protocol: T=1"]
    t.x(SELECT_CU, f"61 {len(short_fci):02X}").x(f"00 C0 00 00 {len(short_fci):02X}", short_fci + OK)
    t.x("00 B0 95 00 1E", info + OK)
    t.x("80 5C 00 02 04", h("FFFFFF06") + OK)
    pboc_log(t, SH_TRIPS[:3], all_records=False).write("shanghai-transit/t0-overdrawn-few-trips.apdu")
    # 4. Removed after the 5th record: a partial report with 5 trips.
    t = T("shanghai-transit", SH_ATR)
    t.x(SELECT_CU, fci(CU_AID, info) + OK).x("80 5C 00 02 04", h("8000164E") + OK)
    t.x("00 B2 01 C5 00", "6A 86")
    for i, r in enumerate(SH_TRIPS[:5], 1):
        t.x(f"00 B2 {i:02X} C4 17", record(*r) + OK)
    t.fail("00 B2 06 C4 17")
    t.write("shanghai-transit/removed-mid-read.apdu")

def city_union():
    # Xi'an (city 7100): detection must pick city-union, not shanghai-transit.
    info = ef15("7100", "78563412", "20200615", "20300615")
    t = T("city-union", "3B 8B 80 01 20 85 00 8B 03 0F E0 9A A0 E0 40 52")
    t.x(SELECT_CU, fci(CU_AID, info) + OK).x("80 5C 00 02 04", h("000003E8") + OK)
    pboc_log(t, SH_TRIPS[:4], all_records=True).write("city-union/xian-full.apdu")
    # No log file at all (6A82 for every record request), balance zero.
    t = T("city-union", "3B 02 14 50")
    t.x(SELECT_CU, fci(CU_AID, info) + OK).x("80 5C 00 02 04", h("00000000") + OK)
    t.x("00 B2 01 C5 00", "6A 82").x("00 B2 01 C4 17", "6A 82")
    t.write("city-union/no-log-file.apdu")

BJ_TRIPS = [
    (21, 300, 0x06, "300011000001", "20231112081500"),
    (20, 5000, 0x02, "100000000001", "20231111120000"),
    (19, 200, 0x06, "300041000007", "20231110183000"),
]

def beijing():
    issuer = h("1000 0000 1234 5678") + h("01 02 03") + bytes(13) + h("20180101") + h("20380101")
    t = T("beijing-yikatong", "3B 82 80 01 42 4A 0B")
    t.x("00 B0 84 00 20", issuer + OK)
    t.x("00 A4 00 00 02 10 01 00", h("6F 08 84 04 50 42 4F 43 A5 00") + OK)
    t.x("80 5C 00 02 04", h("00002710") + OK)
    pboc_log(t, BJ_TRIPS, all_records=False).write("beijing-yikatong/full-read.apdu")
    t = T("beijing-yikatong", "3B 82 80 01 48 58 13")
    t.x("00 B0 84 00 20", issuer + OK)
    t.x("00 A4 00 00 02 10 01 00", h("6F 08 84 04 50 42 4F 43 A5 00") + OK)
    t.x("80 5C 00 02 04", h("00000064") + OK)
    pboc_log(t, BJ_TRIPS[:1], all_records=True).write("beijing-yikatong/one-trip.apdu")

SZT_TRIPS = [
    (7, 250, 0x06, "000060012345", "20220901091500"),   # terminal >> 28 = 6: metro
    (6, 200, 0x06, "000030000777", "20220831180000"),   # 3: bus
    (5, 10000, 0x02, "000000000001", "20220830100000"),
]

def shenzhen():
    info = ef15("5180", "39300C00", "20210101", "20310101")  # serial LE 0x000C3039 = 798777
    aid = "50 41 59 2E 53 5A 54"
    sel = "00 A4 04 00 07 " + aid + " 00"
    t = T("shenzhen-tong", "3B 02 14 50")
    t.x(sel, fci(aid, info) + OK).x("80 5C 00 02 04", h("000004D2") + OK)
    pboc_log(t, SZT_TRIPS, all_records=False).write("shenzhen-tong/full-read.apdu")
    t = T("shenzhen-tong", "3B 02 14 50")
    t.x(sel, fci(aid, b"") + OK).x("00 B0 95 00 1E", info + OK).x("80 5C 00 02 04", h("00000000") + OK)
    pboc_log(t, [], all_records=False).write("shenzhen-tong/empty-log.apdu")

def wuhan():
    aid = "41 50 31 2E 57 48 43 54 43"
    sel = "00 A4 04 00 09 " + aid + " 00"
    info = bytes(16) + h("20320101") + h("20220101") + bytes([3])   # 25 bytes: end, start, version
    for name, balance, trips in [("full-read", "00000BB8", SZT_TRIPS), ("top-bit-balance", "80000BB8", SZT_TRIPS[:1])]:
        t = T("wuhan-tong", "3B 02 14 50")
        t.x(sel, fci(aid, b"") + OK)
        t.x("00 A4 00 00 02 3F 00 00", h("6F 00") + OK)
        t.x("00 B0 8A 00 05", h("27 01 00 12 34") + OK)
        t.x("00 B0 85 00 19", info + OK)
        t.x(sel, fci(aid, b"") + OK)
        t.x("80 5C 00 02 04", h(balance) + OK)
        pboc_log(t, trips, all_records=(name == "full-read")).write(f"wuhan-tong/{name}.apdu")

def t_union():
    aid = "A0 00 00 06 32 01 01 05"
    sel = "00 A4 04 00 08 " + aid + " 00"
    info = bytearray(30)
    info[10:20] = h("03104400001234567890"); info[20:24] = h("20230401"); info[24:28] = h("20330401")
    info = bytes(info)
    mgmt = h("00 00 00 00 31 00 31 10 00 00 02")
    t = T("t-union", "3B 8F 80 01 4D 54 00 02 01 00 FF FF 01 14 01 34 22 07 11 00")
    t.x(sel, fci(aid, info) + OK).x("00 B0 97 00 0B", mgmt + OK)
    t.x("80 5C 00 02 04", h("00001F40") + OK).x("80 5C 01 02 04", h("00000000") + OK)
    pboc_log(t, SH_TRIPS[:5], all_records=False).write("t-union/full-read.apdu")
    # No EF 0x17 (6A82) and no overdraft answer (6D00): the optional fields are left out.
    t = T("t-union", "3B 02 14 50")
    t.x(sel, fci(aid, info) + OK).x("00 B0 97 00 0B", "6A 82")
    t.x("80 5C 00 02 04", h("00000032") + OK).x("80 5C 01 02 04", "6D 00")
    pboc_log(t, SH_TRIPS[:2], all_records=True).write("t-union/missing-optional-files.apdu")
    # What a real Shanghai-issued card answered (issue 12): 800 to P1 00 and to P1 01; its
    # holder saw ¥0.00. And a card that owes money: 0 on the purse, 350 to P1 01 → −¥3.50.
    for name, purse, owed in (("purse-equals-overdraft", "00000320", "00000320"), ("money-owed", "00000000", "0000015E")):
        t = T("t-union", "3B 8F 80 01 4D 54 00 02 01 00 FF FF 01 14 01 34 22 07 11 00")
        t.x(sel, fci(aid, info) + OK).x("00 B0 97 00 0B", mgmt + OK)
        t.x("80 5C 00 02 04", h(purse) + OK).x("80 5C 01 02 04", h(owed) + OK)
        pboc_log(t, SH_TRIPS[:1], all_records=False).write(f"t-union/{name}.apdu")

def lingnan():
    appy = "50 41 59 2E 41 50 50 59"
    ticl = "50 41 59 2E 54 49 43 4C"
    info = bytearray(56)
    info[11:16] = h("5100123456"); info[23:27] = h("20200101"); info[27:31] = h("20300101"); info[44:46] = h("0102")
    for name, trips, allrec in [("full-read", SH_TRIPS[:6], False), ("all-records", SH_TRIPS[:2], True)]:
        t = T("lingnan-pass", "3B 02 14 50")
        t.x(f"00 A4 04 00 08 {appy} 00", fci(appy, b"") + OK)
        t.x("00 B0 95 00 00", bytes(info) + OK)
        t.x(f"00 A4 04 00 08 {ticl} 00", fci(ticl, b"") + OK)
        t.x("80 5C 00 02 04", h("000007D0") + OK)
        pboc_log(t, trips, all_records=allrec).write(f"lingnan-pass/{name}.apdu")

def cepas_purse(balance, can):
    p = bytearray(64)
    p[0] = 2; p[1] = 1
    p[2:5] = (balance & 0xFFFFFF).to_bytes(3, "big")
    p[5:8] = (2000).to_bytes(3, "big")
    p[8:16] = h(can); p[16:24] = h("0011223344556677")
    p[24:26] = (11322).to_bytes(2, "big")    # 2025-12-31
    p[26:28] = (6940).to_bytes(2, "big")     # 2014-01-01
    p[40] = 3; p[41] = 0
    return bytes(p[:63])

def cepas_record(kind, amount, seconds, text):
    raw = text if isinstance(text, bytes) else text.encode()
    return bytes([kind]) + (amount & 0xFFFFFF).to_bytes(3, "big") + seconds.to_bytes(4, "big") + raw.ljust(8, b" ")

def ezlink():
    # 2024-03-05 08:30:00 SGT = 29 years + 64 days after 1995-01-01 → seconds computed here.
    import datetime
    def secs(y, mo, d, hh, mi, ss):
        return int((datetime.datetime(y, mo, d, hh, mi, ss) - datetime.datetime(1995, 1, 1)).total_seconds())
    hist = (cepas_record(48, -152, secs(2024, 3, 5, 8, 30, 0), "EW12NS1")
            + cepas_record(49, -92, secs(2024, 3, 4, 18, 5, 0), "BUS 174")
            + cepas_record(117, 2000, secs(2024, 3, 4, 9, 0, 0), "TOPUP"))
    t = T("ezlink", "3B 88 80 01 1C 2D 94 11 F7 71 85 00 BE")
    t.x("00 A4 00 00 02 40 00 00", OK)
    t.x("90 32 03 00 00", cepas_purse(1234, "1009123456781234") + OK)
    t.x("90 32 03 00 01 00 00", hist + OK)
    t.x("90 32 03 00 01 03 00", "6A 83")  # asked from record 3: there is no older one
    t.write("ezlink/full-read.apdu")
    # A full first answer (the newest 15 records) and 2 older ones behind it: the second
    # request starts at record 15 (0x0F), as Metrodroid and Farebot ask.
    newest = b"".join(cepas_record(48, -100 - i, secs(2024, 3, 20 - i, 8, 0, 0), f"EW{i:02d}NS1") for i in range(15))
    older = cepas_record(49, -92, secs(2024, 3, 4, 18, 5, 0), "BUS 174") + cepas_record(117, 5000, secs(2024, 3, 4, 9, 0, 0), "TOPUP")
    t = T("ezlink", "3B 88 80 01 1C 2D 94 11 F7 71 85 00 BE")
    t.x("00 A4 00 00 02 40 00 00", OK)
    t.x("90 32 03 00 00", cepas_purse(3456, "1009123456781234") + OK)
    t.x("90 32 03 00 01 00 00", newest + OK)
    t.x("90 32 03 00 01 0F 00", older + OK)
    t.write("ezlink/more-history.apdu")
    # NETS FlashPay: CAN prefix 111; a place with a Latin-1 byte (É) and a NUL in it.
    t = T("ezlink", "3B 88 80 01 1C 2D 94 11 F7 71 85 00 BE")
    t.x("00 A4 00 00 02 40 00 00", OK)
    t.x("90 32 03 00 00", cepas_purse(777, "1110000012345678") + OK)
    t.x("90 32 03 00 01 00 00", cepas_record(1, -450, secs(2024, 3, 6, 12, 0, 0), b"CAF\xc9\x00RUE") + OK)
    t.x("90 32 03 00 01 01 00", "6A 83")
    t.write("ezlink/flashpay.apdu")
    # Negative balance (−3.20 SGD), no history (6A83).
    t = T("ezlink", "3B 8C 80 01 50 68 DD A5 B1 1C 00 00 11 77 81 85 82")
    t.x("00 A4 00 00 02 40 00 00", OK)
    t.x("90 32 03 00 00", cepas_purse(-320, "1009000011112222") + OK)
    t.x("90 32 03 00 01 00 00", "6A 83")
    t.write("ezlink/negative-no-history.apdu")

class FeliCaT:
    """A `technology: felica` transcript: frames start with their length byte."""
    def __init__(self, profile, idm, pmm, sc):
        self.idm = h(idm)
        self.lines = ["# cardscan transcript 1", "# technology: felica", f"# idm: {idm}", f"# pmm: {pmm}",
                      f"# system-code: {sc}", "# recorded: 2026-11-22T00:00:00Z", f"# profile: {profile}"]

    def read(self, service, blocks, data):
        """Read Without Encryption of `blocks` of `service` (2-byte block elements), answered with `data`."""
        body = bytes([1]) + service.to_bytes(2, "little") + bytes([len(blocks)]) + b"".join(bytes([0x80, b]) for b in blocks)
        cmd = bytes([2 + 8 + len(body), 0x06]) + self.idm + body
        payload = b"\0\0" + bytes([len(data)]) + b"".join(data)
        resp = bytes([2 + 8 + len(payload), 0x07]) + self.idm + payload
        self.lines += ["> " + sp(cmd), "< " + sp(resp)]
        return self

    def request_service(self, nodes, present):
        """Request Service for `nodes`; those in `present` exist (key version 0001), others FFFF."""
        body = bytes([len(nodes)]) + b"".join(n.to_bytes(2, "little") for n in nodes)
        versions = bytes([len(nodes)]) + b"".join((1 if n in present else 0xFFFF).to_bytes(2, "little") for n in nodes)
        self.lines += ["> " + sp(bytes([10 + len(body), 0x02]) + self.idm + body),
                       "< " + sp(bytes([10 + len(versions), 0x03]) + self.idm + versions)]
        return self

    def removed(self):
        """The card leaves while the last recorded command is in flight."""
        self.lines[-1] = "! removed"
        return self

    def write(self, name):
        T.write(self, name)

def profile_variants(profile):
    """The variants of a built-in profile: name → its service codes (the profile is the one source)."""
    import yaml
    with open(os.path.join(ROOT, "..", "..", "profiles", f"{profile}.yaml")) as f:
        return {v["name"]: v["services"] for v in yaml.safe_load(f)["variants"]}

def suica_history(n):
    """n history blocks, newest first, in the 090F layout (docs/cards/suica.md); the oldest
    two are the worked example (170 yen, then a 160-yen fare to 10 yen)."""
    rows = []
    balance = 10
    # (console, process, YY, MM, DD, entry, exit, change): newest first.
    events = [(0x16, 0x01, 24, 3, 5, "E33B", "E621", -210), (0xC7, 0x46, 24, 3, 4, "0000", "0000", -150),
              (0x16, 0x01, 24, 3, 1, "E621", "E33B", -160), (0x05, 0x0D, 24, 2, 28, "1234", "0056", -220),
              (0x08, 0x02, 24, 2, 27, "0000", "0000", 2000)]
    events = events[len(events) - max(0, n - 2):]    # the newest of them
    total = 10 + sum(c for *_, c in events)
    bal = total
    seq = 0x01E3 + 2 * len(events)
    for con, proc, yy, mm, dd, en, ex, change in events:
        date = (yy << 9 | mm << 5 | dd).to_bytes(2, "big")
        rows.append(bytes([con, proc, 0, 2]) + date + h(en) + h(ex) + bal.to_bytes(2, "little") + b"\0" + seq.to_bytes(2, "big") + b"\0")
        bal -= change
        seq -= 2
    rows.append(h("16 01 00 02 16 6C E3 3B E6 21 0A 00 00 01 E3 00"))
    rows.append(h("16 01 00 02 16 6B E6 21 E3 3B AA 00 00 01 E1 00"))
    return rows[:n], total

def suica():
    idm, pmm = "01 2E 4C D0 1A 2B 3C 4D", "03 01 4B 02 4F 49 93 FF"
    variants = profile_variants("suica")
    nodes = [c for codes in variants.values() for c in codes]
    # (fixture, history blocks, issuers whose services the card has): one issuer names the
    # card; none or two leave the family name.
    for name, n, issuers in [("full-read", 7, ["Suica"]), ("two-trips", 2, ["PASMO"]),
                             ("unknown-issuer", 3, []), ("two-issuers", 1, ["Suica", "PASMO"])]:
        hist, balance = suica_history(n)
        hist += [bytes(16)] * (20 - len(hist))          # unused history blocks are zeros
        info = bytes(11) + balance.to_bytes(2, "little") + b"\0" + h("01 E3")
        t = FeliCaT("suica", idm, pmm, "00 03")
        t.read(0x008B, [0], [info])
        t.read(0x090F, list(range(10)), hist[:10]).read(0x090F, list(range(10, 20)), hist[10:])
        t.request_service(nodes, {c for i in issuers for c in variants[i]})
        t.write(f"suica/{name}.apdu")
        if name == "two-trips":
            # Removed while asked for its issuer: balance and trips are kept (partial).
            t.removed().write("suica/removed-before-issuer.apdu")
    # Issue 12's Suica corrections in one history, newest first: a vending purchase at 15:28
    # (console C8: bytes 6-7 are 0x7B80, hour 15, minute 28 — as in Farebot's public sample),
    # a fare paid with an auto-charge at the exit gate (process 15), a ticket-machine top-up
    # (console 13), a plain fare, then two blocks with no date (starting 00 00 00 80, as on a
    # real PASMO): not trips, and no fare is made up for the oldest real record from them.
    def block(con, proc, date, b67, b89, bal):
        return bytes([con, proc, 0, 2]) + date.to_bytes(2, "big") + h(b67) + h(b89) + bal.to_bytes(2, "little") + bytes(4)
    d = lambda yy, mm, dd: yy << 9 | mm << 5 | dd
    hist = [block(0xC8, 0x46, d(24, 3, 8), "7B 80", "00 00", 1720),
            block(0x16, 0x15, d(24, 3, 7), "E3 3B", "E6 21", 1840),
            block(0x13, 0x02, d(24, 3, 6), "00 00", "00 00", 2050),
            block(0x16, 0x01, d(24, 3, 5), "E6 21", "E3 3B", 50),
            h("00 00 00 80 00 00 00 00 00 00 00 00 00 00 00 00"),
            h("00 00 00 80 00 00 00 00 00 00 00 00 00 00 00 00")]
    hist += [bytes(16)] * (20 - len(hist))
    info = bytes(11) + (1720).to_bytes(2, "little") + b"\0" + h("01 E3")
    t = FeliCaT("suica", idm, pmm, "00 03")
    t.read(0x008B, [0], [info])
    t.read(0x090F, list(range(10)), hist[:10]).read(0x090F, list(range(10, 20)), hist[10:])
    t.request_service(nodes, set(variants["PASMO"]))
    t.write("suica/corrections.apdu")

def octopus():
    # 0x100 = 256 → −HK$9.40 with offset 350; 0x3E8 → HK$65.00; 920 (03 98) is what a real
    # card answered when its holder saw HK$57.00 (issue 12): the offset-350 evidence.
    for name, raw in [("negative-balance", 0x100), ("positive-balance", 0x3E8), ("real-card-920", 920)]:
        t = FeliCaT("octopus", "01 01 07 01 E1 12 34 56", "00 F1 00 00 00 01 43 00", "80 08")
        t.read(0x0117, [0], [raw.to_bytes(4, "big") + bytes(12)])
        t.write(f"octopus/{name}.apdu")

def shenzhen_felica():
    # 0x0190 = 400 → (400 − 350) × 10 = ¥5.00; 0x0100 = 256 → −¥9.40 (below the offset).
    for name, raw in [("positive-balance", 0x190), ("negative-balance", 0x100)]:
        t = FeliCaT("shenzhen-tong-felica", "11 01 07 01 E1 12 34 56", "00 F1 00 00 00 01 43 00", "80 05")
        t.read(0x0118, [0], [raw.to_bytes(4, "big") + bytes(12)])
        t.write(f"shenzhen-tong-felica/{name}.apdu")

if __name__ == "__main__":
    shanghai(); city_union(); beijing(); shenzhen(); wuhan(); t_union(); lingnan(); ezlink(); suica(); octopus()
    shenzhen_felica()
    print("fixtures written under", os.path.normpath(ROOT))
