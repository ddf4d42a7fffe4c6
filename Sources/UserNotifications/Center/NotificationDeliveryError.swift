import FreedesktopNotifications

/// Why `add` failed on Linux beyond Apple's ``UNError`` codes. A Linux addition.
public enum NotificationDeliveryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A string of the request cannot be sent (a NUL character), or a field is over the
    /// client-side limits.
    case invalidContent(field: String, reason: String)
    /// No notification server runs on the session bus and none can be started; or there
    /// is no session bus at all.
    case noNotificationServer(String)
    /// The notification server or the bus failed (timeout, disconnect, an error reply).
    case serverFailed(String)

    public var description: String {
        switch self {
        case .invalidContent(let field, let reason): "the notification's \(field) cannot be sent: \(reason)"
        case .noNotificationServer(let detail): "no notification server: \(detail)"
        case .serverFailed(let detail): "the notification server failed: \(detail)"
        }
    }

    init(_ error: NotificationsError) {
        switch error {
        case .invalidArgument(let field, let reason): self = .invalidContent(field: field, reason: reason)
        case .tooLarge(let field, let size, let limit):
            self = .invalidContent(field: field, reason: NotificationsError.overLimit(field: field, size: size, limit: limit))
        case .invalidImage(let reason): self = .invalidContent(field: "image", reason: reason)
        case .noServer(let detail): self = .noNotificationServer(detail)
        case .bus(.noBusAddress(let detail)): self = .noNotificationServer(detail)
        case .bus(.connectionFailed(_, let message)): self = .noNotificationServer(message)
        default: self = .serverFailed(error.description)
        }
    }
}
