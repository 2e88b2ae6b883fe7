import Foundation
import LabSupport
import Testing

/// The Opal lab card (scripts/desfire-lab-images.py): a DESFire card image served by cardsim
/// through the real pcscd (vpcd) and the real libnfc (the emulated PN532, ISO 14443-A).
@Suite struct DESFireLabTests {
    let opal = Lab.root + "/Tests/LabCards/opal-image.json"

    /// Worked out from the image script's values (docs/cards/opal.md decodes the file by hand).
    func expectOpal(_ r: (status: Int32, stdout: String, stderr: String)) {
        #expect(r.status == 0, "\(r.stderr)")
        for e in [
            #""profile": "opal""#, #""number": "3085220123456787""#, #""amount": -250,\#n    "currency": "AUD""#,
            #""weeklyTrips": 3"#, #""lastTransaction": "2024-03-05T08:35:00+11:00""#, #""lastMode": "bus""#,
            #""lastAction": "journey completed (distance)""#, #""transactions": 291"#,
        ] {
            #expect(r.stdout.contains(e), "\(e)\n\(r.stdout)")
        }
        #expect(!r.stdout.contains("\"warnings\""), "\(r.stdout)")
    }

    @Test func opalThroughPCSCTwiceInARow() throws {
        try Lab.exclusive {
            let card = try Lab.Card(opal)
            defer { card.stop() }
            // Twice without taking the card away: each read starts at the card level again.
            expectOpal(try Lab.cardscan(["scan", "--json", "--timeout", "5"]))
            expectOpal(try Lab.cardscan(["scan", "--json", "--timeout", "5"]))
            let r = try Lab.cardscan(["scan", "--profile", "opal", "--timeout", "5"])
            #expect(r.stdout.contains("-A$2.50") && r.stdout.contains("3 exchanges"), "\(r.stdout)")
        }
    }

