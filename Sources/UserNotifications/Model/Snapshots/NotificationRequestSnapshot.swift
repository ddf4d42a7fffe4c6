/// The stored form of a ``UNNotificationRequest``.
struct NotificationRequestSnapshot: Codable, Hashable, Sendable {
    var identifier: String
    var content: NotificationContentSnapshot
    var trigger: NotificationTriggerSnapshot?

    init(_ request: UNNotificationRequest) throws(UserInfoStorageError) {
        identifier = request.identifier
        content = try NotificationContentSnapshot(request.content)
        trigger = request.trigger.map(NotificationTriggerSnapshot.init)
    }

    func makeRequest() -> UNNotificationRequest {
        UNNotificationRequest(identifier: identifier, content: content.makeContent(), trigger: trigger?.makeTrigger())
    }
}
