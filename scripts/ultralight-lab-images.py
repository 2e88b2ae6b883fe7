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


IMAGES = {"ultralight-ev1-image.json": ev1, "ultralight-image.json": plain}

if __name__ == "__main__":
    lab_images.main(IMAGES, "ultralight-lab-images.py")
