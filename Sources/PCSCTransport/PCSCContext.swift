import APDU
import CPCSCLite
import Foundation

/// A pcsc-lite resource-manager context (PC/SC part 5: SCardEstablishContext).
///
/// Calls on one context are serialised by pcsc-lite; use one context per thread that
/// waits, and ``cancel()`` (safe from any thread) to end a wait early.
public final class PCSCContext: @unchecked Sendable {
    let handle: SCARDCONTEXT

    /// Connects to pcscd; `SCARD_E_NO_SERVICE` (pcscd not running) is a ``PCSCError``
    /// with a hint on starting it.
    public init() throws(PCSCError) {
        var h: SCARDCONTEXT = 0
        let rv = SCardEstablishContext(DWORD(SCARD_SCOPE_SYSTEM), nil, nil, &h)
        guard rv == SCARD_S_SUCCESS else { throw PCSCError(rawCode: Int(rv), function: "SCardEstablishContext") }
        handle = h
    }

    deinit { SCardReleaseContext(handle) }

    /// False once pcscd has gone away (checked with a harmless call, since
    /// SCardIsValidContext keeps saying "valid" after pcscd dies).
    public var isAlive: Bool {
        (try? readerNames()) != nil
    }

    /// Names of the connected readers; empty when there are none.
    public func readerNames() throws(PCSCError) -> [String] {
        var size: DWORD = 0
        var rv = SCardListReaders(handle, nil, nil, &size)
        if UInt32(truncatingIfNeeded: rv) == 0x8010_002E { return [] }
        guard rv == SCARD_S_SUCCESS else { throw PCSCError(rawCode: Int(rv), function: "SCardListReaders") }
        var buffer = [CChar](repeating: 0, count: Int(size))
        rv = SCardListReaders(handle, nil, &buffer, &size)
        if UInt32(truncatingIfNeeded: rv) == 0x8010_002E { return [] }
        guard rv == SCARD_S_SUCCESS else { throw PCSCError(rawCode: Int(rv), function: "SCardListReaders") }
        return buffer.split(separator: 0).map { String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    }

    /// Every reader with its current state.
    public func readers() throws(PCSCError) -> [ReaderState] {
        let names = try readerNames()
        if names.isEmpty { return [] }
        return try statusChange(names.map { ($0, 0) }, timeout: .zero) ?? []
    }

    /// The state of one reader.
    public func state(of reader: String) throws(PCSCError) -> ReaderState {
        try statusChange([(reader, 0)], timeout: .zero)![0]
    }

    /// SCardGetStatusChange: waits until one of `readers` leaves its `known` state, or
    /// `timeout` passes (nil: no limit). Returns nil on timeout; throws `cancelled` after
    /// ``cancel()``.
    public func statusChange(_ readers: [(name: String, known: UInt)], timeout: Duration?) throws(PCSCError) -> [ReaderState]? {
        let cNames = readers.map { strdup($0.name) }
        defer { for name in cNames { free(name) } }
        var states = readers.indices.map { i -> SCARD_READERSTATE in
            var s = SCARD_READERSTATE()
            s.szReader = UnsafePointer(cNames[i])
            s.dwCurrentState = DWORD(readers[i].known)
            return s
        }
        let ms: DWORD =
            timeout.map { DWORD(max(0, $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000)) }
            ?? DWORD(0xFFFF_FFFF)
        let rv = SCardGetStatusChange(handle, ms, &states, DWORD(states.count))
        if UInt32(truncatingIfNeeded: rv) == 0x8010_000A { return nil }
        guard rv == SCARD_S_SUCCESS else { throw PCSCError(rawCode: Int(rv), function: "SCardGetStatusChange") }
        return states.enumerated().map { ReaderState(name: readers[$0.offset].name, raw: $0.element) }
    }

    /// Ends a wait in ``statusChange(_:timeout:)`` on this context (from any thread).
    public func cancel() {
        SCardCancel(handle)
    }

    /// Waits until a card is present on one of `readers` (all readers when nil) and returns
    /// that reader's state, or nil when `timeout` passes. Readers plugged in while waiting count.
    public func waitForCard(on readers: [String]? = nil, timeout: Duration?) throws(PCSCError) -> ReaderState? {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        var known: [String: UInt] = [:]
        while true {
            let names: [String]
            if let readers { names = readers } else { names = try readerNames() }
            let watched = names.map { ($0, known[$0] ?? 0) } + [(ReaderState.plugAndPlay, UInt(names.count) << 16)]
            let remaining = deadline.map { max(.zero, $0 - ContinuousClock.now) }
            if let remaining, remaining == .zero, !known.isEmpty { return nil }
            guard let states = try statusChange(watched, timeout: known.isEmpty ? .zero : remaining) else { return nil }
            if let ready = states.first(where: { $0.name != ReaderState.plugAndPlay && $0.isPresent && !$0.isMute }) {
                return ready
            }
            for s in states { known[s.name] = s.eventState & ~UInt(SCARD_STATE_CHANGED) }
            if let deadline, ContinuousClock.now >= deadline { return nil }
        }
    }

    /// Waits until `reader` has no card (or `timeout` passes: false).
    public func waitForRemoval(from reader: String, timeout: Duration?) throws(PCSCError) -> Bool {
        var known: UInt = 0
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            let remaining = deadline.map { max(.zero, $0 - ContinuousClock.now) }
            guard let s = try statusChange([(reader, known)], timeout: known == 0 ? .zero : remaining)?.first else { return false }
            if !s.isPresent { return true }
            known = s.eventState & ~UInt(SCARD_STATE_CHANGED)
            if let deadline, ContinuousClock.now >= deadline { return false }
        }
    }

