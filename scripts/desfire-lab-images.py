#!/usr/bin/env python3
"""Write the DESFire lab card images of Tests/LabCards from named values, so each byte can be
checked by hand against docs/cards/opal.md and docs/cards/desfire.md.

    scripts/desfire-lab-images.py            rewrite the images
    scripts/desfire-lab-images.py --check    exit 1 if a committed image differs

The cards are invented (no real card's data).
"""
import datetime as dt
from zoneinfo import ZoneInfo
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab_images  # noqa: E402
from lab_images import hexs  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VERSION = "04 01 01 01 00 18 05 04 01 01 01 04 18 05 04 11 22 33 44 55 66 BA 44 39 52 80 40 09"


def pack(fields):
    """(value, bits) pairs, most significant bit first, into bytes; a negative value is
    written in two's complement of its width."""
    n = 0
    total = 0
    for value, bits in fields:
        n = n << bits | (value & ((1 << bits) - 1))
        total += bits
    assert total % 8 == 0
    return n.to_bytes(total // 8, "big")


def opal_file(weekly, auto, action, mode, when, balance, txn, last_digit, serial):
    """Opal's file 7: the fields of docs/cards/opal.md packed MSB first, then the 16 bytes
    reversed (the card stores them least significant first)."""
    day = (when.date() - dt.date(1980, 1, 1)).days
    minute = when.hour * 60 + when.minute
    packed = pack([(0x5A5A, 16), (weekly, 4), (auto, 1), (action, 4), (mode, 3), (minute, 11), (day, 15),
                   (balance, 21), (txn, 16), (0, 1), (last_digit, 4), (serial, 32)])
    return bytes(reversed(packed))


def opal():
    purse = opal_file(weekly=3, auto=1, action=7, mode=2, when=dt.datetime(2024, 3, 5, 8, 35), balance=-250,
                      txn=291, last_digit=7, serial=12_345_678)
    return {
        "technology": "desfire",
        "note": "Opal lab card: -A$2.50, 3 journeys this week, last a bus journey completed 2024-03-05 08:35; a locked application beside it; invented values",
        "uid": "04 11 22 33 44 55 66",
        "version": VERSION,
        "list-locked": False,
        "applications": [
            {"aid": "314553", "files": [
                {"id": 7, "type": "standard", "read": "free", "data": hexs(purse)},
                {"id": 1, "type": "standard", "read": "key", "data": hexs(bytes(32))},
            ]},
            {"aid": "F21030", "files-locked": True, "files": [{"id": 0, "type": "value", "read": "key", "value": 0}]},
        ],
    }


def clipper_trip(agency, fare, vehicle, start, origin, dest, route, transport):
    """A 32-byte Clipper trip record (docs/cards/clipper.md): agency @2, fare @6, vehicle @10,
    start @12 (seconds since 1900-01-01 00:00 UTC; `start` is Pacific local time), from @20,
    to @22, route @28, transport @30."""
    b = bytearray(32)
    b[2:4] = agency.to_bytes(2, "big")
    b[6:8] = fare.to_bytes(2, "big")
    b[10:12] = vehicle.to_bytes(2, "big")
    utc = start.replace(tzinfo=ZoneInfo("America/Los_Angeles")).astimezone(dt.timezone.utc).replace(tzinfo=None)
    b[12:16] = int((utc - dt.datetime(1900, 1, 1)).total_seconds()).to_bytes(4, "big")
    b[20:22] = origin.to_bytes(2, "big")
    b[22:24] = dest.to_bytes(2, "big")
    b[28:30] = route.to_bytes(2, "big")
    b[30:32] = transport.to_bytes(2, "big")
    return bytes(b)


def clipper_refill(agency, when, machine, amount):
    """A 32-byte Clipper refill record (docs/cards/clipper.md): agency @2, time @4 (seconds since
    1900-01-01 00:00 UTC; `when` is Pacific local time), machine @8, amount @14 (cents)."""
    b = bytearray(32)
    b[2:4] = agency.to_bytes(2, "big")
    utc = when.replace(tzinfo=ZoneInfo("America/Los_Angeles")).astimezone(dt.timezone.utc).replace(tzinfo=None)
    b[4:8] = int((utc - dt.datetime(1900, 1, 1)).total_seconds()).to_bytes(4, "big")
    b[8:12] = machine.to_bytes(4, "big")
    b[14:16] = amount.to_bytes(2, "big")
    return bytes(b)


def clipper():
    serial = bytes([0x00]) + (1_234_567_890).to_bytes(4, "big") + bytes(11)
    info = bytearray(32)
    info[8:10] = (dt.date(2030, 1, 1) - dt.date(1900, 1, 1)).days.to_bytes(2, "big")
    purse = bytearray(32)
    purse[18:20] = (1_075).to_bytes(2, "big", signed=True)
    refills = (clipper_refill(0x02CF, dt.datetime(2024, 3, 1, 12, 0, 0), 0x78123456, 5_000)
               + clipper_refill(0x04, dt.datetime(2024, 2, 20, 18, 30, 0), 0x00ABCDEF, 2_000)
               + bytes(32))
    trips = (clipper_trip(0x04, 420, 0, dt.datetime(2024, 3, 5, 8, 12, 30), 0x0019, 0x0021, 0, 0x6F)
             + clipper_trip(0x01, 250, 1042, dt.datetime(2024, 3, 4, 17, 45, 0), 0, 0, 51, 0x62)
             + clipper_trip(0x04, 390, 0, dt.datetime(2024, 3, 4, 9, 1, 5), 0x0021, 0x0019, 0, 0x6F)
             + bytes(32))
    return {
        "technology": "desfire",
        "note": "Clipper lab card: US$10.75, three trips (two BART, one AC Transit bus) and an empty slot, two refills; invented values",
        "uid": "04 99 88 77 66 55 44",
        "version": VERSION.replace("04 11 22 33 44 55 66", "04 99 88 77 66 55 44"),
        "applications": [
            {"aid": "9011F2", "files": [
                {"id": 8, "type": "standard", "read": "free", "data": hexs(serial)},
                {"id": 1, "type": "standard", "read": "free", "data": hexs(bytes(info))},
                {"id": 2, "type": "backup", "read": "free", "data": hexs(bytes(purse))},
                {"id": 14, "type": "standard", "read": "free", "data": hexs(trips)},
                {"id": 4, "type": "standard", "read": "free", "data": hexs(refills)},
            ]},
        ],
    }


def orca_trip(agency, when, coach, fare, kind, balance):
    """A 48-byte ORCA trip record packed as docs/cards/orca.md lists its bits."""
    t = int(when.replace(tzinfo=dt.timezone.utc).timestamp())
    return pack([(0, 24), (agency, 4), (t, 32), (0, 8), (coach, 24), (0, 28), (fare, 15), (0, 1), (kind, 8),
                 (0, 128), (balance, 16), (0, 96)])


def orca():
    purse = bytearray(64)
    purse[41:43] = (4_350).to_bytes(2, "big")
    serial = bytes(4) + (12_345_678).to_bytes(4, "big") + bytes(8)
    # A $20.00 top-up between the second and third trips (its amount in the fare field).
    topups = [orca_trip(4, dt.datetime(2024, 3, 5, 15, 30, 0), 98765, 2_000, 0x00, 4_625)]
    trips = [orca_trip(7, dt.datetime(2024, 3, 5, 16, 2, 0), 4321, 275, 0x03, 4_350),
             orca_trip(1, dt.datetime(2024, 3, 4, 23, 40, 0), 1234, 300, 0x00, 2_625),
             orca_trip(1, dt.datetime(2024, 3, 4, 15, 10, 0), 1234, 300, 0x00, 2_925)]
    return {
        "technology": "desfire",
        "note": "ORCA lab card: US$43.50 on the card, three trips and a US$20.00 top-up (times in UTC in the records); invented values",
        "uid": "04 77 66 55 44 33 22",
        "version": VERSION.replace("04 11 22 33 44 55 66", "04 77 66 55 44 33 22"),
        "applications": [
            {"aid": "3010F2", "files": [
                {"id": 4, "type": "backup", "read": "free", "data": hexs(bytes(purse))},
                {"id": 2, "type": "cyclic-record", "read": "free", "record-size": 48, "records": [hexs(r) for r in trips]},
                {"id": 3, "type": "cyclic-record", "read": "free", "record-size": 48, "records": [hexs(r) for r in topups]},
            ]},
            {"aid": "FFFFFF", "files": [{"id": 15, "type": "standard", "read": "free", "data": hexs(serial)}]},
        ],
    }


def magnacarta():
    purse = bytearray(16)
    purse[6:8] = (1_999).to_bytes(2, "big")
    return {
        "technology": "desfire",
        "note": "MagnaCarta lab card: 19.99 EUR; its application is hidden (the list needs a key); invented values",
        "uid": "04 55 44 33 22 11 00",
        "version": VERSION.replace("04 11 22 33 44 55 66", "04 55 44 33 22 11 00"),
        "list-locked": True,
        "applications": [{"aid": "F080F3", "files-locked": True, "files": [{"id": 2, "type": "standard", "read": "free", "data": hexs(bytes(purse))}]}],
    }


def hsl_log(arvo, when, until, price, passengers):
    """A 12-byte HSL version-2 log record (docs/cards/hsl.md)."""
    def day(t):
        return (t.date() - dt.date(1997, 1, 1)).days
    def minute(t):
        return t.hour * 60 + t.minute
    return pack([(arvo, 1), (day(when), 14), (minute(when), 11), (day(until), 14), (minute(until), 11), (price, 14),
                 (passengers, 6), (0, 20), (0, 5)])


def hsl_day(y, m, d):
    return (dt.date(y, m, d) - dt.date(1997, 1, 1)).days


def hsl_purse(balance, refill_when, refill_amount, device):
    """File 2: the balance (20 bits), then the last refill: date 14, time 11, amount 20,
    organisation 14, device 14 (docs/cards/hsl.md); 13 bytes."""
    return pack([(balance, 20), (hsl_day(refill_when.year, refill_when.month, refill_when.day), 14),
                 (refill_when.hour * 60 + refill_when.minute, 11), (refill_amount, 20), (0, 14), (device, 14), (0, 11)])


def hsl_card(aid, note, kausi, arvo, uid="04 66 55 44 33 22 11"):
    info = bytes([0x02]) + bytes.fromhex("924620001234567891") + bytes(1)
    purse = hsl_purse(1_230, dt.datetime(2024, 3, 1, 12, 0), 2_000, 2)
    log = [hsl_log(1, dt.datetime(2024, 3, 5, 7, 58), dt.datetime(2024, 3, 5, 9, 18), 295, 1),
           hsl_log(1, dt.datetime(2024, 3, 4, 16, 30), dt.datetime(2024, 3, 4, 17, 50), 295, 1),
           bytes(12)]
    return card(uid, note, [{"aid": aid, "files": [
        {"id": 8, "type": "standard", "read": "free", "data": hexs(info)},
        {"id": 2, "type": "backup", "read": "free", "data": hexs(purse)},
        {"id": 4, "type": "cyclic-record", "read": "free", "record-size": 12, "records": [hexs(r) for r in log]},
        {"id": 1, "type": "backup", "read": "free", "data": hexs(kausi)},
        {"id": 3, "type": "backup", "read": "free", "data": hexs(arvo)},
    ]}])


def hsl():
    """Version 2: a period pass for zones B-C and a 90-minute value ticket for zones A-C."""
    kausi = pack([(0, 1), (0xFF, 14), (2, 2), (0b001010, 6), (hsl_day(2024, 3, 1), 14), (hsl_day(2024, 3, 30), 14), (0, 5)])
    kausi += bytes(35 - len(kausi))
    arvo = pack([(1, 1), (0xFA, 14), (0, 14), (1, 5), (0, 5), (2, 2), (0, 2), (90, 8), (0, 10), (2, 2), (0b000010, 6),
                 (hsl_day(2024, 3, 5), 14), (7, 5), (0, 17), (295, 14), (0, 14), (1, 6), (0, 66),
                 (hsl_day(2024, 3, 5), 14), (7 * 60 + 58, 11), (hsl_day(2024, 3, 5), 14), (9 * 60 + 28, 11), (0, 1)])
    arvo += bytes(45 - len(arvo))
    return hsl_card("1420EF", "HSL version 2 lab card: 12.30 EUR (last refill 20.00), two value-ticket trips, a period pass for zones B-C, a 90-minute ticket for zones A-C; invented values", kausi, arvo)


def hsl_v1():
    """Version 1: a period pass for Helsinki (region 1) and a value ticket for Espoo (region 2)."""
    kausi = pack([(0x12, 14), (0, 1), (1, 4), (hsl_day(2024, 3, 1), 14), (hsl_day(2024, 3, 30), 14), (0, 1)])
    kausi += bytes(32 - len(kausi))
    arvo = pack([(0x34, 14), (0, 1), (0, 2), (0, 2), (80, 8), (0, 1), (2, 4), (hsl_day(2024, 3, 5), 14), (7, 5), (0, 17),
                 (320, 14), (1, 5), (0, 1), (hsl_day(2024, 3, 5), 14), (7 * 60 + 58, 11), (hsl_day(2024, 3, 5), 14), (9 * 60 + 18, 11),
                 (0, 6)])
    arvo += bytes(26 - len(arvo))
    return hsl_card("1120EF", "HSL version 1 lab card: a period pass for Helsinki, a value ticket for Espoo; invented values", kausi, arvo,
                    uid="04 66 55 44 33 22 12")


def waltti():
    """Waltti: HSL's purse and log, its own pass and ticket layouts (region 229, zone 2)."""
    kausi = pack([(229, 8), (0, 4), (0x77, 14), (0, 1), (2, 6), (hsl_day(2024, 3, 1), 14), (hsl_day(2024, 3, 30), 14), (0, 19)])
    kausi += bytes(35 - len(kausi))
    arvo = pack([(229, 8), (0x21, 14), (1, 5), (0, 5), (0, 2), (0, 2), (60, 8), (2, 6), (hsl_day(2024, 3, 5), 14), (7, 5), (0, 17),
                 (330, 14), (1, 6), (0, 6), (hsl_day(2024, 3, 5), 14), (7 * 60 + 58, 11), (hsl_day(2024, 3, 5), 14), (8 * 60 + 58, 11),
                 (0, 6)])
    arvo += bytes(45 - len(arvo))
    return hsl_card("0010AB", "Waltti lab card: the HSL lab card's purse and log under application 0010AB, a pass and a ticket for region 229 zone 2; invented values", kausi, arvo)


def opal_hidden():
    """The Opal card with its application list locked: a reader finds 314553 only by
    selecting it (the profiles name it)."""
    doc = opal()
    doc["note"] = "The Opal lab card with its application list locked (91 AE): applications must be probed"
    doc["list-locked"] = True
    return doc


def card(uid, note, applications, list_locked=False):
    """A DESFire card image with `uid` (7 bytes as hex), its GetVersion giving the same UID."""
    doc = {"technology": "desfire", "note": note, "uid": uid,
           "version": VERSION.replace("04 11 22 33 44 55 66", uid), "applications": applications}
    if list_locked:
        doc["list-locked"] = True
    return doc


def locked_app(aid, files=(0,)):
    """An application whose files all need a key (what the serial-only cards keep)."""
    return {"aid": aid, "files-locked": True,
            "files": [{"id": f, "type": "backup", "read": "key", "data": hexs(bytes(32))} for f in files]}


def myki():
    # Bytes 0-3: 308425 little-endian; 4-7: 12345678 little-endian -> 308425 12345678 + Luhn 0.
    f = (308_425).to_bytes(4, "little") + (12_345_678).to_bytes(4, "little") + bytes(8)
    return card("04 21 43 65 87 A9 CB", "Myki lab card: number 308425123456780; invented values", [
        {"aid": "0011F2", "files": [{"id": 15, "type": "standard", "read": "free", "data": hexs(f)},
                                    {"id": 0, "type": "backup", "read": "key", "data": hexs(bytes(32))}]},
        locked_app("F010F2")])


def istanbulkart():
    f = bytes.fromhex("0401234567890123") + bytes(8)
    return card("04 11 22 33 44 55 66", "IstanbulKart lab card: number 0401 2345 6789 0123; invented values", [
        {"aid": "422201", "files": [{"id": 2, "type": "standard", "read": "free", "data": hexs(f)},
                                    {"id": 1, "type": "backup", "read": "key", "data": hexs(bytes(32))}]}])


def thales_file8(serial, card_type=0):
    """File 8 of application FFFFFF on Thales cards (AT HOP, Nol): the serial in bits 61-92,
    the card type in bytes 12-13."""
    n = serial << (256 - 61 - 32)
    b = bytearray(n.to_bytes(32, "big"))
    b[12:14] = card_type.to_bytes(2, "big")
    return bytes(b)


def at_hop():
    return card("04 31 32 33 34 35 36", "AT HOP lab card: number 7824 6702 0012 3456 789; invented values", [
        locked_app("004055", (0, 8, 9, 10)),
        {"aid": "FFFFFF", "files": [{"id": 8, "type": "standard", "read": "free", "data": hexs(thales_file8(123_456_789))}]}])


def nol():
    return card("04 41 42 43 44 45 46", "Nol lab card: number 123 456 7890, a Silver card; invented values", [
        locked_app("004078", (0, 8)),
        {"aid": "FFFFFF", "files": [{"id": 8, "type": "standard", "read": "free",
                                     "data": hexs(thales_file8(1_234_567_890, 0x04D5))}]}])


def holo():
    f0 = bytearray(96)
    f0[8:11] = bytes.fromhex("101000")           # manufacturing batch (BCD), not read
    f0[11:14] = (202_926).to_bytes(3, "big")
    f0[14:16] = bytes.fromhex("1560")            # the last four digits, BCD
    f1 = bytearray(48)
    f1[0] = 1
    when = dt.datetime(2024, 3, 5, 18, 30, 0, tzinfo=dt.timezone.utc)   # 08:30 in Honolulu
    f1[8:12] = int(when.timestamp()).to_bytes(4, "big")
    return card("04 51 52 53 54 55 56", "HOLO lab card: number ending 1560, last transaction 2024-03-05 08:30 HST; invented values", [
        {"aid": "6013F2", "files": [{"id": 0, "type": "standard", "read": "free", "data": hexs(f0)},
                                    {"id": 1, "type": "standard", "read": "free", "data": hexs(f1)}]}])


def hop_fastpass():
    f0 = bytearray(96)
    f0[12:16] = (12_345_678).to_bytes(4, "big")
    f1 = bytearray(48)
    f1[0:2] = bytes.fromhex("0101")
    when = dt.datetime(2023, 6, 15, 8, 9, 36, tzinfo=dt.timezone.utc)   # 01:09:36 PDT
    f1[8:12] = int(when.timestamp()).to_bytes(4, "big")
    return card("04 61 62 63 64 65 66", "Hop Fastpass lab card: 01-001-12345678-RA, issued 2023-06-15 01:09:36 PDT; invented values", [
        {"aid": "E010F2", "files": [{"id": 0, "type": "standard", "read": "free", "data": hexs(f0)},
                                    {"id": 1, "type": "standard", "read": "free", "data": hexs(f1)}]}])


def presto():
    n = 12_345_678 << (256 - 85 - 24)
    return card("04 71 72 73 74 75 76", "PRESTO lab card: number 312401 1234 5678 005; invented values", [
        locked_app("002000", (0, 8, 9)),
        {"aid": "FF30FF", "files": [{"id": 8, "type": "standard", "read": "free", "data": hexs(n.to_bytes(32, "big"))}]}])


def tpf():
    return card("04 11 22 33 44 55 66", "TPF lab card: number 66554433221104 (the UID backwards); invented values", [
        locked_app("43544B", (0, 1))], list_locked=False)


def nortic():
    validity = (dt.date(2027, 5, 19) - dt.date(1997, 1, 1)).days
    header = pack([(578, 10), (0, 20), (0, 2), (12_345_678, 32), (validity, 14), (160, 20), (1, 20), (1, 4), (0, 6)])
    return card("04 81 82 83 84 85 86", "Nortic lab card: an AtB t:card, serial 12345678, valid until 2027-05-19, sold by Ruter; invented values", [
        {"aid": "008057", "files": [{"id": 12, "type": "standard", "read": "free", "data": hexs(header)},
                                    {"id": 1, "type": "backup", "read": "key", "data": hexs(bytes(64))}]}])


def nextfare():
    return card("04 11 22 33 44 55 66", "Nextfare DESFire lab card: number 0164 0188 3858 6676 5820 (from the UID); invented values", [
        {"aid": "010000", "files": [{"id": 0, "type": "standard", "read": "key", "data": hexs(bytes(384))}]}])


def intercard():
    return card("04 91 92 93 94 95 96", "Intercard lab card: 12.34 EUR (12345 tenths of a cent), last transaction 3.50; invented values", [
        {"aid": "5F8415", "files": [{"id": 1, "type": "value", "read": "free", "value": 12_345, "lower": 0,
                                     "upper": 100_000, "limited-credit": 3_500}]}])


def en1545_day(y, m, d):
    return (dt.date(y, m, d) - dt.date(1997, 1, 1)).days


def intercode_desfire(uid, note, aid, network, event_layout_file, event_layout, events, contracts, special=None):
    """Adelaide/Hafilat: environment in file 0, one event per log file from 3, contracts 0x10-0x13."""
    env = lab_images.encode("layouts/intercode-desfire", "environment-desfire",
                 {"version": 1, "network": network, "issuer": 1, "end-date": 0x3FFF, "card-status": 1}, 32)
    files = [{"id": 0, "type": "standard", "read": "free", "data": hexs(env)}]
    logs = list(range(3, 3 + len(events)))
    for f, e in zip(logs, events):
        files.append({"id": f, "type": "standard", "read": "free",
                      "data": hexs(lab_images.encode("layouts/" + event_layout_file, event_layout, e, 48) if e else bytes(48))})
    for f, e in zip([9, 10, 11], special or []):
        files.append({"id": f, "type": "standard", "read": "free",
                      "data": hexs(lab_images.encode("layouts/" + event_layout_file, event_layout, e, 48) if e else bytes(48))})
    for f, c in zip([0x10, 0x11, 0x12, 0x13], contracts):
        files.append({"id": f, "type": "standard", "read": "free",
                      "data": hexs(lab_images.encode("layouts/intercode-desfire", "contract-46", c, 64) if c else bytes(64))})
    files.append({"id": 12, "type": "backup", "read": "key", "data": hexs(bytes(32))})   # the counters: locked
    return card(uid, note, [{"aid": aid, "files": files}])


def adelaide():
    day = en1545_day(2024, 3, 5)
    events = [
        {"date": day, "time": 8 * 60 + 15, "code": 0x11, "provider": 1, "route": 0x0123, "location": 0x1A2B, "price": 415, "contract": 1},
        {"date": day, "time": 17 * 60 + 40, "code": 0x41, "provider": 1, "route": 0x0002, "price": 0, "contract": 1},
        {"date": day - 1, "time": 9 * 60 + 5, "code": 0x51, "provider": 1, "result": 2},
        None,
    ]
    special = [{"date": day - 2, "time": 12 * 60, "code": 0x59, "provider": 1}, None, None]
    contracts = [
        {"provider": 1, "tariff": 0x804, "serial": 0x0A0B0C0D, "status": 1, "sale-date": en1545_day(2023, 11, 20), "sale-device": 77, "sale-agent": 1},
        {"provider": 1, "tariff": 0x1234, "serial": 5, "start-date": en1545_day(2024, 3, 1), "end-date": en1545_day(2024, 3, 28),
         "status": 1, "zones": 3, "journeys": 0},
        None, None,
    ]
    return intercode_desfire("04 51 24 92 B2 3A 80", "metroCARD lab card: three trips and a special event, a stored-value product and a 28-day pass; invented values",
                             "B006F2", "0x036001", "intercode", "event", events, contracts, special)


def hafilat():
    day = en1545_day(2024, 3, 5)
    events = [
        {"date": day, "time": 7 * 60 + 50, "code": 0x11, "provider": 0x0B, "route": 101, "location": 2001, "vehicle": 4711, "contract": 1},
        {"date": day, "time": 18 * 60 + 5, "code": 0x12, "provider": 0x0B, "route": 101, "location": 2040, "vehicle": 4711, "contract": 1},
        None, None,
    ]
    contracts = [{"provider": 1, "tariff": 0x2710, "serial": 42, "status": 1, "sale-date": en1545_day(2023, 12, 1)}, None, None, None]
    return intercode_desfire("04 12 34 56 78 9A BC", "Hafilat lab card: two bus trips, the stored-value product; invented values",
                             "0107F2", "0x784001", "intercode-desfire", "event-hafilat", events, contracts)


def tampere_day(y, m, d):
    return (dt.date(y, m, d) - dt.date(1900, 1, 1)).days


def tampere_slot(kind, *, balance=None, start=None, end=None):
    """A 12-byte Tampere contract slot (docs/cards/tampere.md): type @2; purse: balance @7-8;
    type 3: end date @6-7; type 0x0F: start @6-7, end @8-9 (big-endian, days since 1900)."""
    b = bytearray(12)
    b[0:2] = b"\x01\x02"
    b[2] = kind
    if balance is not None:
        b[7:9] = balance.to_bytes(2, "big")
    if kind == 3:
        b[6:8] = tampere_day(*end).to_bytes(2, "big")
    if kind == 0x0F:
        b[6:8] = tampere_day(*start).to_bytes(2, "big")
        b[8:10] = tampere_day(*end).to_bytes(2, "big")
    return bytes(b)


def tampere_copy(sequence, slots):
    return bytes([sequence, 0x0F, 0x03, 0x00]) + b"".join(slots) + bytes(48 - 4 - 12 * len(slots))


def tampere_trip(when, event, amount, route, passengers=1, flags=0):
    """A 16-byte Tampere trip record, little-endian fields: date @0, time word @6 (minutes << 5 |
    event), amount @8, route word @10 (route << 2), passengers in byte 13's high nibble, flags @14."""
    b = bytearray(16)
    b[0:2] = tampere_day(when.year, when.month, when.day).to_bytes(2, "little")
    b[6:8] = ((when.hour * 60 + when.minute) << 5 | event).to_bytes(2, "little")
    b[8:10] = amount.to_bytes(2, "little")
    b[10:12] = (route << 2).to_bytes(2, "little")
    b[13] = passengers << 4
    b[14] = flags
    return bytes(b)


def tampere():
    older = tampere_copy(0xFF, [tampere_slot(7, balance=1500)])
    # Sequence 0x00 after 0xFF: the second copy is the newer one (serial-number arithmetic).
    newer = tampere_copy(0x00, [tampere_slot(7, balance=1234), tampere_slot(0x0F, start=(2024, 3, 1), end=(2024, 3, 30))])
    holder = bytearray(96)
    holder[6:6 + 24] = "MATTI MEIKÄLÄINEN".encode("latin-1").ljust(24, b"\x00")
    holder[34:36] = tampere_day(1990, 5, 17).to_bytes(2, "little")
    holder[42:44] = tampere_day(2021, 9, 1).to_bytes(2, "little")
    serial = bytes([0x00]) + bytes.fromhex("308430123456789012") + bytes(22)
    trips = [tampere_trip(dt.datetime(2024, 3, 5, 8, 15), 5, 210, 301),
             tampere_trip(dt.datetime(2024, 3, 5, 8, 40), 11, 0, 1002, flags=4),
             tampere_trip(dt.datetime(2024, 3, 4, 17, 0), 3, 2000, 0),
             bytes(16)]
    return card("04 A1 A2 A3 A4 A5 A6", "Tampere lab card: 12.34 EUR and a 30-day pass in the newer contract copy, three trips; invented values", [
        {"aid": "0121EF", "files": [
            {"id": 7, "type": "standard", "read": "free", "data": hexs(serial)},
            {"id": 2, "type": "backup", "read": "free", "data": hexs(older + newer)},
            {"id": 3, "type": "cyclic-record", "read": "free", "record-size": 16, "records": [hexs(r) for r in trips]},
            {"id": 4, "type": "standard", "read": "free", "data": hexs(bytes(holder))},
            {"id": 1, "type": "value", "read": "free", "value": 999, "lower": 0, "upper": 100_000, "limited-credit": 0},
        ]}])


IMAGES = {"opal-image.json": opal, "opal-hidden-image.json": opal_hidden, "clipper-image.json": clipper, "orca-image.json": orca, "magnacarta-image.json": magnacarta, "hsl-image.json": hsl, "hsl-v1-image.json": hsl_v1, "waltti-image.json": waltti,
          "myki-image.json": myki, "istanbulkart-image.json": istanbulkart, "at-hop-image.json": at_hop, "nol-image.json": nol,
          "holo-image.json": holo, "hop-fastpass-image.json": hop_fastpass, "presto-image.json": presto, "tpf-image.json": tpf,
          "nortic-image.json": nortic, "nextfare-desfire-image.json": nextfare, "intercard-image.json": intercard,
          "adelaide-metrocard-image.json": adelaide, "hafilat-image.json": hafilat,
          "tampere-image.json": tampere}



if __name__ == "__main__":
    lab_images.main(IMAGES, "desfire-lab-images.py")
