// swift-tools-version:6.0
// cardscan — reads smart cards and transit cards on Linux. Licensed under the Apache License,
// Version 2.0 (LICENSE); third-party facts and data: NOTICE.
import PackageDescription

let package = Package(
    name: "cardscan",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "APDU", targets: ["APDU"]),
        .library(name: "FeliCaCommands", targets: ["FeliCaCommands"]),
        .library(name: "NDEF", targets: ["NDEF"]),
        .library(name: "DESFireCommands", targets: ["DESFireCommands"]),
        .library(name: "MIFARECommands", targets: ["MIFARECommands"]),
        .library(name: "ProfileLanguage", targets: ["ProfileLanguage"]),
        .library(name: "CardReports", targets: ["CardReports"]),
        .library(name: "ReadEngine", targets: ["ReadEngine"]),
        .library(name: "CardExploration", targets: ["CardExploration"]),
        .library(name: "CardProfiles", targets: ["CardProfiles"]),
        .library(name: "PCSCTransport", targets: ["PCSCTransport"]),
        .library(name: "NFCTransport", targets: ["NFCTransport"]),
        .library(name: "CardReading", targets: ["CardReading"]),
        .library(name: "CardDumps", targets: ["CardDumps"]),
        .library(name: "CardSimulator", targets: ["CardSimulator"]),
        .library(name: "CardHistory", targets: ["CardHistory"]),
        .executable(name: "cardscan", targets: ["cardscan"]),
        .executable(name: "cardsim", targets: ["cardsim"]),
        .executable(name: "read-card-example", targets: ["read-card-example"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // The history of the cards read (`--save`, `cardscan history`): SQLite.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // `cardscan serve`: the history's web page.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // make docs: DocC for the library modules (docs/library.md).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Pure Swift: bytes, APDUs, status words, BER-TLV, ATR, channels, transcripts. No I/O.
        .target(name: "APDU"),
        // Pure Swift: FeliCa frames (JIS X 6319-4). No I/O.
        .target(name: "FeliCaCommands", dependencies: ["APDU"]),
        // Pure Swift: MIFARE DESFire native commands wrapped in ISO 7816-4 APDUs, their statuses,
        // version and file settings, and AF chaining over any channel. No I/O of its own.
        .target(name: "DESFireCommands", dependencies: ["APDU"]),
        // Pure Swift: NDEF messages, the NFC Forum tag mappings and their read/write procedures
        // over any channel. No I/O of its own.
        .target(name: "NDEF", dependencies: ["APDU", "FeliCaCommands", "MIFARECommands"]),
        .systemLibrary(
            name: "CPCSCLite", pkgConfig: "libpcsclite",
            providers: [.apt(["libpcsclite-dev"])]),
        .target(name: "PCSCTransport", dependencies: ["APDU", "FeliCaCommands", "CPCSCLite"]),
        .systemLibrary(
            name: "CLibNFC", pkgConfig: "libnfc",
            providers: [.apt(["libnfc-dev", "libusb-dev"])]),
        .target(name: "NFCTransport", dependencies: ["APDU", "FeliCaCommands", "CLibNFC"]),
        // The built-in profiles, layouts, tables and command catalogue, as resources: SwiftPM copies
        // them beside every program that links them (docs/library.md §Where the profiles come from).
        .target(name: "BuiltInProfiles", resources: [.copy("profiles")]),
        // The profile language: the model, parsing each section with a cursor, validation, and
        // the files it reads (profiles, layouts, tables, the command catalogue, trust).
        .target(name: "ProfileLanguage", dependencies: ["APDU", "FeliCaCommands", "DESFireCommands", "BuiltInProfiles", "Yams"]),
        // From a read's answers to the typed report: field decoding, money, trips, contracts,
        // what is hidden and where it came from.
        .target(name: "CardReports", dependencies: ["APDU", "ProfileLanguage"]),
        // Reads a card with a profile: the session, one step runner per technology, detection.
        .target(
            name: "ReadEngine",
            dependencies: ["APDU", "FeliCaCommands", "DESFireCommands", "MIFARECommands", "NDEF", "ProfileLanguage", "CardReports"]),
        // What a card holds beyond a profile: ISO 7816 file dumps, DESFire applications, FeliCa surveys.
        .target(
            name: "CardExploration",
            dependencies: ["APDU", "FeliCaCommands", "DESFireCommands", "MIFARECommands", "ProfileLanguage", "CardReports"]),
        // Other tools' card dumps (Metrodroid, Proxmark3, Flipper, MCT, raw images) to and from cardscan's images.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "MIFARECommands", dependencies: ["APDU"]),
        .target(name: "CardDumps", dependencies: ["APDU", "FeliCaCommands", "DESFireCommands", "MIFARECommands", "CardReports", "CZlib"]),
        // The cards read, kept when asked: every read, and each trip once across reads (SQLite, GRDB).
        .target(
            name: "CardHistory", dependencies: ["APDU", "ProfileLanguage", "CardReports", .product(name: "GRDB", package: "GRDB.swift")]),
        // One import for all of them (the library's front door).
        .target(name: "CardProfiles", dependencies: ["ProfileLanguage", "CardReports", "ReadEngine", "CardExploration"]),
        // What other Swift programs use to read a card: detectors per transport, one entry point.
        .target(
            name: "CardReading",
            dependencies: ["APDU", "FeliCaCommands", "NDEF", "MIFARECommands", "CardProfiles", "PCSCTransport", "NFCTransport"]
        ),
        .executableTarget(
            name: "cardscan",
            dependencies: [
                "APDU", "FeliCaCommands", "DESFireCommands", "BuiltInProfiles", "CardProfiles", "PCSCTransport", "NFCTransport", "NDEF",
                "CardReading", "CardSimulator", "CardDumps", "CardHistory",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Hummingbird", package: "hummingbird"),
            ],
            plugins: ["BuildInfo"]),
        // The lab's virtual cards and readers (vpcd's wire protocol, an emulated PN532); cardsim is its command line.
        .target(name: "CardSimulator", dependencies: ["APDU", "FeliCaCommands", "DESFireCommands", "MIFARECommands"]),
        .executableTarget(
            name: "cardsim",
            dependencies: ["APDU", "CardSimulator", "CardDumps", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            plugins: ["BuildInfo"]),
        // The version and commit `--version` prints (scripts/build-info.sh, before every build).
        .plugin(name: "BuildInfo", capability: .buildTool()),
        .executableTarget(
            name: "CardscanBench",
            dependencies: ["APDU", "CardProfiles", "CardReading", "PCSCTransport", .product(name: "Yams", package: "Yams")]),
        // The library walk-through (docs/library.md): read whatever card is on the first reader.
        .executableTarget(name: "read-card-example", dependencies: ["CardReading"], path: "Examples/read-card"),
        .testTarget(
            name: "APDUTests",
            dependencies: [
                "APDU", .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(name: "FeliCaCommandsTests", dependencies: ["APDU", "FeliCaCommands"]),
        .testTarget(
            name: "DESFireCommandsTests",
            dependencies: ["APDU", "DESFireCommands", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "NDEFTests", dependencies: ["APDU", "FeliCaCommands", "NDEF"]),
        .testTarget(name: "CardSimulatorTests", dependencies: ["APDU", "CardSimulator"]),
        .testTarget(name: "CardDumpsTests", dependencies: ["APDU", "DESFireCommands", "FeliCaCommands", "MIFARECommands", "CardDumps"]),
        .testTarget(name: "CardHistoryTests", dependencies: ["APDU", "ProfileLanguage", "CardReports", "CardHistory"]),
        .testTarget(
            name: "CardProfilesTests",
            dependencies: [
                "APDU", "FeliCaCommands", "DESFireCommands", "ProfileLanguage", "CardReports", "ReadEngine", "CardExploration",
                "CardProfiles",
                "CardReading", "CardSimulator",
            ]),
        // Starts and stops the PC/SC lab (pcscd + vpcd + cardsim) for the tests that need it.
        .target(name: "LabSupport", dependencies: ["APDU", "PCSCTransport"], path: "Tests/LabSupport", exclude: ["rival_client.py"]),
        .testTarget(
            name: "PCSCTransportTests",
            dependencies: ["APDU", "FeliCaCommands", "CardProfiles", "CardReading", "PCSCTransport", "LabSupport"]),
        .testTarget(
            name: "NFCTransportTests",
            dependencies: ["APDU", "FeliCaCommands", "NDEF", "CardProfiles", "CardReading", "NFCTransport", "LabSupport"]),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "APDU", "FeliCaCommands", "NDEF", "CardProfiles", "CardReading", "CardSimulator", "PCSCTransport", "NFCTransport",
                "LabSupport", "cardscan",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
