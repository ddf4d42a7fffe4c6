/// Why location triggers cannot be watched. **Linux addition, not Apple API.**
///
/// Apple's `UNError` has no code for a missing or refused location service (on Apple platforms
/// the app asks CoreLocation for permission first, and a trigger added without it simply never
/// fires). Here the position comes from GeoClue2 on the system bus, and
/// `UNUserNotificationCenter.add(_:)` fails with this error when a request with a
/// `UNLocationNotificationTrigger` cannot be watched, so the app learns it at once.
public enum LocationServiceError: Error, LocalizedError, Hashable, Sendable {
    /// GeoClue2 (`org.freedesktop.GeoClue2` on the system bus) is not running and cannot be
    /// started, or the system bus cannot be reached; the detail says which.
    case serviceUnavailable(String)

    /// GeoClue2 refused the app: its `Start` failed with `AccessDenied`, or the client it made
    /// for the app stopped being active (the user or the system turned location off for it).
    case accessDenied(String)

    /// GeoClue2 answered, but not as its interface says; the detail says what was wrong.
    case serviceFailed(String)

    /// What went wrong with the location service, in one line.
    public var errorDescription: String? {
        switch self {
        case .serviceUnavailable(let detail): "No location service (GeoClue2) is available: \(detail)"
        case .accessDenied(let detail): "The location service (GeoClue2) denies this app: \(detail)"
        case .serviceFailed(let detail): "The location service (GeoClue2) failed: \(detail)"
        }
    }
}
