"""The Oyster lab card (docs/cards/oyster.md): a made-up first-generation Oyster, a MIFARE Classic 1K
with random keys, written from the format as the sources describe it (not from the profile).

Every value is little-endian: a field "at bit s" of a block starts at bit s counted from the lowest
bit of byte 0 (bit 8 is the lowest bit of byte 1). Times: days after 1980-01-01 (15 bits), then
minutes after midnight (11 bits), London wall-clock time.

    sector 0 block 1     96 41 42 … 4D 01 01 (the card's mark); block 2 all FF
    sector 1 block 0     bytes 1-4 the serial 987654321 (B1 68 DE 3A) -> "0987654321"
    sector 1 block 1     purse copy: journey 76 (byte 1), sub-journey 2 (bits 0-3), -135 pence
                         at bits 25-39 (15 bits, two's complement): the current copy
    sector 1 block 2     purse copy: journey 75, sub-journey 7, 165 pence: the stale copy
    sector 5 blocks 0-1  top-ups: time at bit 0, amount at bits 74-87 (14 bits, pence);
                         block 2 empty (all zero)
    sectors 7 and 8      passes, block i of 7 with block i of 8: valid until at sector 7 bit 33,
                         valid from at sector 8 bit 78, the price in sector 8 bytes 0-1; a block
                         whose sector 7 bytes 9-12 are zero holds none (block 1)
    sector 9 block 0     not a tap (filled with a plausible time all the same)
    sectors 9-13         taps, time at bit 6, in 9/1, 9/2, 12/0 and 13/2; other blocks zero

Other bits of the records hold made-up filler, so that a reader taking the wrong bits shows it.
Keys: random.Random(20261221), key A then key B for each of the 16 sectors; never an operator's
key. KEY_FILES holds them as a Metrodroid key file (JSON, by sector, for this UID)."""
import datetime

from card import MAKER, block0, card_image, metrodroid_keys, random_keys

UID = bytes.fromhex("DA 1B 2C 3E")
KEYS = random_keys(20261221)
EPOCH = datetime.date(1980, 1, 1)


def put_le(block, bit, width, value):
    """Write value into block (a bytearray) at bits bit…bit+width-1, bit 0 the lowest bit of
    byte 0 (the block read as one little-endian number)."""
    assert 0 <= value < 1 << width, (bit, width, value)
    n = int.from_bytes(block, "little")
    n &= ~(((1 << width) - 1) << bit)
    n |= value << bit
    block[:] = n.to_bytes(len(block), "little")


def day_minute(date, hh, mm):
    """(days after 1980-01-01, minutes after midnight) of a London wall-clock time."""
    return (date - EPOCH).days, hh * 60 + mm


def put_time(block, bit, date, hh, mm):
    day, minute = day_minute(date, hh, mm)
    put_le(block, bit, 15, day)
    put_le(block, bit + 15, 11, minute)


def purse(journey, sub, pence, high_nibble):
    b = bytearray(16)
    put_le(b, 0, 4, sub)                     # bits 0-3: sub-journey (as both sources' code reads it)
    put_le(b, 4, 4, high_nibble)             # bits 4-7: filler
    put_le(b, 8, 8, journey)                 # byte 1: journey
    put_le(b, 16, 9, 0x155)                  # bits 16-24: filler
    put_le(b, 25, 15, pence & 0x7FFF)        # bits 25-39: pence, two's complement
    b[5:16] = bytes.fromhex("A5 5A 00 11 22 33 44 55 66 77 88")   # filler
    return bytes(b)


def top_up(date, hh, mm, pence):
    b = bytearray(16)
    put_time(b, 0, date, hh, mm)             # bits 0-25
    put_le(b, 26, 48, 0x0000C0FFEE00)        # bits 26-73: filler
    put_le(b, 74, 14, pence)                 # bits 74-87
    put_le(b, 88, 40, 0x1234567890)          # bits 88-127: filler
    return bytes(b)


