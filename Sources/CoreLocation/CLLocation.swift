import Foundation

/// Where the device was at a moment, and how sure of it the location service was.
///
/// As Apple declares it: an `NSObject`, `NSCopying` and `NSSecureCoding`, immutable, with
/// ``coordinate``, ``altitude``, ``horizontalAccuracy``, ``verticalAccuracy``, ``timestamp``
/// and ``distance(from:)``. Part of this package's minimal `CoreLocation` subset: there is no
/// speed, course, floor or source information.
///
/// **Linux divergence:** ``distance(from:)`` is the great-circle distance on a sphere (the
/// earth's mean radius), where Apple's is measured on the ellipsoid: within about 0.5 %.
open class CLLocation: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    private let storedCoordinate: CLLocationCoordinate2D
    private let storedAltitude: CLLocationDistance
    private let storedHorizontalAccuracy: CLLocationAccuracy
    private let storedVerticalAccuracy: CLLocationAccuracy
    private let storedTimestamp: Date

    /// The latitude and longitude.
    open var coordinate: CLLocationCoordinate2D { storedCoordinate }

    /// The altitude above sea level, in metres.
    open var altitude: CLLocationDistance { storedAltitude }

    /// The radius of uncertainty of ``coordinate``, in metres; negative when it is not valid.
    open var horizontalAccuracy: CLLocationAccuracy { storedHorizontalAccuracy }

    /// The uncertainty of ``altitude``, in metres; negative when it is not valid.
    open var verticalAccuracy: CLLocationAccuracy { storedVerticalAccuracy }

    /// When the location was determined.
    open var timestamp: Date { storedTimestamp }

    /// A location at a coordinate, now, with no altitude (vertical accuracy -1) and a
    /// horizontal accuracy of 0, as Apple's initializer makes it.
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        storedCoordinate = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
        storedAltitude = 0
        storedHorizontalAccuracy = 0
        storedVerticalAccuracy = -1
        storedTimestamp = Date()
        super.init()
    }

    /// A location with every value given.
    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, timestamp: Date
    ) {
        storedCoordinate = coordinate
        storedAltitude = altitude
        storedHorizontalAccuracy = hAccuracy
        storedVerticalAccuracy = vAccuracy
        storedTimestamp = timestamp
        super.init()
    }

    /// The great-circle distance to `location`, in metres.
    open func distance(from location: CLLocation) -> CLLocationDistance {
        GreatCircle.distance(coordinate, location.coordinate)
    }

    // MARK: - NSObject, NSCopying, NSSecureCoding

    /// Whether `object` is a location with the same values.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CLLocation else { return false }
        return other.coordinate.latitude == coordinate.latitude && other.coordinate.longitude == coordinate.longitude
            && other.altitude == altitude && other.horizontalAccuracy == horizontalAccuracy
            && other.verticalAccuracy == verticalAccuracy && other.timestamp == timestamp
    }

    /// A hash consistent with ``isEqual(_:)``.
    open override var hash: Int { coordinate.latitude.hashValue ^ coordinate.longitude.hashValue ^ timestamp.hashValue }

    /// Locations are immutable, so a copy is the location itself.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// `true`, as for Apple's class.
    public class var supportsSecureCoding: Bool { true }

    /// Writes the values under their property names.
    open func encode(with coder: NSCoder) {
        coder.encode(coordinate.latitude, forKey: "latitude")
        coder.encode(coordinate.longitude, forKey: "longitude")
        coder.encode(altitude, forKey: "altitude")
        coder.encode(horizontalAccuracy, forKey: "horizontalAccuracy")
        coder.encode(verticalAccuracy, forKey: "verticalAccuracy")
        coder.encode(timestamp.timeIntervalSinceReferenceDate, forKey: "timestamp")
    }

    /// Reads what ``encode(with:)`` wrote.
    public required init?(coder: NSCoder) {
        storedCoordinate = CLLocationCoordinate2D(latitude: coder.decodeDouble(forKey: "latitude"), longitude: coder.decodeDouble(forKey: "longitude"))
        storedAltitude = coder.decodeDouble(forKey: "altitude")
        storedHorizontalAccuracy = coder.decodeDouble(forKey: "horizontalAccuracy")
        storedVerticalAccuracy = coder.decodeDouble(forKey: "verticalAccuracy")
        storedTimestamp = Date(timeIntervalSinceReferenceDate: coder.decodeDouble(forKey: "timestamp"))
        super.init()
    }
}
