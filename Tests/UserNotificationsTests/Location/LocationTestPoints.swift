import CoreLocation
@testable import UserNotifications

/// Points at known distances from a region's centre, for the location tests.
enum LocationTestPoints {
    /// Paris, the centre of the test regions.
    static let center = CLLocationCoordinate2D(latitude: 48.8566, longitude: 2.3522)

    /// Metres per degree of latitude on the sphere the distances are measured on.
    static let metresPerDegree = GreatCircle.earthRadius * .pi / 180

    /// The point `metres` due north of ``center``.
    static func north(_ metres: Double) -> CLLocationCoordinate2D {
        CLLocationCoordinate2D(latitude: center.latitude + metres / metresPerDegree, longitude: center.longitude)
    }

    /// A fix `metres` north of ``center`` with `accuracy`.
    static func fix(_ metres: Double, accuracy: Double = 10) -> LocationFix {
        let point = north(metres)
        guard let fix = LocationFix(latitude: point.latitude, longitude: point.longitude, accuracy: accuracy) else {
            preconditionFailure("a test point is always valid")
        }
        return fix
    }

    /// A circle of `radius` metres around ``center``.
    static func region(
        _ identifier: String = "paris", radius: Double = 500, onEntry: Bool = true, onExit: Bool = true
    ) -> LocationTriggerRegion {
        LocationTriggerRegion(
            latitude: center.latitude, longitude: center.longitude, radius: radius, identifier: identifier,
            notifyOnEntry: onEntry, notifyOnExit: onExit)
    }

    /// A request titled `identifier` that fires on crossing a circle of `radius` metres around
    /// Paris (``center``).
    static func request(
        _ identifier: String, radius: Double = 500, onEntry: Bool = true, onExit: Bool = false, repeats: Bool = false
    ) -> UNNotificationRequest {
        let region = CLCircularRegion(center: LocationTestPoints.center, radius: radius, identifier: identifier)
        region.notifyOnEntry = onEntry
        region.notifyOnExit = onExit
        let content = UNMutableNotificationContent()
        content.title = identifier
        return UNNotificationRequest(identifier: identifier, content: content, trigger: UNLocationNotificationTrigger(region: region, repeats: repeats))
    }
}
