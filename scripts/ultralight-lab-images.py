#!/usr/bin/env python3
"""Writes the MIFARE Ultralight lab cards (Tests/LabCards/*-image.json, the image format of
docs/cards/ultralight.md) from named values: the UID check bytes computed as the chip keeps
them (NXP MF0ICU1 §7.5.1: BCC0 = 88 ⊕ UID0 ⊕ UID1 ⊕ UID2, BCC1 = UID3 ⊕ UID4 ⊕ UID5 ⊕ UID6).
    scripts/ultralight-lab-images.py           write them
    scripts/ultralight-lab-images.py --check   exit 1 if a committed card differs"""
import lab_images
from lab_images import hexs


def head(uid, internal=0x48, lock=(0, 0), otp=bytes(4)):
    """Pages 0–3: the UID with its check bytes, the internal byte, the static lock bytes, OTP."""
    bcc0 = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
    bcc1 = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
    return [bytes(uid[0:3]) + bytes([bcc0]), bytes(uid[3:7]), bytes([bcc1, internal, lock[0], lock[1]]), otp]


def image(uid, model, pages, version=None, counters=None, note=None):
    doc = {"technology": "ultralight"}
    if note:
        doc["note"] = note
    doc.update({"uid": hexs(uid), "atqa": "00 44", "sak": "00", "model": model})
    if version:
        doc["version"] = hexs(version)
    if counters is not None:
        doc["counters"] = counters
    doc["pages"] = [".. .. .. .." if p is None else hexs(p) for p in pages]
    return doc


def ev1():
    """An Ultralight EV1 (MF0UL11, 20 pages) whose pages from 12 on need its password to be
    read (AUTH0 = 0C with PROT set): they are unknown, and the chip refuses them."""
    uid = bytes.fromhex("04 5A 6B 7C 8D 9E AF")
    user = [bytes([0x10 + p, 0x20, 0x30, 0x40]) for p in range(4, 12)]
    return image(uid, "ultralight-ev1-11", head(uid, lock=(0xF8, 0x00)) + user + [None] * 8,
                 version=bytes.fromhex("00 04 03 01 01 00 0B 03"), counters=[7, 0, 0],
                 note="A made-up Ultralight EV1: pages 3-7 locked, pages 12-19 password-protected")


def plain():
    """An Ultralight (MF0ICU1, 16 pages): no GET_VERSION, every page readable, OTP bits set."""
    uid = bytes.fromhex("04 11 22 33 44 55 66")
    user = [bytes([p, p, p, p]) for p in range(4, 16)]
    return image(uid, "ultralight", head(uid, otp=bytes.fromhex("FF 00 00 00")) + user,
                 note="A made-up Ultralight: every page readable")


def pages(text):
    """Pages from hex, one page (4 bytes) per line."""
    return [bytes.fromhex(line) for line in text.strip().splitlines()]


def compass():
    """docs/cards/nextfare-ultralight.md's worked Compass example: a concession Two Zone ticket,
    Waterfront 08:12 → Metrotown 08:31 on 2025-06-18, last valid day 2025-06-20."""
    uid = bytes.fromhex("04 12 34 56 78 9A BC")
    return image(uid, "ultralight", head(uid) + pages("""
        0A 08 00 D4
        32 01 83 00
        00 00 00 5C
        34 12 A5 5A
        E6 3F 02 03
        03 00 00 13
        01 0B 00 03
        5E 21 9C 07
        96 3D 02 FF
        02 00 00 00
        01 01 00 03
        4A 7C 3B E2"""), note="docs/cards/nextfare-ultralight.md, worked example: a Compass ticket")


def ventra():
    """docs/cards/nextfare-ultralight.md's Ventra 1-day pass: sold 17:40 on 2025-01-10, first
    used on a bus at 17:52, expiring 24 hours later; its OTP page says first use (02)."""
    uid = bytes.fromhex("04 9F 21 7B C4 3D 58")
    return image(uid, "ultralight", head(uid, otp=bytes.fromhex("02 00 00 00")) + pages("""
        0A 04 00 8A
        32 01 03 00
        00 00 00 B7
        21 43 E8 05
        80 84 5A FF
        01 00 00 00
        00 00 00 00
        00 00 71 C3
        06 86 5A 02
        02 18 02 00
        59 97 38 02
        00 00 2D 96"""), note="docs/cards/nextfare-ultralight.md, second example: a Ventra 1-day pass")


