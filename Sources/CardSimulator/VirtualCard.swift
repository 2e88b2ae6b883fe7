import APDU
import Foundation

/// The vpcd wire protocol (vsmartcard): each message is a 2-byte big-endian length and a
/// body. A 1-byte body is a control code from vpcd (00 power off, 01 power on, 02 reset,
/// 04 get ATR); a longer one is a command APDU, answered with the response APDU.
public enum VPCDConnection {
    /// Connects to vpcd, retrying every 200 ms until it accepts.
    public static func connect(host: String, port: Int) -> Int32 {
        var warned = false
        while true {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &addr.sin_addr)
            let rv = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if rv == 0 {
                var one: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return fd
            }
            close(fd)
            if !warned {
                writeToStandardError("cardsim: waiting for vpcd on \(host):\(port) (is pcscd running with vsmartcard-vpcd?)\n")
                warned = true
            }
            usleep(200_000)
        }
    }
}

/// The card in a vpcd reader: answers command APDUs (`respond` throws when the card leaves),
/// and starts afresh on power-on or reset (`powerOn`).
public final class VirtualCard {
    /// Why ``serve(_:until:)`` returned.
    public enum End: Sendable {
        /// The card left: fault injection, a `! removed` in the transcript, or `until` passed.
        /// The connection is still open: closing it shows vpcd the card gone.
        case removed
        /// vpcd closed the connection (pcscd went away); also how a mute card's serving ends.
        case disconnected
    }

    /// What the card does with one vpcd message (`handle`).
    public enum Reply: Equatable, Sendable {
        /// Send these bytes back (a response APDU, or the ATR asked for by control code 04).
        case send([UInt8])
        /// Nothing to send (power on, off, reset: control codes 01, 00, 02).
        case nothing
        /// The card has left the reader (fault injection, or the transcript says so).
        case removed
        /// The card stays silent from now on (`--mute-after`): the reader's timeout must fire.
        case mute
    }

    let respond: ([UInt8]) throws -> [UInt8]
    let powerOn: () -> Void
    /// The ATR sent for vpcd's control code 04: ``VirtualCardOptions/atr`` when given, else the card file's.
    public let atr: [UInt8]
    /// Vanish when command N+1 arrives (a card removed mid-read); `--cycle` turns it on for
    /// some presentations only.
    public var removeAfter: Int?
    let latencyMs: Int
    let muteAfter: Int?
    let verbose: Bool
    private var answered = 0

    init(
        atr: [UInt8], removeAfter: Int?, latencyMs: Int, muteAfter: Int?, verbose: Bool,
        respond: @escaping ([UInt8]) throws -> [UInt8], powerOn: @escaping () -> Void
    ) {
        self.respond = respond
        self.powerOn = powerOn
        self.atr = atr
        self.removeAfter = removeAfter
        self.latencyMs = latencyMs
        self.muteAfter = muteAfter
        self.verbose = verbose
    }

    /// A new presentation of the card (`--cycle`): nothing answered yet.
    public func present() { answered = 0 }

    /// The card's reply to one vpcd message body: a 1-byte body is a control code from vpcd
    /// (00 power off, 01 power on, 02 reset, 04 get ATR), a longer one a command APDU. An
    /// empty body (vpcd never sends one) is ignored.
    public func handle(_ body: [UInt8]) -> Reply {
        if body.count <= 1 {
            switch body.first {
            case 0x01?, 0x02?:
                powerOn()  // power on, reset: a fresh card
                return .nothing
            case 0x04?: return .send(atr)
            default: return .nothing  // power off
            }
        }
        if let n = removeAfter, answered >= n {
            log("removed before answering \(body.hexString)")
            return .removed
        }
        if let n = muteAfter, answered >= n {
            log("mute: not answering \(body.hexString)")
            return .mute
        }
        if latencyMs > 0 { usleep(useconds_t(latencyMs * 1000)) }
        let answer: [UInt8]
        do { answer = try respond(body) } catch {
            log("\(body.hexString) → transcript says the card leaves")
            return .removed
        }
        log("> \(body.hexString)\n< \(answer.hexString)")
        answered += 1
        // vpcd's length prefix is 2 bytes: an answer it cannot carry is a card fault.
        return .send(answer.count <= 0xFFFF ? answer : [0x6F, 0x00])
    }

    /// Serves one vpcd connection until it closes, or the card leaves (fault injection,
    /// a `! removed` in the transcript, or `until` passing between two commands: the end
    /// of a presentation in `--cycle`).
    public func serve(_ fd: Int32, until deadline: ContinuousClock.Instant? = nil) -> End {
        while true {
            if let deadline {
                // Wait for vpcd's next message no longer than the presentation lasts.
                let left = deadline - .now
                let ms = Int(left.components.seconds) * 1000 + Int(left.components.attoseconds / 1_000_000_000_000_000)
                guard ms > 0 else { return .removed }
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&p, 1, Int32(ms)) == 0 { return .removed }
            }
            guard let header = receive(fd, 2) else { return .disconnected }
            let length = Int(header[0]) << 8 | Int(header[1])
            guard let body = receive(fd, length) else { return .disconnected }
            switch handle(body) {
            case .send(let bytes): send(fd, bytes)
            case .nothing: continue
            case .removed: return .removed
            case .mute:
                while receive(fd, 1) != nil {}  // stay silent until the socket closes
                return .disconnected
            }
        }
    }

    private func log(_ s: String) {
        if verbose { writeToStandardError("cardsim: \(s)\n") }
    }

    /// Reads exactly `count` bytes. TCP_QUICKACK is set before every receive (Linux clears
    /// it again): vpcd sends length and body in two writes, and without it Nagle and the
    /// delayed ACK hold each APDU about 40 ms.
    private func receive(_ fd: Int32, _ count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var got = 0
        var one: Int32 = 1
        while got < count {
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_QUICKACK, &one, socklen_t(MemoryLayout<Int32>.size))
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + got, count - got, 0) }
            if n <= 0 { return nil }
            got += n
        }
        return buffer
    }

    private func send(_ fd: Int32, _ body: [UInt8]) {
        let message = [UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
        _ = message.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
