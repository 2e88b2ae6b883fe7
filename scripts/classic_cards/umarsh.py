"""The Umarsh lab cards (docs/cards/classic-russia.md), in the image format of
scripts/classic-lab-images.py, and their keys as Metrodroid key JSON. Every key is drawn at
random from a fixed seed: never an operator's key. Sectors 0, 7 and 8 let only key B read their
data blocks (access bits 0F 00 FF), as one source says of real cards. The values are worked out
in docs/cards/classic-russia.md."""
from card import MAKER, block0, card_image, metrodroid_keys, random_keys

UID = bytes.fromhex("6A 7B 8C 9E")
KEYS = random_keys(20261208)
KEY_B_READS = "0F 00 FF 69"      # data blocks: read and write with key B only


def card(data, note):
    """`data`: the sectors' data blocks, and under "validation" sector 0 block 1."""
    validation = data.pop("validation")
    data = {0: [block0(UID, maker=MAKER), validation, bytes(16)], **data}
    return card_image(UID, data, KEYS, note, sector_access={s: KEY_B_READS for s in (0, 7, 8)})


def omka():
    """OMKA (Omsk, region 55): sector 8 holds tariff 6100FF (adult, 60 days, 60 trips), 41 of
    60 trips left, valid until 2024-04-30, bought 2024-03-01 at machine 12345 (the 5th top-up),
    card 123 456 789 expiring 2028-12-31, used 19 times (value 7FFFFFEC); the last validation
    was a trolleybus on route 17, vehicle 1045, 2024-03-05 at 08:15."""
    return card({
        8: [bytes.fromhex("EC FF FF 7F 13 00 00 80 EC FF FF 7F 84 7B 84 7B"),
            bytes.fromhex("00 39 9F 00 00 00 3C 05 67 5B CD 15 07 61 00 FF"),
            bytes.fromhex("30 9E 00 00 30 39 30 61 00 29 80 5A A5 3C C3 0F")],
        "validation": bytes.fromhex("43 2F 30 65 31 37 00 00 00 00 31 30 34 35 00 00"),
    }, "A made-up Umarsh card: OMKA (Omsk), 41 of 60 trips")


def siticard():
    """SitiCard (Nizhny Novgorod, region 52): sector 8 a purse (tariff 0A7F00) of 123 roubles
    valid until 2025-12-31, topped up 2024-02-20 at machine 48879 (the 12th), card 000 987 654
    expiring 2029-06-30; sector 7 the aerial tramway (tariff 3C7F00, which the sources give no
    kind: 10 trips bought, so trips), 4 left, valid until 2024-06-30, bought 2024-01-15 at
    machine 777; the last validation a bus on route 55, vehicle 2234, 2024-03-04 at 19:05."""
    return card({
        8: [bytes.fromhex("F8 FF FF 7F 07 00 00 80 F8 FF FF 7F 80 7F 80 7F"),
            bytes.fromhex("00 3A DE 00 00 00 00 0C 60 0F 12 06 04 0A 7F 00"),
            bytes.fromhex("33 9F 00 00 BE EF 30 54 00 7B 80 11 22 33 44 55")],
        7: [bytes.fromhex("F9 FF FF 7F 06 00 00 80 F9 FF FF 7F 80 7F 80 7F"),
            bytes.fromhex("00 3A DE 00 00 00 0A 02 60 0F 12 06 04 3C 7F 00"),
            bytes.fromhex("30 DE 00 00 03 09 30 2F 00 04 80 66 77 88 99 AA")],
        "validation": bytes.fromhex("27 71 30 64 35 35 00 00 00 00 32 32 33 34 00 00"),
    }, "A made-up Umarsh card: SitiCard (Nizhny Novgorod), a purse and an aerial tramway ticket")


IMAGES = {"umarsh-image.json": omka, "umarsh-siticard-image.json": siticard}

# The keys as Metrodroid key JSON (key A and key B of every sector). Both cards have the same UID
# and keys, so one file opens either.
KEY_FILES = {"umarsh-keys.json": metrodroid_keys(UID, KEYS)}
