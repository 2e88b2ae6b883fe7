/// Every key of the profile language, by place: the one home of the language. The parser asks
/// it which keys a place allows, `make schema` writes `profiles/profile.schema.json` and the key
/// tables of docs/profile-format.md from it, and `renamed` says what an older spelling is now.
public enum LanguageKeys {
    /// A short name for ``LanguageKey``, for the key lists.
    public typealias K = LanguageKey

    /// Every key of the language, place by place.
    public static let all: [LanguageKey] =
        profile + detection + steps + stepParts + references + fields + types + layouts + trips + contracts + others + files

    static let profile: [K] = [
        K(
            "id", .profile, .name, required: true,
            "Unique id: lower-case letters, digits and `-`. A user profile with a built-in's id replaces it.", example: "shanghai-transit"),
        K(
            "name", .profile, .text, required: true, "The card's name, shown to users and in the report.",
            example: "Shanghai Public Transportation Card"),
        K(
            "currency", .profile, .text, required: true, "ISO 4217 code of the purse: amounts are in its minor unit (fen, cents, yen).",
            example: "CNY"),
        K("region", .profile, .text, "Where the card is used (ISO 3166), for people.", example: "CN-SH"),
        K(
            "zone", .profile, .zone,
            "The card's time zone: the dates and times it keeps are local time there (a UTC offset, or a zone name when the country changes its clocks).",
            example: "Europe/Paris"),
        K("zone-by", .profile, .mapping(.zoneBy), "A card that names its region: the zone a byte of an answer names, instead of `zone`."),
        K("from", .zoneBy, .name, required: true, "The answer holding the byte.", example: "sector15"),
        K("offset", .zoneBy, .integer(0...4095), "The byte's place (default 0).", example: "26"),
        K(
            "zones", .zoneBy, .named(.text), required: true, "The time zone each value names; others keep `zone`.",
            example: "{ 0x55: Asia/Omsk }"),
        K(
            "technology", .profile, .choice(["iso7816", "felica", "desfire", "ultralight", "classic"]),
            "What the card speaks: ISO 7816 APDUs (the default), FeliCa frames, MIFARE DESFire commands, MIFARE Ultralight pages, or MIFARE Classic sectors.",
            example: "felica"),
        K("notes", .profile, .text, "Free text for people reading the file."),
        K(
            "report-notes", .profile, .oneOrList(.text),
            "Sentences every report of the profile carries in `notes` (what the numbers cannot say).",
            example: "[The balance may be out of date: the operator keeps it online.]"),
        K(
            "extends", .profile, .name,
            "Another profile this one changes: steps merge by `as`; fields, layouts, types and terminal values by name; `trips`, `contracts` and `detect` key by key; any other key given replaces the parent's. `{}` keeps a parent's entry, `remove: true` takes it out.",
            example: "hsl"),
        K(
            "layout-files", .profile, .oneOrList(.name),
            "Shared layout files (`layouts/NAME.yaml`): their layouts and types, which the profile's own change or add to.",
            example: "[intercode]"),
        K(
            "types", .profile, .named(.mapping(.type)), "Element types of the profile's own, by name (see *Types*).",
            example: "{ opal-day: { type: days, epoch: 1980-01-01 } }"),
        K(
            "classes", .profile, .oneOrList(.hex(1...1)),
            "ISO 7816 classes in order of preference: a card answering `6E 00` is asked again in the next (first-generation Calypso: `[\"00\", \"94\"]`).",
            example: "[\"00\", \"94\"]"),
        K("commands", .profile, .list(.mapping(.command)), "Read commands of the profile's own, sent once the user trusts the file."),
        K(
            "terminal", .profile, .named(.textOr(.terminalNumber)),
            "What the profile answers a card that asks for terminal data in a DOL, by tag: bytes, `today`, `now`, `random`, or a number.",
            example: "{ 9A: today, 9F02: { number: 0 } }"),
        K("detect", .profile, .mapping(.detect), "How to recognise the card cheaply."),
        K("steps", .profile, .steps, required: true, "The commands, in order; each answer gets a name with `as`."),
        K("layouts", .profile, .named(.layout), "Bit-packed record layouts by name: a list of elements, or a change of another layout."),
        K(
            "let", .profile, .named(.field), "Private fields: worked out like card fields for other fields to use, never reported.",
            example: "{ base: { from: purse, field: serial } }"),
        K("card", .profile, .named(.field), "The report's `card` values, in this order."),
        K("balance", .profile, .field, "The purse: one field that gives a number, reported with the profile's currency."),
        K("trips", .profile, .mapping(.trips), "The trip log."),
        K("contracts", .profile, .mapping(.contracts), "Passes and products."),
        K("variants", .profile, .list(.mapping(.variant)), "FeliCa: the members of a card family, told apart by services only they have."),
        K("name-from", .profile, .name, "A `card` field whose value names the report (Intercode: the network's name).", example: "network"),
    ]

