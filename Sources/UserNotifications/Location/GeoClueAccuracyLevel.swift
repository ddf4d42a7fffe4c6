/// GeoClue2's `RequestedAccuracyLevel` values (GClueAccuracyLevel), and the one a set of
/// regions needs.
package enum GeoClueAccuracyLevel: UInt32, Sendable, Comparable {
    case country = 1
    case city = 4
    case neighborhood = 5
    case street = 6
    case exact = 8

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The level for watching regions whose smallest radius is `radius` metres: a source
    /// whose typical error is well under the radius (GPS below 100 m, Wi-Fi below 1 km, cell
    /// towers below 5 km, GeoIP below 50 km, country-level beyond).
    package static func forSmallestRadius(_ radius: Double) -> GeoClueAccuracyLevel {
        switch radius {
        case ..<100: .exact
        case ..<1_000: .street
        case ..<5_000: .neighborhood
        case ..<50_000: .city
        default: .country
        }
    }

    /// The `DistanceThreshold` for regions whose smallest radius is `radius` metres: a tenth
    /// of it (a move smaller than that cannot cross the hysteresis band), at least 1 m.
    package static func distanceThreshold(forSmallestRadius radius: Double) -> UInt32 {
        guard radius.isFinite else { return 1 }
        return UInt32(max(1, min(100_000, radius / 10)))
    }
}
