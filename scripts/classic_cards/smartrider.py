"""A made-up Transperth SmartRider card (Classic 1K): the layout of
docs/cards/smartrider.md. Every key is drawn from random.Random(20261210):
never an operator's key. Its keys go in a Proxmark3 key dump (every key A, then every key B)."""
from card import MAKER, block0, card_image, hexs, key_dump, key_dump_name, random_keys, split_blocks

UID = bytes.fromhex("8A 9B AC BE")
KEYS = random_keys(20261210)


def tag(stamp, flags, route, cost, head=b"\x00\x00\x00"):
    """A tag record (one block of sectors 10-13): 3 bytes nobody reads, the time (seconds since
    2000-01-01 00:00 UTC+8, little-endian), the flags byte, the route (4 ASCII bytes, NUL padded),
    a byte, the cost (cents, little-endian), a byte."""
    return head + stamp.to_bytes(4, "little") + bytes([flags]) + route.ljust(4, b"\x00") + b"\x00" + cost.to_bytes(2, "little") + b"\x00"


def recent(stamp, route, stop, zone):
    """A 14-byte tag-on kept in a balance record: time, route, 2 bytes, stop (big-endian), zone, a byte."""
    return stamp.to_bytes(4, "little") + route.ljust(4, b"\x00") + b"\x00\x00" + stop.to_bytes(2, "big") + bytes([zone, 0])


def balance_record(flags, number, first, last, paid, default, remaining, magnitude, day, journey, zones):
    """A balance record (sector 2 or 3, 48 bytes): 2 bytes, the flags byte (bit 7: the balance is
    negative), the transaction number (LE), two tag-ons, three fares, the balance's magnitude (LE
    cents), a day (days since 1997-01-01), the journey number, a zone byte, 2 bytes."""
    data = (b"\x00\x00" + bytes([flags]) + number.to_bytes(2, "little") + first + last + paid.to_bytes(2, "little")
            + default.to_bytes(2, "little") + remaining.to_bytes(2, "little") + magnitude.to_bytes(2, "little")
            + day.to_bytes(2, "little") + journey.to_bytes(2, "little") + bytes([zones]) + b"\x00\x00")
    assert len(data) == 48
    return data


# Times: seconds since 2000-01-01 00:00 UTC+8 (Perth).
T1 = 0x2D783B94   # 2024-03-04 07:58:12, bus 950, tag on
T2 = 0x2D784114   # 2024-03-04 08:21:40, bus 950, tag off
T3 = 0x2D7841DF   # 2024-03-04 08:25:03, train, tag on (transfer)
T4 = 0x2D78473B   # 2024-03-04 08:47:55, train, tag off (transfer)
T5 = 0x2D7A1318   # 2024-03-05 17:30:00, ferry F1, tag on, balance negative after it


def smartrider():
    data = {}
    # Sector 0: the manufacturer block; block 1 bytes 6-10 the number 00 12 34 56 78.
    data[0] = [block0(UID, maker=MAKER),
               bytes(6) + bytes.fromhex("00 12 34 56 78") + bytes(5), bytes(16)]
    # Sector 1: issued 8839 (87 22), ticket type expires 10956 (CC 2A), autoload threshold 1000
    # (E8 03) and amount 2000 (D0 07) cents, ticket type 02, at bytes 16-24.
    config = bytes(16) + bytes.fromhex("87 22 CC 2A E8 03 D0 07 02") + bytes(23)
    data[1] = split_blocks(config)
    # Sector 2: the newer balance record, number 293 (25 01), negative (flags 92): -0.85.
    newer = balance_record(0x92, 293, recent(T5, b"F1", 0x0042, 1), recent(T5, b"F1", 0x0042, 1), 300, 300, 0, 85, 9925, 0x30, 0x01)
    # Sector 3: the older record, number 292 (24 01): 2.15, stale.
    older = balance_record(0x09, 292, recent(T1, b"950", 0x1234, 2), recent(T3, b"RAIL", 0x1448, 2), 320, 320, 0, 215, 9924, 0x2F, 0x02)
    data[2] = split_blocks(newer)
    data[3] = split_blocks(older)
    # Sectors 10-13: tag records; a slot whose time is 0 is no record (sector 11 block 1).
    data[10] = [tag(T1, 0x10, b"950", 320), tag(T2, 0x00, b"950", 0), tag(T3, 0x19, b"RAIL", 0)]
    data[11] = [tag(T4, 0x09, b"RAIL", 0), tag(0, 0x10, b"950", 320), bytes(16)]
    data[13] = [bytes(16), bytes(16), tag(T5, 0x92, b"F1", 300)]
    return card_image(UID, data, KEYS, "A made-up Transperth SmartRider card (scripts/classic_cards/smartrider.py)")


IMAGES = {"smartrider-image.json": smartrider}
KEY_FILES = {key_dump_name(UID): key_dump(KEYS)}

if __name__ == "__main__":
    import hashlib
    for name, salt in (("A", b"smartrider"), ("B", b"smartrider")):
        key = KEYS[7][0 if name == "A" else 1]
        print(f"sector 7 key {name} {hexs(key)}: md5 {hashlib.md5(salt + key + salt).hexdigest()}")
