#!/usr/bin/env python3
"""Writes the MIFARE Classic lab cards (Tests/LabCards/classic-*-image.json, the image format of
docs/dump-formats.md §3.1) and key files for them in the formats users have. Every key is drawn
at random from a fixed seed: never an operator's key.
    scripts/classic-lab-images.py           write them
    scripts/classic-lab-images.py --check   exit 1 if a committed file differs"""
import os
import random
import sys

import lab_images
from lab_images import hexs

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "classic_cards"))
from card import mad_crc  # noqa: E402  (the MAD's CRC-8, shared with the transit cards)

RANDOM = random.Random(20261127)
UID = bytes.fromhex("1A 2B 3C 4D")


def keys(n):
    return [(bytes(RANDOM.randrange(256) for _ in range(6)), bytes(RANDOM.randrange(256) for _ in range(6))) for _ in range(n)]


KEYS_1K = keys(16)


def classic_1k():
    """A 1K card: block 0 with NXP's layout (UID, BCC, SAK 08, ATQA 0004), sector s block b full
    of the byte 16·s + b, every trailer 7F 07 88 69 (key A reads data, key B not readable)."""
    bcc = UID[0] ^ UID[1] ^ UID[2] ^ UID[3]
    sectors = []
    for s, (a, b) in enumerate(KEYS_1K):
        blocks = [UID + bytes([bcc, 0x08, 0x04, 0x00]) + bytes(range(1, 9)) if s == 0 and i == 0 else bytes([s * 16 + i]) * 16
                  for i in range(3)]
        blocks.append(bytes(6) + bytes.fromhex("7F 07 88 69") + bytes(6))   # as READ returns it: the keys as zeros
        sectors.append({"key-a": hexs(a), "key-b": hexs(b), "blocks": [hexs(x) for x in blocks]})
    return {"technology": "classic", "note": "A made-up Classic 1K with random keys (scripts/classic-lab-images.py)",
            "uid": hexs(UID), "atqa": "00 04", "sak": "08", "type": "1k", "sectors": sectors}


def classic_ndef():
    """A 1K formatted for NDEF (NXP AN1304): the MAD in sector 0 (key A A0A1A2A3A4A5; a card whose
    15 sectors are all NDEF has the well-known first bytes 14 01, which checks mad_crc) names
    sectors 1 and 2 NDEF (AID 03E1), which open with D3F7D3F7D3F7 and hold a URI record for
    https://cardscan.example/classic; the other sectors have transport keys (FF…FF)."""
    uid = bytes.fromhex("5A 6B 7C 8D")
    bcc = uid[0] ^ uid[1] ^ uid[2] ^ uid[3]
    aids = bytes.fromhex("03 E1") * 2 + bytes(26)                       # sectors 1, 2: NDEF; 3–15 free
    info = bytes([0x01])                                                # info byte: the card publisher's sector
    mad = bytes([mad_crc(info + aids)]) + info + aids
    payload = b"\x04cardscan.example/classic"                          # 04: "https://"
    record = bytes([0xD1, 0x01, len(payload), 0x55]) + payload
    area = (bytes([0x03, len(record)]) + record + b"\xFE").ljust(96, b"\x00")
    key_b = [bytes(RANDOM.randrange(256) for _ in range(6)) for _ in range(16)]
    sectors = []
    for s in range(16):
        if s == 0:
            data = [uid + bytes([bcc, 0x08, 0x04, 0x00]) + bytes(8), mad[:16], mad[16:]]
            key_a, access = bytes.fromhex("A0 A1 A2 A3 A4 A5"), bytes.fromhex("78 77 88 C1")   # GPB C1: MAD v1
        elif s in (1, 2):
            data = [area[(s - 1) * 48 + i * 16:(s - 1) * 48 + i * 16 + 16] for i in range(3)]
            key_a, access = bytes.fromhex("D3 F7 D3 F7 D3 F7"), bytes.fromhex("7F 07 88 40")   # GPB 40: NDEF v1, read/write
        else:
            data = [bytes(16)] * 3
            key_a, access = bytes.fromhex("FF FF FF FF FF FF"), bytes.fromhex("FF 07 80 69")
        blocks = data + [bytes(6) + access + bytes(6)]
        sectors.append({"key-a": hexs(key_a), "key-b": hexs(key_b[s]), "blocks": [hexs(x) for x in blocks]})
    return {"technology": "classic", "note": "A made-up Classic 1K formatted for NDEF (scripts/classic-lab-images.py)",
            "uid": hexs(uid), "atqa": "00 04", "sak": "08", "type": "1k", "sectors": sectors}


