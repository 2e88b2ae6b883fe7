import APDU
import FeliCaCommands

/// FeliCa frames through a PC/SC contactless reader. The card speaks no ISO 7816: the reader
/// gives it a PC/SC part 3 pseudo-ATR (RID A0 00 00 03 06) and carries its frames in
/// pseudo-APDUs, in one of two conventions, told apart by that ATR
/// (docs/cards/README.md, contactless readers):
///
/// | reader | ATR bytes 12-14 | frame out | answer |
/// |---|---|---|---|
/// | ACS ACR1252U, ACM1252U, ACR3x | `11 00 3B` | `FF 00 00 00 Lc FRAME` | `ANSWER 90 00` |
/// | PN532-based ACR122U/T, AET62 | `03 F0 11` (212 kbps), `03 F0 12` (424) | `FF 00 00 00 Lc D4 40 01 FRAME` | `D5 41 00 ANSWER 90 00` |
///
/// Sources: ACS ACM1252U-Y3 reference manual §5.2.6; ACS ACR122T API §7.3. Frames in and out
/// start with their length byte, as through libnfc, so profiles, tracing and `felica`
/// transcripts are the same whichever reader read the card.
public final class PCSCFeliCaChannel: CardChannel {
    /// How the reader carries a FeliCa frame in a pseudo-APDU (the table above).
    public enum Wrapping: Sendable, Equatable {
        /// `FF 00 00 00 Lc FRAME`.
        case direct
        /// `FF 00 00 00 Lc D4 40 01 FRAME` (PN532 InDataExchange to target 1).
        case pn532
    }

    /// The channel the pseudo-APDUs go through: a ``PCSCCard``, or any that answers as the reader does.
    public let apdus: CardChannel
    /// The convention every frame is sent in.
    public let wrapping: Wrapping

    /// Nil when `atr` is not a FeliCa card's pseudo-ATR.
    public init?(apdus: CardChannel, atr: [UInt8]) {
        guard let w = Self.wrapping(forATR: atr) else { return nil }
        self.apdus = apdus
        wrapping = w
    }

    /// A channel over `apdus` in the given convention, without looking at an ATR.
    public init(apdus: CardChannel, wrapping: Wrapping) {
        self.apdus = apdus
        self.wrapping = wrapping
    }

    /// How a reader that presents `atr` carries FeliCa frames, or nil when it is not FeliCa.
    public static func wrapping(forATR atr: [UInt8]) -> Wrapping? {
        guard let pseudo = PseudoATR(atr), pseudo.isFeliCa else { return nil }
        return pseudo.standard == 0x11 ? .direct : .pn532
    }

    /// Sends one FeliCa frame (length byte first) in a pseudo-APDU and returns the card's
    /// answer frame. Throws ``PseudoAPDUError``: `timeout` when the card did not answer
    /// (`63 00` or `64 01`; PN532 status 01), `other` for any other refusal or for a frame
    /// too long for a one-byte Lc.
    public func transmit(_ frame: [UInt8]) throws -> [UInt8] {
        let inner = wrapping == .pn532 ? [0xD4, 0x40, 0x01] + frame : frame
        guard inner.count <= 255 else {  // Lc is one byte: a short APDU carries at most 255
            throw PseudoAPDUError(
                operation: "FeliCa frame of \(frame.count) bytes", answer: [], failure: .other("too long for a pseudo-APDU"))
        }
        let answer = try apdus.transmit([0xFF, 0x00, 0x00, 0x00, UInt8(inner.count)] + inner)
        func failed(_ f: TransportFailure) -> PseudoAPDUError { PseudoAPDUError(operation: "FeliCa frame", answer: answer, failure: f) }
        guard answer.count >= 2 else { throw failed(.other("short reader answer")) }
        let sw = Array(answer.suffix(2))
        let body = Array(answer.dropLast(2))
        switch wrapping {
        case .direct:
            guard sw == [0x90, 0x00] else {
                // 63 00: the card did not answer; 64 01 (some readers): no response either.
                throw failed(sw == [0x63, 0x00] || sw == [0x64, 0x01] ? .timeout : .other("SW \(sw.hexString)"))
            }
            return body
        case .pn532:
            guard sw == [0x90, 0x00], body.count >= 3, body[0] == 0xD5, body[1] == 0x41 else {
                throw failed(.other("SW \(sw.hexString)"))
            }
            // PN532 status 01: time-out (the card did not answer); others: RF or protocol errors.
            guard body[2] & 0x3F == 0 else {
                throw failed(body[2] & 0x3F == 0x01 ? .timeout : .other("PN532 status \([body[2]].hexString)"))
            }
            return Array(body[3...])
        }
    }

    /// Polling for `systemCode` through the reader; nil when no card system answers.
    public func poll(systemCode: SystemCode) throws -> FeliCaTarget? {
        let answer: [UInt8]
        do { answer = try transmit(try FeliCaCommand.polling(systemCode: systemCode, requestCode: 1)) } catch let e as PseudoAPDUError
            where e.failure == .timeout
        {
            return nil
        }
        return FeliCaTarget(try FeliCaResponse.polling(answer), requested: systemCode)
    }
}
