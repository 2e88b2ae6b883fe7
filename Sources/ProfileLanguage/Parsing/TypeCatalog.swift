import Foundation

/// Named types (docs/profile-format.md §Types): the built-in ones (`profiles/types.yaml`: the
/// EN 1545 element types and others many cards share), a layout file's, a profile's own. A type
/// refines a base type or another named one; the name resolves to the settings of the whole
/// chain, so `en1545-date` is `days` from 1997-01-01 in 14 bits wherever it is used.
package struct TypeCatalog: Sendable {
    /// Resolved settings by name.
    package private(set) var types: [String: FieldSettings] = [:]
    /// Where each name was defined (file), for a second definition's message.
    private var origin: [String: String] = [:]

    package init() {}

    /// The settings of `name`, or nil when no type has it.
    package func settings(_ name: String) -> FieldSettings? { types[name] }

    /// `types:` of a file (a profile, a layout file, the built-in catalogue): each a section of
    /// decoding settings whose `type` is a base type or a type named before or in the same section.
    package mutating func add(_ c: Cursor, file: String) {
        guard let m = c.section(allowed: nil) else { return }
        var pending: [(name: String, settings: FieldSettings, typeName: String?, cursor: Cursor)] = []
        for (name, item) in m.entries {
            if FieldType(rawValue: name) != nil {
                item.issue("'\(name)' is a base type: a named type needs a name of its own")
                continue
            }
            if let earlier = origin[name] {
                item.issue("type '\(name)' is already defined in \(earlier)")
                continue
            }
            guard let s = item.section(.type) else { continue }
            guard s.required("type", "the type it refines: a base type such as days, or another named type") != nil else { continue }
            let (settings, typeName) = FieldSettingsParser.parse(s, file: file)
            pending.append((name, settings, typeName, s["type"]))
            origin[name] = file
        }
        // Resolve in dependency order; what is left refers to an unknown type or a cycle.
        var progress = true
        while progress, !pending.isEmpty {
            progress = false
            pending.removeAll { p in
                guard let t = p.typeName else {
                    types[p.name] = p.settings
                    progress = true
                    return true
                }
                guard let base = types[t] else { return false }
                types[p.name] = p.settings.over(base)
                progress = true
                return true
            }
        }
        for p in pending {
            let names = pending.map(\.name)
            p.cursor.issue(
                names.contains(p.typeName ?? "")
                    ? "types '\(p.name)' and '\(p.typeName!)' refine each other in a cycle"
                    : "unknown type '\(p.typeName ?? "")' (\(Self.known(self)))")
            origin[p.name] = nil
        }
    }

    /// Adds `other`'s types (a layout file's) that this catalogue does not have.
    package mutating func merge(_ other: TypeCatalog) {
        for (name, settings) in other.types where types[name] == nil {
            types[name] = settings
            origin[name] = other.origin[name]
        }
    }

    /// The settings a `type:` gives (a base type or a named one), or why not.
    package func resolve(_ name: String?, base: FieldType?, at c: Cursor) -> FieldSettings? {
        if let base { return FieldSettings(type: base) }
        guard let name else { return nil }
        if let t = types[name] { return t }
        let near = Spelling.nearest(name, among: Array(types.keys) + FieldType.allCases.map(\.rawValue))
        c.issue("unknown type '\(name)'" + (near.map { ": did you mean '\($0)'?" } ?? " (\(Self.known(self)))"))
        return nil
    }

    static func known(_ catalog: TypeCatalog) -> String {
        "base types: \(FieldType.allCases.map(\.rawValue).joined(separator: ", ")); named: \(catalog.types.keys.sorted().joined(separator: ", "))"
    }

    // MARK: The built-in catalogue

    /// The type files among the built-in profiles (`types/*.yaml`), read once per process.
    package static let builtIn: Result<TypeCatalog, ProfileLoadError> = {
        guard let dir = ProfileRegistry.builtInDirectory() else { return .success(TypeCatalog()) }
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir + "/types")) ?? []).filter { $0.hasSuffix(".yaml") }.sorted()
        var catalog = TypeCatalog()
        for f in files {
            switch YAMLText.load(
                dir + "/types/" + f, { (text, file) throws(ProfileLoadError) in try parseFile(text, file: file, over: catalog) })
            {
            case .success(let c): catalog = c
            case .failure(let e): return .failure(e)
            }
        }
        return .success(catalog)
    }()

    /// A type file: `source` and `types`.
    package static func parseFile(
        _ text: String, file: String, over base: TypeCatalog = TypeCatalog()
    ) throws(ProfileLoadError) -> TypeCatalog {
        let context = ParseContext(file: file)
        let root = Cursor(try YAMLText.compose(text, file: file), path: "", context: context)
        var catalog = base
        if let s = root.section(.typesFile) {
            _ = s.required("source", "where the types' meanings come from")
            if let t = s.required("types") { catalog.add(t, file: file) }
        } else if !root.exists {
            context.issue(nil, "", "the file is empty")
        }
        if !context.issues.isEmpty { throw ProfileLoadError(issues: context.sortedIssues) }
        return catalog
    }
}