def compass_sale():
    """A Compass One Zone ticket just sold: the sale (sequence 1, 17:05 on 2025-11-27, two days
    before its last day 2025-11-29 = B 0x337D) in slot A, slot B empty."""
    uid = bytes.fromhex("04 A1 B2 C3 D4 E5 F6")
    return image(uid, "ultralight", head(uid) + pages("""
        0A 04 00 7D
        33 01 82 00
        00 00 00 00
        00 00 00 00
        20 80 02 FF
        01 00 04 00
        01 00 00 00
        00 00 00 00""") + [bytes(4)] * 4, note="A Compass One Zone ticket, sold and not used")


def ventra_single():
    """A Ventra single-ride ticket (product 02): sold 08:00 on 2025-03-01 (90 days before its
    last day 2025-05-30 = B 0x32BE), used on a train at 08:20, location 66; OTP 02: one ride used."""
    uid = bytes.fromhex("04 10 20 30 40 50 60")
    return image(uid, "ultralight", head(uid, otp=bytes.fromhex("02 00 00 00")) + pages("""
        0A 04 00 BE
        32 01 02 00
        00 00 00 00
        05 05 00 00
        00 3C 5A FF
        01 00 00 00
        00 00 00 00
        00 00 00 00
        86 3E 5A 00
        02 00 00 00
        00 42 00 01
        00 00 00 00"""), note="A Ventra single-ride ticket, used once")


def nextfare_generic():
    """A Nextfare ticket of no known city (page 5 byte 1 is 02): one entry, 12:00 on 2024-02-28,
    a day before its last day 2024-02-29 (B 0x305D), route 9, location 7, sequence 5."""
    uid = bytes.fromhex("04 01 02 03 04 05 06")
    return image(uid, "ultralight", head(uid) + pages("""
        0A 04 00 5D
        30 02 05 00
        00 00 00 00
        00 00 00 00
        16 5A 01 FF
        05 00 00 00
        00 07 00 09
        00 00 00 00""") + [bytes(4)] * 4, note="A Nextfare Ultralight ticket of an unknown city")


def from_notes(text, note):
    """A 16-page ticket given page by page (`p0 04A1B29F …`): the UID from pages 0 and 1."""
    words = text.split()
    pages_ = [bytes.fromhex(w) for w in words if not w.startswith("p")]
    assert len(pages_) == 16
    return image(pages_[0][:3] + pages_[1], "ultralight", pages_, note=note)


def mrt():
    """docs/cards/ultralight-tickets.md, MRT: OTP 20 4F 24 00, page 15 = 123456789."""
    return from_notes("""p0 0401028F p1 03040506 p2 04480000 p3 204F2400 p4 00000000 p5 00000000 p6 00000000
        p7 00000000 p8 00000000 p9 00000000 p10 00000000 p11 00000000 p12 00000000 p13 00000000
        p14 00000000 p15 075BCD15""", "docs/cards/ultralight-tickets.md, worked example: an MRT Standard Ticket")


def pisa():
    """docs/cards/ultralight-tickets.md, Pisa: two events on 2020-02-10, 07:50 and 08:55."""
    return from_notes("""p0 0470718D p1 72737475 p2 00480000 p3 00000000 p4 38010005 p5 00000000 p6 00112233
        p7 44556677 p8 83E0EB00 p9 0002468A p10 CF000000 p11 0000ABCD p12 83E10B80 p13 0002468A
        p14 CF000000 p15 00001357""", "docs/cards/ultralight-tickets.md, worked example: a Pisa ticket")


def venezia():
    """docs/cards/ultralight-tickets.md, Venezia: Rete Unica 75 minutes, boat 2023-09-15 14:32."""
    return from_notes("""p0 051234AB p1 56789ABC p2 08480000 p3 30DE0003 p4 01234567 p5 22BC9000 p6 00000000
        p7 11223344 p8 01740000 p9 1797BA02 p10 F2F7DEA0 p11 A1B2C3D4 p12 01494000 p13 179724A2
        p14 F2E53220 p15 0BADF00D""", "docs/cards/ultralight-tickets.md, worked example: a Venezia ticket")