def tap(date, hh, mm):
    b = bytearray(16)
    put_le(b, 0, 6, 0x2B)                    # bits 0-5: filler
    put_time(b, 6, date, hh, mm)             # bits 6-31
    b[4:16] = bytes.fromhex("0C 0D 0E 0F 10 20 30 40 50 60 70 80")   # filler
    return bytes(b)


def pass_blocks(valid_from, valid_until, price, marker):
    """(sector 7 block, sector 8 block) of a pass: valid_until = (date, hh, mm) at sector 7 bit
    33, valid_from at sector 8 bit 78, price (pence) in sector 8 bytes 0-1; `marker` fills sector
    7 bytes 9-12 (zero: no pass)."""
    s7 = bytearray(16)
    put_le(s7, 0, 33, 0x0ABCDEF01)           # bits 0-32: filler
    put_time(s7, 33, *valid_until)           # bits 33-58
    s7[9:13] = marker
    s8 = bytearray(16)
    s8[0:2] = price.to_bytes(2, "little")
    put_le(s8, 16, 62, 0x3FEDCBA987654321)   # bits 16-77: filler
    put_time(s8, 78, *valid_from)            # bits 78-103
    return bytes(s7), bytes(s8)


def oyster():
    data = {}
    data[0] = [block0(UID, maker=MAKER),
               bytes.fromhex("96 41 42 43 44 45 46 47 48 49 4A 4B 4C 4D 01 01"),
               b"\xFF" * 16]
    serial = 987654321
    data[1] = [bytes([0x01]) + serial.to_bytes(4, "little") + bytes.fromhex("00 00 00 00 00 00 00 00 00 00 7E"),
               purse(76, 2, -135, 0x5),      # current: journey 76 > 75
               purse(75, 7, 165, 0x9)]       # stale
    data[2] = [bytes.fromhex("01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10"),
               bytes.fromhex("11 12 13 14 15 16 17 18 19 1A 1B 1C 1D 1E 1F 20"), bytes(16)]
    data[5] = [top_up(datetime.date(2024, 7, 15), 8, 5, 2000),      # £20.00, summer (BST)
               top_up(datetime.date(2023, 11, 20), 17, 40, 1000),   # £10.00, winter (GMT)
               bytes(16)]                                           # empty slot
    p0 = pass_blocks((datetime.date(2024, 9, 1), 0, 0), (datetime.date(2024, 9, 30), 23, 59), 15680,
                     bytes.fromhex("0F 42 40 01"))
    p1 = (bytearray(16), bytearray(16))     # no pass: sector 7 bytes 9-12 zero, yet a "date" at bit 33
    put_time(p1[0], 33, datetime.date(2030, 1, 1), 12, 0)
    p1[1][0:2] = (999).to_bytes(2, "little")
    p2 = pass_blocks((datetime.date(2025, 3, 28), 4, 30), (datetime.date(2025, 4, 4), 4, 29), 4420,
                     bytes.fromhex("00 00 00 07"))
    data[7] = [p0[0], bytes(p1[0]), p2[0]]
    data[8] = [p0[1], bytes(p1[1]), p2[1]]
    data[9] = [tap(datetime.date(2024, 1, 1), 0, 1),                # block 0: not a tap
               tap(datetime.date(2024, 7, 15), 8, 12),              # BST
               tap(datetime.date(2024, 7, 15), 8, 47)]
    data[12] = [tap(datetime.date(2024, 12, 2), 18, 30), bytes(16), bytes(16)]   # GMT
    data[13] = [bytes(16), bytes(16), tap(datetime.date(2024, 12, 2), 19, 5)]
    data[14] = [b"\xFF" * 16] * 3
    data[15] = [b"\xFF" * 16] * 3
    return card_image(UID, data, KEYS, "A made-up first-generation Oyster card (scripts/classic_cards/oyster.py)")


IMAGES = {"oyster-image.json": oyster}
KEY_FILES = {"oyster-keys.json": metrodroid_keys(UID, KEYS)}
