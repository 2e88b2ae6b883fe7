"""The Zolotaya Korona lab cards (docs/cards/classic-russia.md), in the image format of
scripts/classic-lab-images.py, and their keys as a Proxmark3 key dump. Every key is drawn at
random from a fixed seed: never an operator's key. The values are worked out by hand in the card's page in docs/cards/."""
from card import MAKER, block0, card_image, key_dump, key_dump_name, mad_crc, random_keys

UID = bytes.fromhex("5A 6B 7C 8E")
KEYS = random_keys(20261207)


def card(card_type, number_head, note):
    """A 1K whose sector 0 directory names sectors 4, 6 and 15 18EE; sector 4: the card's
    settings (status 1, issue 2, discount 47), the last top-up (machine 34 12, 2024-03-05 18:40:00
    local, 500.00 RUB, the 7th) and the last trip (validator 01 23 45, 2024-03-05 08:15:30 local,
    run 3, 150.00 RUB before it); sector 6: 638.50 RUB as a value block; sector 15: the card type
    and the number (number_head, then 12 34 56 78 90 12 34 5F)."""
    entries = bytearray(30)                                    # sectors 1–15, two bytes each
    for s in (4, 6, 15):
        entries[(s - 1) * 2:(s - 1) * 2 + 2] = bytes.fromhex("18 EE")
    mad = bytes([mad_crc(b"\x01" + entries), 0x01]) + entries
    data = {0: [block0(UID, maker=MAKER), mad[:16], mad[16:]]}
    data[4] = [bytes.fromhex("00 00 00 00 00 00 00 01 00 02 47 00 00 00 00 00"),    # status 1, issue 2, discount 47
               bytes.fromhex("00 34 12 00 67 E7 65 50 C3 00 00 07 00 00 00 00"),    # the last top-up
               bytes.fromhex("00 4A 01 23 45 01 A2 D4 E6 65 03 98 3A 00 00 00")]    # the last trip
    data[6] = [bytes.fromhex("6A F9 00 00 95 06 FF FF 6A F9 00 00 18 E7 18 E7"), bytes(16), bytes(16)]
    data[15] = [bytes(16), bytes(10) + card_type + bytes(3), bytes(4) + number_head + bytes.fromhex("12 34 56 78 90 12 34 5F") + bytes(2)]
    return card_image(UID, data, KEYS, note)


IMAGES = {
    "zolotaya-korona-image.json": lambda: card(bytes.fromhex("76 05 00"), bytes.fromhex("76 00"),
                                               "A made-up Zolotaya Korona card: Yaroslavl ETK (card type 760500), Moscow time"),
    "zolotaya-korona-samara-image.json": lambda: card(bytes.fromhex("63 26 00"), bytes.fromhex("63 00"),
                                                      "A made-up Zolotaya Korona card: Samara ETK (card type 632600), Samara time"),
}

# The keys as a Proxmark3 key dump: every sector's key A, then every key B. Both cards have the
# same UID and keys, so one file opens either.
KEY_FILES = {key_dump_name(UID): key_dump(KEYS)}
