"""The Bonobus lab card (docs/cards/bonobus.md): a made-up MIFARE Classic 1K with
random keys, written from the format as docs/cards/ describes it (not from the profile).

    sector 0 block 0   bytes 0-3 the UID, read little-endian: the card number
    sector 0 block 2   bytes 0-9 a header (unknown), 10-11 the issue date, 12-13 the expiry
                       date (packed: year after 2000 in 7 bits, month 4, day 5), 14-15 unknown
    sector 4 block 0   bytes 0-3 the balance, signed little-endian euro cents: 7.35 EUR
    sectors 7-15       blocks 0-2: one 16-byte transaction each (three used)
A transaction: bytes 0-3 the time (year after 2000 7 bits, month 4, day 5, hour 5, minute 6,
seconds/2 5), byte 4 high nibble the kind (8 bus, 12 top-up), 12 unknown bits, bytes 6-7 the
amount (cents), 8-9 the station, 10-11 unknown, 12-13 the line (route + 10), 14-15 the vehicle.

Keys: random.Random(20261220), key A then key B for each of the 16 sectors; never an operator's
key. KEY_FILES holds every key, A and B, as a Proxmark3 dictionary (.dic)."""
from card import block0, card_image, dictionary, random_keys

UID = bytes.fromhex("4C 5D 6E 7E")
KEYS = random_keys(20261220)


def day(y, m, d):
    return ((y - 2000) << 9 | m << 5 | d).to_bytes(2, "big")


def transaction(y, mo, d, h, mi, s, kind, a, cents, station, t, line, vehicle):
    stamp = (y - 2000) << 25 | mo << 21 | d << 16 | h << 11 | mi << 5 | s // 2
    return (stamp.to_bytes(4, "big") + (kind << 12 | a).to_bytes(2, "big") + cents.to_bytes(2, "big")
            + station.to_bytes(2, "big") + t.to_bytes(2, "big") + line.to_bytes(2, "big") + vehicle.to_bytes(2, "big"))


def bonobus():
    data = {0: [block0(UID), bytes(16),
                bytes.fromhex("01 02 03 04 05 06 07 08 09 0A") + day(2023, 9, 1) + day(2027, 8, 31) + bytes.fromhex("00 07")]}
    data[4] = [(735).to_bytes(4, "little", signed=True) + bytes(12), bytes(16), bytes(16)]
    data[7] = [transaction(2024, 3, 5, 8, 15, 42, 8, 0x123, 110, 1105, 7, 12, 42),      # a bus ride, line 2
               transaction(2024, 3, 4, 18, 30, 10, 12, 0x000, 1000, 1, 0, 0, 0),       # a top-up of 10.00
               bytes(16)]
    data[8] = [transaction(2024, 3, 5, 19, 2, 5, 8, 0x123, 110, 1203, 7, 11, 315),     # a bus ride, line 1
               bytes(16), bytes(16)]
    return card_image(UID, data, KEYS, "A made-up Bonobus card (scripts/classic_cards/bonobus.py)")


IMAGES = {"bonobus-image.json": bonobus}
KEY_FILES = {"bonobus.dic": dictionary("Bonobus lab card (scripts/classic_cards/bonobus.py): random keys, every sector's A and B", KEYS)}
