"""What the Classic transit lab cards share: a 1K card image (docs/dump-formats.md §3.1) from
its sectors' data, and random keys that are never an operator's."""
import json
import random


def hexs(data):
    """Bytes as spaced upper-case hex, the way card images write them."""
    return " ".join(f"{b:02X}" for b in data)


def random_keys(seed, count=16):
    """`count` (key A, key B) pairs drawn from random.Random(seed)."""
    r = random.Random(seed)
    return [(bytes(r.randrange(256) for _ in range(6)), bytes(r.randrange(256) for _ in range(6))) for _ in range(count)]


def card_1k(uid, data, keys, note, access="7F 07 88 69", sak=0x08, atqa="00 04"):
    """A 1K card: `data` maps a sector to its three 16-byte blocks (others are zeros; sector 0
    block 0 is NXP's: UID, BCC, SAK, ATQA unless given); `keys` lists each sector's (A, B); every
    trailer has the access bits `access` and reads its keys as zeros."""
    sectors = []
    for s, (a, b) in enumerate(keys):
        blocks = list(data.get(s, [bytes(16)] * 3))
        if s == 0 and 0 not in data:
            blocks[0] = block0(uid, sak, atqa)
        assert len(blocks) == 3 and all(len(x) == 16 for x in blocks), f"sector {s}"
        blocks.append(bytes(6) + bytes.fromhex(access) + bytes(6))
        sectors.append({"key-a": hexs(a), "key-b": hexs(b), "blocks": [hexs(x) for x in blocks]})
    return {"technology": "classic", "note": note, "uid": hexs(uid), "atqa": atqa, "sak": f"{sak:02X}", "type": "1k", "sectors": sectors}


def block0(uid, sak=0x08, atqa="00 04"):
    """Sector 0 block 0 as NXP writes it: the UID, its BCC, SAK and ATQA (low byte first)."""
    bcc = 0
    for b in uid:
        bcc ^= b
    return (uid + bytes([bcc, sak]) + bytes.fromhex(atqa)[::-1]).ljust(16, b"\x00")


def key_dump(keys):
    """A Proxmark3 key dump: every sector's key A, then every key B."""
    return b"".join(a for a, _ in keys) + b"".join(b for _, b in keys)


def metrodroid_keys(uid, keys):
    """Metrodroid's key JSON for one card: each sector's key A and key B."""
    entries = [{"type": t, "key": k.hex(), "sector": s} for s, (a, b) in enumerate(keys) for t, k in (("KeyA", a), ("KeyB", b))]
    return (json.dumps({"KeyType": "MifareClassic", "TagId": uid.hex(), "keys": entries}, indent=2) + "\n").encode()


def dictionary(title, keys):
    """A MIFARE Classic Tool `.keys` / Proxmark3 `.dic` dictionary of every key A and B."""
    return (f"# {title}\n" + "".join(a.hex().upper() + "\n" + b.hex().upper() + "\n" for a, b in keys)).encode()


def farebot_keys(keys):
    """Farebot's `.farebotkeys`: key A of sector i at 6·i."""
    return b"".join(a for a, _ in keys)
