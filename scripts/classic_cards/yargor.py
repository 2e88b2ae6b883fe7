"""The YarGorTrans lab card (docs/cards/classic-russia.md), in the image format of
scripts/classic-lab-images.py, its keys as a MIFARE Classic Tool key file, and (for
Tests/LabCards/profiles/yargor.yaml) the digests of its sector 10 keys. Every key is drawn at random from a fixed
seed: never an operator's key, so the built-in profile, which knows the operator's keys by their
digests only, does not recognise this card. The values are worked out by hand in the card's page in docs/cards/."""
import hashlib

from card import MAKER, block0, card_image, dictionary, hexs, random_keys

UID = bytes.fromhex("7A 8B 9C AE")
KEYS = random_keys(20261209)


def yargor():
    """Sector 10: subscription 9621 (all day, all transport) from 18 03 01 (2024-03-01) to
    18 03 1F (2024-03-31), for bus, tram and trolleybus (07), bought 18 02 1C 0E 2D
    (2024-02-28 14:45); sector 12: the last trip, vehicle D2 04 (1234), route D7 00 (215:
    trolleybus 15), run 00 05, at BCD 24 03 05 08 15 30 (2024-03-05 08:15:30)."""
    data = {0: [block0(UID, maker=MAKER), bytes(16), bytes(16)]}
    data[10] = [bytes.fromhex("96 21 18 03 01 18 03 1F 00 00 00 00 00 00 07 00"),
                bytes.fromhex("18 02 1C 0E 2D 00 00 00 00 00 A1 B2 C3 D4 E5 F6"), bytes(16)]
    data[12] = [bytes.fromhex("D2 04 01 D7 00 00 00 00 05 24 03 05 08 15 30 00"), bytes(16), bytes(16)]
    return card_image(UID, data, KEYS, "A made-up YarGorTrans card (random keys)")


IMAGES = {"yargor-image.json": yargor}

# The keys as a MIFARE Classic Tool key file: every key A and key B, one a line.
KEY_FILES = {"yargor.keys": dictionary("MIFARE Classic Tool key file: the YarGorTrans lab card's keys (random)", KEYS)}


def lab_digests():
    """MD5 of "yaroslavl", the key, "yaroslavl" for sector 10's key A and key B (Tests/LabCards/profiles/yargor.yaml)."""
    return [hashlib.md5(b"yaroslavl" + k + b"yaroslavl").hexdigest() for k in KEYS[10]]


if __name__ == "__main__":
    print("sector 10 keys:", hexs(KEYS[10][0]), "/", hexs(KEYS[10][1]), "digests:", lab_digests())
