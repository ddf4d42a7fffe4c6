/// Why a trigger cannot be scheduled. **Linux addition, not Apple API.**
///
/// Apple's SDK stops the process when a time-interval trigger is created with a bad interval.
/// Here the trigger is created as asked and `UNUserNotificationCenter.add(_:)` fails with this
/// error instead, so a bad value from configuration or user input cannot crash the app.
public enum NotificationTriggerError: Error, LocalizedError, Hashable, Sendable {
    /// The interval is zero or negative; it must be greater than 0.
    case timeIntervalNotPositive(TimeInterval)

    /// The interval is infinite or not a number.
    case timeIntervalNotFinite(TimeInterval)

    /// A repeating interval is shorter than Apple's minimum of 60 seconds.
    case repeatingTimeIntervalBelowMinimum(TimeInterval)

    /// The interval is longer than ``maximumTimeInterval`` (about 100 years). Apple states no
    /// upper bound; on Linux a request that far away cannot be honoured and is refused.
    case timeIntervalAboveMaximum(TimeInterval)

    /// A location trigger's region is not a `CLCircularRegion`: only circles can be watched.
    case locationRegionNotCircular

    /// A location trigger's centre is not a valid coordinate (`CLLocationCoordinate2DIsValid`).
    case locationCenterInvalid(latitude: Double, longitude: Double)

    /// A location trigger's radius is not a finite number of metres above zero.
    case locationRadiusInvalid(Double)

    /// The shortest interval Apple accepts for a repeating time-interval trigger.
    public static let minimumRepeatingTimeInterval: TimeInterval = 60

    /// The longest interval a time-interval trigger takes on Linux: 100 years of 365.25 days
    /// (3,155,760,000 seconds). Apple states none; this bound is far beyond any real use, and
    /// keeps every date the center computes from an interval representable.
    public static let maximumTimeInterval: TimeInterval = 100 * 365.25 * 86_400

    public var errorDescription: String? {
        switch self {
        case .timeIntervalNotPositive(let interval):
            "The time interval must be greater than 0 seconds, but it is \(interval)."
        case .timeIntervalNotFinite(let interval):
            "The time interval must be a finite number of seconds, but it is \(interval)."
        case .repeatingTimeIntervalBelowMinimum(let interval):
            "A repeating time interval must be at least 60 seconds, but it is \(interval)."
        case .timeIntervalAboveMaximum(let interval):
            "The time interval must be at most \(Self.maximumTimeInterval) seconds (100 years), but it is \(interval)."
        case .locationRegionNotCircular:
            "A location trigger needs a CLCircularRegion; other regions cannot be watched on Linux."
        case .locationCenterInvalid(let latitude, let longitude):
            "The region's centre (\(latitude), \(longitude)) is not a valid coordinate."
        case .locationRadiusInvalid(let radius):
            "The region's radius must be a finite number of metres above 0, but it is \(radius)."
        }
    }
}
