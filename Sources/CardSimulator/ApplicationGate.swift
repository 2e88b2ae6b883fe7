import APDU

/// `--multi-app`: the transcript's application as one of several on the card. A SELECT by
/// DF name of an AID the transcript does not hold selects another (empty) application and
/// answers 90 00; until the transcript's application is selected again, every other command
/// answers 6A 82 (file not found), as a real multi-application card would. So a second
/// client that selects something else between a reader's SELECT and its READs breaks that
/// read — unless the reader holds a PC/SC transaction.
final class ApplicationGate {
    private let inner: ([UInt8]) throws -> [UInt8]
    private let ownAIDs: Set<[UInt8]>
    private var foreignSelected = false

    init(_ transcript: Transcript, respond: @escaping ([UInt8]) throws -> [UInt8]) {
        inner = respond
        var aids = Set<[UInt8]>()
        for e in transcript.entries {
            guard let pattern = e.command, pattern.allSatisfy({ $0 != nil }) else { continue }
            if let aid = Self.selectedAID(pattern.map { $0! }) { aids.insert(aid) }
        }
        ownAIDs = aids
    }

    /// The AID of a SELECT by DF name (ISO/IEC 7816-4 §11.2.2, P1 = 04), else nil.
    static func selectedAID(_ command: [UInt8]) -> [UInt8]? {
        guard command.count >= 5, command[1] == 0xA4, command[2] == 0x04,
            let c = try? CommandAPDU(bytes: command), !c.data.isEmpty
        else { return nil }
        return c.data
    }

    func respond(_ command: [UInt8]) throws -> [UInt8] {
        if let aid = Self.selectedAID(command) {
            if ownAIDs.contains(aid) {
                foreignSelected = false
                return try inner(command)
            }
            foreignSelected = true
            return [0x90, 0x00]
        }
        return foreignSelected ? [0x6A, 0x82] : try inner(command)
    }

    /// Power-on or reset: nothing foreign is selected.
    func reset() { foreignSelected = false }
}
