/// A latitude and longitude in the WGS 84 reference frame.
///
/// As Apple declares it: a plain structure with two `CLLocationDegrees` fields, an empty
/// initializer (0, 0) and a memberwise one. Like Apple's, it is not `Equatable`; use
/// ``CLLocationCoordinate2DIsValid(_:)`` to check the range. Part of this package's minimal
/// `CoreLocation` subset.
public struct CLLocationCoordinate2D: Sendable {
    /// Degrees north (positive) or south (negative) of the equator, -90 through 90.
    public var latitude: CLLocationDegrees

    /// Degrees east (positive) or west (negative) of the prime meridian, -180 through 180.
    public var longitude: CLLocationDegrees

    /// The coordinate (0, 0).
    public init() {
        latitude = 0
        longitude = 0
    }

    /// A coordinate with the given latitude and longitude; neither is checked
    /// (``CLLocationCoordinate2DIsValid(_:)`` does).
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
