import APDU

/// A reader that answers each APDU from a script (hex, in order) and keeps what it was sent:
/// the pseudo-APDU channels are checked against it byte for byte.
final class ScriptedReader: CardChannel {
    var script: [[UInt8]]
    var sent: [[UInt8]] = []
    init(_ answers: [String]) throws { script = try answers.map { try Hex.parse($0) } }
    func transmit(_ command: [UInt8]) throws -> [UInt8] {
        sent.append(command)
        return script.removeFirst()
    }
}
