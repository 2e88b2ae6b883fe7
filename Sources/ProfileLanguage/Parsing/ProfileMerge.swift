import APDU
import Foundation
import Yams

/// `extends: NAME` (docs/profile-format.md §Extending a profile): the profile is NAME's with the
/// entries it gives merged in — steps matched by `as`, fields, layouts, types and terminal values
/// by name, `trips`, `contracts` and `detect` key by key; an entry `{ remove: true }` takes the
/// parent's out; every other key replaces the parent's whole. `id` is never inherited. The merge
/// works on the YAML trees, and remembers which entries came from the parent, so a problem in
/// one names the parent file's line.
enum ProfileMerge {
    /// Top-level keys whose entries merge by name.
    static let byName: Set<String> = ["card", "let", "layouts", "types", "terminal"]
    /// Top-level keys merged key by key, and within them the keys merged by name.
    static let byKey: [String: Set<String>] = ["trips": ["fields"], "contracts": ["fields"], "detect": []]

    /// The merged tree of `child` (which has `extends`), or the child alone when the parent
    /// cannot be had (the problem is then in `context`).
    static func merge(_ child: Node.Mapping, extends at: Cursor, _ context: ParseContext, options: ProfileLoader.Options) -> Node {
        let own = Node.Mapping(child.filter { $0.key.string != "extends" }.map { ($0.key, $0.value) }, child.tag, child.style, child.mark)
        guard let parent = parent(at, context, options) else { return .mapping(own) }
        var out: [(Node, Node)] = []
        var given = Set<String>()
        for (k, v) in own {
            let key = k.string ?? ""
            given.insert(key)
            guard let theirs = parent.mapping[key] else {
                out.append((k, stripRemovals(v, key, context)))
                continue
            }
            out.append((k, mergeKey(key, mine: v, theirs: theirs, context: context, parentFile: parent.file)))
        }
        for (k, v) in parent.mapping where k.string != "id" && !given.contains(k.string ?? "") {
            out.append((k, v))
            context.origins.append((k.string ?? "", parent.file))
        }
        context.origins.sort { $0.path.count > $1.path.count }
        return .mapping(Node.Mapping(out, child.tag, child.style, child.mark))
    }

    private static func mergeKey(_ key: String, mine: Node, theirs: Node, context: ParseContext, parentFile: String) -> Node {
        if key == "steps", case .sequence(let m) = mine, case .sequence(let t) = theirs {
            return mergeSteps(m, t, context, parentFile)
        }
        if byName.contains(key), case .mapping(let m) = mine, case .mapping(let t) = theirs {
            return mergeNamed(m, t, path: key, context, parentFile)
        }
        if let inner = byKey[key], case .mapping(let m) = mine, case .mapping(let t) = theirs {
            var out: [(Node, Node)] = []
            var given = Set<String>()
            for (k, v) in m {
                let sub = k.string ?? ""
                given.insert(sub)
                if inner.contains(sub), case .mapping(let mm)? = Optional(v), case .mapping(let tt)? = t[sub] {
                    out.append((k, mergeNamed(mm, tt, path: "\(key).\(sub)", context, parentFile)))
                } else {
                    out.append((k, v))
                }
            }
            for (k, v) in t where !given.contains(k.string ?? "") {
                out.append((k, v))
                context.origins.append(("\(key).\(k.string ?? "")", parentFile))
            }
            return .mapping(Node.Mapping(out, m.tag, m.style, m.mark))
        }
        return mine
    }

    /// Entries by name (``place(parent:child:keep:context:path:)``): `{}` keeps the parent's.
    private static func mergeNamed(
        _ mine: Node.Mapping, _ theirs: Node.Mapping, path: String, _ context: ParseContext, _ parentFile: String
    )
        -> Node
    {
        func keep(_ n: Node) -> Bool { n.mapping?.isEmpty ?? false }
        let merged = place(
            parent: theirs.map { ($0.key.string ?? "", $0.key, $0.value) }, child: mine.map { ($0.key.string ?? "", $0.key, $0.value) },
            keep: keep, context: context, path: path)
        for e in merged where e.inherited { context.origins.append(("\(path).\(e.name)", parentFile)) }
        return .mapping(Node.Mapping(merged.map { ($0.key, $0.value) }, mine.tag, mine.style, mine.mark))
    }

    /// The parent's entries with the child's merged in. The entries the child lists come in its
    /// order: its own (new, or replacing the parent's of that name), and the parent's it keeps
    /// (`keep`: `{}`, a step's `{ as: X }`); `{ remove: true }` takes the parent's out. Each entry
    /// of the parent's the child does not list follows the parent's entry it followed — after the
    /// child's new entries listed right after that one, when the child lists it (a removed entry
    /// still places what followed it); the parent's first entry, unlisted, goes first. So a child
    /// that lists none of the parent's entries adds its own at the end.
    private static func place(
        parent: [(name: String, key: Node, value: Node)], child: [(name: String, key: Node, value: Node)], keep: (Node) -> Bool,
        context: ParseContext, path: String
    ) -> [(name: String, key: Node, value: Node, inherited: Bool)] {
        // A removed entry stays in place until the end: the parent's entries after it follow it.
        var out: [(name: String, key: Node, value: Node, inherited: Bool, removed: Bool)] = []
        for c in child {
            let theirs = parent.first { $0.name == c.name }
            if isRemoval(c.value) {
                if theirs == nil {
                    context.issue(c.key, path, "the parent has no \(path == "steps" ? "step" : "entry") '\(c.name)' to remove")
                } else {
                    out.append((c.name, c.key, c.value, false, true))
                }
            } else if let theirs, keep(c.value) {
                out.append((theirs.name, theirs.key, theirs.value, true, false))
            } else {
                out.append((c.name, c.key, c.value, false, false))
            }
        }
        let listed = Set(child.map(\.name)), parentNames = Set(parent.map(\.name))
        var before: Int?  // where the parent's entry before this one is in `out`
        var beforeListed = false  // and whether the child listed it
        for p in parent {
            if !listed.contains(p.name) {
                var at = before.map { $0 + 1 } ?? 0
                // After a predecessor the child lists come the child's new entries listed after it.
                while beforeListed, at < out.count, !parentNames.contains(out[at].name) { at += 1 }
                out.insert((p.name, p.key, p.value, true, false), at: at)
            }
            if let i = out.firstIndex(where: { $0.name == p.name }) {
                before = i
                beforeListed = listed.contains(p.name)
            }
        }
        return out.filter { !$0.removed }.map { ($0.name, $0.key, $0.value, $0.inherited) }
    }