def ovc():
    """docs/cards/ultralight-tickets.md, OV-chipkaart: an NS check-in 09:05, check-out 10:17."""
    return from_notes("""p0 04C1C28F p1 C3C4C5C6 p2 04480000 p3 00000000 p4 C0001004 p5 3003A211 p6 00000000
        p7 00000000 p8 C0002004 p9 5003A692 p10 00000000 p11 00000000 p12 00000000 p13 00000000
        p14 00000000 p15 00000000""", "docs/cards/ultralight-tickets.md, worked example: an OV-chipkaart disposable")


def clipper():
    """docs/cards/ultralight-tickets.md, Clipper: a Muni adult return ticket, both rides used."""
    return from_notes("""p0 045A6BBD p1 7C8D9EAF p2 C0480000 p3 2A3B4C5D p4 13040000 p5 0214AA5C p6 020000F8
        p7 61000240 p8 09001040 p9 01680000 p10 DEADBEEF p11 040000F4 p12 7B800140 p13 09002000
        p14 01680000 p15 CAFEBABE""", "docs/cards/ultralight-tickets.md, worked example: a Clipper limited-use ticket")


def bits(*fields, length):
    """Big-endian bit packing: (value, width) pairs, most significant bit first, zero-padded to
    `length` bytes."""
    out = "".join(format(v, f"0{w}b") for v, w in fields)
    assert all(v < (1 << w) for v, w in fields) and len(out) <= length * 8
    out += "0" * (length * 8 - len(out))
    return bytes(int(out[i:i + 8], 2) for i in range(0, len(out), 8))


def split(data):
    return [data[i:i + 4] for i in range(0, len(data), 4)]


def days_since(epoch, y, m, d):
    import datetime
    return (datetime.date(y, m, d) - datetime.date(*epoch)).days


def mrt_high():
    """An MRT ticket whose page 15 has its top bit set: FF FF FF FF is 4294967295 unsigned."""
    uid = bytes.fromhex("04 31 32 33 34 35 36")
    return image(uid, "ultralight", head(uid, otp=bytes.fromhex("20 4F 24 00")) + [bytes(4)] * 11 + [bytes.fromhex("FF FF FF FF")],
                 note="An MRT Standard Ticket with page 15 FF FF FF FF")


def pisa_one():
    """A Pisa ticket with one event: 2021-07-04 18:20 (CEST), the second record empty."""
    uid = bytes.fromhex("04 51 52 53 54 55 56")
    event = bits((days_since((1997, 1, 1), 2021, 7, 4), 14), (18 * 60 + 20, 11), (0, 18), (0x00AA, 16), (0x0BB0, 16), length=16)
    return image(uid, "ultralight", head(uid) + [bytes.fromhex("38 01 00 02"), bytes(4), bytes(4), bytes(4)] + split(event)
                 + [bytes(4)] * 4, note="A Pisa ticket validated once")


def venezia_new():
    """A Venezia airport-bus ticket (tariff 12106) not yet validated: OTP 31 86 00 00, no events."""
    uid = bytes.fromhex("05 01 02 03 04 05 06")
    head4 = bits((0, 32), (2, 4), (12106, 16), length=16)
    return image(uid, "ultralight", head(uid, otp=bytes.fromhex("31 86 00 00")) + split(head4) + [bytes(4)] * 8,
                 note="A Venezia ticket, sold and not validated")


def ovc_purchase():
    """An OV-chipkaart disposable (C8) with one purchase at GVB (company 2) on 2022-01-15 13:30 CET."""
    uid = bytes.fromhex("04 61 62 63 64 65 66")
    record = bits((0xC8, 8), (7, 12), (2, 12), (0, 3), (days_since((1997, 1, 1), 2022, 1, 15), 14), (13 * 60 + 30, 11), (3, 4), length=16)
    return image(uid, "ultralight", head(uid) + split(record) + [bytes(4)] * 8, note="An OV-chipkaart disposable, bought")


