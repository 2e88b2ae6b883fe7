import APDU
import CardReports
import DESFireCommands
import Foundation
import ProfileLanguage

/// What a MIFARE DESFire card lets be read without a key (`cardscan desfire`), as a card image
/// cardsim can serve (docs/lab.md §DESFire card images).
///
/// Sends only reading commands: SelectApplication, GetVersion, GetApplicationIDs (and, when the
/// list needs a key, SelectApplication of each application the installed profiles name — a
/// hidden application is found only that way), GetFileIDs (when that needs a key, GetFileSettings
/// of files 0…31), GetFileSettings, and ReadData, ReadRecords or GetValue of each file free to read.
public struct DESFireDump {
    /// The card image: the version, UID, applications and files read.
    public var image: DESFireCardImage
    /// What could not be read, and why: "application F21030: file list needs a key", …
    public var notes: [String] = []
    /// Round trips made through the exchange by the end of the dump (any made before it included).
    public var exchanges = 0
    /// The card went away (or failed) before the dump finished.
    public var partial = false

    /// The application IDs the profiles select (`desfire-select`), to probe on a card whose
    /// application list needs a key.
    public static func knownApplications(of profiles: [Profile]) -> [DESFireAID] {
        var out: [DESFireAID] = []
        for p in profiles where p.technology == .desfire {
            for s in p.steps {
                if case .desfire(.select(let aids)) = s.action { for aid in aids where !out.contains(aid) { out.append(aid) } }
            }
        }
        return out
    }

    /// Dumps the card over `exchange`; the error, when there is one, comes with what was read.
    public static func run(exchange: CardExchange, atr: [UInt8]?, knownApplications: [DESFireAID]) -> (DESFireDump, Error?) {
        let session = DESFireSession(exchange: exchange)
        let start = exchange.roundTrips
        var dump = DESFireDump(
            image: DESFireCardImage(
                technology: "desfire", note: nil, atr: atr?.hexString, uid: "", version: "", listLocked: nil, applications: []))
        /// The answer, or nil with the status when the card refused.
        func ask(_ c: DESFireCommand) throws -> (data: [UInt8]?, status: DESFireStatus) {
            let (data, status) = try session.answer(c)
            return (status == .ok ? data : nil, status)
        }
        do {
            _ = try ask(.selectApplication(.picc))
            let version = try DESFireVersion(try session.send(.getVersion))
            dump.image.version = version.bytes.hexString
            dump.image.uid = version.uid.hexString
            var aids: [DESFireAID] = []
            let (list, listStatus) = try ask(.getApplicationIDs)
            if let list {
                aids = try DESFireAID.list(list)
            } else {
                dump.image.listLocked = true
                dump.notes.append(
                    "application list: \(listStatus.meaning); probing the \(knownApplications.count) application(s) the profiles know")
            }
            for aid in knownApplications where !aids.contains(aid) && dump.image.listLocked == true { aids.append(aid) }
            for aid in aids {
                let (_, selected) = try ask(.selectApplication(aid))
                guard selected == .ok else {
                    if selected != .applicationNotFound { dump.notes.append("application \(aid): \(selected.meaning)") }
                    continue
                }
                // In the image from the start, so a card that fails part-way leaves what was read.
                dump.image.applications.append(DESFireCardImage.Application(aid: aid.description, filesLocked: nil, files: []))
                let a = dump.image.applications.count - 1
                var numbers: [DESFireFileNumber] = []
                let (ids, idsStatus) = try ask(.getFileIDs)
                if let ids {
                    numbers = try DESFireFileNumber.list(ids)
                } else {
                    dump.image.applications[a].filesLocked = true
                    dump.notes.append("application \(aid): file list: \(idsStatus.meaning); files 0…31 probed")
                    numbers = (0..<32).map { try! DESFireFileNumber($0) }
                }
                for number in numbers {
                    let (raw, status) = try ask(.getFileSettings(number))
                    guard let raw else {
                        if status != .fileNotFound { dump.notes.append("application \(aid), file \(number): settings: \(status.meaning)") }
                        continue
                    }
                    let settings = try DESFireFileSettings(raw)
                    var file = DESFireCardImage.File(
                        id: Int(number.value), type: settings.type.name, read: settings.readNeedsKey ? "key" : "free")
                    var content: [UInt8]? = nil
                    if !settings.readNeedsKey {
                        let (data, readStatus) = try ask(settings.readCommand(number))
                        content = data
                        if data == nil {
                            file.read = "key"
                            dump.notes.append("application \(aid), file \(number): \(readStatus.meaning)")
                        }
                    } else {
                        dump.notes.append("application \(aid), file \(number): reading needs a key")
                    }
                    Self.fill(&file, settings.sizes, content)
                    dump.image.applications[a].files.append(file)
                }
            }
            dump.exchanges = exchange.roundTrips - start
            return (dump, nil)
        } catch {
            dump.partial = true
            dump.exchanges = exchange.roundTrips - start
            return (dump, error)
        }
    }

    /// `file`'s content as the image keeps it: a data file's bytes (zeros when they could not be
    /// read), records of their size, a value file's value and limits.
    static func fill(_ file: inout DESFireCardImage.File, _ sizes: DESFireFileSettings.Sizes, _ content: [UInt8]?) {
        switch sizes {
        case .data(let size):
            file.data = (content ?? [UInt8](repeating: 0, count: size)).hexString
        case .records(let size, _, _):
            file.recordSize = size
            let bytes = content ?? []
            file.records =
                size > 0
                ? stride(from: 0, to: bytes.count - bytes.count % size, by: size).map {
                    Array(bytes[$0..<($0 + size)]).hexString
                } : []
        case .value(let lower, let upper, let credit, _):
            file.value = content.flatMap { try? DESFireFileSettings.value($0) }.map(Int.init) ?? 0
            file.lower = Int(lower)
            file.upper = Int(upper)
            file.limitedCredit = Int(credit)
        }
    }

    /// The image as JSON text, as `--image` writes it.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(image)) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
