"""A made-up Rejsekort (docs/cards/rkf.md, Rejsekort): a MIFARE Classic 4K, UID CA DB EC 0E,
every sector opened by its own random keys (random.Random(20261214); never an operator's key).

RKF packs its records least significant bit first (RKF-0022 §7.4.1): `rkf_bits` places each value
at its RKF bit position, as the specification numbers them, and writes the block least significant
byte first. What the blocks hold, worked out by hand in the card's page in docs/cards/:

- sector 0 block 1, the card information (TCCI): no MAD, card version 4, provider 2000
  (Rejsekort), valid until 2029-12-31, status 01 (ok), currency unit 2208 (DKK in øre), event log
  version 2; block 2 an older copy (status 21, valid until 2024-12-31), which is not read.
- sectors 3–7, the event log (TCEL, identifier 84, Rejsekort's version 2): card initialised and
  application created (left out), a top-up of 200.00, a check-in and a check-out (24.00) in
  format F, a negative charge of −20.00, another journey (18.50), a paper ticket (36.00), a
  summer-time top-up (100.00), and a card-initialised record with an impossible time (left out).
- sectors 9–10, the purse (TCPU version 6): copy 1 transaction 41, 11.50; copy 2 transaction
  42, −12.50 (the current one).
- sector 13, the customer profile (TCCP): customer number 4012345.
"""
from card import MAKER, block0, card_image, key_dump, key_dump_name, random_keys, split_blocks, write_here
from card import lsb_bits as rkf_bits, rkf_day as day

UID = bytes.fromhex("CA DB EC 0E")
KEYS = random_keys(20261214, 40)                 # a 4K: 32 sectors of 4 blocks, then 8 of 16


def time_compact(h, m, s):
    """TimeCompact: hhhhh mmmmmm sssss, the seconds in units of two."""
    return h << 11 | m << 5 | s // 2


def tcci(valid_until, status):
    return rkf_bits(16, (0, 16, 0), (16, 6, 4), (22, 12, 2000), (34, 14, day(valid_until)), (48, 8, status),
                    (56, 16, 0x2208), (72, 6, 2))


def event(date, hms, code, provider, data=()):
    """A version-2 event log record: identifier 84, date, time, the operator at bit 38, the event
    code at 72; `data`: further (bit, count, value) of the code's own format."""
    return rkf_bits(16, (0, 8, 0x84), (8, 14, day(date)), (22, 16, time_compact(*hms)), (38, 12, provider), (72, 6, code), *data)


def event_f(date, hms, kind, provider, location, price):
    """Format F (code 0F): the operator at bit 39, the location at 51, the real event at 83, the price at 94."""
    return rkf_bits(16, (0, 8, 0x84), (8, 14, day(date)), (22, 16, time_compact(*hms)), (39, 12, provider), (51, 14, location),
                    (72, 6, 0x0F), (83, 11, kind), (94, 16, price))


def charge(date, hms, provider, amount):
    """Code 08 (charge of the purse): the amount at bit 102, 24 bits signed."""
    return event(date, hms, 0x08, provider, [(102, 24, amount)])


LOG = [
    event("2019-05-02", (10, 0, 0), 0x16, 2000),                 # card initialised: left out
    event("2019-05-02", (10, 0, 0), 0x17, 2000),                 # application created: left out
    charge("2024-03-04", (17, 45, 10), 2002, 20000),             # top-up 200.00
    event_f("2024-03-05", (8, 15, 42), 0x1B, 2002, 1234, 0),     # check-in, no price
    event_f("2024-03-05", (8, 52, 6), 0x1C, 2002, 2345, 2400),   # check-out, 24.00
    charge("2024-03-05", (12, 0, 0), 2000, -2000),               # a negative charge: −20.00
    event_f("2024-03-06", (7, 58, 30), 0x1B, 2006, 310, 0),      # check-in
    event_f("2024-03-06", (8, 20, 14), 0x1C, 2006, 4321, 1850),  # check-out, 18.50
    event("2024-03-06", (9, 0, 0), 0x1A, 2002, [(78, 4, 9), (82, 20, 3600)]),   # paper ticket, 36.00
    rkf_bits(16, (0, 8, 0x84), (8, 14, day("2019-05-02")), (22, 16, 0xFFFF), (72, 6, 0x16)),   # initialised, hour 31: left out
    charge("2023-07-01", (14, 30, 0), 2000, 10000),              # summer time: top-up 100.00
]


def purse():
    """TCPU version 6 over sectors 9 and 10: the static part (2 blocks), copy 1 (sector 9 block 2,
    sector 10 block 0), copy 2 (sector 10 blocks 1–2); each copy: transaction number (16 bits),
    value (24 bits, signed), least significant byte first."""
    static = rkf_bits(32, (0, 8, 0x85), (8, 6, 6), (14, 12, 2000), (26, 32, 0x0A1B2C3D), (58, 14, day("2019-05-02")))
    copy1 = rkf_bits(32, (0, 16, 41), (16, 24, 1150), (40, 8, 0x01))
    copy2 = rkf_bits(32, (0, 16, 42), (16, 24, -1250), (40, 8, 0x01))
    data = static + copy1 + copy2
    return split_blocks(data)


def customer():
    """TCCP (identifier A2, version 2): provider 2000, status 01, customer number at bit 34."""
    return rkf_bits(16, (0, 8, 0xA2), (8, 6, 2), (14, 12, 2000), (26, 8, 0x01), (34, 34, 4012345))


def rejsekort():
    data = {0: [block0(UID, 0x18, "00 02", MAKER), tcci("2029-12-31", 0x01), tcci("2024-12-31", 0x21)]}
    log = LOG + [bytes(16)] * (15 - len(LOG))
    for i, s in enumerate(range(3, 8)):
        data[s] = log[3 * i:3 * i + 3]
    p = purse()
    data[9], data[10] = p[:3], p[3:]
    data[13] = [customer(), bytes(16), bytes(16)]
    return card_image(UID, data, KEYS, "A made-up Rejsekort (scripts/classic_cards/rejsekort.py)")


IMAGES = {"rejsekort-image.json": rejsekort}

# The card's keys as a Proxmark3 key dump: every sector's key A, then every key B.
KEY_FILES = {key_dump_name(UID): key_dump(KEYS)}

if __name__ == "__main__":
    write_here(IMAGES, KEY_FILES)
