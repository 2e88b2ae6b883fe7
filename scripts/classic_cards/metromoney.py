"""The MetroMoney lab card (docs/cards/metromoney.md): a made-up MIFARE Classic 1K with
random keys, written from the format as docs/cards/ describes it (not from the profile).

    sector 0 block 0   bytes 0-3 the UID, read little-endian: the card number
    sector 0 block 1   bits 48-79: a packed date and time (date 1)
    sector 1 block 1   bytes 0-3: the balance, a signed little-endian count of tetri: -35
    sector 1 block 2   bits 32-63 and 96-127: dates 2 and 3
    sector 2 block 2   bits 32-63: date 4
A packed date and time is 32 bits: year after 2000 (6), month (4), day (5), hour (5),
minute (6), second (6).

Keys: random.Random(20261218), key A then key B for each of the 16 sectors; never an operator's
key. KEY_FILES holds them as Metrodroid key JSON (one card's keys, by UID)."""
from card import block0, card_image, metrodroid_keys, random_keys

UID = bytes.fromhex("2C 3D 4E 5F")
KEYS = random_keys(20261218)


def stamp(year, month, day, hour, minute, second):
    """A packed date and time, 4 bytes: year-2000 (6 bits), month (4), day (5), hour (5),
    minute (6), second (6), most significant bit first."""
    v = 0
    for value, width in ((year - 2000, 6), (month, 4), (day, 5), (hour, 5), (minute, 6), (second, 6)):
        assert 0 <= value < (1 << width)
        v = v << width | value
    return v.to_bytes(4, "big")


def metromoney():
    data = {}
    data[0] = [block0(UID),
               bytes(6) + stamp(2019, 8, 11, 20, 24, 9) + bytes(6),                          # date 1
               bytes(16)]
    data[1] = [bytes(16),
               (-35).to_bytes(4, "little", signed=True) + bytes(12),                          # -0.35 GEL
               bytes(4) + stamp(2024, 3, 5, 8, 15, 27) + bytes(4) + stamp(2024, 2, 28, 19, 2, 41)]   # dates 2, 3
    data[2] = [bytes(16), bytes(16), bytes(4) + stamp(2024, 3, 1, 12, 0, 5) + bytes(8)]         # date 4
    return card_image(UID, data, KEYS, "A made-up MetroMoney card (scripts/classic_cards/metromoney.py)")


IMAGES = {"metromoney-image.json": metromoney}
KEY_FILES = {"metromoney-keys.json": metrodroid_keys(UID, KEYS, indent=1, end="")}
