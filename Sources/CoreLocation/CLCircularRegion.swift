import Foundation

/// A circle on the earth: a centre and a radius.
///
/// As Apple declares it: a ``CLRegion`` subclass with ``center``, ``radius``,
/// ``init(center:radius:identifier:)`` and ``contains(_:)``. Part of this package's minimal
/// `CoreLocation` subset.
///
/// **Linux divergence:** ``contains(_:)`` measures the great-circle distance on a sphere
/// (the earth's mean radius), where Apple's measures on the ellipsoid: the two differ by at
/// most about 0.5 %. Apple clamps a radius above the location manager's maximum; there is no
/// such maximum here, and a notification trigger rejects a radius that is not finite and
/// positive when it is added.
open class CLCircularRegion: CLRegion {
    private let storedCenter: CLLocationCoordinate2D
    private let storedRadius: CLLocationDistance

    /// The centre of the circle.
    open var center: CLLocationCoordinate2D { storedCenter }

    /// The radius of the circle, in metres.
    open var radius: CLLocationDistance { storedRadius }

    /// A circle of `radius` metres around `center`, named `identifier`.
    public init(center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String) {
        storedCenter = center
        storedRadius = radius
        super.init(regionIdentifier: identifier)
    }

    /// Whether `coordinate` lies within the circle (its edge included).
    open func contains(_ coordinate: CLLocationCoordinate2D) -> Bool {
        GreatCircle.distance(center, coordinate) <= radius
    }

    // MARK: - NSObject, NSCopying, NSSecureCoding

    /// Whether `object` is a circle with the same values.
    open override func isEqual(_ object: Any?) -> Bool {
        guard super.isEqual(object), let other = object as? CLCircularRegion else { return false }
        return other.center.latitude == center.latitude && other.center.longitude == center.longitude
            && other.radius == radius
    }

    /// A hash consistent with ``isEqual(_:)``.
    open override var hash: Int { identifier.hashValue ^ radius.hashValue }

    /// A new circle with the same values.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = CLCircularRegion(center: center, radius: radius, identifier: identifier)
        copy.notifyOnEntry = notifyOnEntry
        copy.notifyOnExit = notifyOnExit
        return copy
    }

    /// `true`, as for Apple's class.
    public override class var supportsSecureCoding: Bool { true }

    /// Writes the values under their property names.
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(center.latitude, forKey: "latitude")
        coder.encode(center.longitude, forKey: "longitude")
        coder.encode(radius, forKey: "radius")
    }

    /// Reads what ``encode(with:)`` wrote; `nil` when the identifier is missing.
    public required init?(coder: NSCoder) {
        storedCenter = CLLocationCoordinate2D(latitude: coder.decodeDouble(forKey: "latitude"), longitude: coder.decodeDouble(forKey: "longitude"))
        storedRadius = coder.decodeDouble(forKey: "radius")
        super.init(coder: coder)
    }
}
