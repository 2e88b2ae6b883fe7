import APDU
import CPCSCLite
import Dispatch
import Foundation

/// A card connected through pcscd (SCardConnect). It is a `CardChannel`: the exchange
/// layer, tracing and recording work over it unchanged.
public final class PCSCCard: CardChannel, @unchecked Sendable {
    /// Whether other programs may use the card too (SCardConnect's dwShareMode).
    public enum ShareMode: Sendable {
        /// SCARD_SHARE_SHARED: other programs may connect to the card as well.
        case shared
        /// SCARD_SHARE_EXCLUSIVE: no other program may connect while this connection lasts.
        case exclusive
    }
    /// Transmission protocols, as SCARD_PROTOCOL_* bits: those accepted when connecting, or
    /// the one in use.
    public struct Protocols: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// T=0 (SCARD_PROTOCOL_T0), ISO/IEC 7816-3's character protocol.
        public static let t0 = Protocols(rawValue: UInt(SCARD_PROTOCOL_T0))
        /// T=1 (SCARD_PROTOCOL_T1), ISO/IEC 7816-3's block protocol.
        public static let t1 = Protocols(rawValue: UInt(SCARD_PROTOCOL_T1))
        /// T=0 or T=1, whichever the card and reader settle on.
        public static let any: Protocols = [.t0, .t1]
    }
    /// What is done to the card when the connection ends (SCardDisconnect) or is made again
    /// (SCardReconnect's initialization).
    public enum Disposition: Sendable {
        /// SCARD_LEAVE_CARD: nothing.
        case leave
        /// SCARD_RESET_CARD: reset the card.
        case reset
        /// SCARD_UNPOWER_CARD: power the card down.
        case unpower
        /// SCARD_EJECT_CARD: eject the card, where the reader can.
        case eject
        var raw: DWORD {
            switch self {
            case .leave: return DWORD(SCARD_LEAVE_CARD)
            case .reset: return DWORD(SCARD_RESET_CARD)
            case .unpower: return DWORD(SCARD_UNPOWER_CARD)
            case .eject: return DWORD(SCARD_EJECT_CARD)
            }
        }
    }

    /// The context the card was connected through.
    public let context: PCSCContext
    /// The name of the reader the card is on.
    public let reader: String
    let share: ShareMode
    private(set) var handle: SCARDHANDLE = 0
    /// The protocol pcscd negotiated (T=0 or T=1).
    public private(set) var activeProtocol: Protocols = []
    /// The card's ATR as SCardStatus gave it on connecting (at most 33 bytes; a reconnection
    /// does not read it again).
    public private(set) var atr: [UInt8] = []
    /// A transmit, or a wait to begin a transaction or reconnect, that takes longer than this fails with
    /// `SCARD_E_TIMEOUT`. pcsc-lite has no time-out of its own (a mute card, or a reader held by
    /// another program, blocks it forever), so with a time-out the call runs on a worker
    /// thread (`boundedCall(on:timeout:_:afterTimeout:)`); after a time-out this card object
    /// is unusable.
    public var transmitTimeout: Duration?
    private var connected = false
    private var abandoned = false
    private lazy var worker = DispatchQueue(label: "cardscan.pcsc.transmit")

    /// ISO/IEC 7816-3 max: 4 header + 3 Lc + 65536 data + 3 Le, and 65536 + 2 back.
    static let maxBufferSizeExtended = 4 + 3 + (1 << 16) + 3 + 2
    private var receiveBuffer = [UInt8](repeating: 0, count: maxBufferSizeExtended)

    init(context: PCSCContext, reader: String, share: ShareMode, protocols: Protocols) throws(PCSCError) {
        self.context = context
        self.reader = reader
        self.share = share
        var h: SCARDHANDLE = 0
        var active: DWORD = 0
        let mode = DWORD(share == .exclusive ? SCARD_SHARE_EXCLUSIVE : SCARD_SHARE_SHARED)
        let rv = SCardConnect(context.handle, reader, mode, DWORD(protocols.rawValue), &h, &active)
        guard rv == SCARD_S_SUCCESS else { throw PCSCError(rawCode: Int(rv), function: "SCardConnect", reader: reader) }
        handle = h
        activeProtocol = Protocols(rawValue: UInt(active))
        connected = true
        atr = try status().atr
    }

    deinit { if connected && !abandoned { SCardDisconnect(handle, DWORD(SCARD_LEAVE_CARD)) } }

    /// SCardStatus: the reader's state flags and the card's ATR.
    public func status() throws(PCSCError) -> (state: UInt, atr: [UInt8]) {
        try checkNotAbandoned("SCardStatus")
        var nameLength: DWORD = 0
        var state: DWORD = 0
        var proto: DWORD = 0
        var atrBuffer = [UInt8](repeating: 0, count: 33)
        var atrLength = DWORD(33)
        let rv = SCardStatus(handle, nil, &nameLength, &state, &proto, &atrBuffer, &atrLength)
        guard rv == SCARD_S_SUCCESS else { throw PCSCError(rawCode: Int(rv), function: "SCardStatus", reader: reader) }
        return (UInt(state), Array(atrBuffer.prefix(Int(atrLength))))
    }

    /// SCardTransmit with the negotiated protocol's PCI and the extended buffer. A reset
    /// by another program reconnects once and retries; a 0-byte answer means "removed".
    public func transmit(_ command: [UInt8]) throws -> [UInt8] {
        try checkNotAbandoned("SCardTransmit")
        guard let timeout = transmitTimeout else { return try transmitOnce(command, retryAfterReset: true) }
        let call: @Sendable () -> Result<[UInt8], PCSCError> = { [self] in
            Result { () throws(PCSCError) -> [UInt8] in try self.transmitOnce(command, retryAfterReset: true) }
        }
        guard let result = boundedCall(on: worker, timeout: timeout, call) else {
            abandoned = true
            throw PCSCError(code: .timeout, function: "SCardTransmit", reader: reader)
        }
        return try result.get()
    }

    private func transmitOnce(_ command: [UInt8], retryAfterReset: Bool) throws(PCSCError) -> [UInt8] {
        var pci = SCARD_IO_REQUEST(
            dwProtocol: DWORD(activeProtocol.contains(.t1) ? SCARD_PROTOCOL_T1 : SCARD_PROTOCOL_T0),
            cbPciLength: DWORD(MemoryLayout<SCARD_IO_REQUEST>.size))
        var length = DWORD(receiveBuffer.count)
        let rv = command.withUnsafeBufferPointer { cmd in
            receiveBuffer.withUnsafeMutableBufferPointer { buf in
                SCardTransmit(handle, &pci, cmd.baseAddress, DWORD(cmd.count), nil, buf.baseAddress, &length)
            }
        }
        if rv == SCARD_S_SUCCESS {
            if length == 0 { throw PCSCError(code: .removedCard, function: "SCardTransmit", reader: reader) }
            return Array(receiveBuffer.prefix(Int(length)))
        }
        let error = PCSCError(rawCode: Int(rv), function: "SCardTransmit", reader: reader)
        if error.code == .resetCard, retryAfterReset {
            // On the worker already when timed: the unbounded call (a bounded one would wait
            // for this very block).
            activeProtocol = try Self.reconnect(handle, share, .leave, reader)
            return try transmitOnce(command, retryAfterReset: false)
        }
        throw error
    }

    /// SCardReconnect, e.g. after another program reset the card. With ``transmitTimeout``,
    /// bounded by it: pcsc-lite makes SCardReconnect wait behind another program's transaction,
    /// without a time-out. A reconnection that completes after the time-out is released.
    public func reconnect(initialization: Disposition = .leave) throws(PCSCError) {
        try checkNotAbandoned("SCardReconnect")
        guard let timeout = transmitTimeout else {
            activeProtocol = try Self.reconnect(handle, share, initialization, reader)
            return
        }
        let (h, share, reader) = (handle, share, reader)
        let call: @Sendable () -> Result<Protocols, PCSCError> = {
            Result { () throws(PCSCError) -> Protocols in try Self.reconnect(h, share, initialization, reader) }
        }
        let undo: @Sendable (Result<Protocols, PCSCError>) -> Void = { _ in SCardDisconnect(h, DWORD(SCARD_LEAVE_CARD)) }
        guard let result = boundedCall(on: worker, timeout: timeout, call, afterTimeout: undo) else {
            abandoned = true
            throw PCSCError(code: .timeout, function: "SCardReconnect", reader: reader)
        }
        // Set here, on the caller's thread (a late reconnection on the worker changes nothing).
        activeProtocol = try result.get()
    }

    /// SCardReconnect itself: the protocol it negotiated.
    private static func reconnect(
        _ handle: SCARDHANDLE, _ share: ShareMode, _ initialization: Disposition, _ reader: String
    ) throws(PCSCError) -> Protocols {
        var active: DWORD = 0
        let mode = DWORD(share == .exclusive ? SCARD_SHARE_EXCLUSIVE : SCARD_SHARE_SHARED)
        let rv = SCardReconnect(handle, mode, DWORD(Protocols.any.rawValue), initialization.raw, &active)
        guard rv == SCARD_S_SUCCESS else { throw PCSCError(rawCode: Int(rv), function: "SCardReconnect", reader: reader) }
        return Protocols(rawValue: UInt(active))
    }

    /// After a call timed out the card is given up (the worker may still be inside pcsc-lite
    /// with this handle): every later call fails at once, as the time-out it follows from.
    private func checkNotAbandoned(_ function: String) throws(PCSCError) {
        if abandoned { throw PCSCError(code: .timeout, function: function, reader: reader) }
    }

    /// Runs `body` inside SCardBeginTransaction / SCardEndTransaction; the transaction
    /// always ends, also when `body` throws.
    ///
    /// A card reset by another program between connecting and beginning is reconnected once
    /// (as ``transmit(_:)`` does). After a transmit timed out the card is given up: the worker
    /// thread may still be blocked in SCardTransmit on this handle, and pcsc-lite would make
    /// SCardEndTransaction wait for it: the transaction is then ended on that worker, after
    /// the blocked transmit returns, and the caller does not wait.
    ///
    /// With ``transmitTimeout``, waiting for the transaction (another program's transaction,
    /// or pcscd still waiting on a card that stopped answering) is bounded by it too, and so is
    /// the wait behind another program's command that begins it.
    public func withTransaction<T>(_ body: () throws -> T) throws -> T {
        try checkNotAbandoned("SCardBeginTransaction")
        var rv = try beginTransaction()
        if PCSCError.Code(rawValue: UInt32(truncatingIfNeeded: Int(rv))) == .resetCard {
            try reconnect(initialization: .leave)
            rv = try beginTransaction()
        }
        guard rv == SCARD_S_SUCCESS else { throw PCSCError(rawCode: Int(rv), function: "SCardBeginTransaction", reader: reader) }
        try waitForCommandsBeforeTheLock()
        defer {
            if abandoned {
                // After a transmit timed out: ended (and the handle let go, as nothing else will)
                // on the worker once the stuck call returns, counted as a call left running so
                // the process does not `exit` under it.
                let h = handle
                PCSCCallsLeftRunning.started()
                worker.async {
                    SCardEndTransaction(h, DWORD(SCARD_LEAVE_CARD))
                    SCardDisconnect(h, DWORD(SCARD_LEAVE_CARD))
                    PCSCCallsLeftRunning.ended()
                }
            } else {
                SCardEndTransaction(handle, DWORD(SCARD_LEAVE_CARD))
            }
        }
        return try body()
    }

    /// pcscd checks the lock before a transmit waits for the reader: another client's command
    /// checked just before the lock was taken may still run. Asking the reader for an attribute
    /// (SCARD_ATTR_ATR_STRING; nothing reaches the card) waits behind it, so it runs before this
    /// transaction's first command rather than between two of them.
    ///
    /// That wait has no time-out in pcsc-lite: behind another client's command to a card that
    /// stopped answering it lasts until the card is taken away (measured with two C clients:
    /// the transaction began at once, SCardGetAttrib had not returned after 25 s). With
    /// ``transmitTimeout`` it is bounded; after a time-out the transaction is ended, and the card
    /// released, on the worker once the call returns.
    private func waitForCommandsBeforeTheLock() throws(PCSCError) {
        let h = handle
        let ask: @Sendable () -> LONG = {
            var attribute = [UInt8](repeating: 0, count: 33)
            var attributeLength = DWORD(attribute.count)
            return SCardGetAttrib(h, DWORD(0x0009_0303), &attribute, &attributeLength)
        }
        guard let timeout = transmitTimeout else {
            _ = ask()
            return
        }
        let undo: @Sendable (LONG) -> Void = { _ in
            SCardEndTransaction(h, DWORD(SCARD_LEAVE_CARD))
            SCardDisconnect(h, DWORD(SCARD_LEAVE_CARD))
        }
        guard boundedCall(on: worker, timeout: timeout, ask, afterTimeout: undo) != nil else {
            abandoned = true
            throw PCSCError(code: .timeout, function: "SCardGetAttrib", reader: reader)
        }
    }

    /// SCardBeginTransaction, waited for at most ``transmitTimeout``. A transaction that
    /// begins after the time-out is ended at once, and the card released, on the worker.
    private func beginTransaction() throws(PCSCError) -> LONG {
        let h = handle
        guard let timeout = transmitTimeout else { return SCardBeginTransaction(h) }
        let undo: @Sendable (LONG) -> Void = { rv in
            if rv == SCARD_S_SUCCESS { SCardEndTransaction(h, DWORD(SCARD_LEAVE_CARD)) }
            SCardDisconnect(h, DWORD(SCARD_LEAVE_CARD))
        }
        guard let rv = boundedCall(on: worker, timeout: timeout, { SCardBeginTransaction(h) }, afterTimeout: undo) else {
            abandoned = true
            throw PCSCError(code: .timeout, function: "SCardBeginTransaction", reader: reader)
        }
        return rv
    }

    /// SCardDisconnect with `disposition`.
    public func disconnect(_ disposition: Disposition = .leave) {
        guard connected, !abandoned else { return }
        SCardDisconnect(handle, disposition.raw)
        connected = false
    }
}
