#!/usr/bin/env python3
"""Write the Calypso lab card images of Tests/LabCards from named values, so every record in
them can be checked by hand (docs/cards/calypso.md shows one record per network worked out).

    scripts/calypso-lab-images.py            rewrite the images
    scripts/calypso-lab-images.py --check    exit 1 if a committed image differs

Records are encoded with scripts/encode-record.py from the layouts in the profiles, with the
values below: dates as dates, times as times. The cards are invented (no real card's data).
"""
import datetime as dt
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab_images  # noqa: E402
from lab_images import hexs  # noqa: E402


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

EPOCH = dt.date(1997, 1, 1)


def days(y, m, d):
    """EN 1545 date: days since 1997-01-01."""
    return (dt.date(y, m, d) - EPOCH).days


def minutes(h, m):
    return h * 60 + m


def seconds(y, mo, d, h, mi, s=0):
    """EN 1545 date-time: seconds since 1997-01-01 00:00 (UTC or local: the same count)."""
    return int((dt.datetime(y, mo, d, h, mi, s) - dt.datetime(1997, 1, 1)).total_seconds())


def packed_date(y, m, d):
    return (y - 2000) << 9 | m << 5 | d


def packed_time(h, m):
    return h << 6 | m


def bcd(text):
    return int(text, 16)


def record(profile, layout, values, length=29):
    return hexs(lab_images.encode(profile, layout, values, length))


def zeros(n=29):
    return hexs(bytes(n))


def counters(*values, length=29):
    data = b"".join(v.to_bytes(3, "big") for v in values)
    return hexs(data + bytes(length - len(data)))


def atr_type_b(app_data):
    """PC/SC part 3 ATR of a Type B card: 3B 88 80 01, ATQB application data, protocol info, MBLI|CID, TCK."""
    body = [0x88, 0x80, 0x01] + list(app_data) + [0x33, 0x81, 0x81, 0x00]
    tck = 0
    for b in body:
        tck ^= b
    return hexs(bytes([0x3B] + body + [tck]))


def fci(name, serial):
    """6F: 84 DF name, A5 { BF0C { C7 serial } }."""
    c7 = bytes([0xC7, len(serial)]) + serial
    bf0c = bytes([0xBF, 0x0C, len(c7)]) + c7
    a5 = bytes([0xA5, len(bf0c)]) + bf0c
    inner = bytes([0x84, len(name)]) + name + a5
    return hexs(bytes([0x6F, len(inner)]) + inner)


TICA = b"1TIC.ICA"


def icc(serial4):
    """ICC record (0002): the chip serial in bytes 12-19 and the 4-byte number in bytes 16-19."""
    data = bytearray(29)
    data[16:20] = serial4
    return hexs(bytes(data))


def ticketing(env, events, contracts, counter_record, named=True, fci_serial=None):
    """The ticketing DF 2000 (named 1TIC.ICA unless `named` is false): environment (SFI 07),
    events (08), contracts (09) and counters (19, LID 2069); `env` is its list of records."""
    df = {}
    if named:
        df["aid"] = TICA.hex().upper()
    df["fid"] = "2000"
    if fci_serial is not None:
        df["fci"] = fci(TICA, fci_serial)
    df["files"] = [
        {"fid": "2001", "sfi": 7, "records": env},
        {"fid": "2010", "sfi": 8, "records": events},
        {"fid": "2020", "sfi": 9, "records": contracts},
        {"fid": "2069", "sfi": 25, "records": [counter_record]},
    ]
    return df


def image(note, atr, files, cla=None, type_b=True):
    doc = {"technology": "iso7816", "note": note, "atr": atr}
    if type_b:
        doc["iso14443"] = "b"
    if cla:
        doc["cla"] = cla
    doc["files"] = files
    return doc


