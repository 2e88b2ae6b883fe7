"""The EasyCard (Taipei) lab card for docs/cards/easycard.md: a made-up card image in
the format of scripts/classic-lab-images.py, and its keys as a Proxmark3 key dump. The keys are
drawn from random.Random(20261201): never an operator's key. Every value below is worked out by
hand in the card's page in docs/cards/

Record (16 bytes, sector 2 block 2 and sectors 3-5): byte 0 a counter, bytes 1-4 the time
(seconds since 1970-01-01 00:00 Taipei time, little-endian), byte 5 the type (00 tap-on,
11 tap-off, 20 purchase, 30 top-up), bytes 6-7 the amount (NT$, LE), bytes 8-9 the balance after
(NT$, LE), byte 10 unknown, byte 11 the place (01 shop, 05 bus, else a metro station), bytes
12-15 the machine (LE)."""
import calendar
import datetime

from card import MAKER, block0, card_image, key_dump, key_dump_name, random_keys, value_block

UID = bytes.fromhex("0E 11 22 33")
KEYS = random_keys(20261201)
MAGIC = bytes.fromhex("0E 14 00 01 07 02 08 03 09 04 08 10 00 00 00 00")   # sector 0 block 1


def taipei(y, mo, d, h, mi, s=0):
    """Seconds since 1970-01-01 00:00 counted in Taipei time (the card's clock, no UTC shift)."""
    return calendar.timegm(datetime.datetime(y, mo, d, h, mi, s).timetuple())


def record(counter, when, kind, amount, after, unknown, place, machine):
    return (bytes([counter]) + when.to_bytes(4, "little") + bytes([kind]) + amount.to_bytes(2, "little")
            + after.to_bytes(2, "little") + bytes([unknown, place]) + machine.to_bytes(4, "little"))


def easycard(balance, previous, note):
    data = {0: [block0(UID, maker=MAKER), MAGIC, bytes(16)]}
    topup = record(0x07, taipei(2024, 3, 4, 19, 0, 0), 0x30, 500, 500, 0x00, 0x5B, 0x0031C50B)
    data[2] = [value_block(balance), value_block(previous), topup]              # block 1: the previous balance
    entry = record(0x08, taipei(2024, 3, 5, 8, 12, 34), 0x00, 0, 500, 0x00, 0x33, 0x00026AD6)
    leave = record(0x09, taipei(2024, 3, 5, 8, 41, 5), 0x11, 25, 475, 0x01, 0x0D, 0x00026D19)
    bus = record(0x0A, taipei(2024, 3, 5, 18, 3, 0), 0x00, 15, 460, 0x00, 0x05, 0x00ABCDEF)
    shop = record(0x0B, taipei(2024, 3, 6, 12, 30, 0), 0x20, 95, 365, 0x00, 0x01, 0x0097D07B)
    copy = leave[:10] + bytes([0x02]) + leave[11:]                               # the tap-off written twice
    data[3] = [bytes(16), entry, leave]
    data[4] = [bus, copy, shop]
    return card_image(UID, data, KEYS, note)


IMAGES = {
    "easycard-image.json": lambda: easycard(365, 460, "A made-up EasyCard (Taipei): NT$365, a top-up, a metro ride, a bus ride, a purchase"),
    "easycard-negative-image.json": lambda: easycard(-12, 365, "A made-up EasyCard whose purse reads NT$-12 (a signed value block)"),
}

# Proxmark3 key dump: every sector's key A, then every key B, 6 bytes each; the UID in the name.
KEY_FILES = {key_dump_name(UID): key_dump(KEYS)}
