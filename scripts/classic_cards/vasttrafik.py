"""Made-up Västtrafik cards (docs/cards/rkf.md, Västtrafik): MIFARE Classic 1K, UID EA FB 0C 1E,
every sector opened by its own random keys (random.Random(20261216); never an operator's key).

RKF packs its records least significant bit first (RKF-0022 §7.4.1): `rkf_bits` places each value
at its RKF bit position and writes the block least significant byte first. What the blocks hold,
worked out by hand in the card's page in docs/cards/:

- sector 0 block 1, the card information (TCCI): no MAD, card version 2, provider 240
  (Västtrafik), valid until 2031-01-15, status 01 (ok), currency unit 1752 (SEK in tens of öre),
  event log version 1.
- sector 9, the purse (TCPU version 3, RKF-0023's layout): copy 1 transaction 7, 2500 (250.00
  kronor); copy 2 transaction 8, −140 (−14.00 kronor), the current one.
- vasttrafik-no-purse-image.json: the same card whose sector 9 holds event log records (84), not
  a purse: the purse is left out, the card is still read.
"""
from card import MAKER, block0, card_image, dictionary, random_keys, write_here
from card import lsb_bits as rkf_bits, rkf_day as day

UID = bytes.fromhex("EA FB 0C 1E")
KEYS = random_keys(20261216)


def vasttrafik(purse=True):
    tcci = rkf_bits(16, (0, 16, 0), (16, 6, 2), (22, 12, 240), (34, 14, day("2031-01-15")), (48, 8, 0x01), (56, 16, 0x1752), (72, 6, 1))
    static = rkf_bits(16, (0, 8, 0x85), (8, 6, 3), (14, 12, 240), (26, 32, 0x01020304), (58, 14, day("2023-01-16")))

    def dynamic(transaction, value):   # PurseTransactionNumber, EndDate, Value (signed), Status
        return rkf_bits(16, (0, 16, transaction), (16, 14, day("2031-01-15")), (30, 24, value), (54, 8, 0x01))

    log = rkf_bits(16, (0, 8, 0x84), (8, 14, day("2024-03-05")), (22, 16, 8 << 11 | 15 << 5), (38, 12, 240), (90, 6, 0x1B))
    data = {0: [block0(UID, maker=MAKER), tcci, bytes(16)],
            9: [static, dynamic(7, 2500), dynamic(8, -140)] if purse else [log, bytes(16), bytes(16)]}
    note = "A made-up Västtrafik card" + ("" if purse else " whose sector 9 holds no purse") + " (scripts/classic_cards/vasttrafik.py)"
    return card_image(UID, data, KEYS, note)


IMAGES = {"vasttrafik-image.json": vasttrafik, "vasttrafik-no-purse-image.json": lambda: vasttrafik(purse=False)}

# The card's keys as a MIFARE Classic Tool key file: every sector's key A and key B.
KEY_FILES = {"vasttrafik.keys": dictionary("MIFARE Classic Tool key file: the Västtrafik lab card's keys (key A, key B of sectors 0-15)", KEYS)}

if __name__ == "__main__":
    write_here(IMAGES, KEY_FILES)
