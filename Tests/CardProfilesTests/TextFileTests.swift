import CardProfiles
import Foundation
import Synchronization
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

/// `TextFile.write`: every file cardscan writes (`--record`, `--image`, `test --update`).
@Suite struct TextFileWritingTests {
    let root: String = {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-write-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }()

    func leftovers() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasSuffix(".tmp") } }

    @Test func writesAndReplacesWholeFilesLeavingNothingBeside() throws {
        let path = root + "/t.apdu"
        try TextFile.write("first, longer text\n", to: path)
        try TextFile.write("second\n", to: path)
        #expect(try TextFile.read(path) == "second\n")
        #expect(try leftovers().isEmpty)
    }

    @Test func aFolderOrAMissingFolderIsRefusedBeforeAnythingIsWritten() throws {
        #expect(throws: FileError(path: root, reason: .unwritable("it is a folder (give a file name)"))) {
            try TextFile.write("x", to: root)
        }
        #expect(throws: FileError(path: root + "/none/t.apdu", reason: .unwritable("no such folder"))) {
            try TextFile.write("x", to: root + "/none/t.apdu")
        }
        #expect(throws: FileError(path: root + "/none/t.apdu", reason: .unwritable("no such folder"))) {
            try TextFile.checkWritable(root + "/none/t.apdu")
        }
        #expect(try leftovers().isEmpty)
    }

    /// A device is written in place, never replaced by a file (`--record /dev/stdout`); a full
    /// disk is the system's own reason, not a trap.
    @Test func devicesAreWrittenInPlaceAndAFullDiskIsNamed() throws {
        try TextFile.write("discarded\n", to: "/dev/null")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        #expect(throws: FileError(path: "/dev/full", reason: .unwritable("No space left on device"))) {
            try TextFile.write("x\n", to: "/dev/full")
        }
        // Through a link, the file it names is replaced and the link stays; a dangling link's
        // file is made.
        try TextFile.write("old, longer\n", to: root + "/target")
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: "target")
        try TextFile.write("new\n", to: root + "/link")
        #expect(try TextFile.read(root + "/target") == "new\n")
        #expect(lstat(root + "/link", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        try FileManager.default.createSymbolicLink(atPath: root + "/dangling", withDestinationPath: root + "/made")
        try TextFile.write("made\n", to: root + "/dangling")
        #expect(try TextFile.read(root + "/made") == "made\n")
        #expect(try leftovers().isEmpty)
    }

    /// A file replaced keeps its permissions (a private transcript stays private); one file
    /// written from several threads at once ends whole, with one writer's text.
    @Test func aReplacedFileKeepsItsModeAndConcurrentWritersDoNotCollide() throws {
        let path = root + "/private.apdu"
        try TextFile.write("first\n", to: path)
        #expect(chmod(path, 0o600) == 0)
        try TextFile.write("second\n", to: path, durable: false)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let texts = (0..<8).map { String(repeating: "\($0)", count: 10_000) + "\n" }
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            do { try TextFile.write(texts[i % 8], to: path) } catch { failures.withLock { $0 += 1 } }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(texts.contains(try TextFile.read(path)))
        #expect(try leftovers().isEmpty)
    }
}