    static let detection: [K] = [
        K(
            "atr", .detect, .oneOrList(.text), "ATR patterns (`..` = any byte): a profile whose pattern matches is tried first.",
            example: "[\"3B 8B 80 01 .. ..\"]"),
        K("require", .detect, .list(.mapping(.check)), "Checks on answers read so far; all must hold."),
        K(
            "priority", .detect, .integer(0...1000), "Lower is tried earlier among profiles with the same ATR rank (default 100).",
            example: "50"),
        K("from", .check, .name, required: true, "The answer checked: a step's `as`.", example: "info"),
        K("record", .check, .integer(1...254), "Of a records answer, the record checked (1 = the first the card gave).", example: "1"),
        K("offset", .check, .integer(0...65535), "Where the checked bytes start (default 0).", example: "2"),
        K(
            "equals", .check, .scalar,
            "The bytes (hex) the answer holds there; with `field`, the number the layout value must be. Without it, the step must only have succeeded.",
            example: "\"20 00\""),
        K(
            "one-of", .check, .list(.hex(1...64)), "Instead of `equals`: the bytes there are one of these, all of one length.",
            example: "[\"30 DE\", \"31 86\"]"),
        K("mask", .check, .scalar, "ANDed with the answer's bytes (or the field's value) before comparing.", example: "\"FF F0\""),
        K("field", .check, .text, "A value of the answer's layout to check instead of bytes.", example: "network"),
        K(
            "key-md5", .check, .oneOrList(.hex(16...16)),
            "MIFARE Classic: the key (A or B) that opened the answer's sector has one of these digests: MD5 of `salt`, the key, `salt`.",
            example: "[f3267ff451b1fc3076ba12dcee2bf803]"),
        K("salt", .check, .text, "With `key-md5`: the text the key is hashed between.", example: "podorozhnik"),
    ]

