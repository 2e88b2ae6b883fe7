"""The Kazan transport card lab cards for profiles/kazan.yaml (docs/cards/classic-russia.md says where each
value is). Every key is drawn from random.Random(20261206): never the operator's key, so the
built-in profile, which knows the operator's sector 8 key by its digest only, does not recognise
these cards; Tests/LabCards/profiles/kazan.yaml knows these keys' digests instead. Dates are one binary byte per
part (year after 2000, month, day, hour, minute); the counter is little-endian.

kazan-image.json: UID 4A 5B 6C 7D, so the number is 2104253258 (the UID read backwards,
7D6C5B4A); a purse (sector 8 block 0 byte 6 = 53) valid 2023-09-01 to 2026-08-31 holding 245
roubles (sector 9 block 0: F5 00 00 00); last trip 2024-03-05 08:15 (sector 8 block 2 bytes 1-5).
kazan-ticket-image.json: the same card with a ride ticket of a type the sources do not name (41),
valid 2024-03-01 to 2024-03-31, 17 rides left, last trip 2024-03-12 18:40; block 0 of sector 0
does not read (some cards lock it, Metrodroid's history says), so the number is left out.
kazan-unlimited-image.json: an unlimited ticket (60), valid 2024-04-01 to 2024-04-30, whose
counter (3) is not a ride count; no trip yet (block 2 zeros)."""
from card import MAKER, block0, card_image, key_dump, key_dump_name, random_keys

UID = bytes.fromhex("4A 5B 6C 7D")
KEYS = random_keys(20261206)


def ymd(y, m, d):
    return bytes([y - 2000, m, d])


def card(kind, valid_from, valid_until, counter, trip, note, block0_locked=False):
    ticket = bytes(6) + bytes([kind]) + ymd(*valid_from) + ymd(*valid_until) + bytes(3)
    last = bytes(16) if trip is None else bytes(1) + ymd(*trip[:3]) + bytes(trip[3:]) + bytes(10)
    data = {0: [block0(UID, maker=MAKER), bytes(16), bytes(16)],
            8: [ticket, bytes(16), last],
            9: [counter.to_bytes(4, "little") + bytes(12), bytes(16), bytes(16)]}
    return card_image(UID, data, KEYS, note, unread={(0, 0)} if block0_locked else ())


IMAGES = {
    "kazan-image.json": lambda: card(0x53, (2023, 9, 1), (2026, 8, 31), 245, (2024, 3, 5, 8, 15),
                                     "A made-up Kazan transport card: a purse of 245 RUB (scripts/classic_cards/kazan.py)"),
    "kazan-ticket-image.json": lambda: card(0x41, (2024, 3, 1), (2024, 3, 31), 17, (2024, 3, 12, 18, 40),
                                            "A made-up Kazan card: a ride ticket (type 41), 17 rides left, sector 0 block 0 locked (scripts/classic_cards/kazan.py)",
                                            block0_locked=True),
    "kazan-unlimited-image.json": lambda: card(0x60, (2024, 4, 1), (2024, 4, 30), 3, None,
                                               "A made-up Kazan card: an unlimited ticket (type 60), no trip yet (scripts/classic_cards/kazan.py)"),
}

# The card's keys as a Proxmark3 key dump (every key A, then every key B), named after the UID.
KEY_FILES = {key_dump_name(UID): key_dump(KEYS)}
