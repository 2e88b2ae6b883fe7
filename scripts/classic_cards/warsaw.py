"""The Warsaw city card (Warszawska Karta Miejska) lab card for profiles/warsaw.yaml
(docs/cards/warsaw.md says where each value is). Every key is drawn from random.Random(20261205): never the
operator's key.

warsaw-image.json: UID 3A 4B 5C 6D, so the number is 109 06048570 (UID byte 3 = 6D = 109, bytes
0-2 little-endian 5C4B3A = 6048570); sector 0 block 1 is a MAD-like directory naming sectors 1, 2
and 3 with 13 20. The ticket is kept twice, in sector 2 and sector 3 block 0:
  sector 2 (stale): counter FF, ticket type 7A1 (not named by the sources), valid until
    2024-03-31, last trip 2024-01-10 17:42 (CET, +01:00);
  sector 3 (current): counter 00 (one write after FF: serial-number arithmetic), ticket type BF6
    (the 90-day ticket), valid until 2024-06-29, last trip 2024-04-02 07:58 (CEST, +02:00).
Both rules the sources could use (the later trip; the counter) make sector 3 the current copy."""
from card import MAKER, block0, card_image, dictionary, mad_crc, msb_bits, random_keys

UID = bytes.fromhex("3A 4B 5C 6D")
KEYS = random_keys(20261205)


def ticket(counter, expiry, ticket_type, trip, trip_type):
    y, m, d = expiry
    ty, tm, td, th, tmi = trip
    return msb_bits(16, (0, 8, 0x01), (8, 8, counter), (16, 7, y - 2000), (23, 4, m), (27, 5, d), (32, 12, ticket_type),
                    (44, 6, ty - 2000), (50, 4, tm), (54, 5, td), (59, 5, th), (64, 6, tmi), (72, 24, trip_type))


def card():
    entries = bytes.fromhex("13 20") * 3 + bytes(24)             # sectors 1-3: 13 20; 4-15 free
    directory = bytes([0x00]) + entries
    mad = bytes([mad_crc(directory)]) + directory                # with its CRC, as a real directory would carry
    data = {0: [block0(UID, maker=MAKER), mad[:16], mad[16:]],
            2: [ticket(0xFF, (2024, 3, 31), 0x7A1, (2024, 1, 10, 17, 42), 0x000102), bytes(16), bytes(16)],
            3: [ticket(0x00, (2024, 6, 29), 0xBF6, (2024, 4, 2, 7, 58), 0x000101), bytes(16), bytes(16)]}
    return card_image(UID, data, KEYS, "A made-up Warsaw city card: the current ticket in sector 3, a stale copy in sector 2 (scripts/classic_cards/warsaw.py)")


IMAGES = {"warsaw-image.json": card}

# The card's keys as a Proxmark3 dictionary (.dic): every key A and key B, one a line.
KEY_FILES = {"warsaw.dic": dictionary("Proxmark3 dictionary: the Warsaw lab card's keys (random, scripts/classic_cards/warsaw.py)", KEYS)}
