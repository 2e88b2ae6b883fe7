#!/usr/bin/env python3
"""Write the EMV lab card images of Tests/LabCards from named values, so every byte can be
checked by hand against docs/cards/emv.md.

    scripts/emv-lab-images.py            rewrite the images
    scripts/emv-lab-images.py --check    exit 1 if a committed image differs

The cards are invented: their PANs are test numbers of the card schemes' public test ranges
(they pass the Luhn check and belong to no one), names and merchants are made up.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab_images  # noqa: E402
from lab_images import hexs  # noqa: E402

PPSE = b"2PAY.SYS.DDF01"
VISA = bytes.fromhex("A0000000031010")
MASTERCARD = bytes.fromhex("A0000000041010")
MAESTRO = bytes.fromhex("A0000000043060")
EFTPOS = bytes.fromhex("A0000003841010")  # an eftpos entry the profile skips
OK = b"\x90\x00"


def tlv(tag, value):
    """One BER-TLV object: tag (hex), definite length (short form, or 81 xx)."""
    t = bytes.fromhex(tag)
    n = len(value)
    length = bytes([n]) if n < 0x80 else bytes([0x81, n])
    return t + length + value


def bcd(digits):
    return bytes.fromhex(digits)


def pan_bcd(pan):
    """EMV 5A: the PAN in BCD, padded with F to whole bytes."""
    return bytes.fromhex(pan + "F" * (len(pan) % 2))


def track2(pan, expiry_yymm, service_code, discretionary):
    """ISO/IEC 7813 Track 2 equivalent (EMV 57): PAN, D, YYMM, service code, discretionary, F pad."""
    digits = pan + "D" + expiry_yymm + service_code + discretionary
    return bytes.fromhex(digits + "F" * (len(digits) % 2))


def atr_type_a(historical):
    """A contactless ISO 14443-4 card through PC/SC (PC/SC part 3 §3.1.3.2.3.2)."""
    body = [0x80 | len(historical), 0x80, 0x01] + list(historical)
    tck = 0
    for b in body:
        tck ^= b
    return hexs(bytes([0x3B] + body + [tck]))


def ppse_fci(entries):
    """The PPSE's FCI: 6F { 84 name, A5 { BF0C { 61 {4F aid, 50 label, 87 priority} … } } }."""
    apps = b"".join(tlv("61", tlv("4F", aid) + tlv("50", label.encode()) + (tlv("87", bytes([prio])) if prio else b""))
                    for aid, label, prio in entries)
    return tlv("6F", tlv("84", PPSE) + tlv("A5", tlv("BF0C", apps)))


def app_fci(aid, label, pdol=b"", log_entry=None, priority=1):
    """An application's FCI: DF name, label, priority, PDOL (9F38) and, in the issuer
    discretionary data (BF0C), the log entry 9F4D (SFI, records)."""
    a5 = tlv("50", label.encode()) + tlv("87", bytes([priority])) + (tlv("9F38", pdol) if pdol else b"")
    if log_entry:
        a5 += tlv("BF0C", tlv("9F4D", bytes(log_entry)))
    return tlv("6F", tlv("84", aid) + tlv("A5", a5))


def dol(*pairs):
    """A data object list: tag (hex) and length pairs."""
    return b"".join(bytes.fromhex(t) + bytes([n]) for t, n in pairs)


def gpo_command(pdol_length):
    """GET PROCESSING OPTIONS as the profile sends it, terminal data as wildcards: the date,
    time and unpredictable number change each read."""
    data_length = 2 + pdol_length
    return "80 A8 00 00 " + hexs(bytes([data_length, 0x83, pdol_length])) + " .." * pdol_length + " 00"


def afl(*entries):
    """Application File Locator: (SFI, first, last, records for offline data authentication)."""
    return b"".join(bytes([sfi << 3, first, last, oda]) for sfi, first, last, oda in entries)


