/// The user's answer to a text-input action: the response plus the text they typed.
///
/// On Linux this comes from servers with KDE's inline-reply extension. Where the server has no
/// inline reply, a text-input action is an ordinary button and answers with a plain
/// ``UNNotificationResponse``.
open class UNTextInputNotificationResponse: UNNotificationResponse, @unchecked Sendable {
    private let storedUserText: String

    /// The text the user entered.
    open var userText: String { storedUserText }

    init(
        notification: UNNotification,
        actionIdentifier: String,
        userText: String,
        activationToken: String? = nil
    ) {
        storedUserText = userText
        super.init(notification: notification, actionIdentifier: actionIdentifier, activationToken: activationToken)
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard super.isEqual(object), let other = object as? UNTextInputNotificationResponse else { return false }
        return userText == other.userText
    }

    public required init?(coder: NSCoder) {
        guard let snapshot = coder.decodeSnapshot(NotificationResponseSnapshot.self),
              let userText = snapshot.userText
        else { return nil }
        storedUserText = userText
        super.init(
            notification: snapshot.notification.makeNotification(),
            actionIdentifier: snapshot.actionIdentifier,
            activationToken: snapshot.activationToken
        )
    }
}
