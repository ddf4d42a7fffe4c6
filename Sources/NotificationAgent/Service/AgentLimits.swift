/// The agent's bounds, per app id.
public enum AgentLimits {
    /// The most pending requests an app keeps; `Add` of a request with a trigger past it is
    /// refused with ``UserNotifications/NotificationAgentError/limitReached(_:)``.
    public static let pendingRequests = 10_000
    /// The most notifications an app shows at once; `Add` of one more to show now is refused
    /// with ``UserNotifications/NotificationAgentError/limitReached(_:)``.
    public static let liveNotifications = 1_000
    /// The most responses kept for an app until its center acknowledges them; past it the oldest is
    /// dropped, with a log line.
    public static let queuedResponses = 256
    /// How long a queued response waits for its app: seven days; an older one is dropped.
    public static let responseLifetime: Duration = .seconds(7 * 24 * 3600)
}

extension AgentLimits {
    /// The caps an app's `Add` is checked against: ``AgentLimits/pendingRequests`` and
    /// ``AgentLimits/liveNotifications``, or smaller ones a test gives the service.
    package struct AddCaps: Sendable, Hashable {
        /// The most pending requests an app keeps.
        package var pendingRequests: Int
        /// The most notifications an app shows at once.
        package var liveNotifications: Int

        /// Caps of the given sizes.
        package init(pendingRequests: Int, liveNotifications: Int) {
            self.pendingRequests = pendingRequests
            self.liveNotifications = liveNotifications
        }

        /// The documented caps.
        package static let standard = AddCaps(
            pendingRequests: AgentLimits.pendingRequests, liveNotifications: AgentLimits.liveNotifications)
    }
}