def troika(uid, sector8, keys, note):
    """A Troika card: a 1K whose sector 8 holds the 48-byte Troika block (docs/cards/classic.md);
    every sector opens with its own random keys, and the other sectors are zeros."""
    bcc = uid[0] ^ uid[1] ^ uid[2] ^ uid[3]
    sectors = []
    for s, (a, b) in enumerate(keys):
        if s == 0:
            data = [uid + bytes([bcc, 0x08, 0x04, 0x00]) + bytes(8), bytes(16), bytes(16)]
        elif s == 8:
            data = [sector8[i * 16:(i + 1) * 16] for i in range(3)]
        else:
            data = [bytes(16)] * 3
        blocks = data + [bytes(6) + bytes.fromhex("7F 07 88 69") + bytes(6)]
        sectors.append({"key-a": hexs(a), "key-b": hexs(b), "blocks": [hexs(x) for x in blocks]})
    return {"technology": "classic", "note": note, "uid": hexs(uid), "atqa": "00 04", "sak": "08", "type": "1k", "sectors": sectors}


TROIKA_UID = bytes.fromhex("2B 3C 4D 5E")
KEYS_TROIKA = keys(16)
TROIKA_D_UID = bytes.fromhex("3C 4D 5E 6F")
KEYS_TROIKA_D = keys(16)


def troika_purse():
    """The E5 purse of docs/cards/classic.md's worked example: serial 1234567890, 123.45 RUB,
    valid until 2025-12-31, validated 2024-03-05 08:15 at validator 2718, refilled 2024-03-01 12:00."""
    block = bytes.fromhex("45 DB 14 99 60 2D 2E 2A 7F 40 05 2F 26 00 38 00 53 1D 9E 50 00 0C 0E 49 C6 00 00 06 00 00 00 00") + bytes(16)
    return troika(TROIKA_UID, block, KEYS_TROIKA, "A made-up Troika card: the purse (layout E5) in sector 8")


def troika_ticket():
    """A Troika card whose sector 8 holds docs/cards/ultralight-tickets.md's layout D block
    (20 rides, 17 left, validated 2018-03-05 18:42)."""
    block = bytes.fromhex("45 DA 00 0B C6 14 ED 00 25 81 00 00 25 81 00 00 25 55 2D 06 40 11 2B 42 00 00 00 00 25 59 8C 48")
    return troika(TROIKA_D_UID, block + bytes(16), KEYS_TROIKA_D, "A made-up Troika card: a 20-ride ticket (layout D) in sector 8")


def suncard(uid, serial, note):
    """A SunCard: sector 0 block 1 is 00 00 00, the serial (4 bytes), 07 05 15 FF, then zeros;
    every sector opens with the transport key FF…FF (the sources name no key: a well-known one)."""
    bcc = uid[0] ^ uid[1] ^ uid[2] ^ uid[3]
    sectors = []
    for s in range(16):
        data = [bytes(16)] * 3
        if s == 0:
            data = [uid + bytes([bcc, 0x08, 0x04, 0x00]) + bytes(8), bytes(3) + serial.to_bytes(4, "big") + bytes.fromhex("07 05 15 FF") + bytes(5),
                    bytes(16)]
        blocks = data + [bytes(6) + bytes.fromhex("FF 07 80 69") + bytes(6)]
        sectors.append({"key-a": "FF FF FF FF FF FF", "key-b": "FF FF FF FF FF FF", "blocks": [hexs(x) for x in blocks]})
    return {"technology": "classic", "note": note, "uid": hexs(uid), "atqa": "00 04", "sak": "08", "type": "1k", "sectors": sectors}


# The cards added later draw from a generator of their own, so the earlier cards keep their keys.
LATER = random.Random(20261128)
STRELKA_UID = bytes.fromhex("6F 70 81 92")
KEYS_STRELKA = [(bytes(LATER.randrange(256) for _ in range(6)), bytes(LATER.randrange(256) for _ in range(6))) for _ in range(16)]


