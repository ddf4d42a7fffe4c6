/// The agent's budgets, per app id and for the whole agent. A real user never meets them; a
/// hostile app meets them at once and gets
/// ``UserNotifications/NotificationAgentError/limitReached(_:)`` (or
/// ``UserNotifications/NotificationAgentError/invalidArgument(_:)`` for a single value too
/// large), and nothing of what it sent is kept.
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
    /// The most bytes of one request as it travels (its record, as
    /// ``UserNotifications/AgentPayload/size(of:)`` counts it): 64 KiB. A larger one is refused
    /// with ``UserNotifications/NotificationAgentError/invalidArgument(_:)``.
    public static let requestBytes = 64 * 1024
    /// The most bytes of requests an app keeps, pending and shown together, with its
    /// categories, counted as they traveled: 16 MiB. A `SetCategories` past it is refused with
    /// ``UserNotifications/NotificationAgentError/limitReached(_:)``, as an `Add` is.
    public static let appStateBytes = 16 << 20
    /// The most bytes of requests and categories the agent keeps for all apps together: 256 MiB.
    public static let agentStateBytes = 256 << 20
    /// The most bytes of attachment files an app keeps in the agent's store: 64 MiB.
    public static let appAttachmentBytes = 64 << 20
    /// The most bytes of attachment files the agent keeps for all apps together: 512 MiB.
    public static let agentAttachmentBytes = 512 << 20
    /// The most attachments one request carries: 16.
    public static let attachmentsPerRequest = 16
    /// The most apps the agent holds at once: 128. An app that is not connected and holds
    /// nothing (no pending request, no shown notification, no queued response, no push
    /// registration) is let go, its state folder removed, and makes room.
    public static let apps = 128
    /// The most apps whose state the agent keeps on disk (held or not): 1,024. A new app id
    /// past it is refused.
    public static let keptApps = 1024
    /// The longest display name an app connects with, in bytes: 256.
    public static let displayNameBytes = 256
    /// The longest icon an app connects with, in bytes: 1,024. A sandboxed app's icon is a
    /// name from the icon theme (no `/`); a host app's may also be an absolute path.
    public static let iconBytes = 1024
}

extension AgentLimits {
    /// The caps an app's `Add` is checked against: ``AgentLimits/pendingRequests`` and
    /// ``AgentLimits/liveNotifications``, or smaller ones a test gives the service.
    package struct AddCaps: Sendable, Hashable {
        /// The most pending requests an app keeps.
        package var pendingRequests: Int
        /// The most notifications an app shows at once.
        package var liveNotifications: Int
        /// The most bytes of requests and categories an app keeps.
        package var appStateBytes: Int
        /// The most bytes of requests and categories all apps keep together.
        package var agentStateBytes: Int
        /// The most apps held at once.
        package var apps: Int

        /// Caps of the given sizes.
        package init(
            pendingRequests: Int, liveNotifications: Int, appStateBytes: Int = AgentLimits.appStateBytes,
            agentStateBytes: Int = AgentLimits.agentStateBytes, apps: Int = AgentLimits.apps
        ) {
            self.pendingRequests = pendingRequests
            self.liveNotifications = liveNotifications
            self.appStateBytes = appStateBytes
            self.agentStateBytes = agentStateBytes
            self.apps = apps
        }

        /// The documented caps.
        package static let standard = AddCaps(
            pendingRequests: AgentLimits.pendingRequests, liveNotifications: AgentLimits.liveNotifications)
    }
}
