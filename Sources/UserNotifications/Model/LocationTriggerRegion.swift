import CoreLocation

/// The stored form of a location trigger's region, in snapshots and state files. **Not Apple
/// API.** Apple's trigger holds a `CLRegion`; its fields are kept here as values so the record
/// is `Codable` and `Hashable`.
///
/// The fields and their names are those of the public stand-in this type replaced, so a
/// record written before still decodes. `circular` is new and optional: absent means a circle,
/// `false` a plain `CLRegion` (which Apple calls abstract and a trigger refuses when added).
package struct LocationTriggerRegion: Hashable, Codable, Sendable {
    package var identifier: String
    package var latitude: Double
    package var longitude: Double
    package var radius: Double
    package var notifyOnEntry: Bool
    package var notifyOnExit: Bool
    package var circular: Bool?

    package init(
        latitude: Double, longitude: Double, radius: Double, identifier: String,
        notifyOnEntry: Bool = true, notifyOnExit: Bool = true, circular: Bool? = nil
    ) {
        self.identifier = identifier
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.circular = circular
    }

    /// The stored form of `region`.
    package init(_ region: CLRegion) {
        if let circle = region as? CLCircularRegion {
            self.init(
                latitude: circle.center.latitude, longitude: circle.center.longitude, radius: circle.radius,
                identifier: circle.identifier, notifyOnEntry: circle.notifyOnEntry, notifyOnExit: circle.notifyOnExit)
        } else {
            self.init(
                latitude: 0, longitude: 0, radius: 0, identifier: region.identifier,
                notifyOnEntry: region.notifyOnEntry, notifyOnExit: region.notifyOnExit, circular: false)
        }
    }

    /// The centre as a coordinate.
    package var center: CLLocationCoordinate2D { CLLocationCoordinate2D(latitude: latitude, longitude: longitude) }

    /// A new region with these values.
    package func makeRegion() -> CLRegion {
        let region: CLRegion
        if circular == false {
            region = CLRegion()
        } else {
            region = CLCircularRegion(center: center, radius: radius, identifier: identifier)
        }
        region.notifyOnEntry = notifyOnEntry
        region.notifyOnExit = notifyOnExit
        return region
    }

    /// Why the region cannot be watched, or `nil` when it can: a circle with a valid centre and
    /// a finite radius above zero.
    package var problem: NotificationTriggerError? {
        guard circular != false else { return .locationRegionNotCircular }
        guard CLLocationCoordinate2DIsValid(center) else { return .locationCenterInvalid(latitude: latitude, longitude: longitude) }
        guard radius.isFinite, radius > 0 else { return .locationRadiusInvalid(radius) }
        return nil
    }
}