    /// Steps by `as`: as named entries (``place(parent:child:keep:context:path:)``), `{ as: X }`
    /// alone keeping X where it is.
    private static func mergeSteps(_ mine: Node.Sequence, _ theirs: Node.Sequence, _ context: ParseContext, _ parentFile: String) -> Node {
        func entry(_ n: Node) -> (String, Node, Node) { (n["as"]?.string ?? "", n, n) }
        let merged = place(
            parent: theirs.map(entry), child: mine.map(entry), keep: { $0.mapping.map { $0.count == 1 } ?? false }, context: context,
            path: "steps")
        for (i, e) in merged.enumerated() where e.inherited { context.origins.append(("steps[\(i)]", parentFile)) }
        return .sequence(Node.Sequence(merged.map(\.value), mine.tag, mine.style, mine.mark))
    }

    /// `{ remove: true }` (a step's `as` beside it).
    private static func isRemoval(_ n: Node) -> Bool { ["true", "yes"].contains(n["remove"]?.string ?? "") }

    /// A child's entry with nothing to merge into: a removal there has nothing to remove.
    private static func stripRemovals(_ n: Node, _ key: String, _ context: ParseContext) -> Node {
        guard byName.contains(key) || key == "steps" else { return n }
        for item in n.sequence.map(Array.init) ?? n.mapping.map({ $0.map(\.value) }) ?? [] where isRemoval(item) {
            context.issue(item, key, "the parent has no '\(key)' to remove an entry from")
        }
        return n
    }

    /// The parent's tree and file; nil (with the problem) when it cannot be extended.
    private static func parent(
        _ at: Cursor, _ context: ParseContext, _ options: ProfileLoader.Options
    ) -> (mapping: Node.Mapping, file: String)? {
        guard let name = at.name() else { return nil }
        let candidates = LookupTable.candidates(name, near: context.file, folder: "")
        guard let file = candidates.first(where: { $0 != context.file && FileManager.default.fileExists(atPath: $0) }) else {
            at.issue("no profile '\(name)' to extend (looked for \(candidates.joined(separator: ", ")))")
            return nil
        }
        // Read and checked once per process and version of the file: six profiles extend City Union.
        let modified = (try? FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        // The depth is part of the key: a parent read two levels down may stop at the limit.
        switch parents.get(
            "\(file)\u{0}\(modified)\u{0}\(options.extendsDepth)", { readParent(name, file, context.commandPolicy, options) })
        {
        case .parent(let m): return (m, file)
        case .problem(let reason):
            at.issue(reason)
            return nil
        }
    }

    /// A parent profile's tree, or why it cannot be extended.
    private enum ParentRead {
        case parent(Node.Mapping)
        case problem(String)
    }

    private static let parents = ProcessCache<String, ParentRead>()

    private static func readParent(_ name: String, _ file: String, _ policy: CommandPolicy, _ options: ProfileLoader.Options) -> ParentRead
    {
        do {
            guard let node = try YAMLText.compose(try TextFile.read(file), file: file), case .mapping(let m) = node else {
                return .problem("'\(name)' (\(file)) is not a profile")
            }
            // The parent is checked as a profile of its own (without the trust check: a parent
            // that declares commands is refused here, trust being given per file).
            var o = options
            o.checkTrust = false
            let check = ParseContext(file: file)
            check.commandPolicy = policy
            var merged = m
            if let e = m["extends"] {
                // A parent that extends another (a lab copy of a family member): at most three levels.
                guard options.extendsDepth < 2 else { return .problem("'\(name)' extends profiles more than three levels deep") }
                var deeper = options
                deeper.extendsDepth += 1
                guard case .mapping(let whole) = merge(m, extends: Cursor(e, path: "extends", context: check), check, options: deeper)
                else {
                    return .problem("'\(name)' (\(file)) is not a profile")
                }
                merged = whole
            }
            let loaded = ProfileParser.parse(.mapping(merged), check, options: o)
            if let first = check.sortedIssues.first { return .problem("the profile it extends does not load: \(first)") }
            if !(loaded?.commands.isEmpty ?? true) {
                return .problem("'\(name)' declares commands of its own; a profile that does cannot be extended (trust is given per file)")
            }
            return .parent(merged)
        } catch let e as ProfileLoadError {
            return .problem("the profile it extends does not load: \(e.issues.first.map { "\($0)" } ?? "")")
        } catch {
            return .problem((error as? UserFacingError)?.message ?? "\(error)")
        }
    }
}
