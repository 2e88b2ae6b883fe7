// swift-tools-version:6.0
// libFuzzer targets for every parser of outside bytes (docs/reliability.md). Built with
// `swift build -c release --sanitize fuzzer --sanitize address -Xswiftc -sanitize=fuzzer,address` by scripts/fuzz.sh
// (`make fuzz`); one binary, the target chosen by FUZZ_TARGET.
import PackageDescription

let package = Package(
    name: "CardscanFuzz",
    dependencies: [.package(name: "cardscan", path: "..")],
    targets: [
        .executableTarget(
            name: "CardscanFuzz",
            dependencies: [
                .product(name: "APDU", package: "cardscan"), .product(name: "FeliCaCommands", package: "cardscan"),
                .product(name: "NDEF", package: "cardscan"), .product(name: "CardProfiles", package: "cardscan"),
                .product(name: "CardReading", package: "cardscan"), .product(name: "PCSCTransport", package: "cardscan"),
                .product(name: "DESFireCommands", package: "cardscan"), .product(name: "CardSimulator", package: "cardscan"),
                .product(name: "CardDumps", package: "cardscan"), .product(name: "MIFARECommands", package: "cardscan"),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])])
    ],
    swiftLanguageModes: [.v6]
)
