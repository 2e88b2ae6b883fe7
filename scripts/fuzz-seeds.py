#!/usr/bin/python3
"""Writes the fuzz seed corpora (Fuzz/Corpus/TARGET/) from the repository's own fixtures,
profiles and lab cards: real transcripts, answers, FCIs, ATRs, frames, NDEF data, card images
and reports. Run it again after adding fixtures; the seeds are committed."""
import glob, hashlib, json, os, re, shutil, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Fuzz", "Corpus")


def hexbytes(text):
    """Hex to bytes; `..` (a byte a recording hid) as 00, as a replay reads it."""
    return bytes.fromhex(re.sub(r"[\s:]", "", text).replace("..", "00"))


def write(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
        f.write(data)


def transcripts():
    for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "Fixtures", "**", "*.apdu"), recursive=True)
                       + glob.glob(os.path.join(ROOT, "Tests", "LabCards", "*.apdu"))):
        yield path, open(path, encoding="utf-8").read()


def scripted(answers):
    """The ScriptedChannel form: each answer as a length byte and its bytes."""
    out = b""
    for a in answers[:200]:
        out += bytes([min(len(a), 255)]) + a[:255]
    return out


if os.path.isdir(OUT):
    shutil.rmtree(OUT)
felica_answers, iso_answers = [], []
# A recording that hides personal bits (docs/transcripts.md): `..` for a whole byte, HH/MM for
# the bits MM of a byte shared with other values (the Navigo environment of the lab test).
write("transcript", "# cardscan transcript 1\n# profile: navigo\n> 00 B2 01 3C 1D\n"
      "< 24 39 28 48 08 1D E2 90 48/07 .. .. .. 00/F8 04 90 A0 00 00 00 00 00 00 00 00 00 00 00 00 00 90 00\n")
for path, text in transcripts():
    write("transcript", text)
    headers = dict(re.findall(r"^# ([a-z-]+): (.*)$", text, re.M))
    if "atr" in headers:
        write("atr", hexbytes(headers["atr"]))
    commands = [l[1:].split(" #")[0] for l in text.splitlines() if l.startswith(">")]
    answers = [hexbytes(l[1:].split(" #")[0]) for l in text.splitlines() if l.startswith("<")]
    for c in commands[:5]:
        write("hex", c.strip())
        if ".." not in c:
            write("command-apdu", hexbytes(c))
    felica = headers.get("technology") == "felica"
    for a in answers:
        if felica:
            write("felica-frames", a)
        else:
            write("response-apdu", a)
            if len(a) > 2 and a[0] in (0x6F, 0x70, 0x77):
                write("ber-tlv", a[:-2])
    write("engine", bytes([1 if felica else 0]) + scripted(answers))
    if headers.get("profile") == "emv" or headers.get("detected") == "emv":
        write("emv", scripted(answers))
        for a in answers:
            if len(a) > 2:
                write("emv", bytes([0]) + a[:-2])  # the parsers alone: a DOL, an answer to redact
    if "ndef" in os.path.basename(path):
        kind = {"type2": 0, "type3": 1, "type4": 2}[os.path.basename(path)[:5]]
        write("ndef-tags", bytes([kind]) + scripted(answers))
        write("pseudo-apdu", bytes([0]) + scripted([a + b"\x90\x00" for a in answers]))

# DESFire: GetVersion in three frames, file settings of each type (docs/cards/desfire.md).
version = bytes.fromhex("04010101001805") , bytes.fromhex("04010101041805"), bytes.fromhex("04112233445566BA443952804009")
write("desfire", bytes([8]) + b"".join(bytes([len(f) + 2]) + f + (b"\x91\xaf" if i < 2 else b"\x91\x00") for i, f in enumerate(version)))
for settings in ["0400 32E4 300000 050000 050000", "0000 E0EE 200000", "0203 EEEE 00000000 A0860100 00000000 01"]:
    write("desfire", bytes.fromhex(settings.replace(" ", "")))
