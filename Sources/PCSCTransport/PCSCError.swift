import APDU

/// A pcsc-lite failure, keyed by its SCARD_* code (pcsclite.h), with a human message and
/// a hint. Codes nobody expects become ``Code/unknown(_:)``.
public struct PCSCError: CardTransportError, Equatable {
    public let code: Code
    /// The PC/SC function that failed (`SCardTransmit`, …).
    public let function: String
    /// The reader concerned, when there is one.
    public let reader: String?

    public init(code: Code, function: String, reader: String? = nil) {
        self.code = code
        self.function = function
        self.reader = reader
    }

    public init(rawCode: Int, function: String, reader: String? = nil) {
        self.init(code: Code(rawValue: UInt32(truncatingIfNeeded: rawCode)), function: function, reader: reader)
    }

    public enum Code: Hashable, Sendable {
        case cancelled, invalidHandle, invalidParameter, noMemory, insufficientBuffer, unknownReader
        case timeout, sharingViolation, noSmartcard, protocolMismatch, notReady, invalidValue
        case systemCancelled, commError, notTransacted, readerUnavailable, noService, serviceStopped
        case noReadersAvailable, commDataLost, serverTooBusy, internalError, unsupportedFeature
        case unsupportedCard, unresponsiveCard, unpoweredCard, resetCard, removedCard
        case unknown(UInt32)

        static let table: [(UInt32, Code, String)] = [
            (0x8010_0002, .cancelled, "SCARD_E_CANCELLED"), (0x8010_0003, .invalidHandle, "SCARD_E_INVALID_HANDLE"),
            (0x8010_0004, .invalidParameter, "SCARD_E_INVALID_PARAMETER"), (0x8010_0006, .noMemory, "SCARD_E_NO_MEMORY"),
            (0x8010_0008, .insufficientBuffer, "SCARD_E_INSUFFICIENT_BUFFER"), (0x8010_0009, .unknownReader, "SCARD_E_UNKNOWN_READER"),
            (0x8010_000A, .timeout, "SCARD_E_TIMEOUT"), (0x8010_000B, .sharingViolation, "SCARD_E_SHARING_VIOLATION"),
            (0x8010_000C, .noSmartcard, "SCARD_E_NO_SMARTCARD"), (0x8010_000F, .protocolMismatch, "SCARD_E_PROTO_MISMATCH"),
            (0x8010_0010, .notReady, "SCARD_E_NOT_READY"), (0x8010_0011, .invalidValue, "SCARD_E_INVALID_VALUE"),
            (0x8010_0012, .systemCancelled, "SCARD_E_SYSTEM_CANCELLED"), (0x8010_0013, .commError, "SCARD_F_COMM_ERROR"),
            (0x8010_0016, .notTransacted, "SCARD_E_NOT_TRANSACTED"), (0x8010_0017, .readerUnavailable, "SCARD_E_READER_UNAVAILABLE"),
            (0x8010_001D, .noService, "SCARD_E_NO_SERVICE"), (0x8010_001E, .serviceStopped, "SCARD_E_SERVICE_STOPPED"),
            (0x8010_002E, .noReadersAvailable, "SCARD_E_NO_READERS_AVAILABLE"), (0x8010_002F, .commDataLost, "SCARD_E_COMM_DATA_LOST"),
            (0x8010_0031, .serverTooBusy, "SCARD_E_SERVER_TOO_BUSY"), (0x8010_0001, .internalError, "SCARD_F_INTERNAL_ERROR"),
            (0x8010_001F, .unsupportedFeature, "SCARD_E_UNSUPPORTED_FEATURE"),
            (0x8010_0065, .unsupportedCard, "SCARD_W_UNSUPPORTED_CARD"), (0x8010_0066, .unresponsiveCard, "SCARD_W_UNRESPONSIVE_CARD"),
            (0x8010_0067, .unpoweredCard, "SCARD_W_UNPOWERED_CARD"), (0x8010_0068, .resetCard, "SCARD_W_RESET_CARD"),
            (0x8010_0069, .removedCard, "SCARD_W_REMOVED_CARD"),
        ]

