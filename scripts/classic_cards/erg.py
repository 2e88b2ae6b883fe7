"""The ERG family's lab cards (docs/cards/erg.md): Manly Fast Ferry, Metrocard
(Christchurch) and a generic ERG card, from the worked examples there. Sector 0 opens with the
transport key FF…FF, as on the cards; every other sector has its own random key."""
from card import block0, card_image, dictionary, farebot_keys, metrodroid_keys, random_keys, set_blocks, split_blocks, unhex as h

FF = bytes.fromhex("FF FF FF FF FF FF")


def index(version, allocations):
    """An index copy (one sector's 48 bytes): the version at bytes 1–2, one allocation byte per
    data block of sectors 3–15 from byte 3 ({block number from 0: type}), the version again at 43–44."""
    b = bytearray(48)
    b[1:3] = version.to_bytes(2, "big")
    for i, t in allocations.items():
        b[3 + i] = t
    b[43:45] = version.to_bytes(2, "big")
    return split_blocks(b)


def erg(uid, seed, sector0, index1, index2, records, note):
    """A card: sector 0 blocks 1 and 2, the two index copies, and `records` ({(sector, block): 16 bytes})."""
    keys = [(FF, FF)] + random_keys(seed)[1:]
    data = set_blocks({0: [block0(uid), h(sector0[0]), h(sector0[1])], 1: index1, 2: index2}, records)
    return card_image(uid, data, keys, note), keys


MANLY_UID, CHC_UID, ERG_UID = h("5D 1E 7A 2C"), h("9C 3E 11 B7"), h("01 02 03 04")


def manly():
    return erg(MANLY_UID, 20261301, ["32320000000101 000000 0A1B2C3D 0FFF", "0203 0227 01 0E45 0A1B2C3D 1234 000000"],
               index(0x12, {0: 3, 1: 3, 3: 0x14, 4: 0x15, 5: 0x16}), index(0x11, {0: 3, 2: 3, 3: 0x14, 4: 0x15}),
               {(3, 0): "01 0102 0000 0227 0000 0000 00001004 00", (3, 1): "01 0103 0000 0227 0000 0000 00000E42 00",
                (3, 2): "01 0101 0000 0227 0000 0000 00000000 00", (4, 0): "02 0227 08 00765424 00001388 00000000",
                (4, 1): "02 0227 09 007661EF 00000384 00000000", (4, 2): "02 0227 09 007661F4 000001C2 00000000"},
               "A made-up Manly Fast Ferry card (scripts/classic_cards/erg.py)")


def metrocard():
    return erg(CHC_UID, 20261302, ["32320000000101 000000 00000000 0FFF", "0203 0136 01 0CD8 075BCD15 0000 000000"],
               index(0x40, {0: 3, 3: 0x14}), index(0x41, {0: 3, 1: 3, 3: 0x14, 4: 0x15, 5: 0x16, 6: 0x17}),
               {(3, 0): "01 0007 0000 0000 0000 0000 000008FC 00", (3, 1): "01 0008 0000 0000 0000 0000 00000802 00",
                (4, 0): "02 0006 08 0074D3C5 000007D0 00000000", (4, 1): "02 0004 0D 0074E1D6 000000FA 00000000",
                (4, 2): "02 0004 02 0074E1D6 00000000 00000000", (5, 0): "02 0009 02 0074E1F4 00000000 00000000"},
               "A made-up Metrocard (Christchurch) card (scripts/classic_cards/erg.py)")


def generic():
    return erg(ERG_UID, 20261303, ["32320000000101 000000 0012D687 0FFF", "0203 0ABC 01 1C89 0012D687 0000 000000"],
               index(9, {0: 3, 3: 0x14, 4: 0x14}), index(9, {0: 3, 1: 3, 2: 3, 3: 0x14, 4: 0x14, 5: 4, 6: 0x15, 13: 0x16, 38: 0x1D}),
               {(3, 0): "01 0021 0000 0ABC 0000 0000 000004D2 00", (3, 1): "01 0022 0000 0ABC 0505 0000 00000999 00",
                (3, 2): "01 0020 0000 0ABC 0000 0000 000005DC 00", (4, 0): "02 0ABC 08 002052D0 000007D0 00000000",
                (4, 1): "02 0ABC 09 002061C2 0000010A 00000000", (4, 2): "02 0ABC 09 002061C2 00000999 00000000",
                (5, 0): "02 0ABC 05 002061C2 00000010 00000000", (7, 1): "02 0ABC 0D 00206429 0000012C 00000000",
                (15, 2): "02 0ABC 02 00206429 00000000 00000000"},
               "A made-up ERG card of another agency (scripts/classic_cards/erg.py)")


CARDS = {"manly-fast-ferry-image.json": manly, "chc-metrocard-image.json": metrocard, "erg-image.json": generic}
IMAGES = {name: (lambda make=make: make()[0]) for name, make in CARDS.items()}
KEY_FILES = {
    # Manly's keys as Farebot keys (key A of each sector), Metrocard's as Metrodroid JSON, the
    # generic card's as a Proxmark3 dictionary.
    "manly-fast-ferry.farebotkeys": farebot_keys(manly()[1]),
    "chc-metrocard-keys.json": metrodroid_keys(CHC_UID, metrocard()[1]),
    "erg.dic": dictionary("Proxmark3 dictionary: the ERG lab card's keys", generic()[1]),
}