def mobib(version):
    p = "mobib"
    if version >= 3:
        env = {"version": 3, "network": "0x056001", "end-date": days(2038, 2, 4), "birth-date": 0,
               "card-number": bcd("6396530000123456783"), "postal-code": 1000}
        # Event v3: bitmap5 = stop, route, mode+station present; bitmap6 = serial, first stamp.
        events = [
            record(p, "event", {"version": 3, "date": days(2024, 5, 6), "time": minutes(8, 15), "mode": 0, "station": 0x1F4B,
                                "serial": 1234, "first-date": days(2024, 5, 6), "first-time": minutes(8, 15)}),
            record(p, "event", {"version": 3, "date": days(2024, 5, 5), "time": minutes(18, 2), "stop": 2345, "route": 71,
                                "mode": 15, "station": 0, "serial": 1233, "first-date": days(2024, 5, 5), "first-time": minutes(17, 50)}),
            zeros(),
        ]
        contracts = [
            record(p, "contract", {"version": 3, "tariff": 0x2803, "sale-date": days(2024, 4, 30), "price": 1600}),
            record(p, "contract", {"version": 5, "tariff": 0x303D, "price": 900, "sale-date": days(2024, 5, 5),
                                   "duration-unit": 2, "duration": 1}),
            zeros(), zeros(),
        ]
        note = "MOBIB lab card, records of version 3 (environment, events) and 3 and 5 (contracts): invented values"
    else:
        env = {"version": 2, "network": "0x056001", "end-date": days(2027, 6, 30), "birth-date": bcd("19850412"),
               "card-number": bcd("6396531111222233334"), "postal-code": 1348}
        events = [
            record(p, "event", {"version": 2, "date": days(2024, 2, 1), "time": minutes(7, 58), "passengers": 1, "stop": 0,
                                "route": 0, "mode": 7, "station": 0x0A21, "serial": 88, "transfer": 3,
                                "first-date": days(2024, 2, 1), "first-time": minutes(7, 40)}),
            record(p, "event", {"version": 2, "date": days(2024, 1, 31), "time": minutes(17, 30), "passengers": 1, "stop": 1511,
                                "route": 92, "mode": 22, "station": 0, "serial": 87, "transfer": 0,
                                "first-date": days(2024, 1, 31), "first-time": minutes(17, 30)}),
            zeros(),
        ]
        contracts = [record(p, "contract", {"version": 2, "tariff": 0x2801, "sale-date": days(2024, 1, 20), "price": 210}),
                     zeros(), zeros(), zeros()]
        note = "MOBIB lab card, records of version 2 (environment, events, contracts): invented values"
    serial = bytes([0, 0, 0, 0, 0x1B, 0x2C, 0x3D, version])
    return image(note, atr_type_b(b"\x00\x00\x00\x00"), [
        {"fid": "0002", "sfi": 2, "records": [icc(serial[4:])]},
        ticketing([record(p, "environment", env)], events, contracts, counters(7, 1) if version >= 3 else counters(1), fci_serial=serial),
    ])


def ravkav():
    p = "ravkav"
    env = {"version": 1, "country": "0x376", "issuer": 2, "application-number": 4321987, "issue-date": days(2019, 9, 1),
           "end-date": days(2029, 8, 31), "pay-method": 0, "birth-date": 0, "id-number": 0, "profile-1": 0}
    events = [
        # 2024-07-01 05:10:00 UTC = 08:10 in Israel (summer time, +03:00): Israel Railways, entry.
        record(p, "event", {"version": 1, "provider": 2, "contract": 2, "code": 0x51, "time": seconds(2024, 7, 1, 5, 10),
                            "first-time": seconds(2024, 7, 1, 5, 10), "location": 7001}),
        # 2024-03-12 06:40:00 UTC = 08:40 in Israel (winter, +02:00): Egged line 480, entry, 1650 agorot.
        record(p, "event", {"version": 1, "provider": 3, "contract": 1, "code": 0x31, "time": seconds(2024, 3, 12, 6, 40),
                            "first-time": seconds(2024, 3, 12, 6, 40), "location": 26321, "line": 480,
                            "route-system": 14, "fare-code": 5, "debit": 1650}),
        zeros(), zeros(), zeros(), zeros(),
    ]
    contracts = [
        # Stored value: access 1, counter use 3, ticket type 6 = 1 << 9 | 3 << 6 | 6 = 710.
        record(p, "contract", {"version": 1, "start-date": 0, "provider": 1, "tariff": 710, "sale-date": days(2024, 3, 1),
                               "sale-device": 77, "sale-number": 12}),
        # Trips: access 1, counter use 2, ticket type 1 = 641; valid until 2024-12-31.
        record(p, "contract", {"version": 1, "start-date": 0, "provider": 2, "tariff": 641, "sale-date": days(2024, 6, 20),
                               "sale-device": 301, "sale-number": 4, "end-date": days(2024, 12, 31)}),
        zeros(), zeros(), zeros(), zeros(), zeros(), zeros(),
    ]
    serial = bytes([0, 0, 0, 0, 0x1E, 0x2D, 0x3C, 0x4B])  # card number 506281035 (bytes 4-7, 0x1E2D3C4B)
    return image("Rav-Kav lab card: anonymous, a stored value of ILS 32.50 and 8 train trips; invented values",
                 atr_type_b(b"\x00\x00\x00\x00"), [
        {"fid": "0002", "sfi": 2, "records": [icc(serial[4:])]},
        ticketing([record(p, "environment", env)], events, contracts, counters(3250, 8), fci_serial=serial),
    ])


