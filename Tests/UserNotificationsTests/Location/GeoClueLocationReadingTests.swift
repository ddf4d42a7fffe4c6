import DBus
import Testing
@testable import UserNotifications

@Suite("GeoClue Location properties: outside input, checked")
struct GeoClueLocationReadingTests {
    static func properties(_ latitude: Double, _ longitude: Double, _ accuracy: Double) -> [String: DBusValue] {
        ["Latitude": .double(latitude), "Longitude": .double(longitude), "Accuracy": .double(accuracy), "Description": .string("x")]
    }

    @Test func aValidPositionIsRead() throws {
        let fix = try GeoClueLocationReading.fix(from: Self.properties(48.85, 2.35, 30)).get()
        #expect(fix.latitude == 48.85 && fix.longitude == 2.35 && fix.accuracy == 30)
    }

    @Test("NaN, infinite and out-of-range values are refused", arguments: [
        (Double.nan, 2.0, 10.0), (48.0, .infinity, 10.0), (91.0, 2.0, 10.0), (-90.5, 2.0, 10.0), (48.0, 180.5, 10.0),
        (48.0, 2.0, -1.0), (48.0, 2.0, .nan), (48.0, 2.0, 1e12), (-.infinity, 2.0, 10.0),
    ])
    func outOfRange(latitude: Double, longitude: Double, accuracy: Double) {
        guard case .failure(.outOfRange) = GeoClueLocationReading.fix(from: Self.properties(latitude, longitude, accuracy)) else {
            Issue.record("(\(latitude), \(longitude)) ± \(accuracy) was accepted")
            return
        }
    }

    @Test func missingAndMistypedValuesAreRefused() {
        var properties = Self.properties(1, 2, 3)
        properties["Latitude"] = nil
        #expect(GeoClueLocationReading.fix(from: properties) == .failure(.missing("Latitude")))
        properties["Latitude"] = .string("48")
        #expect(GeoClueLocationReading.fix(from: properties) == .failure(.mistyped("Latitude", found: "s")))
        #expect(throws: GeoClueLocationReading.Problem.self) { try GeoClueLocationReading.fix(fromReplyBody: [.string("a{sv}")]).get() }
        #expect(throws: GeoClueLocationReading.Problem.self) { try GeoClueLocationReading.fix(fromReplyBody: []).get() }
    }
}
