/// Why a center's notifications do not live where it first tried to keep them: the agent
/// refused the app or could not be reached, or the portal or GNOME's interface could not be
/// reached. A Linux addition: on Apple platforms the system's own notification service always
/// takes an app. ``UNUserNotificationCenter/engineFallback`` gives it; the fallback is also
/// logged (label `org.desktopnotifications.center`).
///
/// The usual refusal: a second copy of an app while the first is connected to the agent.
/// The agent serves one process per app id, so the second copy's center is refused
/// (``NotificationAgentError/notAllowed(_:)``) and keeps its notifications in its own
/// process: its pending requests fire only while it runs, and its notifications may not outlive
/// it. An app that should run once can quit when it sees this, after handing its work to the
/// first copy.
public struct NotificationEngineFallback: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the engine tried was not used.
    public enum Reason: Sendable, Hashable {
        /// The agent answered `Connect` with a refusal (``NotificationAgentError/notAllowed(_:)``
        /// when another process of the app is connected, or another of its errors).
        case refused(NotificationAgentError)
        /// The engine could not be reached: the bus failed, or the agent did not answer `Connect`
        /// within its deadline or failed.
        case unreachable(String)
    }

    /// The engine the center tried: ``NotificationEngineKind/agent``,
    /// ``NotificationEngineKind/portal`` or ``NotificationEngineKind/gnome``.
    public let attempted: NotificationEngineKind
    /// Why it was not used.
    public let reason: Reason

    /// A fallback from `attempted` for `reason`.
    public init(attempted: NotificationEngineKind, reason: Reason) {
        self.attempted = attempted
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .refused(let error): "the \(attempted) engine refused the app: \(error)"
        case .unreachable(let detail): "the \(attempted) engine could not be reached: \(detail)"
        }
    }
}