for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "LabCards", "*.json"))):
    if '"desfire"' in open(path, encoding="utf-8").read():
        write("desfire", open(path, encoding="utf-8").read())
for path in sorted(glob.glob(os.path.join(ROOT, "profiles", "*.yaml")) + glob.glob(os.path.join(ROOT, "profiles", "commands", "*.yaml"))
                   + glob.glob(os.path.join(ROOT, "profiles", "layouts", "*.yaml")) + glob.glob(os.path.join(ROOT, "profiles", "types", "*.yaml"))
                   + glob.glob(os.path.join(ROOT, "profiles", "tables", "*.yaml"))
                   + glob.glob(os.path.join(ROOT, "Tests", "Fixtures", "bad-profiles", "*.yaml"))
                   + glob.glob(os.path.join(ROOT, "docs", "examples", "*.yaml"))):
    write("profile-yaml", open(path, encoding="utf-8").read())
# Dumps in other tools' formats (Tests/Dumps, written from the formats' descriptions): byte 0
# is 0xFF (detect the format), then the file; and the lab's card images, as cardscan images.
for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "Dumps", "*"))):
    write("dumps", b"\xff" + open(path, "rb").read())
for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "LabCards", "*-image.json")))[:12]:
    write("dumps", b"\xff" + open(path, "rb").read())
for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "Fixtures", "**", "*.expected.json"), recursive=True)):
    write("json-report", open(path, encoding="utf-8").read())
# Ultralight: the lab's images, and a tag's answers (each preceded by its length): a 16-byte
# READ, a NAK, an 8-byte GET_VERSION.
for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "LabCards", "ultralight*-image.json"))):
    write("ultralight", open(path, "rb").read())
# Classic: the key files (byte 0 picks the format's file name), the lab image, a dump's answers.
for i, name in enumerate(["classic-1k.keys", None, "hf-mf-1A2B3C4D-key.bin"]):
    if name:
        write("classic", bytes([i]) + open(os.path.join(ROOT, "Tests", "LabCards", name), "rb").read())
write("classic", bytes([4]) + b'{"KeyType": "MifareClassic", "TagId": "01020304", "keys": [{"type": "KeyA", "key": "A0A1A2A3A4A5"}]}')
write("classic", bytes([0]) + open(os.path.join(ROOT, "Tests", "LabCards", "classic-1k-image.json"), "rb").read())
write("classic", bytes([0, 0, 16]) + bytes(range(16)) * 1)
write("ultralight", bytes([8, 0, 4, 3, 1, 1, 0, 0x0B, 3]) + b"".join(bytes([16]) + bytes(range(p, p + 16)) for p in range(0, 64, 16)) + bytes([1, 0]))
for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "LabCards", "*.json"))):
    text = open(path, encoding="utf-8").read()
    if '"iso7816"' in text:
        # The image, a 00 byte, then commands each preceded by its length.
        commands = [bytes.fromhex(c) for c in ["00A4040008315449432E49434100", "00B2013C00", "00B2014C1D", "00A40800022000",
                                              "00B0810010", "94B2010400", "00B2000200", "00A4030000"]]
        write("iso7816-card-image", text.encode() + b"\x00" + b"".join(bytes([len(c)]) + c for c in commands))
    else:
        write("felica-card-image", text)

# cardsim: vpcd's stream (2-byte length, body) and a PN532's serial line, for each card the
# LabFuzz targets pick by byte 0 (the order of LabFuzz.cards).
lab_cards = ["Tests/Fixtures/shanghai-transit/full-read.apdu", "Tests/LabCards/type4-ndef.apdu", "Tests/LabCards/type2-ndef.apdu",
             "Tests/Fixtures/octopus/real-card-920.apdu", "Tests/LabCards/pasmo-image.json", "Tests/LabCards/navigo-image.json",
             "Tests/LabCards/intercode-image.json", "Tests/LabCards/at-hop-image.json"]
