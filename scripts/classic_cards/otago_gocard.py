"""The Otago GoCard lab card (docs/cards/otago-gocard.md): a made-up MIFARE Classic 1K
with random keys, written from the format as docs/cards/ describes it (not from the
profile).

    sector 0 block 1   "Valid", then byte 5: bit 4 (mask 10) set, so the bank in use is 5-8
    sector 1 block 0   bytes 2-3 43 21, bytes 4-7 the serial 00 7B 2F 19
    bank 5-8 (in use)  S5 B2 bytes 8-10: NZ$15.60; S6 B1-B2 + S7 B0-B2: four 17-byte trip
                       slots (three used); S8: the last top-up (NZ$20.00) and its machine
    bank 1-4 (stale)   S1 B2: NZ$1.00, one older trip, an older top-up: shown only if the
                       wrong bank were read. otago-gocard-bank1-image.json is the same card
                       with byte 5 = 00: bank 1-4 in use.
A time is 24 bits: day (5), month (4), year after 2007 (4), minute of the day (11).

Keys: random.Random(20261219), key A then key B for each of the 16 sectors; never an operator's
key. KEY_FILES holds the A keys as a MIFARE Classic Tool dictionary (.keys)."""
from card import block0, card_image, random_keys

UID = bytes.fromhex("3C 4D 5E 6E")
KEYS = random_keys(20261219)


def when(year, month, day, hour, minute):
    v = day << 19 | month << 15 | (year - 2007) << 11 | (hour * 60 + minute)
    assert 0 <= year - 2007 < 16
    return v.to_bytes(3, "big")


def trip(stamp, cents, machine):
    """17 bytes: 3 unknown (0), the time, 1 unknown, the fare (little-endian cents), 2 unknown,
    the machine (2 bytes), 4 unknown."""
    return bytes(3) + stamp + bytes(1) + cents.to_bytes(2, "little") + bytes(2) + machine + bytes(4)


def bank(balance, trips, topup):
    """The four sectors of a bank (data blocks only; the first's block 0 is set by the caller)."""
    area = (bytes(16) + b"".join(trips)).ljust(96, b"\x00")            # S+1 B0 unused, then the slots
    stamp, cents, machine = topup
    return [[bytes(16), bytes(16), bytes(8) + balance.to_bytes(3, "little") + bytes(5)],
            [area[0:16], area[16:32], area[32:48]],
            [area[48:64], area[64:80], area[80:96]],
            [bytes(8) + stamp + bytes(1) + cents.to_bytes(2, "little") + bytes(2), machine + bytes(14), bytes(16)]]


def otago(flag=0x10):
    """flag: sector 0 block 1 byte 5; bit 4 set = bank 5-8 in use, clear = bank 1-4."""
    data = {0: [block0(UID), b"Valid" + bytes([flag]) + bytes(10), bytes(16)]}
    old = bank(100, [trip(when(2021, 11, 10, 9, 0), 200, bytes.fromhex("0B 0B"))],
               (when(2021, 11, 1, 10, 0), 500, bytes.fromhex("00 41")))
    new = bank(1560, [trip(when(2021, 11, 22, 8, 5), 200, bytes.fromhex("1A 2B")),
                      trip(when(2021, 11, 22, 17, 40), 200, bytes.fromhex("1A 30")),
                      trip(when(2021, 11, 23, 7, 55), 150, bytes.fromhex("0C 01"))],
               (when(2021, 11, 20, 12, 30), 2000, bytes.fromhex("00 42")))
    for i in range(4):
        data[1 + i], data[5 + i] = old[i], new[i]
    data[1][0] = bytes.fromhex("00 01 43 21 00 7B 2F 19") + bytes(8)
    return card_image(UID, data, KEYS, "A made-up Otago GoCard (scripts/classic_cards/otago_gocard.py)")


KEYS_FILE = "# Otago GoCard lab card (scripts/classic_cards/otago_gocard.py): the A keys, random\n" + \
            "".join(f"{a.hex().upper()}  # sector {s}\n" for s, (a, _) in enumerate(KEYS))
IMAGES = {"otago-gocard-image.json": otago, "otago-gocard-bank1-image.json": lambda: otago(0x00)}
KEY_FILES = {"otago-gocard.keys": KEYS_FILE.encode()}
