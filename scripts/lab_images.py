"""What the lab image generators share: write each image of IMAGES (file name → function
returning the document) into Tests/LabCards, or with --check exit 1 naming those that differ
from what is committed."""
import importlib.util
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# scripts/encode-record.py encodes a bit-packed record apart from cardscan's own decoder.
_spec = importlib.util.spec_from_file_location("encode_record", os.path.join(ROOT, "scripts", "encode-record.py"))
encoder = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(encoder)


def hexs(data):
    """Bytes as spaced upper-case hex, the way card images write them."""
    return " ".join(f"{b:02X}" for b in data)


def encode(yaml_file, layout, values, length):
    """The record `values` make under `layout` of profiles/`yaml_file`.yaml (a profile or a
    layout file), padded with zeros to `length` bytes."""
    import yaml
    document = yaml.safe_load(open(os.path.join(ROOT, "profiles", yaml_file + ".yaml"), encoding="utf-8"))
    bits = []
    encoder.encode(encoder.resolve(document["layouts"], layout), values, bits, {**encoder.TYPES, **document.get("types", {})})
    stream = "".join(bits)
    stream += "0" * (-len(stream) % 8)
    data = bytes(int(stream[i:i + 8], 2) for i in range(0, len(stream), 8))
    assert len(data) <= length, f"{yaml_file}/{layout}: {len(data)} bytes"
    return data + bytes(length - len(data))


def main(images, script):
    check = "--check" in sys.argv
    differ = []
    for name, make in images.items():
        path = os.path.join(ROOT, "Tests", "LabCards", name)
        text = json.dumps(make(), indent=2, ensure_ascii=False) + "\n"
        if check:
            if not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
                differ.append(name)
        else:
            open(path, "w", encoding="utf-8").write(text)
    if differ:
        sys.exit(f"out of date (run scripts/{script}): " + ", ".join(differ))
