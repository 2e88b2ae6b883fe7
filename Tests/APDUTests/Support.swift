@testable import APDU

/// The FCI of docs/cards/china.md (a City Union SELECT answer, data part), with 30
/// bytes of EF 0x15 chosen for the tests: city 20 00, serial 0x12345678, 2019-03-01..2029-03-01.
let sampleEF15: [UInt8] = try! Hex.parse("01 02 20 00 00 00 00 00 00 01 00 00 00 00 00 00 12 34 56 78 20 19 03 01 20 29 03 01 00 00")
let sampleFCI: [UInt8] = try! Hex.parse("6F 32 84 09 A0 00 00 00 03 86 98 07 01 A5 25 9F 08 01 02 9F 0C 1E") + sampleEF15

/// A channel that answers from a script and keeps what it was sent.
final class ScriptedChannel: CardChannel {
    var answers: [[UInt8]]
    var sent: [[UInt8]] = []
    init(_ answers: [String]) { self.answers = answers.map { try! Hex.parse($0) } }
    func transmit(_ command: [UInt8]) throws -> [UInt8] {
        sent.append(command)
        return answers.isEmpty ? [0x6F, 0x00] : answers.removeFirst()
    }
}

/// Every strict prefix of `bytes`.
func prefixes(_ bytes: [UInt8]) -> [[UInt8]] { (0..<bytes.count).map { Array(bytes.prefix($0)) } }
