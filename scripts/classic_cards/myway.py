"""A made-up MyWay card (Canberra; Classic 1K): the SmartRider layout of
docs/cards/smartrider.md. Every key is drawn from random.Random(20261211):
never an operator's key. Its keys go in a Metrodroid key file (MifareClassic, every key A and B)."""
from card import MAKER, block0, card_image, hexs, metrodroid_keys, random_keys, split_blocks

UID = bytes.fromhex("9A AB BC CE")
KEYS = random_keys(20261211)


def tag(stamp, flags, route, cost):
    """A tag record (one block of sectors 10-13): 3 bytes nobody reads, the time (seconds since
    2000-01-01 00:00 UTC+11, little-endian), the flags byte, the route (4 ASCII bytes, NUL padded),
    a byte, the cost (cents, little-endian), a byte."""
    return b"\x00\x00\x00" + stamp.to_bytes(4, "little") + bytes([flags]) + route.ljust(4, b"\x00") + b"\x00" + cost.to_bytes(2, "little") + b"\x00"


def balance_record(flags, number, last, magnitude):
    """A balance record (sector 2 or 3, 48 bytes): 2 bytes, the flags byte (bit 7: negative), the
    transaction number (LE), two 14-byte tag-ons (here the first empty), three fares (zeros), the
    balance's magnitude (LE cents), then zeros."""
    data = b"\x00\x00" + bytes([flags]) + number.to_bytes(2, "little") + bytes(14) + last + bytes(6) + magnitude.to_bytes(2, "little") + bytes(7)
    assert len(data) == 48
    return data


# Times: seconds since 2000-01-01 00:00 UTC+11.
M1 = 0x2E279380   # 2024-07-15 08:00:00 UTC+11 = 07:00 AEST, bus R4, tag on, 3.20
M2 = 0x2E279A88   # 2024-07-15 08:30:00 UTC+11 = 07:30 AEST, bus R4, tag off
M3 = 0x2CFE2618   # 2023-12-02 17:30:00 UTC+11 (AEDT), light rail, tag on
M4 = 0x2CFE2B4A   # 2023-12-02 17:52:10 UTC+11 (AEDT), light rail, tag off


def myway():
    data = {}
    # Sector 0 block 1 bytes 6-10: the number 00 98 76 54 32.
    data[0] = [block0(UID, maker=MAKER),
               bytes(6) + bytes.fromhex("00 98 76 54 32") + bytes(5), bytes(16)]
    # Sector 1: issued 8066 (82 1F), no ticket type expiry (00 00), autoload bytes 20-23 set
    # (F4 01 E8 03: the profile does not read them on MyWay), ticket type 03.
    config = bytes(16) + bytes.fromhex("82 1F 00 00 F4 01 E8 03 03") + bytes(23)
    data[1] = split_blocks(config)
    # Sector 2: the older record, number 255 (FF 00), 30.00; sector 3: the newer, 256 (00 01),
    # 26.80: the newer's low byte is the smaller.
    older = balance_record(0x00, 255, bytes(14), 3000)
    newer = balance_record(0x10, 256, M1.to_bytes(4, "little") + b"R4\x00\x00" + bytes.fromhex("00 00 05 21 01 00"), 2680)
    data[2] = split_blocks(older)
    data[3] = split_blocks(newer)
    data[10] = [bytes(16), bytes(16), tag(M3, 0x11, b"LR", 0)]
    data[12] = [tag(M1, 0x10, b"R4", 320), tag(M2, 0x00, b"R4", 0), bytes(16)]
    data[13] = [tag(M4, 0x01, b"LR", 0), bytes(16), bytes(16)]
    return card_image(UID, data, KEYS, "A made-up MyWay card (scripts/classic_cards/myway.py)")


IMAGES = {"myway-image.json": myway}
KEY_FILES = {"myway-keys.json": metrodroid_keys(UID, KEYS)}

if __name__ == "__main__":
    import hashlib
    for name, key in zip("AB", KEYS[7]):
        print(f"sector 7 key {name} {hexs(key)}: md5 {hashlib.md5(b'myway' + key + b'myway').hexdigest()}")
