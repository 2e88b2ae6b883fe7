import APDU
import CardProfiles
import CardReading
import FeliCaCommands

/// A random field over a random answer: the first bytes of the input choose the field's type,
/// place, width and arithmetic (written as a profile, so the loader checks it as it would a
/// user's), the rest is the answer. The report builder must decode it or warn, never trap.
enum FieldFuzz {
    static let template: Profile = try! ProfileLoader.load(
        yaml: "id: f\nname: F\ncurrency: EUR\nsteps:\n  - command: \"80 5C 00 02 04\"\n    as: a\n", file: "field.yaml")
    static let scales = [1, -1, 100, 100_000, Int.max, Int.min]
    static let adds = [0, 1, Int.max, Int.min]

    /// The field is built directly, not through the loader, so it may be one the loader would
    /// refuse (a 20-byte BCD number, a bit range past the answer): the decoder must still cope.
    static func run(_ b: [UInt8]) {
        guard b.count >= 8 else { return }
        var f = FieldSpec.Layout(source: .answer("a", tlvPath: nil), line: 1)
        f.type = FieldType.allCases[Int(b[0]) % FieldType.allCases.count]
        if b[1] & 0x80 != 0 {
            f.bitSource = b[1] & 0x40 != 0 ? .position(offset: Int(b[2]) * 3, length: Int(b[5]) + 1) : .named("x")
        } else {
            f.offset = Int(b[1] & 0x7F)
            f.length = b[2] == 0 ? nil : Int(b[2] % 24)
        }
        f.scale = scales[Int(b[3]) % scales.count]
        f.add = adds[Int(b[4]) % adds.count]
        f.littleEndian = b[6] & 1 != 0
        if b[6] & 2 != 0 { f.bitRange = Int(b[6] >> 4)...Int(b[6] >> 4 + b[7] % 64) }
        if b[6] & 4 != 0 {
            f.map = [1: "one", 2: "two"]
            f.mapDefault = b[6] & 8 != 0 ? "other" : nil
        }
        if b[7] & 0x80 != 0 {
            f.epoch = CivilDate(year: 1997, month: 1, day: 1)
            f.zoneMinutes = 60
        }
        if b[7] & 0x20 != 0 { f.decimalText = true }
        f.dropDigits = Int(b[7] & 0x1F)
        f.stripZeros = b[7] & 1 != 0
        f.yearBase = b[5] & 1 == 0 ? 2000 : Int.max - 100
        f.divide = [1, 10, 3, 1_000_000_000][Int(b[4] >> 4) % 4]
        f.unset = b[3] & 0x80 != 0 ? 0 : nil
        f.timeFieldKind = [.minutes, .packedTime, .seconds][Int(b[4] & 3) % 3]
        if b[5] & 2 != 0 {
            // A card number as printed: padding, prefix and suffix, a check digit, groups.
            var t = NumberText()
            t.digits = Int(b[5] >> 2)
            t.prefix = b[3] & 0x40 != 0 ? "01-" : ""
            t.suffix = b[3] & 0x20 != 0 ? "00" : ""
            t.checkDigit = b[5] & 0x80 != 0 ? .luhn : (b[7] & 0x40 != 0 ? .digitSum10 : nil)
            t.group = b[3] & 0x10 != 0 ? [Int(b[3] % 7) + 1, 4] : []
            f.numberText = t
        }
        var profile = template
        profile.balance = FieldSpec(f)
        var answers = Answers()
        answers["a"] = .data(Array(b.dropFirst(8)))
        _ = ReportBuilder(profile: profile).build(from: answers).json.serialized()
    }

    static let layoutProfile: Profile = try! ProfileLoader.load(
        yaml: """
            id: l
            name: L
            currency: EUR
            zone: "+01:00"
            steps:
              - read-records: { sfi: 0x08, length: 29 }
                as: events
                layout: event
            layouts:
              event:
                - { name: date, bits: 14 }
                - { name: time, bits: 11, type: minutes }
                - bitmap: 6
                  fields:
                    - { name: network, bits: 24 }
                    - { name: code, bits: 8 }
                    - repeat: list
                      count-bits: 4
                      fields:
                        - bitmap: 3
                          fields: [ { name: a, bits: 24 }, { name: b, bits: 16 }, { name: c, bits: 5 } ]
                    - { name: n, bits: 3 }
                    - repeat: more
                      count-from: n
                      fields: [ { name: v, bits: 7 } ]
                    - { name: text, bits: 60 }
            trips:
              from: events
              fields:
                time: { field: [date, time], type: days, epoch: 1997-01-01 }
                code: { field: code, type: hex }
                network: { field: network, type: bcd }
                first: { field: "list[0].b" }
                last: { field: "more[6].v" }
                text: { field: text, type: letters }
            """, file: "layout.yaml")

    /// Random records through a layout with bitmaps and repeats.
    static func layout(_ b: [UInt8]) {
        var answers = Answers()
        answers["events"] = .records(stride(from: 0, to: b.count, by: 29).map { Array(b[$0..<min($0 + 29, b.count)]) })
        _ = ReportBuilder(profile: layoutProfile).build(from: answers).json.serialized()
        // And every layout of the built-in profiles (MOBIB's version choices, Rav-Kav's, …).
        for layout in builtInLayouts { _ = layout.decode(b) }
    }

    static let builtInLayouts: [BitLayout] = Fuzz.registry.entries.flatMap { $0.profile.layouts.values }
}

/// A whole read with every built-in profile over a card that answers anything: detection,
/// the step runners (ISO 7816 and FeliCa), the report.
enum EngineFuzz {
    static func run(_ b: [UInt8]) {
        guard let first = b.first else { return }
        let channel = ScriptedChannel(Array(b.dropFirst()))
        let card: PresentedCard
        var poller: FeliCaPoller? = nil
        if first & 1 == 0 {
            card = .iso7816(.init(atr: [0x3B, 0x02, 0x14, 0x50]))
        } else {
            let target = try! FeliCaTarget(bytes: [
                0x01, 0x2E, 0x4C, 0xD0, 0x1A, 0x2B, 0x3C, 0x4D, 3, 1, 0x4B, 2, 0x4F, 0x49, 0x93, 0xFF, 0, 3,
            ])
            card = .felica(target)
            poller = { sc in first & 2 == 0 || sc == .wildcard || sc == 0x0003 ? target : nil }
        }
        let connection = CardConnection(card: card, channel: channel, reader: "fuzz", felicaPoller: poller)
        _ = CardReader(registry: Fuzz.registry).read(connection).report?.json.serialized()
    }
}
