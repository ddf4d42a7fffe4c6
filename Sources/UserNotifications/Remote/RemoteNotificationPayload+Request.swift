import Foundation

extension RemoteNotificationPayload {
    /// The request a payload is delivered as: its content, a ``UNPushNotificationTrigger``,
    /// and `identifier` (a collapse id, or a new UUID).
    package func request(identifier: String = UUID().uuidString) -> UNNotificationRequest {
        UNNotificationRequest(identifier: identifier, content: content, trigger: UNPushNotificationTrigger())
    }
}
