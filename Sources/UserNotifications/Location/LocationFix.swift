import CoreLocation

/// One position reported by the location service: a coordinate and the radius of its
/// uncertainty. Built only from finite, in-range values (``init(latitude:longitude:accuracy:)``
/// returns `nil` otherwise), so everything downstream can trust it.
package struct LocationFix: Hashable, Sendable {
    package let latitude: Double
    package let longitude: Double
    /// The radius of uncertainty, in metres, zero or more.
    package let accuracy: Double

    /// The largest accuracy radius taken, in metres (GeoClue reports country-level accuracy as
    /// a few hundred kilometres; beyond half the earth's circumference a radius means nothing).
    package static let maximumAccuracy: Double = 20_037_508

    /// A fix, or `nil` when the latitude is outside -90...90, the longitude outside
    /// -180...180, the accuracy negative or above ``maximumAccuracy``, or any value not finite.
    package init?(latitude: Double, longitude: Double, accuracy: Double) {
        guard CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: latitude, longitude: longitude)),
              accuracy.isFinite, accuracy >= 0, accuracy <= Self.maximumAccuracy else { return nil }
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
    }

    /// The fix as a coordinate.
    package var coordinate: CLLocationCoordinate2D { CLLocationCoordinate2D(latitude: latitude, longitude: longitude) }
}
