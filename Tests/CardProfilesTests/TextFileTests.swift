import CardProfiles
import Foundation
import Testing

/// `TextFile.files(under:endingIn:)`, the listing `cardscan test FOLDER` runs on.
@Suite struct TextFileListingTests {
    @Test func listsNestedFilesSortedAndFollowsFileLinksOnly() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-list-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fm = FileManager.default
        for folder in ["b", "a/deep", "c"] { try fm.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true) }
        for file in ["b/2.apdu", "a/deep/1.apdu", "a/0.apdu", "a/0.expected.json", "top.apdu", "c/x.apdu.bak"] {
            #expect(fm.createFile(atPath: root + "/" + file, contents: Data("x".utf8)))
        }
        try fm.createSymbolicLink(atPath: root + "/c/linked.apdu", withDestinationPath: root + "/top.apdu")
        try fm.createSymbolicLink(atPath: root + "/c/loop", withDestinationPath: root)  // a folder link: not entered
        try fm.createDirectory(atPath: root + "/folder.apdu", withIntermediateDirectories: true)  // a folder, not a transcript
        let files = try TextFile.files(under: root, endingIn: ".apdu")
        #expect(files == ["a/0.apdu", "a/deep/1.apdu", "b/2.apdu", "c/linked.apdu", "top.apdu"].map { root + "/" + $0 })
    }

    @Test func aMissingFolderIsAnError() {
        #expect(throws: FileError(path: "/nonexistent/cardscan", reason: .missing)) {
            try TextFile.files(under: "/nonexistent/cardscan", endingIn: ".apdu")
        }
    }
}
