/// Why ``UNUserNotificationCenter/registerForRemoteNotifications(distributor:description:)``
/// failed: what Apple hands `application(_:didFailToRegisterForRemoteNotificationsWithError:)`.
/// A Linux addition.
public enum RemoteNotificationRegistrationError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// No UnifiedPush distributor owns or can activate an `org.unifiedpush.Distributor.*`
    /// name on the session bus.
    case noDistributor
    /// The distributor asked for is not on the bus.
    case distributorNotFound(String)
    /// The distributor answered `REGISTRATION_FAILED` with this reason (`INTERNAL_ERROR`,
    /// `NETWORK`, `ACTION_REQUIRED`, `VAPID_REQUIRED`, or its own).
    case refused(reason: String)
    /// The distributor accepted the registration but sent no endpoint in time.
    case noEndpoint(distributor: String)
    /// A bus failure.
    case bus(String)
    /// The app's keys could not be read or kept.
    case storage(String)

    /// A sentence naming the failure.
    public var description: String {
        switch self {
        case .noDistributor: "no UnifiedPush distributor is on the session bus"
        case .distributorNotFound(let name): "the UnifiedPush distributor \(name) is not on the bus"
        case .refused(let reason): "the distributor refused the registration: \(reason)"
        case .noEndpoint(let distributor): "\(distributor) sent no endpoint in time"
        case .bus(let detail): "bus failure: \(detail)"
        case .storage(let detail): "the push keys cannot be kept: \(detail)"
        }
    }
}
