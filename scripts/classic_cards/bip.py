"""The bip! (Santiago de Chile) lab cards for profiles/bip.yaml (docs/cards/bip.md says where each
value is). Every key is drawn from random.Random(20261204): never the operator's key, so the
built-in profile, which knows the operator's sector 0 key by its digest only, does not recognise
these cards; Tests/LabCards/profiles/bip.yaml knows these keys' digests instead.

bip-image.json: UID 0B 1B 2B 3B, serial 12345678 (sector 0 block 1 bytes 4-7, little-endian),
a personal card (holder id 15432109, name "ANA ROJAS", stored backwards), balance -350 CLP
(sector 8 block 1: magnitude 5E 01 00, byte 3 = 01: negative), a refill of 1000 CLP on
2024-02-28 19:05:59 (sector 10 block 0), a metro ride of 810 CLP on 2024-03-04 08:30:15 and a
bus transfer of 0 CLP at 08:52:40 (sector 11 blocks 0 and 1); sector 11 block 2 has bytes 0 and
15 set and bytes 1-14 zero: an empty slot, not a trip.
bip-positive-image.json: the same card with balance byte 3 = 80 (only bit 7 set: not negative,
as the sources mask it with 7F) and magnitude 12340, an anonymous card (no holder)."""
from card import MAKER, block0, card_image, lsb_bits, metrodroid_keys, random_keys

UID = bytes.fromhex("0B 1B 2B 3B")
KEYS = random_keys(20261204)


def lsb_record(fields):
    """A 16-byte record from (first bit, width, value) triples, bit n being bit n % 8 of byte
    n // 8 (least significant bit first, as the sources read bip! records)."""
    assert all(value >= 0 for _, _, value in fields), fields
    return lsb_bits(16, *fields)


def stamp(y, mo, d, h, mi, s):
    """The 31 bits 6-36 of a record: day 5, month 4, year-2000 5, hour 5, minute 6, second 6."""
    return [(6, 5, d), (11, 4, mo), (15, 5, y - 2000), (20, 5, h), (25, 6, mi), (31, 6, s)]


def trip(a, when, b, kind, d_high, fare, e, check):
    # bits 64-71 are the kind byte (8); 72-79 the upper part of the unknown D (70-79); 80-81 zero
    return lsb_record([(0, 6, a)] + stamp(*when) + [(37, 27, b), (64, 8, kind), (72, 8, d_high), (82, 16, fare),
                                                    (98, 22, e), (120, 8, check)])


def refill(a, when, b, d, amount, e, check):
    return lsb_record([(0, 6, a)] + stamp(*when) + [(37, 19, b), (56, 18, d), (74, 16, amount), (90, 30, e), (120, 8, check)])


def card(balance_block, holder, note):
    data = {0: [block0(UID, maker=MAKER),
               bytes(4) + (12345678).to_bytes(4, "little") + bytes(8), bytes(16)]}
    if holder:
        name = b"ANA ROJAS".ljust(14, b"\x00")                      # as read: bytes 14 down to 1
        data[3] = [bytes(1) + name[::-1] + bytes(1), bytes(3) + (15432109).to_bytes(4, "little") + bytes(9), bytes(16)]
    data[8] = [bytes(16), balance_block, bytes(16)]
    data[10] = [refill(3, (2024, 2, 28, 19, 5, 59), 0x004D2, 0x1F00F, 1000, 0x0ABCDEF0, 0xC3), bytes(16), bytes(16)]
    data[11] = [trip(5, (2024, 3, 4, 8, 30, 15), 0x1234567, 0x45, 0x33, 810, 0x2ABCDE, 0x5A),
                trip(5, (2024, 3, 4, 8, 52, 40), 0x1234568, 0x46, 0x33, 0, 0x2ABCDF, 0x77),
                bytes([0x15]) + bytes(14) + bytes([0x9C])]
    return card_image(UID, data, KEYS, note)


IMAGES = {
    "bip-image.json": lambda: card(bytes.fromhex("5E 01 00 01") + bytes(12), True,
                                   "A made-up bip! card: balance -350 CLP, a refill, a metro ride and a bus transfer (scripts/classic_cards/bip.py)"),
    "bip-positive-image.json": lambda: card((12340).to_bytes(3, "little") + bytes([0x80]) + bytes(12), False,
                                            "A made-up anonymous bip! card whose balance byte 3 is 80: 12340 CLP (scripts/classic_cards/bip.py)"),
}

# The card's keys as Metrodroid key JSON (every sector's key A and key B).
KEY_FILES = {"bip-keys.json": metrodroid_keys(UID, KEYS)}
