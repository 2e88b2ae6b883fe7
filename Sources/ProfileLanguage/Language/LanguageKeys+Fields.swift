/// The keys of what a profile reports: fields, types, layouts, trips, contracts, and of the
/// shared data files (``LanguageKeys`` has the rest).
extension LanguageKeys {
    static let fields: [K] = [
        K(
            "from", .field, .text,
            "The answer read (`info`), or a BER-TLV object inside it (`app:6F/A5/9F0C`). In trips only an answer of `join`.",
            example: "info"),
        K(
            "tag", .field, .oneOrList(.tag),
            "Instead of `from`: the value of the first BER-TLV object with one of these tags (in a trip record: the record's own).",
            example: "[5A, 57]"),
        K(
            "record", .field, .numberOrWord(1...254, "last"),
            "Of a records answer, read this record (1 = the first the card gave; `last`: the last).",
            example: "1"),
        K(
            "slice", .field, .integer(1...255),
            "In `contracts`, with `from`: the N bytes of the answer belonging to the contract's record number n, at N·(n−1).", example: "3"),
        K("offset", .field, .integer(0...65535), "The first byte (default 0).", example: "16"),
        K(
            "length", .field, .integer(1...4096),
            "The byte count: required for a number; a date or time type of fixed size sets it; text and hex default to the end.",
            example: "4"),
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
        K(
            "sign-bit", .field, .integer(1...63),
            "This bit of the integer (0 the least significant) is a sign, the bits below it the magnitude.", example: "15"),
        K(
            "negative-if", .field, .mapping(.negativeIf),
            "The value is negative when a byte of the same answer or record has one of these bits set."),
        K("offset", .negativeIf, .integer(0...4095), "The byte's place (default 0).", example: "1"),
        K("mask", .negativeIf, .hex(1...1), required: true, "The bits that mean negative.", example: "\"80\""),
        K("scale", .field, .integer(Int.min...Int.max), "Multiply by this.", example: "10"),
        K("add", .field, .integer(Int.min...Int.max), "Then add this.", example: "-1000"),
        K("divide", .field, .integer(1...1_000_000_000), "Then divide by this, the remainder dropped.", example: "10"),
        K("map", .field, .codeMap, "Names for the integer's values.", example: "{ 0x02: top-up, 0x06: purchase }"),
        K("table", .field, .name, "Names from a lookup table (`tables/NAME.yaml`) instead of `map`.", example: "intercode-networks"),
        K(
            "default", .field, .text,
            "With `map` or `table`: what a code they lack gives (`{code}` stands for it); without it, the table's default, else the code.",
            example: "\"mode {code}\""),
        K(
            "epoch", .field, .dateOrName,
            "For `days` and `seconds`: the date counting starts from, or the card or `let` value that gives it (a ticket's last day).",
            example: "1997-01-01"),
        K(
            "direction", .field, .choice(["after", "before"]),
            "For `days` and `seconds`: count forward from the epoch (default) or back from it (days before a ticket's last day).",
            example: "before"),
        K(
            "utc", .field, .boolean,
            "With `seconds`, or `days` joined with a time: the count runs from the epoch's midnight in UTC, not in the card's zone.",
            example: "true"),
        K(
            "year-base", .field, .integer(1900...2100), "For `packed-date` and 3-byte `bcd-date`: the year of 00 (default 2000).",
            example: "2000"),
        K(
            "day-first", .field, .boolean,
            "For `packed-date`: the day (5 bits) comes first, then the month (4) and the year (the rest: 4 bits in 13, 7 in 16).",
            example: "true"),
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
            "label", .field, .text,
            "What the text report calls the value (default: its name in words, `lastOnlineAtc` → \"Last online ATC\"); JSON keeps the name.",
            example: "\"Max. balance\""),
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
        K("xor", .field, .list(.text), "A derived value: the two fields' bits, exclusive-or.", example: "[left, right]"),
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
        K("epoch", .type, .dateOrName, "As for a field.", example: "1997-01-01"),
        K("direction", .type, .choice(["after", "before"]), "As for a field.", example: "before"),
        K("utc", .type, .boolean, "As for a field."),
        K("year-base", .type, .integer(1900...2100), "As for a field."),
        K("day-first", .type, .boolean, "As for a field."),
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
        K("pair", .trips, .mapping(.tripPair), "A tap-on and the tap-off after it become one trip, with `endTime` and `endStation`."),
        K("first", .tripPair, .list(.text), required: true, "The kinds of a trip's first row (its tap-on).", example: "[tap-on]"),
        K("second", .tripPair, .list(.text), required: true, "The kinds of its second row (its tap-off).", example: "[tap-off]"),
        K("same", .tripPair, .list(.name), "Fields both rows give, equal.", example: "[journey, mode]"),
        K("within", .tripPair, .integer(1...100_000), "At most this many minutes apart.", example: "90"),
        K(
            "amount", .tripPair, .choice(["sum", "second"]),
            "The trip's amount: the two added (default), or the second's (a check-out that settles a check-in's deposit).",
            example: "second"),
        K(
            "called", .trips, .choice(["trips", "transactions", "payments", "events"]),
            "What the text report calls the log's entries (default `trips`): a payment card's are `payments`.", example: "payments"),
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
        K("layouts", .layoutFile, .named(.layout), required: true, "The layouts, by name."),
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
}
