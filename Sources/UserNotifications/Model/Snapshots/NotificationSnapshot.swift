/// The stored form of a delivered ``UNNotification``.
struct NotificationSnapshot: Codable, Hashable, Sendable {
    var date: Date
    var request: NotificationRequestSnapshot

    init(_ notification: UNNotification) throws(UserInfoStorageError) {
        date = notification.date
        request = try NotificationRequestSnapshot(notification.request)
    }

    func makeNotification() -> UNNotification {
        UNNotification(date: date, request: request.makeRequest())
    }
}
