import CardProfiles
import Foundation
import Testing

/// The `recorded` header's moment, written without an ICU formatter: it must be what
/// Foundation's `ISO8601DateFormatter` wrote before, to the second. (They part before
/// 1582-10-15, where ICU's calendar turns Julian and ISO 8601's stays Gregorian: there the
/// edges below are checked by hand.)
@Suite struct ISOMomentTests {
    @Test func agreesWithFoundationsFormatter() {
        let foundation = ISO8601DateFormatter()
        var samples = [0, 1, 59, 86_399, 86_400, -1, -86_400, -86_401, 951_782_400, 1_795_521_847, 4_102_444_799, -12_219_292_800]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // 1582-10-15 (-12,219,292,800) to 9999-12-31.
            samples.append(-12_219_292_800 + Int(seed >> 20) % (253_402_300_800 + 12_219_292_800))
        }
        for t in samples {
            let ours = CivilDate.isoMomentUTC(unixSeconds: t)
            #expect(ours == foundation.string(from: Date(timeIntervalSince1970: TimeInterval(t))), "\(t)")
        }
    }

    @Test func namesTheMomentsOfTheCalendarsEdges() {
        #expect(CivilDate.isoMomentUTC(unixSeconds: 0) == "1970-01-01T00:00:00Z")
        #expect(CivilDate.isoMomentUTC(unixSeconds: -1) == "1969-12-31T23:59:59Z")
        #expect(CivilDate.isoMomentUTC(unixSeconds: 951_868_799) == "2000-02-29T23:59:59Z")
        #expect(CivilDate.isoMomentUTC(unixSeconds: 253_402_300_799) == "9999-12-31T23:59:59Z")
        #expect(CivilDate.isoMomentUTC(unixSeconds: 253_402_300_800) == nil)
        #expect(CivilDate.isoMomentUTC(unixSeconds: -62_135_596_800) == "0001-01-01T00:00:00Z")
        #expect(CivilDate.isoMomentUTC(unixSeconds: -62_135_596_801) == nil)
        #expect(CivilDate.isoMomentUTC(unixSeconds: .min) == nil && CivilDate.isoMomentUTC(unixSeconds: .max) == nil)
    }
}