def get_data(tag, value=None):
    """GET DATA (class 80) and the card's answer: the object, or 6A 88 (no such data)."""
    response = tlv(tag, value) + OK if value is not None else b"\x6A\x88"
    return {"command": "80 CA " + hexs(bytes.fromhex(tag)) + " 00", "response": hexs(response)}


def record(*objects):
    """A record of an application EF: the EMV record template 70."""
    return hexs(tlv("70", b"".join(objects)))


def log_record(date, time, amount, currency, country, kind, merchant, atc):
    """One log record under the Visa-style card's log format (9F4F, see LOG_FORMAT)."""
    b = bcd(date) + bcd(time) + bcd(f"{amount:012d}") + bcd(f"{currency:04d}") + bcd(f"{country:04d}") + bytes([kind])
    b += merchant.encode("ascii").ljust(20, b" ") + atc.to_bytes(2, "big")
    return hexs(b)


LOG_FORMAT = dol(("9A", 3), ("9F21", 3), ("9F02", 6), ("5F2A", 2), ("9F1A", 2), ("9C", 1), ("9F4E", 20), ("9F36", 2))
VISA_PDOL = dol(("9F66", 4), ("9F02", 6), ("9F03", 6), ("9F1A", 2), ("95", 5), ("5F2A", 2), ("9A", 3), ("9C", 1), ("9F37", 4))


def visa():
    pan = "4761739001010010"
    gpo = tlv("77", tlv("82", bytes.fromhex("2000")) + tlv("94", afl((1, 1, 1, 0), (2, 1, 2, 1)))
              + tlv("57", track2(pan, "2805", "201", "1234567890123")) + tlv("9F36", bytes.fromhex("0042"))
              + tlv("9F26", bytes.fromhex("1122334455667788")) + tlv("9F27", b"\x80")) + OK
    log = [
        log_record("241118", "083015", 450, 978, 250, 0x00, "BOULANGERIE DU PONT", 0x41),
        log_record("241117", "191204", 3_280, 978, 250, 0x00, "PHARMACIE CENTRALE", 0x40),
        log_record("241116", "121500", 1_999, 978, 250, 0x20, "LIBRAIRIE DES ARTS", 0x3F),
        log_record("241115", "074501", 190, 978, 250, 0x00, "RATP METRO", 0x3E),
        log_record("241112", "163000", 10_000, 978, 250, 0x01, "DAB AGENCE 12", 0x3D),
        log_record("241110", "203344", 5_640, 826, 826, 0x00, "PUB ON THE CORNER", 0x3C),
        log_record("241109", "110000", 1_250, 826, 826, 0x00, "TFL TRAVEL CH", 0x3B),
        log_record("241105", "090909", 7_500, 978, 276, 0x00, "BAHNHOF KIOSK", 0x3A),
        log_record("241101", "180000", 2_000, 978, 250, 0x09, "SUPERMARCHE", 0x39),
        log_record("241030", "101010", 899, 978, 250, 0x00, "CAFE DE LA GARE", 0x38),
    ]
    files = [
        {"fid": "0001", "sfi": 1, "records": [record(tlv("5A", pan_bcd(pan)), tlv("5F24", bcd("280531")),
                                                     tlv("5F20", b"DUPONT/MARIE"), tlv("5F28", bcd("0250")),
                                                     tlv("9F1F", b"00112233445566778899"))]},
        {"fid": "0002", "sfi": 2, "records": [record(tlv("8F", b"\x09"), tlv("9F32", b"\x03")),
                                                     record(tlv("5F25", bcd("230601")), tlv("9F07", bytes.fromhex("FF00")))]},
        {"fid": "000B", "sfi": 11, "records": log},
    ]
    return {
        "technology": "iso7816",
        "note": "EMV lab card, Visa style: format-2 GPO (template 77), a 10-entry transaction log (9F4D in the FCI, format from GET DATA 9F4F); invented values, a Visa test PAN",
        "atr": atr_type_a(b"\x00\x56\x49\x53"),
        "files": [
            {"aid": hexs(PPSE), "fid": "1001", "fci": hexs(ppse_fci([(VISA, "VISA DEBIT", 1)])), "files": []},
            {"aid": hexs(VISA), "fid": "1002", "fci": hexs(app_fci(VISA, "VISA DEBIT", VISA_PDOL, log_entry=(11, 10))),
             "files": files},
        ],
        "answers": [
            {"command": gpo_command(len_dol(VISA_PDOL)), "response": hexs(gpo)},
            get_data("9F17", b"\x03"), get_data("9F36", bytes.fromhex("0042")), get_data("9F13", bytes.fromhex("003E")),
            get_data("9F4F", LOG_FORMAT),
        ],
    }