def strelka():
    """A Strelka card (docs/cards/classic.md §Strelka): sector 0 block 2 holds the directory-like
    entries Strelka is known by (sector 10: 18F0, 12: 0005, 13: 18E0, 14: 18E8, big-endian),
    sector 12 block 0 the number: bytes 2–11 30 00 12 34 56 78 90 12 34 5F, so the long number
    (the first 19 hex digits) is 3000123456789012345 and the short one (digits 8–18) 5678 9012 345."""
    table = bytes(4) + bytes.fromhex("18 F0") + bytes(2) + bytes.fromhex("00 05 18 E0 18 E8") + bytes(2)
    number = bytes(2) + bytes.fromhex("30 00 12 34 56 78 90 12 34 5F") + bytes(4)
    card = troika(STRELKA_UID, bytes(48), KEYS_STRELKA, "A made-up Strelka card (scripts/classic-lab-images.py)")
    card["sectors"][0]["blocks"][2] = hexs(table)
    card["sectors"][12]["blocks"][0] = hexs(number)
    return card


def waikato(uid, name, bank, balance, note, records=True):
    """A Waikato-family card (docs/cards/classic.md §BUSIT and SmartRide): sector 0 block 1 starts
    with the card's word ("Valid": SmartRide Rotorua, "Panda": BUSIT) and bit 4 of its byte 5
    (mask 10) names the bank in use (clear: sectors 2–3, set: 6–7); sector 1 block 0 holds "HP" and the
    serial 0A1B2C3D. In the bank: block 1 the last transaction's date 79 9C (2019-03-15) and the
    balance (little-endian cents), the next sector's block 0 the last trip (2019-03-15 08:30,
    NZ$2.50) and the last top-up (2019-03-14 17:45, NZ$20.00). The other bank holds an older
    balance (NZ$1.00) and no records, so reading the wrong one shows. Transport keys (FF…FF)."""
    bcc = uid[0] ^ uid[1] ^ uid[2] ^ uid[3]
    data = {s: [bytes(16)] * 3 for s in range(16)}
    data[0] = [uid + bytes([bcc, 0x08, 0x04, 0x00]) + bytes(8), name + bytes([0x10 if bank == 5 else 0x00]) + bytes(10), bytes(16)]
    data[1] = [bytes.fromhex("00 01 48 50 0A 1B 2C 3D") + bytes(8), bytes(16), bytes(16)]
    old = 6 if bank == 1 else 2
    data[bank + 1] = [bytes(16), bytes(7) + bytes.fromhex("79 9C") + balance.to_bytes(2, "little") + bytes(5), bytes(16)]
    data[old] = [bytes(16), bytes(7) + bytes.fromhex("79 9C") + (100).to_bytes(2, "little") + bytes(5), bytes(16)]
    if records:
        data[bank + 2] = [bytes.fromhex("12 79 E1 FE 34 FA 00 56 71 E4 29 78 D0 07 00 00"), bytes(16), bytes(16)]
    sectors = [{"key-a": "FF FF FF FF FF FF", "key-b": "FF FF FF FF FF FF",
                "blocks": [hexs(x) for x in data[s] + [bytes(6) + bytes.fromhex("FF 07 80 69") + bytes(6)]]} for s in range(16)]
    return {"technology": "classic", "note": note, "uid": hexs(uid), "atqa": "00 04", "sak": "08", "type": "1k", "sectors": sectors}


