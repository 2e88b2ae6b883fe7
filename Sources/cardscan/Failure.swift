import APDU
import ArgumentParser
import CardDumps
import CardHistory
import CardProfiles
import CardReading
import CardSimulator
import FeliCaCommands
import Foundation
import NDEF
import NFCTransport
import PCSCTransport

/// cardscan's exit statuses (sysexits.h), as the README and `--help` list them.
enum ExitStatus: Int32 {
    case success = 0
    /// `cardscan test` found a mismatch.
    case testMismatch = 1
    case usage = 64
    /// A profile, transcript or input file is invalid (the message names file:line).
    case invalidInput = 65
    /// A named file or profile does not exist.
    case noSuchInput = 66
    /// No pcscd, no reader, no libnfc device.
    case unavailable = 69
    /// cardscan itself failed (a bug).
    case software = 70
    /// The card failed mid-read (removed, communication error); a partial report is printed.
    case cardFailed = 74
    /// EX_IOERR too: an output could not be written (stdout, a `--record` transcript, an
    /// image: a full disk, a missing folder).
    static let outputFailed = ExitStatus.cardFailed
    /// No card was presented before the timeout.
    case noCard = 75
    /// The card answered, but no profile recognises it.
    case notRecognised = 76

    var exit: ExitCode { ExitCode(rawValue) }

    /// The status for an error from the libraries.
    init(for error: any Error) {
        switch error {
        case let e as ReadError: self.init(for: e)
        case let e as ValidationErrorWithPlace: self = e.status
        case let e as PCSCError:
            // A busy reader is unavailable (nothing was read); a time-out during a command is the
            // card failing mid-read.
            let card = e.code == .removedCard || e.code == .commError || (e.code == .timeout && !e.isBusyReader)
            self = card ? .cardFailed : .unavailable
        case is ReaderSelectionError: self = .usage
        case let e as NFCError: self = e.code == .noDevice ? .unavailable : .cardFailed
        case let e as NDEFTags.Failure: if case .notNDEF = e { self = .notRecognised } else { self = .invalidInput }
        case let e as NDEFTags.WriteFailure:
            switch e {
            case .verification, .refused: self = .cardFailed
            case .readOnly, .tooLarge, .unsupported: self = .invalidInput
            }
        case let e as FileError:
            if case .unwritable = e.reason { self = .outputFailed } else { self = e.isMissing ? .noSuchInput : .invalidInput }
        case is ProfileLoadError, is TranscriptError, is ReplayChannel.Mismatch, is TranscriptReplay.Failure, is DecodingError,
            is FeliCaCardImage.Invalid, is JSONParseError, is CardFileError, is DumpError, is DumpExport.Refusal, is ImageError,
            is ImportTargetExists, is ProfileExists:
            self = .invalidInput
        case is ProfileRegistry.LookupError, is HistoryError: self = .noSuchInput
        case let e as HistoryFileError: self = e.isInputOutput ? .outputFailed : .invalidInput
        case is Hex.ParseError, is CommandAPDU.EncodingError, is ATR.ParseError: self = .invalidInput
        case is PseudoAPDUError: self = .cardFailed  // the reader would not carry the card's commands
        // A FeliCa frame or an ISO 7816 exchange the card got wrong (outside a profile's read,
        // which wraps them in ReadError): `ndef read`/`write`, `felica`. They were exit 70.
        case is FeliCaError, is CardExchange.Error: self = .cardFailed
        case let e as CardTransportError:
            let midRead = e.failure == .removed || e.failure == .timeout || e.failure == ReadInterrupted().failure
            self = midRead ? .cardFailed : .unavailable
        case is NotFeliCa: self = .notRecognised
        default: self = .software
        }
    }

    init(for error: ReadError) {
        switch error {
        case .notThisCard, .unrecognised: self = .notRecognised
        case .noProfiles: self = .noSuchInput
        case .transport(let e): self = ExitStatus(for: e as any Error)
        case .stepFailed, .badAnswer, .exchange: self = .cardFailed
        case .replay: self = .invalidInput
        }
    }
}

/// Prints a user-facing error (`error:` and `hint:` lines on stderr) and exits with `status`.
func fail(_ error: any Error, _ status: ExitStatus) -> ExitCode {
    printError(error)
    return status.exit
}

/// Exit 75: nothing was presented before the timeout (`what`: "card" or "tag").
func nothingPresented(_ what: String = "card", within timeout: Double) -> ExitCode {
    let style = Style(.standardError)
    eprint(style.red("error:") + " no \(what) was presented within \(Int(timeout)) s")
    eprint(style.dim("hint: hold the \(what) flat on the reader, or raise --timeout"))
    return ExitStatus.noCard.exit
}

/// Prints `error` and its hint on stderr. `file`: which of several inputs it came from, named
/// first when the message does not already start with it (`replay a.apdu b.apdu`); `hint`:
/// the command's own, instead of the general one.
func printError(_ error: any Error, file: String? = nil, hint commandHint: String? = nil) {
    let style = Style(.standardError)
    if let e = error as? UserFacingError {
        let prefix = file.map { e.message.hasPrefix($0 + ":") ? "" : $0 + ": " } ?? ""
        eprint(style.red("error:") + " " + prefix + e.message)
        if let hint = commandHint ?? commandLineHint(for: e) ?? e.hint { eprint(style.dim("hint: " + hint)) }
    } else {
        eprint(style.red("error:") + " \(error)")
    }
}

