import APDU
import CardReports
import FeliCaCommands
import ProfileLanguage

/// What a FeliCa card holds, without a profile: its systems (Request System Code), each
/// system's areas and services in order (Search Service Code), and, if asked, the blocks of
/// every service readable without a key (Read Without Encryption). For profile authors, as
/// nfcpy's `tagtool dump` or a Flipper directory tree; `cardscan felica` prints it.
///
/// Only read commands are sent. A card that stops answering ends the survey with what was
/// found so far (`partial`).
public struct FeliCaSurvey: Sendable {
    /// One area or service of a system, as Search Service Code listed it.
    public struct Node: Sendable, Equatable {
        /// The area (its code and end) or the service.
        public var node: FeliCaNode
        /// Nesting: 0 for a system's root area, 1 inside it, and so on.
        public var depth: Int
        /// The blocks read (services without a key, when blocks were asked for); nil when not read.
        public var blocks: [[UInt8]]?
    }

    /// One system of the card and the areas and services it listed.
    public struct System: Sendable {
        /// The system code.
        public var code: UInt16
        /// The system's IDm, from the card's Polling answer.
        public var idm: [UInt8]
        /// The system's areas and services, in the order the card listed them.
        public var nodes: [Node] = []
    }

    /// The PMm of the card's answer to the first Polling (any system); empty when none came.
    public var pmm: [UInt8]
    /// The systems Request System Code listed (the first 16), or the polled one when the card
    /// does not answer it; a system that did not answer its Polling is left out.
    public var systems: [System] = []
    /// The card stopped answering before the survey ended.
    public var partial = false
    /// Round trips the survey made through the exchange (0 when no card answered Polling).
    public var exchanges = 0

    /// At most this many nodes per system (a card that never answers FF FF cannot loop us).
    public static let nodeLimit = 2048
    /// At most this many blocks per service.
    public static let blockLimit = 1024

    /// Surveys the card. `poll` answers Polling for a system code, as
    /// `CardSession.felicaPoller` does. Returns what was found and, when the card failed on
    /// the way, the error (the survey is then `partial`).
    public static func run(exchange: CardExchange, poll: FeliCaPoller, readBlocks: Bool) -> (FeliCaSurvey, Error?) {
        var survey = FeliCaSurvey(pmm: [])
        let start = exchange.roundTrips
        do {
            guard let first = try poll(.wildcard) else { return (survey, nil) }
            survey.pmm = first.pmm.bytes
            let idm = first.idm
            var codes: [UInt16] = [first.systemCode.value]
            // Octopus does not answer Request System Code: the polled system is then all we know.
            if let listed = try? FeliCaResponse.requestSystemCode(try exchange.transmit(FeliCaCommand.requestSystemCode(idm)), idm: idm),
                !listed.isEmpty
            {
                // At most 16 systems (IDm's upper nibble numbers them): a card listing more is
                // surveyed for its first 16, and the image it gives can be served again.
                codes = listed.prefix(16).map(\.value)
            }
            for code in codes {
                guard let target = codes.count == 1 ? first : try poll(SystemCode(code)) else { continue }
                survey.systems.append(System(code: code, idm: target.idm.bytes))
                try walk(&survey.systems[survey.systems.count - 1], exchange, readBlocks: readBlocks)
            }
        } catch {
            survey.partial = true
            survey.exchanges = exchange.roundTrips - start
            return (survey, error)
        }
        survey.exchanges = exchange.roundTrips - start
        return (survey, nil)
    }

    /// Search Service Code from index 0 until the card answers FF FF.
    static func walk(_ system: inout System, _ exchange: CardExchange, readBlocks: Bool) throws {
        let idm = try IDm(system.idm)
        var open: [ClosedRange<UInt16>] = []  // the service numbers of the areas we are in
        for index in 0..<nodeLimit {
            let answer = try exchange.transmit(FeliCaCommand.searchServiceCode(idm, index: UInt16(index)))
            guard let node = try FeliCaResponse.searchServiceCode(answer, idm: idm) else { return }
            let number: UInt16
            switch node {
            case .area(let code, _): number = code >> 6
            case .service(let s): number = s.number
            }
            while let last = open.last, !last.contains(number) { open.removeLast() }
            var entry = Node(node: node, depth: open.count, blocks: nil)
            switch node {
            case .area(let code, let end):
                open.append(FeliCaNode.areaNumbers(code: code, end: end))
            case .service(let s):
                if readBlocks, !s.needsAuthentication { entry.blocks = try blocks(of: s, idm, exchange) }
            }
            system.nodes.append(entry)
        }
    }

    /// Every block of a service: 8 a command while the card gives them, then one at a time
    /// up to the first error (past the last block a card answers A8).
    static func blocks(of service: ServiceCode, _ idm: IDm, _ exchange: CardExchange) throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        var perCommand = 8
        while out.count < blockLimit {
            let chunk = try FeliCaCommand.readPlan(first: UInt16(out.count), count: perCommand, perCommand: perCommand)[0]
            let frame = try FeliCaCommand.readWithoutEncryption(idm, services: [service], blocks: chunk)
            do {
                out += try FeliCaResponse.readWithoutEncryption(try exchange.transmit(frame), idm: idm, expectedBlocks: chunk.count)
            } catch is FeliCaError {
                if perCommand == 1 { return out }
                perCommand = 1
            }
        }
        return out
    }
}

extension FeliCaSurvey {
    /// The survey as a card image (`FeliCaCardImage`): IDm, PMm, each system's areas and
    /// services, with the blocks read (none for a service that needs a key).
    public var cardImage: FeliCaCardImage {
        FeliCaCardImage(
            note: "written by cardscan felica --image: the services a card listed and the blocks it gave without a key",
            idm: systems.first?.idm ?? [], pmm: pmm,
            systems: systems.map { system in
                var areas: [String] = []
                var services: [String: [String]] = [:]
                for n in system.nodes {
                    switch n.node {
                    case .area(let code, let end): areas.append(Hex.format(code) + " " + Hex.format(end))
                    case .service(let code): services[Hex.format(code.value)] = (n.blocks ?? []).map(\.hexString)
                    }
                }
                return .init(code: Hex.format(system.code), areas: areas, services: services)
            })
    }
}
