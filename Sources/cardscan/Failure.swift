import APDU
import ArgumentParser
import CardProfiles
import Foundation
import NFCTransport
import PCSCTransport

/// Prints a user-facing error (`error:` and `hint:` lines on stderr) and exits with `code`.
func fail(_ error: any Error, code: Int32) -> ExitCode {
    printError(error)
    return ExitCode(code)
}

/// Exit 75: nothing was presented before the timeout (`what`: "card" or "tag").
func nothingPresented(_ what: String = "card", within timeout: Double) -> ExitCode {
    let style = Style(.standardError)
    eprint(style.red("error:") + " no \(what) was presented within \(Int(timeout)) s")
    eprint(style.dim("hint: hold the \(what) flat on the reader, or raise --timeout"))
    return ExitCode(75)
}

func printError(_ error: any Error) {
    let style = Style(.standardError)
    if let e = error as? UserFacingError {
        eprint(style.red("error:") + " " + e.message)
        if let hint = e.hint { eprint(style.dim("hint: " + hint)) }
    } else {
        eprint(style.red("error:") + " \(error)")
    }
}

/// The sysexits code for an error from the libraries.
func sysexit(for error: any Error) -> Int32 {
    switch error {
    case let e as ReadError: return e.exitCode
    case let e as ValidationErrorWithPlace: return e.code
    case let e as PCSCError: return e.code == .removedCard || e.code == .timeout || e.code == .commError ? 74 : 69
    case is ReaderSelectionError: return 64
    case let e as NFCError: return e.code == .noDevice ? 69 : 74
    case let e as NDEFTags.Failure: if case .notNDEF = e { return 76 } else { return 65 }
    case let e as NDEFTags.WriteFailure: if case .verification = e { return 74 } else { return 65 }
    case is ProfileLoadError, is TranscriptError, is ReplayChannel.Mismatch, is TranscriptReplay.Failure, is JSONParseError: return 65
    case is ProfileRegistry.LookupError: return 66
    case is Hex.ParseError, is CommandAPDU.EncodingError, is ATR.ParseError: return 65
    case is PseudoAPDUError: return 74                  // the reader would not carry the card's commands
    case let e as CardTransportError: return e.failure == .removed ? 74 : (e.failure == .timeout ? 74 : 69)
    default: return 70
    }
}

/// Runs `body`, turning library errors into messages and exit codes.
func guarded<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let e as ExitCode { throw e } catch let e as CleanExit { throw e } catch {
        throw fail(error, code: sysexit(for: error))
    }
}

func eprint(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Writes to stdout and flushes (for --jsonl consumers reading line by line).
func out(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

func readText(_ path: String) throws -> String {
    guard FileManager.default.fileExists(atPath: path) else { throw ProfileRegistry.LookupError.noSuchFile(path) }
    do { return try String(contentsOfFile: path, encoding: .utf8) } catch {
        throw ProfileRegistry.LookupError.unreadable(path, error.localizedDescription)
    }
}
