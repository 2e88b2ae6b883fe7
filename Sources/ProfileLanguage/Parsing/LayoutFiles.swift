import Foundation

/// Layouts shared by several profiles (`layout-files: [intercode]`, docs/profile-format.md
/// §Layout files): `layouts/NAME.yaml` beside the profile, else among the built-in profiles. A
/// file holds layouts and the types they use; its problems name its own lines. Each file is read
/// once per process, whichever profiles name it.
enum LayoutFiles {
    /// A layout file as read: its layouts, types and problems, or why it could not be read.
    enum Read {
        case read(layouts: [String: BitLayout], types: TypeCatalog, issues: [ProfileIssue])
        case unreadable(String)
    }

    static let cache = ProcessCache<String, Read>()

    /// The file named at `c` for a profile of `context`'s file, its problems added to `context`.
    static func load(_ c: Cursor, builtInTypes: TypeCatalog) -> (layouts: [String: BitLayout], types: TypeCatalog)? {
        guard let name = c.name() else { return nil }
        let paths = LookupTable.candidates(name, near: c.context.file, folder: "layouts")
        guard let file = paths.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            c.issue("no layout file '\(name)' (looked for \(paths.joined(separator: ", ")))")
            return nil
        }
        switch cache.get(file, { read(file, builtInTypes: builtInTypes) }) {
        case .unreadable(let message):
            c.issue(message)
            return nil
        case .read(let layouts, let types, let issues):
            c.context.issues += issues
            return (layouts, types)
        }
    }

    private static func read(_ file: String, builtInTypes: TypeCatalog) -> Read {
        let text: String
        do throws(FileError) { text = try TextFile.read(file) } catch { return .unreadable(error.message) }
        let context = ParseContext(file: file)
        var types = builtInTypes
        var layouts: [String: BitLayout] = [:]
        do {
            let root = Cursor(try YAMLText.compose(text, file: file), path: "", context: context)
            if let s = root.section(.layoutFile) {
                if s.has("types") { types.add(s["types"], file: file) }
                let parser = LayoutParser(types: types)
                let entries = parser.parse(s.required("layouts") ?? s["layouts"])
                layouts = LayoutParser.resolve(entries, over: [:])
            } else if !root.exists {
                context.issue(nil, "", "the file is empty")
            }
        } catch {
            context.issues += error.issues  // YAMLText.compose throws only ProfileLoadError
        }
        return .read(layouts: layouts, types: types, issues: context.issues)
    }
}
