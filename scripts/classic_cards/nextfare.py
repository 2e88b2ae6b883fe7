"""The Nextfare family's lab cards (docs/cards/nextfare-classic.md): a generic card and a SEQ go
card from the worked examples there, and LA TAP and Minneapolis Go-To cards told apart by sector
0 block 2. Every sector has its own random key, sector 0 too, as on the cards."""
from card import block0, card_image, dictionary, key_dump, key_dump_name, metrodroid_keys, random_keys, set_blocks, unhex as h

MAGIC = bytes.fromhex("00 16 18 1A 1B 1C 1D 1E 1F")
MSP_BLOCK2 = "3F 33 22 11 C0 CC DD EE 3F 33 22 11 01 FE 01 FE"


def nextfare(uid, seed, code, block2, blocks, note):
    """A card: the magic and system `code` in sector 0 block 1, `block2`, and `blocks` ({(sector,
    block): 16 bytes as hex})."""
    data = set_blocks({0: [block0(uid), MAGIC + h(code) + b"\x00", h(block2)]}, blocks)
    keys = random_keys(seed)
    return card_image(uid, data, keys, note), keys


GENERIC_UID, SEQ_UID, LAX_UID, MSP_UID = h("4E 61 BC 00"), h("B1 7F 39 05"), h("5C 72 CD 11"), h("6D 83 DE 22")
GENERIC_BLOCKS = {
    (1, 0): "01 30 EA 06 00 00 00 00 00 00 00 00 00 2A 00 00", (1, 1): "01 30 85 07 00 00 00 00 00 00 00 00 00 2B 00 00",
    (1, 2): "00 00 00 00 9F 3D 00 00 01 08 00 00 00 00 00 00", (2, 0): "31 01 64 30 1A 04 D0 07 00 00 00 00 BC 0A 00 00",
    (5, 0): "31 05 65 30 EF 61 24 E0 81 00 00 00 36 00 00 00", (5, 1): "31 05 65 30 0F 62 24 9B 00 00 00 00 40 00 00 00",
}


def generic():
    # A sale record (type 71) that must not show, and a travel pass valid until 2024-12-31.
    blocks = dict(GENERIC_BLOCKS)
    blocks[(6, 0)] = "71 01 65 30 20 62 00 10 00 00 00 00 36 00 00 00"
    blocks[(3, 0)] = "00 00 9F 31 00 00 00 00 00 00 00 00 00 03 00 00"
    return nextfare(GENERIC_UID, 20261311, "01 01 01 01 01 01", "11 22 33 44" + " 00" * 12, blocks,
                    "A made-up Nextfare card of no known city (scripts/classic_cards/nextfare.py)")


def seq():
    return nextfare(SEQ_UID, 20261312, "5A 5B 20 21 22 23", "00" * 16, {
        (1, 0): "01 B0 3C 00 00 00 00 00 00 00 00 00 00 00 00 00", (1, 1): "01 B0 96 00 00 00 00 00 00 00 00 00 00 FF 00 00",
        (1, 2): "00 00 00 00 DE 3A 00 00 A5 08 00 00 00 00 00 00", (2, 0): "01 01 DE 30 29 04 C8 00 00 00 00 00 12 0B 00 00",
        (5, 0): "31 05 E1 30 E2 01 7D 90 81 00 00 00 41 00 00 00", (5, 1): "31 05 E1 30 FF 01 7D 5A 00 00 00 00 47 00 00 00",
    }, "A made-up SEQ go card: a negative balance, its write counter wrapped (scripts/classic_cards/nextfare.py)")


def lax():
    # The taps by agency 1, LA Metro (a tap's mode byte is its agency on TAP).
    blocks = {k: v.replace("31 05", "31 01") for k, v in GENERIC_BLOCKS.items()}
    return nextfare(LAX_UID, 20261313, "01 01 01 01 01 01", "00" * 16, blocks,
                    "A made-up LA TAP card (scripts/classic_cards/nextfare.py)")


def msp():
    blocks = dict(GENERIC_BLOCKS)
    blocks[(5, 2)] = "89 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00"   # an undated 89 record: not a trip
    return nextfare(MSP_UID, 20261314, "01 01 01 01 01 01", MSP_BLOCK2, blocks,
                    "A made-up Minneapolis Go-To card (scripts/classic_cards/nextfare.py)")


CARDS = {"nextfare-image.json": generic, "seq-go-image.json": seq, "lax-tap-image.json": lax, "msp-goto-image.json": msp}
IMAGES = {name: (lambda make=make: make()[0]) for name, make in CARDS.items()}
KEY_FILES = {
    # The generic card's keys as a Proxmark3 key dump, SEQ's as Metrodroid JSON, LA's and
    # Minneapolis' as MIFARE Classic Tool dictionaries.
    key_dump_name(GENERIC_UID): key_dump(generic()[1]),
    "seq-go-keys.json": metrodroid_keys(SEQ_UID, seq()[1]),
    "lax-tap.keys": dictionary("MIFARE Classic Tool key file: the LA TAP lab card's keys", lax()[1]),
    "msp-goto.keys": dictionary("MIFARE Classic Tool key file: the Go-To lab card's keys", msp()[1]),
}
