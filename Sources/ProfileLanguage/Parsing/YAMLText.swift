import CYaml
import Yams

/// Profile data files as YAML text: their shape checked before a tree is built, then composed
/// with every scalar kept as text (the parsers type values themselves, through a ``Cursor``).
package enum YAMLText {
    /// The deepest nesting of collections a YAML data file may have (the built-in profiles
    /// reach 10). Yams hashes each mapping key whole while it builds the tree, so collections
    /// used as keys cost the square of their depth: 990 of them nested (libyaml allows 1,000)
    /// took 0.21 s to refuse in a release build, four such in one 8 kB file 1.15 s, and a
    /// fuzzed 951-byte profile 79 ms under AddressSanitizer (docs/reliability.md §Limits).
    package static let maximumDepth = 32

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
    package static func compose(_ text: String, file: String) throws(ProfileLoadError) -> Node? {
        if let (line, column, reason) = refusedShape(text) {
            throw ProfileLoadError(issues: [ProfileIssue(file: file, line: line, column: column, path: "", reason: reason)])
        }
        do { return try Yams.compose(yaml: text, .basic, .default, .utf8) } catch {
            throw ProfileLoadError(issues: [syntaxIssue(error, file: file)])
        }
    }

    /// The data file at `path` read and parsed; a file that cannot be read is an error naming it.
    package static func load<T>(_ path: String, _ parse: (String, String) throws(ProfileLoadError) -> T) -> Result<T, ProfileLoadError> {
        let text: String
        do { text = try TextFile.read(path) } catch {
            return .failure(ProfileLoadError(issues: [ProfileIssue(file: path, line: 1, column: 1, path: "", reason: "\(error)")]))
        }
        do { return .success(try parse(text, path)) } catch { return .failure(error) }
    }

    static func syntaxIssue(_ error: Error, file: String) -> ProfileIssue {
        if let y = error as? YamlError {
            switch y {
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _):
                return ProfileIssue(file: file, line: mark.line, column: mark.column, path: "", reason: "YAML syntax: \(problem)")
            default: break
            }
        }
        return ProfileIssue(file: file, line: 1, column: 1, path: "", reason: "YAML syntax: \(error)")
    }
}
