// swift-tools-version:6.0
// A Swift package outside cardscan's own that depends on it, as docs/library.md tells another
// program to: it reads a transcript by detection among the built-in profiles, which come with
// the CardReading library as resources (`make example-consumer` builds and runs it).
import PackageDescription

let package = Package(
    name: "consumer",
    dependencies: [.package(name: "cardscan", path: "../..")],
    targets: [
        .executableTarget(
            name: "read-transcript",
            dependencies: [
                .product(name: "APDU", package: "cardscan"), .product(name: "CardProfiles", package: "cardscan"),
                .product(name: "CardReading", package: "cardscan"),
            ])
    ],
    swiftLanguageModes: [.v6]
)
