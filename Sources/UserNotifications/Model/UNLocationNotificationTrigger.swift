/// Delivers a notification when the user enters or leaves a region.
///
/// **Present for source compatibility only on Linux.** Apple's trigger holds a CoreLocation
/// `CLRegion`; CoreLocation does not exist here, so the region is a ``LocationTriggerRegion``,
/// and adding a request with this trigger fails with
/// ``NotificationTriggerError/locationTriggersUnsupported``.
open class UNLocationNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    private let storedRegion: LocationTriggerRegion

    /// The region to watch.
    open var region: LocationTriggerRegion { storedRegion }

    init(locationRegion: LocationTriggerRegion, repeats: Bool) {
        storedRegion = locationRegion
        super.init(repeats: repeats)
    }

    /// Creates a trigger for entering or leaving `region`, once or every time.
    public convenience init(region: LocationTriggerRegion, repeats: Bool) {
        self.init(locationRegion: region, repeats: repeats)
    }

    // MARK: - What the center uses

    override func validate() throws(NotificationTriggerError) {
        throw .locationTriggersUnsupported
    }

    // MARK: - NSObject, NSSecureCoding

    open override func isEqual(_ object: Any?) -> Bool {
        guard super.isEqual(object), let other = object as? UNLocationNotificationTrigger else { return false }
        return other.region == region
    }

    open override var hash: Int { region.hashValue }

    public required convenience init?(coder: NSCoder) {
        let snapshot = coder.decodeSnapshot(NotificationTriggerSnapshot.self)
        guard case .location(let region, let repeats)? = snapshot else { return nil }
        self.init(locationRegion: region, repeats: repeats)
    }
}
