"""What the Classic transit lab cards share: a 1K or 4K card image (docs/dump-formats.md §3.1) from
its sectors' data, random keys that are never an operator's, the key files users have, and the
encodings more than one family uses (bit fields, value blocks, the MAD's CRC, RKF's dates)."""
import datetime
import json
import random

ACCESS = "7F 07 88 69"                              # key A reads the data blocks; key B not readable
MAKER = bytes.fromhex("62 63 64 65 66 67 68 69")    # made-up manufacturer data after SAK and ATQA


def hexs(data):
    """Bytes as spaced upper-case hex, the way card images write them."""
    return " ".join(f"{b:02X}" for b in data)


def random_keys(seed, count=16):
    """`count` (key A, key B) pairs drawn from random.Random(seed): key A's six bytes, then key
    B's, sector after sector."""
    r = random.Random(seed)
    return [(bytes(r.randrange(256) for _ in range(6)), bytes(r.randrange(256) for _ in range(6))) for _ in range(count)]


def block0(uid, sak=0x08, atqa="00 04", maker=b""):
    """Sector 0 block 0 as NXP writes it: the UID, its BCC, SAK and ATQA (low byte first), then
    `maker` (the manufacturer data), zeros to 16 bytes."""
    bcc = 0
    for b in uid:
        bcc ^= b
    return (uid + bytes([bcc, sak]) + bytes.fromhex(atqa)[::-1] + maker).ljust(16, b"\x00")


def card_image(uid, data, keys, note, access=ACCESS, sector_access=None, unread=(), sak=None, atqa=None):
    """A card image: a 1K for 16 pairs of `keys` (SAK 08, ATQA 00 04 unless given), a 4K for 40
    (SAK 18, ATQA 00 02). `data` maps a sector to its data blocks (3, or 15 from sector 32 on;
    others are zeros; sector 0 block 0 is NXP's unless given); `keys` lists each sector's (A, B).
    Every trailer reads its keys as zeros and has the access bits `access`, or those
    `sector_access` ({sector: access bits}) gives; a (sector, block) in `unread` reads as "..",
    a block the access bits keep from reading."""
    kind = {16: "1k", 40: "4k"}[len(keys)]
    sak = (0x08 if kind == "1k" else 0x18) if sak is None else sak
    atqa = ("00 04" if kind == "1k" else "00 02") if atqa is None else atqa
    sectors = []
    for s, (a, b) in enumerate(keys):
        count = 3 if s < 32 else 15
        blocks = list(data.get(s, [bytes(16)] * count))
        if s == 0 and 0 not in data:
            blocks[0] = block0(uid, sak, atqa)
        assert len(blocks) == count and all(len(x) == 16 for x in blocks), f"sector {s}"
        blocks.append(bytes(6) + bytes.fromhex((sector_access or {}).get(s, access)) + bytes(6))
        texts = [" ".join([".."] * 16) if (s, i) in unread else hexs(x) for i, x in enumerate(blocks)]
        sectors.append({"key-a": hexs(a), "key-b": hexs(b), "blocks": texts})
    return {"technology": "classic", "note": note, "uid": hexs(uid), "atqa": atqa, "sak": f"{sak:02X}", "type": kind, "sectors": sectors}


def split_blocks(data):
    """`data` (bytes or a bytearray) as a list of 16-byte blocks."""
    assert len(data) % 16 == 0, len(data)
    return [bytes(data[i:i + 16]) for i in range(0, len(data), 16)]


def unhex(text):
    """Bytes from hex written with or without spaces."""
    return bytes.fromhex(text.replace(" ", ""))


def set_blocks(data, blocks):
    """Writes each block of `blocks` ({(sector, block): 16 bytes as hex}) into `data` (sector →
    its three data blocks; a sector not yet there starts as zeros)."""
    for (s, b), text in blocks.items():
        data.setdefault(s, [bytes(16)] * 3)
        data[s] = [unhex(text) if i == b else x for i, x in enumerate(data[s])]
    return data


