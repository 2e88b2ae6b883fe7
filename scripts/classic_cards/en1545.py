"""What the EN 1545-style transaction records of Gautrain's and the OV-chipkaart's Classic cards
share (docs/cards/gautrain.md, ovc.md): a bit string written most significant bit first, the 28
elements a record's bitmap stands for, and the record itself. Not a card module: it has no
IMAGES."""

# The 28 elements a transaction's bitmap stands for, in order, with their widths.
ELEMENTS = [("ns1", 8), ("unknown-a", 24), ("type", 7), ("ns4", 8), ("provider", 16), ("ns6", 8),
            ("serial", 24), ("ns8", 8), ("location", 16), ("ns10", 8), ("device", 24), ("ns12", 8),
            ("ns13", 8), ("ns14", 8), ("vehicle", 16), ("ns16", 8), ("contract", 5), ("ns18", 8),
            ("ns19", 8), ("ns20", 8), ("duration", 16), ("ns22", 8), ("ns23", 8), ("price", 16),
            ("subscription", 13), ("unknown-c", 10), ("ns27", 8), ("extra", 0)]


class Bits:
    """A bit string written most significant bit first."""
    def __init__(self):
        self.bits = ""

    def put(self, value, width):
        assert 0 <= value < (1 << width), (value, width)
        self.bits += format(value, f"0{width}b") if width else ""

    def to_bytes(self, length):
        assert len(self.bits) <= 8 * length, (len(self.bits), length)
        s = self.bits.ljust(8 * length, "0")
        return bytes(int(s[i:i + 8], 2) for i in range(0, len(s), 8))


def transaction(date, minute, first_element_last_bit=False, **values):
    """One 32-byte record: the bitmap (the first element's flag its first bit, Gautrain; or, with
    `first_element_last_bit`, its last: the bitmap read as a number has the first element at bit
    0, the OV-chipkaart), the date (14 bits) and time (11), then the elements given, in order."""
    names = [n for n, _ in ELEMENTS]
    assert set(values) <= set(names), set(values) - set(names)
    b = Bits()
    if first_element_last_bit:
        b.put(sum(1 << k for k, n in enumerate(names) if n in values), 28)
    else:
        for name in names:
            b.put(1 if name in values else 0, 1)
    b.put(date, 14)
    b.put(minute, 11)
    for name, width in ELEMENTS:
        if name in values:
            b.put(values[name], width)
    return b.to_bytes(32)
