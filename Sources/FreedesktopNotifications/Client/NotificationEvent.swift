import DBus

/// What the notification server said, in the order it said it. Every notification event
/// carries the unique name of the server instance that sent it, because ids are only unique
/// per server instance (they restart at 1 when a server restarts).
public enum NotificationEvent: Sendable, Hashable {
    /// `NotificationClosed(id, reason)`.
    case closed(id: UInt32, reason: NotificationCloseReason, server: String)
    /// `ActionInvoked(id, action_key)`.
    case actionInvoked(id: UInt32, actionKey: String, server: String)
    /// `ActivationToken(id, token)`: an XDG activation token for raising a window; sent
    /// before the matching `ActionInvoked`.
    case activationToken(id: UInt32, token: String, server: String)
    /// KDE's `NotificationReplied(id, text)`.
    case replied(id: UInt32, text: String, server: String)
    /// The owner of `org.freedesktop.Notifications` changed (a server started, stopped or was
    /// replaced). Ids of the old owner mean nothing from here on.
    case serverChanged(oldOwner: String?, newOwner: String?)
    /// The bus connection closed. The client connects again on its next use.
    case disconnected

    /// Parses a signal of the notification interface; `nil` for anything else or a signal
    /// with the wrong signature.
    init?(signal message: DBusMessage) {
        guard let sender = message.sender, message.interface == NotificationsInterface.name,
              message.body.count == 2, case .uint32(let id) = message.body[0] else { return nil }
        switch (message.member.flatMap(NotificationsSpec.Signal.init(rawValue:)), message.body[1]) {
        case (.notificationClosed, .uint32(let reason)):
            self = .closed(id: id, reason: NotificationCloseReason(rawValue: reason), server: sender)
        case (.actionInvoked, .string(let key)):
            self = .actionInvoked(id: id, actionKey: key, server: sender)
        case (.activationToken, .string(let token)):
            self = .activationToken(id: id, token: token, server: sender)
        case (.notificationReplied, .string(let text)):
            self = .replied(id: id, text: text, server: sender)
        default:
            return nil
        }
    }
}

/// Where a notification landed: the id and the server instance that assigned it.
public struct NotificationPosting: Sendable, Hashable {
    /// The id the server returned (adopt it even for an update: some servers assign a new one).
    public let id: UInt32
    /// The unique bus name of the server that replied.
    public let server: String

    /// Where a notification landed: `id` on `server`.
    package init(id: UInt32, server: String) {
        self.id = id
        self.server = server
    }
}
