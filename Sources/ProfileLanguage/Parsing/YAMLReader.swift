import APDU
import CYaml
import Yams

/// Walks a composed YAML tree, turning each value into a typed one and recording every
/// problem with its line, column and key path (so a profile author sees all errors at once).
package final class YAMLReader {
    let file: String
    var issues: [ProfileIssue] = []
    /// The commands a profile's `command` steps may send (the load's context: the known
    /// commands, plus the profile's own when trusted).
    var commandPolicy = CommandPolicy.standard

    init(file: String) { self.file = file }

    /// Top-level keys a profile took from the one it `extends`, and that file: a problem found
    /// under one of them names the line of the file it is written in.
    var inherited: (file: String, keys: Set<String>)?

    /// The file the key at `path` is written in: the parent's for an inherited key.
    func file(of path: String) -> String {
        guard let inherited, inherited.keys.contains(String(path.prefix { $0 != "." && $0 != "[" })) else { return file }
        return inherited.file
    }

    func issue(_ node: Node?, _ path: String, _ reason: String) {
        let mark = node?.mark
        issues.append(ProfileIssue(file: file(of: path), line: mark?.line ?? 1, column: mark?.column ?? 1, path: path, reason: reason))
    }

    /// A mapping as ordered (key, node) pairs; unknown keys are reported.
    func mapping(_ node: Node?, _ path: String, allowed: [String]? = nil) -> [(key: String, node: Node)]? {
        guard let node else { return nil }
        guard case .mapping(let m) = node else {
            issue(node, path, "expected a mapping (key: value lines), found \(kind(node))")
            return nil
        }
        var out: [(String, Node)] = []
        var seen = Set<String>()
        for (k, v) in m {
            guard case .scalar(let ks) = k else {
                issue(k, path, "keys must be plain words")
                continue
            }
            if !seen.insert(ks.string).inserted { issue(k, join(path, ks.string), "duplicate key '\(ks.string)'") }
            if let allowed, !allowed.contains(ks.string) {
                issue(k, join(path, ks.string), "unknown key '\(ks.string)' (expected one of: \(allowed.joined(separator: ", ")))")
                continue
            }
            out.append((ks.string, v))
        }
        return out
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func kind(_ node: Node) -> String {
        switch node {
        case .scalar(let s): return "'\(s.string)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    func sequence(_ node: Node?, _ path: String) -> [Node]? {
        guard let node else { return nil }
        if case .sequence(let s) = node { return Array(s) }
        issue(node, path, "expected a list, found \(kind(node))")
        return nil
    }

    func string(_ node: Node?, _ path: String) -> String? {
        guard let node else { return nil }
        if case .scalar(let s) = node { return s.string }
        issue(node, path, "expected a text value, found \(kind(node))")
        return nil
    }

    /// Integers in decimal, or hex with `0x`; optional sign.
    func int(_ node: Node?, _ path: String, range: ClosedRange<Int>? = nil) -> Int? {
        guard let text = string(node, path) else { return nil }
        guard let v = Self.parseInt(text) else {
            issue(node, path, "expected a whole number (decimal or 0x hex), found '\(text)'")
            return nil
        }
        if let range, !range.contains(v) {
            issue(node, path, "\(text) is out of range \(range.lowerBound)…\(range.upperBound)")
            return nil
        }
        return v
    }

    static func parseInt(_ text: String) -> Int? {
        var t = Substring(text.filter { $0 != "_" })
        var negative = false
        if t.first == "-" {
            negative = true
            t = t.dropFirst()
        } else if t.first == "+" {
            t = t.dropFirst()
        }
        let v: Int?
        if t.hasPrefix("0x") || t.hasPrefix("0X") { v = Int(t.dropFirst(2), radix: 16) } else { v = Int(t) }
        return v.map { negative ? -$0 : $0 }
    }

    func bool(_ node: Node?, _ path: String) -> Bool? {
        guard let text = string(node, path) else { return nil }
        switch text {
        case "true", "yes": return true
        case "false", "no": return false
        default:
            issue(node, path, "expected true or false, found '\(text)'")
            return nil
        }
    }

    func hex(_ node: Node?, _ path: String) -> [UInt8]? {
        guard let text = string(node, path) else { return nil }
        do { return try Hex.parse(text) } catch {
            issue(node, path, "bad hex '\(text)': \(error.message)")
            return nil
        }
    }

    /// A list, or a single value treated as a one-element list.
    func list(_ node: Node?, _ path: String) -> [Node]? {
        guard let node else { return nil }
        if case .sequence(let s) = node { return Array(s) }
        return [node]
    }

    func line(_ node: Node?) -> Int { node?.mark?.line ?? 1 }
}

extension YAMLReader {
    /// The deepest nesting of collections a YAML data file may have (the built-in profiles
    /// reach 10). Yams hashes each mapping key whole while it builds the tree, so collections
    /// used as keys cost the square of their depth: 990 of them nested (libyaml allows 1,000)
    /// took 0.21 s to refuse in a release build, four such in one 8 kB file 1.15 s, and a
    /// fuzzed 951-byte profile 79 ms under AddressSanitizer (docs/reliability.md §Limits).
    public static let maximumDepth = 32

    /// What in `text`'s shape is refused before Yams builds anything, and where (1-based line
    /// and column), found by libyaml's event parser: collections nested deeper than
    /// ``maximumDepth``, or a mapping key that is not plain text (a list, a mapping or an
    /// alias: no data file has one, and Yams compares such keys whole, subtree against
    /// subtree, to find duplicates — a fuzzed 2.5 kB profile of them took 300–450 ms under
    /// AddressSanitizer). nil when neither, or when the text is not YAML (composing it then
    /// says what is wrong).
    package static func refusedShape(_ text: String) -> (line: Int, column: Int, reason: String)? {
        var bytes = Array(text.utf8)
        if bytes.isEmpty { return nil }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        return bytes.withUnsafeMutableBufferPointer { buffer -> (line: Int, column: Int, reason: String)? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            // One entry per open collection: whether it is a mapping whose next node is a key.
            var open: [(isMapping: Bool, expectsKey: Bool)] = []
            /// A node has ended: the mapping around it now expects the other of key and value.
            func ended() { if let last = open.indices.last, open[last].isMapping { open[last].expectsKey.toggle() } }
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                let at = (line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
                let type = event.type
                let notText = type == YAML_ALIAS_EVENT || type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT
                if notText, open.last?.expectsKey == true {
                    return (at.line, at.column, "a mapping key must be plain text, not a list, a mapping or an alias")
                }
                switch type {
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    open.append((type == YAML_MAPPING_START_EVENT, type == YAML_MAPPING_START_EVENT))
                    if open.count > maximumDepth {
                        return (
                            at.line, at.column, "collections nested deeper than \(maximumDepth) levels (the built-in profiles reach 10)"
                        )
                    }
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    open.removeLast()
                    ended()
                case YAML_SCALAR_EVENT, YAML_ALIAS_EVENT: ended()
                case YAML_STREAM_END_EVENT: return nil
                default: break
                }
            }
            return nil
        }
    }

    /// The YAML tree of `text` — the basic resolver: every scalar stays text, the loaders type
    /// values themselves — or the syntax error with its line.
    static func compose(_ text: String, file: String) throws(ProfileLoadError) -> Node? {
        if let (line, column, reason) = refusedShape(text) {
            throw ProfileLoadError(issues: [ProfileIssue(file: file, line: line, column: column, path: "", reason: reason)])
        }
        do { return try Yams.compose(yaml: text, .basic, .default, .utf8) } catch {
            throw ProfileLoadError(issues: [ProfileLoader.yamlSyntaxIssue(error, file: file)])
        }
    }

    /// The data file at `path` read and parsed; a file that cannot be read is an error naming it.
    static func load<T>(_ path: String, _ parse: (String, String) throws(ProfileLoadError) -> T) -> Result<T, ProfileLoadError> {
        let text: String
        do { text = try TextFile.read(path) } catch {
            return .failure(ProfileLoadError(issues: [ProfileIssue(file: path, line: 1, column: 1, path: "", reason: "\(error)")]))
        }
        do { return .success(try parse(text, path)) } catch { return .failure(error) }
    }
}

extension Array where Element == (key: String, node: Node) {
    /// The value of `key` in a mapping's pairs (`YAMLReader.mapping`), found without copying the
    /// pairs before it (profile loading looks up dozens of keys per field).
    func node(_ key: String) -> Node? {
        guard let i = firstIndex(where: { $0.key == key }) else { return nil }
        return self[i].node
    }
}