def len_dol(d):
    """The byte count of the values a DOL asks for."""
    i, n = 0, 0
    while i < len(d):
        i += 2 if d[i] & 0x1F == 0x1F else 1
        n += d[i]
        i += 1
    return n


def mastercard():
    pan = "5413330089010434"
    files = [
        {"fid": "0001", "sfi": 1, "records": [record(tlv("57", track2(pan, "2709", "221", "0000000000000")),
                                                     tlv("5F20", b"SMITH/JOHN"), tlv("9F6B", track2(pan, "2709", "221", "00000")))]},
        {"fid": "0002", "sfi": 2, "records": [record(tlv("5A", pan_bcd(pan)), tlv("5F24", bcd("270930")), tlv("5F34", b"\x01"),
                                                     tlv("5F28", bcd("0826"))),
                                              record(tlv("8C", dol(("9F02", 6), ("9F03", 6))), tlv("8D", dol(("8A", 2))))]},
    ]
    gpo = tlv("80", bytes.fromhex("1980") + afl((1, 1, 1, 0), (2, 1, 2, 1))) + OK
    return {
        "technology": "iso7816",
        "note": "EMV lab card, Mastercard style: no PDOL, format-1 GPO (template 80), no transaction log; invented values, a Mastercard test PAN",
        "atr": atr_type_a(b"\x00\x4D\x43\x44"),
        "files": [
            {"aid": hexs(PPSE), "fid": "1001", "fci": hexs(ppse_fci([(MASTERCARD, "Mastercard", 1)])), "files": []},
            {"aid": hexs(MASTERCARD), "fid": "1002", "fci": hexs(app_fci(MASTERCARD, "Mastercard")), "files": files},
        ],
        "answers": [
            {"command": "80 A8 00 00 02 83 00 00", "response": hexs(gpo)},
            get_data("9F17", b"\x02"), get_data("9F36", bytes.fromhex("0107")), get_data("9F13", bytes.fromhex("0100")),
            get_data("9F4F"),
        ],
    }