def opus():
    p = "opus"
    env = {"version": 1, "network": "0x124001", "issuer": 0x23, "end-date": days(2030, 1, 31)}
    events = [
        record(p, "event", {"date": days(2024, 10, 3), "time": minutes(8, 5), "result": 0, "provider": 2, "location": 0xC9,
                            "route": 2, "contract": 1, "first-date": days(2024, 10, 3), "first-time": minutes(8, 5), "simulation": 0}),
        record(p, "event", {"date": days(2024, 10, 2), "time": minutes(17, 45), "result": 0, "provider": 2, "location": 0x65,
                            "route": 747, "contract": 2, "first-date": days(2024, 10, 2), "first-time": minutes(17, 45), "simulation": 0}),
        zeros(),
    ]
    contracts = [
        # A monthly pass: start and end dates.
        record(p, "contract", {"provider": 2, "tariff": 0xB1, "start-date": days(2024, 10, 1), "end-date": days(2024, 10, 31),
                               "sale-date": days(2024, 9, 28), "sale-time": minutes(12, 30), "status": 0}),
        # 10 trips: no end date, so the counter counts trips.
        record(p, "contract", {"provider": 2, "tariff": 0x80C, "start-date": days(2024, 9, 1),
                               "sale-date": days(2024, 9, 1), "sale-time": minutes(9, 0), "status": 0}),
        zeros(), zeros(),
    ]
    number = (2460000123).to_bytes(4, "big")
    return image("Opus lab card: no DF name, class 94 only, a monthly pass and 10 trips; invented values",
                 atr_type_b(b"\x00\x00\x00\x00"), [
        {"fid": "0002", "sfi": 2, "records": [icc(number)]},
        ticketing([record(p, "environment", env)], events, contracts, counters(0, 6), named=False),
    ], cla=["94"])


def lisboa():
    p = "lisboa-viva"
    env = {"country": "0x131", "issuer": 2, "number": 2749123, "issue-date": days(2022, 5, 23), "end-date": days(2027, 5, 31),
           "birth-date": bcd("19871124")}
    events = [
        # 2024-03-20 15:44:38 Lisbon (UTC+0 then): exit at Metro green line, station 9.
        record(p, "event", {"time": seconds(2024, 3, 20, 15, 44, 38), "first-contract": 2, "first-time": seconds(2024, 3, 20, 15, 29, 5),
                            "contracts-used": 2, "transition": 4, "provider": 2, "device": 0x0900, "route": 0x3003,
                            "location": 9 << 2 | 1}),
        # 2024-07-10 08:12:00 Lisbon (UTC+1): entry on a Carris bus, route 728.
        record(p, "event", {"time": seconds(2024, 7, 10, 8, 12), "first-contract": 1, "first-time": seconds(2024, 7, 10, 8, 12),
                            "contracts-used": 1, "transition": 1, "provider": 1, "vehicle": 1234, "device": 0x0123, "route": 728,
                            "location": 17}),
        zeros(),
    ]
    contracts = [
        record(p, "contract", {"provider": 31, "tariff": 906, "start-date": days(2024, 7, 1), "sales-point": 3,
                               "period-unit": 0x10A, "second-date": days(2024, 7, 1), "period": 1}),
        record(p, "contract", {"provider": 31, "tariff": 33592, "start-date": days(2022, 5, 23), "sales-point": 2,
                               "period-unit": 0xE10, "second-date": days(2022, 5, 23), "period": 0}),
        zeros(), zeros(),
    ]
    name = "MARIA JOÃO SILVA".encode("latin-1")
    return image("Lisboa Viva lab card: a Navegante Lisboa month and Zapping EUR 1.30; invented values",
                 atr_type_b(b"\x00\x00\x00\x00"), [
        {"fid": "0002", "sfi": 2, "records": [icc((2016140085).to_bytes(4, "big"))]},
        {"fid": "0003", "sfi": 3, "records": [hexs(name + bytes(29 - len(name)))]},
        ticketing([record(p, "environment", env)], events, contracts, counters(0, 130), fci_serial=bytes([0, 0, 0, 0, 0x78, 0x2B, 0xDB, 0x35])),
    ])


