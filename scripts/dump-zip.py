#!/usr/bin/env python3
"""Writes Tests/Dumps/metrodroid-export.zip: a ZIP laid out as Metrodroid's bulk export is
(docs/dump-formats.md §ZIP): one JSON file a card and a README.txt, here made of this
repository's own test dumps. The DESFire card and the README are deflated and the FeliCa card
is stored, so both methods are read. Fixed timestamps: the archive is the same on every run."""
import pathlib
import zipfile

root = pathlib.Path(__file__).resolve().parent.parent / "Tests" / "Dumps"
stamp = (2026, 11, 27, 12, 0, 0)
with zipfile.ZipFile(root / "metrodroid-export.zip", "w") as z:
    for name, source, method in [
        ("Metrodroid-04112233445566.json", "metrodroid-desfire.json", zipfile.ZIP_DEFLATED),
        ("Metrodroid-0101070112345678.json", "metrodroid-felica.json", zipfile.ZIP_STORED),
        ("README.txt", None, zipfile.ZIP_DEFLATED),
    ]:
        data = (root / source).read_bytes() if source else b"Cards exported for cardscan's tests.\n"
        z.writestr(zipfile.ZipInfo(name, stamp), data, compress_type=method)
