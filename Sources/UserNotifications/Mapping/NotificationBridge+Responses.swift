import Foundation
import FreedesktopNotifications

// The mapping back: what the server said about a notification becomes the response Apple's
// delegate expects (`mapping.md`, the response rows).
extension NotificationBridge {
    /// The response for an `ActionInvoked(actionKey)` or a KDE `NotificationReplied(text)`
    /// on `entry`.
    static func response(
        to entry: DeliveredEntry, category: UNNotificationCategory?, actionKey: String?, text: String?
    ) -> UNNotificationResponse {
        let notification = entry.notification
        let token = entry.activationToken
        if let text {
            let textAction = category?.actions.first { $0 is UNTextInputNotificationAction }
            return UNTextInputNotificationResponse(
                notification: notification, actionIdentifier: textAction?.identifier ?? NotificationAction.inlineReplyKey,
                userText: text, activationToken: token)
        }
        if actionKey == NotificationAction.defaultKey {
            return UNNotificationResponse(
                notification: notification, actionIdentifier: UNNotificationDefaultActionIdentifier, activationToken: token)
        }
        if let actionKey, category?.actions.first(where: { $0.identifier == actionKey }) is UNTextInputNotificationAction {
            // A text-input action shown as a plain button (no inline reply on this server).
            return UNTextInputNotificationResponse(
                notification: notification, actionIdentifier: actionKey, userText: "", activationToken: token)
        }
        return UNNotificationResponse(notification: notification, actionIdentifier: actionKey ?? "", activationToken: token)
    }
}
