/// Every key of the profile language, by place: the one home of the language. The parser asks
/// it which keys a place allows, `make schema` writes `profiles/profile.schema.json` and the key
/// tables of docs/profile-format.md from it, and ``renamed`` says what an older spelling is now.
public enum LanguageKeys {
    public typealias K = LanguageKey

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
        K(
            "technology", .profile, .choice(["iso7816", "felica", "desfire"]),
            "What the card speaks: ISO 7816 APDUs (the default), FeliCa frames, or MIFARE DESFire commands.", example: "felica"),
        K("notes", .profile, .text, "Free text for people reading the file."),
        K(
            "report-notes", .profile, .oneOrList(.text),
            "Sentences every report of the profile carries in `notes` (what the numbers cannot say).",
            example: "[The balance may be out of date: the operator keeps it online.]"),
        K(
            "extends", .profile, .name,
            "Another profile this one changes: its entries are merged with the parent's — steps by `as`, fields and layouts by name, the others key by key; `remove: true` takes one out.",
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
        K("mask", .check, .scalar, "ANDed with the answer's bytes (or the field's value) before comparing.", example: "\"FF F0\""),
        K("field", .check, .text, "A value of the answer's layout to check instead of bytes.", example: "network"),
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
        K("size", .copies, .integer(1...4096), required: true, "Each copy's byte count.", example: "48"),
        K(
            "counter", .copies, .integer(0...4095), required: true,
            "The byte of each copy that counts its writes (serial-number arithmetic mod 256: the later is the newer).", example: "0"),
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

    static let fields: [K] = [
        K(
            "from", .field, .text,
            "The answer read (`info`), or a BER-TLV object inside it (`app:6F/A5/9F0C`). In trips only an answer of `join`.",
            example: "info"),
        K(
            "tag", .field, .oneOrList(.tag),
            "Instead of `from`: the value of the first BER-TLV object with one of these tags (in a trip record: the record's own).",
            example: "[5A, 57]"),
        K("record", .field, .integer(1...254), "Of a records answer, read this record (1 = the first the card gave).", example: "1"),
        K(
            "slice", .field, .integer(1...255),
            "In `contracts`, with `from`: the N bytes of the answer belonging to the contract's record number n, at N·(n−1).", example: "3"),
        K("offset", .field, .integer(0...65535), "The first byte (default 0).", example: "16"),
        K("length", .field, .integer(1...4096), "The byte count (default: to the end; a type of fixed size sets it).", example: "4"),
        K("bit-offset", .field, .integer(0...32768), "Bits instead of bytes: the first bit, bit 0 the top bit of byte 0.", example: "4"),
        K("bit-length", .field, .integer(1...4096), "With `bit-offset`: how many bits.", example: "21"),
        K(
            "field", .field, .oneOrList(.text), "A value the answer's layout decoded; `[DATE, TIME]`: a date and a time of day joined.",
            example: "[date, time]"),
        K(
            "type", .field, .text,
            "How the bytes or bits become a value: a type (see *Types*). Default: the layout element's type, else `uint`.",
            example: "bcd-date"),
        K("endian", .field, .choice(["big", "little"]), "The integer's byte order (default big).", example: "little"),
        K(
            "bit-range", .field, .bitRange,
            "Keep these bits of the integer, bit 0 the least significant (with `int`, the top kept bit is the sign).", example: "0-30"),
        K("mask", .field, .integer(0...Int.max), "AND the integer with this first.", example: "0x7FFFFFFF"),
        K("scale", .field, .integer(Int.min...Int.max), "Multiply by this.", example: "10"),
        K("add", .field, .integer(Int.min...Int.max), "Then add this.", example: "-1000"),
        K("divide", .field, .integer(1...1_000_000_000), "Then divide by this, the remainder dropped.", example: "10"),
        K("map", .field, .codeMap, "Names for the integer's values.", example: "{ 0x02: top-up, 0x06: purchase }"),
        K("table", .field, .name, "Names from a lookup table (`tables/NAME.yaml`) instead of `map`.", example: "intercode-networks"),
        K(
            "default", .field, .text,
            "With `map` or `table`: what a code they lack gives (`{code}` stands for it); without it, the table's default, else the code.",
            example: "\"mode {code}\""),
        K("epoch", .field, .date, "For `days` and `seconds`: the date counting starts from.", example: "1997-01-01"),
        K(
            "utc", .field, .boolean, "With `seconds`: the count runs from the epoch's midnight in UTC, not in the card's zone.",
            example: "true"),
        K(
            "year-base", .field, .integer(1900...2100), "For `packed-date` and 3-byte `bcd-date`: the year of 00 (default 2000).",
            example: "2000"),
        K(
            "clock-shift", .field, .mapping(.clockShift),
            "With `seconds` and `utc`: counts before a moment get seconds added (an operator's clock that was off)."),
        K("drop-digits", .field, .integer(0...64), "For `hex`: leave out this many leading digits.", example: "1"),
        K("strip-zeros", .field, .boolean, "For `hex`: leave out leading zeros.", example: "true"),
        K("part", .field, .choice(["pan", "expiry", "service-code"]), "For `track2`: which part.", example: "expiry"),
        K("time-tag", .field, .tag, "With a `bcd-date` read by `tag`: the object holding the time of day (BCD hhmmss).", example: "9F21"),
        K("format", .field, .choice(["decimal"]), "`decimal`: the integer as a decimal string (card numbers).", example: "decimal"),
        K(
            "digits", .field, .integer(1...40), "A card number as printed: the integer's decimal digits zero-padded to this many.",
            example: "8"),
        K("prefix", .field, .text, "A card number as printed: written before.", example: "\"308425\""),
        K("suffix", .field, .text, "A card number as printed: written after.", example: "\"00\""),
        K(
            "group", .field, .list(.integer(1...40)), "A card number as printed: a space after each group of this many characters.",
            example: "[6, 4, 4]"),
        K(
            "check-digit", .field, .choice(["luhn", "digit-sum-10"]),
            "A card number as printed: append its check digit — `luhn` (ISO/IEC 7812-1), or `digit-sum-10` as `(d)`.", example: "luhn"),
        K(
            "unset", .field, .integer(Int.min...Int.max), "The raw value that means \"not written yet\": the field is left out quietly.",
            example: "0"),
        K("optional", .field, .boolean, "A value that does not decode is left out without a warning.", example: "true"),
        K(
            "when", .field, .mapping(.condition),
            "In trips and contracts: report the field only when a value of the record's layout is present, or is (not) among some."),
        K(
            "personal", .field, .boolean,
            "Holder data: reported only with `--show-personal`, named in `hidden`, and never kept in a recording.", example: "true"),
        K(
            "mask-digits", .field, .list(.integer(0...19)),
            "Show only the first and last digits, the others `*` (`--show-pan` shows all): a payment card's PAN.", example: "[6, 4]"),
        K(
            "difference", .field, .list(.text), "A derived value: the first field minus the second (`older.NAME`: the next older trip's).",
            example: "[balance, older.balance]"),
        K("sum", .field, .list(.text), "A derived value: the two fields added.", example: "[base, check]"),
        K(
            "absent-is-zero", .field, .boolean, "With `difference` or `sum`: a second operand that was not read counts as 0.",
            example: "true"),
        K("constant", .field, .scalar, "The same value for every record, read from nothing.", example: "top-up"),
        K("remove", .field, .boolean, "In a profile that `extends` another: take out the parent's field of this name.", example: "true"),
        K("field", .condition, .text, required: true, "The layout value tested.", example: "area-type"),
        K("bit-range", .condition, .bitRange, "Test these bits of it.", example: "10-12"),
        K(
            "in", .condition, .values,
            "The field is reported when the value is one of these. Neither `in` nor `not-in`: when the value is present.", example: "[0, 7]"
        ),
        K("not-in", .condition, .values, "The field is reported when the value is none of these.", example: "4"),
        K(
            "before", .clockShift, .text, required: true, "The moment the clock was put right, with its offset.",
            example: "\"2019-01-01T00:00:00+07:00\""),
        K(
            "seconds", .clockShift, .integer(-86400 * 366...86400 * 366), required: true, "Seconds added to counts before it.",
            example: "-21600"),
    ]

    static let types: [K] = [
        K("type", .type, .text, required: true, "The type it refines: a base type or another named type.", example: "days"),
        K("bits", .type, .integer(1...4096), "Its width in a layout (an element of this type needs no `bits`).", example: "14"),
        K("epoch", .type, .date, "As for a field.", example: "1997-01-01"),
        K("utc", .type, .boolean, "As for a field."),
        K("year-base", .type, .integer(1900...2100), "As for a field."),
        K("endian", .type, .choice(["big", "little"]), "As for a field."),
        K("scale", .type, .integer(Int.min...Int.max), "As for a field."),
        K("add", .type, .integer(Int.min...Int.max), "As for a field."),
        K("divide", .type, .integer(1...1_000_000_000), "As for a field."),
        K("map", .type, .codeMap, "As for a field."),
        K("table", .type, .name, "As for a field."),
        K("default", .type, .text, "As for a field."),
        K("unset", .type, .integer(Int.min...Int.max), "As for a field."),
        K("drop-digits", .type, .integer(0...64), "As for a field."),
        K("strip-zeros", .type, .boolean, "As for a field."),
        K("format", .type, .choice(["decimal"]), "As for a field."),
    ]

    static let layouts: [K] = [
        K(
            "name", .element, .name, "A value, named: its `type` says its width and meaning, or `bits` its width (a number).",
            example: "end-date"),
        K("type", .element, .text, "With `name`: the value's type (a base type or a named one).", example: "en1545-date"),
        K("bits", .element, .integer(1...4096), "With `name`: its width, when the type does not say it, or to change it.", example: "14"),
        K("unused", .element, .integer(0...4096), "Bits nobody reads.", example: "8"),
        K(
            "bitmap", .element, .integer(1...64), "Presence bits, the lowest for the first of `fields`; then only the present ones follow.",
            example: "7"),
        K(
            "repeat", .element, .name, "A count, then that many copies of `fields` (`NAME[0].X`, …; `NAME.count` is the count).",
            example: "contracts"),
        K("count-bits", .element, .integer(1...16), "A repeat's count is the next bits.", example: "4"),
        K("count-from", .element, .name, "A repeat's count is the value of an earlier element.", example: "n"),
        K("fields", .element, .elements, "The elements a bitmap or a repeat stands for."),
        K("sequence", .element, .elements, "Elements one after the other (a group, e.g. inside a bitmap)."),
        K(
            "choose", .element, .name, "What follows depends on this earlier value: the first of `cases` holding it, else `otherwise`.",
            example: "version"),
        K("cases", .element, .list(.mapping(.choiceCase)), "A choice's cases."),
        K("otherwise", .element, .elements, "What follows when no case holds the value (none: nothing more)."),
        K("values", .choiceCase, .values, required: true, "The values that take the case.", example: "0-2"),
        K("fields", .choiceCase, .elements, "What then follows."),
        K(
            "extends", .layoutChange, .name, required: true, "The layout changed (one of the profile's, or of its layout files).",
            example: "event"),
        K(
            "replace", .layoutChange, .elements, required: true, "Elements replacing those of the same name, in place.",
            example: "[{ name: location, bits: 16 }]"),
    ]

    static let trips: [K] = [
        K("from", .trips, .name, required: true, "The answer whose records are trips.", example: "log"),
        K("layout", .trips, .name, "Decode the records with this layout instead of their step's.", example: "refill"),
        K(
            "order", .trips, .choice(["as-read", "reverse", "by-time"]),
            "The records' order: as the card gave them (newest first, the default), reversed, or sorted by time.", example: "by-time"),
        K(
            "credit-kinds", .trips, .list(.text),
            "Kinds whose amount adds money; every other kind's is a charge. Without it, amounts are signed as read.", example: "[top-up]"),
        K("skip", .trips, .mapping(.tripSkip), "Which records are not trips."),
        K(
            "join", .trips, .list(.name), "Records answers paired with `from`'s by position: a field reads one with `from`.",
            example: "[taps]"),
        K(
            "dol", .trips, .reference, "Each record is the values of this data object list, in order: fields read them by `tag`.",
            example: "\"log-format:9F4F\""),
        K("fields", .trips, .named(.field), required: true, "The trip's keys, in this order."),
        K(
            "more", .trips, .list(.mapping(.tripSource)),
            "More records that are trips, each from its own answer (merged by time: needs `order: by-time`)."),
        K("from", .tripSource, .name, required: true, "As for `trips`."),
        K("layout", .tripSource, .name, "As for `trips`."),
        K("skip", .tripSource, .mapping(.tripSkip), "As for `trips`."),
        K("join", .tripSource, .list(.name), "As for `trips`."),
        K("dol", .tripSource, .reference, "As for `trips`."),
        K("fields", .tripSource, .named(.field), required: true, "As for `trips`."),
        K("unused", .tripSkip, .boolean, "Records all 00 or all FF are unused slots (default `true`).", example: "false"),
        K("zero", .tripSkip, .list(.name), "A record whose fields all decode to 0 (or nothing) is not a trip.", example: "[amount, time]"),
    ]

    static let contracts: [K] = [
        K("from", .contracts, .name, required: true, "The answer whose records are contracts.", example: "contracts"),
        K("list", .contracts, .mapping(.contractList), "Take the contracts in the order of a list's entries, each pointing at its record."),
        K("layout", .contracts, .textOr(.contractLayout), "The records' layout (a name), or how to choose it from the list entry."),
        K("fields", .contracts, .named(.field), required: true, "The contract's keys, in this order."),
        K("more", .contracts, .list(.mapping(.contractSource)), "More contracts from other answers, listed after these."),
        K("from", .contractSource, .name, required: true, "As for `contracts`."),
        K("list", .contractSource, .mapping(.contractList), "As for `contracts`."),
        K("layout", .contractSource, .textOr(.contractLayout), "As for `contracts`."),
        K("fields", .contractSource, .named(.field), required: true, "As for `contracts`."),
        K(
            "from", .contractList, .name, required: true, "The answer holding the list (bit-packed: its step has a layout).",
            example: "best"),
        K("repeat", .contractList, .name, required: true, "The repeat of its layout whose copies are the entries.", example: "best"),
        K(
            "pointer", .contractList, .name, required: true, "The value of an entry holding its record number (1 = the first).",
            example: "pointer"),
        K("by", .contractLayout, .text, required: true, "The list entry's value that chooses (`entry.NAME`).", example: "entry.tariff"),
        K("bit-range", .contractLayout, .bitRange, "Choose by these bits of it.", example: "4-11"),
        K("cases", .contractLayout, .codeMap, "Layouts by value.", example: "{ 0xFF: contract-ff }"),
        K("otherwise", .contractLayout, .name, "The layout when no case holds the value.", example: "contract-common"),
    ]

    static let others: [K] = [
        K("name", .variant, .text, required: true, "The variant's name, which names the report.", example: "PASMO"),
        K(
            "services", .variant, .list(.integer(0...0xFFFE)), required: true, "Services only this variant's issuer creates.",
            example: "[0x1CC8, 0x1D08]"),
        K("command", .command, .hex(2...2), required: true, "Its class and instruction.", example: "\"90 78\""),
        K("name", .command, .text, required: true, "What it is called.", example: "READ PURSE RECORD (KS X 6924)"),
        K("source", .command, .text, required: true, "Where its meaning comes from.", example: "proxmark3 cmdhfksx6924.c"),
        K(
            "number", .terminalNumber, .integer(0...999_999_999_999), required: true, "A number, written in BCD, right-aligned.",
            example: "840"),
        K(
            "option", .terminalNumber, .choice(TerminalValue.optionNames),
            "A command-line setting that replaces it (`--terminal-country`, `--terminal-currency`).", example: "country"),
    ]

    static let files: [K] = [
        K("notes", .layoutFile, .text, "Free text for people."),
        K("source", .layoutFile, .text, "Where the layouts come from."),
        K("types", .layoutFile, .named(.mapping(.type)), "Element types the layouts use, by name."),
        K("layouts", .layoutFile, .named(.layout), "The layouts, by name."),
        K("source", .typesFile, .text, required: true, "Where the types' meanings come from."),
        K("types", .typesFile, .named(.mapping(.type)), required: true, "The types, by name."),
        K(
            "name", .tableFile, .text, required: true, "What the table names, for people (the file's name is how fields name it).",
            example: "Intercode networks"),
        K("codes", .tableFile, .choice(["decimal", "hex"]), "How a code the table lacks is shown (default decimal).", example: "hex"),
        K("source", .tableFile, .text, required: true, "Where the names come from, and the licence that allows using them."),
        K("default", .tableFile, .text, "What a code the table lacks gives (`{code}` stands for it).", example: "\"other\""),
        K("entries", .tableFile, .codeMap, required: true, "Names by code."),
    ]

    /// The keys a place allows.
    public static func keys(in place: LanguageKey.Place) -> [LanguageKey] { byPlace[place] ?? [] }

    /// Every key's name at a place, for the parser's checks.
    public static func names(in place: LanguageKey.Place) -> [String] { namesByPlace[place] ?? [] }

    private static let byPlace: [LanguageKey.Place: [LanguageKey]] = Dictionary(grouping: all, by: \.place)
    private static let namesByPlace: [LanguageKey.Place: [String]] = byPlace.mapValues { $0.map(\.name) }
}
