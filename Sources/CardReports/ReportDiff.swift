import ProfileLanguage

/// Differences between two reports, field path by field path (`trips[2].amount`).
public enum ReportDiff {
    public struct Difference: Equatable, CustomStringConvertible {
        public var path: String
        public var expected: String
        public var actual: String
        public var description: String { "\(path): expected \(expected), actual \(actual)" }
    }

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
