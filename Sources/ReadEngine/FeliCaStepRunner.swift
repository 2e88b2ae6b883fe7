import APDU
import CardReports
import FeliCaCommands
import ProfileLanguage

/// Runs FeliCa steps (JIS X 6319-4): Polling for a system, then Read Without Encryption of
/// its services, addressed to the IDm the last Polling returned.
final class FeliCaStepRunner: StepRunner {
    let session: CardSession
    /// The card as the last Polling found it (commands carry its IDm).
    private(set) var target: FeliCaTarget?

    init(session: CardSession) { self.session = session }

    func run(_ step: Step, in profile: Profile) throws(ReadError) -> StepResult {
        guard case .felica(let action) = step.action else { preconditionFailure("not a FeliCa step") }
        do {
            switch action {
            case .poll(let code):
                guard let found = try session.poll(systemCode: SystemCode(code)) else {
                    return .refused(.noSuchSystem(SystemCode(code)))
                }
                target = found
                return .answered(.data(found.bytes))
            case .readBlocks(let service, let first, let count, let perCommand):
                guard let idm = target?.idm else {
                    throw ReadError.badAnswer(
                        profile: profile.id, step: step.name, line: step.line, reason: "read-blocks needs a poll step before it")
                }
                var blocks: [[UInt8]] = []
                // The blocks joined: the step's `records` cuts them into records.
                func collected() -> Answer { .data(blocks.flatMap { $0 }) }
                for chunk in try FeliCaCommand.readPlan(first: first, count: count, perCommand: perCommand) {
                    let frame = try FeliCaCommand.readWithoutEncryption(idm, services: [ServiceCode(service)], blocks: chunk)
                    do {
                        blocks += try FeliCaResponse.readWithoutEncryption(
                            try session.transmitFrame(frame), idm: idm, expectedBlocks: chunk.count)
                    } catch let e as CardTransportError where !blocks.isEmpty {
                        var result = StepResult.answered(collected())
                        result.interrupted = .transport(e)
                        return result
                    } catch FeliCaError.status(let flags) {
                        // Past the last block of a service the card answers A8 (illegal block number)
                        // for the whole command: read this command's blocks one at a time up to the
                        // last one there (a history with fewer blocks than `count`), then stop.
                        if flags.flag2 == 0xA8, chunk.count > 1 {
                            for block in chunk {
                                let one = try FeliCaCommand.readWithoutEncryption(idm, services: [ServiceCode(service)], blocks: [block])
                                do {
                                    blocks += try FeliCaResponse.readWithoutEncryption(
                                        try session.transmitFrame(one), idm: idm, expectedBlocks: 1)
                                } catch FeliCaError.status(let f) where f.flag2 == 0xA8 {
                                    break
                                } catch let e as CardTransportError where !blocks.isEmpty {
                                    var result = StepResult.answered(collected())
                                    result.interrupted = .transport(e)
                                    return result
                                }
                            }
                            if !blocks.isEmpty { return .answered(collected()) }
                        }
                        if flags.flag2 == 0xA8, !blocks.isEmpty { return .answered(collected()) }
                        var result = StepResult.refused(.feliCaStatus(flags), keeping: blocks.isEmpty ? nil : collected())
                        result.command = { "Read Without Encryption of service \(Hex.format(service))" }
                        return result
                    } catch let e as FeliCaError {
                        // A frame that does not check out (length, IDm, block count): like a
                        // refusal, so an optional or detection step can go without it; the
                        // blocks read before it are kept.
                        var result = StepResult.refused(.invalidAnswer(e.message), keeping: blocks.isEmpty ? nil : collected())
                        result.command = { "Read Without Encryption of service \(Hex.format(service))" }
                        return result
                    }
                }
                return .answered(collected())
            }
        } catch let e as FeliCaError {
            throw .badAnswer(profile: profile.id, step: step.name, line: step.line, reason: e.description)
        } catch {
            throw ReadError(error)
        }
    }

    /// Which variant the card is: asks the polled system which of the variants' services
    /// exist (Request Service, JIS X 6319-4 §7.4.3, 32 nodes a command; key version FFFF
    /// means "no such node") and returns the name of the one variant with a service present;
    /// nil when none or several match, or the card does not answer Request Service properly
    /// (the report then keeps the profile's name). A transport failure propagates.
    func identifyVariant(_ p: Profile) throws(ReadError) -> String? {
        guard let idm = target?.idm, !p.variants.isEmpty else { return nil }
        var nodes: [UInt16] = []
        for v in p.variants { for s in v.services where !nodes.contains(s) { nodes.append(s) } }
        var present: Set<UInt16> = []
        for start in stride(from: 0, to: nodes.count, by: 32) {
            let chunk = Array(nodes[start..<min(start + 32, nodes.count)])
            do {
                let frame = try FeliCaCommand.requestService(idm, nodes: chunk.map(ServiceCode.init))
                let versions = try FeliCaResponse.requestService(try session.transmitFrame(frame), idm: idm)
                guard versions.count == chunk.count else { return nil }
                for (code, version) in zip(chunk, versions) where version != 0xFFFF { present.insert(code) }
            } catch is FeliCaError {
                return nil
            } catch {
                throw ReadError(error)
            }
        }
        let matching = p.variants.filter { $0.services.contains(where: present.contains) }
        return matching.count == 1 ? matching[0].name : nil
    }
}
