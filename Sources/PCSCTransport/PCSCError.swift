import APDU

/// A pcsc-lite failure, keyed by its SCARD_* code (pcsclite.h), with a human message and
/// a hint. Codes nobody expects become ``Code/unknown(_:)``.
public struct PCSCError: CardTransportError, Equatable {
    /// The SCARD_* code the call returned (or that cardscan made, as `timeout`).
    public let code: Code
    /// The PC/SC function that failed (`SCardTransmit`, …).
    public let function: String
    /// The reader concerned, when there is one.
    public let reader: String?

    /// An error `code` from `function`, on `reader` when there is one.
    public init(code: Code, function: String, reader: String? = nil) {
        self.code = code
        self.function = function
        self.reader = reader
    }

    /// An error from a pcsc-lite return value (a LONG: its low 32 bits are the code).
    public init(rawCode: Int, function: String, reader: String? = nil) {
        self.init(code: Code(rawValue: UInt32(truncatingIfNeeded: rawCode)), function: function, reader: reader)
    }

    /// The pcsc-lite return codes cardscan tells apart (pcsclite.h); any other is ``unknown(_:)``.
    public enum Code: Hashable, Sendable {
        /// SCARD_E_CANCELLED (0x80100002): the wait was ended by SCardCancel.
        case cancelled
        /// SCARD_E_INVALID_HANDLE (0x80100003): the context or card handle is not valid.
        case invalidHandle
        /// SCARD_E_INVALID_PARAMETER (0x80100004): a parameter could not be interpreted.
        case invalidParameter
        /// SCARD_E_NO_MEMORY (0x80100006): not enough memory.
        case noMemory
        /// SCARD_E_INSUFFICIENT_BUFFER (0x80100008): the buffer is too small for the answer.
        case insufficientBuffer
        /// SCARD_E_UNKNOWN_READER (0x80100009): no reader has that name.
        case unknownReader
        /// SCARD_E_TIMEOUT (0x8010000A): the time-out passed; cardscan also gives it for a
        /// call it bounded that did not return in time.
        case timeout
        /// SCARD_E_SHARING_VIOLATION (0x8010000B): other connections keep the card from this one.
        case sharingViolation
        /// SCARD_E_NO_SMARTCARD (0x8010000C): no card in the reader.
        case noSmartcard
        /// SCARD_E_PROTO_MISMATCH (0x8010000F): the requested protocols do not match the card's.
        case protocolMismatch
        /// SCARD_E_NOT_READY (0x80100010): the reader or card is not ready for commands.
        case notReady
        /// SCARD_E_INVALID_VALUE (0x80100011): a parameter's value could not be interpreted.
        case invalidValue
        /// SCARD_E_SYSTEM_CANCELLED (0x80100012): cancelled by the system (log-off, shutdown).
        case systemCancelled
        /// SCARD_F_COMM_ERROR (0x80100013): an internal communications error.
        case commError
        /// SCARD_E_NOT_TRANSACTED (0x80100016): ending a transaction that does not exist.
        case notTransacted
        /// SCARD_E_READER_UNAVAILABLE (0x80100017): the reader is not available for use now.
        case readerUnavailable
        /// SCARD_E_NO_SERVICE (0x8010001D): pcscd is not running.
        case noService
        /// SCARD_E_SERVICE_STOPPED (0x8010001E): pcscd has shut down.
        case serviceStopped
        /// SCARD_E_NO_READERS_AVAILABLE (0x8010002E): no reader is connected.
        case noReadersAvailable
        /// SCARD_E_COMM_DATA_LOST (0x8010002F): communication with the card failed; retry.
        case commDataLost
        /// SCARD_E_SERVER_TOO_BUSY (0x80100031): pcscd is too busy to do it.
        case serverTooBusy
        /// SCARD_F_INTERNAL_ERROR (0x80100001): an internal consistency check failed.
        case internalError
        /// SCARD_E_UNSUPPORTED_FEATURE (0x8010001F, which pcsc-lite also gives
        /// SCARD_E_UNEXPECTED): the feature is not supported.
        case unsupportedFeature
        /// SCARD_W_UNSUPPORTED_CARD (0x80100065): the reader cannot talk to the card (ATR
        /// configuration conflicts).
        case unsupportedCard
        /// SCARD_W_UNRESPONSIVE_CARD (0x80100066): the card does not respond to a reset.
        case unresponsiveCard
        /// SCARD_W_UNPOWERED_CARD (0x80100067): the card's power was removed.
        case unpoweredCard
        /// SCARD_W_RESET_CARD (0x80100068): the card was reset (by another program); shared
        /// state is lost.
        case resetCard
        /// SCARD_W_REMOVED_CARD (0x80100069): the card was removed; cardscan also gives it
        /// for an SCardTransmit that returned no bytes.
        case removedCard
        /// Any other code, as its 32-bit value.
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

        /// The case for a SCARD_* value; ``unknown(_:)`` for one not listed.
        public init(rawValue: UInt32) {
            self = Code.table.first { $0.0 == rawValue }?.1 ?? .unknown(rawValue)
        }

        /// The SCARD_* value (pcsclite.h), e.g. 0x80100069 for ``removedCard``.
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

    /// As a `TransportFailure`: `removed` for a removed card or none, `timeout` for a
    /// time-out, else `other` with the code's pcsclite.h name.
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
    /// No reader matches the query; `available` lists every reader.
    case notFound(String, available: [String])
    /// The query is part of several readers' names: `matches`.
    case ambiguous(String, matches: [String])
    /// There is no reader to choose from.
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
