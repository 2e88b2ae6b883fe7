#!/usr/bin/env python3
"""Encode one bit-packed record from a profile layout and named values, for lab card images
and hand-checked fixtures (docs/profile-format.md, "Bit-packed records").

    scripts/encode-record.py profiles/layouts/intercode.yaml event \
        '{"date": 9935, "time": 522, "code": 49, "location": 592}' --length 29

prints the record in spaced hex. It is written apart from the Swift decoder on purpose: a
record it makes and cardscan reads back checks both. A value element the values do not name
is absent from its bitmap (bit 0), or zero outside one; a bitmap, sequence or repeat is
present when any value below it is named. Repeats take a list of objects; `choose` follows
the value it names. Values are integers (or "0x…" text); letters fields take {"letters": "TEXT"}.
An element of a named type (`{ name: end-date, type: en1545-date }`) takes the type's width,
from profiles/types/*.yaml or the file's own `types`; a layout written as a change of another
(`{ extends: NAME, replace: [...] }`) is that layout with the elements of the same name replaced.
"""
import glob
import json
import os
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The built-in element types (profiles/types/*.yaml): name → { type, bits, … }.
TYPES = {}
for _path in sorted(glob.glob(os.path.join(ROOT, "profiles", "types", "*.yaml"))):
    TYPES.update(yaml.safe_load(open(_path, encoding="utf-8")).get("types", {}))


def width(e, types):
    """An element's width in bits: its own, or its type's."""
    if "bits" in e:
        return e["bits"]
    t = (types or TYPES).get(e.get("type"), {})
    if "bits" not in t:
        sys.exit(f"{e.get('name')}: no width (bits, or a type that has one)")
    return t["bits"]


def resolve(layouts, name):
    """The elements of layout `name`, a layout change applied."""
    layout = layouts[name]
    if isinstance(layout, list):
        return layout
    replaced = {e["name"]: e for e in layout.get("replace", []) if "name" in e}
    return [replaced.get(e.get("name"), e) for e in resolve(layouts, layout["extends"])]


def names_in(elements):
    out = set()
    for e in elements:
        if "name" in e:
            out.add(e["name"])
        for key in ("fields", "sequence", "otherwise"):
            if key in e:
                out |= names_in(e[key])
        if "repeat" in e:
            out.add(e["repeat"])
        for case in e.get("cases", []):
            out |= names_in(case["fields"])
    return out


def number(v):
    if isinstance(v, str):
        return int(v, 16) if v.lower().startswith("0x") else int(v)
    return int(v)


def letters(text, bits):
    codes = [(ord(c) - 64) if c.isalpha() else 0 for c in text.upper()]
    codes += [0] * (bits // 5 - len(codes))
    return "".join(format(c, "05b") for c in codes[: bits // 5])


def in_range(value, spec):
    items = spec if isinstance(spec, list) else [spec]
    for item in items:
        text = str(item)
        if "-" in text:
            lo, hi = (number(p.strip()) for p in text.split("-"))
        else:
            lo = hi = number(text)
        if lo <= value <= hi:
            return True
    return False


def encode(elements, values, out, types=None):
    """Appends the bits of `values` under `elements` to `out` (strings of 0 and 1); `types`: the
    element types by name (default: the built-in ones)."""
    for e in elements:
        if "name" in e:
            bits = width(e, types)
            v = values.get(e["name"], 0)
            if isinstance(v, dict) and "letters" in v:
                out.append(letters(v["letters"], bits))
            else:
                n = number(v)
                if n < 0:
                    n += 1 << bits
                if n >= 1 << bits:
                    sys.exit(f"{e['name']}: {v} does not fit {bits} bits")
                out.append(format(n, f"0{bits}b"))
        elif "unused" in e:
            out.append("0" * e["unused"])
        elif "sequence" in e:
            encode(e["sequence"], values, out, types)
        elif "bitmap" in e:
            present = [present_in(child, values) for child in e["fields"]]
            out.append("".join("1" if p else "0" for p in reversed(present)))
            for child, p in zip(e["fields"], present):
                if p:
                    encode([child], values, out, types)
        elif "repeat" in e:
            copies = values.get(e["repeat"], [])
            if "count-bits" in e:
                out.append(format(len(copies), f"0{e['count-bits']}b"))
            for copy in copies:
                encode(e["fields"], copy, out, types)
        elif "choose" in e:
            value = number(values.get(e["choose"], 0))
            taken = next((c["fields"] for c in e.get("cases", []) if in_range(value, c["values"])), e.get("otherwise", []))
            encode(taken, values, out, types)


def present_in(element, values):
    if "unused" in element:
        return False
    if "name" in element:
        return element["name"] in values
    if "repeat" in element:
        return element["repeat"] in values
    return bool(names_in([element]) & set(values))


def main():
    args = sys.argv[1:]
    length = None
    if "--length" in args:
        i = args.index("--length")
        length = int(args[i + 1])
        del args[i : i + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    path, layout, text = args
    document = yaml.safe_load(open(path, encoding="utf-8"))
    layouts = document.get("layouts", document)
    bits = []
    encode(resolve(layouts, layout), json.loads(text), bits, {**TYPES, **document.get("types", {})})
    stream = "".join(bits)
    stream += "0" * (-len(stream) % 8)
    data = bytes(int(stream[i : i + 8], 2) for i in range(0, len(stream), 8))
    if length is not None:
        if len(data) > length:
            sys.exit(f"the record needs {len(data)} bytes, more than {length}")
        data += bytes(length - len(data))
    print(" ".join(f"{b:02X}" for b in data))


if __name__ == "__main__":
    main()
