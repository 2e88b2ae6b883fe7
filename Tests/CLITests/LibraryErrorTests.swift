import APDU
import CardProfiles
import CardReading
import CardSimulator
import FeliCaCommands
import Foundation
import NDEF
import NFCTransport
import PCSCTransport
import Testing

/// The libraries' errors are for any Swift program: each has a message and a hint, and none
/// names a cardscan option or exit status (the command line adds its own hints).
@Suite struct LibraryErrorTests {
    static let errors: [any UserFacingError] = {
        var list: [any UserFacingError] = []
        for code in [
            PCSCError.Code.noService, .noReadersAvailable, .noSmartcard, .removedCard, .sharingViolation, .timeout, .resetCard,
            .unresponsiveCard, .unknownReader,
        ] {
            list.append(PCSCError(code: code, function: "SCardTransmit", reader: "R"))
        }
        list += [
            ReaderSelectionError.notFound("x", available: ["A"]), ReaderSelectionError.ambiguous("x", matches: ["A", "B"]),
            ReaderSelectionError.noReaders,
        ]
        for code in [NFCError.Code.noDevice, .noTarget, .timeout, .targetReleased, .io] { list.append(NFCError(code: code, function: "f")) }
        list += [
            PseudoAPDUError(operation: "FeliCa frame", answer: [0x6A, 0x81], failure: .other("SW")),
            PseudoAPDUError(operation: "FeliCa frame", answer: [], failure: .timeout),
        ]
        list += [
            ReplayChannel.Mismatch.differs(file: "f", line: 1, expected: "00", actual: [1]),
            ReplayChannel.Mismatch.exhausted(file: "f", actual: [1]),
        ]
        list += [TranscriptReplay.Failure.unusedExchanges(file: "f", lines: [3])]
        list += [
            ReadError.notThisCard(profile: "p", reason: "r"), ReadError.unrecognised(tried: ["a"], atr: nil),
            ReadError.stepFailed(profile: "p", step: "s", line: 1, command: "00 B0 00 00 01", reason: .status(StatusWord(0x6A82))),
            ReadError.stepFailed(profile: "p", step: "s", line: 1, command: nil, reason: .noSuchSystem(0x8008)),
            ReadError.badAnswer(profile: "p", step: "s", line: 1, reason: "r"),
        ]
        list += [
            ProfileRegistry.LookupError.noSuchProfile("x", known: ["a"]),
            ProfileRegistry.LookupError.transcriptProfileUnknown("x", transcript: "t"),
        ]
        list += [
            FileError(path: "f", reason: .missing), FileError(path: "f", reason: .unreadable("why")),
            FileError(path: "f", reason: .unwritable("why")), FileError(path: "f", reason: .folder),
        ]
        list += [JSONParseError(reason: "r"), FeliCaCardImage.Invalid(reason: "r")]
        list += [CardFileError.invalid("r"), CardFileError.noATR]
        // 9 bits from a 1-byte record: the failure a too-wide layout meets.
        // (If it ever stops failing, the list lacks it, and the test below says so.)
        do throws(BitReader.Failure) { _ = try BitReader.slice([0x00], at: 0, count: 9, for: "x") } catch { list.append(error) }
        list += [FeliCaError.status(StatusFlags(1, 0xA8)), FeliCaError.truncated(command: 6, length: 3), NDEFError.missingMessageEnd]
        list += [NDEFTags.Failure.notNDEF("r"), NDEFTags.Failure.malformed("r")]
        list += [
            NDEFTags.WriteFailure.readOnly(tag: "Type 2"), NDEFTags.WriteFailure.tooLarge(size: 2, capacity: 1),
            NDEFTags.WriteFailure.verification("r"), NDEFTags.WriteFailure.unsupported("r"), NDEFTags.WriteFailure.refused("r"),
        ]
        list += [
            ATR.ParseError.tooShort, BERTLV.ParseError.invalidPath("x"), BERTLV.ParseError.tooDeep(offset: 1),
            CommandAPDU.EncodingError.tooShort(2),
            ResponseAPDU.ParseError.tooShort(1), CardExchange.Error.responseTooShort(command: [0], length: 1),
            Hex.ParseError.oddDigitCount(3),
            TranscriptError(file: "f", line: 1, column: 1, reason: "r"),
        ]
        return list
    }()

    @Test func everyErrorHasAMessageAndAHintAndNamesNoOption() {
        let option = /--[a-z]/
        #expect(Self.errors.contains { $0 is BitReader.Failure }, "9 bits from 1 byte did not fail")
        for e in Self.errors {
            #expect(!e.message.isEmpty, "\(type(of: e))")
            #expect(e.hint?.isEmpty == false, "\(type(of: e)): \(e.message) has no hint")
            let text = e.message + " " + (e.hint ?? "")
            #expect(text.firstMatch(of: option) == nil, "\(type(of: e)): \(text)")
            #expect(!text.contains("exit "), "\(type(of: e)): \(text)")
        }
    }
}
