"""The CharlieCard (Boston, MBTA) lab card for docs/cards/charliecard.md: a made-up card
image in the format of scripts/classic-lab-images.py, and its keys as Metrodroid key JSON. The
keys are drawn from random.Random(20261202): never the MBTA's. Every value below is worked out by
hand in the card's page in docs/cards/

Times count minutes from 2003-01-01 00:00 EST (05:00 UTC). Money is 16 bits: the top bit set
for money added, then half-cents. A transaction is 7 bytes: the time (3), the gate (13 bits)
and 3 flag bits (the lowest set for a fare), the amount (2); two a block, bytes 14-15 left 00
(a check value whose algorithm no source gives)."""
from card import block0, card_image, metrodroid_keys, put, random_keys

UID = bytes.fromhex("C1 22 33 44")
KEYS = random_keys(20261202)


def money(half_cents, added=False):
    return ((0x8000 if added else 0) | half_cents).to_bytes(2, "big")


def transaction(minutes, gate, flags, amount):
    return minutes.to_bytes(3, "big") + (gate << 3 | flags).to_bytes(2, "big") + amount


ISSUED = 0xA5DB9C                       # 2023-09-01 10:00 EDT
TOPUP = transaction(0xA8D860, 100, 0, money(4000, added=True))      # 2024-01-15 08:00 EST, $20.00 added
SUBWAY = transaction(0xA8D865, 1234, 1, money(481))                 # 2024-01-15 08:05 EST, $2.40 (the low bit dropped)
PASS_RIDE = transaction(0xAC9C3E, 1235, 5, money(0, added=True))    # 2024-07-04 17:30 EDT, $0, top bit set
BUS = transaction(0xAC9C52, 4321, 1, money(340))                    # 2024-07-04 17:50 EDT, $1.70
OLDER = transaction(0xA5DBA1, 1234, 1, money(480))                  # 2023-09-01 10:05 EDT, $2.40


def purse(last, writes, half_cents):
    """A purse copy (sectors 2 and 3): block 0 byte 0 11, bytes 1-3 the last use, 4-5 its gate,
    6-8 the issue time, bits 81-96 the write counter; block 1 bits 0-9 the card type (367),
    bit 10 set, bits 11-31 the end of validity in 8-minute steps (2015993: 2033-08-31 00:04 EDT),
    bytes 5-6 the balance."""
    b0 = bytearray(16)
    b0[0] = 0x11
    b0[1:6] = last[:5]
    b0[6:9] = ISSUED.to_bytes(3, "big")
    put(b0, 81, 16, writes)
    b1 = bytearray(16)
    put(b1, 0, 10, 367)
    put(b1, 10, 1, 1)
    put(b1, 11, 21, 2015993)
    b1[5:7] = money(half_cents)
    return [bytes(b0), bytes(b1), bytes(16)]


def charliecard():
    data = {0: [block0(UID), bytes(16), bytes(16)]}
    data[1] = [bytes(16), (20).to_bytes(2, "big") + bytes(14), (19).to_bytes(2, "big") + bytes(14)]
    data[2] = purse(PASS_RIDE, 18, 3620)         # the older copy: $18.10, written 18 times
    data[3] = purse(BUS, 19, 3280)               # the newer copy: $16.40, written 19 times
    data[6] = [TOPUP + SUBWAY + bytes(2), PASS_RIDE + BUS + bytes(2), bytes(16)]
    data[7] = [bytes(7) + OLDER + bytes(2), bytes(16), bytes(16)]
    data[8] = [(123456789).to_bytes(4, "big") + bytes(12), bytes(16), bytes(16)]
    return card_image(UID, data, KEYS, "A made-up CharlieCard: two purse copies ($18.10 older, $16.40 newer) and five transactions")


IMAGES = {"charliecard-image.json": charliecard}

# Metrodroid key JSON: this card's keys, key A and key B of every sector.
KEY_FILES = {"charliecard-keys.json": metrodroid_keys(UID, KEYS)}