    static let steps: [K] = [
        K("as", .step, .name, required: true, "The answer's name, for fields, checks and other steps.", example: "info"),
        K("select", .step, .mapping(.select), "SELECT by DF name, file id or path; several are tried in order until the card accepts one."),
        K("read-binary", .step, .mapping(.readBinary), "READ BINARY."),
        K("read-record", .step, .mapping(.readRecord), "READ RECORD of one record: the answer is its bytes."),
        K(
            "read-records", .step, .mapping(.readRecords),
            "READ RECORD of a range of records, or until the card has no more: the answer is the records."),
        K(
            "command", .step, .hex(4...261),
            "Another read command, written out (a standard SELECT, READ BINARY or READ RECORD is written with its own step).",
            example: "\"80 5C 00 02 04\""),
        K("poll", .step, .mapping(.poll), "FeliCa Polling for a system; no such system: not this card."),
        K("read-blocks", .step, .mapping(.readBlocks), "FeliCa Read Without Encryption of a service's blocks."),
        K(
            "desfire-select", .step, .oneOrList(.hex(3...3)), "DESFire SelectApplication; several are tried in order.",
            example: "\"1420EF\""),
        K("desfire-read", .step, .mapping(.desfireRead), "A DESFire file's data, records, value or settings."),
        K("read-pages", .step, .mapping(.readPages), "MIFARE Ultralight pages, four a READ: the answer is their bytes."),
        K("read-sector", .step, .mapping(.readSector), "A MIFARE Classic sector's data blocks, opened with the user's keys."),
        K(
            "ndef-record", .step, .mapping(.ndefRecord),
            "MIFARE Classic: the payload of a record of the card's NDEF message (NFC Forum mapping)."),
        K("for-each", .step, .mapping(.forEach), "The step's `steps`, once for each entry of a list an earlier answer holds."),
        K("steps", .step, .steps, "What a `for-each` does with each entry."),
        K(
            "optional", .step, .boolean, "A refusal leaves the answer absent (its fields are left out) instead of ending the read.",
            example: "true"),
        K(
            "end", .step, .oneOrList(.hex(2...2)), "Status words that end a `read-records` step normally (default `6A83`).",
            example: "[6A83]"),
        K(
            "only-if", .step, .reference, "Send the step only when this value is in the answers; otherwise its answer is absent, quietly.",
            example: "{ tag: [9F4D, DF60] }"),
        K(
            "use-if-present", .step, .reference, "Take the answer from this value of an earlier answer when it is there, and send nothing.",
            example: "app:6F/A5/9F0C"),
        K("layout", .step, .name, "The bit layout that decodes the answer (or each of its records).", example: "event"),
        K(
            "endian", .step, .choice(["big", "little"]),
            "`little`: the card stores the answer (each record) least significant byte first; its bytes are reversed before any field reads them.",
            example: "little"),
        K("records", .step, .mapping(.records), "The answer is cut into records: for `trips` and `contracts`."),
        K("copies", .step, .mapping(.copies), "The answer holds two copies written in turn: the newer becomes the answer."),
        K("continue", .step, .mapping(.continue), "Ask again for more, from where the answer ended."),
        K("data", .step, .mapping(.data), "A `command`'s data: the values the card's data object list asks for."),
        K("remove", .step, .boolean, "In a profile that `extends` another: take out the parent's step of this `as`.", example: "true"),
    ]

