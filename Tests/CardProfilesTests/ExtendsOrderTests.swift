import Foundation
import Testing

@testable import CardProfiles
@testable import ProfileLanguage

/// Where a child's entries go among its parent's (docs/profile-format.md §Extending a profile):
/// the entries the child lists come in its order; each of the parent's it does not list follows
/// the parent's entry it followed, after the child's new entries listed right there.
@Suite struct ExtendsOrderTests {
    static let parent = """
        id: parent
        name: Parent
        currency: EUR
        steps:
          - read-binary: { sfi: 1, length: 4 }
            as: purse
        card:
          a: { from: purse, offset: 0, length: 1 }
          b: { from: purse, offset: 1, length: 1 }
          c: { from: purse, offset: 2, length: 1 }
          d: { from: purse, offset: 3, length: 1 }
        """

    func cardOrder(_ childCard: String) throws -> [String] {
        let dir = NSTemporaryDirectory() + "extends-order-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.parent.write(toFile: dir + "/parent.yaml", atomically: true, encoding: .utf8)
        let yaml = "id: child\nname: Child\nextends: parent\ncard:\n" + childCard
        return try ProfileLoader.load(yaml: yaml, file: dir + "/child.yaml").card.map(\.name)
    }

    @Test func aReplacedEntryKeepsItsPlace() throws {
        #expect(try cardOrder("  c: { from: purse, offset: 0, length: 2 }\n") == ["a", "b", "c", "d"])
    }

    @Test func theChildsListingOrdersWhatItLists() throws {
        // d and a listed, in that order; n is new; b and c follow a (and n, listed right after a).
        #expect(try cardOrder("  d: {}\n  a: {}\n  n: { from: purse, offset: 0, length: 4 }\n") == ["d", "a", "n", "b", "c"])
    }

    @Test func aRemovedEntryStillPlacesWhatFollowedIt() throws {
        // b removed: n, listed after it, comes before c, which followed b.
        #expect(try cardOrder("  b: { remove: true }\n  n: { from: purse, offset: 0, length: 4 }\n") == ["a", "n", "c", "d"])
    }

    @Test func newEntriesAloneGoAfterTheParentsAndBeforeTheEntryTheyPrecede() throws {
        #expect(try cardOrder("  n: { from: purse, offset: 0, length: 4 }\n") == ["a", "b", "c", "d", "n"])
        #expect(try cardOrder("  n: { from: purse, offset: 0, length: 4 }\n  c: {}\n") == ["a", "b", "n", "c", "d"])
    }
}
