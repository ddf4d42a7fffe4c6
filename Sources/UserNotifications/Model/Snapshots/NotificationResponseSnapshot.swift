/// The archived form of a ``UNNotificationResponse``; `userText` is set for text-input responses.
struct NotificationResponseSnapshot: Codable, Hashable, Sendable {
    var notification: NotificationSnapshot
    var actionIdentifier: String
    var userText: String?
    var activationToken: String?

    init(_ response: UNNotificationResponse) throws(UserInfoStorageError) {
        notification = try NotificationSnapshot(response.notification)
        actionIdentifier = response.actionIdentifier
        userText = (response as? UNTextInputNotificationResponse)?.userText
        activationToken = response.activationToken
    }

    /// The response this snapshot archives: a ``UNTextInputNotificationResponse`` when it carries
    /// text, with `activationToken` when the snapshot has none.
    func makeResponse(activationToken fallback: String? = nil) -> UNNotificationResponse {
        let notification = notification.makeNotification()
        let token = activationToken ?? fallback
        if let userText {
            return UNTextInputNotificationResponse(
                notification: notification, actionIdentifier: actionIdentifier, userText: userText, activationToken: token)
        }
        return UNNotificationResponse(notification: notification, actionIdentifier: actionIdentifier, activationToken: token)
    }
}
