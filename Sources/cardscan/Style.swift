import Foundation

/// ANSI colour, only on a terminal and never when NO_COLOR is set (no-color.org).
struct Style {
    let enabled: Bool

    enum Stream { case standardOutput, standardError }

    init(_ stream: Stream = .standardOutput) {
        let fd = stream == .standardError ? STDERR_FILENO : STDOUT_FILENO
        let env = ProcessInfo.processInfo.environment
        enabled = isatty(fd) == 1 && (env["NO_COLOR"] ?? "").isEmpty && env["TERM"] != "dumb"
    }

    private func wrap(_ code: String, _ s: String) -> String { enabled ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
    func bold(_ s: String) -> String { wrap("1", s) }
    func dim(_ s: String) -> String { wrap("2", s) }
    func red(_ s: String) -> String { wrap("31", s) }
    func green(_ s: String) -> String { wrap("32", s) }
    func yellow(_ s: String) -> String { wrap("33", s) }
}