        public init(rawValue: UInt32) {
            self = Code.table.first { $0.0 == rawValue }?.1 ?? .unknown(rawValue)
        }

        public var rawValue: UInt32 {
            if case .unknown(let v) = self { return v }
            return Code.table.first { $0.1 == self }!.0
        }

        /// The pcsclite.h name, e.g. `SCARD_W_REMOVED_CARD`.
        public var name: String {
            if case .unknown(let v) = self { return "SCARD_0x\(String(v, radix: 16, uppercase: true))" }
            return Code.table.first { $0.1 == self }!.2
        }
    }

    public var failure: TransportFailure {
        switch code {
        case .removedCard, .noSmartcard: return .removed
        case .timeout: return .timeout
        default: return .other(code.name)
        }
    }

    private var on: String { reader.map { " on \($0)" } ?? "" }

    /// A time-out waiting for the reader (SCardConnect, SCardBeginTransaction, SCardReconnect
    /// bounded by ``PCSCCard/transmitTimeout``), not for the card's answer: another program
    /// holds the reader, or pcscd still waits on a card that stopped answering. Nothing was
    /// read.
    public var isBusyReader: Bool { code == .timeout && function != "SCardTransmit" }

    public var message: String {
        switch code {
        case .noService, .serviceStopped: return "pcscd is not running (\(function): \(code.name))"
        case .noReadersAvailable: return "no smart-card reader is connected"
        case .noSmartcard: return "no card\(on)"
        case .removedCard: return "the card was removed\(on)"
        case .sharingViolation: return "another program holds the card\(on) (\(code.name))"
        case .timeout where isBusyReader:
            return "pcscd did not give the reader\(on) in time (\(function)): another program holds it, or a card there stopped answering"
        case .timeout: return "timed out waiting for the card\(on)"
        case .resetCard: return "the card was reset by another program\(on)"
        case .unresponsiveCard, .unpoweredCard: return "the card does not respond\(on) (\(code.name))"
        case .unknownReader, .readerUnavailable: return "the reader\(on) is not available (\(code.name))"
        case .cancelled: return "cancelled"
        case .commError, .commDataLost: return "communication with the card failed\(on) (\(code.name))"
        default: return "\(function) failed\(on): \(code.name)"
        }
    }

    public var hint: String? {
        switch code {
        case .noService, .serviceStopped:
            return
                "start it with `sudo systemctl start pcscd` (or `sudo pcscd` where there is no systemd)"
        case .noReadersAvailable:
            return "plug in a reader"
        case .noSmartcard, .removedCard: return "hold the card still on the reader until the read completes"
        case .sharingViolation:
            return "close the other program using \(reader ?? "the reader") (a browser, opensc, another cardscan) and try again"
        case .timeout where isBusyReader:
            return
                "close the other program using \(reader ?? "the reader"), or take the card away and present it again; if the reader stays busy, restart pcscd (`sudo systemctl restart pcscd`)"
        case .timeout: return "the card took too long: hold it flat on the reader, or allow it more time"
        case .resetCard: return "try again; if it keeps happening another program is resetting the card"
        case .unresponsiveCard, .unpoweredCard: return "take the card away and present it again"
        case .unknownReader, .readerUnavailable: return "the reader may have been unplugged; list the readers pcscd sees"
        default: return nil
        }
    }
}

/// Choosing a reader by index, exact name or unique substring went wrong.
public enum ReaderSelectionError: UserFacingError, Equatable {
    case notFound(String, available: [String])
    case ambiguous(String, matches: [String])
    case noReaders

    public var message: String {
        switch self {
        case .notFound(let q, _): return "no reader matches '\(q)'"
        case .ambiguous(let q, let m): return "'\(q)' matches \(m.count) readers: \(m.joined(separator: ", "))"
        case .noReaders: return "no smart-card reader is connected"
        }
    }

    public var hint: String? {
        switch self {
        case .notFound(_, let a):
            return a.isEmpty
                ? "no readers are connected" : "readers: " + a.enumerated().map { "\($0.offset) \($0.element)" }.joined(separator: ", ")
        case .ambiguous: return "use more of the name, or the reader's index in the list"
        case .noReaders: return "plug in a reader"
        }
    }
}
