import Foundation
@testable import UserNotifications

/// Builds what only the center creates on Apple platforms: delivered notifications and responses.
enum DeliveredNotifications {
    static func notification(
        identifier: String = "delivered",
        content: UNNotificationContent = UNMutableNotificationContent(),
        trigger: UNNotificationTrigger? = nil,
        date: Date = Date(timeIntervalSince1970: 1_700_000_000)
    ) -> UNNotification {
        UNNotification(date: date, request: UNNotificationRequest(identifier: identifier, content: content, trigger: trigger))
    }

    static func pushNotification(content: UNNotificationContent) -> UNNotification {
        notification(identifier: "remote", content: content, trigger: UNPushNotificationTrigger())
    }

    static func response(to notification: UNNotification, actionIdentifier: String) -> UNNotificationResponse {
        UNNotificationResponse(notification: notification, actionIdentifier: actionIdentifier)
    }

    static func textResponse(to notification: UNNotification, actionIdentifier: String, userText: String) -> UNNotificationResponse {
        UNTextInputNotificationResponse(notification: notification, actionIdentifier: actionIdentifier, userText: userText)
    }
}
