"""A made-up Touch 'n Go card (Malaysia; Classic 1K): the layout of docs/cards/touch-n-go.md. Its
keys follow Metrodroid's "touchngo" key transform: each sector's base keys (key A and key B) are
drawn from random.Random(20261212) - never an operator's key - and the card's keys are the base
keys XOR a pattern made from the UID (docs/cards/touch-n-go.md). The card's own keys go in a
MIFARE Classic Tool key file; the base keys in Metrodroid's static key file with the transform,
from which cardscan derives the card's."""
import json

from card import MAKER, block0, card_image, clock_stamp, dictionary, hexs, luhn, metrodroid_entries, random_keys, value_block

UID = bytes.fromhex("AA BB CC 0E")
BASE_KEYS = random_keys(20261212)


def pattern(uid):
    """Metrodroid's touchngo transform (key/ClassicSectorKey.kt, TouchnGoKey.resolve), from the
    first four UID bytes u0-u3: u1^u2^u3, u1, u2, ((u0+u1+u2+u3) mod 256)^u3, 00, 00."""
    u = uid
    return bytes([u[1] ^ u[2] ^ u[3], u[1], u[2], ((u[0] + u[1] + u[2] + u[3]) & 0xFF) ^ u[3], 0, 0])


def xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


KEYS = [(xor(a, pattern(UID)), xor(b, pattern(UID))) for a, b in BASE_KEYS]


def stamp(hour, minute, second, year, month, day):
    """The card's 32-bit time (years after 1990)."""
    return clock_stamp(hour, minute, second, year, month, day, base=1990)


def header(number, operator, balance_after, amount, when):
    """A log sector's block 0: the transaction number (BE), the operator (4 ASCII bytes), the
    balance after (LE, signed), the amount (BE, sen), the time."""
    return number.to_bytes(2, "big") + operator + (balance_after & 0xFFFFFFFF).to_bytes(4, "little") + amount.to_bytes(2, "big") + stamp(*when)


def station(station_id, machine):
    """A station and machine, both 16 bits big-endian."""
    return station_id.to_bytes(2, "big") + machine.to_bytes(2, "big")


CARD_NO = 123456789                                        # 07 5B CD 15: 6014640 0123456789 + Luhn
EXPIRY = (0 << 15) | ((2029 - 1990) << 9) | (6 << 5) | 30   # 2029-06-30: 4E DE
ISSUED = ((2024 - 1990) << 9) | (3 << 5) | 1               # 2024-03-01: 44 61


def touchngo(tapped_on=False):
    """The card after four transactions: a toll (5.30 on 2024-03-01 18:05:33, balance after 17.94),
    a top-up (50.00 on 2024-03-02 09:12:00, after 67.94), a train trip from station 101 machine 3
    to station 200 machine 18 (2.10, tapped off 2024-03-05 08:42:17, after 65.84) and a purchase
    (3.50 on 2024-03-05 12:30:45, after 62.34): balance 62.34, transaction counter 63. Sector 1
    carries the travel pass marks, issued 2024-03-01. `tapped_on`: the same card later, tapped on
    at station 291 machine 7 on 2024-03-06 07:55:09 and not yet tapped off, its pass marks gone."""
    number = f"6014640{CARD_NO:010d}"
    block2 = bytes(7) + CARD_NO.to_bytes(4, "big") + bytes([luhn(number)]) + bytes(2) + EXPIRY.to_bytes(2, "big")
    data = {0: [block0(UID, maker=MAKER), bytes(range(16)), block2]}
    marks = b"23" + b"\x00\x00" + b"R0" + bytes(4) + bytes.fromhex("46 02")
    if tapped_on:
        marks = b"11" + b"\x00\x00" + b"R0" + bytes(4) + bytes.fromhex("46 02")    # byte 0 differs: no pass
    data[1] = [marks + bytes.fromhex("00 02") + ISSUED.to_bytes(2, "big"), bytes(16), bytes(16)]
    data[2] = [value_block(6234, 8), value_block(6234, 8), bytes(16)]
    data[3] = [value_block(0xF9FF - 63, 12), bytes(16), bytes(16)]
    data[5] = [header(60, b"9001", 1794, 530, (18, 5, 33, 2024, 3, 1)), bytes(16), bytes(16)]
    tap_on = stamp(7, 55, 9, 2024, 3, 6) + station(291, 7) if tapped_on else bytes(4) + station(101, 3)
    data[6] = [header(62, b"9002", 6584, 210, (8, 42, 17, 2024, 3, 5)),
               b"92" + tap_on + bytes(6), bytes(6) + station(200, 18) + bytes(6)]
    data[7] = [header(61, b"9003", 6794, 5000, (9, 12, 0, 2024, 3, 2)), bytes(16), bytes(16)]
    data[8] = [header(63, b"9004", 6234, 350, (12, 30, 45, 2024, 3, 5)), bytes(16), bytes(16)]
    note = "A made-up Touch 'n Go card" + (", a trip in progress" if tapped_on else "") + " (scripts/classic_cards/touch_n_go.py)"
    return card_image(UID, data, KEYS, note)


IMAGES = {"touch-n-go-image.json": touchngo, "touch-n-go-tapped-on-image.json": lambda: touchngo(tapped_on=True)}
# The card's keys as a MIFARE Classic Tool key file: every sector's key A, then its key B.
KEY_FILES = {"touch-n-go.keys": dictionary("MIFARE Classic Tool key file: the Touch 'n Go lab card's keys (UID AA BB CC 0E)", KEYS),
             # The base keys, as Metrodroid's static key file with the touchngo transform.
             "touch-n-go-static-keys.json": (json.dumps(
    {"KeyType": "MifareClassicStatic", "Description": "Touch 'n Go lab card base keys (random)",
     "keys": metrodroid_entries(BASE_KEYS, transform="touchngo")}, indent=2) + "\n").encode()}

if __name__ == "__main__":
    print("pattern", hexs(pattern(UID)))
    for s in (0, 1):
        print(f"sector {s}: base A {hexs(BASE_KEYS[s][0])} -> card A {hexs(KEYS[s][0])}; base B {hexs(BASE_KEYS[s][1])} -> card B {hexs(KEYS[s][1])}")
