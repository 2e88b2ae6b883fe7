"""A made-up SLaccess card (docs/cards/rkf.md, SLaccess): a MIFARE Classic 1K, UID DA EB FC 0E,
every sector opened by its own random keys (random.Random(20261215); never an operator's key).

RKF packs its records least significant bit first (RKF-0022 §7.4.1): `rkf_bits` places each value
at its RKF bit position and writes the block least significant byte first. What the blocks hold,
worked out by hand in the card's page in docs/cards/:

- sector 0 block 1, the card information (TCCI): no MAD, card version 2, provider 101 (SL),
  valid until 2027-06-30, status 3F (temporarily suspended), currency unit 2752 (SEK in öre),
  event log version 1.
- sector 9, the purse (TCPU version 2, RKF-0023's layout): copy 1 transaction 65535, 100.00;
  copy 2 transaction 0, 75.00 — the current one: its transaction number follows 65535.
"""
from card import MAKER, block0, card_image, metrodroid_keys, random_keys, write_here
from card import lsb_bits as rkf_bits, rkf_day as day

UID = bytes.fromhex("DA EB FC 0E")
KEYS = random_keys(20261215)


def slaccess():
    tcci = rkf_bits(16, (0, 16, 0), (16, 6, 2), (22, 12, 101), (34, 14, day("2027-06-30")), (48, 8, 0x3F), (56, 16, 0x2752), (72, 6, 1))
    static = rkf_bits(16, (0, 8, 0x85), (8, 6, 2), (14, 12, 101), (26, 32, 0x00ABCDEF), (58, 14, day("2021-08-10")))

    def dynamic(transaction, value):   # PurseTransactionNumber, EndDate, Value (signed), Status
        return rkf_bits(16, (0, 16, transaction), (16, 14, day("2027-06-30")), (30, 24, value), (54, 8, 0x01))

    data = {0: [block0(UID, maker=MAKER), tcci, bytes(16)], 9: [static, dynamic(65535, 10000), dynamic(0, 7500)]}
    return card_image(UID, data, KEYS, "A made-up SLaccess card (scripts/classic_cards/slaccess.py)")


IMAGES = {"slaccess-image.json": slaccess}

# The card's keys as Metrodroid key JSON: every sector's key A and key B.
KEY_FILES = {"slaccess-keys.json": metrodroid_keys(UID, KEYS)}

if __name__ == "__main__":
    write_here(IMAGES, KEY_FILES)