/// The libraries' hints speak of what to do, not of cardscan's options; where the command
/// line has an option for it, its hint names the option.
func commandLineHint(for error: any UserFacingError) -> String? {
    switch error {
    case let e as ReadError:
        switch e {
        case .notThisCard: return "run without --profile to let cardscan detect the card, or list profiles with `cardscan profiles list`"
        case .unrecognised:
            return
                "see what it holds with `cardscan dump`, `cardscan felica`, `cardscan desfire` or `cardscan ultralight`, then write a profile for it (docs/writing-a-profile.md) and pass it with --profile FILE"
        case .noProfiles:
            return
                "cardscan finds its built-in profiles in ../share/cardscan/profiles beside its own file, or where CARDSCAN_BUILTIN_PROFILES says; `cardscan doctor` checks"
        case .replay(let m, _): return commandLineHint(for: m)
        case .transport(let e): return commandLineHint(for: e)
        case .exchange(let e): return commandLineHint(for: e)
        default: return nil
        }
    case is ReplayChannel.Mismatch: return "the profile sends different commands than were recorded: re-record, or replay with --lenient"
    case is TranscriptReplay.Failure: return "the profile now sends fewer commands than were recorded: re-record, or replay with --lenient"
    case let e as ProfileRegistry.LookupError:
        if case .transcriptProfileUnknown = e {
            return "pass the profile file with --profile FILE, or install it with `cardscan profiles add FILE`"
        }
        if case .noSuchProfile(_, let known) = e { return "known profiles: \(known.joined(separator: ", ")) (cardscan profiles list)" }
        return nil
    case let e as PCSCError:
        switch e.code {
        case .noService, .serviceStopped: return (e.hint ?? "") + "; `cardscan doctor` checks the setup"
        case .noReadersAvailable:
            return "plug in a reader; `cardscan doctor` lists what pcscd sees. No reader? scripts/lab.sh starts a virtual one"
        case .timeout where e.isBusyReader: return e.hint
        case .timeout: return "the card took too long: hold it flat on the reader, or raise --apdu-timeout"
        case .unknownReader, .readerUnavailable: return "list readers with `cardscan readers`"
        default: return nil
        }
    case let e as ReaderSelectionError:
        if case .ambiguous = e { return "use more of the name, or the reader's index from `cardscan readers`" }
        if case .noReaders = e { return "plug in a reader; `cardscan doctor` lists what pcscd sees" }
        return nil
    case let e as NFCError where e.code == .noDevice:
        return
            "give the device with --device or LIBNFC_DEVICE (e.g. pn532_uart:/dev/ttyUSB0, acr122_usb); an ACR122U is often held by pcscd (stop it, or read it through PC/SC instead) or by the kernel's pn533 driver (rmmod pn533_usb pn533 nfc)"
    case let e as PseudoAPDUError where e.failure != .timeout:
        return
            "this reader may use another pseudo-APDU convention; a PN53x-based reader can be used through libnfc instead (--device, see docs/felica.md)"
    case is ProfileLoadError: return "see docs/profile-format.md; check a profile with `cardscan profiles validate FILE`"
    case is FeliCaCardImage.Invalid: return "see docs/felica.md; `cardscan felica --image FILE` writes a card image from a card"
    case let e as NDEFTags.Failure:
        if case .notNDEF = e {
            return "a transit card is read with `cardscan`; `cardscan readers` and `cardscan felica` say what a card is"
        }
        return "`cardscan ndef read --trace` shows the bytes; `cardscan ndef write` replaces the message"
    case let e as FileError where e.isMissing: return "check the path"
    default: return nil
    }
}

/// Runs `body`, turning library errors into messages and exit statuses.
func guarded<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let e as ExitCode { throw e } catch let e as CleanExit { throw e } catch {
        throw fail(error, ExitStatus(for: error))
    }
}

func eprint(_ text: String) {
    _ = TextFile.writeAll(text + "\n", to: STDERR_FILENO)  // nowhere left to say that stderr failed
}

/// Writes to stdout at once (for --jsonl consumers reading line by line).
func out(_ text: String) {
    outRaw(text + "\n")
}

/// `text` on stdout as it is (CSV brings its own CRLF line ends). Output that cannot be
/// written (a full disk, an I/O error) ends cardscan with exit 74, saying so; Foundation's
/// `FileHandle.write` trapped instead. A closed pipe ends it by SIGPIPE, as any filter.
func outRaw(_ text: String) {
    guard !text.isEmpty, let code = TextFile.writeAll(text, to: STDOUT_FILENO) else { return }
    eprint("error: cannot write the output: \(String(cString: strerror(code)))")
    eprint("hint: check the disk or the file standard output goes to")
    PCSCCallsLeftRunning.leaveProcess(ExitStatus.outputFailed.rawValue)
}

/// A card is there, but not a FeliCa one (exit 76).
struct NotFeliCa: UserFacingError {
    let what: String
    var hint: String? = "`cardscan` reads it if a profile knows it; `cardscan ndef read` reads an NFC Forum tag"
    var message: String { what }
}

/// A refused or malformed line of input (`cardscan apdu`): where, and what.
struct ValidationErrorWithPlace: UserFacingError {
    let place: String
    let reason: String
    /// `usage` for a refused command, `invalidInput` for bad input.
    let status: ExitStatus
    init(place: String, message: String, status: ExitStatus = .invalidInput) {
        self.place = place
        reason = message
        self.status = status
    }
    var message: String { "\(place): \(reason)" }
}
