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


IMAGES = {"classic-1k-image.json": classic_1k}

# Key files for the card: a MIFARE Classic Tool dictionary of the first eight sectors' A keys,
# and a Proxmark3 key dump (every key A, then every key B) named after the UID.
KEY_FILES = {
    "classic-1k.keys": ("# MIFARE Classic Tool key file: key A of sectors 0-7\n"
                        + "".join(a.hex().upper() + "\n" for a, _ in KEYS_1K[:8])).encode(),
    f"hf-mf-{UID.hex().upper()}-key.bin": b"".join(a for a, _ in KEYS_1K) + b"".join(b for _, b in KEYS_1K),
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
