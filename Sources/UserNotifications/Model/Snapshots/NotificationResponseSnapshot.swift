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
}