def venezia():
    p = "venezia-unica"
    env_values = {"end-date": packed_date(2029, 12, 31), "profile": 117, "profile-date": packed_date(2029, 12, 31)}
    env = bytearray.fromhex(record(p, "environment", env_values).replace(" ", ""))
    env[0:4] = bytes([0x00, 0x00, 0x07, 0xD0])  # the constant the card starts with (within the skipped 49 bits)
    events = [
        record(p, "event", {"tariff": 11209, "date": packed_date(2024, 8, 14), "first-time": packed_time(10, 2),
                            "time": packed_time(10, 2), "transport": 5, "y": 1000, "z": 4242}),
        record(p, "event", {"tariff": 12106, "date": packed_date(2024, 8, 13), "first-time": packed_time(21, 30),
                            "time": packed_time(21, 30), "transport": 1, "y": 0, "z": 77}),
        # A log slot whose trip is gone: only the contract tariffs remain in its first 9 bytes.
        hexs(bytes.fromhex("2B5C800000000000000000000000000000000000000000000000000000")),
    ]
    contracts = [
        record(p, "contract", {"tariff": 11209, "counter-id": 1, "sale-date": packed_date(2024, 8, 14), "sale-time": packed_time(9, 55)}),
        zeros(), zeros(), zeros(),
    ]
    return image("Venezia Unica lab card: Rete Unica 75 minutes, 3 trips left (counter 3 << 8); invented values",
                 atr_type_b(b"\x00\x00\x00\x00"), [
        {"fid": "0002", "sfi": 2, "records": [icc((305419896).to_bytes(4, "big"))]},
        ticketing([hexs(bytes(env))], events, contracts, counters(3 << 8)),
    ])


def pisa():
    p = "carta-mobile-pisa"
    env = {"version": 1, "network": "0x380100", "issue-date": days(2023, 9, 1), "end-date": days(2028, 8, 31), "birth-date": 0}
    events = [
        record(p, "event", {"time": seconds(2024, 11, 4, 7, 35), "first-time": seconds(2024, 11, 4, 7, 35), "value-a": 12}, 48),
        record(p, "event", {"time": seconds(2024, 11, 3, 19, 5, 30), "first-time": seconds(2024, 11, 3, 18, 50), "value-a": 7}, 48),
        zeros(48),
    ]
    contracts = [
        record(p, "contract", {"tariff": 322, "sale-date": days(2024, 10, 30)}, 48),
        record(p, "contract", {"tariff": 317, "sale-date": days(2024, 11, 1)}, 48),
        hexs(b"\xff" * 48), hexs(b"\xff" * 48),
    ]
    number = b"0012345678"
    return image("Carta Mobile lab card: a 10-ticket carnet (4 left) and a monthly pass; 48-byte records; invented values",
                 atr_type_b(b"\x00\x00\x00\x00"), [
        {"fid": "0002", "sfi": 2, "records": [icc((3735928559).to_bytes(4, "big"))]},
        ticketing([record(p, "environment", env), hexs(number + bytes(29 - len(number)))], events, contracts, counters(4, 0)),
    ])


IMAGES = {
    "mobib-image.json": lambda: mobib(3),
    "mobib-v2-image.json": lambda: mobib(2),
    "ravkav-image.json": ravkav,
    "opus-image.json": opus,
    "lisboa-viva-image.json": lisboa,
    "venezia-unica-image.json": venezia,
    "carta-mobile-pisa-image.json": pisa,
}



if __name__ == "__main__":
    lab_images.main(IMAGES, "calypso-lab-images.py")
