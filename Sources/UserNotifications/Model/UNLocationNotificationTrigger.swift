import CoreLocation

/// Delivers a notification when the device enters or leaves a region.
///
/// As Apple declares it: `init(region:repeats:)` with a CoreLocation `CLRegion` (this
/// package's minimal `CoreLocation` module) and a `region` property. With `repeats` false the
/// request fires once, at the first qualifying crossing, and leaves the pending list; with
/// `repeats` true it fires at every qualifying crossing and stays pending.
///
/// **Linux divergences:**
/// - The device's position comes from GeoClue2 on the system bus, watched by the per-user
///   agent when the app's notifications go through it, else by the app's own process while it
///   runs. Adding a request fails with ``LocationServiceError`` when GeoClue is absent or
///   denies the app (Apple has no `UNError` code for this).
/// - Only a `CLCircularRegion` with a valid centre and a radius above zero can be added; any
///   other region fails `add` with a ``NotificationTriggerError``.
/// - The first position after the request is added decides whether the device is inside or
///   outside; that first decision delivers nothing (only a crossing does). The accuracy of each
///   position counts: the device is inside only when its whole accuracy circle is, outside only
///   when the whole circle is outside, so noise at the border does not fire again and again.
/// - `region` hands out a copy: the trigger keeps the region it was made with unchanged, so
///   changing the region after making the trigger changes nothing.
open class UNLocationNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    private let storedRegion: LocationTriggerRegion

    /// The region to watch (a copy of the one the trigger was made with).
    open var region: CLRegion { storedRegion.makeRegion() }

    /// The region's stored values.
    package var regionRecord: LocationTriggerRegion { storedRegion }

    init(locationRegion: LocationTriggerRegion, repeats: Bool) {
        storedRegion = locationRegion
        super.init(repeats: repeats)
    }

    /// Creates a trigger for entering or leaving `region` (as its `notifyOnEntry` and
    /// `notifyOnExit` say), once or every time.
    public convenience init(region: CLRegion, repeats: Bool) {
        self.init(locationRegion: LocationTriggerRegion(region), repeats: repeats)
    }

    // MARK: - What the center uses

    override func validate() throws(NotificationTriggerError) {
        if let problem = storedRegion.problem { throw problem }
    }

    // MARK: - NSObject, NSSecureCoding

    open override func isEqual(_ object: Any?) -> Bool {
        guard super.isEqual(object), let other = object as? UNLocationNotificationTrigger else { return false }
        return other.storedRegion == storedRegion
    }

    open override var hash: Int { storedRegion.hashValue }

    public required init?(coder: NSCoder) {
        let snapshot = coder.decodeSnapshot(NotificationTriggerSnapshot.self)
        guard case .location(let region, let repeats)? = snapshot else { return nil }
        storedRegion = region
        super.init(repeats: repeats)
    }
}
