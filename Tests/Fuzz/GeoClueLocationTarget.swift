import DBus
import Foundation
import UserNotifications

extension FuzzTarget {
    /// A GeoClue2 Location object's properties as the center and the agent read them: the
    /// `Properties.GetAll` reply from the system bus (`DBusMessage(wire:)`), then
    /// `GeoClueLocationReading`, then the region monitor's classification of the fix. An
    /// accepted fix must be finite and in range, and the classification must not trap.
    static let geoClueLocation = FuzzTarget(
        name: "geoclue",
        seeds: geoClueSeeds,
        tokens: [
            Array("a{sv}".utf8), Array("Latitude".utf8), Array("Longitude".utf8), Array("Accuracy".utf8), [1, UInt8(ascii: "d"), 0],
            [1, UInt8(ascii: "s"), 0], [1, UInt8(ascii: "v"), 0],
            [0, 0, 0, 0, 0, 0, 0xF8, 0x7F], [0, 0, 0, 0, 0, 0, 0xF0, 0x7F], [0, 0, 0, 0, 0, 0, 0xF0, 0xFF],
            [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xEF, 0x7F], [0, 0, 0, 0, 0, 0x80, 0x66, 0x40], [0, 0, 0, 0, 0, 0x80, 0x56, 0xC0],
        ],
        nesting: [[1, UInt8(ascii: "v"), 0], Array("a".utf8), Array("(".utf8)],
        run: { bytes throws(FuzzFinding) in
            guard let message = try? DBusMessage(wire: bytes, fileDescriptors: []) else { return .refused }
            switch GeoClueLocationReading.fix(fromReplyBody: message.body) {
            case .failure:
                return .refused
            case .success(let fix):
                guard fix.latitude.isFinite, fix.longitude.isFinite, (-90...90).contains(fix.latitude),
                      (-180...180).contains(fix.longitude), fix.accuracy.isFinite, fix.accuracy >= 0 else {
                    throw FuzzFinding(description: "accepted an invalid position: \(fix)")
                }
                for radius in [1.0, 500, 40_000_000] {
                    let region = LocationTriggerRegion(latitude: -fix.latitude, longitude: 180 - abs(fix.longitude), radius: radius, identifier: "r")
                    _ = RegionMonitor<String>.classify(fix, in: region)
                }
                return .accepted
            }
        }
    )

    private static var geoClueSeeds: [[UInt8]] {
        let positions: [[(String, DBusValue)]] = [
            [("Latitude", .double(48.8566)), ("Longitude", .double(2.3522)), ("Accuracy", .double(25))],
            [
                ("Latitude", .double(-33.9)), ("Longitude", .double(151.2)), ("Accuracy", .double(300_000)),
                ("Altitude", .double(-.greatestFiniteMagnitude)), ("Speed", .double(-1)), ("Heading", .double(-1)),
                ("Description", .string("GeoIP")), ("Timestamp", .structure([.uint64(1_700_000_000), .uint64(5)])),
            ],
            [("Latitude", .double(90)), ("Longitude", .double(-180)), ("Accuracy", .double(0))],
        ]
        return positions.enumerated().map { index, properties in
            LibDBusMarshal.marshal(.reply(serial: UInt32(index + 2)), body: [.variantDictionary(properties)], serial: UInt32(index + 10)) ?? []
        }
    }
}