    @Test func opalThroughLibnfc() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(opal)
            defer { pn532.stop() }
            let r = try Lab.cardscan(
                ["--device", pn532.connectionString, "--json", "-v", "--trace", "--timeout", "5"],
                environment: ["LIBNFC_AUTO_SCAN": "false"])
            expectOpal(r)
            #expect(r.stderr.contains("UID 04 11 22 33 44 55 66") || r.stderr.contains("04112233445566"), "\(r.stderr)")
            #expect(r.stderr.contains("< 91 00") && r.stderr.contains("DESFire: operation OK"), "\(r.stderr)")
        }
    }

    /// What a DESFire card refuses, as cardsim answers it: a file that needs a key (91 AE),
    /// a locked file list (91 AE), no such application (91 A0), a command that would change
    /// the card (91 AE) — and `cardscan apdu` refuses to send that one at all.
    @Test func refusalsAsACardGivesThem() throws {
        try Lab.exclusive {
            let card = try Lab.Card(opal)
            defer { card.stop() }
            let r = try Lab.cardscan([
                "apdu", "--timeout", "5", "90 5A 00 00 03 31 45 53 00", "90 BD 00 00 07 01 00 00 00 00 00 00 00",
                "90 F5 00 00 01 09 00", "90 5A 00 00 03 F2 10 30 00", "90 6F 00 00 00", "90 5A 00 00 03 AA BB CC 00",
                "90 60 00 00 00", "90 AF 00 00 00", "90 AF 00 00 00",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("< 91 AE"), "\(r.stdout)")  // file 1 needs a key; F21030's file list is locked
            #expect(r.stdout.contains("< 91 F0"), "\(r.stdout)")  // no file 9
            #expect(r.stdout.contains("< 91 A0"), "\(r.stdout)")  // no application AABBCC
            #expect(r.stdout.contains("< 04 11 22 33 44 55 66 BA 44 39 52 80 40 09 91 00"), "\(r.stdout)")  // GetVersion's third frame
            let debit = try Lab.cardscan(["apdu", "--timeout", "5", "90 DC 00 00 05 02 0A 00 00 00 00"])
            #expect(debit.status == 64 && debit.stderr.contains("it is Debit (DESFire), which changes the card"), "\(debit.stderr)")
        }
    }

    /// Clipper through pcscd and libnfc: values worked out from the image script's.
    @Test(arguments: Lab.Path.allCases) func clipper(through path: Lab.Path) throws {
        let r = try Lab.readLabCard("clipper-image.json", through: path)
        let problems = Lab.reportProblems(
            r, profile: "clipper",
            expected: [
                #""number": "1234567890""#, #""validUntil": "2030-01-01""#, #""amount": 1075,\#n    "currency": "USD""#,
                #""time": "2024-03-05T08:12:30-08:00""#, #""amount": -420"#, #""from": 25"#, #""to": 33"#, #""route": 51"#,
                #""vehicle": 1042"#, #""transport": "0062""#,
                // Refills (file 4) among the trips, by time: US$50.00 on 2024-03-01 at agency 0x2CF.
                #""time": "2024-03-01T12:00:00-08:00",\#n      "amount": 5000,\#n      "agency": 719,\#n      "kind": "top-up""#,
                #""machine": "00ABCDEF""#,
            ])
        #expect(problems.isEmpty, "\(path): \(problems.joined(separator: "\n"))")
        #expect(r.stdout.components(separatedBy: "\"time\"").count == 6, "\(r.stdout)")  // three trips, two refills: empty slots skipped
    }

    /// ORCA: two applications (3010F2 and FFFFFF), a cyclic record file split by its record size,
    /// a trip's amount from the balances it left.
    @Test(arguments: Lab.Path.allCases) func orca(through path: Lab.Path) throws {
        let problems = Lab.reportProblems(
            try Lab.readLabCard("orca-image.json", through: path), profile: "orca",
            expected: [
                #""number": "12345678""#, #""amount": 4350,\#n    "currency": "USD""#, #""time": "2024-03-05T08:02:00-08:00""#,
                // The top-up between the trips: the next trip's amount is still its fare, not +17.25.
                #""balanceAfter": 4350,\#n      "amount": -275"#, #""amount": -300"#, #""coach": 4321"#, #""balanceAfter": 2925"#,
                #""time": "2024-03-05T07:30:00-08:00",\#n      "balanceAfter": 4625,\#n      "amount": 2000"#, #""kind": "top-up""#,
            ])
        #expect(problems.isEmpty, "\(path): \(problems.joined(separator: "\n"))")
    }

    /// MagnaCarta's application is missing from a locked list: detection and the dump find it by
    /// selecting it.
    @Test(arguments: Lab.Path.allCases) func magnaCartaIsFoundThoughHidden(through path: Lab.Path) throws {
        let problems = Lab.reportProblems(
            try Lab.readLabCard("magnacarta-image.json", through: path), profile: "magnacarta",
            expected: [#""amount": 1999,\#n    "currency": "EUR""#])
        #expect(problems.isEmpty, "\(path): \(problems.joined(separator: "\n"))")
    }

    /// HSL version 2: the select tries 1420EF first; EN 1545 log records (days since 1997 and
    /// minutes, Helsinki time) from a cyclic record file; a 20-bit balance.
    @Test(arguments: Lab.Path.allCases) func hsl(through path: Lab.Path) throws {
        let problems = Lab.reportProblems(
            try Lab.readLabCard("hsl-image.json", through: path), profile: "hsl",
            expected: [
                #""number": "924620001234567891""#, #""amount": 1230,\#n    "currency": "EUR""#,
                #""time": "2024-03-05T07:58:00+02:00""#, #""transferUntil": "2024-03-05T09:18:00+02:00""#, #""amount": -295"#,
                #""paidWith": "value ticket""#,
                // The purse file's last refill, a top-up among the trips.
                #""time": "2024-03-01T12:00:00+02:00",\#n      "amount": 2000,\#n      "kind": "top-up""#,
                // A period pass (zones B-C: area type 2, 001 010) and a 90-minute value ticket (A-C).
                #""name": "period pass",\#n      "product": 255,\#n      "zones": "BC""#, #""validUntil": "2024-03-30""#,
                #""name": "value ticket""#, #""zones": "ABC""#, #""validUntil": "2024-03-05T09:28:00+02:00""#, #""price": 295"#,
            ])
        #expect(problems.isEmpty, "\(path): \(problems.joined(separator: "\n"))")
        let v1 = Lab.reportProblems(
            try Lab.readLabCard("hsl-v1-image.json", through: path), profile: "hsl-v1",
            expected: [
                #""application": "1120EF""#, #""product": 18,\#n      "area": "Helsinki""#, #""area": "Espoo""#, #""price": 320"#,
                #""validUntil": "2024-03-05T09:18:00+02:00""#,
            ])
        #expect(v1.isEmpty, "\(path): \(v1.joined(separator: "\n"))")
        let waltti = Lab.reportProblems(
            try Lab.readLabCard("waltti-image.json", through: path), profile: "waltti",
            expected: [
                #""name": "Waltti""#, #""application": "0010AB""#, #""amount": -295"#, #""region": 229,\#n      "zone": 2"#,
                #""price": 330"#,
            ])
        #expect(waltti.isEmpty, "\(path): \(waltti.joined(separator: "\n"))")
    }

    /// The cards that give away little more than a number, each with what its report must hold
    /// (worked out from the image script's values; docs/cards/desfire-serial-only.md) — the
    /// number as the operator prints it and the note that nothing else is readable.
    static let serialOnly: [(image: String, profile: String, expected: [String])] = [
        ("myki-image.json", "myki", [#""number": "308425123456780""#]),
        ("istanbulkart-image.json", "istanbulkart", [#""number": "0401 2345 6789 0123""#, #""uid": "04112233445566""#]),
        ("at-hop-image.json", "at-hop", [#""number": "7824 6702 0012 3456 789""#]),
        ("nol-image.json", "nol", [#""number": "123 456 7890""#, #""cardType": "Silver""#]),
        (
            "holo-image.json", "holo",
            [#""number": "31059300 1 ***** *1560""#, #""lastTransaction": "2024-03-05T08:30:00-10:00""#, "back office"]
        ),
        ("hop-fastpass-image.json", "hop-fastpass", [#""number": "01-001-12345678-RA""#, #""issued": "2023-06-15T01:09:36-07:00""#]),
        ("presto-image.json", "presto", [#""number": "312401 1234 5678 005""#]),
        ("tpf-image.json", "tpf", [#""number": "66554433221104""#]),
        (
            "nortic-image.json", "nortic",
            [
                #""name": "t:card""#, #""number": "12345678""#, #""owner": "AtB""#, #""retailer": "Ruter""#, #""country": "Norway""#,
                #""validUntil": "2027-05-19""#,
            ]
        ),
        ("nextfare-desfire-image.json", "nextfare-desfire", [#""number": "0164 0188 3858 6676 5820""#]),
        (
            "intercard-image.json", "intercard",
            // UID 04 91 92 93 94 95 96 read little-endian; 12345 and 3500 tenths of a cent.
            [#""number": "42385711870152964""#, #""amount": 1234,\#n    "currency": "EUR""#, #""lastTransaction": 350"#]
        ),
    ]

    @Test(arguments: serialOnly.indices, Lab.Path.allCases) func serialOnlyCards(_ i: Int, through path: Lab.Path) throws {
        let card = Self.serialOnly[i]
        var expected = card.expected + [#""notes": ["#]
        if !["intercard", "holo", "hop-fastpass"].contains(card.profile) { expected.append("without the operator's keys") }
        let problems = Lab.reportProblems(try Lab.readLabCard(card.image, through: path), profile: card.profile, expected: expected)
        #expect(problems.isEmpty, "\(card.image) \(path): \(problems.joined(separator: "\n"))")
    }

    /// Adelaide and Hafilat: EN 1545 records in DESFire files — one event per log file (read
    /// with `files:`), contract type 46's 17-element data bitmap, Hafilat's 29-element event
    /// bitmap, the number from the UID. Values from the image script's named values.
    @Test(arguments: Lab.Path.allCases) func intercodeOnDESFire(through path: Lab.Path) throws {
        let adelaide = Lab.reportProblems(
            try Lab.readLabCard("adelaide-metrocard-image.json", through: path), profile: "adelaide-metrocard",
            expected: [
                #""number": "01-140 9895 9238 0497""#,  // UID bytes 1-6 little-endian = 140989592380497
                #""time": "2024-03-05T08:15:00+10:30""#, #""mode": "bus""#, #""amount": -415"#, #""route": "0123""#,
                #""station": 6699"#, #""rejected": "insufficient funds""#, #""time": "2024-03-03T12:00:00+10:30""#,  // the special event
                #""name": "Regular (stored value)""#, #""purchased": "2023-11-20""#, #""validUntil": "2024-03-28""#, #""zones": 3"#,
                #""remaining": 0"#, "needs the operator's key",
            ])
        #expect(adelaide.isEmpty, "\(path): \(adelaide.joined(separator: "\n"))")
        let hafilat = Lab.reportProblems(
            try Lab.readLabCard("hafilat-image.json", through: path), profile: "hafilat",
            expected: [
                #""number": "01-207371629900818""#, #""time": "2024-03-05T18:05:00+04:00""#, #""kind": "exit""#,
                #""vehicle": 4711"#, #""station": 2040"#, #""route": 101"#, #""name": "Regular (stored value)""#, #""network": "784001""#,
            ], absent: [#""amount""#])
        #expect(hafilat.isEmpty, "\(path): \(hafilat.joined(separator: "\n"))")
    }

    /// Tampere: the newer of two contract copies (sequence 00 after FF), three slots in it,
    /// little-endian trip records read through reverse-bytes, the holder hidden by default.
    @Test(arguments: Lab.Path.allCases) func tampere(through path: Lab.Path) throws {
        let problems = Lab.reportProblems(
            try Lab.readLabCard("tampere-image.json", through: path), profile: "tampere",
            expected: [
                #""number": "308430 1234 5678 9012""#, #""name": "stored value",\#n      "value": 1234"#,
                #""validFrom": "2024-03-01",\#n      "validUntil": "2024-03-30""#, #""time": "2024-03-05T08:15:00+02:00""#,
                #""amount": -210"#, #""line": 3"#, #""route": 301"#, #""kind": "top-up",\#n      "amount": 2000"#,
                #""hidden": ["#, #""card.holderName""#,
            ], absent: [#""value": 1500"#, "MEIK"])
        #expect(problems.isEmpty, "\(path): \(problems.joined(separator: "\n"))")
    }

    /// Each DESFire lab card, what its dump must say, and what it must not list.
    static let dumps: [(image: String, says: [String], absent: [String])] =
        [
            (
                "opal-image.json",
                [
                    "file 7  standard  read: free\n      4E 61 BC 00", "Not readable: application 314553, file 1: reading needs a key",
                    "F21030  (file list needs a key)",
                ], []
            ),
            (
                "opal-hidden-image.json", ["the list needs a key: the profiles' applications were probed", "file 7  standard  read: free"],
                ["F21030"]  // hidden, and no profile names it
            ),
            ("clipper-image.json", ["file 4  standard  read: free"], ["Not readable"]),
            ("orca-image.json", ["file 2  cyclic-record  read: free  record size 48"], []),
            (
                "magnacarta-image.json",
                ["the list needs a key: the profiles' applications were probed", "F080F3  (file list needs a key)"], []
            ),
            ("hsl-image.json", ["1420EF", "file 4  cyclic-record  read: free  record size 12"], []),
            ("intercard-image.json", ["file 1  value  read: free"], []),
            ("nextfare-desfire-image.json", ["Not readable: application 010000, file 0: reading needs a key"], []),
            ("adelaide-metrocard-image.json", ["B006F2", "file 16  standard  read: free"], []),
            ("hafilat-image.json", ["0107F2"], []),
            ("hsl-v1-image.json", ["1120EF"], []),
            ("waltti-image.json", ["0010AB"], []),
            ("tampere-image.json", ["0121EF", "file 3  cyclic-record  read: free  record size 16"], []),
        ] + serialOnly.filter { !["intercard", "nextfare-desfire"].contains($0.profile) }.map { ($0.image, [String](), [String]()) }

    /// `cardscan desfire --image` of each DESFire lab card gives an image that reads to the same
    /// report; with the application list locked the profiles' applications are probed.
    @Test(arguments: dumps.indices) func aDumpReadsToTheSameReport(_ i: Int) throws {
        let card = Self.dumps[i]
        let (before, dump, after) = try Lab.dumpRoundTrip(card.image, command: "desfire")
        #expect(before.status == 0 && dump.status == 0 && after.status == 0, "\(before.stderr)\(dump.stderr)\(after.stderr)")
        #expect(dump.stdout.contains("MIFARE DESFire EV1, UID 04 "), "\(dump.stdout)")
        for text in card.says { #expect(dump.stdout.contains(text), "\(card.image): \(text)\n\(dump.stdout)") }
        for text in card.absent { #expect(!dump.stdout.contains(text), "\(card.image): \(text)") }
        #expect(after.stdout == before.stdout)
    }
}