def tartu(uid=bytes.fromhex("11 22 33 44"), signed=False):
    """An Estonian pilet.ee card (docs/cards/classic.md §Tartu): NDEF on Classic, the MAD naming
    sectors 1–15 NDEF (the well-known all-NDEF directory, CRC 14), one external-type record
    pilet.ee:ekaart:2 whose payload is BER-TLV 70 { 5F28 "233", 5F26 "150901", 59 "250831",
    5F27 "2", 5A "3086600012345678901", 53 UID }: card number 12345678901. `signed`: a second
    record follows, as real cards have one (a well-known "Sig" record of 40 made-up bytes), so
    the first record lacks ME and the message runs into a third sector."""
    bcc = uid[0] ^ uid[1] ^ uid[2] ^ uid[3]
    aids = bytes.fromhex("03 E1") * 15
    mad = bytes([mad_crc(bytes([0x01]) + aids), 0x01]) + aids
    def tlv(tag, value):
        return bytes.fromhex(tag) + bytes([len(value)]) + value
    inner = (tlv("5F28", b"233") + tlv("5F26", b"150901") + tlv("59", b"250831") + tlv("5F27", b"2")
             + tlv("5A", b"3086600012345678901") + tlv("53", uid))
    payload = tlv("70", inner)
    rtype = b"pilet.ee:ekaart:2"
    record = bytes([0x94 if signed else 0xD4, len(rtype), len(payload)]) + rtype + payload
    if signed:
        record += bytes([0x51, 3, 40]) + b"Sig" + bytes(range(0x40, 0x68))
    area = (bytes([0x03, 0xFF]) + len(record).to_bytes(2, "big") + record + b"\xFE").ljust(15 * 48, b"\x00")
    key_b = [bytes(LATER.randrange(256) for _ in range(6)) for _ in range(16)]
    sectors = []
    for s in range(16):
        if s == 0:
            blocks = [uid + bytes([bcc, 0x08, 0x04, 0x00]) + bytes.fromhex("62 63 64 65 66 67 68 69"), mad[:16], mad[16:],
                      bytes(6) + bytes.fromhex("78 77 88 C1") + bytes(6)]
            key_a = "A0 A1 A2 A3 A4 A5"
        else:
            blocks = [area[(s - 1) * 48 + i * 16:(s - 1) * 48 + i * 16 + 16] for i in range(3)] + [bytes(6) + bytes.fromhex("7F 07 88 40") + bytes(6)]
            key_a = "D3 F7 D3 F7 D3 F7"
        sectors.append({"key-a": key_a, "key-b": hexs(key_b[s]), "blocks": [hexs(x) for x in blocks]})
    note = "A made-up Estonian pilet.ee card" + (", its record signed" if signed else "") + " (scripts/classic-lab-images.py)"
    return {"technology": "classic", "note": note,
            "uid": hexs(uid), "atqa": "00 04", "sak": "08", "type": "1k", "sectors": sectors}


PODOROZHNIK_UID = bytes.fromhex("04 11 22 33 44 55 66")
PODOROZHNIK_RANDOM = random.Random(20261129)
KEYS_PODOROZHNIK = [(bytes(PODOROZHNIK_RANDOM.randrange(256) for _ in range(6)), bytes(PODOROZHNIK_RANDOM.randrange(256) for _ in range(6)))
                    for _ in range(16)]


def podorozhnik():
    """A Podorozhnik card (docs/cards/classic.md §Podorozhnik), 7-byte UID 04 11 22 33 44 55 66:
    number 9643 3078 2880 4199 0284 9459 60; sector 4: the balance 39 30 00 00 (123.45 RUB) in
    blocks 0 and 1, the last top-up in block 2 (minute F0 AC 71 = 2024-03-01 12:00 MSK, agency
    01, machine F7 03 = 1015, 50 C3 00 = 500.00 RUB); sector 5: the last trip (minute 8F C2 71 =
    2024-03-05 08:15, transport 01 metro, validator 43 19 = station 101 gate 3, fare 64 19 00 00 =
    65.00 RUB), then the counters (12 metro, 34 ground) in blocks 1 and 2. Random keys: the
    operator's are never known here, so the built-in profile (which knows them by their hash
    only) does not recognise this card; the lab's copy of the profile knows its key's hash."""
    uid = PODOROZHNIK_UID
    sector4 = [bytes.fromhex("39 30 00 00") + bytes(12)] * 2 + [bytes.fromhex("00 00 F0 AC 71 01 F7 03 50 C3 00") + bytes(5)]
    counters = bytes.fromhex("0C 22 8F C2 71") + bytes(11)
    sector5 = [bytes.fromhex("8F C2 71 01 43 19 64 19 00 00") + bytes(6), counters, counters]
    sectors = []
    for s, (a, b) in enumerate(KEYS_PODOROZHNIK):
        data = {0: [uid + bytes.fromhex("08 44 00") + bytes(6), bytes(16), bytes(16)], 4: sector4, 5: sector5}.get(s, [bytes(16)] * 3)
        blocks = data + [bytes(6) + bytes.fromhex("7F 07 88 69") + bytes(6)]
        sectors.append({"key-a": hexs(a), "key-b": hexs(b), "blocks": [hexs(x) for x in blocks]})
    return {"technology": "classic", "note": "A made-up Podorozhnik card (scripts/classic-lab-images.py)", "uid": hexs(uid),
            "atqa": "00 44", "sak": "08", "type": "1k", "sectors": sectors}


