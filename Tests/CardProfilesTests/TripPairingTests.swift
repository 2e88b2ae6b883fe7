import Foundation
import Testing

@testable import CardProfiles
@testable import ProfileLanguage

/// `trips.pair`: in time order, a tap-on and the tap-off after it are one trip when they agree
/// on `same` and are `within` minutes of each other; the others stay as they are.
@Suite struct TripPairingTests {
    /// Records: kind (1 on, 2 off), route, minutes after 2024-03-05 00:00 (2 bytes), amount (signed cents).
    static let profile = """
        zone: "+00:00"
        steps:
          - read-records: { sfi: 4 }
            as: log
        trips:
          from: log
          order: by-time
          pair: { first: [on], second: [off], same: [route], within: 90 }
          fields:
            kind: { offset: 0, length: 1, map: { 1: on, 2: off } }
            route: { offset: 1, length: 1 }
            time: { offset: 2, length: 2, type: seconds, scale: 60, epoch: 2024-03-05 }
            station: { offset: 4, length: 1 }
            amount: { offset: 5, length: 2, type: int }

        """

    @Test func aTapOnAndItsTapOffAreOneTrip() throws {
        let p = try load(profileYAML(Self.profile))
        // 08:00 on route 7 (−300) and 08:30 off route 7 (+50): one trip of −250 from 1 to 2.
        // 09:00 on route 7, 09:10 off route 8: another route, two rows. 12:00 on route 7 and
        // 14:00 off route 7: two hours apart, two rows.
        let records = [
            "01 07 01 E0 01 FE D4", "02 07 01 FE 02 00 32", "01 07 02 1C 03 FF 38", "02 08 02 26 04 00 00",
            "01 07 02 D0 05 FF 9C", "02 07 03 48 06 00 00",
        ]
        var exchanges = records.enumerated().map { ("00 B2 0\($0.offset + 1) 24 00", $0.element + " 90 00") }
        exchanges.append(("00 B2 07 24 00", "6A 83"))
        let report = try #require(try run(p, exchanges).report)
        #expect(report.trips.count == 5)
        let trip = try #require(report.trips.last)
        #expect(trip.amount?.minorUnits == -250 && trip["station"] == .int(1) && trip["endStation"] == .int(2))
        #expect(trip["endTime"]?.description == "2024-03-05T08:30:00+00:00")
        #expect(report.trips.dropLast().allSatisfy { $0["endTime"] == nil })
    }

    @Test func pairingIsChecked() {
        let base = Self.profile.replacingOccurrences(of: "  order: by-time\n", with: "")
        expectRefused(profileYAML(base), because: "order: by-time")
        expectRefused(profileYAML(Self.profile.replacingOccurrences(of: "same: [route]", with: "same: [line]")), because: "'line'")
        expectRefused(profileYAML(Self.profile.replacingOccurrences(of: "first: [on], ", with: "")), because: "first")
    }
}
