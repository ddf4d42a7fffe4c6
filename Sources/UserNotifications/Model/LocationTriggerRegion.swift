/// A circular geographic region. **Linux stand-in for CoreLocation's `CLCircularRegion`, not
/// Apple API**: CoreLocation does not exist on Linux, and ``UNLocationNotificationTrigger`` needs
/// a region to hold.
public struct LocationTriggerRegion: Hashable, Codable, Sendable {
    /// A name for the region, unique among the app's regions.
    public var identifier: String

    /// The latitude of the centre, in degrees.
    public var latitude: Double

    /// The longitude of the centre, in degrees.
    public var longitude: Double

    /// The radius, in metres.
    public var radius: Double

    /// Whether entering the region counts.
    public var notifyOnEntry: Bool

    /// Whether leaving the region counts.
    public var notifyOnExit: Bool

    /// Creates a region around a centre; both entering and leaving count unless told otherwise.
    public init(
        latitude: Double,
        longitude: Double,
        radius: Double,
        identifier: String,
        notifyOnEntry: Bool = true,
        notifyOnExit: Bool = true
    ) {
        self.identifier = identifier
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
    }
}
