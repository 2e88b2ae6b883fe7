import Foundation

extension Lab {
    /// How a lab card is presented to cardscan.
    public enum Path: Sendable, CaseIterable {
        /// cardsim on vpcd, read through the real pcscd.
        case pcsc
        /// cardsim as a PN532 on a pty, read through the real libnfc.
        case libnfc
    }

    /// `cardscan scan --json ARGS` of the lab card image `image` (a file in Tests/LabCards),
    /// served along `path`; inside ``exclusive(_:)``, the card taken away afterwards.
    public static func readLabCard(
        _ image: String, through path: Path, _ args: [String] = [], environment: [String: String] = [:]
    ) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let file = root + "/Tests/LabCards/" + image
        return try exclusive {
            switch path {
            case .pcsc:
                let card = try Card(file)
                defer { card.stop() }
                return try cardscan(["scan", "--json", "--timeout", "5"] + args, environment: environment)
            case .libnfc:
                let pn532 = try PN532(file)
                defer { pn532.stop() }
                return try cardscan(
                    ["--device", pn532.connectionString, "--json", "--timeout", "5"] + args,
                    environment: environment.merging(["LIBNFC_AUTO_SCAN": "false"]) { $1 })
            }
        }
    }

    /// What is wrong with a JSON report read from a lab card: a failed read, another profile,
    /// an expected text missing, a text that must be absent present, or warnings. Empty: all good.
    public static func reportProblems(
        _ r: (status: Int32, stdout: String, stderr: String), profile: String, expected: [String], absent: [String] = []
    ) -> [String] {
        var problems: [String] = []
        if r.status != 0 { problems.append("exit \(r.status): \(r.stderr)") }
        if !r.stdout.contains("\"profile\": \"\(profile)\"") { problems.append("not read by \(profile)") }
        problems += expected.filter { !r.stdout.contains($0) }.map { "missing \($0)" }
        problems += absent.filter { r.stdout.contains($0) }.map { "present \($0)" }
        if r.stdout.contains("\"warnings\"") { problems.append("warnings in the report") }
        if !problems.isEmpty { problems.append(r.stdout) }
        return problems
    }
}

extension Lab {
    /// A dump's round trip through pcscd: the lab card `image` is read (`before`), dumped with
    /// `cardscan COMMAND --image COPY` (`dump`), taken away; the copy is served and read again
    /// (`after`). A faithful dump gives `after.stdout == before.stdout`.
    public static func dumpRoundTrip(
        _ image: String, command: String
    ) throws -> (
        before: (status: Int32, stdout: String, stderr: String), dump: (status: Int32, stdout: String, stderr: String),
        after: (status: Int32, stdout: String, stderr: String)
    ) {
        try exclusive {
            let original = try Card(root + "/Tests/LabCards/" + image)
            let before = try cardscan(["scan", "--json", "--timeout", "5"])
            let copy = NSTemporaryDirectory() + "cardscan-\(command)-\(image)"
            let dump = try cardscan([command, "--image", copy, "--timeout", "5"])
            original.stop()
            let served = try Card(copy)
            defer { served.stop() }
            return (before, dump, try cardscan(["scan", "--json", "--timeout", "5"]))
        }
    }
}
