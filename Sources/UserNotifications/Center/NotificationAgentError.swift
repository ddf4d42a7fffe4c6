/// Why the per-user notification agent refused a call. A Linux addition: on Apple platforms the
/// system's own notification service does not refuse an app.
///
/// The agent answers each of these as a D-Bus error named under
/// `org.desktopnotifications.Agent1.Error.`; a center that uses the agent throws it from
/// ``UNUserNotificationCenter/add(_:)``. Refusals that Apple has a ``UNError`` code for (an
/// invalid attachment, a request that can never fire) arrive as that ``UNError`` instead.
public enum NotificationAgentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The caller may not act for this app id: another process of the app is connected.
    case notAllowed(String)
    /// The app holds as many pending requests or live notifications as the agent keeps.
    case limitReached(String)
    /// An argument was malformed: a record with a field it does not have, of another type or
    /// missing (the message names it), over 1 MiB, or an app id that cannot name a desktop entry.
    case invalidArgument(String)
    /// The caller did not `Connect` for this app id first.
    case unknownApp(String)
    /// The agent failed, or could not be reached within the call deadline.
    case failed(String)
    /// The agent answered `Connect` with another interface version than the center's own: an
    /// agent left running by another install of the package. The center calls nothing more of
    /// it; choosing its engine, it goes on as when no agent is there (the reason kept as
    /// ``UNUserNotificationCenter/engineFallback``), and a center already using the agent
    /// throws this from ``UNUserNotificationCenter/add(_:)`` until an agent of its own version
    /// takes the name. Restarting the agent (`systemctl --user restart
    /// desktopnotifications-agent`, or logging out) replaces it. `agent` is the version it
    /// answered, 0 when its answer held none.
    case incompatibleVersion(agent: UInt32)

    public var description: String {
        switch self {
        case .notAllowed(let detail): "not allowed: \(detail)"
        case .limitReached(let detail): "limit reached: \(detail)"
        case .invalidArgument(let detail): "invalid argument: \(detail)"
        case .unknownApp(let detail): "unknown app: \(detail)"
        case .failed(let detail): "the notification agent failed: \(detail)"
        case .incompatibleVersion(let agent):
            "the notification agent running speaks interface version \(agent), this app version \(AgentInterface.version): restart the agent"
        }
    }
}
