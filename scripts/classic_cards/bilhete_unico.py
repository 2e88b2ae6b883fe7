"""The Bilhete Único (São Paulo) lab cards for docs/cards/bilhete-unico.md: made-up card
images in the format of scripts/classic-lab-images.py, and their keys as a MIFARE Classic Tool
key file. The keys are drawn from random.Random(20261203): never SPTrans's. Every value below is
worked out by hand in the card's page in docs/cards/

Bits are numbered from the top bit of a block's byte 0. Days count from 2000-01-01, minutes from
midnight, both São Paulo time. The last trip's sector (3, copied to 4) ends with a CRC-16/ARC of
its 48 bytes (reflected polynomial A001, preset 0: the whole sector checks to 0); sectors 5-8
hold MIFARE value blocks in blocks 1 and 2 whose address bytes name block 4·s+1."""
from card import MAKER, block0, card_image, dictionary, put, random_keys, split_blocks, value_block

UID = bytes.fromhex("B1 22 33 44")
KEYS = random_keys(20261203)


def crc16_arc(data):
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


def trip_sector(transport, location, line, counter, fare, day, minute, first_day, first_minute, first_line):
    s = bytearray(48)
    put(s, 0, 8, transport)
    put(s, 8, 20, location)
    put(s, 28, 20, line)
    put(s, 48, 14, counter)
    put(s, 128 + 36, 16, fare)
    put(s, 128 + 76, 14, day)
    put(s, 128 + 90, 11, minute)
    put(s, 256 + 2, 14, first_day)
    put(s, 256 + 16, 11, first_minute)
    put(s, 256 + 27, 9, first_line)
    crc = crc16_arc(bytes(s[:46]))
    s[46:48] = crc.to_bytes(2, "little")
    assert crc16_arc(bytes(s)) == 0
    return split_blocks(s)


SERIAL = 3 << 36 | 123456789 << 4 | 0xA              # printed 030 123456789; the low 4 bits are not printed


def bilhete(last, stale, balance, note):
    data = {0: [block0(UID, maker=MAKER), bytes(16), bytes(16)]}
    ident = bytearray(16)
    put(ident, 2, 14, 6980)                              # "date 1": 2019-02-10
    ident[3:8] = SERIAL.to_bytes(5, "big")
    data[2] = [bytes(ident), bytes(16), bytes(16)]
    data[3] = trip_sector(*last)
    data[4] = trip_sector(*stale)
    for s in (5, 6, 7):
        data[s] = [bytes(16), value_block(0, 4 * s + 1), value_block(0, 4 * s + 1)]
    refill = bytearray(16)
    put(refill, 2, 14, 8829)                             # 2024-03-04
    put(refill, 29, 11, 2000)                            # R$20.00
    put(refill, 44, 14, 7)                               # the 7th refill
    data[8] = [bytes(refill), value_block(balance, 33), value_block(balance, 33)]
    return card_image(UID, data, KEYS, note)


# transport, location, line, counter, fare (centavos), day, minute, first tap's day, minute, line
BUS = (0xB4, 0x12345, 0x08731, 42, 440, 8830, 1100, 8830, 1075, 0x031)       # 2024-03-05 18:20, first tap 17:55
MORNING = (0xB4, 0x12300, 0x08731, 41, 440, 8830, 480, 8830, 480, 0x031)     # 2024-03-05 08:00: the stale copy
RAIL = (0x78, 0x00102, 0x000A0, 43, 440, 8831, 450, 8831, 450, 0x040)        # 2024-03-06 07:30, its own first tap
BUS_LINE = (0xB4, 0x00875, 0x38222, 44, 440, 8831, 1140, 8831, 1130, 0x031)    # 2024-03-06 19:00: line 38222, place 875

IMAGES = {
    "bilhete-unico-image.json": lambda: bilhete(BUS, MORNING, 1120, "A made-up Bilhete Único: R$11.20, a bus ride, its first tap, a refill"),
    "bilhete-unico-rail-image.json": lambda: bilhete(RAIL, BUS, 680, "A made-up Bilhete Único whose last trip is its own first tap"),
    "bilhete-unico-bus-line-image.json": lambda: bilhete(BUS_LINE, RAIL, 240, "A made-up Bilhete Único whose last bus trip names its line in the place field"),
}

# MIFARE Classic Tool key file: every sector's key A and key B, one a line.
KEY_FILES = {"bilhete-unico.keys": dictionary("MIFARE Classic Tool key file: the Bilhete Único lab card's keys (random, not SPTrans's)", KEYS)}