def two_applications():
    """A debit Mastercard with Maestro beside it; the PPSE also lists an eftpos entry the profile
    skips, and gives Maestro the higher priority though it is listed second."""
    pan = "5413330089020011"
    maestro_pan = "6799998900000060018"
    mc_files = [{"fid": "0001", "sfi": 1, "records": [record(tlv("5A", pan_bcd(pan)), tlv("5F24", bcd("290228")),
                                                            tlv("57", track2(pan, "2902", "201", "00000000")))]},
                {"fid": "0003", "sfi": 3, "records": [log_record("241120", "101500", 1_500, 978, 528, 0x00, "ALBERT HEIJN", 0x10)]}]
    maestro_pdol = dol(("9F1A", 2), ("5F2A", 2), ("9A", 3))
    maestro_files = [{"fid": "0001", "sfi": 1, "records": [record(tlv("5A", pan_bcd(maestro_pan)), tlv("5F24", bcd("290228")),
                                                                 tlv("57", track2(maestro_pan, "2902", "221", "0000")))]},
                     {"fid": "0004", "sfi": 4, "records": [
                         log_record("241121", "070000", 320, 978, 528, 0x00, "NS STATION", 0x22),
                         log_record("241119", "213000", 2_500, 978, 528, 0x20, "BOL.COM", 0x21)]}]
    return {
        "technology": "iso7816",
        "note": "EMV lab card with two applications (Mastercard and Maestro, each with its own log) and a skipped eftpos entry; invented values, test PANs",
        "atr": atr_type_a(b"\x00\x4D\x44\x32"),
        "files": [
            {"aid": hexs(PPSE), "fid": "1001", "fci": hexs(ppse_fci([
                (MASTERCARD, "Debit Mastercard", 2), (MAESTRO, "Maestro", 1), (EFTPOS, "EFTPOS SAVINGS", 3)])), "files": []},
            {"aid": hexs(MASTERCARD), "fid": "1002",
             "fci": hexs(app_fci(MASTERCARD, "Debit Mastercard", log_entry=(3, 5), priority=2)), "files": mc_files},
            {"aid": hexs(MAESTRO), "fid": "1003",
             "fci": hexs(app_fci(MAESTRO, "Maestro", maestro_pdol, log_entry=(4, 5), priority=1)), "files": maestro_files},
        ],
        "answers": [
            {"command": "80 A8 00 00 02 83 00 00", "response": hexs(tlv("80", bytes.fromhex("1980") + afl((1, 1, 1, 0))) + OK)},
            {"command": gpo_command(len_dol(maestro_pdol)), "response": hexs(tlv("77", tlv("82", bytes.fromhex("1980"))
                                                                                + tlv("94", afl((1, 1, 1, 0)))) + OK)},
            get_data("9F17", b"\x03"), get_data("9F36", bytes.fromhex("0011")), get_data("9F13", bytes.fromhex("0010")),
            get_data("9F4F", LOG_FORMAT),
        ],
    }


def phone_wallet():
    """What a phone wallet shows a reader: one tokenised application, one record, no log; it
    refuses GET DATA and any record its AFL does not list (it counts refusals)."""
    token = "4895370012345671"
    files = [{"fid": "0001", "sfi": 1, "records": [record(tlv("57", track2(token, "2711", "201", "000000000000")),
                                                         tlv("5F24", bcd("271130")), tlv("5F34", b"\x00"))]}]
    pdol = dol(("9F66", 4), ("9F02", 6), ("9F37", 4), ("5F2A", 2))
    gpo = tlv("77", tlv("82", bytes.fromhex("0080")) + tlv("94", afl((1, 1, 1, 0))) + tlv("9F36", bytes.fromhex("0003"))
              + tlv("9F26", bytes.fromhex("0102030405060708")) + tlv("9F27", b"\x80")) + OK
    return {
        "technology": "iso7816",
        "note": "EMV lab card: a phone wallet's tokenised Visa (answers the PPSE, SELECT, GPO and the one record its AFL lists; refuses the rest); invented values",
        "atr": atr_type_a(b"\x00\x48\x43\x45"),
        "files": [
            {"aid": hexs(PPSE), "fid": "1001", "fci": hexs(ppse_fci([(VISA, "VISA", 1)])), "files": []},
            {"aid": hexs(VISA), "fid": "1002", "fci": hexs(app_fci(VISA, "VISA", pdol)), "files": files},
        ],
        "answers": [
            {"command": gpo_command(len_dol(pdol)), "response": hexs(gpo)},
            get_data("9F17"), get_data("9F36"), get_data("9F13"), get_data("9F4F"),
        ],
    }


IMAGES = {
    "emv-visa-image.json": visa,
    "emv-mastercard-image.json": mastercard,
    "emv-two-applications-image.json": two_applications,
    "emv-phone-wallet-image.json": phone_wallet,
}

if __name__ == "__main__":
    lab_images.main(IMAGES, "emv-lab-images.py")