IMAGES = {"suncard-image.json": lambda: suncard(bytes.fromhex("4D 5E 6F 70"), 1234567, "docs/cards/classic.md, worked example: a SunCard"),
          "suncard-high-image.json": lambda: suncard(bytes.fromhex("5E 6F 70 81"), 0x80000001, "A SunCard whose serial has its top bit set"),
          "classic-1k-image.json": classic_1k, "classic-ndef-image.json": classic_ndef, "troika-image.json": troika_purse,
          "troika-ticket-image.json": troika_ticket, "strelka-image.json": strelka, "tartu-image.json": tartu,
          "smartride-image.json": lambda: waikato(bytes.fromhex("7A 8B 9C AD"), b"Valid", 1, 1234, "A made-up SmartRide (Rotorua) card, bank 1 in use"),
          "busit-image.json": lambda: waikato(bytes.fromhex("8B 9C AD BE"), b"Panda", 5, 5000, "A made-up BUSIT card, bank 5 in use"),
          "busit-bank1-image.json": lambda: waikato(bytes.fromhex("9C AD BE CF"), b"Panda", 1, 725, "A made-up BUSIT card, bank 1 in use"),
          "smartride-new-image.json": lambda: waikato(bytes.fromhex("AD BE CF D0"), b"Valid", 1, 500, "A made-up SmartRide card: no trip yet",
                                                      records=False),
          "tartu-signed-image.json": lambda: tartu(bytes.fromhex("22 33 44 55"), signed=True), "podorozhnik-image.json": podorozhnik}

# Key files for the card: a MIFARE Classic Tool dictionary of the first eight sectors' A keys,
# and a Proxmark3 key dump (every key A, then every key B) named after the UID.
import json as _json
KEY_FILES_TROIKA = {
    # The purse card's keys as a Proxmark3 key dump, the ticket card's as Metrodroid key JSON.
    f"hf-mf-{TROIKA_UID.hex().upper()}-key.bin": b"".join(a for a, _ in KEYS_TROIKA) + b"".join(b for _, b in KEYS_TROIKA),
    "troika-ticket-keys.json": (_json.dumps({"KeyType": "MifareClassic", "TagId": TROIKA_D_UID.hex(),
                                              "keys": [{"type": "KeyA", "key": a.hex(), "sector": s} for s, (a, _) in enumerate(KEYS_TROIKA_D)]},
                                             indent=2) + "\n").encode(),
}
KEY_FILES = {
    "classic-1k.keys": ("# MIFARE Classic Tool key file: key A of sectors 0-7\n"
                        + "".join(a.hex().upper() + "\n" for a, _ in KEYS_1K[:8])).encode(),
    f"hf-mf-{UID.hex().upper()}-key.bin": b"".join(a for a, _ in KEYS_1K) + b"".join(b for _, b in KEYS_1K),
    **KEY_FILES_TROIKA,
    # Podorozhnik's keys as a Proxmark3 key dump (every key A, then every key B).
    f"hf-mf-{PODOROZHNIK_UID.hex().upper()}-key.bin": b"".join(a for a, _ in KEYS_PODOROZHNIK) + b"".join(b for _, b in KEYS_PODOROZHNIK),
    # Strelka's keys as a MIFARE Classic Tool dictionary (every key A and key B).
    "strelka.keys": ("# MIFARE Classic Tool key file: the Strelka lab card's keys\n"
                     + "".join(a.hex().upper() + "\n" + b.hex().upper() + "\n" for a, b in KEYS_STRELKA)).encode(),
}

if __name__ == "__main__":
    root = os.path.join(lab_images.ROOT, "Tests", "LabCards")
    differ = [n for n, data in KEY_FILES.items()
              if "--check" in sys.argv and (not os.path.exists(os.path.join(root, n)) or open(os.path.join(root, n), "rb").read() != data)]
    if "--check" not in sys.argv:
        for n, data in KEY_FILES.items():
            open(os.path.join(root, n), "wb").write(data)
    if differ:
        sys.exit("out of date (run scripts/classic-lab-images.py): " + ", ".join(differ))
    lab_images.main(IMAGES, "classic-lab-images.py")