def put(buf, bit, width, value):
    """Write value into buf (a bytearray) at bits bit…bit+width-1, bit 0 the top bit of byte 0."""
    assert 0 <= value < 1 << width, (bit, width, value)
    for i in range(width):
        if value >> (width - 1 - i) & 1:
            buf[(bit + i) // 8] |= 0x80 >> ((bit + i) % 8)


def msb_bits(length, *fields):
    """`length` bytes from (first bit, width, value) triples, bit 0 the top bit of byte 0."""
    buf = bytearray(length)
    for field in fields:
        put(buf, *field)
    return bytes(buf)


def lsb_bits(length, *fields):
    """`length` bytes from (first bit, width, value) triples, least significant bit first: bit b
    is bit b % 8 of byte b // 8 (as RKF numbers them); a negative value is written in two's
    complement."""
    n = 0
    for start, count, value in fields:
        assert -(1 << count - 1) <= value < 1 << count, (start, count, value)
        value &= (1 << count) - 1
        assert n >> start & ((1 << count) - 1) == 0, f"bits {start}+{count} overlap"
        n |= value << start
    return n.to_bytes(length, "little")


def clock_stamp(hour, minute, second, year, month, day, base):
    """A 32-bit time, most significant bit first: hour (5 bits), minute (6), second (6), year
    after `base` (6), month (4), day (5) (Touch 'n Go's from 1990; KomuterLink's from 2000, whose
    second bits no source reads)."""
    return ((hour << 27) | (minute << 21) | (second << 15) | ((year - base) << 9) | (month << 5) | day).to_bytes(4, "big")


def rkf_day(iso):
    """RKF's DateCompact: days after 1997-01-01."""
    return (datetime.date.fromisoformat(iso) - datetime.date(1997, 1, 1)).days


def value_block(value, addr=0):
    """A MIFARE value block: the value (signed 32 bits, LE), its inverse, the value, then the
    address byte, its inverse, the address, its inverse."""
    v = (value & 0xFFFFFFFF).to_bytes(4, "little")
    return v + bytes(b ^ 0xFF for b in v) + v + bytes([addr, addr ^ 0xFF, addr, addr ^ 0xFF])


def mad_crc(data):
    """The MAD's CRC-8 (NXP AN10787): polynomial 1D, preset C7."""
    crc = 0xC7
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1D) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def luhn(digits):
    """The Luhn check digit of a string of digits."""
    total = 0
    for i, c in enumerate(reversed(digits)):
        n = int(c) * (2 if i % 2 == 0 else 1)
        total += n - 9 if n > 9 else n
    return (10 - total % 10) % 10


def key_dump(keys):
    """A Proxmark3 key dump: every sector's key A, then every key B."""
    return b"".join(a for a, _ in keys) + b"".join(b for _, b in keys)


def key_dump_name(uid):
    """The name Proxmark3 gives a card's key dump: hf-mf-UID-key.bin."""
    return f"hf-mf-{uid.hex().upper()}-key.bin"


def metrodroid_entries(keys, **extra):
    """Metrodroid's key entries: each sector's key A and key B, with `extra` in every entry."""
    return [{"type": t, "key": k.hex(), "sector": s, **extra} for s, (a, b) in enumerate(keys) for t, k in (("KeyA", a), ("KeyB", b))]


def metrodroid_keys(uid, keys, indent=2, end="\n"):
    """Metrodroid's key JSON for one card: each sector's key A and key B."""
    return (json.dumps({"KeyType": "MifareClassic", "TagId": uid.hex(), "keys": metrodroid_entries(keys)}, indent=indent) + end).encode()


def dictionary(title, keys):
    """A MIFARE Classic Tool `.keys` / Proxmark3 `.dic` dictionary of every key A and B, after the
    comment line `# title`."""
    return (f"# {title}\n" + "".join(a.hex().upper() + "\n" + b.hex().upper() + "\n" for a, b in keys)).encode()


def farebot_keys(keys):
    """Farebot's `.farebotkeys`: key A of sector i at 6·i."""
    return b"".join(a for a, _ in keys)


def write_here(images, key_files):
    """For a module run by itself: its images (JSON, indent 1) and key files into the current folder."""
    for name, make in images.items():
        open(name, "w").write(json.dumps(make(), indent=1))
    for name, data in key_files.items():
        open(name, "wb").write(data)
