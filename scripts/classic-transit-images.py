#!/usr/bin/env python3
"""Writes the Classic transit systems' lab cards and their key files into Tests/LabCards: one
module per family in scripts/classic_cards/ (each with IMAGES, file name → function returning
the card image, and KEY_FILES, file name → bytes). Every key is drawn at random from a seed of
the module's own: never an operator's key.
    scripts/classic-transit-images.py           write them
    scripts/classic-transit-images.py --check   exit 1 if a committed file differs"""
import importlib
import os
import sys

import lab_images

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "classic_cards"))
FAMILIES = sorted(n[:-3] for n in os.listdir(sys.path[0]) if n.endswith(".py") and n not in ("card.py", "en1545.py"))

if __name__ == "__main__":
    images, key_files = {}, {}
    for name in FAMILIES:
        module = importlib.import_module(name)
        images.update(module.IMAGES)
        key_files.update(module.KEY_FILES)
    root = os.path.join(lab_images.ROOT, "Tests", "LabCards")
    check = "--check" in sys.argv
    differ = [n for n, data in key_files.items() if check and (not os.path.exists(os.path.join(root, n)) or open(os.path.join(root, n), "rb").read() != data)]
    if not check:
        for n, data in key_files.items():
            open(os.path.join(root, n), "wb").write(data)
    if differ:
        sys.exit("out of date (run scripts/classic-transit-images.py): " + ", ".join(differ))
    lab_images.main(images, "classic-transit-images.py")