def clipper_single():
    """A Clipper senior single-ride ticket (product 0x0215), last day 2024-12-31 (days since
    1900-01-01), one ride taken 2024-10-02 07:45 PDT = 14:45 UTC, at Muni station 7, none left."""
    uid = bytes.fromhex("04 71 72 73 74 75 76")
    last = days_since((1900, 1, 1), 2024, 12, 31)
    ride = days_since((1900, 1, 1), 2024, 10, 2) * 1440 + 14 * 60 + 45
    minutes_before = last * 1440 - ride
    record = bits((1, 7), (0, 17), (minutes_before, 17), (7, 17), (0, 10), (0x12, 5), (0, 7), (1, 4), (0, 6), (0, 10), (0, 10),
                  length=20)
    page4 = bytes([0x13, 0x44, 0, 0])
    page5 = bytes([0x02, 0x15]) + last.to_bytes(2, "big")
    return image(uid, "ultralight", head(uid, otp=bytes.fromhex("00 00 30 39")) + [page4, page5] + split(record) + [bytes(4)] * 5,
                 note="A Clipper senior single-ride ticket, used")


def troika_a():
    """docs/cards/ultralight-tickets.md, Troika layout A: a 2-ride ticket, serial 1234567890."""
    return from_notes("""p0 04A1B29F p1 C3D4E5F6 p2 04480000 p3 00000000 p4 45D9C499 p5 602D2A00 p6 12C03840
        p7 00F1E051 p8 01341213 p9 00000000 p10 00000000 p11 00000000 p12 00000000 p13 00000000
        p14 00000000 p15 00000000""", "docs/cards/ultralight-tickets.md, Troika example 1 (layout A)")


def troika_d():
    """docs/cards/ultralight-tickets.md, Troika layout D: a 20-ride ticket, 17 rides left."""
    return from_notes("""p0 041122BF p1 33445566 p2 44480000 p3 00000000 p4 45DA000B p5 C614ED00 p6 25810000
        p7 25810000 p8 25552D06 p9 40112B42 p10 00000000 p11 25598C48 p12 25552D06 p13 40112B42
        p14 00000000 p15 25598C48""", "docs/cards/ultralight-tickets.md, Troika example 2 (layout D)")


def hsl_v2():
    """docs/cards/hsl.md, single tickets: a version 2 child ticket for zones BC, 80 minutes, €1.50,
    valid 2024-03-15 14:37–15:57, boarded 14:41 on vehicle 1217, line 1006."""
    return from_notes("""p0 04A35C73 p1 8E2147D9 p2 31480000 p3 00000000 p4 21924621 p5 0034734B p6 30A11536
        p7 7B989A40 p8 2581DEAD p9 BEEF0123 p10 9B3DB6CD p11 9EEF4000 p12 01234567 p13 89ABCDEF
        p14 9B3DB889 p15 8287DD89""", "docs/cards/hsl.md, worked example: an HSL single ticket, version 2")


def hsl_v1():
    """docs/cards/hsl.md, single tickets: a version 1 adult ticket for Helsinki, 2 passengers, €3.20."""
    return from_notes("""p0 04A35C73 p1 8E2147D9 p2 31480000 p3 00000000 p4 11924621 p5 00347213 p6 488A019B
        p7 3DCC4D20 p8 5005DEAD p9 BEEF0123 p10 9B3DB6CD p11 9EEF4000 p12 00000000 p13 00000000
        p14 9B3DB889 p15 8287DC10""", "docs/cards/hsl.md, worked example: an HSL single ticket, version 1")


IMAGES = {
    "hsl-ul-image.json": hsl_v2, "hsl-ul-v1-image.json": hsl_v1,
    "troika-ul-image.json": troika_d, "troika-ul-single-image.json": troika_a,
    "mrt-singapore-ul-high-image.json": mrt_high, "pisa-ul-one-image.json": pisa_one, "venezia-ul-new-image.json": venezia_new,
    "ovc-ul-purchase-image.json": ovc_purchase, "clipper-ul-single-image.json": clipper_single,
    "mrt-singapore-ul-image.json": mrt, "pisa-ul-image.json": pisa, "venezia-ul-image.json": venezia, "ovc-ul-image.json": ovc,
    "clipper-ul-image.json": clipper,
    "compass-sale-image.json": compass_sale, "ventra-single-image.json": ventra_single,
    "nextfare-ul-image.json": nextfare_generic,
    "ultralight-ev1-image.json": ev1, "ultralight-image.json": plain, "compass-image.json": compass,
    "ventra-image.json": ventra,
}

if __name__ == "__main__":
    lab_images.main(IMAGES, "ultralight-lab-images.py")