image_commands = [bytes.fromhex(c) for c in ["00A4040008315449432E49434100", "00B2013C00", "00A40800022000", "00B0000010",
                                             "905A00000300000000", "906F000000", "90F5000001010000", "90BD0000070100000000000000"]]


def pn532_frame(body):
    payload = b"\xD4" + body
    return bytes([0, 0, 0xFF, len(payload), (256 - len(payload)) % 256]) + payload + bytes([(256 - sum(payload) % 256) % 256, 0])


def lab_commands(path):
    text = open(os.path.join(ROOT, path), encoding="utf-8").read()
    if path.endswith(".json"):
        return "felica" if "pasmo" in path else "iso", image_commands
    felica = "technology: felica" in text
    return "felica" if felica else "iso", [hexbytes(l[1:].split(" #")[0]) for l in text.splitlines() if l.startswith(">")][:40]


felica_polling = bytes.fromhex("0600FFFF0100")
for index, path in enumerate(lab_cards):
    kind, commands = lab_commands(path)
    if kind == "felica":
        commands = [felica_polling] + (commands[1:] if path.endswith(".apdu") else [])
        apdus = [bytes([0xFF, 0, 0, 0, len(c)]) + c for c in commands] + [bytes.fromhex("FFCA000000")]
    else:
        apdus = commands
    stream = b"\x00\x01\x01\x00\x01\x04" + b"".join(len(a).to_bytes(2, "big") + a for a in apdus) + b"\x00\x01\x00"
    write("vpcd", bytes([index]) + stream)
    write("vpcd", bytes([index | 0x10]) + stream)
    line = b"\x55\x55\x00\x00\x00" + pn532_frame(b"\x02") + pn532_frame(b"\x14\x01\x14\x01")
    if kind == "felica":
        line += pn532_frame(b"\x4A\x01\x01\x00\xFF\xFF\x01\x00") + b"".join(pn532_frame(b"\x42" + c) for c in commands[1:])
    else:
        baud = b"\x03\x00" if "intercode" in path else b"\x00"
        line += pn532_frame(b"\x4A\x01" + baud) + b"".join(pn532_frame(b"\x40\x01" + c) for c in commands)
    line += pn532_frame(b"\x52\x00") + pn532_frame(b"\x06\x63\x05\x63\x0D") + pn532_frame(b"\x08\x63\x05\x40")
    write("pn532", bytes([index | 0x40]) + line)

# NDEF: a URI and a Text record, and the Type 2/3/4 containers around them.
uri = bytes.fromhex("D1010D55036578616D706C652E636F6D")
text_record = bytes.fromhex("D101085402656E48656C6C6F")
for m in (uri, text_record, bytes.fromhex("91010D55036578616D706C652E636F6D5101085402656E48656C6C6F")):
    write("ndef-message", m)
write("ndef-containers", bytes.fromhex("04112233445566778899AABBE1101200") + bytes([0x03, len(uri)]) + uri + b"\xFE")
write("ndef-containers", bytes.fromhex("10040100090000000001000000000027"))
write("ndef-containers", bytes.fromhex("000F2000FF00FF0406E10400FF0000"))
# Fields and layouts: a field spec prefix, then answer bytes; an Intercode-like record.
for t in range(12):
    write("field-decoder", bytes([t, 0x02, 0x03, t, 0, 7]) + bytes.fromhex("20240305083015990001020304"))
    write("field-decoder", bytes([t, 0x81, 0x05, t, 1, 40]) + bytes.fromhex("9B14FF1000 08A0881861084000"))
write("bit-layout", bytes.fromhex("9B14FF100008A0881861084000000000000000000000000000000000000000"))
for s in ("00 A4 04 00", "00A4040009A0000000038698070100", "00:B2:01:C4:17", "3B 8B .. 01"):
    write("hex", s)
for p in ("6F/A5/9F0C", "6F", "BF0C/C7", "9F4D"):
    write("tlv-path", p)
print("seeds written to", os.path.relpath(OUT, ROOT), {d: len(os.listdir(os.path.join(OUT, d))) for d in sorted(os.listdir(OUT))})