    static let stepParts: [K] = [
        K("aid", .select, .oneOrList(.hex(1...16)), "DF names, tried in order.", example: "A00000000386980701"),
        K("fid", .select, .hex(2...2), "A file identifier (`3F00`: the MF).", example: "\"1001\""),
        K("path", .select, .text, "A path of file identifiers from the MF.", example: "\"1001/0015\""),
        K("fci", .select, .boolean, "`false`: ask for no FCI (P2 = 0C).", example: "false"),
        K("aid-from", .select, .reference, "SELECT by the DF name this value gives (1–16 bytes).", example: "{ from: entry, tag: 4F }"),
        K("sfi", .readBinary, .integer(1...30), "The short EF identifier (the SFI form: offset 0–255).", example: "0x15"),
        K("offset", .readBinary, .integer(0...32767), "Where to start (default 0).", example: "0"),
        K("length", .readBinary, .integer(1...256), "How many bytes (Le; default 256).", example: "30"),
        K("sfi", .readRecord, .integer(1...30), "The short EF identifier; without it, the current file.", example: "0x07"),
        K("record", .readRecord, .integer(1...254), required: true, "The record number.", example: "1"),
        K("length", .readRecord, .integer(1...256), "The record's length (Le); without it, Le 00.", example: "23"),
        K(
            "retry-length", .readRecord, .integer(1...255), "With Le 00: a card answering nothing but `90 00` is asked again with this Le.",
            example: "29"),
        K(
            "sfi", .readRecords, .numberOrReference(1...30), "The short EF identifier (1–30), or a value reference giving it.",
            example: "0x18"),
        K("first", .readRecords, .integer(1...254), "The first record (default 1).", example: "1"),
        K(
            "last", .readRecords, .numberOrReference(1...254),
            "The last record, or a value reference giving it; without it, until an `end` status.", example: "10"),
        K("length", .readRecords, .integer(1...256), "Each record's length (Le); without it, Le 00.", example: "23"),
        K("retry-length", .readRecords, .integer(1...255), "As for `read-record`.", example: "29"),
        K(
            "try-all-first", .readRecords, .boolean,
            "First ask for all records at once (P2 = …5, with `length`), falling back to one at a time.", example: "true"),
        K(
            "transaction-number", .readRecords, .mapping(.transactionNumber),
            "Where each record keeps its transaction number: after the card's first transaction no more is asked for."),
        K(
            "locator", .readRecords, .oneOrList(.reference),
            "The records a file locator lists (EMV's AFL), from the first reference that gives one.", example: "[\"gpo:77/94\"]"),
        K("offset", .transactionNumber, .integer(0...255), "Its first byte in the record.", example: "0"),
        K("length", .transactionNumber, .integer(1...4), "Its byte count (big-endian; default 2).", example: "2"),
        K("system-code", .poll, .integer(0...0xFFFF), required: true, "The system to poll for.", example: "0x0003"),
        K(
            "service", .readBlocks, .integer(0...0xFFFF), required: true, "The service code (readable without a key: bit 0 set).",
            example: "0x090F"),
        K("first", .readBlocks, .integer(0...0xFFFF), "The first block (default 0).", example: "0"),
        K("count", .readBlocks, .integer(1...255), "How many blocks (default 1).", example: "20"),
        K("per-command", .readBlocks, .integer(1...15), "At most this many blocks a command (default 15).", example: "10"),
        K("first", .readPages, .integer(0...255), required: true, "The first page.", example: "4"),
        K(
            "sector", .readSector, .numberOr(0...39, .sectorChoice), required: true,
            "The sector, or which one a byte of an earlier answer names.", example: "8"),
        K("from", .sectorChoice, .name, required: true, "The answer holding the byte.", example: "sector0"),
        K("offset", .sectorChoice, .integer(0...4095), "The byte's place in it (default 0).", example: "21"),
        K("mask", .sectorChoice, .hex(1...1), "ANDed with the byte (default FF).", example: "\"10\""),
        K(
            "sectors", .sectorChoice, .named(.integer(0...39)), required: true, "The sector each value (after the mask) names.",
            example: "{ 0x00: 2, 0x10: 6 }"),
        K(
            "type", .ndefRecord, .text, required: true, "The record type (an NFC Forum external or well-known type), as text.",
            example: "\"pilet.ee:ekaart:2\""),
        K("key", .readSector, .choice(["a", "b"]), "Which key type opens it (default: A, then B).", example: "a"),
        K(
            "last", .readSector, .integer(0...39),
            "Read the sectors from `sector` to this one into one answer, their data blocks joined in order.", example: "15"),
        K("count", .readPages, .integer(1...256), required: true, "How many pages (4 bytes each).", example: "12"),
        K("file", .desfireRead, .integer(0...31), "The file number.", example: "8"),
        K(
            "files", .desfireRead, .list(.integer(0...31)),
            "Several files in file-number order, each read whole: the answer is their contents as records.", example: "[3, 4, 5]"),
        K(
            "read", .desfireRead, .choice(["auto", "data", "records", "value", "settings"]),
            "How: `auto` (default) asks the file's settings first and reads as its type says.", example: "data"),
        K("offset", .desfireRead, .integer(0...0xFF_FFFF), "With `read: data` or `records`: where to start.", example: "0"),
        K("length", .desfireRead, .integer(0...0xFF_FFFF), "With `read: data` or `records`: how much (0: to the end).", example: "16"),
        K("list", .forEach, .reference, required: true, "Where the entries are.", example: "\"ppse:6F/A5/BF0C\""),
        K("tag", .forEach, .tag, required: true, "The tag of each entry.", example: "\"61\""),
        K(
            "order-by", .forEach, .tag, "A one-byte value of each entry ordering them (its low 4 bits, 1 first; 0 or missing last).",
            example: "\"87\""),
        K(
            "skip", .forEach, .named(.list(.hex(1...16))), "Entries to leave out: by tag, the values their object starts with.",
            example: "{ 4F: [A000000384] }"),
        K("label", .forEach, .name, "The card field that names each entry's application in the report.", example: "application"),
        K("size", .records, .integer(1...4096), required: true, "Each record's byte count.", example: "16"),
        K("offset", .records, .integer(0...4095), "Where the first record starts (default 0).", example: "4"),
        K("count", .records, .integer(1...255), "At most this many records (default: as many as fit).", example: "3"),
        K(
            "keep", .records, .list(.mapping(.recordCheck)), "Checks each record kept passes; the others are left out.",
            example: "[{ by: index, offset: 3, one-of: [\"14\", \"15\"] }]"),
        K(
            "by", .recordCheck, .name,
            "An answer with one byte per record: record i (from 0) is checked by its byte `offset` + i (without it: the record's own bytes).",
            example: "index"),
        K("offset", .recordCheck, .integer(0...4095), "Where the bytes checked are (default 0).", example: "7"),
        K("equals", .recordCheck, .hex(1...64), "The bytes they must be.", example: "\"00 00\""),
        K("one-of", .recordCheck, .list(.hex(1...64)), "The byte strings allowed, all of one length.", example: "[\"08\", \"09\"]"),
        K("none-of", .recordCheck, .list(.hex(1...64)), "The byte strings refused, all of one length.", example: "[\"71\", \"79\"]"),
        K("size", .copies, .integer(1...4096), required: true, "Each copy's byte count.", example: "48"),
        K(
            "counter", .copies, .numberOr(0...4095, .copyCounter), required: true,
            "Where each copy's write counter is: its first byte, or its bits (serial-number arithmetic: the later is the newer).",
            example: "13"),
        K("length", .copies, .integer(1...8), "A byte counter's byte count (default 1).", example: "2"),
        K("endian", .copies, .choice(["big", "little"]), "A byte counter's byte order (default big).", example: "little"),
        K("offset", .copies, .integer(0...4095), "Where the first copy starts (default 0); the second follows it.", example: "16"),
        K(
            "bit-offset", .copyCounter, .integer(0...(8 * 4096)), required: true,
            "The counter's first bit, from the top bit of the copy's byte 0.", example: "81"),
        K("bit-length", .copyCounter, .integer(1...64), required: true, "Its width in bits.", example: "16"),
        K("tie", .copies, .choice(["first", "second"]), "Which copy equal counters give (default first).", example: "second"),
        K(
            "unit", .continue, .integer(1...255), required: true,
            "The byte count of one record: the command's one data byte is set to the records received so far.", example: "16"),
        K("times", .continue, .integer(1...16), "At most this many more (default 1).", example: "1"),
        K("dol", .data, .reference, required: true, "Where the card's data object list is.", example: "\"fci:6F/A5/9F38\""),
        K("template", .data, .hex(1...1), "A tag wrapping the values (`83 len …`).", example: "\"83\""),
    ]

    static let references: [K] = [
        K("from", .reference, .text, "An answer, or a BER-TLV object inside it (`ANSWER:TAG/PATH`).", example: "gpo:80"),
        K(
            "tag", .reference, .oneOrList(.tag), "The first object with one of these tags: in `from`, else in any answer, newest first.",
            example: "[9F4D, DF60]"),
        K("offset", .reference, .integer(0...4095), "The bytes from this one on.", example: "2"),
        K("length", .reference, .integer(1...4096), "This many bytes.", example: "1"),
    ]

    /// The keys a place allows.
    public static func keys(in place: LanguageKey.Place) -> [LanguageKey] { byPlace[place] ?? [] }

    /// Every key's name at a place, for the parser's checks.
    public static func names(in place: LanguageKey.Place) -> [String] { namesByPlace[place] ?? [] }

    private static let byPlace: [LanguageKey.Place: [LanguageKey]] = Dictionary(grouping: all, by: \.place)
    private static let namesByPlace: [LanguageKey.Place: [String]] = byPlace.mapValues { $0.map(\.name) }
}
