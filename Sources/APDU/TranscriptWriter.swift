extension Transcript {
    /// The transcript as text, in the canonical form: the magic line, `# key: value` headers,
    /// then `>` / `<` / `!` lines with upper-case spaced hex. Parsing this text gives the
    /// same transcript back.
    public func serialized() -> String {
        var out = Transcript.magicLine + "\n"
        for h in headers { out += "# \(h.key): \(h.value)\n" }
        for e in entries {
            if let command = e.command {
                out += "> " + command.map { $0.map { Hex.format([$0]) } ?? ".." }.joined(separator: " ") + "\n"
            }
            switch e.outcome {
            case .response(let bytes):
                out +=
                    "< " + (e.hidden.isEmpty && e.hiddenBits.isEmpty ? bytes.hexString : WireRedaction.format(bytes, masks: e.hiddenMasks))
            case .failure(let f): out += "! " + f.transcriptText
            }
            if let c = e.comment { out += "  # " + c }
            out += "\n"
        }
        return out
    }
}

/// Formats a duration as a transcript timing comment: `0.9 ms`, `12 ms`.
public func formatMilliseconds(_ d: Duration) -> String {
    let micros = d.components.seconds * 1_000_000 + d.components.attoseconds / 1_000_000_000_000
    if micros >= 10_000 { return "\(micros / 1000) ms" }
    let tenths = (micros + 50) / 100
    return "\(tenths / 10).\(tenths % 10) ms"
}