    /// Connects to the card on `reader`.
    public func connect(
        to reader: String, share: PCSCCard.ShareMode = .shared,
        protocols: PCSCCard.Protocols = .any
    ) throws(PCSCError) -> PCSCCard {
        try PCSCCard(context: self, reader: reader, share: share, protocols: protocols)
    }

    /// Connects to the card on `reader`, waiting at most `timeout` for pcscd to give the reader
    /// (nil: as long as it takes). SCardConnect waits behind another program's transaction,
    /// and behind a command pcscd still waits on (a card that stopped answering a
    /// program that has since gone): without a bound, that wait never ends. A connection made
    /// after the time-out is released on the worker.
    ///
    /// After a time-out, this context's other calls wait until pcscd answers the abandoned
    /// one (pcsc-lite's client holds the context's lock for the whole wait): go on with a new
    /// context, as `cardscan watch` does for every card.
    public func connect(
        to reader: String, share: PCSCCard.ShareMode = .shared, protocols: PCSCCard.Protocols = .any, timeout: Duration?
    ) throws(PCSCError) -> PCSCCard {
        guard let timeout else { return try connect(to: reader, share: share, protocols: protocols) }
        let call: @Sendable () -> Result<PCSCCard, PCSCError> = { [self] in
            Result { () throws(PCSCError) -> PCSCCard in try PCSCCard(context: self, reader: reader, share: share, protocols: protocols) }
        }
        guard let result = boundedCall(on: DispatchQueue(label: "cardscan.pcsc.connect"), timeout: timeout, call) else {
            throw PCSCError(code: .timeout, function: "SCardConnect", reader: reader)
        }
        return try result.get()
    }
}

/// A reader and what pcscd says about it (SCARD_READERSTATE).
public struct ReaderState: Sendable, Equatable {
    /// PC/SC's pseudo-reader that changes when readers are plugged in or out.
    public static let plugAndPlay = "\\\\?PnP?\\Notification"

    /// The reader's name as pcscd lists it (or ``plugAndPlay``).
    public let name: String
    /// dwEventState: the SCARD_STATE_* flags; pcsc-lite counts the card events in the upper 16 bits.
    public let eventState: UInt
    /// The ATR pcscd reports for the reader's card (rgbAtr, at most 33 bytes).
    public let atr: [UInt8]

    init(name: String, raw: SCARD_READERSTATE) {
        self.name = name
        eventState = UInt(raw.dwEventState)
        var a = raw.rgbAtr
        let n = min(Int(raw.cbAtr), 33)
        atr = withUnsafeBytes(of: &a) { Array($0.prefix(n)) }
    }

    /// SCARD_STATE_PRESENT: a card is in the reader (it may be mute: ``isMute``).
    public var isPresent: Bool { eventState & UInt(SCARD_STATE_PRESENT) != 0 }
    /// SCARD_STATE_EXCLUSIVE: a connection holds the card in exclusive mode.
    public var isExclusive: Bool { eventState & UInt(SCARD_STATE_EXCLUSIVE) != 0 }
    /// SCARD_STATE_INUSE: a connection (this program's or another's) uses the card, shared.
    public var isInUse: Bool { eventState & UInt(SCARD_STATE_INUSE) != 0 }
    /// SCARD_STATE_MUTE: the card in the reader does not answer (no ATR).
    public var isMute: Bool { eventState & UInt(SCARD_STATE_MUTE) != 0 }
    /// SCARD_STATE_UNAVAILABLE or SCARD_STATE_UNKNOWN: pcscd cannot give the reader's state,
    /// or does not know the reader.
    public var isUnavailable: Bool { eventState & UInt(SCARD_STATE_UNAVAILABLE | SCARD_STATE_UNKNOWN) != 0 }
}
