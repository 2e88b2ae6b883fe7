"""A made-up KomuterLink card (KTM Komuter, Malaysia; Classic 1K): the
layout of docs/cards/touch-n-go.md. Every key is drawn from random.Random(20261213):
never an operator's key. Its keys go in a Proxmark3 dictionary (.dic: one key a line)."""
from card import MAKER, block0, card_image, clock_stamp, dictionary, luhn, random_keys, value_block

UID = bytes.fromhex("BA CB DC 0E")
KEYS = random_keys(20261213)


def stamp(hour, minute, second, year, month, day):
    """The card's 32-bit time (years after 2000)."""
    return clock_stamp(hour, minute, second, year, month, day, base=2000)


def record(when, number, amount):
    """A log block: the time, the transaction number (BE), 4 bytes, the amount (BE, sen), 2 bytes,
    then 2 bytes Metrodroid reads as a balance (always zero in its samples)."""
    return stamp(*when) + number.to_bytes(2, "big") + bytes(4) + amount.to_bytes(2, "big") + bytes(4)


CARD_NO = 12345678                                  # 00 BC 61 4E: 1 0012345678 + Luhn


def komuterlink():
    """Issued 2019-11-20 10:15; a top-up of 20.00 on 2024-02-10 17:20 (transaction 17) and a train
    ride of 4.40 on 2024-02-12 08:05 (transaction 18); balance 15.60."""
    block2 = bytes(4) + CARD_NO.to_bytes(4, "big") + bytes([luhn(f"1{CARD_NO:010d}")]) + bytes(7)
    data = {0: [block0(UID, maker=MAKER), bytes([0x0F]) + bytes(range(1, 16)), block2],
            1: [bytes(5) + stamp(10, 15, 0, 2019, 11, 20) + bytes(7), bytes(16), bytes(16)],
            2: [value_block(1560, 8), value_block(1560, 8), bytes(16)],
            4: [record((17, 20, 30, 2024, 2, 10), 17, 2000), bytes(16), bytes(16)],
            7: [record((8, 5, 12, 2024, 2, 12), 18, 440), bytes(16), bytes(16)]}
    return card_image(UID, data, KEYS, "A made-up KomuterLink card (scripts/classic_cards/komuterlink.py)")


IMAGES = {"komuterlink-image.json": komuterlink}
# The card's keys as a Proxmark3 dictionary: every sector's key A, then its key B.
KEY_FILES = {"komuterlink.dic": dictionary("Proxmark3 dictionary: the KomuterLink lab card's keys (UID BA CB DC 0E)", KEYS)}
