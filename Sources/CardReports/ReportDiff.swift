import ProfileLanguage

/// Differences between two reports, field path by field path (`trips[2].amount`).
public enum ReportDiff {
    /// One value that differs (or that only one side has).
    public struct Difference: Equatable, CustomStringConvertible {
        /// Where: `trips[2].amount`; empty when the compared values themselves differ.
        public var path: String
        /// The expected value as compact JSON, or `(missing)`.
        public var expected: String
        /// The actual value as compact JSON, or `(missing)`.
        public var actual: String
        public var description: String { "\(path): expected \(expected), actual \(actual)" }
    }

    /// The differences between two JSON values, `path` (the values' own path) before each one's.
    /// Objects are compared key by key (expected's keys in order, then those only `actual` has),
    /// arrays item by item; an empty list means they are equal.
    public static func compare(expected: JSONValue, actual: JSONValue, path: String = "") -> [Difference] {
        switch (expected, actual) {
        case (.object(let e), .object(let a)):
            var out: [Difference] = []
            for (k, ev) in e {
                let p = path.isEmpty ? k : "\(path).\(k)"
                if let av = a.first(where: { $0.0 == k })?.1 {
                    out += compare(expected: ev, actual: av, path: p)
                } else {
                    out.append(Difference(path: p, expected: ev.serialized(), actual: "(missing)"))
                }
            }
            for (k, av) in a where !e.contains(where: { $0.0 == k }) {
                out.append(Difference(path: path.isEmpty ? k : "\(path).\(k)", expected: "(missing)", actual: av.serialized()))
            }
            return out
        case (.array(let e), .array(let a)):
            var out: [Difference] = []
            for i in 0..<max(e.count, a.count) {
                let p = "\(path)[\(i)]"
                if i < e.count, i < a.count {
                    out += compare(expected: e[i], actual: a[i], path: p)
                } else if i < e.count {
                    out.append(Difference(path: p, expected: e[i].serialized(), actual: "(missing)"))
                } else {
                    out.append(Difference(path: p, expected: "(missing)", actual: a[i].serialized()))
                }
            }
            return out
        default:
            return expected == actual ? [] : [Difference(path: path, expected: expected.serialized(), actual: actual.serialized())]
        }
    }
}
