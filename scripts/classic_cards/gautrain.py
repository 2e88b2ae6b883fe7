"""The Gautrain lab card (docs/cards/gautrain.md): a made-up MIFARE Classic 4K with
random keys, written from the format as docs/cards/ describes it (not from the profile).

    sector 0 block 1   bytes 0-10 the header B1 80 00 00 06 B5 5C 00 13 AE E4, bits 88-107 the
                       purse's expiry (days after 1997-01-01): 11868 = 2029-06-30
    sectors 35-38      seven 32-byte transaction records each (blocks 0-13), EN 1545 style:
                       a 28-bit presence bitmap (its first bit for the first element), the
                       date (14) and time (11), then the present elements
    sector 39 block 9  a purse copy: counter 257, -2.50 ZAR (the older one)
    sector 39 block 10 a purse copy: counter 259, 123.40 ZAR (the newer one)

Keys: random.Random(20261217), key A then key B for each of the 40 sectors; never an operator's
key. KEY_FILES holds them as a Proxmark3 key dump (every key A, then every key B)."""
from en1545 import Bits, transaction
from card import block0, card_image, key_dump, key_dump_name, random_keys, split_blocks

UID = bytes.fromhex("1C 2D 3E 4F")
KEYS = random_keys(20261217, 40)


def purse(counter, refills, units):
    """A purse copy (16 bytes): bits 0-29 unknown (0), 30-45 the transaction counter, 46-57
    unknown (0), 58-73 the refill counter, 74 unknown (0), 75-90 the balance in tenths of a rand
    plus 32768 (excess-32768), the rest 0."""
    b = Bits()
    b.put(0, 30)
    b.put(counter, 16)
    b.put(0, 12)
    b.put(refills, 16)
    b.put(0, 1)
    b.put(units + 32768, 16)
    return b.to_bytes(16)


def gautrain():
    header = bytes.fromhex("B1 80 00 00 06 B5 5C 00 13 AE E4")
    b1 = Bits()
    b1.put(int.from_bytes(header, "big"), 88)
    b1.put(11868, 20)                        # 1997-01-01 + 11868 days = 2029-06-30
    data = {0: [block0(UID, 0x18, "00 02"), b1.to_bytes(16), bytes(16)], 39: [bytes(16)] * 15}
    records = {35: [transaction(9925, 465, type=0x29, provider=1, serial=101, location=3, device=1234),        # 2024-03-05 07:45 check-in
                    transaction(9925, 500, type=0x2A, provider=1, serial=102, location=7, device=5678, price=360)],  # 08:20 check-out, R36.00
               36: [transaction(9924, 1080, provider=1, serial=100, location=3, device=42)]}                 # 2024-03-04 18:00, no type
    for s, recs in records.items():
        area = b"".join(recs).ljust(240, b"\x00")
        data[s] = split_blocks(area)
    data[39][9] = purse(257, 5, -25)        # older copy: -2.50 ZAR
    data[39][10] = purse(259, 6, 1234)      # newer copy: 123.40 ZAR
    return card_image(UID, data, KEYS, "A made-up Gautrain card (scripts/classic_cards/gautrain.py)")


IMAGES = {"gautrain-image.json": gautrain}
KEY_FILES = {key_dump_name(UID): key_dump(KEYS)}
