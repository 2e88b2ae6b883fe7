"""The OV-chipkaart lab card (docs/cards/ovc.md): a made-up MIFARE Classic 4K with random keys,
written from the format as docs.md describes it (not from the profile).

    sector 0 block 1   bytes 0-10 the header 84 00 00 00 06 03 A0 00 13 AE E4; bits 94-107 the
                       expiry, days after 1997-01-01: 11777 = 2029-03-31 (bits 88-93 zero)
    sector 0 block 2   bits 20-23 the card type: 2 (personal)
    sectors 35-38      seven 32-byte transaction records each (blocks 0-13), EN 1545 style: a
                       28-bit presence bitmap (its LAST bit for the first element), the date (14)
                       and time (11), then the present elements
    sector 39 block 9  a purse copy: -1.25 EUR (the one in use)
    sector 39 block 10 a purse copy: 3.10 EUR (stale)
    sector 39 11-12    index slot A: counter 0x0122, names block 10
    sector 39 13-14    index slot B: counter 0x0123 (newer), names block 9

Keys: random.Random(20261222), key A then key B for each of the 40 sectors; never an operator's
key. KEY_FILES holds them as a Metrodroid key file (JSON, "KeyType": "MifareClassic")."""
from en1545 import Bits, transaction
from card import block0, card_image, metrodroid_keys, random_keys

UID = bytes.fromhex("0C 1D 2E 3F")
KEYS = random_keys(20261222, 40)


def purse(slot_id, credit_id, cents):
    """A purse copy (16 bytes), as ovc-tools' template shows it: byte 0 = 20 (bits 0-8 the
    blocked flags, not set), bits 9-20 the slot's transaction id, byte 6 = 80, bits 56-67 the
    credit id, bits 77-92 the balance in cents plus 32768, the rest 0."""
    b = Bits()
    b.put(0x20, 8)                           # bits 0-7
    b.put(0, 1)                              # bit 8
    b.put(slot_id, 12)                       # bits 9-20
    b.put(0, 27)                             # bits 21-47
    b.put(0x80, 8)                           # byte 6
    b.put(credit_id, 12)                     # bits 56-67
    b.put(0, 9)                              # bits 68-76
    b.put(cents + 32768, 16)                 # bits 77-92
    return b.to_bytes(16)


def index_slot(counter, info_b, purse_b):
    """An index slot (32 bytes = two blocks): bits 10-25 the counter, byte 3 bit 5 (20) the info
    sector in use (23 when set), byte 31 bits 7/6/5 (80/40/20) the subscription list, travel
    history and purse copy in use (the second when set)."""
    b = Bits()
    b.put(0, 10)
    b.put(counter, 16)                       # bits 10-25
    b.put(info_b, 1)                         # bit 26 = byte 3 mask 20
    b.put(0, 5 + 8 * 27)                     # bits 27-247
    b.put(0, 1)                              # bit 248: subscription list (blocks 1-2)
    b.put(0, 1)                              # bit 249: travel history slot
    b.put(purse_b, 1)                        # bit 250 = byte 31 mask 20: purse copy
    data = b.to_bytes(32)
    return [data[:16], data[16:]]


def ovc():
    header = bytes.fromhex("84 00 00 00 06 03 A0 00 13 AE E4")
    b1 = Bits()
    b1.put(int.from_bytes(header, "big"), 88)
    b1.put(0, 6)                             # bits 88-93
    b1.put(11777, 14)                        # 1997-01-01 + 11777 days = 2029-03-31
    b2 = Bits()
    b2.put(0, 20)
    b2.put(2, 4)                             # personal
    data = {s: [bytes(16)] * (3 if s < 32 else 15) for s in range(40)}
    data[0] = [block0(UID, 0x18, "00 02"), b1.to_bytes(16), b2.to_bytes(16)]
    records = {
        35: [
            # 2024-10-26 17:40 CEST: 10.00 EUR added at a reseller's machine (no type)
            transaction(10160, 1060, True, provider=0x19, serial=3001, location=77, device=0x0A0B0C,
                        contract=1, price=1000),
            # 2024-10-28 08:05 CET: GVB check-in, 4.00 held
            transaction(10162, 485, True, **{"unknown-a": 0}, type=1, provider=2, serial=3002,
                        location=1234, device=0x0001F4, price=400, **{"unknown-c": 0}),
            # 2024-10-28 08:31 CET: GVB check-out, fare 1.35
            transaction(10162, 511, True, **{"unknown-a": 0}, type=2, provider=2, serial=3003,
                        location=1301, device=0x0002BC, vehicle=2107, price=135, **{"unknown-c": 0}),
            # a record naming a never-seen element (the 1st): left out
            transaction(10162, 600, True, ns1=0xFF, type=2, provider=2, serial=3004, location=1301,
                        price=999),
        ],
        36: [
            # 2024-11-02 22:50 CET: NS check-in, 20.00 held
            transaction(10167, 1370, True, **{"unknown-a": 0}, type=1, provider=4, serial=3005,
                        location=561, device=0x00BEEF, price=2000, **{"unknown-c": 0}),
            # 2024-11-02 23:41 CET: NS check-out, fare 4.35
            transaction(10167, 1421, True, **{"unknown-a": 0}, type=2, provider=4, serial=3006,
                        location=530, device=0x00CAFE, price=435, **{"unknown-c": 0}),
            # an empty bitmap with a date and time: not a transaction
            transaction(10167, 1430, True),
        ],
    }
    for s, recs in records.items():
        area = b"".join(recs).ljust(240, b"\x00")
        data[s] = [area[i * 16:(i + 1) * 16] for i in range(15)]
    data[39][9] = purse(42, 7, -125)         # in use: -1.25 EUR
    data[39][10] = purse(41, 7, 310)         # stale: 3.10 EUR
    data[39][11:13] = index_slot(0x0122, 0, 1)   # slot A: older, names block 10
    data[39][13:15] = index_slot(0x0123, 0, 0)   # slot B: newer, names block 9
    return card_image(UID, data, KEYS, "A made-up OV-chipkaart (scripts/classic_cards/ovc.py)")


IMAGES = {"ovc-image.json": ovc}
KEY_FILES = {"ovc-keys.json": metrodroid_keys(UID, KEYS, indent=1, end="")}
