/// The action identifier of a response to the user opening the notification itself rather than
/// choosing one of its actions. On Linux: the server's `default` action, a click on the body.
public let UNNotificationDefaultActionIdentifier: String = "com.apple.UNNotificationDefaultActionIdentifier"

/// The action identifier of a response to the user dismissing the notification. Only sent for
/// categories with ``UNNotificationCategoryOptions/customDismissAction``; on Linux when the
/// server reports that the user closed the notification.
public let UNNotificationDismissActionIdentifier: String = "com.apple.UNNotificationDismissActionIdentifier"

/// The user's answer to a delivered notification: which notification, and which action.
open class UNNotificationResponse: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    private let storedNotification: UNNotification
    private let storedActionIdentifier: String
    private let storedActivationToken: String?

    /// The notification the user answered.
    open var notification: UNNotification { storedNotification }

    /// The identifier of the chosen action, or ``UNNotificationDefaultActionIdentifier`` or
    /// ``UNNotificationDismissActionIdentifier``.
    open var actionIdentifier: String { storedActionIdentifier }

    /// The token the notification server sent with the action, which lets the app raise its
    /// window (`XDG_ACTIVATION_TOKEN`, or the X11 startup id). **Linux addition, not Apple API.**
    /// `nil` when the server sent none before the action arrived; it is never waited for.
    open var activationToken: String? { storedActivationToken }

    init(notification: UNNotification, actionIdentifier: String, activationToken: String? = nil) {
        storedNotification = notification
        storedActionIdentifier = actionIdentifier
        storedActivationToken = activationToken
        super.init()
    }

    // MARK: - NSObject, NSCopying, NSSecureCoding

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationResponse else { return false }
        return Swift.type(of: other) == Swift.type(of: self) && notification == other.notification
            && actionIdentifier == other.actionIdentifier && activationToken == other.activationToken
    }

    open override var hash: Int { actionIdentifier.hashValue }

    /// Responses are immutable, so a copy is the response itself.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    public class var supportsSecureCoding: Bool { true }

    open func encode(with coder: NSCoder) {
        guard let snapshot = try? NotificationResponseSnapshot(self) else { return }
        coder.encodeSnapshot(snapshot)
    }

    public required init?(coder: NSCoder) {
        guard let snapshot = coder.decodeSnapshot(NotificationResponseSnapshot.self), snapshot.userText == nil else { return nil }
        storedNotification = snapshot.notification.makeNotification()
        storedActionIdentifier = snapshot.actionIdentifier
        storedActivationToken = snapshot.activationToken
        super.init()
    }
}
