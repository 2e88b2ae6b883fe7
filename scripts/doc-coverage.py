#!/usr/bin/env python3
"""Public symbols of the library modules without a doc comment (make docs-check; part of make
test): reads the symbol graphs `swift package dump-symbol-graph --minimum-access-level public`
writes, and prints each undocumented symbol as FILE:LINE: MODULE.PATH (kind). Exits 1 when
there is one. Symbols the compiler makes (a protocol's default implementations seen through a
conforming type, synthesized members) have no place in Sources/ and are not counted.

    scripts/doc-coverage.py SYMBOLGRAPH_DIR [--summary]
"""
import glob
import json
import os
import sys

MODULES = ["APDU", "FeliCaCommands", "DESFireCommands", "NDEF", "PCSCTransport", "NFCTransport", "ProfileLanguage",
           "CardReports", "ReadEngine", "CardExploration", "CardProfiles", "CardReading", "CardSimulator", "BuiltInProfiles", "CardDumps", "MIFARECommands"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    folder = sys.argv[1]
    missing, total = [], 0
    seen = set()
    for module in MODULES:
        for path in sorted(glob.glob(os.path.join(folder, f"{module}.symbols.json")) + glob.glob(os.path.join(folder, f"{module}@*.symbols.json"))):
            for s in json.load(open(path, encoding="utf-8"))["symbols"]:
                if s.get("accessLevel") not in ("public", "open"):
                    continue
                uri = s.get("location", {}).get("uri", "")
                if not uri.startswith("file://" + ROOT + "/Sources/"):
                    continue
                key = s["identifier"]["precise"]
                if key in seen:
                    continue
                seen.add(key)
                total += 1
                if not s.get("docComment"):
                    file = uri[len("file://" + ROOT + "/"):]
                    line = s["location"]["position"]["line"] + 1
                    missing.append((file, line, f"{module}.{'.'.join(s['pathComponents'])} ({s['kind']['displayName'].lower()})"))
    if "--summary" not in sys.argv:
        for file, line, what in sorted(missing):
            print(f"{file}:{line}: {what}")
    print(f"{total} public symbols in the library modules, {len(missing)} without a doc comment")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
