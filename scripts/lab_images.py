"""What the lab image generators share: write each image of IMAGES (file name → function
returning the document) into Tests/LabCards, or with --check exit 1 naming those that differ
from what is committed."""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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
