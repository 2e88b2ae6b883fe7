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


IMAGES = {
    "compass-sale-image.json": compass_sale, "ventra-single-image.json": ventra_single,
    "nextfare-ul-image.json": nextfare_generic,
    "ultralight-ev1-image.json": ev1, "ultralight-image.json": plain, "compass-image.json": compass,
    "ventra-image.json": ventra,
}

if __name__ == "__main__":
    lab_images.main(IMAGES, "ultralight-lab-images.py")
